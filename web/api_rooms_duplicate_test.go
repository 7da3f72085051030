package web_test

import (
	"net/http"
	"testing"

	"github.com/quarry-dev/quarry/room"
)

// TestRoomsDuplicateUpload: the same content uploaded to a room twice is
// 409 CONFLICT naming the document there, in the API's envelope and at
// the page's upload field, and the room keeps one copy.
func TestRoomsDuplicateUpload(t *testing.T) {
	e := newRoomsEnv(t)
	content := []byte("# Terms\n\nEither party may terminate this agreement with ninety days' written notice to the other party.\n")
	d := e.document("alice", e.a.ID, "terms.md", content)

	r := e.upload("alice", e.a.ID, "terms (1).md", content)
	if r.status != http.StatusConflict || r.code(t) != "CONFLICT" {
		t.Fatalf("a duplicate upload: %d %s; want 409 CONFLICT", r.status, r.body)
	}
	details, _ := r.json(t)["error"].(map[string]any)["details"].(map[string]any)
	if details["document_id"] != d.ID || details["document_name"] != "terms.md" {
		t.Errorf("the refusal's details = %v; want the document there, %s terms.md", details, d.ID)
	}
	page := e.uploadForm("alice", e.a.ID, "terms (2).md", content, true)
	if page.status != http.StatusConflict || page.header.Get("HX-Retarget") != "#upload-error-slot" {
		t.Errorf("a duplicate htmx upload: %d, retarget %q", page.status, page.header.Get("HX-Retarget"))
	}
	mustContain(t, "a duplicate htmx upload", page, `id="upload-error"`, "already in this room", d.ID)
	plain := e.uploadForm("alice", e.a.ID, "terms (3).md", content, false)
	if plain.status != http.StatusConflict {
		t.Errorf("a duplicate upload without JavaScript: %d; want 409", plain.status)
	}
	mustContain(t, "a duplicate upload without JavaScript", plain, "already in this room", d.ID)

	var docs struct{ Documents []room.Document }
	decode(t, e.json("alice", "GET", "/api/rooms/"+e.a.ID+"/documents", nil), &docs)
	if len(docs.Documents) != 1 {
		t.Errorf("room A's documents after the duplicates: %d; want 1", len(docs.Documents))
	}
}
