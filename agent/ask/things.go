package ask

import (
	"regexp"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry/retrieve"
)

// A question may ask about one thing of many of a kind: "What uid does
// the www-data user have?", "What gid does the sudo group have?", "What
// does the marginal option do?". A manual that lists users, groups or
// options says the same of each ("It had uid 37", "has a statically
// allocated uid"), so a line about another user answers the question's
// words but not the question: the line that answers names the thing
// asked about, or is under it (its heading, a table row's header), and
// says what is asked of it. The sentence before is not enough: "Members
// of the mole group can start the stoat program" after "It has gid 57"
// does not give the stoat program's gid.

// thingRe finds a thing named by its kind: "the sudo group", "the
// www-data user", "the marginal option". The kinds are those a manual
// lists one by one.
var thingRe = regexp.MustCompile(`(?i)\bthe\s+([\pL\d][\w.+-]*)\s+(users?|groups?|accounts?|ports?|options?|commands?|functions?|routines?|macros?|variables?|keywords?|fields?|parameters?|flags?|services?|daemons?|keys?|settings?|programs?|tools?|utility|utilities|directory|directories)\b`)

// sortWords say which of a kind without naming one: "the example
// function", "the default user", "the main routine".
var sortWords = map[string]bool{"example": true, "sample": true, "demo": true, "default": true, "main": true,
	"same": true, "other": true, "first": true, "last": true, "following": true, "new": true, "old": true, "given": true,
	"current": true, "next": true, "previous": true, "whole": true, "standard": true, "special": true, "usual": true,
	"above": true, "below": true, "second": true, "original": true, "basic": true, "simple": true, "specific": true,
	"corresponding": true, "appropriate": true, "relevant": true, "particular": true, "additional": true, "extra": true,
	"required": true, "necessary": true, "own": true, "system": true, "normal": true, "regular": true, "only": true,
	"package": true, "library": true, "user": true, "group": true, "unit": true, "right": true, "wrong": true,
	"single": true, "this": true, "that": true, "each": true, "every": true, "any": true, "some": true}

// namedThings returns the words of the things a question names by their
// kind ("sudo" of "the sudo group"), lower case.
func namedThings(question string) []string {
	var out []string
	for _, at := range thingRe.FindAllStringSubmatchIndex(question, -1) {
		name := question[at[2]:at[3]]
		if sortWords[strings.ToLower(name)] || strings.HasPrefix(question[at[1]:], "'") || strings.HasPrefix(question[at[1]:], "’") {
			continue // "the Tachyon user's guide" names a guide, not a user
		}
		for _, w := range retrieve.Words(name) {
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// aboutThing reports whether a line (own: as quoted, with a table row's
// header; heading: the heading it is under) is about
// the things a question names and says what is asked of them (head, the
// thing asked for, "" when the question names none).
func aboutThing(things []string, head, own, heading string) bool {
	if len(things) == 0 {
		return true
	}
	need := things
	if head != "" && !kindWords[head] {
		need = append(slices.Clone(things), head)
	}
	return len(missing(need, own+"\n"+heading)) == 0
}

// thingAskRe finds a question for a thing a manual writes as code: "Which
// option restarts ...?", "Which library flag ...?", "What command ...?".
// The line that answers names one ("-lcfitsio", "\normalsize",
// "maxiter=", "perpage"), which a line that only talks about the topic
// does not.
var thingAskRe = regexp.MustCompile(`(?i)^\s*(?:which|what)\s+(?:[\w-]+\s+){0,2}?(options?|flags?|switch(?:es)?|commands?|functions?|macros?|routines?|calls?|utility|utilities|tools?|programs?|keys?|variables?|keywords?|operators?|arguments?|parameters?|attributes?)\b`)

// codeRe finds a name written as code: an option ("-g", "--mail", a
// usage line's "[-q]"), a macro ("\normalsize"), a name with an
// underscore ("thread_indent"), a call ("timer.ms(200)"), a key given a value ("maxiter=", "start=rand"),
// a dotted name ("write.csv2"), a short quoted string (`"ch"`, not an
// escape's `"\r\n"`).
var codeRe = regexp.MustCompile(`(?:^|[\s(\[|“"'])--?[A-Za-z][\w-]*|\\[A-Za-z@]{2,}|\b\w+_\w+\b|\b\w+\(|\b[a-z][\w-]*=|\b[a-z]\w+\.[a-z]\w+|[“"‘'][^\s"”’'\\]{1,12}[”"’']`)

// namesCode reports whether a line names something as code that the
// question (its words: asked) does not.
func namesCode(u string, asked map[string]bool) bool {
	for _, m := range codeRe.FindAllString(u, -1) {
		if slices.ContainsFunc(retrieve.Words(m), func(w string) bool { return !asked[w] }) {
			return true
		}
	}
	return false
}
