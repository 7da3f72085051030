package ask

import (
	"regexp"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry/retrieve"
)

// A question that asks for a value of a kind (a version, a date, a count
// or a size, a person, a default) is answered only by a line that holds
// one: "Which version of siunitx does hepunits require?" is not answered
// by "hepunits requires the siunitx and amsmath packages", however many of
// its words that line has. The words that say what kind of value is asked
// for ("version", "default", "added", "supported") are how the question is
// put; the line that answers holds the value beside the question's focus.

// asks is the kind of value a question cannot be answered without.
type asks struct {
	version  bool // "Which version of X added Y?", "In which release ...?"
	date     bool // "When was X released?", "In what year ...?"
	count    bool // "How many ...?", "How big ...?", "What is the number of ...?"
	person   bool // "Who ...?", "Whose ...?"
	fallback bool // "What is the default ...?"
	// counted is what "How many X ...?" counts ("files").
	counted string
	// of is what the version asked for is of, when the question says
	// ("siunitx" in "Which version of siunitx does hepunits require?",
	// "python" in "Which Python version ...?").
	of string
}

var versionOfRe = regexp.MustCompile(`(?i)\b(?:version|release)s?\s+of\s+(?:the\s+)?([\pL\d][\w.+-]*)|\b(?:which|what)\s+([\pL\d][\w.+-]*)\s+(?:version|release)s?\b`)

var (
	versionAskRe = regexp.MustCompile(`(?i)\b(which|what)\s+(?:[\w-]+\s+){0,2}?(version|release)s?\b|\b(since|from|in|as of)\s+(which|what)\s+(version|release)\b`)
	dateAskRe    = regexp.MustCompile(`(?i)^\s*when\s+(was|were|did)\b|\b(which|what|in which|in what)\s+(year|date|day|month)\b|\bsince when\b|\bhow long ago\b`)
	// countAskRe finds a question for a number, a size or a range of
	// numbers ("Which uid range ...?").
	countAskRe  = regexp.MustCompile(`(?i)\bhow\s+(many|much|big|large|long|wide|tall|high|heavy|fast|small|thick)\b|\bwhat\s+(is|was|are|were)\s+the\s+(number|amount|size|count|percentage|length|width|height)\b|\b(which|what)\s+(?:[\w-]+\s+){0,2}?ranges?\b`)
	personAskRe = regexp.MustCompile(`(?i)^\s*who\b|\bwhose\b|\bby whom\b`)
	// fallbackAskRe finds a question for a default's value: "What is the
	// default X?", "How big is X by default?"; not "Where is the default
	// font path configured?" nor "How do I change the default?".
	fallbackAskRe = regexp.MustCompile(`(?i)^\s*(what|which|how\s+(big|large|many|much|long|wide|tall|high|thick|small|is|are))\b[^?]*\bdefaults?\b|\bby default\b`)
)

// asksOf returns the kind of value a question asks for; the zero asks when
// it asks for none that a line can be checked for (a way, a reason, yes or
// no, a name of a thing).
func asksOf(question string) asks {
	a := asks{version: versionAskRe.MatchString(question), date: dateAskRe.MatchString(question),
		count: countAskRe.MatchString(question), person: personAskRe.MatchString(question),
		fallback: fallbackAskRe.MatchString(question)}
	if m := versionOfRe.FindStringSubmatch(question); m != nil {
		a.of = strings.ToLower(m[1] + m[2])
	}
	if m := countedPhraseRe.FindStringSubmatch(question); m != nil {
		ws := strings.Fields(strings.ToLower(m[1]))
		a.counted = ws[len(ws)-1] // "levels" of "nested levels"
	}
	return a
}

// countedPhraseRe finds what "How many ...?" counts: the words up to a
// verb or "of" ("How many nested levels of macro rescans does ...?").
var countedPhraseRe = regexp.MustCompile(`(?i)\bhow\s+many\s+((?:[\pL-]+\s+){0,3}?[\pL-]+)\s+(?:of|does|do|did|are|is|was|were|can|could|will|would|should|have|has|had|in|on|at|for|from|to)\b`)

// countsIt reports whether a line that names the thing a question counts
// gives a number of it: within six words of it ("16 or fewer
// off-diagonal entries", "nested levels of macro rescans) | 64"). "The routine opens the file
// ... NAXIS greater than 0" names files and counts none. A line that
// does not name the thing may count it in its own words ("#define
// AMD_INFO 20 /* size of Info array */").
func (a asks) countsIt(u string) bool {
	if a.counted == "" {
		return true
	}
	ws := strings.Fields(strings.ToLower(withoutRefs(u)))
	want := stem(a.counted)
	named := false
	for i, w := range ws {
		if stem(strings.Trim(w, ",.;:()*")) != want {
			continue
		}
		named = true
		for j := max(0, i-6); j <= min(len(ws)-1, i+6); j++ {
			if x := strings.Trim(ws[j], ",.;:()*"); plainNumberRe.MatchString(x) || numeralRe.MatchString(x) {
				return true
			}
		}
	}
	return !named
}

// versionOf reports whether a line that gives a version gives it of the
// thing the question asks the version of: beside it ("siunitx v2.1",
// "siunitx (>= 2.1)", "version 2.1 of siunitx"). "The hepunits v2 package
// extends the siunitx package" gives hepunits' version, not siunitx's. A
// question about the version of a document of the room (named) is
// answered by the versions that document gives, whatever they are next
// to.
func (a asks) versionOf(u string, named map[string]bool) bool {
	if !a.version || a.of == "" || kindWords[a.of] || slices.ContainsFunc(retrieve.Words(a.of), func(w string) bool { return named[w] }) {
		return true
	}
	x := regexp.QuoteMeta(a.of)
	re := regexp.MustCompile(`(?i)\b` + x + `(\W+\w+){0,3}?\W+(v|versions?\s*|releases?\s*|\(\s*(>=?|≥)?\s*)?\d+(\.\d+)*|\b(v|versions?|releases?)\s*\d+(\.\d+)*\w*(\s+(up to|to|through|and)\s+\d+(\.\d+)*)?\s+of\s+(the\s+|this\s+)?(` + x + `|licen[cs]e|package|program|library)\b`)
	return re.MatchString(u)
}

// any reports whether the question asks for a value a line must hold.
func (a asks) any() bool { return a.version || a.date || a.count || a.person || a.fallback }

// held reports whether a line holds a value of the kind asked for: a
// version number (or the year a release is named by), a date, a number,
// a person, a default that says its value. A default asked for as a
// size ("What is the default width?") is held by a line that gives the
// default, whatever its value is ("the default is \linewidth").
func (a asks) held(u string) bool {
	if a.fallback {
		return givesDefault(u)
	}
	u = withoutRefs(u) // "(section 4.3)" gives no version, "[1, 2]" no number
	return a.version && (versionNumberRe.MatchString(u) || yearOrDateRe.MatchString(u)) ||
		a.date && yearOrDateRe.MatchString(u) ||
		a.count && (hasAmount(u) || numeralRe.MatchString(u)) && a.countsIt(u) ||
		a.person && (hasName(u) || byNameRe.MatchString(u))
}

var (
	// versionNumberRe finds a version's number: "1.61", "v6.0d",
	// "version 3", "release 2", "versions 5 up to 12".
	versionNumberRe = regexp.MustCompile(`(?i)\b[vr]?\d+\.\d+[\w.-]*|\b(versions?|releases?|v)\s*\d+\b`)
	// numeralRe finds a number written as a word: "six decimal places",
	// "only one level of undo".
	numeralRe = regexp.MustCompile(`(?i)\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|hundred|thousand|million|billion|once|twice|half|dozen|single|double)\b`)
	// byNameRe finds a person named after "by": "proposed by Kamada".
	byNameRe = regexp.MustCompile(`\b(by|from|to|thanks)\s+(Dr\.?\s+|Prof\.?\s+)?\p{Lu}[\p{Ll}'-]+\b`)
	// defaultValueRe finds a default that says its value: "the default
	// is 0.5em", "Default: quantum", "(default)", "defaults to", "by
	// default, nodes are ellipses", "initially empty", a table's row
	// under a "Default" column ("Name shape; Default ellipse; ...").
	defaultValueRe = regexp.MustCompile(`(?i)\bdefaults?(\s+(value|setting|size|width|value is))?\s*(is|was|are|:|=|\(|,|of\s+[\d.]|\s[\d.])|\(default\)|\bdefaults?\s+to\b|\bby default\b|\binitially\s|\bdefault\s+[\\\d.]|\bdefault\s+[^\s;]+(;|$)`)
)

// givesDefault reports whether a line says what a default is, not only
// that there is one ("you can set default values for every list").
// A setting's definition gives its default without saying the word:
// "\heavyrulewidth=.08em".
func givesDefault(u string) bool {
	return defaultValueRe.MatchString(u) || defaultRe.MatchString(u) && hasAmount(u) || assigns(u) || defaultIs(u)
}

// defaultIsRe finds a default named by what it is of: "the default
// filename is 'plot.dat'", "The default colour is green".
var defaultIsRe = regexp.MustCompile(`(?i)\bdefault\s+[\pL-]+\s+(?:is|are|was|were)\s+([^\s.,;]+)`)

// defaultIs reports whether a line says what a default of something is
// (defaultIsRe), not what is done to it: "the default settings are
// restored" gives none.
func defaultIs(u string) bool {
	for _, m := range defaultIsRe.FindAllStringSubmatch(u, -1) {
		w := strings.ToLower(m[1])
		if !strings.HasSuffix(w, "ed") && !irregularVerbs[w] && !commonVerbs[w] && !adverbs[w] {
			return true
		}
	}
	return false
}

// adverbs come between a verb and what it says without saying it.
var adverbs = map[string]bool{"not": true, "also": true, "only": true, "then": true, "now": true, "usually": true,
	"always": true, "never": true, "often": true, "still": true, "just": true}

// assignRe finds a setting given a value, as its definition states it:
// "\heavyrulewidth=.08em", "fontsize = 14"; not a key given a value
// where it is used, inside an option list or an argument
// ("\usepackage[textwidth=4cm]", "\setlist{labelsep=2em}"), which is an
// example's value, not a default.
var assignRe = regexp.MustCompile(`(^|[\s;])\\?[\pL@][\w@-]*\s?=\s?[\d.\\+"'-]`)

// assigns reports whether a line gives a setting its value as its
// definition does (assignRe), outside any brackets: a value, not a
// placeholder ("textwidth=length") nor an example's option list
// ("[label = \textbullet, labelsep = 2em]").
func assigns(u string) bool {
	for _, m := range assignRe.FindAllStringIndex(u, -1) {
		depth := 0
		for _, c := range u[:m[0]] {
			switch c {
			case '[', '{', '(':
				depth++
			case ']', '}', ')':
				depth--
			}
		}
		if depth <= 0 {
			return true
		}
	}
	return false
}

// near reports whether a line that holds the value asked for is about the
// question's focus: the line (own: with the sentence before it, or a table
// row's header) has one of the soft words when there are some, and it or
// what sets its scene (around: its heading, the document's title) has
// each strong word but those that say the kind of value asked for
// ("version" in "Which Python version ...?"). "This file describes version v1.1" does not say
// which Python version nucleardata needs; a heading is not enough to be
// about a thing ("Version 2.3 added solar charging" under "Lantern" does
// not say which version added its boost mode).
func near(strong, soft []string, own, around string) bool {
	var need []string
	for _, w := range strong {
		if !kindWords[w] {
			need = append(need, w)
		}
	}
	if len(missing(need, own+"\n"+around)) > 0 {
		return false
	}
	var focus []string
	for _, w := range soft {
		if !kindWords[w] && !commonVerbs[w] { // "come" in "How many hooks come with it?" is how it is asked
			focus = append(focus, w)
		}
	}
	return len(focus) == 0 || len(missing(focus, own)) < len(focus)
}

// kindWords say what kind of value a question asks for, not what about.
var kindWords = map[string]bool{"version": true, "versions": true, "release": true, "releases": true, "year": true,
	"date": true, "default": true, "defaults": true, "number": true, "many": true, "much": true, "size": true,
	"added": true, "introduced": true}

// what names the kind of value asked for, for a refusal.
func (a asks) what() string {
	switch {
	case a.fallback:
		return "the default's value"
	case a.version:
		return "a version"
	case a.date:
		return "a date"
	case a.count:
		return "a number"
	default:
		return "a person's name"
	}
}
