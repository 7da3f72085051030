package retrieve

import (
	"regexp"
	"strings"
)

// A PDF of a typeset manual breaks words at the end of its lines with a
// hyphen ("homoge-" above "neous", "de-" above "fault"): a question's
// "default" is then in no chunk, neither for the index nor for the
// answer's words. Dehyphenate mends the words before a page is chunked.

var (
	// brokenRe finds a word broken at the end of a line: letters and a
	// hyphen, the line's last (a word that has a hyphen already,
	// "out-of-", is a compound's and left as it is), then the letters
	// that start the next line.
	brokenRe = regexp.MustCompile(`(^|[\s(])([A-Za-z]?[a-z]+)-[ \t]*\n([ \t]*)([a-z]+)([.,;:!?)]*[ \t]?)`)
)

// compoundParts are the words that follow a hyphen in compounds a line
// may end inside ("user-\nspecific", "built-\nin"), and those that
// precede one ("non-\noverlapping"): a hyphen there is the word's own.
var compoundParts = setOf("based", "like", "specific", "level", "defined", "dependent", "independent", "only", "wide",
	"free", "safe", "aware", "oriented", "related", "sensitive", "separated", "time", "point", "bit", "byte", "side",
	"end", "line", "in", "out", "up", "down", "off", "on", "by", "to", "of", "the", "and", "or", "case", "known",
	"non", "self", "well", "user", "built", "high", "low", "cross", "left", "right", "one", "two", "three", "half",
	"multi", "semi", "anti", "quasi", "pseudo", "command", "read", "write", "run", "zero", "floating", "double", "single")

// Dehyphenate returns page with the words that a hyphen breaks at the end
// of a line whole on the first line ("homogeneous" above "linear
// systems"), the hyphen kept where it is a compound's ("user-specific"):
// one of its parts is a word compounds are made of, or the page writes
// the word with the hyphen elsewhere. It keeps every character where it
// was counted: the page is as long in runes, the line breaks stay, and
// the spaces the moved letters leave end the first line, so offsets into
// the page still find the chunks cut from it.
func Dehyphenate(page string) string {
	if !strings.Contains(page, "-\n") && !strings.Contains(page, "- \n") {
		return page
	}
	return brokenRe.ReplaceAllStringFunc(page, func(m string) string {
		g := brokenRe.FindStringSubmatch(m)
		lead, left, indent, right, after := g[1], g[2], g[3], g[4], strings.TrimRight(g[5], " \t")
		word := left + right
		low := strings.ToLower(left)
		if compoundParts[low] || compoundParts[right] || strings.Contains(strings.ToLower(page), low+"-"+right) {
			word = left + "-" + right
		}
		word += after // the stop after it goes with it
		// what the match held, less the word moved up, is spaces: they
		// end the first line, and the second keeps its indent
		pad := len([]rune(m)) - len([]rune(lead)) - len([]rune(word)) - 1 - len(indent)
		return lead + word + strings.Repeat(" ", max(pad, 0)) + "\n" + indent
	})
}
