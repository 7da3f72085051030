package roomstest

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/room/roomtest"
)

// target is what a probe reaches for: a room by id and by name, a
// document, a chunk and a question.
type target struct {
	room, roomName, doc, chunk, query string
}

// probe is one way to reach a target as a user; every method of
// rooms.Service that takes an id is one.
type probe struct {
	what string
	call func(u *room.User, x target) error
}

func (f *fixture) probes() []probe {
	svc, ctx := f.svc, f.ctx
	return []probe{
		{"room by id", func(u *room.User, x target) error { _, err := svc.Room(ctx, u.ID, x.room); return err }},
		{"room by name", func(u *room.User, x target) error { _, err := svc.Room(ctx, u.ID, x.roomName); return err }},
		{"members", func(u *room.User, x target) error { _, err := svc.Members(ctx, u.ID, x.room); return err }},
		{"documents", func(u *room.User, x target) error { _, err := svc.Documents(ctx, u.ID, x.room); return err }},
		{"document", func(u *room.User, x target) error { _, err := svc.Document(ctx, u.ID, x.doc); return err }},
		{"download path", func(u *room.User, x target) error { _, _, err := svc.FilePath(ctx, u.ID, x.doc); return err }},
		{"pages", func(u *room.User, x target) error { _, err := svc.Pages(ctx, u.ID, x.doc); return err }},
		{"page", func(u *room.User, x target) error { _, err := svc.Page(ctx, u.ID, x.doc, 1); return err }},
		{"chunk", func(u *room.User, x target) error { _, err := svc.Chunk(ctx, u.ID, x.chunk); return err }},
		{"progress", func(u *room.User, x target) error { _, err := svc.Latest(ctx, u.ID, x.doc); return err }},
		{"watch", func(u *room.User, x target) error {
			_, _, cancel, err := svc.Watch(ctx, u.ID, x.room)
			if cancel != nil {
				cancel()
			}
			return err
		}},
		{"ask", func(u *room.User, x target) error { _, err := svc.Ask(ctx, u.ID, x.room, questionB); return err }},
		{"query", func(u *room.User, x target) error { _, err := svc.Query(ctx, u.ID, x.query); return err }},
		{"feedback", func(u *room.User, x target) error {
			_, err := svc.Feedback(ctx, u.ID, x.query, room.RatingNotHelpful, "probing")
			return err
		}},
		{"history", func(u *room.User, x target) error {
			_, err := svc.History(ctx, u.ID, x.room, time.Time{}, 10)
			return err
		}},
		{"export", func(u *room.User, x target) error { _, err := svc.ExportHistory(ctx, u.ID, x.room); return err }},
		{"delete history", func(u *room.User, x target) error { _, err := svc.DeleteHistory(ctx, u.ID, x.room); return err }},
		{"upload", func(u *room.User, x target) error {
			_, err := svc.Upload(ctx, u.ID, x.room, "planted.txt", strings.NewReader("planted text from outside the room, long enough to be a chunk"))
			return err
		}},
		{"delete document", func(u *room.User, x target) error { return svc.DeleteDocument(ctx, u.ID, x.doc) }},
		{"add member", func(u *room.User, x target) error {
			_, err := svc.AddMember(ctx, u.ID, x.room, u.Name, room.RoleOwner)
			return err
		}},
	}
}

// testLeakage: every member of room A, whatever their role, and a user
// in no room try every path to room B with B's real ids and with guessed
// ones, and always get NOT_FOUND; B is unchanged afterwards, and asking
// in A never cites B.
func testLeakage(t *testing.T, f *fixture) {
	qb := f.ask(t, f.other, f.b, questionB)
	if qb.AnswerType != room.AnswerGrounded || len(qb.Citations) == 0 {
		t.Fatalf("B's owner asks in B: %s %q; want a grounded answer", qb.AnswerType, qb.Answer)
	}
	real := target{room: f.b.ID, roomName: f.b.Name, doc: f.docB.ID, chunk: qb.Citations[0].ChunkID, query: qb.ID}
	guesses := []target{
		{room: quarry.NewID(), roomName: "deal-c", doc: quarry.NewID(), chunk: quarry.NewID(), query: quarry.NewID()},
		{room: "../" + f.b.ID, roomName: "DEAL-B ", doc: f.docB.ID + "/../x", chunk: "' OR '1'='1", query: "%"},
		{room: "", roomName: "", doc: "", chunk: "", query: ""},
	}
	users := []*room.User{f.owner, f.ed, f.vic, f.stranger}
	for _, p := range f.probes() {
		for _, u := range users {
			err := p.call(u, real)
			roomtest.WantCode(t, u.Name+" reaches room B's "+p.what, err, quarry.ECodeNotFound)
			// The answer names what was asked for, never what is there.
			if msg := fmt.Sprint(err); strings.Contains(msg, f.docB.Name) ||
				p.what != "room by name" && strings.Contains(msg, f.b.Name) {
				t.Errorf("%s reaches room B's %s: %q names B's content", u.Name, p.what, msg)
			}
			for _, g := range guesses {
				roomtest.WantCode(t, u.Name+" guesses "+p.what+" "+describe(g), p.call(u, g), quarry.ECodeNotFound)
			}
		}
	}
	rs, err := f.svc.Rooms(f.ctx, f.owner.ID)
	roomtest.Must(t, err)
	for _, r := range rs {
		if r.ID == f.b.ID {
			t.Errorf("A's owner's rooms list room B")
		}
	}

	// Asking in A, with B's own words, never reaches B.
	for _, u := range users[:3] {
		q := f.ask(t, u, f.a, questionB+" One hundred eighty days written notice by the Buyer?")
		if cites(q, f.docB.ID) || strings.Contains(strings.ToLower(q.Answer), answerB) {
			t.Errorf("%s asks in A and gets B's text: %q %+v", u.Name, q.Answer, q.Citations)
		}
	}

	// Nothing of B changed: its document, pages, file, members, and its
	// owner's question without feedback.
	d, err := f.svc.Document(f.ctx, f.other.ID, f.docB.ID)
	if err != nil || d.Status != room.StatusCompleted || d.ChunkCount != f.docB.ChunkCount {
		t.Errorf("B's document after the probes: %+v, %v; want it as it was", d, err)
	}
	if ps, err := f.svc.Pages(f.ctx, f.other.ID, f.docB.ID); err != nil || len(ps) != f.docB.PageCount {
		t.Errorf("B's pages after the probes: %d, %v; want %d", len(ps), err, f.docB.PageCount)
	}
	if path, _, err := f.svc.FilePath(f.ctx, f.other.ID, f.docB.ID); err != nil {
		t.Error(err)
	} else if _, err := os.Stat(path); err != nil {
		t.Errorf("B's file after the probes: %v", err)
	}
	docs, err := f.svc.Documents(f.ctx, f.other.ID, f.b.ID)
	if err != nil || len(docs) != 1 {
		t.Errorf("B's documents after the probes: %+v, %v; want only the agreement", docs, err)
	}
	ms, err := f.svc.Members(f.ctx, f.other.ID, f.b.ID)
	if err != nil || len(ms) != 1 || ms[0].UserID != f.other.ID {
		t.Errorf("B's members after the probes: %+v, %v; want only its owner", ms, err)
	}
	q, err := f.svc.Query(f.ctx, f.other.ID, qb.ID)
	if err != nil || q.Feedback != nil {
		t.Errorf("B's question after the probes: %+v, %v; want it without feedback", q, err)
	}
	hist, err := f.svc.History(f.ctx, f.other.ID, f.b.ID, time.Time{}, 10)
	if err != nil || len(hist) != 1 {
		t.Errorf("B's history after the probes: %d questions, %v; want 1", len(hist), err)
	}
}

func describe(x target) string {
	return "(" + strings.Join([]string{x.room, x.roomName, x.doc, x.chunk, x.query}, ", ") + ")"
}

// testRoles: inside room A, a viewer reads and asks but cannot upload,
// delete or manage members; an editor uploads and deletes but cannot
// manage members (FORBIDDEN); members' questions stay their own
// (NOT_FOUND), and a deleted document leaves search.
func testRoles(t *testing.T, f *fixture) {
	ctx, svc := f.ctx, f.svc
	q := f.ask(t, f.owner, f.a, questionA)
	if q.AnswerType != room.AnswerGrounded || !strings.Contains(q.Answer, answerA) || !cites(q, f.docA.ID) {
		t.Fatalf("A's owner asks in A: %s %q; want a grounded answer quoting %s", q.AnswerType, q.Answer, answerA)
	}

	// The viewer reads and asks...
	if _, err := svc.Document(ctx, f.vic.ID, f.docA.ID); err != nil {
		t.Errorf("the viewer reads a document: %v", err)
	}
	if _, err := svc.Page(ctx, f.vic.ID, f.docA.ID, 1); err != nil {
		t.Errorf("the viewer reads a page: %v", err)
	}
	if _, err := svc.Chunk(ctx, f.vic.ID, q.Citations[0].ChunkID); err != nil {
		t.Errorf("the viewer reads a cited chunk: %v", err)
	}
	if qv := f.ask(t, f.vic, f.a, questionA); !cites(qv, f.docA.ID) {
		t.Errorf("the viewer asks: %q; want it to cite the report", qv.Answer)
	}
	// ...but changes nothing.
	_, err := svc.Upload(ctx, f.vic.ID, f.a.ID, "notes.txt", strings.NewReader("a viewer's notes, long enough to be a passage of their own"))
	roomtest.WantCode(t, "the viewer uploads", err, quarry.ECodeForbidden)
	roomtest.WantCode(t, "the viewer deletes a document", svc.DeleteDocument(ctx, f.vic.ID, f.docA.ID), quarry.ECodeForbidden)
	_, err = svc.AddMember(ctx, f.vic.ID, f.a.ID, f.vic.Name, room.RoleOwner)
	roomtest.WantCode(t, "the viewer makes themself an owner", err, quarry.ECodeForbidden)
	_, err = svc.AddMember(ctx, f.vic.ID, f.a.ID, "eve", room.RoleViewer)
	roomtest.WantCode(t, "the viewer adds a member", err, quarry.ECodeForbidden)
	// The editor changes documents, not members.
	_, err = svc.AddMember(ctx, f.ed.ID, f.a.ID, f.ed.Name, room.RoleOwner)
	roomtest.WantCode(t, "the editor makes themself an owner", err, quarry.ECodeForbidden)
	_, err = svc.AddMember(ctx, f.ed.ID, f.a.ID, "eve", room.RoleViewer)
	roomtest.WantCode(t, "the editor adds a member", err, quarry.ECodeForbidden)

	ms, err := svc.Members(ctx, f.owner.ID, f.a.ID)
	roomtest.Must(t, err)
	roles := map[string]string{}
	for _, m := range ms {
		roles[m.UserName] = m.Role
	}
	if len(ms) != 3 || roles["vic"] != room.RoleViewer || roles["ed"] != room.RoleEditor {
		t.Errorf("A's members after the refusals: %v; want owner, ed the editor and vic the viewer", roles)
	}
	if d, err := svc.Document(ctx, f.owner.ID, f.docA.ID); err != nil || d.Status != room.StatusCompleted {
		t.Errorf("the report after the refusals: %+v, %v", d, err)
	}

	// Another member's question is not there for them, to read, rate or
	// export; deleting one's own history leaves the others'.
	for _, u := range []*room.User{f.vic, f.ed} {
		_, err := svc.Query(ctx, u.ID, q.ID)
		roomtest.WantCode(t, u.Name+" reads the owner's question", err, quarry.ECodeNotFound)
		_, err = svc.Feedback(ctx, u.ID, q.ID, room.RatingNotHelpful, "")
		roomtest.WantCode(t, u.Name+" rates the owner's answer", err, quarry.ECodeNotFound)
		ex, err := svc.ExportHistory(ctx, u.ID, f.a.ID)
		roomtest.Must(t, err)
		for _, eq := range ex.Queries {
			if eq.UserID != u.ID {
				t.Errorf("%s's export holds %s's question", u.Name, eq.UserID)
			}
		}
	}
	if n, err := svc.DeleteHistory(ctx, f.vic.ID, f.a.ID); err != nil || n != 1 {
		t.Errorf("the viewer deletes their history: %d, %v; want their 1 question", n, err)
	}
	if got, err := svc.Query(ctx, f.owner.ID, q.ID); err != nil || got.Feedback != nil {
		t.Errorf("the owner's question after the others: %+v, %v; want it, unrated", got, err)
	}

	// The editor uploads and deletes; a deleted document leaves search.
	memo := f.processed(t, f.ed, f.a, "memo.txt",
		"Memo on the Okapi warehouse lease.\n\nThe Okapi warehouse lease runs until 2031 at 48,000 dollars a month.")
	if q := f.ask(t, f.ed, f.a, "When does the Okapi warehouse lease end?"); !cites(q, memo.ID) {
		t.Fatalf("the editor asks about the memo: %q; want it cited", q.Answer)
	}
	roomtest.Must(t, svc.DeleteDocument(ctx, f.ed.ID, memo.ID))
	if q := f.ask(t, f.ed, f.a, "When does the Okapi warehouse lease end?"); cites(q, memo.ID) || q.AnswerType == room.AnswerGrounded {
		t.Errorf("asking after the memo was deleted: %s %q; want insufficient evidence", q.AnswerType, q.Answer)
	}
	_, err = svc.Document(ctx, f.ed.ID, memo.ID)
	roomtest.WantCode(t, "the deleted memo", err, quarry.ECodeNotFound)
}
