package web_test

import (
	"strings"
	"testing"
)

// TestBrowserSignIn signs in the way a person does: a room page sends
// them to the sign-in form, a wrong password says so, the right one
// brings them back, and signing out ends it. axe checks each state.
func TestBrowserSignIn(t *testing.T) {
	e := newAuthEnv(t, false)
	b := newBrowser(t, e.srv.URL, true)

	b.open("/rooms")
	b.waitFor("the sign-in form", `location.pathname === "/login" && !!document.querySelector("#login-form")`)
	if next := b.value(`input[name="next"]`); next != "/rooms" {
		t.Errorf("the form goes back to %q after signing in; want /rooms", next)
	}
	b.checkA11y("sign-in page")

	b.set("#name", "ann")
	b.set("#password", "not her password")
	b.click("#sign-in")
	b.waitFor("the error", `!!document.querySelector(".error-summary")`)
	if msg := b.text(".error-summary"); !strings.Contains(msg, "wrong user name or password") {
		t.Errorf("the error says %q", msg)
	}
	if b.value("#name") != "ann" || b.value("#password") != "" {
		t.Errorf("after a failure the form keeps %q and %q; want the name only", b.value("#name"), b.value("#password"))
	}
	b.checkA11y("sign-in page with an error")
	b.screenshot("sign-in-error")

	b.set("#password", annPassword)
	b.click("#sign-in")
	// the page is read once it is there, not when the address changes
	b.waitFor("the rooms page", `location.pathname === "/rooms" && document.readyState === "complete" && !!document.querySelector("#new-room-form")`)
	if page := b.text("main"); !strings.Contains(page, e.a.Name) || strings.Contains(page, e.b.Name) {
		t.Errorf("ann's rooms page does not list her room alone:\n%.1000s", page)
	}

	b.open("/login")
	if who := b.text("main"); !strings.Contains(who, "signed in as ann") {
		t.Errorf("the account page says %q", who)
	}
	b.checkA11y("account page")
	b.click("#sign-out")
	b.waitFor("the sign-in form after signing out", `location.pathname === "/login" && !!document.querySelector("#login-form")`)
	b.open("/rooms")
	b.waitFor("the sign-in form for the rooms again", `location.pathname === "/login"`)
}
