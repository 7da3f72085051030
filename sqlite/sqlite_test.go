package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/quarry-dev/quarry/retrieve"
	"github.com/quarry-dev/quarry/sqlite"
)

// MustOpenDB opens a database at path (":memory:" for a private one) and
// closes it when the test ends.
func MustOpenDB(tb testing.TB, path string) *sqlite.DB {
	tb.Helper()
	db, err := sqlite.Open(path)
	if err != nil {
		tb.Fatalf("Open(%q) = %v", path, err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func TestOpenReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a dir?#%", "quarry.db")
	if _, err := sqlite.Open(path); err == nil {
		t.Fatalf("Open in a missing directory succeeded; want an error")
	}
	path = filepath.Join(t.TempDir(), "quarry ?#%.db") // characters a URI must escape
	db, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	chunks := []retrieve.Chunk{{Ref: "analysis/memory.md#method", Title: "Method", Text: "How the contributions were calculated."}}
	if err := db.Put(ctx, "s", chunks); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Errorf("no write-ahead log next to the database: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// Open again: the chunks are there and the migrations do not run twice.
	db = MustOpenDB(t, path)
	hits, err := db.Search(ctx, "s", "contribution", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].Chunk != (retrieve.Chunk{Scope: "s", Ref: "analysis/memory.md#method", Title: "Method", Text: "How the contributions were calculated."}) {
		t.Errorf("after reopening, Search = %+v; want the method chunk", hits)
	}
}
