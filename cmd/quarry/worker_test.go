package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/internal/pgtest"
)

// TestRoomsCLIOnPostgres drives quarry room, ingest and ask with --db
// while a quarry worker drains the queue, all against one PostgreSQL.
func TestRoomsCLIOnPostgres(t *testing.T) {
	dsn, _ := pgtest.AppDatabase(t)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var wout, werr strings.Builder
	go func() {
		done <- run(ctx, []string{"worker", "--db", dsn, "--data-dir", dir}, func(string) string { return "" }, strings.NewReader(""), &wout, &werr)
	}()
	defer func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("quarry worker: %v\n%s", err, werr.String())
			}
		case <-time.After(30 * time.Second):
			t.Error("quarry worker did not stop")
		}
	}()

	if _, stderr, code := runCLI(t, "room", "create", "deals", "--db", dsn, "--data-dir", dir); code != 0 {
		t.Fatalf("quarry room create exited %d\n%s", code, stderr)
	}
	doc := filepath.Join(t.TempDir(), "lease.md")
	if err := os.WriteFile(doc, []byte("# Lease\n\nThe tenant may terminate the lease for convenience with ninety days' written notice to the landlord.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if stdout, stderr, code := runCLI(t, "ingest", "--room", "deals", "--db", dsn, "--data-dir", dir, doc); code != 0 || !strings.Contains(stdout, "lease.md: 1 pages, 1 chunks") {
		t.Fatalf("quarry ingest exited %d\n%s\n%s", code, stdout, stderr)
	}
	stdout, stderr, code := runCLI(t, "ask", "--room", "deals", "--db", dsn, "--data-dir", dir, "--json", "Can the tenant terminate for convenience?")
	if code != 0 {
		t.Fatalf("quarry ask exited %d\n%s", code, stderr)
	}
	var a askOutput
	if err := json.Unmarshal([]byte(stdout), &a); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if a.AnswerType != "grounded" || len(a.Citations) == 0 || a.Citations[0].DocumentName != "lease.md" {
		t.Errorf("quarry ask = %+v; want grounded, citing lease.md", a)
	}
	// Without the database, the same data dir has no such room.
	if _, _, code := runCLI(t, "ask", "--room", "deals", "--data-dir", dir, "Can the tenant terminate?"); code != 1 {
		t.Errorf("quarry ask without --db exited %d; want 1 (the room lives in PostgreSQL)", code)
	}
}
