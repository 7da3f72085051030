package roomstest

import (
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/room/roomtest"
)

// Personal data of the PII test: a contact's e-mail address and phone
// number, in a document of room A and in a question about them.
const (
	piiEmail = "dana.reyes@northwind.example"
	piiPhone = "+1 415 555 0142"
)

// testPII: a question with an e-mail address and a phone number is
// answered from the question as asked, and returned so; what is stored of
// it (the query, its answer and citations, the feedback's comment) has
// them masked, in the store itself as well as in history and export.
func testPII(t *testing.T, f *fixture) {
	ctx, svc := f.ctx, f.svc
	f.processed(t, f.owner, f.a, "contacts.md", "# Deal contacts\n\n"+
		"The seller's counsel for the Northwind acquisition is Dana Reyes, reachable at "+piiEmail+" or by phone on "+piiPhone+
		" during the diligence period.\n")
	q := f.ask(t, f.vic, f.a, "Who is reachable at "+piiEmail+"?")
	if !strings.Contains(q.Question, piiEmail) {
		t.Errorf("the question returned = %q; want it as asked", q.Question)
	}
	if q.AnswerType != room.AnswerGrounded || !strings.Contains(q.Answer, "Dana Reyes") {
		t.Fatalf("the answer = %s %q; want the contact's line, found by the address asked about", q.AnswerType, q.Answer)
	}
	_, err := svc.Feedback(ctx, f.vic.ID, q.ID, room.RatingHelpful, "thanks, I called "+piiPhone)
	roomtest.Must(t, err)

	stored, err := svc.Store.Query(room.WithActor(ctx, room.System), q.ID)
	roomtest.Must(t, err)
	wantMasked(t, "the stored query", stored)
	if !strings.Contains(stored.Answer, "Dana Reyes") || !strings.Contains(stored.Question, "[redacted]") {
		t.Errorf("the stored query = %q -> %q; want the personal data alone masked", stored.Question, stored.Answer)
	}
	mine, err := svc.Query(ctx, f.vic.ID, q.ID)
	roomtest.Must(t, err)
	wantMasked(t, "Query", mine)
	history, err := svc.History(ctx, f.vic.ID, f.a.ID, time.Time{}, 10)
	roomtest.Must(t, err)
	for _, h := range history {
		wantMasked(t, "History", &h)
	}
	e, err := svc.ExportHistory(ctx, f.vic.ID, f.a.ID)
	roomtest.Must(t, err)
	for _, h := range e.Queries {
		wantMasked(t, "ExportHistory", &h)
	}
}

// wantMasked fails the test when q holds the test's e-mail address or
// phone number anywhere it is stored.
func wantMasked(t *testing.T, what string, q *room.Query) {
	t.Helper()
	texts := []string{q.Question, q.Answer, q.ErrorMessage}
	for _, c := range q.Citations {
		texts = append(texts, c.TextPreview)
	}
	if q.Feedback != nil {
		texts = append(texts, q.Feedback.Comment)
	} else {
		t.Errorf("%s: no feedback; want the one given", what)
	}
	for _, s := range texts {
		if strings.Contains(s, piiEmail) || strings.Contains(s, "555 0142") {
			t.Errorf("%s holds personal data: %q", what, s)
		}
	}
}
