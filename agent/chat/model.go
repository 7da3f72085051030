package chat

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/evidence"
	agentrt "github.com/quarry-dev/quarry/agent/runtime"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/retrieve"
)

// Limits on what goes to the model and what comes back.
const (
	// maxPassages is how many passages one question sends.
	maxPassages = 12
	// maxPassageLen is the most bytes of one passage sent; longer ones are
	// shortened (iteration passages end in long SQL).
	maxPassageLen = 2000
	// maxAnswerLen is the longest answer, in bytes, the prompt asks for;
	// longer answers are shortened, leaving room within
	// quarry.MaxChatMessageLen for markers and refs.
	maxAnswerLen = 3000
	// maxAnswerTokens caps the model's reply.
	maxAnswerTokens = 1024
)

// purpose is the llm.Request Purpose of chat calls.
const purpose = "chat"

// answerSchema is the structured output the model answers with.
var answerSchema = &llm.Schema{Name: "chat_answer", Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "answer": {"type": "string", "description": "the answer, citing passages by number in square brackets"},
    "citations": {"type": "array", "items": {"type": "integer"}, "description": "the numbers of the passages the answer cites"},
    "covered": {"type": "boolean", "description": "whether the passages answer the question"}
  },
  "required": ["answer", "citations", "covered"],
  "additionalProperties": false
}`)}

// source is a passage sent to the model, numbered from 1.
type source struct {
	N                int
	Ref, Title, Text string
}

// modelAnswer is the model's reply (answerSchema).
type modelAnswer struct {
	Answer    string `json:"answer"`
	Citations []int  `json:"citations"`
	Covered   *bool  `json:"covered"`
}

// ask answers q with the model: it sends the passages the offline answer
// would draw on, numbered, and returns the model's answer with its
// citations turned into refs and its numbers checked against the
// passages. The reply is the offline one when there are no passages, when
// the model fails in any way (an error, a reply that is not the asked-for
// JSON) or when its answer cites none of the passages; it is the "did not
// look at that" reply when the model says the passages do not cover the
// question. Errors are the index's only.
func (a *Answerer) ask(ctx context.Context, sessionID string, q *question) (Reply, error) {
	srcs, err := a.sources(ctx, sessionID, q)
	if err != nil {
		return Reply{}, err
	}
	if len(srcs) == 0 {
		return a.offline(ctx, sessionID, q)
	}
	var ans modelAnswer
	if err := a.caller().CallJSON(ctx, chatRequest(q.text, srcs), &ans); err != nil || !ans.usable() {
		return a.offline(ctx, sessionID, q)
	}
	if !*ans.Covered {
		return a.notFound(ctx, sessionID)
	}
	if r, ok := grounded(ans, srcs); ok {
		return r, nil
	}
	return a.offline(ctx, sessionID, q)
}

// sources returns the passages the offline answer draws on, in the order
// it would quote them: the hypotheses of a question about statuses, the
// Method sections of a question about how, the overall change and top
// explanations of a question about why, then the passages that match the
// question. Each appears once; there are at most maxPassages.
func (a *Answerer) sources(ctx context.Context, sessionID string, q *question) ([]source, error) {
	var hits []retrieve.Hit
	if len(q.statuses) > 0 {
		hs, err := a.Index.Search(ctx, sessionID, "hypothesis RULED_OUT CONFIRMED "+q.text, maxHypothesisHits)
		if err != nil {
			return nil, err
		}
		hits = append(hits, hypothesisHits(hs)...)
	}
	if q.aboutMethod {
		hs, err := a.Index.Search(ctx, sessionID, "method "+q.text, a.k())
		if err != nil {
			return nil, err
		}
		for _, h := range hs {
			if strings.Contains(strings.ToLower(h.Title), "method") {
				hits = append(hits, h)
			}
		}
	}
	if q.asksWhy {
		hs, err := a.explanationHits(ctx, sessionID)
		if err != nil {
			return nil, err
		}
		hits = append(hits, hs...)
	}
	hs, err := a.Index.Search(ctx, sessionID, q.text, a.k())
	if err != nil {
		return nil, err
	}
	hits = append(hits, hs...)

	var out []source
	seen := map[string]bool{}
	for _, h := range hits {
		text := strings.TrimSpace(h.Text)
		if key := h.Ref + "\x00" + text; text != "" && !seen[key] && len(out) < maxPassages {
			seen[key] = true
			out = append(out, source{N: len(out) + 1, Ref: h.Ref, Title: h.Title, Text: shorten(text, maxPassageLen)})
		}
	}
	return out, nil
}

// hypothesisHits returns the hits that state the hypotheses hypothesesOf
// finds in hits, in hypothesis order.
func hypothesisHits(hits []retrieve.Hit) []retrieve.Hit {
	var out []retrieve.Hit
	taken := map[string]bool{}
	for _, hyp := range hypothesesOf(hits) {
		if taken[hyp.ref] {
			continue
		}
		for _, h := range hits {
			if h.Ref == hyp.ref {
				taken[hyp.ref] = true
				out = append(out, h)
				break
			}
		}
	}
	return out
}

// chatRequest asks the model to answer question from srcs.
func chatRequest(question string, srcs []source) *llm.Request {
	system := prompt("system", struct{ MaxChars int }{maxAnswerLen})
	user := prompt("question", struct {
		Passages []source
		Question string
	}{srcs, question})
	req := llm.UserText(purpose, system, user)
	req.Output = answerSchema
	req.MaxTokens = maxAnswerTokens
	return req
}

// usable reports whether the model's reply says whether the passages
// cover the question ("covered" set) and, when they do, answers.
func (ans *modelAnswer) usable() bool {
	return ans.Covered != nil && (!*ans.Covered || strings.TrimSpace(ans.Answer) != "")
}

// caller returns a Caller of the model for one call. The Answerer serves
// every investigation's chat at once, so one question's failures must not
// turn the model off for the others: each call has a Caller of its own,
// and a question makes at most two calls (chooseQuery, ask).
func (a *Answerer) caller() *agentrt.Caller {
	return agentrt.New(a.Model, agentrt.Options{Actor: "chat", Job: "question"})
}

// citation matches a citation marker in an answer, with the blanks before
// it: [2], [1, 3], [^4].
var (
	citation = regexp.MustCompile(`[ \t]*\[\^?\d+(?:\s*,\s*\^?\d+)*\]`)
	digitRun = regexp.MustCompile(`\d+`)
)

// grounded turns the model's answer into a reply. Numbers that match
// nothing in srcs are marked evidence.Marker. Each citation of a passage
// sent becomes its ref in brackets, as offline replies cite; citations of
// numbers not sent are dropped; passages in the answer's citations list
// but not cited in its text are cited at its end, before the final full
// stop. ok is false when no
// passage sent is cited, or the reply would be longer than
// quarry.MaxChatMessageLen.
func grounded(ans modelAnswer, srcs []source) (Reply, bool) {
	var ev evidence.Set
	for _, s := range srcs {
		ev.AddText(s.Title)
		ev.AddText(s.Text)
	}
	text := ev.Check(shorten(strings.TrimSpace(ans.Answer), maxAnswerLen)).Text

	var cited []int
	seen := map[int]bool{}
	cite := func(n int) bool {
		if n < 1 || n > len(srcs) {
			return false
		}
		if !seen[n] {
			seen[n] = true
			cited = append(cited, n)
		}
		return true
	}
	text = citation.ReplaceAllStringFunc(text, func(m string) string {
		var refs []string
		for _, num := range digitRun.FindAllString(m, -1) {
			if n, err := strconv.Atoi(num); err == nil && cite(n) {
				refs = append(refs, "["+srcs[n-1].Ref+"]")
			}
		}
		if len(refs) == 0 {
			return ""
		}
		return " " + strings.Join(refs, " ")
	})
	var tail string
	for _, n := range ans.Citations {
		if n >= 1 && n <= len(srcs) && !seen[n] {
			cite(n)
			tail += " [" + srcs[n-1].Ref + "]"
		}
	}
	text = strings.TrimSpace(text)
	if tail != "" {
		// Before the final full stop, as the other citations stand.
		end := len(text)
		if end > 0 && strings.ContainsRune(".!?", rune(text[end-1])) {
			end--
		}
		text = text[:end] + tail + text[end:]
	}
	if len(cited) == 0 || utf8.RuneCountInString(text) > quarry.MaxChatMessageLen {
		return Reply{}, false
	}
	var refs []string
	for _, n := range cited {
		if ref := srcs[n-1].Ref; !slices.Contains(refs, ref) {
			refs = append(refs, ref)
		}
	}
	return Reply{Text: text, ArtifactsReferenced: refs}, true
}
