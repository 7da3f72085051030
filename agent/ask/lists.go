package ask

import (
	"regexp"
	"strings"
)

// A question may ask for several things of a kind: "Which packages does
// R load at startup?", "What kinds of fog can it render?", "What are the
// phases of a run?". A manual answers with a list ("grDevices, graphics,
// stats and methods"), often after a sentence that only announces it
// ("The set of packages loaded on startup is by default"), which alone
// does not answer.

var (
	// kindsOfRe asks for the kinds of a thing.
	kindsOfRe = regexp.MustCompile(`(?i)^\s*(?:in\s+)?(?:which|what)\s+(?:kinds|types|sorts)\s+of\b`)
	// pluralAskRe asks for things named in the plural: "Which file
	// formats can ...", "What are the phases ...", "What packages are
	// ..."; not "In what increments do ...?", which asks for a measure.
	pluralAskRe = regexp.MustCompile(`(?i)^\s*(?:in\s+|from\s+|with\s+)?(?:which\s+(?:[\w-]+\s+){0,2}?([\w-]+s)\s+(?:are|were|do|does|did|can|could|may|must|should|will|is|in|of)|what\s+(?:are\s+the\s+(?:[\w-]+\s+){0,2}?([\w-]+s)|(?:[\w-]+\s+){0,2}?([\w-]+s)\s+(?:are|were)))\b`)
	// listPartRe parts a list's items: commas, semicolons, "and", "or",
	// "&", bullets.
	listPartRe = regexp.MustCompile(`[,;•]|\s(?:and|or|&)\s`)
)

// asksList reports whether a question asks for several things.
func asksList(question string) bool {
	if kindsOfRe.MatchString(question) {
		return true
	}
	m := pluralAskRe.FindStringSubmatch(question)
	if m == nil {
		return false
	}
	w := strings.ToLower(m[1] + m[2] + m[3])
	return len(w) > 3 && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is") && !genericWords[w]
}

// hasList reports whether a line lists three things or more, a comma
// among them ("CSV, JSON and plain text"); not "black and white images".
func hasList(u string) bool {
	n := len(listPartRe.FindAllString(u, -1))
	return n >= 3 || n == 2 && strings.Contains(u, ",")
}
