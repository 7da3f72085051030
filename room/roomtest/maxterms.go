package roomtest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/room"
)

// testSearchChunksMaxTerms: with MaxTerms a store may search only the
// rarest terms of the room, counting a word with its family, by counts
// that follow every write of chunks. The suite checks the choice through
// what is found, so a store that searches every term fails it: MaxTerms
// is what keeps a search of common words fast.
func testSearchChunksMaxTerms(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	texts := func(hs []room.ChunkHit) []string {
		var out []string
		for _, h := range hs {
			out = append(out, strings.Fields(h.Text)[0])
		}
		slices.Sort(out)
		return out
	}
	search := func(limit int, terms ...string) []string {
		t.Helper()
		hs, err := s.SearchChunks(ctx, f.a.ID, room.ChunkQuery{Terms: terms, Limit: 100, MaxTerms: limit})
		Must(t, err)
		return texts(hs)
	}
	var common []spec
	for i := range 12 {
		common = append(common, spec{text: text("common", fmt.Sprintf("word%d", i))})
	}
	f.doc(t, f.a, "common.txt", common, []spec{{text: text("rare common")}})
	// Room B's words do not count in room A.
	f.doc(t, f.b, "b.txt", []spec{{text: text("rare")}, {text: text("rare")}, {text: text("rare")}}, []spec{{text: text("rare")}})

	if got := search(0, "common", "rare"); len(got) != 13 {
		t.Errorf("SearchChunks(common rare) = %q; want all 13 chunks", got)
	}
	if got := search(1, "common", "rare"); !slices.Equal(got, []string{"rare"}) {
		t.Errorf("SearchChunks(common rare, MaxTerms 1) = %q; want the chunk with the rarer word", got)
	}
	// A word no chunk has as written may match by its stem: it counts as
	// rare, and is kept.
	if got := search(1, "common", "rarely"); !slices.Equal(got, []string{"rare"}) {
		t.Errorf("SearchChunks(common rarely, MaxTerms 1) = %q; want the rare chunk", got)
	}
	// "operate" counts with "operating" and "operations", which its stem
	// matches.
	var ops []spec
	for range 6 {
		ops = append(ops, spec{text: text("operating operations")})
	}
	f.doc(t, f.a, "ops.txt", ops, []spec{{text: text("widget operating")}, {text: text("widgets operations")}})
	if got := search(1, "operate", "widget"); !slices.Equal(got, []string{"widget", "widgets"}) {
		t.Errorf("SearchChunks(operate widget, MaxTerms 1) = %q; want the two widget chunks", got)
	}

	// The counts follow the documents: alpha is in 5 chunks, beta in 3,
	// until the document with 3 of the alphas is processed again without
	// them, and then deleted.
	f.doc(t, f.a, "x.txt", []spec{{text: text("alpha")}, {text: text("alpha")}})
	y, _, _ := f.doc(t, f.a, "y.txt", []spec{{text: text("alpha")}, {text: text("alpha")}, {text: text("alpha")}})
	f.doc(t, f.a, "z.txt", []spec{{text: text("beta")}, {text: text("beta")}, {text: text("beta")}})
	if got := search(1, "alpha", "beta"); !slices.Equal(got, []string{"beta", "beta", "beta"}) {
		t.Errorf("SearchChunks(alpha beta, MaxTerms 1) = %q; want the 3 beta chunks", got)
	}
	ps, cs := build(y, []spec{{text: text("gamma")}})
	Must(t, s.Complete(ctx, y, ps, cs))
	if got := search(1, "alpha", "beta"); !slices.Equal(got, []string{"alpha", "alpha"}) {
		t.Errorf("SearchChunks(alpha beta, MaxTerms 1) after y.txt lost its alphas = %q; want the 2 alpha chunks", got)
	}
	if got := search(1, "gamma", "beta"); !slices.Equal(got, []string{"gamma"}) {
		t.Errorf("SearchChunks(gamma beta, MaxTerms 1) = %q; want y.txt's new chunk", got)
	}
	Must(t, s.DeleteDocument(ctx, y.ID))
	f.doc(t, f.a, "w.txt", []spec{{text: text("delta")}, {text: text("delta")}})
	if got := search(1, "gamma", "delta"); len(got) != 0 {
		t.Errorf("SearchChunks(gamma delta, MaxTerms 1) after y.txt went = %q; want none (gamma is in no chunk)", got)
	}
}

// testSearchChunksMaxPostings: with MaxPostings a store may leave out the
// commonest terms while the kept ones are in more chunks than that
// together, but the terms it leaves out still score what the rarer ones
// find. The suite checks both through the hits: the chunks with only the
// common word are not found, and of two chunks with the rare word the one
// with the common word too ranks first, though it comes second in the
// room.
func testSearchChunksMaxPostings(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	var common []spec
	for i := range 12 {
		common = append(common, spec{text: text("common", fmt.Sprintf("word%d", i))})
	}
	f.doc(t, f.a, "a.txt", []spec{{text: text("rare other")}, {text: text("rare common")}}, common)
	search := func(q room.ChunkQuery) []string {
		t.Helper()
		hs, err := s.SearchChunks(ctx, f.a.ID, q)
		Must(t, err)
		var out []string
		for _, h := range hs {
			out = append(out, strings.Join(strings.Fields(h.Text)[:2], " "))
		}
		return out
	}
	if got := search(room.ChunkQuery{Terms: []string{"common", "rare"}, Limit: 100, MaxPostings: 5}); !slices.Equal(got, []string{"rare common", "rare other"}) {
		t.Errorf("SearchChunks(common rare, MaxPostings 5) = %q; want the rare chunks, the one with common first", got)
	}
	// The rarest term is kept even when it alone is over the budget.
	if got := search(room.ChunkQuery{Terms: []string{"common"}, Limit: 100, MaxPostings: 1}); len(got) != 13 {
		t.Errorf("SearchChunks(common, MaxPostings 1) = %q; want the 13 chunks with common", got)
	}
	// Within MaxTerms: the terms MaxTerms leaves out score nothing.
	if got := search(room.ChunkQuery{Terms: []string{"common", "rare", "other"}, Limit: 100, MaxTerms: 2, MaxPostings: 5}); len(got) != 2 || got[0] != "rare other" {
		t.Errorf("SearchChunks(common rare other, MaxTerms 2, MaxPostings 5) = %q; want rare other first", got)
	}
}
