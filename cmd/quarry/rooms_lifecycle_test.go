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
	if r := listedRoom(t, dir, name); r != nil {
		return r.Documents
	}
	return -1
}

// listedRoom is the room called name as quarry room list --json gives
// it, nil when it has none.
func listedRoom(t *testing.T, dir, name string) *room.Room {
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
			return &r
		}
	}
	return nil
}

// TestRoomDeleteAndRemoveMember: quarry room remove-member takes a member
// out, room delete deletes the room with its files, and a member who is
// not an owner is refused.
func TestRoomDeleteAndRemoveMember(t *testing.T) {
	dir, _ := roomWithDocument(t)
	for _, name := range []string{"ed", "vic"} {
		if _, stderr, code := runCLI(t, "room", "add-member", "deals", name, "--role", "editor", "--data-dir", dir); code != 0 {
			t.Fatalf("add-member %s: %d %s", name, code, stderr)
		}
	}
	if stdout, stderr, code := runCLI(t, "room", "remove-member", "deals", "vic", "--data-dir", dir); code != 0 || !strings.Contains(stdout, "vic is no longer a member of deals") {
		t.Fatalf("remove-member: %d %s %s", code, stdout, stderr)
	}
	stdout, _, _ := runCLI(t, "room", "members", "deals", "--data-dir", dir)
	if strings.Contains(stdout, "vic") || !strings.Contains(stdout, "ed") {
		t.Errorf("the members after removing vic:\n%s", stdout)
	}
	if _, stderr, code := runCLI(t, "room", "remove-member", "deals", "owner", "--data-dir", dir); code == 0 || !strings.Contains(stderr, "CONFLICT") {
		t.Errorf("the last owner leaves: exit %d, %s; want CONFLICT", code, stderr)
	}
	if _, stderr, code := runCLI(t, "room", "delete", "deals", "--as", "ed", "--data-dir", dir); code == 0 || !strings.Contains(stderr, "FORBIDDEN") {
		t.Errorf("an editor deletes the room: exit %d, %s; want FORBIDDEN", code, stderr)
	}
	deals := listedRoom(t, dir, "deals")
	stdout, stderr, code := runCLI(t, "room", "delete", "deals", "--data-dir", dir)
	if code != 0 || !strings.Contains(stdout, "deleted room deals") || !strings.Contains(stdout, "1 document(s)") {
		t.Fatalf("room delete: %d %s %s", code, stdout, stderr)
	}
	if r := listedRoom(t, dir, "deals"); r != nil {
		t.Errorf("room list after the deletion still has deals: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "rooms", deals.ID)); !os.IsNotExist(err) {
		t.Errorf("the deleted room's folder: %v; want it removed", err)
	}
	if _, stderr, code := runCLI(t, "ask", "--room", "deals", "--data-dir", dir, "When may a party terminate?"); code == 0 || !strings.Contains(stderr, "NOT_FOUND") {
		t.Errorf("asking the deleted room: exit %d, %s; want NOT_FOUND", code, stderr)
	}
}

// TestUserDelete: quarry user delete removes a user; the last owner of
// a room others are in and the local owner are refused.
func TestUserDelete(t *testing.T) {
	dir, _ := roomWithDocument(t)
	if _, stderr, code := runCLI(t, "user", "add", "alice", "--data-dir", dir); code != 0 {
		t.Fatalf("user add: %d %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "room", "add-member", "deals", "alice", "--data-dir", dir); code != 0 {
		t.Fatalf("add-member: %d %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "user", "delete", "owner", "--data-dir", dir); code == 0 || !strings.Contains(stderr, "FORBIDDEN") {
		t.Errorf("deleting the local owner: exit %d, %s; want FORBIDDEN", code, stderr)
	}
	stdout, stderr, code := runCLI(t, "user", "delete", "alice", "--data-dir", dir)
	if code != 0 || !strings.Contains(stdout, "deleted user alice") {
		t.Fatalf("user delete: %d %s %s", code, stdout, stderr)
	}
	stdout, _, _ = runCLI(t, "user", "list", "--data-dir", dir)
	if strings.Contains(stdout, "alice") {
		t.Errorf("user list after the deletion:\n%s", stdout)
	}
	if _, stderr, code := runCLI(t, "user", "delete", "alice", "--data-dir", dir); code == 0 || !strings.Contains(stderr, "NOT_FOUND") {
		t.Errorf("deleting alice again: exit %d, %s; want NOT_FOUND", code, stderr)
	}
}

// TestRoomAccess: quarry room access lists, for the room's owner, who
// did what in it; an editor is refused.
func TestRoomAccess(t *testing.T) {
	dir, _ := roomWithDocument(t)
	if _, stderr, code := runCLI(t, "room", "add-member", "deals", "ed", "--role", "editor", "--data-dir", dir); code != 0 {
		t.Fatalf("add-member: %d %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "ask", "--room", "deals", "--as", "ed", "--data-dir", dir, "When may a party terminate?"); code != 0 {
		t.Fatalf("ask: %d %s", code, stderr)
	}
	stdout, stderr, code := runCLI(t, "room", "access", "deals", "--data-dir", dir)
	if code != 0 {
		t.Fatalf("room access: %d %s", code, stderr)
	}
	for _, want := range []string{"owner  create_room", "owner  upload", "terms.md", "ed     ask", "When may a party terminate?"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("room access lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _, _ = runCLI(t, "room", "access", "deals", "--json", "--data-dir", dir)
	var log []room.Access
	if err := json.Unmarshal([]byte(stdout), &log); err != nil || len(log) < 4 {
		t.Fatalf("room access --json = %v, %s", err, stdout)
	}
	if _, stderr, code := runCLI(t, "room", "access", "deals", "--as", "ed", "--data-dir", dir); code == 0 || !strings.Contains(stderr, "FORBIDDEN") {
		t.Errorf("an editor reads the access log: exit %d, %s; want FORBIDDEN", code, stderr)
	}
}
