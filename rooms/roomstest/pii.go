package roomstest

import (
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/room/roomtest"
)

// testPIIRedacted: a question with an e-mail address and a phone number is
// answered as asked, but what the store keeps (history, the query itself,
// feedback comments) and the audit trail has them redacted.
func testPIIRedacted(t *testing.T, f *fixture) {
	const email, phone = "jane.doe@example.com", "+1 415 555 0134"
	q := f.ask(t, f.owner, f.a, "I am "+email+", call "+phone+": "+questionA)
	if !strings.Contains(q.Question, email) {
		t.Errorf("the answer's question reads %q; want it as asked", q.Question)
	}
	if q.AnswerType != room.AnswerGrounded || !strings.Contains(q.Answer, answerA) {
		t.Errorf("answer %s %q; want it answered as asked, quoting %s", q.AnswerType, q.Answer, answerA)
	}
	_, err := f.svc.Feedback(f.ctx, f.owner.ID, q.ID, room.RatingHelpful, "write to me at "+email)
	roomtest.Must(t, err)
	stored, err := f.svc.Store.Query(room.WithActor(f.ctx, room.System), q.ID)
	roomtest.Must(t, err)
	hist, err := f.svc.History(f.ctx, f.owner.ID, f.a.ID, time.Time{}, 10)
	roomtest.Must(t, err)
	kept := []string{stored.Question, stored.Answer}
	if stored.Feedback != nil {
		kept = append(kept, stored.Feedback.Comment)
	}
	for _, h := range hist {
		kept = append(kept, h.Question, h.Answer)
	}
	for _, s := range kept {
		if strings.Contains(s, email) || strings.Contains(s, "555 0134") {
			t.Errorf("the store keeps %q; want personal data redacted", s)
		}
	}
	if !strings.Contains(stored.Question, "[redacted]") || !strings.Contains(stored.Question, "capital expenditures") {
		t.Errorf("the stored question reads %q; want it with [redacted] in place of the address and phone", stored.Question)
	}
}
