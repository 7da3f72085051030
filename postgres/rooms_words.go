package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"unicode"

	"github.com/jackc/pgx/v5"

	"github.com/quarry-dev/quarry/retrieve"
	"github.com/quarry-dev/quarry/room"
)

// A room's word counts (room_words: how many of its chunks hold each
// word, as retrieve.CountWords counts their context and text) are kept by
// every write of chunks, in the writing transaction, so that a search can
// leave out the room's commonest words (room.ChunkQuery's MaxTerms). A
// search reads only the families of its own terms' words: exact counts
// under any number of processes, with no copy to go stale.

// chunkBodies are the searched bodies (context and text) of a document's
// chunks.
func chunkBodies(ctx context.Context, tx pgx.Tx, documentID string) ([]string, error) {
	rows, err := tx.Query(ctx, "SELECT context || ' ' || text_content FROM document_chunks WHERE document_id = $1", documentID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// countWords adds delta, a count of chunks by word, to a room's counts
// and removes the words no chunk holds any more. Words are written in
// order, so that two transactions counting into one room take their
// rows' locks in the same order and never deadlock.
func countWords(ctx context.Context, tx pgx.Tx, roomID string, delta map[string]int32) error {
	words := make([]string, 0, len(delta))
	for w, n := range delta {
		if n != 0 {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return nil
	}
	slices.Sort(words)
	counts := make([]int32, len(words))
	for i, w := range words {
		counts[i] = delta[w]
	}
	if _, err := tx.Exec(ctx, `INSERT INTO room_words (data_room_id, word, chunks)
		SELECT $1, w, n FROM unnest($2::text[], $3::int[]) AS d(w, n) ORDER BY w
		ON CONFLICT (data_room_id, word) DO UPDATE SET chunks = room_words.chunks + excluded.chunks`, roomID, words, counts); err != nil {
		return fmt.Errorf("count the words of room %s: %w", roomID, err)
	}
	_, err := tx.Exec(ctx, "DELETE FROM room_words WHERE data_room_id = $1 AND word = ANY ($2) AND chunks <= 0", roomID, words)
	return err
}

// recount changes a room's counts from the chunks' bodies before to
// those after.
func recount(ctx context.Context, tx pgx.Tx, roomID string, before, after []string) error {
	delta := retrieve.CountWords(after)
	for w, n := range retrieve.CountWords(before) {
		delta[w] -= n
	}
	return countWords(ctx, tx, roomID, delta)
}

// searchTerms splits terms as a search of a room with limit and postings
// (room.ChunkQuery's MaxTerms and MaxPostings) needs them: the rarest in
// the room (retrieve.WordCounts.Rarest), which its index is read for,
// and the commonest of the limit rarest, which score what they find.
// counts is nil when every term is searched; otherwise it holds the
// counts of the terms' families and the room's chunks. It reads the
// counts of the terms' families only: "C" ordering makes a family one
// range of the primary key, from its prefix to the prefix and the last
// character there is. The bounds are given, not computed in the
// statement: under row-level security only leakproof conditions (text
// comparisons, not concatenation) may use an index.
func searchTerms(ctx context.Context, tx pgx.Tx, roomID string, terms []string, limit, postings int) (searched, scored []string, counts *retrieve.WordCounts, err error) {
	if (limit <= 0 || len(terms) <= limit) && postings <= 0 {
		return terms, nil, nil, nil
	}
	if counts, err = familyCounts(ctx, tx, roomID, terms); err != nil {
		return nil, nil, nil, err
	}
	if searched, scored = counts.Split(terms, limit, postings); len(scored) == 0 {
		return searched, nil, nil, nil
	}
	if counts.Passages, err = roomPassages(ctx, tx, roomID); err != nil {
		return nil, nil, nil, err
	}
	return searched, scored, counts, nil
}

// familyCounts reads the counts of the terms' word families in a room.
func familyCounts(ctx context.Context, tx pgx.Tx, roomID string, terms []string) (*retrieve.WordCounts, error) {
	from := retrieve.FamilyPrefixes(terms)
	to := make([]string, len(from))
	for i, p := range from {
		to[i] = p + string(unicode.MaxRune)
	}
	rows, err := tx.Query(ctx, `SELECT w.word, w.chunks FROM unnest($2::text[], $3::text[]) AS p(lo, hi)
		JOIN room_words w ON w.data_room_id = $1 AND w.word >= p.lo AND w.word < p.hi`, roomID, from, to)
	if err != nil {
		return nil, fmt.Errorf("read the words of room %s: %w", roomID, err)
	}
	byWord := map[string]int32{}
	var w string
	var n int32
	if _, err := pgx.ForEachRow(rows, []any{&w, &n}, func() error {
		byWord[w] = n
		return nil
	}); err != nil {
		return nil, err
	}
	return retrieve.NewWordCounts(byWord), nil
}

// roomPassages counts a room's chunks.
func roomPassages(ctx context.Context, tx pgx.Tx, roomID string) (int, error) {
	var n int
	if err := tx.QueryRow(ctx, `SELECT coalesce(sum(chunk_count), 0) FROM documents WHERE data_room_id = $1`, roomID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count the chunks of room %s: %w", roomID, err)
	}
	return n, nil
}

// TermChunks implements room.Search.
func (s *Rooms) TermChunks(ctx context.Context, roomID string, terms []string) (map[string]int, int, error) {
	out := make(map[string]int, len(terms))
	if !isID(roomID) {
		return out, 0, nil
	}
	var passages int
	err := s.tx(ctx, func(tx pgx.Tx) error {
		counts, err := familyCounts(ctx, tx, roomID, terms)
		if err != nil {
			return err
		}
		for _, t := range terms {
			out[t] = int(counts.Family(t))
		}
		passages, err = roomPassages(ctx, tx, roomID)
		return err
	})
	return out, passages, err
}

// rankBM25 scores hits by BM25 for terms (retrieve.WordCounts.BM25) in
// place of ts_rank, which scores only the terms searched and on a scale
// of its own, and sorts them again.
func rankBM25(hits []room.ChunkHit, terms []string, counts *retrieve.WordCounts) {
	bodies := make([]string, len(hits))
	for i, h := range hits {
		bodies[i] = h.Context + " " + h.Text
	}
	for i, score := range counts.ScoreBM25(terms, bodies) {
		hits[i].Score = score
	}
	slices.SortStableFunc(hits, func(a, b room.ChunkHit) int { return cmp.Compare(b.Score, a.Score) })
}

// countStoreWords fills room_words of a store whose rooms have chunks
// but no counts (made before they were kept), in the schema's
// transaction acting as the system, a document at a time.
func countStoreWords(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, `SELECT d.data_room_id, d.id FROM documents d
		WHERE EXISTS (SELECT 1 FROM document_chunks c WHERE c.document_id = d.id)
			AND NOT EXISTS (SELECT 1 FROM room_words w WHERE w.data_room_id = d.data_room_id)
		ORDER BY d.data_room_id`)
	if err != nil {
		return err
	}
	type roomDoc struct{ Room, ID string }
	docs, err := pgx.CollectRows(rows, pgx.RowToStructByPos[roomDoc])
	if err != nil {
		return err
	}
	counts := map[string]int32{}
	for i, d := range docs {
		bodies, err := chunkBodies(ctx, tx, d.ID)
		if err != nil {
			return err
		}
		for w, n := range retrieve.CountWords(bodies) {
			counts[w] += n
		}
		if i == len(docs)-1 || docs[i+1].Room != d.Room {
			if err := countWords(ctx, tx, d.Room, counts); err != nil {
				return err
			}
			clear(counts)
		}
	}
	return nil
}
