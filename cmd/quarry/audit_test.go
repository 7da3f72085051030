package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
)

// editEntry changes line n (from 1) of the log at path with edit, keeping
// it valid JSON, and returns a function that puts the log back.
func editEntry(t *testing.T, path string, n int, edit func(e *quarry.AuditEntry)) (restore func()) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	var e quarry.AuditEntry
	if err := json.Unmarshal([]byte(lines[n-1]), &e); err != nil {
		t.Fatal(err)
	}
	edit(&e)
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	lines[n-1] = string(b) + "\n"
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return func() { os.WriteFile(path, raw, 0o644) }
}

// entryWhere returns the line number of the first entry of the log at
// path that match accepts.
func entryWhere(t *testing.T, path string, match func(e quarry.AuditEntry) bool) int {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var e quarry.AuditEntry
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatal(err)
		}
		if match(e) {
			return i + 1
		}
	}
	t.Fatalf("no entry of %s matches", path)
	return 0
}

// TestAuditVerifyAll: a room question leaves the data rooms' log beside
// research's and an investigation's; quarry audit verify without PATH
// checks them all, and an entry edited in the rooms' or research's log
// fails it, naming the log and the entry.
func TestAuditVerifyAll(t *testing.T) {
	dir := t.TempDir()
	const question = "What was Northwind's revenue in 2023?"
	if _, stderr, code := runCLI(t, "ask", "--room", "sample", "--data-dir", dir, question); code != 0 {
		t.Fatalf("quarry ask exited %d\n%s", code, stderr)
	}
	roomsLog := filepath.Join(dir, "logs", "rooms.jsonl")

	// Research writes its shared log as the rooms do.
	researchLog := filepath.Join(dir, "logs", "research.jsonl")
	rl, err := audit.OpenShared(researchLog, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []string{"plan", "search", "briefing"} {
		if _, err := rl.AppendFor("res-1", quarry.EventToolCalled, "owner", map[string]any{"tool": step, "research_id": "res-1"}); err != nil {
			t.Fatal(err)
		}
	}
	rl.Close()
	sessionLog := filepath.Join(dir, "sessions", "s1", "audit.jsonl")
	os.MkdirAll(filepath.Dir(sessionLog), 0o755)
	sl, err := audit.Open(sessionLog, "s1", nil)
	if err != nil {
		t.Fatal(err)
	}
	sl.Append(quarry.EventToolCalled, "actor", map[string]any{"sql": "SELECT 1"})
	sl.Close()

	out, stderr, code := runCLI(t, "audit", "verify", "--data-dir", dir)
	for _, want := range []string{"ok      logs/research.jsonl  3 entries", "ok      logs/rooms.jsonl  ", "ok      sessions/s1/audit.jsonl  1 entry", "verified 3 audit logs"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("intact: exit %d, output lacks %q\n%s%s", code, want, out, stderr)
		}
	}
	// The data dir from the environment, with --all said.
	if out, _, code := runCLIEnv(t, map[string]string{"QUARRY_DATA_DIR": dir}, "audit", "verify", "--all"); code != 0 || !strings.Contains(out, "verified 3 audit logs") {
		t.Errorf("--all with QUARRY_DATA_DIR: exit %d\n%s", code, out)
	}
	// One log, in detail, as before.
	if out, _, code := runCLI(t, "audit", "verify", roomsLog); code != 0 || !strings.Contains(out, "verified: nothing recorded was changed") {
		t.Errorf("verify %s: exit %d\n%s", roomsLog, code, out)
	}

	// The question searched is changed in the rooms' log.
	n := entryWhere(t, roomsLog, func(e quarry.AuditEntry) bool { return e.EventData["tool"] == "retrieve" })
	restore := editEntry(t, roomsLog, n, func(e *quarry.AuditEntry) { e.EventData["query"] = "What was the revenue in 2023?" })
	out, stderr, code = runCLI(t, "audit", "verify", "--data-dir", dir)
	broken := "logs/rooms.jsonl: entry " + strconv.Itoa(n) + " is broken"
	if code != 1 || !strings.Contains(stderr, "error CONFLICT") || !strings.Contains(stderr, broken) || !strings.Contains(stderr, "1 of 3 audit logs") {
		t.Errorf("rooms entry %d edited: exit %d, stderr lacks %q\n%s", n, code, broken, stderr)
	}
	if !strings.Contains(out, "FAILED  logs/rooms.jsonl  entry "+strconv.Itoa(n)+" is broken") || !strings.Contains(out, "ok      logs/research.jsonl") {
		t.Errorf("rooms entry %d edited: output\n%s", n, out)
	}
	restore()

	// Research's second entry names another tool.
	editEntry(t, researchLog, 2, func(e *quarry.AuditEntry) { e.EventData["tool"] = "web_search" })
	out, stderr, code = runCLI(t, "audit", "verify", "--data-dir", dir)
	if code != 1 || !strings.Contains(stderr, "logs/research.jsonl: entry 2 is broken") || !strings.Contains(out, "ok      logs/rooms.jsonl") {
		t.Errorf("research entry 2 edited: exit %d\n%s%s", code, out, stderr)
	}
}

func TestAuditVerifyUsage(t *testing.T) {
	dir := t.TempDir()
	if _, _, code := runCLI(t, "audit", "verify", "--all", filepath.Join(dir, "a.jsonl")); code != 2 {
		t.Errorf("verify --all PATH: exit %d; want 2", code)
	}
	if _, stderr, code := runCLI(t, "audit", "verify", "--data-dir", filepath.Join(dir, "none")); code != 1 || !strings.Contains(stderr, "error NOT_FOUND") {
		t.Errorf("verify a data dir that does not exist: exit %d\n%s", code, stderr)
	}
	if out, _, code := runCLI(t, "audit", "verify", "--data-dir", dir); code != 0 || !strings.Contains(out, "no audit logs") {
		t.Errorf("verify an empty data dir: exit %d\n%s", code, out)
	}
}
