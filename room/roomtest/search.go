package roomtest

import (
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/quarry-dev/quarry/room"
)

func testSearchChunks(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	d1, _, c1 := f.doc(t, f.a, "turbines.txt",
		[]spec{{text: text("the turbine order book")}, {text: text("turbine turbine turbine maintenance of every turbine")}},
		[]spec{{text: text("unrelated paragraph about staffing")}, {text: text("capex in 2022 was 410 million")}, {text: text("capex guidance")}},
		[]spec{{text: text("the table below"), context: "warranty provisions by year"}})
	d2, _, c2 := f.doc(t, f.a, "other.txt", []spec{{text: text("a turbine mentioned once")}})
	f.doc(t, f.b, "room-b.txt", []spec{{text: text("turbine turbine turbine turbine turbine turbine capex 2022 warranty")}})
	best := c1[1]

	hs, err := s.SearchChunks(ctx, f.a.ID, room.ChunkQuery{Terms: []string{"turbine"}, Limit: 10})
	Must(t, err)
	if len(hs) != 3 || hs[0].ID != best.ID {
		t.Fatalf("SearchChunks(turbine) = %s; want the 3 chunks of room A with it, %s first", describe(hs), best.ID)
	}
	for i, h := range hs {
		if i > 0 && h.Score > hs[i-1].Score {
			t.Errorf("hit %d scores %v above hit %d's %v; want best first", i, h.Score, i-1, hs[i-1].Score)
		}
		if h.Score <= 0 {
			t.Errorf("hit %d scores %v; want larger is better, above 0", i, h.Score)
		}
	}
	if h := hs[0]; h.DocumentName != "turbines.txt" || h.PageNumber != 1 || h.Text != best.Text || h.DocumentID != d1.ID || h.Index != best.Index {
		t.Errorf("best hit = %+v; want %+v in turbines.txt page 1", h, best)
	}

	hs, err = s.SearchChunks(ctx, f.a.ID, room.ChunkQuery{Terms: []string{"turbine"}, DocumentIDs: []string{d2.ID}, Limit: 10})
	if err != nil || !slices.Equal(hitIDs(hs), []string{c2[0].ID}) {
		t.Errorf("SearchChunks(turbine, only other.txt) = %s, %v; want its one chunk", describe(hs), err)
	}
	hs, err = s.SearchChunks(ctx, f.a.ID, room.ChunkQuery{Terms: []string{"turbine"}, Limit: 1})
	if err != nil || !slices.Equal(hitIDs(hs), []string{best.ID}) {
		t.Errorf("SearchChunks(turbine, limit 1) = %s, %v; want the best chunk only", describe(hs), err)
	}
	hs, err = s.SearchChunks(ctx, f.a.ID, room.ChunkQuery{Terms: []string{"capex", "2022"}, Limit: 10})
	if err != nil || len(hs) != 2 || hs[0].ID != c1[3].ID {
		t.Errorf("SearchChunks(capex 2022) = %s, %v; want the chunk with both words first, then the one with capex", describe(hs), err)
	}
	hs, err = s.SearchChunks(ctx, f.a.ID, room.ChunkQuery{Terms: []string{"warranty"}, Limit: 10})
	if err != nil || !slices.Equal(hitIDs(hs), []string{c1[5].ID}) {
		t.Errorf("SearchChunks(warranty) = %s, %v; want the chunk whose context has it", describe(hs), err)
	}
	for _, terms := range [][]string{nil, {"zeppelin"}} {
		if hs, err := s.SearchChunks(ctx, f.a.ID, room.ChunkQuery{Terms: terms, Limit: 10}); err != nil || len(hs) != 0 {
			t.Errorf("SearchChunks(%q) = %s, %v; want none", terms, describe(hs), err)
		}
	}
	// Room B's chunk matches every term better than any of room A's.
	for _, r := range []*room.Room{f.a, f.b} {
		mine := map[string]bool{}
		ds, err := s.ListDocuments(ctx, r.ID)
		Must(t, err)
		for _, d := range ds {
			mine[d.ID] = true
		}
		hs, err := s.SearchChunks(ctx, r.ID, room.ChunkQuery{Terms: []string{"turbine", "capex", "2022", "warranty"}, Limit: 50})
		Must(t, err)
		if len(hs) == 0 {
			t.Errorf("SearchChunks in %s found nothing", r.Name)
		}
		for _, h := range hs {
			if !mine[h.DocumentID] {
				t.Errorf("SearchChunks in %s returned %s of document %s (%s) of another room", r.Name, h.ID, h.DocumentID, h.DocumentName)
			}
		}
	}
	// A document id of another room does not widen the search.
	bDocs, err := s.ListDocuments(ctx, f.b.ID)
	Must(t, err)
	if hs, err := s.SearchChunks(ctx, f.a.ID, room.ChunkQuery{Terms: []string{"turbine"}, DocumentIDs: []string{bDocs[0].ID}, Limit: 10}); err != nil || len(hs) != 0 {
		t.Errorf("SearchChunks in room A with room B's document = %s, %v; want none", describe(hs), err)
	}
}

func testSearchHostile(t *testing.T, f *fixture) {
	f.doc(t, f.a, "plain.txt", []spec{{text: text("plain words")}})
	for _, term := range []string{`"`, `'`, `OR`, `AND`, `NOT`, `NEAR(`, `*`, `room:`, `body : x`, `-plain`, `a:b`, `)`, `(`, `!`, `&`, `|`, `<->`, `\`, `%`, `_`, `;--`, "\x00", `ünïcödé`} {
		if _, err := f.s.SearchChunks(f.ctx, f.a.ID, room.ChunkQuery{Terms: []string{term, "plain"}, Limit: 5}); err != nil {
			t.Errorf("SearchChunks(%q): %v; want any text to be a valid query", term, err)
		}
	}
}

// unit is v scaled to length 1, to compute the cosines the suite expects.
func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}

func testSearchVectors(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	q := []float32{1, 0.2, 0}
	v1, v2, v3 := []float32{2, 0.4, 0}, []float32{1, 1, 0}, []float32{0, 0, 1}
	d1, _, c1 := f.doc(t, f.a, "vectors.txt",
		[]spec{{text: text("first"), vec: v2, model: "m1"}, {text: text("second"), vec: v1, model: "m1"}},
		[]spec{{text: text("third"), vec: v3, model: "m1"}, {text: text("fourth"), vec: q, model: "m2"}, {text: text("fifth")}})
	d2, _, c2 := f.doc(t, f.a, "more.txt", []spec{{text: text("sixth"), vec: []float32{1, 0.3, 0.1}, model: "m1"}})
	f.doc(t, f.b, "room-b.txt", []spec{{text: text("room b"), vec: q, model: "m1"}})

	hs, err := s.SearchVectors(ctx, f.a.ID, room.VectorQuery{Vector: q, Model: "m1", Limit: 10})
	Must(t, err)
	want := []string{c1[1].ID, c2[0].ID, c1[0].ID, c1[2].ID}
	if !slices.Equal(hitIDs(hs), want) {
		t.Fatalf("SearchVectors(m1) = %s; want %v: room A's m1 chunks by cosine", describe(hs), want)
	}
	for i, v := range [][]float32{v1, {1, 0.3, 0.1}, v2, v3} {
		if c := cosine(q, v); math.Abs(hs[i].Score-c) > 1e-4 {
			t.Errorf("hit %d scores %v; want its cosine %v", i, hs[i].Score, c)
		}
	}
	if h := hs[0]; h.DocumentName != "vectors.txt" || h.PageNumber != 1 || h.Text != c1[1].Text || h.EmbeddingModel != "m1" {
		t.Errorf("best hit = %+v; want the second chunk of vectors.txt, page 1, model m1", h)
	}
	hs, err = s.SearchVectors(ctx, f.a.ID, room.VectorQuery{Vector: q, Model: "m1", Limit: 2})
	if err != nil || !slices.Equal(hitIDs(hs), want[:2]) {
		t.Errorf("SearchVectors(limit 2) = %s, %v; want %v", describe(hs), err, want[:2])
	}
	hs, err = s.SearchVectors(ctx, f.a.ID, room.VectorQuery{Vector: q, Model: "m2", Limit: 10})
	if err != nil || !slices.Equal(hitIDs(hs), []string{c1[3].ID}) || math.Abs(hs[0].Score-1) > 1e-4 {
		t.Errorf("SearchVectors(m2) = %s, %v; want only the m2 chunk, cosine 1", describe(hs), err)
	}
	hs, err = s.SearchVectors(ctx, f.a.ID, room.VectorQuery{Vector: q, Model: "m1", DocumentIDs: []string{d2.ID}, Limit: 10})
	if err != nil || !slices.Equal(hitIDs(hs), []string{c2[0].ID}) {
		t.Errorf("SearchVectors(only more.txt) = %s, %v; want its chunk", describe(hs), err)
	}
	hs, err = s.SearchVectors(ctx, f.a.ID, room.VectorQuery{Vector: q, Model: "m1", DocumentIDs: []string{d1.ID, d2.ID}, Limit: 10})
	if err != nil || !slices.Equal(hitIDs(hs), want) {
		t.Errorf("SearchVectors(both documents) = %s, %v; want %v", describe(hs), err, want)
	}
	for name, vq := range map[string]room.VectorQuery{
		"no vector":       {Model: "m1", Limit: 10},
		"no model":        {Vector: q, Limit: 10},
		"unknown model":   {Vector: q, Model: "m3", Limit: 10},
		"other dimension": {Vector: []float32{1, 0, 0, 0}, Model: "m1", Limit: 10},
	} {
		if hs, err := s.SearchVectors(ctx, f.a.ID, vq); err != nil || len(hs) != 0 {
			t.Errorf("SearchVectors(%s) = %s, %v; want none", name, describe(hs), err)
		}
	}
	hs, err = s.SearchVectors(ctx, f.b.ID, room.VectorQuery{Vector: q, Model: "m1", Limit: 10})
	if err != nil || len(hs) != 1 || hs[0].DocumentName != "room-b.txt" {
		t.Errorf("SearchVectors in room B = %s, %v; want only room B's chunk", describe(hs), err)
	}
	if hs, err := s.SearchVectors(ctx, f.a.ID, room.VectorQuery{Vector: q, Model: "m1", DocumentIDs: []string{hs[0].DocumentID}, Limit: 10}); err != nil || len(hs) != 0 {
		t.Errorf("SearchVectors in room A with room B's document = %s, %v; want none", describe(hs), err)
	}
}

func testSearchVectorsInvalidated(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	q := []float32{0, 1, 0}
	d, _, c := f.doc(t, f.a, "changing.txt", []spec{{text: text("one"), vec: []float32{0, 1, 0}, model: "m"}})
	gone, _, _ := f.doc(t, f.a, "gone.txt", []spec{{text: text("two"), vec: []float32{0.1, 1, 0}, model: "m"}})
	hs, err := s.SearchVectors(ctx, f.a.ID, room.VectorQuery{Vector: q, Model: "m", Limit: 10})
	if err != nil || len(hs) != 2 || hs[0].ID != c[0].ID {
		t.Fatalf("SearchVectors = %s, %v; want 2 hits, changing.txt first", describe(hs), err)
	}
	Must(t, s.DeleteDocument(ctx, gone.ID))
	hs, err = s.SearchVectors(ctx, f.a.ID, room.VectorQuery{Vector: q, Model: "m", Limit: 10})
	if err != nil || !slices.Equal(hitIDs(hs), []string{c[0].ID}) {
		t.Errorf("SearchVectors after DeleteDocument = %s, %v; want the one left", describe(hs), err)
	}
	ps2, c2 := build(d, []spec{{text: text("three"), vec: []float32{1, 0, 0}, model: "m"}, {text: text("four"), vec: []float32{0.5, 1, 0}, model: "m"}})
	Must(t, s.Complete(ctx, d, ps2, c2))
	hs, err = s.SearchVectors(ctx, f.a.ID, room.VectorQuery{Vector: q, Model: "m", Limit: 10})
	if err != nil || !slices.Equal(hitIDs(hs), []string{c2[1].ID, c2[0].ID}) {
		t.Errorf("SearchVectors after reprocessing = %s, %v; want the new chunks only, four first", describe(hs), err)
	}
	f.doc(t, f.a, "added.txt", []spec{{text: text("five"), vec: []float32{0, 1, 0}, model: "m"}})
	hs, err = s.SearchVectors(ctx, f.a.ID, room.VectorQuery{Vector: q, Model: "m", Limit: 10})
	if err != nil || len(hs) != 3 || hs[0].DocumentName != "added.txt" {
		t.Errorf("SearchVectors after a new document = %s, %v; want 3 hits, added.txt first", describe(hs), err)
	}
}

// testTermChunks: how many of a room's chunks hold each term's family,
// its own chunks only, and how many chunks it has.
func testTermChunks(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	f.doc(t, f.a, "turbines.txt",
		[]spec{{text: text("the turbine order book")}, {text: text("two turbines and their maintenance")}},
		[]spec{{text: text("capex in 2022 was 410 million"), context: "turbine capex"}})
	f.doc(t, f.b, "room-b.txt", []spec{{text: text("turbine turbine zeppelin")}, {text: text("zeppelin")}})
	got, passages, err := s.TermChunks(ctx, f.a.ID, []string{"turbine", "capex", "zeppelin"})
	Must(t, err)
	if want := map[string]int{"turbine": 3, "capex": 1, "zeppelin": 0}; !maps.Equal(got, want) || passages != 3 {
		t.Errorf("TermChunks(room A) = %v, %d chunks; want %v, 3 chunks (turbines counts for turbine, room B's do not)", got, passages, want)
	}
	got, passages, err = s.TermChunks(ctx, f.b.ID, []string{"zeppelin"})
	Must(t, err)
	if got["zeppelin"] != 2 || passages != 2 {
		t.Errorf("TermChunks(room B, zeppelin) = %v, %d chunks; want 2 of 2", got, passages)
	}
}
