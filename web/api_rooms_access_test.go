package web_test

import (
	"encoding/csv"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/room"
)

// TestRoomsAPIAccessLog: a page a viewer reads and a file they download
// are in the room's access log, which its owner reads as JSON or CSV and
// the viewer may not read.
func TestRoomsAPIAccessLog(t *testing.T) {
	e := newRoomsEnv(t)
	l := audit.NewShared(filepath.Join(e.dir, "logs", "rooms.jsonl"), nil)
	t.Cleanup(func() { l.Close() })
	e.svc.Audit = l
	d := e.document("alice", e.a.ID, "terms.md", []byte("# Terms\n\nEither party may terminate this agreement with ninety days' written notice.\n"))
	base := "/api/rooms/" + e.a.ID
	for _, path := range []string{base + "/documents/" + d.ID + "/pages/1", base + "/documents/" + d.ID + "/file"} {
		if r := e.do("vic", http.MethodGet, path, "", nil); r.status != http.StatusOK {
			t.Fatalf("GET %s as vic = %d %s", path, r.status, r.body)
		}
	}
	r := e.do("alice", http.MethodGet, base+"/access", "", nil)
	var log struct{ Accesses []room.Access }
	decode(t, r, &log)
	var got []string
	for _, a := range log.Accesses {
		if a.UserID == e.vic.ID {
			got = append(got, a.Action)
		}
	}
	if strings.Join(got, ",") != "view,download" {
		t.Errorf("vic's accesses = %v; want view,download", got)
	}
	r = e.do("alice", http.MethodGet, base+"/access?format=csv", "", nil)
	rows, err := csv.NewReader(strings.NewReader(string(r.body))).ReadAll()
	if err != nil || r.status != http.StatusOK || len(rows) != len(log.Accesses)+1 || rows[0][2] != "action" {
		t.Errorf("the CSV = %d %v %q; want a header and a row an access", r.status, err, r.body)
	}
	if r := e.do("vic", http.MethodGet, base+"/access", "", nil); r.status != http.StatusForbidden {
		t.Errorf("vic reads the access log: %d; want 403", r.status)
	}
}

// TestRoomPageLinksTheAccessLog: the room's page offers its owner the
// access log, and a viewer nothing of it.
func TestRoomPageLinksTheAccessLog(t *testing.T) {
	e := newRoomsEnv(t)
	for user, want := range map[string]bool{"alice": true, "vic": false} {
		r := e.page(user, http.MethodGet, "/rooms/"+e.a.ID, "", nil, false)
		if r.status != http.StatusOK || strings.Contains(string(r.body), `id="access-log"`) != want {
			t.Errorf("the room page as %s: %d, access log link %v; want %v", user, r.status, !want, want)
		}
	}
}
