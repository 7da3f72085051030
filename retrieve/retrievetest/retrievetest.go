// Package retrievetest is the behaviour suite every retrieve.Index
// implementation must pass: scoping, replacement, deletion, any text as a
// query, identifiers as terms, and concurrent use.
package retrievetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/quarry-dev/quarry/retrieve"
)

// Run runs the suite. open returns a new, empty index for each subtest and
// arranges for it to be closed.
func Run(t *testing.T, open func(t *testing.T) retrieve.Index) {
	t.Run("Scoping", func(t *testing.T) { testScoping(t, open(t)) })
	t.Run("Replace", func(t *testing.T) { testReplace(t, open(t)) })
	t.Run("Delete", func(t *testing.T) { testDelete(t, open(t)) })
	t.Run("Ranking", func(t *testing.T) { testRanking(t, open(t)) })
	t.Run("Identifiers", func(t *testing.T) { testIdentifiers(t, open(t)) })
	t.Run("OddQueries", func(t *testing.T) { testOddQueries(t, open(t)) })
	t.Run("Concurrent", func(t *testing.T) { testConcurrent(t, open(t)) })
}

// findings are chunks like an investigation's memory.
var findings = []retrieve.Chunk{
	{Ref: "analysis/iterations/iter_003.json", Title: "Finding find_003 (iteration 3, hyp_004)",
		Text: "By platform, platform=android accounts for 64% of the change (-62,628) while holding 34.6% of the baseline."},
	{Ref: "analysis/iterations/iter_005.json", Title: "Finding find_005 (iteration 5, hyp_006)",
		Text: "By app_version, app_version=5.2 accounts for 55% of the change (-54,070) while holding 18.5% of the baseline."},
	{Ref: "analysis/iterations/iter_006.json", Title: "Finding find_006 (iteration 6, hyp_004)",
		Text: "A search over 120 leaf segments points at device=ios AND country=DE; device=android AND country=DE."},
	{Ref: "analysis/hypotheses/hyp_003.json", Title: "Hypothesis hyp_003 CONFIRMED: A specific combination of segments moved",
		Text: "hyp_003 CONFIRMED: A specific combination of segments moved. platform=android AND app_version=5.2 explains 59% of the change (q=<0.0001)"},
	{Ref: "analysis/memory.md#method", Title: "Method",
		Text: "How the contributions were calculated: the contribution of a segment is the part of the overall change that its rows account for."},
}

func put(t *testing.T, ix retrieve.Index, scope string, chunks []retrieve.Chunk) {
	t.Helper()
	if err := ix.Put(context.Background(), scope, chunks); err != nil {
		t.Fatalf("Put(%q) = %v", scope, err)
	}
}

func search(t *testing.T, ix retrieve.Index, scope, query string, k int) []retrieve.Hit {
	t.Helper()
	hits, err := ix.Search(context.Background(), scope, query, k)
	if err != nil {
		t.Fatalf("Search(%q, %q) = %v", scope, query, err)
	}
	return hits
}

// refs returns the refs of hits in order.
func refs(hits []retrieve.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Ref
	}
	return out
}

func testScoping(t *testing.T, ix retrieve.Index) {
	put(t, ix, "a", findings)
	other := []retrieve.Chunk{{Ref: "b.md", Title: "Other", Text: "platform=android accounts for everything in scope b"}}
	put(t, ix, "b", other)
	put(t, ix, "a-b", other) // a scope whose name contains another's
	for _, q := range []string{"platform android", "scope", "everything", "hyp_003"} {
		for _, h := range search(t, ix, "a", q, 100) {
			if h.Scope != "a" || h.Ref == "b.md" {
				t.Errorf("Search(a, %q) returned %q of scope %q", q, h.Ref, h.Scope)
			}
		}
	}
	hits := search(t, ix, "b", "platform android", 100)
	if len(hits) != 1 || hits[0].Ref != "b.md" || hits[0].Scope != "b" || hits[0].Text != other[0].Text {
		t.Errorf("Search(b) = %+v; want only b.md of scope b", hits)
	}
	if hits := search(t, ix, "missing", "platform", 10); len(hits) != 0 {
		t.Errorf("Search(missing scope) = %v; want none", refs(hits))
	}
	if hits := search(t, ix, "", "platform", 10); len(hits) != 0 {
		t.Errorf("Search(empty scope) = %v; want none", refs(hits))
	}
	if err := ix.Put(context.Background(), "", findings); err == nil {
		t.Errorf("Put with an empty scope succeeded; want an error")
	}
	if err := ix.Put(context.Background(), "a", []retrieve.Chunk{{Scope: "b", Ref: "x"}}); err == nil {
		t.Errorf("Put of a chunk of scope b into scope a succeeded; want an error")
	}
	if got := search(t, ix, "a", "method", 10); len(got) != 1 {
		t.Errorf("a failed Put changed the scope: Search(a, method) = %v", refs(got))
	}

	// Scopes made of odd characters are kept apart as well as plain ones.
	odd := []string{"---", "+++", `x"y`, "x y", "🙂", "Ünïcode", "a"}
	for i, scope := range odd {
		put(t, ix, scope, []retrieve.Chunk{{Ref: fmt.Sprint(i), Title: "odd", Text: "odd scope method"}})
	}
	for i, scope := range odd {
		hits := search(t, ix, scope, "odd method", 10)
		if len(hits) != 1 || hits[0].Ref != fmt.Sprint(i) || hits[0].Scope != scope {
			t.Errorf("Search(%q) = %v; want only [%d]", scope, refs(hits), i)
		}
		if err := ix.Delete(context.Background(), scope); err != nil {
			t.Fatal(err)
		}
		if hits := search(t, ix, scope, "odd method", 10); len(hits) != 0 {
			t.Errorf("after Delete(%q), Search = %v; want none", scope, refs(hits))
		}
	}
	if got := search(t, ix, "a-b", "platform", 10); len(got) != 1 {
		t.Errorf("deleting scope a touched scope a-b: Search = %v", refs(got))
	}
}

func testReplace(t *testing.T, ix retrieve.Index) {
	put(t, ix, "s", findings)
	put(t, ix, "s", []retrieve.Chunk{{Ref: "new.md", Title: "New", Text: "only the new platform text"}})
	hits := search(t, ix, "s", "platform android app_version method", 100)
	if got := refs(hits); len(got) != 1 || got[0] != "new.md" {
		t.Errorf("after a second Put, Search = %v; want [new.md]", got)
	}
	put(t, ix, "s", nil)
	if hits := search(t, ix, "s", "platform", 100); len(hits) != 0 {
		t.Errorf("after Put(nil), Search = %v; want none", refs(hits))
	}
}

func testDelete(t *testing.T, ix retrieve.Index) {
	put(t, ix, "s", findings)
	put(t, ix, "t", findings)
	if err := ix.Delete(context.Background(), "s"); err != nil {
		t.Fatalf("Delete = %v", err)
	}
	if hits := search(t, ix, "s", "platform method", 100); len(hits) != 0 {
		t.Errorf("after Delete, Search(s) = %v; want none", refs(hits))
	}
	if hits := search(t, ix, "t", "method", 100); len(hits) != 1 {
		t.Errorf("Delete(s) touched scope t: Search(t, method) = %v", refs(hits))
	}
	if err := ix.Delete(context.Background(), "never-put"); err != nil {
		t.Errorf("Delete of an unknown scope = %v; want nil", err)
	}
}

func testRanking(t *testing.T, ix retrieve.Index) {
	put(t, ix, "s", findings)
	hits := search(t, ix, "s", "How did you calculate the contribution?", 10)
	if len(hits) == 0 || hits[0].Ref != "analysis/memory.md#method" {
		t.Fatalf("Search(contribution) = %v; want the method first", refs(hits))
	}
	for i := 1; i < len(hits); i++ {
		if hits[i].Score > hits[i-1].Score {
			t.Errorf("hit %d scores %v above hit %d's %v; want best first", i, hits[i].Score, i-1, hits[i-1].Score)
		}
	}
	if got := search(t, ix, "s", "contribution", 2); len(got) != 2 {
		t.Errorf("Search(k=2) returned %d hits; want 2", len(got))
	}
	for _, k := range []int{0, -1} {
		if got := search(t, ix, "s", "contribution", k); len(got) != 0 {
			t.Errorf("Search(k=%d) = %v; want none", k, refs(got))
		}
	}
}

func testIdentifiers(t *testing.T, ix retrieve.Index) {
	put(t, ix, "s", findings)
	tests := []struct {
		query string
		first string
		n     int // hits expected
	}{
		{"app_version", "analysis/iterations/iter_005.json", 2},
		{"5.2", "analysis/iterations/iter_005.json", 2},
		{"hyp_003", "analysis/hypotheses/hyp_003.json", 1},
		{"what about Germany?", "analysis/iterations/iter_006.json", 1}, // via the code de, not "device"
		{"62,628", "analysis/iterations/iter_003.json", 1},
	}
	for _, tt := range tests {
		hits := search(t, ix, "s", tt.query, 10)
		if len(hits) != tt.n || hits[0].Ref != tt.first {
			t.Errorf("Search(%q) = %v; want %d hits, %s first", tt.query, refs(hits), tt.n, tt.first)
		}
	}
}

// oddQueries are texts a user may type that mean something to FTS5 or SQL.
var oddQueries = []string{
	``, ` `, `"`, `""`, `"unbalanced`, `'`, `*`, `-`, `^`, `:`, `(`, `)`, `()`, `{}`,
	`NEAR(platform android)`, `NEAR`, `platform AND`, `OR`, `AND NOT`, `platform*`, `-platform`,
	`title:platform`, `{title text}: platform`, `^platform`, `platform + android`,
	`'; DROP TABLE chunks; --`, `" OR 1=1 --`, `platform") OR ("1`, `\x00platform`,
	`🙂 plätform`, `%_%`, `$1 ?1 :name @x`, strings.Repeat("platform ", 600),
}

func testOddQueries(t *testing.T, ix retrieve.Index) {
	put(t, ix, "s", findings)
	for _, q := range oddQueries {
		if _, err := ix.Search(context.Background(), "s", q, 5); err != nil {
			t.Errorf("Search(%q) = %v; want no error", q, err)
		}
	}
	for _, q := range []string{``, ` `, `"`, `*`, `-`, `()`, `OR`} {
		if hits := search(t, ix, "s", q, 5); len(hits) != 0 {
			t.Errorf("Search(%q) = %v; want none: it has no searchable word", q, refs(hits))
		}
	}
	if hits := search(t, ix, "s", `NEAR(platform android)`, 10); len(hits) == 0 {
		t.Errorf("Search(NEAR(platform android)) found nothing; want the words searched")
	}
	if hits := search(t, ix, "s", "platform", 10); len(hits) != 2 {
		t.Errorf("after odd queries, Search(platform) = %v; want 2 hits", refs(hits))
	}
}

// testConcurrent has writers replace their scopes over and over while
// readers search them. Every search must see one whole generation of a
// scope: Put is atomic and scopes never mix.
func testConcurrent(t *testing.T, ix retrieve.Index) {
	const scopes, gens, perGen = 10, 6, 5
	ctx := context.Background()
	generation := func(scope string, g int) []retrieve.Chunk {
		var cs []retrieve.Chunk
		for i := 0; i < perGen; i++ {
			cs = append(cs, retrieve.Chunk{Ref: fmt.Sprintf("%s/%d", scope, i), Title: "marker", Text: fmt.Sprintf("gen%d marker of %s", g, scope)})
		}
		return cs
	}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for s := 0; s < scopes; s++ {
		scope := fmt.Sprintf("scope%d", s)
		if err := ix.Put(ctx, scope, generation(scope, 0)); err != nil {
			t.Fatal(err)
		}
		wg.Add(2)
		go func() {
			defer wg.Done()
			for g := 1; g <= gens; g++ {
				if err := ix.Put(ctx, scope, generation(scope, g)); err != nil {
					errs <- err
					return
				}
			}
		}()
		go func() {
			defer wg.Done()
			for i := 0; i < 3*gens; i++ {
				hits, err := ix.Search(ctx, scope, "marker", 100)
				if err != nil {
					errs <- err
					return
				}
				if err := oneGeneration(scope, hits, perGen); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// oneGeneration checks that hits are exactly the n chunks of one generation
// of scope.
func oneGeneration(scope string, hits []retrieve.Hit, n int) error {
	if len(hits) != n {
		return fmt.Errorf("Search(%s) returned %d hits; want %d", scope, len(hits), n)
	}
	gen := strings.Fields(hits[0].Text)[0]
	for _, h := range hits {
		if h.Scope != scope || !strings.HasSuffix(h.Text, " of "+scope) || !strings.HasPrefix(h.Text, gen+" ") {
			return fmt.Errorf("Search(%s) mixed %q into %s", scope, h.Text, gen)
		}
	}
	return nil
}
