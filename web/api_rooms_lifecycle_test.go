package web_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// termsMD is a small document for the lifecycle tests.
var termsMD = []byte("# Terms\n\nEither party may terminate this agreement with ninety days' written notice to the other party.\n")

// TestRoomsAPILifecycle: a member leaves, an owner removes a member but
// not the last owner, only an owner deletes a room (with its files), and
// a user deletes their account, with the room they alone were in.
func TestRoomsAPILifecycle(t *testing.T) {
	e := newRoomsEnv(t)
	d := e.document("alice", e.a.ID, "terms.md", termsMD)
	apiRoom := "/api/rooms/" + e.a.ID
	for _, c := range []struct {
		user, method, path string
		body               any
		status             int
		code               string
	}{
		{"vic", "DELETE", apiRoom + "/members/vic", nil, 200, ""}, // vic leaves
		{"vic", "GET", apiRoom, nil, 404, "NOT_FOUND"},
		{"alice", "POST", apiRoom + "/members", map[string]string{"user_name": "vic", "role": "editor"}, 201, ""},
		{"vic", "DELETE", apiRoom + "/members/alice", nil, 403, "FORBIDDEN"},
		{"alice", "DELETE", apiRoom + "/members/alice", nil, 409, "CONFLICT"}, // the last owner
		{"alice", "DELETE", apiRoom + "/members/nobody", nil, 404, "NOT_FOUND"},
		{"bob", "DELETE", apiRoom + "/members/vic", nil, 404, "NOT_FOUND"},
		{"vic", "DELETE", apiRoom, nil, 403, "FORBIDDEN"},
		{"bob", "DELETE", apiRoom, nil, 404, "NOT_FOUND"},
		{"alice", "DELETE", apiRoom, nil, 200, ""},
		{"alice", "GET", apiRoom, nil, 404, "NOT_FOUND"},
		{"alice", "GET", apiRoom + "/documents/" + d.ID + "/file", nil, 404, "NOT_FOUND"},
		{"alice", "DELETE", apiRoom, nil, 404, "NOT_FOUND"},
		{"vic", "DELETE", "/api/account", nil, 200, ""},
		{"bob", "DELETE", "/api/account", nil, 200, ""}, // alone in deal-b, which goes too
	} {
		r := e.json(c.user, c.method, c.path, c.body)
		if r.status != c.status || (c.code != "" && r.code(t) != c.code) {
			t.Errorf("%s %s as %q = %d %s; want %d %s", c.method, c.path, c.user, r.status, r.body, c.status, c.code)
		}
	}
	for _, id := range []string{e.a.ID, e.b.ID} {
		if _, err := os.Stat(filepath.Join(e.dir, "rooms", id)); !os.IsNotExist(err) {
			t.Errorf("a deleted room's folder: %v; want it removed", err)
		}
	}
	ctx := room.WithActor(context.Background(), room.System)
	for _, u := range []*room.User{e.vic, e.bob} {
		if _, err := e.store.User(ctx, u.ID); quarry.ErrorCode(err) != quarry.ECodeNotFound {
			t.Errorf("%s after deleting their account: %v; want NOT_FOUND", u.Name, err)
		}
	}
	if _, err := e.store.Room(ctx, e.b.ID); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("bob's room after his account's deletion: %v; want NOT_FOUND", err)
	}
}

// TestRoomsPagesLifecycle: the room's page offers an owner the removal
// of members and the room's deletion, a member leaving, and each form
// does it, a mistyped confirmation or the last owner refused at its
// place.
func TestRoomsPagesLifecycle(t *testing.T) {
	e := newRoomsEnv(t)
	page := "/rooms/" + e.a.ID
	mustContain(t, "the owner's room page", e.page("alice", "GET", page, "", nil, false),
		`id="delete-room-form"`, `action="`+page+`/members/vic/remove"`, ">Remove<", ">Leave<")
	viewer := e.page("vic", "GET", page, "", nil, false)
	mustContain(t, "the viewer's room page", viewer, `action="`+page+`/members/vic/remove"`, ">Leave<")
	for _, absent := range []string{`id="delete-room-form"`, `/members/alice/remove`} {
		if strings.Contains(string(viewer.body), absent) {
			t.Errorf("the viewer's room page has %s", absent)
		}
	}

	if r := e.form("alice", page+"/members/alice/remove", nil, false); r.status != http.StatusConflict {
		t.Errorf("the last owner leaves: %d; want 409", r.status)
	} else {
		mustContain(t, "the last owner's refusal", r, `id="remove-error"`, "last owner")
	}
	if r := e.form("alice", page+"/members/vic/remove", nil, false); r.status != http.StatusSeeOther || r.header.Get("Location") != page+"#members-heading" {
		t.Errorf("removing vic: %d to %q", r.status, r.header.Get("Location"))
	}
	if r := e.page("vic", "GET", page, "", nil, false); r.status != http.StatusNotFound {
		t.Errorf("vic's room page after the removal: %d; want 404", r.status)
	}

	r := e.form("alice", page+"/delete", url.Values{"confirm": {"deal-b"}}, false)
	if r.status != http.StatusUnprocessableEntity {
		t.Errorf("deleting with the wrong name: %d; want 422", r.status)
	}
	mustContain(t, "the wrong name's refusal", r, `id="delete-room-error"`, "deal-a")
	if r := e.form("alice", page+"/delete", url.Values{"confirm": {"deal-a"}}, false); r.status != http.StatusSeeOther || r.header.Get("Location") != "/rooms" {
		t.Errorf("deleting the room: %d to %q", r.status, r.header.Get("Location"))
	}
	if r := e.page("alice", "GET", page, "", nil, false); r.status != http.StatusNotFound {
		t.Errorf("the deleted room's page: %d; want 404", r.status)
	}

	if r := e.form("bob", "/account/delete", url.Values{"confirm": {"bobby"}}, false); r.status != http.StatusUnprocessableEntity {
		t.Errorf("deleting bob's account with the wrong name: %d; want 422", r.status)
	}
	if r := e.form("bob", "/account/delete", url.Values{"confirm": {"bob"}}, false); r.status != http.StatusSeeOther || r.header.Get("Location") != "/login?deleted=bob" {
		t.Errorf("deleting bob's account: %d to %q", r.status, r.header.Get("Location"))
	}
}
