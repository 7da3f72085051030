package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/research/researchtest"
	"github.com/quarry-dev/quarry/sqlite"
)

func TestResearchConformance(t *testing.T) {
	for name, path := range map[string]func(t *testing.T) string{
		"file":   func(t *testing.T) string { return filepath.Join(t.TempDir(), "db", "research.db") },
		"memory": func(*testing.T) string { return ":memory:" },
	} {
		t.Run(name, func(t *testing.T) {
			researchtest.Run(t, func(t *testing.T) research.Store {
				st, err := sqlite.OpenResearch(path(t))
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { st.Close() })
				return st
			})
		})
	}
}

// TestResearchOldTimes opens a research.db whose requests' created_at an
// older Quarry wrote in RFC3339Nano (trailing zeros dropped, so text
// order is not time order): they are rewritten once, and List orders
// them, and the requests saved since, by time.
func TestResearchOldTimes(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "db", "research.db")
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	save := func(st *sqlite.Research, id string, offset time.Duration) {
		t.Helper()
		q := *researchtest.Sample().Request
		q.ID, q.CreatedAt, q.Status, q.Error, q.CompletionTimeSeconds = id, at.Add(offset), research.StatusFailed, "stopped", nil
		if err := st.Save(ctx, &research.Result{Request: &q}); err != nil {
			t.Fatalf("Save(%s) = %v", id, err)
		}
	}
	st, err := sqlite.OpenResearch(path)
	if err != nil {
		t.Fatal(err)
	}
	save(st, "req-whole", 0)
	save(st, "req-tenth", 100*time.Millisecond)
	save(st, "req-more", 150*time.Millisecond)
	st.Close()

	// What an older Quarry wrote.
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query("SELECT id, created_at FROM research_requests")
	if err != nil {
		t.Fatal(err)
	}
	old := map[string]string{}
	for rows.Next() {
		var id, created string
		if err := rows.Scan(&id, &created); err != nil {
			t.Fatal(err)
		}
		c, _ := time.Parse(time.RFC3339Nano, created)
		old[id] = c.Format(time.RFC3339Nano)
	}
	rows.Close()
	for id, created := range old {
		if _, err := db.Exec("UPDATE research_requests SET created_at = ? WHERE id = ?", created, id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec("PRAGMA user_version = 0"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if old["req-whole"] != "2026-03-01T12:00:00Z" {
		t.Fatalf("old created_at %q; want the whole second without fractional digits", old["req-whole"])
	}

	st, err = sqlite.OpenResearch(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	save(st, "req-half", 500*time.Millisecond)
	save(st, "req-twentieth", 50*time.Millisecond)
	list, err := st.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, q := range list {
		ids = append(ids, q.ID)
	}
	if got, want := strings.Join(ids, " "), "req-half req-more req-tenth req-twentieth req-whole"; got != want {
		t.Errorf("List = %s; want %s, newest first", got, want)
	}
	if got, err := st.Get(ctx, "req-more"); err != nil || !got.Request.CreatedAt.Equal(at.Add(150*time.Millisecond)) {
		t.Errorf("Get(req-more) = %v, %v; want created at 12:00:00.15", got, err)
	}
}
