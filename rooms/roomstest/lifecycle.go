package roomstest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/retrieve"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/room/roomtest"
)

// testDeleteRoom: only an owner deletes a room; it goes with its
// members, documents, pages, chunks, questions and feedback, out of
// search and off the disk, and another room is untouched.
func testDeleteRoom(t *testing.T, f *fixture) {
	ctx, svc := f.ctx, f.svc
	q := f.ask(t, f.vic, f.a, questionA)
	_, err := svc.Feedback(ctx, f.vic.ID, q.ID, room.RatingHelpful, "")
	roomtest.Must(t, err)
	chunk := q.Citations[0].ChunkID

	roomtest.WantCode(t, "a viewer deletes the room", svc.DeleteRoom(ctx, f.vic.ID, f.a.ID), quarry.ECodeForbidden)
	roomtest.WantCode(t, "an editor deletes the room", svc.DeleteRoom(ctx, f.ed.ID, f.a.ID), quarry.ECodeForbidden)
	roomtest.WantCode(t, "a stranger deletes the room", svc.DeleteRoom(ctx, f.stranger.ID, f.a.ID), quarry.ECodeNotFound)
	roomtest.WantCode(t, "another room's owner deletes the room", svc.DeleteRoom(ctx, f.other.ID, f.a.ID), quarry.ECodeNotFound)
	if _, err := svc.Room(ctx, f.vic.ID, f.a.ID); err != nil {
		t.Fatalf("room A after the refusals: %v; want it kept", err)
	}

	roomtest.Must(t, svc.DeleteRoom(ctx, f.owner.ID, f.a.ID))
	for _, u := range []*room.User{f.owner, f.ed, f.vic} {
		_, err := svc.Room(ctx, u.ID, f.a.ID)
		roomtest.WantCode(t, u.Name+" finds the deleted room", err, quarry.ECodeNotFound)
		rs, err := svc.Rooms(ctx, u.ID)
		roomtest.Must(t, err)
		if len(rs) != 0 {
			t.Errorf("%s's rooms after the deletion: %+v; want none", u.Name, rs)
		}
	}
	sys := room.WithActor(ctx, room.System)
	_, err = svc.Store.Room(sys, f.a.ID)
	roomtest.WantCode(t, "the store's room", err, quarry.ECodeNotFound)
	_, err = svc.Store.Document(sys, f.docA.ID)
	roomtest.WantCode(t, "the store's document", err, quarry.ECodeNotFound)
	_, err = svc.Store.Chunk(sys, chunk)
	roomtest.WantCode(t, "the store's chunk", err, quarry.ECodeNotFound)
	_, err = svc.Store.Query(sys, q.ID)
	roomtest.WantCode(t, "the store's query", err, quarry.ECodeNotFound)
	_, err = svc.Store.Member(sys, f.a.ID, f.vic.ID)
	roomtest.WantCode(t, "the store's membership", err, quarry.ECodeNotFound)
	hits, err := svc.Store.SearchChunks(sys, f.a.ID, room.ChunkQuery{Terms: retrieve.Terms(questionA), Limit: 10})
	if err != nil || len(hits) != 0 {
		t.Errorf("a search of the deleted room = %d hits, %v; want none", len(hits), err)
	}
	wantGone(t, filepath.Join(svc.Dir, "rooms", f.a.ID))
	roomtest.WantCode(t, "deleting it again", svc.DeleteRoom(ctx, f.owner.ID, f.a.ID), quarry.ECodeNotFound)

	// Room B is as it was.
	if qb := f.ask(t, f.other, f.b, questionB); !strings.Contains(qb.Answer, answerB) {
		t.Errorf("room B's answer after A's deletion: %q; want %q", qb.Answer, answerB)
	}
	if _, err := os.Stat(filepath.Join(svc.Dir, "rooms", f.b.ID, "documents", f.docB.ID, f.docB.Name)); err != nil {
		t.Errorf("room B's file after A's deletion: %v", err)
	}
}

// testDeleteUser: a user deletes themselves, or the administrator does,
// with their memberships, tokens, questions and feedback, and the rooms
// they alone are in; no one else may, the local owner cannot be, and the
// last owner of a room others are in is refused until it has another.
func testDeleteUser(t *testing.T, f *fixture) {
	ctx, svc := f.ctx, f.svc
	sys := room.WithActor(ctx, room.System)
	roomtest.WantCode(t, "vic deletes ed", svc.DeleteUser(ctx, f.vic.ID, f.ed.ID), quarry.ECodeForbidden)
	roomtest.WantCode(t, "deleting the local owner", svc.DeleteUser(ctx, room.System, f.owner.ID), quarry.ECodeForbidden)
	roomtest.WantCode(t, "deleting no one", svc.DeleteUser(ctx, room.System, "00000000-0000-4000-8000-000000000000"), quarry.ECodeNotFound)

	// other is B's last owner; with ed in B too, other cannot go.
	_, err := svc.AddMember(ctx, f.other.ID, f.b.ID, f.ed.Name, room.RoleViewer)
	roomtest.Must(t, err)
	err = svc.DeleteUser(ctx, f.other.ID, f.other.ID)
	roomtest.WantCode(t, "B's last owner deletes themselves", err, quarry.ECodeConflict)
	if msg := quarry.ErrorMessage(err); !strings.Contains(msg, "deal-b") {
		t.Errorf("the refusal says %q; want the room named", msg)
	}
	if _, err := svc.Store.User(sys, f.other.ID); err != nil {
		t.Fatalf("other after the refusal: %v", err)
	}

	// vic deletes themselves: their questions, feedback, token and
	// membership go; room A and its documents stay.
	q := f.ask(t, f.vic, f.a, questionA)
	_, err = svc.Feedback(ctx, f.vic.ID, q.ID, room.RatingNotHelpful, "")
	roomtest.Must(t, err)
	token, err := svc.CreateToken(ctx, f.vic.ID, "")
	roomtest.Must(t, err)
	roomtest.Must(t, svc.DeleteUser(ctx, f.vic.ID, f.vic.ID))
	_, err = svc.Store.User(sys, f.vic.ID)
	roomtest.WantCode(t, "the deleted user", err, quarry.ECodeNotFound)
	_, err = svc.Store.Query(sys, q.ID)
	roomtest.WantCode(t, "the deleted user's query", err, quarry.ECodeNotFound)
	_, err = svc.Store.Member(sys, f.a.ID, f.vic.ID)
	roomtest.WantCode(t, "the deleted user's membership", err, quarry.ECodeNotFound)
	_, err = svc.UserByToken(ctx, token)
	roomtest.WantCode(t, "the deleted user's token", err, quarry.ECodeUnauthorized)
	if qa := f.ask(t, f.owner, f.a, questionA); !strings.Contains(qa.Answer, answerA) {
		t.Errorf("room A's answer after vic's deletion: %q", qa.Answer)
	}

	// With ed out of B, other is alone in it: the administrator deletes
	// other, and B goes with them, files and all.
	roomtest.Must(t, svc.RemoveMember(ctx, f.other.ID, f.b.ID, f.ed.Name))
	roomtest.Must(t, svc.DeleteUser(ctx, room.System, f.other.ID))
	_, err = svc.Store.Room(sys, f.b.ID)
	roomtest.WantCode(t, "the room other was alone in", err, quarry.ECodeNotFound)
	_, err = svc.Store.Document(sys, f.docB.ID)
	roomtest.WantCode(t, "its document", err, quarry.ECodeNotFound)
	wantGone(t, filepath.Join(svc.Dir, "rooms", f.b.ID))
	roomtest.WantCode(t, "deleting other again", svc.DeleteUser(ctx, room.System, f.other.ID), quarry.ECodeNotFound)
}

// wantGone fails the test when path exists.
func wantGone(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("%s is still there (%v); want it removed", path, err)
	}
}
