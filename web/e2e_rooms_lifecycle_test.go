package web_test

import (
	"strings"
	"testing"
)

// TestBrowserRoomLifecycle drives the room page's new controls in
// headless Chromium: an owner removes a member, is told at the field
// when the room's name is mistyped, and deletes the room; axe-core checks
// the pages with the controls and their errors.
func TestBrowserRoomLifecycle(t *testing.T) {
	e := newRoomsEnvAs(t, "alice")
	e.document("alice", e.a.ID, "terms.md", termsMD)
	b := newBrowser(t, e.srv.URL, true)

	b.open("/rooms/" + e.a.ID)
	b.waitFor("the room page", `!!document.querySelector("#delete-room-form")`)
	checkA11yAll(b, "room page with its members' and deletion's controls")
	b.screenshot("rooms-lifecycle-01-room")

	b.click("#remove-" + e.vic.ID)
	b.waitFor("the members without vic", `location.hash === "#members-heading" && !document.querySelector("#remove-`+e.vic.ID+`")`)
	if got := b.text(".members"); strings.Contains(got, "vic") {
		t.Errorf("the members after removing vic read %q", got)
	}

	b.set("#delete-room-confirm", "deal-b")
	b.click("#delete-room")
	b.waitFor("the mistyped name's error", `!!document.querySelector("#delete-room-error")`)
	if got := b.text("#delete-room-error"); !strings.Contains(got, "deal-a") {
		t.Errorf("the error reads %q; want it to say what to type", got)
	}
	if b.attr("#delete-room-confirm", "ariaInvalid") != "true" {
		t.Error("the confirmation field is not marked invalid")
	}
	checkA11yAll(b, "room page with the deletion's error")
	b.screenshot("rooms-lifecycle-02-mistyped")

	b.set("#delete-room-confirm", "deal-a")
	b.click("#delete-room")
	b.waitFor("the list of rooms", `location.pathname === "/rooms" && !!document.querySelector("#new-room-form")`)
	if got := b.text("main"); strings.Contains(got, "deal-a") {
		t.Errorf("the rooms page still lists deal-a: %q", got)
	}
	b.screenshot("rooms-lifecycle-03-deleted")
}
