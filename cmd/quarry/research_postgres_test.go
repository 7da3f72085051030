package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/quarry-dev/quarry/internal/pgtest"
	"github.com/quarry-dev/quarry/postgres"
	"github.com/quarry-dev/quarry/research"
)

// TestResearchOnPostgres: with --db, quarry research keeps its result in
// PostgreSQL, where quarry serve --db lists it, and writes no
// db/research.db in the data dir. Without PostgreSQL it skips, and under
// CI=true it fails.
func TestResearchOnPostgres(t *testing.T) {
	dsn := pgtest.AppRole(t, pgtest.Start(t))
	dir := t.TempDir()
	stdout, stderr, code := runCLI(t, "research", "--data-dir", dir, "--db", dsn, "--corpus", kestrelCorpus, "--depth", "quick",
		"How many employees did Kestrel Dynamics have at the end of 2024?", "--json")
	if code != 0 {
		t.Fatalf("research --db exited %d\n%s", code, stderr)
	}
	var out research.View
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "db", "research.db")); !os.IsNotExist(err) {
		t.Errorf("db/research.db in the data dir: %v; want the research in PostgreSQL alone", err)
	}
	ctx := context.Background()
	st, err := postgres.OpenResearch(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, err := st.Get(ctx, out.ID)
	if err != nil {
		t.Fatalf("Get(%s) from PostgreSQL = %v", out.ID, err)
	}
	if got.Request.Status != research.StatusCompleted || len(got.Facts) != len(out.Facts) || got.Report == nil ||
		got.Report.ExecutiveSummary != out.Report.ExecutiveSummary {
		t.Errorf("saved research: %s, %d facts; want what was printed: %s, %d facts", got.Request.Status, len(got.Facts), out.Status, len(out.Facts))
	}
	if list, err := st.List(ctx, ""); err != nil || len(list) != 1 || list[0].ID != out.ID {
		t.Errorf("List = %+v, %v; want the one research", list, err)
	}
}
