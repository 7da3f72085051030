package research

// Corrections: a source that says a figure is wrong gives the figure it
// replaces and the one it puts in its place. The figure replaced is no
// claim of the source's (it is what another source said); the one put
// in its place corrects it, whatever the words it is put in, and a
// discrepancy prefers it.

import (
	"regexp"
	"strings"
)

// errorNextRE is a sentence that calls the one before it wrong: "This
// is incorrect.", "That figure is wrong:".
var errorNextRE = regexp.MustCompile(`(?i)^(?:this|that|these|those|it|the (?:figure|number|report|claim|amount|date))\b[^.:;]{0,30}?\b(?:is|was|are|were)\s+(?:not (?:correct|true|accurate|right)|wrong|incorrect|inaccurate|mistaken|untrue|an? (?:error|mistake|typo))\b`)

// correctionRE opens a sentence that states a correction.
var correctionRE = regexp.MustCompile(`(?i)^(?:correction|erratum|clarification|update)\b`)

// reportingRE says what a source said: the figures after it in a
// correction are what was said.
var reportingRE = regexp.MustCompile(`(?i)\b(?:said|says|reported|stated|gave|put|wrote|listed|described|published|claimed)\b`)

// replacedSentence reports a claim of sentence i that the passage says is
// wrong: the next sentence calls it so, or the sentence states a
// correction and gives the claim as what a report said.
func replacedSentence(sentences []string, i int, c Claim) bool {
	if i+1 < len(sentences) && errorNextRE.MatchString(sentences[i+1]) {
		return true
	}
	s := sentences[i]
	// "In our October feature, we wrote that the station opened on 8
	// August 2024." in a correction, or "we misstated the date as".
	if m := ownReportRE.FindStringSubmatchIndex(s); m != nil && c.Value.Start > m[1] && (m[2] >= 0 || m[4] >= 0 || correctingSentences(sentences)) {
		return true
	}
	// "**Correction:** A Herald report on 2 July stated that".
	if !correctionRE.MatchString(strings.TrimLeft(s, "#*_ ")) {
		return false
	}
	m := reportingRE.FindStringIndex(s)
	return m != nil && c.Value.Start > m[1]
}

// ownReportRE is a source telling what it said itself before: "we
// wrote that", "our story of 2 July stated", "we wrongly reported";
// its groups hold a word that owns the error.
var ownReportRE = regexp.MustCompile(`(?i)\b(?:we|our\s+(?:\S+\s+){0,6}?(?:story|article|feature|report|piece|issue|edition|release|statement|post|item))\s+(?:had\s+)?(?:((?:incorrectly|wrongly|mistakenly|erroneously)\s+)?(?:wrote|said|reported|stated|gave|printed|published|listed|put)|(misstated|misreported))\b`)

// correctingSentences reports sentences of a correction: one opens with
// "Correction" or owns up to an error.
func correctingSentences(sentences []string) bool {
	for _, s := range sentences {
		if correctionRE.MatchString(strings.TrimLeft(s, "#*_ ")) || regretsRE.MatchString(s) {
			return true
		}
	}
	return false
}

// revisionRE is a sentence that says figures given before were wrong
// without giving them: "Earlier figures overstated the cost", "the
// preliminary count was too high".
var revisionRE = regexp.MustCompile(`(?i)\b(?:earlier|previous|previously|preliminary|initial|interim|provisional|first)\b[^.;]{0,80}?\b(?:overstated|understated|overestimated|underestimated|superseded|wrong|incorrect|inaccurate|too (?:high|low))\b`)

// anyUnit stands, among corrected units, for every unit but a date's.
const anyUnit = "*"

// correctedUnits are the units of the figures a passage says are wrong:
// its other figures of those units correct them. A passage that says
// earlier figures were wrong without naming them (revisionRE) corrects
// with all its figures (anyUnit).
func correctedUnits(sentences []string, subject []string) map[string]bool {
	units := map[string]bool{}
	for i, s := range sentences {
		if revisionRE.MatchString(s) {
			units[anyUnit] = true
		}
		if !strings.Contains(strings.ToLower(s), "not") && !correctionRE.MatchString(strings.TrimLeft(s, "#*_ ")) && (i+1 >= len(sentences) || !errorNextRE.MatchString(sentences[i+1])) &&
			!holdsAnyWord(strings.ToLower(s), errorWords) && !ownReportRE.MatchString(s) {
			continue
		}
		for _, c := range Claims(s, subject) {
			if c.Replaced || replacedSentence(sentences, i, c) {
				units[c.Unit] = true
			}
		}
	}
	return units
}

func holdsAnyWord(s string, words map[string]bool) bool {
	for w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// regretsRE is a source owning up to an error: "KCVT regrets the
// error", "we apologise for the mistake".
var regretsRE = regexp.MustCompile(`(?i)\b(?:regrets?|apologi[sz]es?)\s+(?:for\s+)?(?:the|this|that|our|any)\s+(?:error|mistake|errors|mistakes|confusion)\b`)

// correcting reports a passage that is a correction: a heading or a
// sentence that opens with "Correction", or one that owns up to an
// error.
func correcting(text string) bool {
	for _, s := range Sentences(text) {
		if correctionRE.MatchString(strings.TrimLeft(s, "#*_ ")) || regretsRE.MatchString(s) {
			return true
		}
	}
	return false
}
