package roomstest

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/fakeclock"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/room/roomtest"
	"github.com/quarry-dev/quarry/rooms"
)

// testLockouts: failed sign-ins are counted in the store, so that a
// second service over it (another server, or this one restarted) honours
// the lockout the first one counted: by name after MaxLoginFailures,
// with the right password too, and by client after MaxClientFailures
// made-up names. Each answer says how long to wait.
func testLockouts(t *testing.T, f *fixture) {
	ctx := f.ctx
	clock := fakeclock.New(time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC))
	one := f.svc
	one.Now = clock.Now
	two := &rooms.Service{Store: one.Store, Dir: one.Dir, Now: clock.Now}
	const right = "pat's long password"
	_, err := one.AddUser(ctx, "pat", right)
	roomtest.Must(t, err)

	for i := range rooms.MaxLoginFailures {
		_, err := one.LoginFrom(ctx, fmt.Sprintf("192.0.2.%d", i), "pat", "a wrong password")
		roomtest.WantCode(t, fmt.Sprintf("failure %d", i+1), err, quarry.ECodeUnauthorized)
	}
	clock.Add(time.Minute)
	_, err = two.LoginFrom(ctx, "192.0.2.200", "PAT", right)
	wantLimited(t, "the right password on the second service after the name's failures", err, "this name",
		int((rooms.LoginFailureWindow - time.Minute).Seconds()))
	clock.Add(rooms.LoginFailureWindow - time.Minute)
	if u, err := two.LoginFrom(ctx, "192.0.2.200", "pat", right); err != nil || u.Name != "pat" {
		t.Fatalf("pat once the window is over = %v, %v; want pat", u, err)
	}

	// Made-up names each fail once; the client's budget stops them.
	const attacker = "198.51.100.7"
	for i := range rooms.MaxClientFailures {
		_, err := one.LoginFrom(ctx, attacker, fmt.Sprintf("ghost-%d", i), "guess")
		roomtest.WantCode(t, fmt.Sprintf("made-up name %d", i), err, quarry.ECodeUnauthorized)
	}
	_, err = two.LoginFrom(ctx, attacker, "pat", right)
	wantLimited(t, "pat from the address past its budget", err, "your address", int(rooms.LoginFailureWindow.Seconds()))
	if u, err := two.LoginFrom(ctx, "203.0.113.1", "pat", right); err != nil || u.Name != "pat" {
		t.Errorf("pat from another address = %v, %v; want pat", u, err)
	}
	// The command line's sign-in has no client to count.
	if u, err := two.Login(ctx, "pat", right); err != nil || u.Name != "pat" {
		t.Errorf("Login(pat) without a client = %v, %v; want pat", u, err)
	}
}

// wantLimited checks that err is RATE_LIMITED about what, with a
// Retry-After of at most maxSecs and more than none.
func wantLimited(t *testing.T, what string, err error, about string, maxSecs int) {
	t.Helper()
	var limited *room.RateLimited
	if !errors.As(err, &limited) || limited.Err.Code != quarry.ECodeRateLimited {
		t.Fatalf("%s: %v; want a *room.RateLimited", what, err)
	}
	if !strings.Contains(limited.Err.Message, about) {
		t.Errorf("%s: %q; want it about %s", what, limited.Err.Message, about)
	}
	if limited.RetryAfter <= 0 || limited.RetryAfter > maxSecs {
		t.Errorf("%s: retry after %d s; want 1 to %d", what, limited.RetryAfter, maxSecs)
	}
}

// testRoomNames: a room's name is unique per creator. Creating a room
// whose name another person's room has succeeds, and says nothing of
// it; a name is looked up among one's own rooms only, and one who is in
// two rooms of a name is asked for an id.
func testRoomNames(t *testing.T, f *fixture) {
	ctx, svc := f.ctx, f.svc
	mine, err := svc.CreateRoom(ctx, f.stranger.ID, "DEAL-B", "")
	if err != nil {
		t.Fatalf("stranger creates DEAL-B while other has deal-b: %v; want it made", err)
	}
	if mine.ID == f.b.ID {
		t.Fatalf("stranger's DEAL-B is other's room")
	}
	_, err = svc.CreateRoom(ctx, f.stranger.ID, "deal-b", "")
	roomtest.WantCode(t, "stranger creates deal-b twice", err, quarry.ECodeConflict)
	if msg := quarry.ErrorMessage(err); !strings.Contains(msg, "you have") {
		t.Errorf("the refusal of a second deal-b says %q; want it about stranger's own room", msg)
	}
	for _, u := range []*room.User{f.stranger, f.other} {
		want := map[*room.User]string{f.stranger: mine.ID, f.other: f.b.ID}[u]
		if r, err := svc.Room(ctx, u.ID, "deal-b"); err != nil || r.ID != want {
			t.Errorf("Room(%s, deal-b) = %v, %v; want their own (%s)", u.Name, r, err, want)
		}
	}
	// other joins stranger's room of the same name: a name is no
	// longer enough for them, and the answer lists only rooms they are in.
	_, err = svc.AddMember(ctx, f.stranger.ID, mine.ID, f.other.Name, room.RoleViewer)
	roomtest.Must(t, err)
	_, err = svc.Room(ctx, f.other.ID, "deal-b")
	roomtest.WantCode(t, "Room(other, deal-b) in two rooms of the name", err, quarry.ECodeConflict)
	var qe *quarry.Error
	if !errors.As(err, &qe) || !strings.Contains(qe.Hint, mine.ID) || !strings.Contains(qe.Hint, f.b.ID) {
		t.Errorf("the ambiguity's hint = %v; want both ids", err)
	}
	if r, err := svc.Room(ctx, f.other.ID, mine.ID); err != nil || r.ID != mine.ID {
		t.Errorf("Room(other, by id) = %v, %v; want stranger's room", r, err)
	}
	// owner, in neither, finds neither.
	_, err = svc.Room(ctx, f.owner.ID, "deal-b")
	roomtest.WantCode(t, "Room(owner, deal-b)", err, quarry.ECodeNotFound)
}

// testLastOwner: a room keeps an owner. Its last owner can neither demote
// themselves nor be removed; with a second owner, they can.
func testLastOwner(t *testing.T, f *fixture) {
	ctx, svc := f.ctx, f.svc
	_, err := svc.AddMember(ctx, f.owner.ID, f.a.ID, f.owner.Name, room.RoleViewer)
	roomtest.WantCode(t, "the last owner demotes themselves", err, quarry.ECodeConflict)
	if msg := quarry.ErrorMessage(err); !strings.Contains(msg, "last owner") {
		t.Errorf("the refusal says %q; want it to say why", msg)
	}
	err = svc.RemoveMember(ctx, f.owner.ID, f.a.ID, f.owner.Name)
	roomtest.WantCode(t, "the last owner leaves", err, quarry.ECodeConflict)
	if m, err := svc.Store.Member(room.WithActor(ctx, room.System), f.a.ID, f.owner.ID); err != nil || m.Role != room.RoleOwner {
		t.Fatalf("owner after the refusals = %+v, %v; want still the owner", m, err)
	}
	// Members other than owners cannot remove others, only themselves.
	roomtest.WantCode(t, "an editor removes the viewer", svc.RemoveMember(ctx, f.ed.ID, f.a.ID, f.vic.Name), quarry.ECodeForbidden)
	roomtest.WantCode(t, "a stranger removes the owner", svc.RemoveMember(ctx, f.stranger.ID, f.a.ID, f.owner.Name), quarry.ECodeNotFound)
	roomtest.Must(t, svc.RemoveMember(ctx, f.vic.ID, f.a.ID, f.vic.Name))
	roomtest.WantCode(t, "removing one no longer a member", svc.RemoveMember(ctx, f.owner.ID, f.a.ID, f.vic.Name), quarry.ECodeNotFound)

	// With ed an owner too, owner may step down, and ed is then the last.
	_, err = svc.AddMember(ctx, f.owner.ID, f.a.ID, f.ed.Name, room.RoleOwner)
	roomtest.Must(t, err)
	_, err = svc.AddMember(ctx, f.owner.ID, f.a.ID, f.owner.Name, room.RoleEditor)
	roomtest.Must(t, err)
	err = svc.RemoveMember(ctx, f.ed.ID, f.a.ID, f.ed.Name)
	roomtest.WantCode(t, "ed, now the last owner, leaves", err, quarry.ECodeConflict)
	roomtest.Must(t, svc.RemoveMember(ctx, f.ed.ID, f.a.ID, f.owner.Name))
	ms, err := svc.Members(ctx, f.ed.ID, f.a.ID)
	roomtest.Must(t, err)
	if len(ms) != 1 || ms[0].UserID != f.ed.ID || ms[0].Role != room.RoleOwner {
		t.Errorf("room A's members = %+v; want ed alone, its owner", ms)
	}
}
