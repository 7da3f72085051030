package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/quarry-dev/quarry/retrieve"
)

// benchChunks returns n chunks shaped like an investigation's memory:
// findings over a handful of dimensions, hypotheses and a method section.
func benchChunks(n int) []retrieve.Chunk {
	dims := []string{"platform=android", "platform=ios", "country=DE", "country=FR", "app_version=5.2", "channel=paid_social", "customers.segment=enterprise"}
	var cs []retrieve.Chunk
	for i := 0; i < n; i++ {
		d := dims[i%len(dims)]
		switch i % 5 {
		case 0:
			cs = append(cs, retrieve.Chunk{Ref: fmt.Sprintf("analysis/hypotheses/hyp_%03d.json", i), Title: fmt.Sprintf("Hypothesis hyp_%03d RULED_OUT: Change concentrated in %s", i, d),
				Text: fmt.Sprintf("hyp_%03d RULED_OUT: Change concentrated in %s. %s carries %d%% of the change from %d.%d%% of the baseline", i, d, d, i%90, i%40, i%10)})
		case 4:
			cs = append(cs, retrieve.Chunk{Ref: "analysis/memory.md#method", Title: "Method",
				Text: "How the contributions were calculated: the contribution of a segment is the part of the overall change that its rows account for. Each candidate is tested against its own day-to-day noise (Welch's test), with the Benjamini-Hochberg correction over every segment examined."})
		default:
			cs = append(cs, retrieve.Chunk{Ref: fmt.Sprintf("analysis/iterations/iter_%03d.json", i), Title: fmt.Sprintf("Finding find_%03d (iteration %d)", i, i),
				Text: fmt.Sprintf("By %s, %s accounts for %d%% of the change (-%d) while holding %d.%d%% of the baseline. Its rows went from %d to %d.\nSQL: SELECT value, period, sum(amount) FROM orders GROUP BY ALL", d, d, i%90, i*37, i%40, i%10, i*11, i*9)})
		}
	}
	return cs
}

// benchScope names scope i like a session ID.
func benchScope(i int) string {
	h := uint64(i+1) * 0x9E3779B97F4A7C15
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", uint32(h>>32), uint16(h>>16), uint16(h), uint16(h>>48)^uint16(i), h&0xffffffffffff)
}

// BenchmarkSearch searches one scope of a file database holding 100 chunks
// in each of 20 scopes (2000 chunks), and in each of 200.
func BenchmarkSearch(b *testing.B) {
	queries := []string{"what about Germany?", "how did you calculate the contribution?", "which hypotheses were ruled out and why?", "app_version 5.2"}
	for _, scopes := range []int{20, 200} {
		db := MustOpenDB(b, filepath.Join(b.TempDir(), "quarry.db"))
		ctx := context.Background()
		for s := 0; s < scopes; s++ {
			if err := db.Put(ctx, benchScope(s), benchChunks(100)); err != nil {
				b.Fatal(err)
			}
		}
		for _, q := range queries {
			b.Run(fmt.Sprintf("scopes=%d/%s", scopes, q), func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					hits, err := db.Search(ctx, benchScope(i%scopes), q, 8)
					if err != nil || len(hits) == 0 {
						b.Fatalf("Search(%q) = %d hits, %v", q, len(hits), err)
					}
				}
			})
		}
		b.Run(fmt.Sprintf("scopes=%d/parallel", scopes), func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				for i := 0; pb.Next(); i++ {
					if _, err := db.Search(ctx, benchScope(i%scopes), queries[i%len(queries)], 8); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// BenchmarkPut replaces one scope of 100 chunks in a file database.
func BenchmarkPut(b *testing.B) {
	db := MustOpenDB(b, filepath.Join(b.TempDir(), "quarry.db"))
	ctx := context.Background()
	chunks := benchChunks(100)
	for i := 0; b.Loop(); i++ {
		if err := db.Put(ctx, benchScope(i%20), chunks); err != nil {
			b.Fatal(err)
		}
	}
}
