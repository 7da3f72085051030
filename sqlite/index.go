package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/retrieve"
)

var _ retrieve.Index = (*DB)(nil)

// titleWeight is how much more a term in a chunk's title counts than the
// same term in its text when ranking with bm25().
const titleWeight = 3.0

// searchSQL ranks the chunks of one scope that match an FTS5 expression
// (see searchExpr). bm25() takes one weight per column (scope, ref, title,
// text) and returns smaller numbers for better matches; rowid breaks ties
// in insertion order.
var searchSQL = fmt.Sprintf(`
SELECT ref, title, text, bm25(chunks, 0, 0, %g, 1) AS score
FROM chunks
WHERE chunks MATCH ? AND scope = ?
ORDER BY score, rowid
LIMIT ?`, titleWeight)

// Put replaces every chunk of scope with chunks in one transaction: a
// search sees either the old chunks or the new ones. A chunk's Scope must be
// empty or scope. Errors: INVALID for an empty scope or a chunk of another
// scope.
func (db *DB) Put(ctx context.Context, scope string, chunks []retrieve.Chunk) error {
	if scope == "" {
		return quarry.Errorf(quarry.ECodeInvalid, "the index scope is empty")
	}
	for _, c := range chunks {
		if c.Scope != "" && c.Scope != scope {
			return quarry.Errorf(quarry.ECodeInvalid, "chunk %q belongs to scope %q, not %q", c.Ref, c.Scope, scope)
		}
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("put %s: %w", scope, err)
	}
	defer tx.Rollback()
	if err := deleteScope(ctx, tx, scope); err != nil {
		return fmt.Errorf("put %s: %w", scope, err)
	}
	insert, err := tx.PrepareContext(ctx, "INSERT INTO chunks (scope, ref, title, text) VALUES (?, ?, ?, ?)")
	if err != nil {
		return fmt.Errorf("put %s: %w", scope, err)
	}
	defer insert.Close()
	for _, c := range chunks {
		if _, err := insert.ExecContext(ctx, scope, c.Ref, c.Title, c.Text); err != nil {
			return fmt.Errorf("put %s: %w", scope, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("put %s: %w", scope, err)
	}
	return nil
}

// Search returns at most k chunks of scope that share a term with query,
// best first, with Score = -bm25 so that larger is better. The query is
// cut into terms by retrieve.Terms and widened by retrieve.Expand; any text
// is a valid query, and one without searchable words, or k < 1, returns no
// hits.
func (db *DB) Search(ctx context.Context, scope, query string, k int) ([]retrieve.Hit, error) {
	expr := searchExpr(scope, query)
	if expr == "" || k < 1 {
		return nil, nil
	}
	rows, err := db.read.QueryContext(ctx, searchSQL, expr, scope, k)
	if err != nil {
		return nil, fmt.Errorf("search %s: %w", scope, err)
	}
	defer rows.Close()
	var hits []retrieve.Hit
	for rows.Next() {
		h := retrieve.Hit{Chunk: retrieve.Chunk{Scope: scope}}
		var bm25 float64
		if err := rows.Scan(&h.Ref, &h.Title, &h.Text, &bm25); err != nil {
			return nil, fmt.Errorf("search %s: %w", scope, err)
		}
		h.Score = -bm25
		hits = append(hits, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search %s: %w", scope, err)
	}
	return hits, nil
}

// Delete removes every chunk of scope. Deleting a scope that has none is
// not an error.
func (db *DB) Delete(ctx context.Context, scope string) error {
	if err := deleteScope(ctx, db.write, scope); err != nil {
		return fmt.Errorf("delete %s: %w", scope, err)
	}
	return nil
}

// execer is a *sql.DB or a *sql.Tx.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// deleteScope deletes the chunks of scope, finding them through the index
// when it can rather than reading every row.
func deleteScope(ctx context.Context, db execer, scope string) error {
	if s := scopeExpr(scope); s != "" {
		_, err := db.ExecContext(ctx, "DELETE FROM chunks WHERE rowid IN (SELECT rowid FROM chunks WHERE chunks MATCH ? AND scope = ?)", s, scope)
		return err
	}
	_, err := db.ExecContext(ctx, "DELETE FROM chunks WHERE scope = ?", scope)
	return err
}
