package ask_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/agent/ask"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/llmtest"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
)

// conceptEmbedder embeds a text as how often it uses the words of each
// concept: a stand-in for a model that knows "walk away" and "terminate"
// mean the same.
type conceptEmbedder struct{ fail bool }

var concepts = [][]string{
	{"terminate", "termination", "walk", "away", "exit", "cancel"},
	{"price", "pricing", "cost", "pay"},
	{"deliver", "deliveries", "delivery", "ship"},
}

func (e conceptEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	if e.fail {
		return nil, errors.New("embedder down")
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, len(concepts)+1)
		v[len(concepts)] = 0.1
		for _, w := range strings.Fields(strings.ToLower(t)) {
			w = strings.Trim(w, ".,;:'?\"")
			for c, ws := range concepts {
				for _, x := range ws {
					if w == x {
						v[c]++
					}
				}
			}
		}
		out[i] = v
	}
	return out, nil
}

const agreement = `SUPPLY AGREEMENT between Harbor Supply and Northwind
1. Deliveries. The supplier ships the goods every week, and the supplier's delivery schedule is set by the supplier each quarter, as the supplier sees fit.
` + "\f" + `2. Termination. Either party may terminate this Agreement for convenience upon ninety days' written notice to the other party, without penalty.
`

func agreementRoom(t *testing.T, e llm.Embedder) (*rooms.Service, *room.Room, []room.Document) {
	t.Helper()
	return oneDocumentRoom(t, e, "agreement.txt", strings.NewReader(agreement))
}

func TestRetrieveFusesMeaningWithWords(t *testing.T) {
	svc, r, docs := agreementRoom(t, conceptEmbedder{})
	ctx := context.Background()
	question := "Can the supplier walk away from the agreement early?"
	words, err := ask.Retrieve(ctx, svc.Store, ask.Request{RoomID: r.ID, Docs: docs, Question: question, K: 2})
	if err != nil {
		t.Fatal(err)
	}
	// By its words alone the question is about the page that says
	// "supplier" five times.
	if len(words) == 0 || words[0].PageNumber != 1 {
		t.Fatalf("by words: pages %v, want page 1 first", pageNumbers(words))
	}
	vs, _ := conceptEmbedder{}.Embed(ctx, []string{question})
	both, err := ask.Retrieve(ctx, svc.Store, ask.Request{RoomID: r.ID, Docs: docs, Question: question, K: 2, Vector: vs[0], Model: "concepts"})
	if err != nil {
		t.Fatal(err)
	}
	if len(both) == 0 || both[0].PageNumber != 2 {
		t.Fatalf("by words and meaning: pages %v, want page 2 (termination) first", pageNumbers(both))
	}
	// Vectors of another model are not compared.
	other, err := ask.Retrieve(ctx, svc.Store, ask.Request{RoomID: r.ID, Docs: docs, Question: question, K: 2, Vector: vs[0], Model: "other"})
	if err != nil {
		t.Fatal(err)
	}
	if len(other) == 0 || other[0].PageNumber != 1 {
		t.Fatalf("another model's vector: pages %v, want the words' ranking", pageNumbers(other))
	}
}

func TestAskWithAFailingEmbedderStillAnswers(t *testing.T) {
	svc, r, _ := agreementRoom(t, conceptEmbedder{})
	svc.Embedder = conceptEmbedder{fail: true}
	owner, _ := svc.EnsureUser(context.Background(), "owner")
	q, err := svc.Ask(context.Background(), owner.ID, r.ID, "How often does the supplier ship deliveries?")
	if err != nil {
		t.Fatal(err)
	}
	if q.AnswerType != room.AnswerGrounded || len(q.Citations) == 0 || q.Citations[0].PageNumber != 1 {
		t.Fatalf("answer %q (%s), citations %+v", q.Answer, q.AnswerType, q.Citations)
	}
}

// TestAskWithAModelChecksItsNumbers: the model reads the passages even
// where the extract refused (page 2 says "either party", never "the
// supplier"), and each of its numbers is checked against what it cites.
func TestAskWithAModelChecksItsNumbers(t *testing.T) {
	svc, r, _ := agreementRoom(t, nil)
	owner, _ := svc.EnsureUser(context.Background(), "owner")
	for _, c := range []struct {
		name, reply string
		answerType  string
		// verified is whether the citation of page 2 is verified; cited
		// is false when the answer cites no passage there is.
		cited, verified bool
		// unverifiedIn is what the answer says could not be verified.
		unverifiedIn string
	}{
		{"grounded", "Yes: either party may terminate for convenience on ninety days' written notice [1].", room.AnswerGrounded, true, true, ""},
		// An unsupported number makes the answer not grounded.
		{"a number not in the passage", "Yes, on 30 days' notice [1].", room.AnswerInsufficient, true, false, "30 is not in the cited passages"},
		{"a citation of no passage", "Yes, for convenience [9].", room.AnswerInsufficient, false, false, "citation [9] points at no passage"},
		{"insufficient", "INSUFFICIENT_EVIDENCE: the passages do not say.", room.AnswerInsufficient, false, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &llmtest.Model{ModelName: "test/model", Reply: func(req *llm.Request) (*llm.Response, error) {
				if !strings.Contains(req.Messages[0].Content, "terminate this Agreement for convenience") {
					t.Errorf("the prompt lacks the termination passage:\n%s", req.Messages[0].Content)
				}
				return llmtest.Text(c.reply), nil
			}}
			svc.Model = m
			q, err := svc.Ask(context.Background(), owner.ID, r.ID, "Can the supplier terminate the agreement for convenience?")
			if err != nil {
				t.Fatal(err)
			}
			if q.AnswerType != c.answerType || q.ModelUsed != "test/model" {
				t.Fatalf("answer type %s by %q, want %s by test/model: %q", q.AnswerType, q.ModelUsed, c.answerType, q.Answer)
			}
			if !c.cited {
				if len(q.Citations) != 0 {
					t.Errorf("citations %+v, want none", q.Citations)
				}
			} else if len(q.Citations) != 1 || q.Citations[0].PageNumber != 2 || q.Citations[0].Verified != c.verified {
				t.Errorf("citations %+v, want page 2 verified=%v", q.Citations, c.verified)
			}
			if c.unverifiedIn != "" && !strings.Contains(q.Answer, "Unverified: "+c.unverifiedIn) {
				t.Errorf("answer %q does not say %q", q.Answer, c.unverifiedIn)
			}
		})
	}
}

// TestAskKeepsTheExtractWhenTheModelFails: a model that is down, behind
// the retry policy, is asked twice (one retry) and the extract stands.
func TestAskKeepsTheExtractWhenTheModelFails(t *testing.T) {
	svc, r, _ := agreementRoom(t, nil)
	owner, _ := svc.EnsureUser(context.Background(), "owner")
	m := &llmtest.Model{ModelName: "test/model", Reply: func(*llm.Request) (*llm.Response, error) {
		return nil, &llm.Error{Kind: llm.KindUnavailable, Message: "down"}
	}}
	p := llm.DefaultRetryPolicy()
	p.Sleep = func(context.Context, time.Duration) error { return nil }
	svc.Model = llm.Retry(m, p)
	q, err := svc.Ask(context.Background(), owner.ID, r.ID, "Can either party terminate the agreement for convenience?")
	if err != nil {
		t.Fatal(err)
	}
	if q.AnswerType != room.AnswerGrounded || q.RetryCount != 1 || q.ErrorType != "model_error" || len(q.Citations) == 0 {
		t.Fatalf("query %+v", q)
	}
	if n := len(m.Calls()); n != 2 {
		t.Errorf("the model was asked %d times; want 2, one retry", n)
	}
}
