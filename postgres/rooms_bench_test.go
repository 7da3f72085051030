package postgres_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/room/roomtest"
)

// BenchmarkRoomsSearch50k times both searches in one room of 50,000
// chunks (50 documents of 1,000 chunks, ~60 words each from a 20,000-word
// Zipf vocabulary, 384-dimension vectors), acting as a member so the
// row-level security policies are in the path. It reports each search's
// p50 and p95 latency over its iterations.
//
//	go test ./postgres -run - -bench RoomsSearch50k -benchtime 200x
func BenchmarkRoomsSearch50k(b *testing.B) {
	const docs, perDoc, dims = 50, 1000, 384
	st, _, _ := openRooms(b)
	ctx := roomtest.Ctx()
	rng := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(rng, 1.1, 2, 19999)
	word := func() string { return fmt.Sprintf("w%d", zipf.Uint64()) }
	owner := &room.User{ID: quarry.NewID(), Name: "bench", CreatedAt: time.Now()}
	must(b, st.CreateUser(ctx, owner, ""))
	r := &room.Room{ID: quarry.NewID(), Name: "bench", CreatedBy: owner.ID, CreatedAt: time.Now()}
	must(b, st.CreateRoom(ctx, r, owner.ID))
	start := time.Now()
	for i := range docs {
		d := &room.Document{ID: quarry.NewID(), RoomID: r.ID, Name: fmt.Sprintf("doc-%d.pdf", i), Format: "pdf", Status: room.StatusPending,
			UploadedBy: owner.ID, CreatedAt: time.Now(), UpdatedAt: time.Now()}
		must(b, st.CreateDocument(ctx, d))
		var pages []room.Page
		var chunks []room.Chunk
		for c := range perDoc {
			if c%10 == 0 {
				pages = append(pages, room.Page{ID: quarry.NewID(), DocumentID: d.ID, Number: len(pages) + 1, Text: "page"})
			}
			words := make([]string, 60)
			for w := range words {
				words[w] = word()
			}
			text := strings.Join(words, " ")
			vec := make([]float32, dims)
			for k := range vec {
				vec[k] = rng.Float32()*2 - 1
			}
			chunks = append(chunks, room.Chunk{ID: quarry.NewID(), DocumentID: d.ID, PageID: pages[len(pages)-1].ID, Index: c, Text: text,
				TokenCount: 80, StartChar: 0, EndChar: len(text), Embedding: vec, EmbeddingModel: "bench"})
		}
		must(b, st.Complete(ctx, d, pages, chunks))
	}
	b.Logf("loaded %d chunks in %v", docs*perDoc, time.Since(start).Round(time.Second))
	actx := room.WithActor(ctx, owner.ID)

	report := func(b *testing.B, times []time.Duration) {
		slices.Sort(times)
		pct := func(p float64) float64 {
			return float64(times[min(len(times)-1, int(p*float64(len(times))))].Microseconds()) / 1000
		}
		b.ReportMetric(pct(0.50), "p50-ms")
		b.ReportMetric(pct(0.95), "p95-ms")
	}
	b.Run("SearchChunks", func(b *testing.B) {
		var times []time.Duration
		for b.Loop() {
			terms := []string{word(), word(), word()}
			t0 := time.Now()
			if _, err := st.SearchChunks(actx, r.ID, room.ChunkQuery{Terms: terms, Limit: 40}); err != nil {
				b.Fatal(err)
			}
			times = append(times, time.Since(t0))
		}
		report(b, times)
	})
	b.Run("SearchVectors", func(b *testing.B) {
		var times []time.Duration
		for b.Loop() {
			q := make([]float32, dims)
			for k := range q {
				q[k] = rng.Float32()*2 - 1
			}
			t0 := time.Now()
			hs, err := st.SearchVectors(actx, r.ID, room.VectorQuery{Vector: q, Model: "bench", Limit: 40})
			if err != nil || len(hs) != 40 {
				b.Fatalf("SearchVectors = %d hits, %v; want 40", len(hs), err)
			}
			times = append(times, time.Since(t0))
		}
		report(b, times)
	})
}
