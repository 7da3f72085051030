package sqlite

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"strings"
)

// Each room has its own FTS5 index, so that a search reads only the
// room's postings and BM25 weighs words by how rare they are in that
// room. The indexes keep no copy of the text (content=''): chunk_search
// maps an index row to its chunk, and the chunk's text is read from
// document_chunks for the rows a search returns.

// roomIndex is the name of a room's FTS5 table, made from a hash of its id
// so that any id gives a valid name.
func roomIndex(roomID string) string {
	h := sha256.Sum256([]byte(roomID))
	return "room_fts_" + hex.EncodeToString(h[:12])
}

// createRoomIndex makes a room's index unless it exists.
func createRoomIndex(ctx context.Context, tx execer, roomID string) error {
	_, err := tx.ExecContext(ctx, `CREATE VIRTUAL TABLE IF NOT EXISTS `+roomIndex(roomID)+` USING fts5(
		document, body, content = '', contentless_delete = 1, tokenize = 'porter unicode61')`)
	return err
}

// unindexDocument removes a document's chunks from its room's index.
func unindexDocument(ctx context.Context, tx execer, roomID, documentID string) error {
	_, err := tx.ExecContext(ctx, "DELETE FROM "+roomIndex(roomID)+" WHERE rowid IN (SELECT rowid FROM chunk_search WHERE document_id = ?)", documentID)
	return err
}

// searchBody is what a chunk is found by: its context, then its text.
func searchBody(context, text string) string {
	if context == "" {
		return text
	}
	return context + "\n" + text
}

// isMissingTable reports a search of a room that has no index: a room id
// that does not exist.
func isMissingTable(err error) bool {
	return err != nil && strings.Contains(err.Error(), "no such table")
}

// moveSearchIndexes rebuilds the search index of a store made before
// rooms had indexes of their own (one chunks_fts for all rooms, holding
// each chunk's text again) as one index per room, once.
func moveSearchIndexes(db *sql.DB) error {
	var n int
	if err := db.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = 'chunks_fts'").Scan(&n); err != nil || n == 0 {
		return err
	}
	return migrate(db, "SELECT id, '' FROM data_rooms", indexRooms)
}

// indexRooms fills each room's index from its chunks and drops the old
// shared one.
func indexRooms(ctx context.Context, tx *sql.Tx, rooms [][2]string) error {
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO chunk_search (chunk_id, document_id)
		SELECT id, document_id FROM document_chunks ORDER BY document_id, chunk_index`); err != nil {
		return err
	}
	for _, r := range rooms {
		id := r[0]
		if err := createRoomIndex(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+roomIndex(id)+` (rowid, document, body)
			SELECT m.rowid, c.document_id, CASE WHEN c.context = '' THEN c.text_content ELSE c.context || char(10) || c.text_content END
			FROM chunk_search m JOIN document_chunks c ON c.id = m.chunk_id JOIN documents d ON d.id = c.document_id
			WHERE d.data_room_id = ?`, id); err != nil {
			return fmt.Errorf("rebuild the search index of room %s: %w", id, err)
		}
	}
	_, err := tx.ExecContext(ctx, "DROP TABLE chunks_fts")
	return err
}

// migrate runs a one-time change of a store in one transaction: fn gets
// the rows of list, two text columns each.
func migrate(db *sql.DB, list string, fn func(ctx context.Context, tx *sql.Tx, rows [][2]string) error) error {
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, list)
	if err != nil {
		return err
	}
	var got [][2]string
	for rows.Next() {
		var r [2]string
		if err := rows.Scan(&r[0], &r[1]); err != nil {
			rows.Close()
			return err
		}
		got = append(got, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if err := fn(ctx, tx, got); err != nil {
		return err
	}
	return tx.Commit()
}
