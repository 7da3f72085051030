// Package retrieve cuts documents into passages, ranks them for a question
// and names where each passage came from. The index itself is a contract:
// sqlite.DB implements it with FTS5 and BM25.
package retrieve

import "context"

// Chunk is one retrievable passage. Scope keeps tenants apart: every
// search is within one scope (a session ID, a data room ID).
type Chunk struct {
	Scope string `json:"scope"`
	// Ref names the artifact the passage came from, relative to its scope,
	// with an optional #anchor ("analysis/iterations/iter_003.json").
	Ref   string `json:"ref"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Hit is a chunk found by a search, best first. Score is larger for better
// matches.
type Hit struct {
	Chunk
	Score float64 `json:"score"`
}

// Index stores chunks and searches them lexically.
type Index interface {
	// Put replaces every chunk of scope with chunks, atomically.
	Put(ctx context.Context, scope string, chunks []Chunk) error
	// Search returns at most k chunks of scope that match query, best
	// first. Any text is a valid query; a query with no searchable words
	// returns no hits and no error.
	Search(ctx context.Context, scope, query string, k int) ([]Hit, error)
	// Delete removes every chunk of scope.
	Delete(ctx context.Context, scope string) error
}
