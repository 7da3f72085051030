package chat

import (
	"sort"
	"strings"

	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/retrieve"
)

// question is a chat question, prepared for retrieval and for choosing
// sentences.
type question struct {
	text string
	// terms are the question's own words (retrieve.Terms); aliases are
	// what retrieve.Expand adds to them.
	terms, aliases []string
	// statuses are the hypothesis statuses the question asks for, in the
	// order it names them.
	statuses []investigation.HypothesisStatus
	// aboutMethod is set for "how did you calculate ..." questions.
	aboutMethod bool
	// wantsCode is set when the question asks for SQL; otherwise code is
	// never quoted.
	wantsCode bool
	// asksWhy is set for questions about causes ("why did it fall?").
	asksWhy bool
}

// Words that make a question about how a number was obtained, when they
// follow "how" ("how did you calculate ..."), or on their own.
var (
	methodVerbs = []string{"calculat", "comput", "measur", "determin", "estimat", "deriv", "quantif", "attribut", "decompos", "rank", "test"}
	methodNouns = []string{"method", "methodology", "formula", "approach"}
	codeWords   = []string{"sql", "query", "queries", "code"}
	whyWords    = []string{"why", "cause", "caused", "causes", "reason", "reasons", "explain", "explains", "drove", "driver", "drivers"}
)

// Words naming hypothesis statuses. "ruled out" is also matched as two
// words, "rule(d) out".
var (
	ruledOutWords  = []string{"ruled_out", "rejected", "reject", "excluded", "exclude", "dismissed", "eliminated", "disproved", "discarded"}
	confirmedWords = []string{"confirmed", "confirm", "supported", "validated", "verified"}
	hypothesisStem = []string{"hypothes", "theor", "idea"}
)

// parseQuestion prepares text for retrieval and recognises the kinds of
// question that get special answers.
func parseQuestion(text string) *question {
	q := &question{text: text, terms: retrieve.Terms(text)}
	q.aliases = retrieve.Expand(q.terms)[len(q.terms):]
	words := retrieve.Words(text)
	q.aboutMethod = indexOf(words, methodNouns, true) >= 0 ||
		(indexOf(words, []string{"how"}, false) >= 0 && indexOf(words, methodVerbs, true) >= 0)
	q.wantsCode = indexOf(words, codeWords, false) >= 0
	q.asksWhy = indexOf(words, whyWords, false) >= 0

	// Statuses, in the order the question names them.
	ruledOut := indexOf(words, ruledOutWords, false)
	for i := 0; i+1 < len(words); i++ {
		if (words[i] == "ruled" || words[i] == "rule") && words[i+1] == "out" && (ruledOut < 0 || i < ruledOut) {
			ruledOut = i
		}
	}
	confirmed := -1
	if indexOf(words, hypothesisStem, true) >= 0 {
		confirmed = indexOf(words, confirmedWords, false)
	}
	switch {
	case ruledOut >= 0 && confirmed >= 0 && confirmed < ruledOut:
		q.statuses = []investigation.HypothesisStatus{investigation.HypConfirmed, investigation.HypRuledOut}
	case ruledOut >= 0 && confirmed >= 0:
		q.statuses = []investigation.HypothesisStatus{investigation.HypRuledOut, investigation.HypConfirmed}
	case ruledOut >= 0:
		q.statuses = []investigation.HypothesisStatus{investigation.HypRuledOut}
	case confirmed >= 0:
		q.statuses = []investigation.HypothesisStatus{investigation.HypConfirmed}
	}
	return q
}

// indexOf returns the index of the first of words that is in list (or,
// with prefix set, starts with an entry of list), or -1.
func indexOf(words, list []string, prefix bool) int {
	for i, w := range words {
		for _, l := range list {
			if w == l || prefix && strings.HasPrefix(w, l) {
				return i
			}
		}
	}
	return -1
}

// matches returns how well a sentence, given as its words, answers the
// question: how many of the question's terms and aliases it contains (a
// term counts twice, an alias once) plus one when it holds a number. It is
// 0 when it contains none.
func (q *question) matches(words []string) int {
	score := 0
	for _, t := range q.terms {
		if containsWord(words, t) {
			score += 2
		}
	}
	for _, t := range q.aliases {
		if containsWord(words, t) {
			score++
		}
	}
	if score > 0 && hasNumber(words) {
		score++
	}
	return score
}

// sentencesPerPassage is how many sentences a passage contributes at most.
const sentencesPerPassage = 2

// passage is what a retrieved chunk contributes to an answer.
type passage struct {
	ref       string
	sentences []string
	score     int // the best sentence's score (see matches)
}

// pick returns the sentences of hit worth quoting, in their order in the
// passage: the best-matching ones. When none matches but the passage's
// title does, the passage is on topic and its first sentence is quoted.
// ok is false when the passage has nothing for the question.
func (q *question) pick(h retrieve.Hit) (p passage, ok bool) {
	sents := sentencesOf(h.Text, q.wantsCode)
	type scored struct {
		i, score int
	}
	var best []scored
	for i, s := range sents {
		if n := q.matches(retrieve.Words(s)); n > 0 {
			best = append(best, scored{i, n})
		}
	}
	if len(best) == 0 {
		if n := q.matches(retrieve.Words(h.Title)); n > 0 && len(sents) > 0 {
			return passage{ref: h.Ref, sentences: sents[:1], score: n}, true
		}
		return passage{}, false
	}
	sort.SliceStable(best, func(a, b int) bool { return best[a].score > best[b].score })
	p = passage{ref: h.Ref, score: best[0].score}
	if len(best) > sentencesPerPassage {
		best = best[:sentencesPerPassage]
	}
	sort.Slice(best, func(a, b int) bool { return best[a].i < best[b].i })
	for _, b := range best {
		p.sentences = append(p.sentences, sents[b.i])
	}
	return p, true
}

// relevant returns the passages of hits worth quoting, in rank order:
// those that match the question at least half as well as the best one, so
// that a passage sharing one common word does not crowd out those that
// share several.
func (q *question) relevant(hits []retrieve.Hit) []passage {
	var out []passage
	top := 0
	for _, h := range hits {
		if p, ok := q.pick(h); ok {
			out = append(out, p)
			top = max(top, p.score)
		}
	}
	kept := out[:0]
	for _, p := range out {
		if 2*p.score >= top {
			kept = append(kept, p)
		}
	}
	return kept
}

func hasNumber(words []string) bool {
	for _, w := range words {
		if w != "" && w[0] >= '0' && w[0] <= '9' {
			return true
		}
	}
	return false
}
