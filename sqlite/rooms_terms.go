package sqlite

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/quarry-dev/quarry/retrieve"
)

// termStats keeps, per room, how many chunks hold each word, so that a
// search can leave out the words too common to help (room.ChunkQuery's
// MaxTerms). A room's counts are read on its first search and kept up to
// date by this process's writes; another process writing the same file
// leaves them a little stale, which only makes the choice of words a
// little less exact, never a search wrong.
type termStats struct {
	mu    sync.Mutex
	rooms map[string]*roomTerms
}

type roomTerms struct {
	chunks int
	df     map[string]int32
	// sorted holds df's words in order, for counting a word's family;
	// nil after an add, until the next count.
	sorted []string
}

// familyCount is how many chunks hold a word or one of its family, the
// words that start the same way (operate: operating, operations), as the
// index's stemming would match them; chunks with several of the family
// count once for each, so it is at most an overcount.
func (r *roomTerms) familyCount(w string) int32 {
	if r.sorted == nil {
		r.sorted = make([]string, 0, len(r.df))
		for k := range r.df {
			r.sorted = append(r.sorted, k)
		}
		slices.Sort(r.sorted)
	}
	p := familyPrefix(w)
	var n int32
	for i, _ := slices.BinarySearch(r.sorted, p); i < len(r.sorted) && strings.HasPrefix(r.sorted[i], p); i++ {
		n += r.df[r.sorted[i]]
	}
	return n
}

// familyPrefix is what a word's family shares: a word of up to five
// letters is its own family, a longer one loses up to three letters of
// ending but keeps five.
func familyPrefix(w string) string {
	rs := []rune(w)
	if len(rs) <= 5 {
		return w
	}
	return string(rs[:max(5, len(rs)-3)])
}

// add counts the words of chunks' bodies.
func (r *roomTerms) add(bodies []string) {
	r.sorted = nil
	for _, b := range bodies {
		seen := map[string]bool{}
		for _, w := range retrieve.Words(b) {
			if !seen[w] {
				seen[w] = true
				r.df[w]++
			}
		}
	}
	r.chunks += len(bodies)
}

func (t *termStats) get(roomID string) *roomTerms {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rooms[roomID]
}

func (t *termStats) put(roomID string, r *roomTerms) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rooms == nil {
		t.rooms = map[string]*roomTerms{}
	}
	t.rooms[roomID] = r
}

// added counts a completed document's chunks into its room's counts when
// they are loaded; replaced documents and deletions drop the room's
// counts instead, to be read again.
func (t *termStats) added(roomID string, bodies []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if r := t.rooms[roomID]; r != nil {
		r.add(bodies)
	}
}

func (t *termStats) drop(roomID string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.rooms, roomID)
}

// roomTerms returns a room's word counts, reading them on first use.
func (s *Rooms) roomTerms(ctx context.Context, roomID string) (*roomTerms, error) {
	if r := s.terms.get(roomID); r != nil {
		return r, nil
	}
	rows, err := s.read.QueryContext(ctx, `SELECT c.context, c.text_content FROM document_chunks c
		JOIN documents d ON d.id = c.document_id WHERE d.data_room_id = ?`, roomID)
	if err != nil {
		return nil, fmt.Errorf("count the words of room %s: %w", roomID, err)
	}
	defer rows.Close()
	r := &roomTerms{df: map[string]int32{}}
	var bodies []string
	for rows.Next() {
		var context, text string
		if err := rows.Scan(&context, &text); err != nil {
			return nil, err
		}
		bodies = append(bodies, searchBody(context, text))
		if len(bodies) == 512 {
			r.add(bodies)
			bodies = bodies[:0]
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	r.add(bodies)
	s.terms.put(roomID, r)
	return r, nil
}

// rarestTerms keeps the limit terms found in the fewest of a room's
// chunks, counting each with its family of words, in their given order.
func (s *Rooms) rarestTerms(ctx context.Context, roomID string, terms []string, limit int) ([]string, error) {
	if limit <= 0 || len(terms) <= limit {
		return terms, nil
	}
	r, err := s.roomTerms(ctx, roomID)
	if err != nil {
		return nil, err
	}
	type counted struct {
		i  int
		df int32
	}
	var cs []counted
	s.terms.mu.Lock()
	for i, t := range terms {
		// A term of several words ("pp&e") is counted by its rarest.
		var df int32 = -1
		for _, w := range retrieve.Words(t) {
			if n := r.familyCount(w); df < 0 || n < df {
				df = n
			}
		}
		cs = append(cs, counted{i, df})
	}
	s.terms.mu.Unlock()
	slices.SortStableFunc(cs, func(a, b counted) int { return cmp.Compare(a.df, b.df) })
	cs = cs[:limit]
	slices.SortFunc(cs, func(a, b counted) int { return cmp.Compare(a.i, b.i) })
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = terms[c.i]
	}
	return out, nil
}
