package rooms_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
)

const samples = "../internal/sampleroom/documents"

type env struct {
	svc          *rooms.Service
	owner, other *room.User
	a, b         *room.Room
	docA, docB   *room.Document
}

// newEnv makes two rooms, A owned by "owner" with the sample annual
// report, and B owned by "other" with the supply agreement.
func newEnv(t *testing.T) *env {
	t.Helper()
	ctx := context.Background()
	e := &env{svc: openService(t)}
	var err error
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	e.owner, err = e.svc.EnsureUser(ctx, "owner")
	must(err)
	e.other, err = e.svc.EnsureUser(ctx, "other")
	must(err)
	e.a, err = e.svc.CreateRoom(ctx, e.owner.ID, "deal-a", "")
	must(err)
	e.b, err = e.svc.CreateRoom(ctx, e.other.ID, "deal-b", "")
	must(err)
	e.docA = e.upload(t, e.owner, e.a, "northwind-2023-annual-report.md")
	e.docB = e.upload(t, e.other, e.b, "harbor-supply-agreement.md")
	return e
}

func (e *env) upload(t *testing.T, u *room.User, r *room.Room, name string) *room.Document {
	t.Helper()
	f, err := os.Open(filepath.Join(samples, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := e.svc.Upload(context.Background(), u.ID, r.ID, name, f)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Process(context.Background(), d.ID); err != nil {
		t.Fatal(err)
	}
	d, err = e.svc.Document(context.Background(), u.ID, d.ID)
	if err != nil || d.Status != room.StatusCompleted || d.ChunkCount == 0 {
		t.Fatalf("document %+v, %v; want completed with chunks", d, err)
	}
	return d
}

func TestAskCitesThePage(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	q, err := e.svc.Ask(ctx, e.owner.ID, e.a.ID, "What were Northwind's capital expenditures in 2023?")
	if err != nil {
		t.Fatal(err)
	}
	if q.AnswerType != room.AnswerGrounded || !strings.Contains(q.Answer, "23.7") {
		t.Fatalf("answer %s %q; want grounded, quoting 23.7", q.AnswerType, q.Answer)
	}
	c := q.Citations[0]
	if c.DocumentID != e.docA.ID || c.Rank != 1 || c.RelevanceScore != 1 || len(c.TextPreview) > room.MaxPreviewChars {
		t.Errorf("first citation %+v", c)
	}
	p, err := e.svc.Page(ctx, e.owner.ID, c.DocumentID, c.PageNumber)
	if err != nil || !strings.Contains(p.Text, "23.7") {
		t.Errorf("the cited page %d does not hold the number: %v", c.PageNumber, err)
	}
	if e.docA.Meta.Company != "Northwind Tools, Inc." || len(e.docA.Meta.Years) == 0 || e.docA.Meta.Years[0] != 2023 {
		t.Errorf("metadata %+v; want the registrant and 2023", e.docA.Meta)
	}

	// Nothing in the room is about the question: insufficient evidence,
	// saying what was searched.
	q, err = e.svc.Ask(ctx, e.owner.ID, e.a.ID, "What is the pension discount rate assumption?")
	if err != nil {
		t.Fatal(err)
	}
	if q.AnswerType != room.AnswerInsufficient || !strings.Contains(q.Answer, "Searched for") || len(q.Citations) != 0 {
		t.Errorf("answer %s %q with %d citations; want insufficient_evidence", q.AnswerType, q.Answer, len(q.Citations))
	}

	hist, err := e.svc.History(ctx, e.owner.ID, e.a.ID, time.Time{}, 10)
	if err != nil || len(hist) != 2 || hist[0].ID != q.ID {
		t.Fatalf("history %d queries, %v; want 2, newest first", len(hist), err)
	}
	if _, err := e.svc.Feedback(ctx, e.owner.ID, q.ID, "meh", ""); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("rating meh: %v; want INVALID", err)
	}
	if _, err := e.svc.Feedback(ctx, e.owner.ID, q.ID, room.RatingNotHelpful, "call me on +1 415 555 0100"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Feedback(ctx, e.owner.ID, q.ID, room.RatingHelpful, "write to jane@example.com"); err != nil {
		t.Fatal(err)
	}
	got, _ := e.svc.Query(ctx, e.owner.ID, q.ID)
	if got.Feedback == nil || got.Feedback.Rating != room.RatingHelpful {
		t.Errorf("feedback %+v; want the changed rating", got.Feedback)
	}
	ex, err := e.svc.ExportHistory(ctx, e.owner.ID, e.a.ID)
	if err != nil || len(ex.Queries) != 2 {
		t.Fatalf("export %v, %v", ex, err)
	}
	if c := ex.Queries[0].Feedback.Comment; strings.Contains(c, "jane@example.com") || !strings.Contains(c, "[redacted]") {
		t.Errorf("exported comment %q; want the address masked", c)
	}
	if n, err := e.svc.DeleteHistory(ctx, e.owner.ID, e.a.ID); err != nil || n != 2 {
		t.Errorf("delete history: %d, %v", n, err)
	}
}

func TestRateLimit(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 10, 15, 0, 0, time.UTC)
	e.svc.Now = func() time.Time { return now }
	for i := range room.QueriesPerHour {
		if _, err := e.svc.Ask(ctx, e.owner.ID, e.a.ID, "capital expenditures?"); err != nil {
			t.Fatalf("question %d: %v", i+1, err)
		}
	}
	_, err := e.svc.Ask(ctx, e.owner.ID, e.a.ID, "capital expenditures?")
	var rl *room.RateLimited
	if quarry.ErrorCode(err) != quarry.ECodeRateLimited || !errors.As(err, &rl) || rl.RetryAfter != 45*60+1 {
		t.Fatalf("question 61: %v; want RATE_LIMITED retrying after 2701 s", err)
	}
	// Another room has its own count; the next hour starts afresh.
	if _, err := e.svc.Ask(ctx, e.other.ID, e.b.ID, "termination for convenience?"); err != nil {
		t.Errorf("another user and room: %v", err)
	}
	now = now.Add(time.Hour)
	if _, err := e.svc.Ask(ctx, e.owner.ID, e.a.ID, "capital expenditures?"); err != nil {
		t.Errorf("the next hour: %v", err)
	}
	if n, err := e.svc.Store.CleanQuotas(ctx, now.Add(-2*time.Hour)); err != nil || n != 0 {
		t.Errorf("clean quotas: %d, %v", n, err)
	}
}
