package rooms_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/room"
)

// failing is a model that fails with errs in turn, then answers, and
// counts the times it is asked.
type failing struct {
	errs  []error
	calls atomic.Int32
}

func (m *failing) Name() string { return "failing" }

func (m *failing) Complete(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	i := int(m.calls.Add(1)) - 1
	if i < len(m.errs) {
		return nil, m.errs[i]
	}
	return &llm.Response{Text: "Capital expenditures were $23.7 million in 2023 [1]."}, nil
}

// TestAskRetriesTheModelOnce: a failing model, behind the retry policy
// every configured model has, is asked again once at most (the
// specification's FR-035), and retry_count says how many times it was
// asked again; a failure no retry mends is not retried.
func TestAskRetriesTheModelOnce(t *testing.T) {
	down := &llm.Error{Kind: llm.KindUnavailable, Status: 503, Provider: "test", Message: "down"}
	refused := &llm.Error{Kind: llm.KindUnauthorized, Status: 401, Provider: "test", Message: "bad key"}
	tests := []struct {
		name      string
		errs      []error
		wantCalls int
		wantRetry int
		wantBy    string // the model, or the extract when it failed
	}{
		{"down", []error{down, down, down, down}, 2, 1, "extract"},
		{"down once", []error{down}, 2, 1, "model"},
		{"answers", nil, 1, 0, "model"},
		{"refused", []error{refused, refused}, 1, 0, "extract"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			m := &failing{errs: tc.errs}
			p := llm.DefaultRetryPolicy()
			p.Sleep = func(context.Context, time.Duration) error { return nil }
			e.svc.Model = llm.Retry(m, p)
			q, err := e.svc.Ask(context.Background(), e.owner.ID, e.a.ID, "What were Northwind's capital expenditures in 2023?")
			if err != nil {
				t.Fatal(err)
			}
			by := "model"
			if q.ErrorType == "model_error" {
				by = "extract"
			}
			if int(m.calls.Load()) != tc.wantCalls || q.RetryCount != tc.wantRetry || by != tc.wantBy {
				t.Errorf("the model was asked %d times, retry_count %d, answered by the %s; want %d, %d, the %s",
					m.calls.Load(), q.RetryCount, by, tc.wantCalls, tc.wantRetry, tc.wantBy)
			}
			stored, err := e.svc.Query(context.Background(), e.owner.ID, q.ID)
			if err != nil || stored.RetryCount != tc.wantRetry || stored.AnswerType == room.AnswerError {
				t.Errorf("the stored query: %+v, %v; want retry_count %d and an answer", stored, err, tc.wantRetry)
			}
		})
	}
}
