package audit_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
)

// TestSharedOpensAtFirstAppend: a Shared log makes no file until its
// first append, then creates its folder; two of them on one path (a
// server and a command-line run) chain onto each other's entries; a log
// broken meanwhile fails the append that would open it, and a closed one
// takes no more.
func TestSharedOpensAtFirstAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logs", "rooms.jsonl")
	a := audit.NewShared(path, nil)
	defer a.Close()
	if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
		t.Fatalf("NewShared made %s before any append: %v", filepath.Dir(path), err)
	}
	b := audit.NewShared(path, nil)
	for i, l := range []*audit.Shared{a, b, a, b} {
		e, err := l.AppendFor("q1", quarry.EventToolCalled, "user", map[string]any{"n": i})
		if err != nil {
			t.Fatal(err)
		}
		if e.SequenceNumber != i+1 {
			t.Errorf("append %d has sequence number %d", i+1, e.SequenceNumber)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.AppendFor("q1", quarry.EventToolCalled, "user", nil); err == nil {
		t.Error("a closed Shared log took an append")
	}
	if rep, err := audit.Check(path); err != nil || !rep.OK() || rep.Entries != 4 {
		t.Fatalf("Check = %+v, %v; want 4 intact entries", rep, err)
	}

	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte(strings.Replace(string(raw), `"n":1`, `"n":9`, 1)), 0o644)
	c := audit.NewShared(path, nil)
	defer c.Close()
	for range 2 {
		if _, err := c.AppendFor("q2", quarry.EventToolCalled, "user", nil); quarry.ErrorCode(err) != quarry.ECodeConflict || !strings.Contains(err.Error(), "entry 2") {
			t.Errorf("append to a log broken at entry 2: %v; want CONFLICT naming entry 2, at each try", err)
		}
	}
}
