package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/room"
)

// roomWithDocument makes a data dir with room "deals" holding terms.md,
// and returns the dir and the document's path.
func roomWithDocument(t *testing.T) (dir, doc string) {
	t.Helper()
	dir = t.TempDir()
	doc = filepath.Join(t.TempDir(), "terms.md")
	if err := os.WriteFile(doc, []byte("# Terms\n\nEither party may terminate this agreement with ninety days' written notice to the other party.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "room", "create", "deals", "--data-dir", dir); code != 0 {
		t.Fatalf("room create: %d %s", code, stderr)
	}
	if stdout, stderr, code := runCLI(t, "ingest", "--room", "deals", "--data-dir", dir, doc); code != 0 || !strings.Contains(stdout, "terms.md: 1 pages") {
		t.Fatalf("ingest: %d %s %s", code, stdout, stderr)
	}
	return dir, doc
}

// TestIngestReportsADuplicate: ingesting a file the room has already
// says so, with CONFLICT and the document there, and stores nothing.
func TestIngestReportsADuplicate(t *testing.T) {
	dir, doc := roomWithDocument(t)
	copy := filepath.Join(t.TempDir(), "terms copy.md")
	data, _ := os.ReadFile(doc)
	if err := os.WriteFile(copy, data, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, "ingest", "--room", "deals", "--data-dir", dir, doc, copy)
	if code != 0 || stdout != "" {
		t.Errorf("ingest of two duplicates: exit %d, stdout %q; want 0 and nothing ingested", code, stdout)
	}
	for _, want := range []string{"terms.md: skipped: CONFLICT: terms.md is already in this room (document ", "terms copy.md: skipped: CONFLICT: terms copy.md is already in this room as terms.md"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("ingest's report lacks %q:\n%s", want, stderr)
		}
	}
	if n := roomDocuments(t, dir, "deals"); n != 1 {
		t.Errorf("deals holds %d documents after the duplicates; want 1", n)
	}
}

// roomDocuments is how many documents quarry room list counts in the
// room called name, -1 when the list has no such room.
func roomDocuments(t *testing.T, dir, name string) int {
	t.Helper()
	stdout, stderr, code := runCLI(t, "room", "list", "--json", "--data-dir", dir)
	if code != 0 {
		t.Fatalf("room list: %d %s", code, stderr)
	}
	var rs []room.Room
	if err := json.Unmarshal([]byte(stdout), &rs); err != nil {
		t.Fatalf("room list --json: %v\n%s", err, stdout)
	}
	for _, r := range rs {
		if r.Name == name {
			return r.Documents
		}
	}
	return -1
}
