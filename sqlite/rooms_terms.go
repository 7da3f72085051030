package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/quarry-dev/quarry/retrieve"
	"github.com/quarry-dev/quarry/room"
)

// termStats keeps in memory, per room, how many chunks hold each word
// (room_words, kept by every write of chunks), so that a search can leave
// out the words too common to help (room.ChunkQuery's MaxTerms). A room's
// counts are read on its first search after a change by this process;
// another process writing the same file leaves them a little stale, which
// only makes the choice of words a little less exact, never a search
// wrong.
type termStats struct {
	mu    sync.Mutex
	rooms map[string]*retrieve.WordCounts
}

func (t *termStats) get(roomID string) *retrieve.WordCounts {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rooms[roomID]
}

func (t *termStats) put(roomID string, r *retrieve.WordCounts) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rooms == nil {
		t.rooms = map[string]*retrieve.WordCounts{}
	}
	t.rooms[roomID] = r
}

// drop forgets a room's counts after a write, to be read again.
func (t *termStats) drop(roomID string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.rooms, roomID)
}

// roomTerms returns a room's word counts, read from room_words on first
// use after a change.
func (s *Rooms) roomTerms(ctx context.Context, roomID string) (*retrieve.WordCounts, error) {
	if r := s.terms.get(roomID); r != nil {
		return r, nil
	}
	rows, err := s.read.QueryContext(ctx, "SELECT word, chunks FROM room_words WHERE data_room_id = ?", roomID)
	if err != nil {
		return nil, fmt.Errorf("read the words of room %s: %w", roomID, err)
	}
	defer rows.Close()
	counts := map[string]int32{}
	for rows.Next() {
		var w string
		var n int32
		if err := rows.Scan(&w, &n); err != nil {
			return nil, err
		}
		counts[w] = n
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	r := retrieve.NewWordCounts(counts)
	if err := s.read.QueryRowContext(ctx, `SELECT coalesce(sum(chunk_count), 0) FROM documents WHERE data_room_id = ?`, roomID).Scan(&r.Passages); err != nil {
		return nil, fmt.Errorf("count the chunks of room %s: %w", roomID, err)
	}
	s.terms.put(roomID, r)
	return r, nil
}

// queryer is a *sql.DB or a *sql.Tx.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// documentBodies are the searched bodies of a document's chunks.
func documentBodies(ctx context.Context, q queryer, documentID string) ([]string, error) {
	rows, err := q.QueryContext(ctx, "SELECT context, text_content FROM document_chunks WHERE document_id = ?", documentID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var context, text string
		if err := rows.Scan(&context, &text); err != nil {
			return nil, err
		}
		out = append(out, searchBody(context, text))
	}
	return out, rows.Err()
}

// countInto adds (sign 1) or takes away (sign -1) the word counts of a
// document's chunks' bodies in its room's room_words.
func countInto(ctx context.Context, tx execer, roomID string, bodies []string, sign int32) error {
	counts := retrieve.CountWords(bodies)
	words := slices.Sorted(maps.Keys(counts))
	// Many rows a statement: one statement a word spends its time
	// preparing statements.
	const rowsPerStatement = 200
	for len(words) > 0 {
		batch := words[:min(rowsPerStatement, len(words))]
		words = words[len(batch):]
		args := make([]any, 0, 3*len(batch))
		for _, w := range batch {
			args = append(args, roomID, w, sign*counts[w])
		}
		q := "INSERT INTO room_words (data_room_id, word, chunks) VALUES " + strings.TrimSuffix(strings.Repeat("(?, ?, ?), ", len(batch)), ", ") +
			" ON CONFLICT (data_room_id, word) DO UPDATE SET chunks = chunks + excluded.chunks"
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("count the words of room %s: %w", roomID, err)
		}
	}
	if sign < 0 {
		_, err := tx.ExecContext(ctx, "DELETE FROM room_words WHERE data_room_id = ? AND chunks <= 0", roomID)
		return err
	}
	return nil
}

// uncountDocument takes a document's words out of its room's counts,
// before its chunks go.
func uncountDocument(ctx context.Context, tx interface {
	execer
	queryer
}, roomID, documentID string) error {
	bodies, err := documentBodies(ctx, tx, documentID)
	if err != nil || len(bodies) == 0 {
		return err
	}
	return countInto(ctx, tx, roomID, bodies, -1)
}

// countStoreWords fills room_words for a store made before it was kept,
// once.
func countStoreWords(db *sql.DB) error {
	var words, chunks int
	if err := db.QueryRow("SELECT (SELECT count(*) FROM room_words), (SELECT count(*) FROM document_chunks)").Scan(&words, &chunks); err != nil || words > 0 || chunks == 0 {
		return err
	}
	return migrate(db, "SELECT id, data_room_id FROM documents WHERE processing_status = 'completed'", func(ctx context.Context, tx *sql.Tx, docs [][2]string) error {
		for _, d := range docs {
			bodies, err := documentBodies(ctx, tx, d[0])
			if err != nil {
				return err
			}
			if err := countInto(ctx, tx, d[1], bodies, 1); err != nil {
				return err
			}
		}
		return nil
	})
}

// searchTerms splits the terms of q (retrieve.WordCounts.Split): those
// its MaxTerms and MaxPostings let a search of the room read its index
// for, and the commonest of its MaxTerms rarest, which the index is not
// asked about but which still score what it finds. counts is nil when
// every term is searched.
func (s *Rooms) searchTerms(ctx context.Context, roomID string, q room.ChunkQuery) (searched, scored []string, counts *retrieve.WordCounts, err error) {
	terms, limit := q.Terms, q.MaxTerms
	if (limit <= 0 || len(terms) <= limit) && q.MaxPostings <= 0 {
		return terms, nil, nil, nil
	}
	r, err := s.roomTerms(ctx, roomID)
	if err != nil {
		return nil, nil, nil, err
	}
	searched, scored = r.Split(terms, limit, q.MaxPostings)
	return searched, scored, r, nil
}

// TermChunks implements room.Search.
func (s *Rooms) TermChunks(ctx context.Context, roomID string, terms []string) (map[string]int, int, error) {
	r, err := s.roomTerms(ctx, roomID)
	if err != nil {
		return nil, 0, err
	}
	out := make(map[string]int, len(terms))
	for _, t := range terms {
		out[t] = int(r.Family(t))
	}
	return out, r.Passages, nil
}
