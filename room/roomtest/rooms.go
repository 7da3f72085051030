package roomtest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

func testUsers(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	u, err := s.User(ctx, f.alice.ID)
	Must(t, err)
	if u.Name != "alice" || u.Email != "alice@example.com" || !sameTime(u.CreatedAt, f.alice.CreatedAt) {
		t.Errorf("User = %+v; want %+v", u, f.alice)
	}
	u, hash, err := s.UserByName(ctx, "ALICE")
	if err != nil || u.ID != f.alice.ID || hash != "hash-of-alice" {
		t.Errorf("UserByName(ALICE) = %+v, %q, %v; want alice with her hash (names are case-insensitive)", u, hash, err)
	}
	_, err = s.User(ctx, quarry.NewID())
	WantCode(t, "User(unknown)", err, quarry.ECodeNotFound)
	_, _, err = s.UserByName(ctx, "carol")
	WantCode(t, "UserByName(unknown)", err, quarry.ECodeNotFound)
	_, err = s.User(ctx, "not-an-id")
	WantCode(t, "User(not-an-id)", err, quarry.ECodeNotFound)
	err = s.CreateUser(ctx, &room.User{ID: quarry.NewID(), Name: "Alice", CreatedAt: f.next()}, "")
	WantCode(t, "CreateUser(Alice again)", err, quarry.ECodeConflict)
	f.user(t, "aaron")
	us, err := s.ListUsers(ctx)
	Must(t, err)
	if got := ids(us, func(u room.User) string { return u.Name }); !slices.Equal(got, []string{"aaron", "alice", "bob"}) {
		t.Errorf("ListUsers = %v; want aaron, alice, bob", got)
	}
	WantCode(t, "DeleteUser(unknown)", s.DeleteUser(ctx, quarry.NewID()), quarry.ECodeNotFound)
}

func testTokens(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	Must(t, s.CreateToken(ctx, f.bob.ID, "laptop", "token-hash-1"))
	u, err := s.UserByToken(ctx, "token-hash-1")
	if err != nil || u.ID != f.bob.ID {
		t.Errorf("UserByToken = %+v, %v; want bob", u, err)
	}
	_, err = s.UserByToken(ctx, "token-hash-2")
	WantCode(t, "UserByToken(unknown)", err, quarry.ECodeNotFound)

	// Tokens are listed by the start of their hash, newest first, and
	// deleted by it, each user's own only.
	Must(t, s.CreateToken(ctx, f.bob.ID, "ci", "b0b2000000000000000000000000000000000000000000000000000000000000"))
	Must(t, s.CreateToken(ctx, f.alice.ID, "alice's", "a11ce00000000000000000000000000000000000000000000000000000000000"))
	ts, err := s.ListTokens(ctx, f.bob.ID)
	Must(t, err)
	if len(ts) != 2 || ts[0].Name != "ci" || ts[0].ID != "b0b200000000" || ts[1].ID != "token-hash-1" || ts[0].UserID != f.bob.ID || ts[0].CreatedAt.IsZero() {
		t.Errorf("ListTokens(bob) = %+v; want ci (b0b200000000) then laptop (token-hash-1)", ts)
	}
	WantCode(t, "DeleteToken(alice's token as bob)", s.DeleteToken(ctx, f.bob.ID, "a11ce0000000"), quarry.ECodeNotFound)
	WantCode(t, "DeleteToken(a shorter id)", s.DeleteToken(ctx, f.bob.ID, "b0b2"), quarry.ECodeNotFound)
	Must(t, s.DeleteToken(ctx, f.bob.ID, "b0b200000000"))
	WantCode(t, "DeleteToken twice", s.DeleteToken(ctx, f.bob.ID, "b0b200000000"), quarry.ECodeNotFound)
	_, err = s.UserByToken(ctx, "b0b2000000000000000000000000000000000000000000000000000000000000")
	WantCode(t, "UserByToken after DeleteToken", err, quarry.ECodeNotFound)
	if u, err := s.UserByToken(ctx, "a11ce00000000000000000000000000000000000000000000000000000000000"); err != nil || u.ID != f.alice.ID {
		t.Errorf("alice's token after bob's deletes = %v, %v; want alice", u, err)
	}
	Must(t, s.DeleteUser(ctx, f.bob.ID))
	_, err = s.UserByToken(ctx, "token-hash-1")
	WantCode(t, "UserByToken after DeleteUser", err, quarry.ECodeNotFound)
}

// testSetPassword checks room.PasswordSetter, for the stores that
// implement it.
func testSetPassword(t *testing.T, f *fixture) {
	ps, ok := f.s.(room.PasswordSetter)
	if !ok {
		t.Skipf("%T does not implement room.PasswordSetter", f.s)
	}
	Must(t, ps.SetPassword(f.ctx, f.alice.ID, "new-hash-of-alice"))
	if _, hash, err := f.s.UserByName(f.ctx, "alice"); err != nil || hash != "new-hash-of-alice" {
		t.Errorf("alice's hash after SetPassword = %q, %v; want new-hash-of-alice", hash, err)
	}
	if _, hash, err := f.s.UserByName(f.ctx, "bob"); err != nil || hash != "hash-of-bob" {
		t.Errorf("bob's hash after alice's SetPassword = %q, %v; want it unchanged", hash, err)
	}
	Must(t, ps.SetPassword(f.ctx, f.alice.ID, ""))
	if _, hash, err := f.s.UserByName(f.ctx, "alice"); err != nil || hash != "" {
		t.Errorf("alice's hash after SetPassword(\"\") = %q, %v; want none", hash, err)
	}
	WantCode(t, "SetPassword(unknown)", ps.SetPassword(f.ctx, quarry.NewID(), "h"), quarry.ECodeNotFound)
	WantCode(t, "SetPassword(not-an-id)", ps.SetPassword(f.ctx, "not-an-id", "h"), quarry.ECodeNotFound)
}

func testRooms(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	r, err := s.Room(ctx, f.a.ID)
	Must(t, err)
	if r.Name != "room-a" || r.Description != "about room-a" || r.CreatedBy != f.alice.ID || !sameTime(r.CreatedAt, f.a.CreatedAt) {
		t.Errorf("Room = %+v; want %+v", r, f.a)
	}
	_, err = s.Room(ctx, quarry.NewID())
	WantCode(t, "Room(unknown)", err, quarry.ECodeNotFound)
	_, err = s.Room(ctx, "room-a") // a name where an id belongs
	WantCode(t, "Room(a name)", err, quarry.ECodeNotFound)

	// A name is unique per creator, case-insensitively: alice cannot
	// have two rooms called room-a, and bob's own ROOM-A says nothing of
	// hers.
	err = s.CreateRoom(ctx, &room.Room{ID: quarry.NewID(), Name: "Room-A", CreatedBy: f.alice.ID, CreatedAt: f.next()}, f.alice.ID)
	WantCode(t, "CreateRoom(Room-A again by alice)", err, quarry.ECodeConflict)
	if rs, err := s.RoomsOf(ctx, f.alice.ID); err != nil || len(rs) != 1 || rs[0].ID != f.a.ID {
		t.Errorf("RoomsOf(alice) after a refused CreateRoom = %+v, %v; want only room-a", rs, err)
	}
	bobsA := &room.Room{ID: quarry.NewID(), Name: "ROOM-A", CreatedBy: f.bob.ID, CreatedAt: f.next()}
	Must(t, s.CreateRoom(ctx, bobsA, f.bob.ID))
	rs, err := s.RoomsOf(ctx, f.bob.ID)
	Must(t, err)
	if len(rs) != 2 || rs[0].ID != bobsA.ID || rs[1].ID != f.b.ID {
		t.Errorf("RoomsOf(bob) = %+v; want his ROOM-A and room-b", rs)
	}
	Must(t, s.DeleteRoom(ctx, bobsA.ID))

	f.doc(t, f.a, "one.txt", []spec{{text: text("first")}})
	f.pending(t, f.a, "two.txt")
	Must(t, s.PutMember(ctx, room.Member{RoomID: f.a.ID, UserID: f.bob.ID, Role: room.RoleViewer, AddedAt: f.next()}))
	rs, err = s.RoomsOf(ctx, f.bob.ID)
	Must(t, err)
	if len(rs) != 2 || rs[0].Name != "room-a" || rs[0].Role != room.RoleViewer || rs[0].Documents != 2 ||
		rs[1].Name != "room-b" || rs[1].Role != room.RoleOwner || rs[1].Documents != 0 {
		t.Errorf("RoomsOf(bob) = %+v; want room-a (viewer, 2 documents), room-b (owner, 0), by name", rs)
	}
	rs, err = s.RoomsOf(ctx, quarry.NewID())
	if err != nil || len(rs) != 0 {
		t.Errorf("RoomsOf(unknown) = %+v, %v; want none", rs, err)
	}
}

func testMembers(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	m, err := s.Member(ctx, f.a.ID, f.alice.ID)
	if err != nil || m.Role != room.RoleOwner || m.UserName != "alice" {
		t.Fatalf("Member(owner) = %+v, %v; want alice as owner", m, err)
	}
	_, err = s.Member(ctx, f.a.ID, f.bob.ID)
	WantCode(t, "Member(not a member)", err, quarry.ECodeNotFound)
	carol := f.user(t, "carol")
	Must(t, s.PutMember(ctx, room.Member{RoomID: f.a.ID, UserID: f.bob.ID, Role: room.RoleViewer, AddedAt: f.next()}))
	Must(t, s.PutMember(ctx, room.Member{RoomID: f.a.ID, UserID: carol.ID, Role: room.RoleEditor, AddedAt: f.next()}))
	Must(t, s.PutMember(ctx, room.Member{RoomID: f.a.ID, UserID: f.bob.ID, Role: room.RoleEditor, AddedAt: f.next()}))
	ms, err := s.Members(ctx, f.a.ID)
	Must(t, err)
	got := ids(ms, func(m room.Member) string { return m.UserName + ":" + m.Role })
	if !slices.Equal(got, []string{"alice:owner", "bob:editor", "carol:editor"}) {
		t.Errorf("Members = %v; want alice:owner, bob:editor (changed from viewer), carol:editor by name", got)
	}
	err = s.PutMember(ctx, room.Member{RoomID: f.a.ID, UserID: carol.ID, Role: "admin", AddedAt: f.next()})
	WantCode(t, "PutMember(role admin)", err, quarry.ECodeInvalid)
	Must(t, s.RemoveMember(ctx, f.a.ID, carol.ID))
	_, err = s.Member(ctx, f.a.ID, carol.ID)
	WantCode(t, "Member after RemoveMember", err, quarry.ECodeNotFound)
	WantCode(t, "RemoveMember(again)", s.RemoveMember(ctx, f.a.ID, carol.ID), quarry.ECodeNotFound)
	if ms, err := s.Members(ctx, f.b.ID); err != nil || len(ms) != 1 || ms[0].UserID != f.bob.ID {
		t.Errorf("Members(room-b) = %+v, %v; want only bob", ms, err)
	}
}

// testLastOwner: a room keeps an owner. Its last owner can be neither
// demoted nor removed; with a second owner, either can.
func testLastOwner(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	for _, role := range []string{room.RoleEditor, room.RoleViewer} {
		err := s.PutMember(ctx, room.Member{RoomID: f.a.ID, UserID: f.alice.ID, Role: role, AddedAt: f.next()})
		WantCode(t, "PutMember(the last owner as "+role+")", err, quarry.ECodeConflict)
	}
	WantCode(t, "RemoveMember(the last owner)", s.RemoveMember(ctx, f.a.ID, f.alice.ID), quarry.ECodeConflict)
	if m, err := s.Member(ctx, f.a.ID, f.alice.ID); err != nil || m.Role != room.RoleOwner {
		t.Fatalf("alice after the refused changes = %+v, %v; want still the owner", m, err)
	}
	Must(t, s.PutMember(ctx, room.Member{RoomID: f.a.ID, UserID: f.bob.ID, Role: room.RoleOwner, AddedAt: f.next()}))
	Must(t, s.PutMember(ctx, room.Member{RoomID: f.a.ID, UserID: f.alice.ID, Role: room.RoleViewer, AddedAt: f.next()}))
	WantCode(t, "RemoveMember(bob, now the last owner)", s.RemoveMember(ctx, f.a.ID, f.bob.ID), quarry.ECodeConflict)
	WantCode(t, "PutMember(bob, now the last owner, as editor)",
		s.PutMember(ctx, room.Member{RoomID: f.a.ID, UserID: f.bob.ID, Role: room.RoleEditor, AddedAt: f.next()}), quarry.ECodeConflict)
	Must(t, s.RemoveMember(ctx, f.a.ID, f.alice.ID))
	ms, err := s.Members(ctx, f.a.ID)
	Must(t, err)
	if got := ids(ms, func(m room.Member) string { return m.UserName + ":" + m.Role }); !slices.Equal(got, []string{"bob:owner"}) {
		t.Errorf("Members(room-a) = %v; want bob:owner", got)
	}
	// Other rooms' owners are not counted: room-b's bob is not room-a's.
	WantCode(t, "RemoveMember(room-b's only owner)", s.RemoveMember(ctx, f.b.ID, f.bob.ID), quarry.ECodeConflict)
}

// testLastOwnerConcurrent: two owners demoting each other at once leave
// one owner, never none.
func testLastOwnerConcurrent(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	for round := range 10 {
		r := f.room(t, fmt.Sprintf("race-%d", round), f.alice)
		Must(t, s.PutMember(ctx, room.Member{RoomID: r.ID, UserID: f.bob.ID, Role: room.RoleOwner, AddedAt: f.next()}))
		errs := make(chan error, 2)
		for _, u := range []*room.User{f.alice, f.bob} {
			go func() {
				errs <- s.PutMember(ctx, room.Member{RoomID: r.ID, UserID: u.ID, Role: room.RoleViewer, AddedAt: f.t0})
			}()
		}
		var refused int
		for range 2 {
			if err := <-errs; err != nil {
				WantCode(t, "a concurrent demotion", err, quarry.ECodeConflict)
				refused++
			}
		}
		ms, err := s.Members(ctx, r.ID)
		Must(t, err)
		owners := 0
		for _, m := range ms {
			if m.Role == room.RoleOwner {
				owners++
			}
		}
		if owners != 1 || refused != 1 {
			t.Fatalf("round %d: two owners demoting each other at once: %d owners left, %d refused; want 1 and 1", round, owners, refused)
		}
	}
}

// testLoginFailures: failed sign-ins are counted per key within a
// window that starts at the first, exactly under concurrent failures,
// and forgotten when the window is over or the key is cleared.
func testLoginFailures(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	const window = 15 * time.Minute
	t0 := f.t0
	if got, err := s.LoginFailures(ctx, "name:ann", t0, window); err != nil || got.Count != 0 {
		t.Errorf("LoginFailures(none yet) = %+v, %v; want 0", got, err)
	}
	for i := 1; i <= 3; i++ {
		got, err := s.FailLogin(ctx, "name:ann", t0.Add(time.Duration(i)*time.Minute), window)
		if err != nil || got.Count != i || !sameTime(got.Since, t0.Add(time.Minute)) {
			t.Errorf("FailLogin #%d = %+v, %v; want %d since the first", i, got, err, i)
		}
	}
	Must(t, firstErr(s.FailLogin(ctx, "client:192.0.2.7", t0.Add(time.Minute), window)))
	at := t0.Add(10 * time.Minute)
	if got, err := s.LoginFailures(ctx, "name:ann", at, window); err != nil || got.Count != 3 || !sameTime(got.Since, t0.Add(time.Minute)) {
		t.Errorf("LoginFailures(name:ann) = %+v, %v; want 3 since %v", got, err, t0.Add(time.Minute))
	}
	if got, err := s.LoginFailures(ctx, "name:bob", at, window); err != nil || got.Count != 0 {
		t.Errorf("LoginFailures(name:bob) = %+v, %v; want 0: keys are counted apart", got, err)
	}
	// The window runs from the first failure: at its end the count is
	// over, and the next failure starts a new one.
	over := t0.Add(time.Minute + window)
	if got, err := s.LoginFailures(ctx, "name:ann", over, window); err != nil || got.Count != 0 {
		t.Errorf("LoginFailures at the window's end = %+v, %v; want 0", got, err)
	}
	if got, err := s.FailLogin(ctx, "name:ann", over, window); err != nil || got.Count != 1 || !sameTime(got.Since, over) {
		t.Errorf("FailLogin after the window = %+v, %v; want 1 since %v", got, err, over)
	}
	// The client's count, its window over, was forgotten by that call.
	if got, err := s.LoginFailures(ctx, "client:192.0.2.7", t0.Add(3*time.Minute), window); err != nil || got.Count != 0 {
		t.Errorf("LoginFailures of a count swept away = %+v, %v; want 0", got, err)
	}
	Must(t, s.ClearLoginFailures(ctx, "name:ann"))
	if got, err := s.LoginFailures(ctx, "name:ann", over, window); err != nil || got.Count != 0 {
		t.Errorf("LoginFailures after ClearLoginFailures = %+v, %v; want 0", got, err)
	}
	Must(t, s.ClearLoginFailures(ctx, "name:nobody"))

	// Concurrent failures each count.
	const n = 20
	errs := make(chan error, n)
	for range n {
		go func() { errs <- firstErr(s.FailLogin(ctx, "client:198.51.100.1", over, window)) }()
	}
	for range n {
		Must(t, <-errs)
	}
	if got, err := s.LoginFailures(ctx, "client:198.51.100.1", over, window); err != nil || got.Count != n {
		t.Errorf("LoginFailures after %d concurrent failures = %+v, %v; want %d", n, got, err, n)
	}
}

// firstErr drops a result to keep its error.
func firstErr[T any](_ T, err error) error { return err }

func testDeleteRoom(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	d, _, cs := f.doc(t, f.a, "one.txt", []spec{{text: text("harbor"), vec: []float32{1, 0, 0}, model: "m"}})
	q := f.query(t, f.alice, f.a, cs[0])
	Must(t, s.DeleteRoom(ctx, f.a.ID))
	_, err := s.Room(ctx, f.a.ID)
	WantCode(t, "Room after DeleteRoom", err, quarry.ECodeNotFound)
	_, err = s.Document(ctx, d.ID)
	WantCode(t, "Document after DeleteRoom", err, quarry.ECodeNotFound)
	_, err = s.Chunk(ctx, cs[0].ID)
	WantCode(t, "Chunk after DeleteRoom", err, quarry.ECodeNotFound)
	_, err = s.Query(ctx, q.ID)
	WantCode(t, "Query after DeleteRoom", err, quarry.ECodeNotFound)
	_, err = s.Member(ctx, f.a.ID, f.alice.ID)
	WantCode(t, "Member after DeleteRoom", err, quarry.ECodeNotFound)
	if hs, err := s.SearchChunks(ctx, f.a.ID, room.ChunkQuery{Terms: []string{"harbor"}, Limit: 5}); err != nil || len(hs) != 0 {
		t.Errorf("SearchChunks after DeleteRoom = %v, %v; want none", describe(hs), err)
	}
	if hs, err := s.SearchVectors(ctx, f.a.ID, room.VectorQuery{Vector: []float32{1, 0, 0}, Model: "m", Limit: 5}); err != nil || len(hs) != 0 {
		t.Errorf("SearchVectors after DeleteRoom = %v, %v; want none", describe(hs), err)
	}
	WantCode(t, "DeleteRoom(again)", s.DeleteRoom(ctx, f.a.ID), quarry.ECodeNotFound)
	if _, err := s.User(ctx, f.alice.ID); err != nil {
		t.Errorf("User(alice) after DeleteRoom: %v; users outlive rooms", err)
	}
}

// testEndSession: a signed-out session is refused until its expiry, by
// every process of the store; ended sessions past their expiry are
// forgotten at the next sign-out, and a user's go with them.
func testEndSession(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	now := time.Now()
	Must(t, s.EndSession(ctx, f.bob.ID, "session-old", now.Add(-time.Minute)))
	Must(t, s.EndSession(ctx, f.bob.ID, "session-1", now.Add(time.Hour)))
	Must(t, s.EndSession(ctx, f.bob.ID, "session-1", now.Add(time.Hour))) // twice is once
	Must(t, s.EndSession(ctx, f.alice.ID, "session-a", now.Add(time.Hour)))
	for id, want := range map[string]bool{"session-1": true, "session-a": true, "session-2": false, "session-old": false} {
		if got, err := s.SessionEnded(ctx, id); err != nil || got != want {
			t.Errorf("SessionEnded(%s) = %v, %v; want %v", id, got, err, want)
		}
	}
	Must(t, s.DeleteUser(ctx, f.bob.ID))
	if got, err := s.SessionEnded(ctx, "session-1"); err != nil || got {
		t.Errorf("SessionEnded(bob's) after DeleteUser = %v, %v; want false", got, err)
	}
}
