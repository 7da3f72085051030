package duckdb

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// mustOpen opens an engine that the test closes when it ends.
func mustOpen(tb testing.TB) *Engine {
	tb.Helper()
	e, err := Open(Options{})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { e.Close() })
	return e
}

// writeFile writes content to name in a fresh temp dir and returns the path.
func writeFile(tb testing.TB, name, content string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// mustLoad loads content as table name.
func mustLoad(tb testing.TB, e *Engine, name, content string) {
	tb.Helper()
	if _, _, err := e.LoadCSV(context.Background(), name, writeFile(tb, name+".csv", content)); err != nil {
		tb.Fatalf("LoadCSV(%s): %v", name, err)
	}
}
