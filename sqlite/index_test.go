package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/retrieve"
	"github.com/quarry-dev/quarry/retrieve/retrievetest"
)

func TestIndexMemory(t *testing.T) {
	retrievetest.Run(t, func(t *testing.T) retrieve.Index { return MustOpenDB(t, ":memory:") })
}

func TestIndexFile(t *testing.T) {
	retrievetest.Run(t, func(t *testing.T) retrieve.Index {
		return MustOpenDB(t, filepath.Join(t.TempDir(), "quarry.db"))
	})
}

func TestPutErrorCodes(t *testing.T) {
	db := MustOpenDB(t, ":memory:")
	tests := []struct {
		scope  string
		chunks []retrieve.Chunk
	}{
		{"", nil},
		{"a", []retrieve.Chunk{{Scope: "b", Ref: "x"}}},
	}
	for _, tt := range tests {
		if err := db.Put(context.Background(), tt.scope, tt.chunks); quarry.ErrorCode(err) != quarry.ECodeInvalid {
			t.Errorf("Put(%q, %v) = %v; want code %s", tt.scope, tt.chunks, err, quarry.ECodeInvalid)
		}
	}
}

// TestTitleWeight checks that a term in a title counts more than the same
// term in a text of the same length.
func TestTitleWeight(t *testing.T) {
	db := MustOpenDB(t, ":memory:")
	ctx := context.Background()
	chunks := []retrieve.Chunk{
		{Ref: "text", Title: "Data model", Text: "The method is described elsewhere."},
		{Ref: "title", Title: "Method", Text: "It is described here, in detail."},
	}
	if err := db.Put(ctx, "s", chunks); err != nil {
		t.Fatal(err)
	}
	hits, err := db.Search(ctx, "s", "method", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 || hits[0].Ref != "title" || !(hits[0].Score > hits[1].Score) || hits[1].Score <= 0 {
		t.Errorf("Search(method) = %+v; want title before text, both with positive scores", hits)
	}
}

func TestSearchCanceled(t *testing.T) {
	db := MustOpenDB(t, ":memory:")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := db.Search(ctx, "s", "method", 5); err == nil {
		t.Errorf("Search with a canceled context succeeded; want an error")
	}
	if err := db.Put(ctx, "s", nil); err == nil {
		t.Errorf("Put with a canceled context succeeded; want an error")
	}
}
