// Package chat answers questions about a finished investigation from its
// memory: it retrieves the passages of the session's memory that match the
// question and quotes their relevant sentences, each followed by the
// artifact it came from. Without a model, the same memory and question
// always give the same reply.
//
// Three kinds of question get special handling: how something was
// calculated (answered from the Method section), which hypotheses were
// ruled out or confirmed (every hypothesis with that status and its
// verdict), and questions the memory has nothing on (an honest "did not
// look at that" naming what the investigation did examine).
//
// With a model, the same passages go to the model, numbered, and it
// answers in its own words; the answer must cite the passages it uses, and
// every number in it is checked against them (see agent/evidence). When the
// model fails in any way, or cites nothing it was given, the reply is the
// offline one: a chat never fails because of the model. With a model and
// the session's data, the model also picks the data query a question about
// numbers needs (a segment, a day, the movers of a dimension), from the
// same set the offline parse picks from; a pick the data does not support
// falls back to the offline one, and the answer's numbers are the recorded
// query's.
package chat

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/retrieve"
)

// DefaultK is how many passages a question retrieves when Answerer.K is 0.
const DefaultK = 6

// Answerer answers chat questions from the memory sections in Index, which
// are scoped by session ID (see retrieve.MemoryChunks).
type Answerer struct {
	Index retrieve.Index
	// K is how many passages a question retrieves; DefaultK when < 1.
	K int
	// Model, when set, answers from the retrieved passages in its own
	// words (see ask); nil answers offline, by quoting.
	Model llm.Model
	// Data, when set, gives a session's metric, periods, dimensions and a
	// recorded query, so that questions about numbers the memory lacks
	// (a segment in a period, a day, the change without a segment, the top
	// movers) are answered by a query. nil answers from the memory only.
	Data func(ctx context.Context, sessionID string) (*Data, error)
}

// Reply is an answer and the artifacts it quotes.
type Reply struct {
	// Text is at most quarry.MaxChatMessageLen characters.
	Text string
	// ArtifactsReferenced are the refs of the quoted passages, each once,
	// in the order the text quotes them.
	ArtifactsReferenced []string
}

// notLooked starts every reply to a question the memory has nothing on;
// canAnswer ends it with what the chat can answer instead.
const (
	notLooked = "I can't answer that from this investigation: it did not look at that."
	canAnswer = "Ask instead for the metric or a segment in either period or on a date, the change without a segment, " +
		"the biggest movers of a dimension, how a number was computed, or which hypotheses were ruled out and why."
)

// Answer answers question from the memory of session sessionID. Errors:
// INVALID for an empty question or one longer than
// quarry.MaxChatMessageLen characters; index errors as they come.
func (a *Answerer) Answer(ctx context.Context, sessionID, question string) (Reply, error) {
	if strings.TrimSpace(question) == "" {
		return Reply{}, quarry.Errorf(quarry.ECodeInvalid, "the question is empty")
	}
	if n := utf8.RuneCountInString(question); n > quarry.MaxChatMessageLen {
		return Reply{}, quarry.Errorf(quarry.ECodeInvalid, "the question is %d characters; the limit is %d", n, quarry.MaxChatMessageLen)
	}
	q := parseQuestion(question)
	if a.Data != nil && len(q.statuses) == 0 && !q.aboutMethod && problemAsked(question) == nil {
		d, err := a.Data(ctx, sessionID)
		if err != nil {
			return Reply{}, err
		}
		// With a model, it picks the query the offline parse would pick
		// (and may find one the parse misses); its pick is checked against
		// the data, and the numbers come from the recorded query either way.
		if a.Model != nil {
			if dq := a.chooseQuery(ctx, question, d); dq != nil {
				return a.answerData(ctx, d, dq)
			}
		}
		if dq := parseData(question, d); dq != nil {
			return a.answerData(ctx, d, dq)
		}
	}
	if a.Model != nil {
		return a.ask(ctx, sessionID, q)
	}
	return a.offline(ctx, sessionID, q)
}

// offline answers q by quoting the memory, without a model.
func (a *Answerer) offline(ctx context.Context, sessionID string, q *question) (Reply, error) {
	if len(q.statuses) > 0 {
		r, ok, err := a.byStatus(ctx, sessionID, q)
		if err != nil || ok {
			return r, err
		}
	}
	if q.aboutMethod {
		r, ok, err := a.method(ctx, sessionID, q)
		if err != nil || ok {
			return r, err
		}
	}
	if p := problemAsked(q.text); p != nil {
		r, ok, err := a.problem(ctx, sessionID, p)
		if err != nil || ok {
			return r, err
		}
	}
	r, ok, err := a.quote(ctx, sessionID, q)
	if err != nil || ok {
		return r, err
	}
	return a.notFound(ctx, sessionID)
}

// k returns how many passages to retrieve.
func (a *Answerer) k() int {
	if a.K < 1 {
		return DefaultK
	}
	return a.K
}

// quote answers a question in general: for each retrieved passage, best
// first, the sentences that share the most terms with the question,
// preferring sentences with numbers. A question about causes gets the
// overall change and the top explanations first. ok is false when no
// passage has anything for the question.
func (a *Answerer) quote(ctx context.Context, sessionID string, q *question) (Reply, bool, error) {
	hits, err := a.Index.Search(ctx, sessionID, q.text, a.k())
	if err != nil {
		return Reply{}, false, err
	}
	passages := q.relevant(hits)
	if len(passages) == 0 {
		return Reply{}, false, nil
	}
	if q.asksWhy {
		lead, err := a.explanations(ctx, sessionID)
		if err != nil {
			return Reply{}, false, err
		}
		passages = append(lead, passages...)
	}
	var ans answer
	for _, p := range passages {
		if !ans.add("- ", p.sentences, p.ref) {
			break
		}
	}
	return ans.reply(), true, nil
}

// method answers a question about how something was calculated with the
// memory's Method sections, whole. ok is false when there is none.
func (a *Answerer) method(ctx context.Context, sessionID string, q *question) (Reply, bool, error) {
	hits, err := a.Index.Search(ctx, sessionID, "method "+q.text, a.k())
	if err != nil {
		return Reply{}, false, err
	}
	var ans answer
	for _, h := range hits {
		if !strings.Contains(strings.ToLower(h.Title), "method") {
			continue
		}
		if !ans.add("", sentencesOf(h.Text, false), h.Ref) {
			break
		}
	}
	if ans.empty() {
		return Reply{}, false, nil
	}
	return ans.reply(), true, nil
}
