package ask

import (
	"slices"
	"strings"
)

// How a question's verbs are told from its nouns, without a tagger. A
// verb is how a question is put ("Who fixed the problem?", "What
// arguments does specialrule take?", "Which option hides the markup?"):
// the passage that answers says it in its own words ("Fixed in version
// 1.618033 (Morten Høgholm)", "where all three arguments are mandatory",
// "disables markup"), so a passage need not have it and a room that never
// uses it is no reason to refuse. The nouns stay the focus.

// auxiliaries start the verb phrase of a question: the verb follows the
// subject ("does specialrule take", "can I put").
var auxiliaries = map[string]bool{"do": true, "does": true, "did": true, "can": true, "could": true, "should": true,
	"would": true, "will": true, "may": true, "must": true, "might": true, "shall": true}

var beForms = map[string]bool{"is": true, "are": true, "was": true, "were": true, "be": true, "been": true, "has": true,
	"have": true, "had": true}

// pronouns are subjects of one word: the verb comes next.
var pronouns = map[string]bool{"i": true, "you": true, "we": true, "they": true, "it": true, "one": true, "he": true, "she": true}

// determiners start the object that follows a verb: "hides the markup",
// "removes all the notes".
var determiners = map[string]bool{"the": true, "a": true, "an": true, "all": true, "only": true, "its": true,
	"their": true, "my": true, "any": true, "every": true, "each": true, "this": true, "that": true, "these": true}

// questionVerbs returns the words of a question in a verb's place: after
// "who"; after an auxiliary and a pronoun ("can I put") or a subject of
// one word opening the question ("Does footmisc work"); the last word of
// "does SUBJECT VERB?" when the subject is one to three words; a word in -s
// right before a determiner ("hides the", "removes all") or after the
// thing "which" asks for ("which option produces XML").
func questionVerbs(question string) map[string]bool {
	var toks []string
	for _, f := range strings.Fields(strings.ToLower(question)) {
		if f = strings.Trim(f, "?!.,;:\"'()"); f != "" {
			toks = append(toks, f)
		}
	}
	out := map[string]bool{}
	for i, t := range toks {
		switch {
		case i == 0 && t == "who" && len(toks) > 1 && !beForms[toks[1]] && !auxiliaries[toks[1]]:
			out[toks[1]] = true
		case i == 0 && auxiliaries[t] && len(toks) >= 4 && !determiners[toks[1]] && !pronouns[toks[1]]:
			out[toks[2]] = true // "can begin{comment} share a line", "does footmisc work with"
		case auxiliaries[t] && i+2 < len(toks) && pronouns[toks[i+1]]:
			out[toks[i+2]] = true
		case auxiliaries[t] && i > 0 && len(toks)-i-1 >= 2 && len(toks)-i-1 <= 4:
			out[toks[len(toks)-1]] = true // "what arguments does specialrule take"
		case i > 0 && i+1 < len(toks) && determiners[toks[i+1]] && isVerbS(t) && !auxiliaries[toks[i-1]] && !beForms[t]:
			out[t] = true
		case i >= 2 && i <= 4 && (toks[0] == "which" || toks[0] == "what") && i+1 < len(toks) && isVerbS(t) &&
			!beForms[t] && !auxiliaries[toks[i+1]] && !beForms[toks[i+1]] && !determiners[toks[i-1]] && !slices.ContainsFunc(toks[1:i], isVerbS):
			out[t] = true // "which runtest option produces XML output", not "which Stata versions can"
		case t == "to" && i > 0 && i+1 < len(toks) && beforeInfinitive[toks[i-1]]:
			out[toks[i+1]] = true // "a way to hide", "how to turn off"
		}
	}
	return out
}

// beforeInfinitive are the words after which "to" starts a verb: "a way
// to hide the notes", "how to remove", "I want to print".
var beforeInfinitive = map[string]bool{"way": true, "ways": true, "how": true, "want": true, "wants": true, "need": true,
	"needs": true, "able": true, "possible": true, "order": true, "try": true, "trying": true, "easy": true, "best": true,
	"like": true, "where": true, "what": true, "when": true}

// isVerbS reports whether w may be a verb's third person: in -s, not
// -ss, -us or -is.
func isVerbS(w string) bool {
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") &&
		!strings.HasSuffix(w, "is")
}

// withoutVerbs returns the words that are not verbs of the question nor
// a verb's form (wayOfAsking).
func withoutVerbs(words []string, verbs map[string]bool) []string {
	var out []string
	for _, w := range words {
		if !verbs[w] && !wayOfAsking(w) {
			out = append(out, w)
		}
	}
	return out
}
