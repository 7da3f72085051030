package roomstest

import (
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room/roomtest"
)

// testUsers: a password is set, changed (ending the sign-ins made with
// the old one) and checked, and an API token finds its user.
func testUsers(t *testing.T, f *fixture) {
	ctx, svc := f.ctx, f.svc
	pat, err := svc.AddUser(ctx, "pat", "first password")
	roomtest.Must(t, err)
	if u, err := svc.Login(ctx, "pat", "first password"); err != nil || u.ID != pat.ID {
		t.Fatalf("Login(pat) = %v, %v; want pat", u, err)
	}
	_, stamp, err := svc.SessionStamp(ctx, pat.ID)
	roomtest.Must(t, err)

	roomtest.Must(t, svc.SetPassword(ctx, pat.ID, "second password"))
	_, err = svc.Login(ctx, "pat", "first password")
	roomtest.WantCode(t, "Login with the old password", err, quarry.ECodeUnauthorized)
	if u, err := svc.Login(ctx, "pat", "second password"); err != nil || u.ID != pat.ID {
		t.Errorf("Login with the new password = %v, %v; want pat", u, err)
	}
	if _, now, err := svc.SessionStamp(ctx, pat.ID); err != nil || now == stamp {
		t.Errorf("SessionStamp after SetPassword = %q, %v; want it changed from %q", now, err, stamp)
	}
	roomtest.WantCode(t, "SetPassword(a short one)", svc.SetPassword(ctx, pat.ID, "short"), quarry.ECodeInvalid)
	roomtest.WantCode(t, "SetPassword(unknown user)", svc.SetPassword(ctx, quarry.NewID(), "a long password"), quarry.ECodeNotFound)
	// Another user's password is untouched.
	roomtest.Must(t, svc.SetPassword(ctx, f.vic.ID, "vic's password"))
	if u, err := svc.Login(ctx, "pat", "second password"); err != nil || u.ID != pat.ID {
		t.Errorf("Login(pat) after vic's password changed = %v, %v; want pat", u, err)
	}

	token, err := svc.CreateToken(ctx, pat.ID, "laptop")
	roomtest.Must(t, err)
	if u, err := svc.UserByToken(ctx, token); err != nil || u.ID != pat.ID {
		t.Errorf("UserByToken = %v, %v; want pat", u, err)
	}
	_, err = svc.UserByToken(ctx, token+"x")
	roomtest.WantCode(t, "UserByToken(another token)", err, quarry.ECodeUnauthorized)
}
