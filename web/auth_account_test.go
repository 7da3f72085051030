package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/web"
)

// TestDeleteAccount: signed in with a password, a person finds "Your
// account" on the rooms page, deletes it by typing their name, leaves
// signed out and cannot sign in again; bob's token stops with his
// account.
func TestDeleteAccount(t *testing.T) {
	e := newAuthEnv(t, false)
	c := cookieHeader(e.sessionCookie())
	res := e.send("GET", "/rooms", nil, "Cookie", c)
	if got := body(t, res); !strings.Contains(got, `id="delete-account-form"`) || !strings.Contains(got, "Type your user name, ann,") {
		t.Fatalf("the rooms page signed in lacks the account's deletion: %d %.2000s", res.StatusCode, got)
	}
	res = e.send("POST", "/account/delete", url.Values{"confirm": {"ann"}}, "Cookie", c)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/login?deleted=ann" {
		t.Fatalf("deleting ann's account: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	cleared := false
	for _, ck := range res.Cookies() {
		cleared = cleared || (ck.Name == web.SessionCookie && ck.MaxAge < 0)
	}
	if !cleared {
		t.Error("the session cookie was not cleared")
	}
	if got := body(t, e.send("GET", "/login?deleted=ann", nil)); !strings.Contains(got, "The account ann was deleted") {
		t.Errorf("the sign-in page does not say the account was deleted: %.1000s", got)
	}
	if res := e.send("GET", "/rooms", nil, "Cookie", c); res.StatusCode != http.StatusSeeOther {
		t.Errorf("the old cookie after the deletion: %d; want 303 to sign in", res.StatusCode)
	}
	if res := e.login("ann", annPassword, "/"); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("signing in as the deleted ann: %d; want 401", res.StatusCode)
	}

	bearer := "Bearer " + e.bobToken
	if res := e.send("DELETE", "/api/account", nil, "Authorization", bearer); res.StatusCode != http.StatusOK {
		t.Fatalf("bob deletes his account: %d %s", res.StatusCode, body(t, res))
	}
	want401(t, "bob's token after his account's deletion", e.send("GET", "/api/rooms", nil, "Authorization", bearer))
}
