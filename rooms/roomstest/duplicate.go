package roomstest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/sampleroom"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/room/roomtest"
)

// testDuplicate: content a room has already, under any name, is refused
// with CONFLICT naming the document there, and nothing of it is stored;
// another room may hold the same content.
func testDuplicate(t *testing.T, f *fixture) {
	ctx, svc := f.ctx, f.svc
	data, err := fs.ReadFile(sampleroom.FS, "northwind-2023-annual-report.md")
	roomtest.Must(t, err)
	before, err := svc.Documents(ctx, f.ed.ID, f.a.ID)
	roomtest.Must(t, err)
	for _, name := range []string{f.docA.Name, "copy of the report.md"} {
		_, err := svc.Upload(ctx, f.ed.ID, f.a.ID, name, strings.NewReader(string(data)))
		roomtest.WantCode(t, "uploading "+name+" again", err, quarry.ECodeConflict)
		var dup *room.Duplicate
		if !errors.As(err, &dup) || dup.Existing.ID != f.docA.ID || dup.Existing.Name != f.docA.Name {
			t.Fatalf("the refusal of %s = %#v; want a *room.Duplicate naming %s", name, err, f.docA.ID)
		}
		if msg := quarry.ErrorMessage(err); !strings.Contains(msg, f.docA.ID) || !strings.Contains(msg, f.docA.Name) {
			t.Errorf("the refusal says %q; want the document's id and name", msg)
		}
	}
	after, err := svc.Documents(ctx, f.ed.ID, f.a.ID)
	roomtest.Must(t, err)
	if len(after) != len(before) {
		t.Errorf("room A has %d documents after the duplicates; want %d", len(after), len(before))
	}
	dirs, err := os.ReadDir(filepath.Join(svc.Dir, "rooms", f.a.ID, "documents"))
	roomtest.Must(t, err)
	if len(dirs) != len(before) {
		t.Errorf("room A's folder holds %d documents' files; want %d", len(dirs), len(before))
	}
	// Room B may hold the same content; a changed byte is new content.
	f.processed(t, f.other, f.b, "the report.md", string(data))
	f.processed(t, f.owner, f.a, "the report, amended.md", string(data)+"\nAmended.\n")
}
