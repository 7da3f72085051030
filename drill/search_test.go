package drill

import (
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"
)

// synthCube builds a full cross product of dims with the given
// cardinalities, a noisy baseline, and the comparison equal to the
// baseline times (1+noise) except in leaves matching any of hits, which
// are scaled by factor.
func synthCube(seed uint64, cards []int, ratio bool, factor float64, hits ...[]Cond) *Cube {
	rng := rand.New(rand.NewPCG(seed, 1))
	c := &Cube{}
	n := 1
	for d, k := range cards {
		c.Dims = append(c.Dims, string(rune('a'+d)))
		labels := make([]string, k)
		for v := range labels {
			labels[v] = c.Dims[d] + string(rune('0'+v%10)) + string(rune('a'+v/10))
		}
		c.Labels = append(c.Labels, labels)
		n *= k
	}
	c.Codes = make([][]int32, len(cards))
	for d := range cards {
		c.Codes[d] = make([]int32, n)
	}
	c.Num0, c.Num1 = make([]float64, n), make([]float64, n)
	if ratio {
		c.Den0, c.Den1 = make([]float64, n), make([]float64, n)
	}
	for i := range n {
		rest := i
		for d := len(cards) - 1; d >= 0; d-- {
			c.Codes[d][i] = int32(rest % cards[d])
			rest /= cards[d]
		}
		hit := false
		for _, h := range hits {
			match := true
			for _, cd := range h {
				match = match && c.Codes[cd.Dim][i] == cd.Code
			}
			hit = hit || match
		}
		scale := 1 + 0.05*rng.NormFloat64()
		if hit {
			scale = factor
		}
		base := 50 + 100*rng.Float64()
		if ratio {
			// Numerators are 5% of the denominator; a hit changes the rate.
			c.Den0[i], c.Den1[i] = 20*base, 20*base
			c.Num0[i] = base
			c.Num1[i] = base * scale
		} else {
			c.Num0[i] = base
			c.Num1[i] = base * scale
		}
	}
	return c
}

func conds(c ...Cond) []Cond { return c }

func foundConds(fs []Found) [][]Cond {
	var out [][]Cond
	for _, f := range fs {
		out = append(out, f.Conds)
	}
	return out
}

func TestSearchFindsInjectedSegments(t *testing.T) {
	tests := []struct {
		name   string
		cards  []int
		ratio  bool
		factor float64
		hits   [][]Cond
	}{
		{"single dim drop", []int{4, 6, 5}, false, 0.3, [][]Cond{conds(Cond{1, 2})}},
		{"pair rise", []int{4, 6, 5}, false, 2.5, [][]Cond{conds(Cond{0, 1}, Cond{2, 3})}},
		{"two causes", []int{5, 6, 4, 3}, false, 0.2, [][]Cond{conds(Cond{0, 4}), conds(Cond{1, 2}, Cond{3, 0})}},
		{"triple", []int{4, 5, 6, 3}, false, 3, [][]Cond{conds(Cond{0, 2}, Cond{1, 1}, Cond{2, 5})}},
		{"ratio rate rise", []int{4, 6, 5}, true, 4, [][]Cond{conds(Cond{0, 3}, Cond{1, 0})}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := synthCube(7, tt.cards, tt.ratio, tt.factor, tt.hits...)
			got := Search(c, SearchOptions{})
			want := map[string]bool{}
			for _, h := range tt.hits {
				want[condKey(h)] = true
			}
			if len(got) != len(tt.hits) {
				t.Fatalf("Search(%s) = %v; want %v", tt.name, foundConds(got), tt.hits)
			}
			for _, f := range got {
				if !want[condKey(f.Conds)] {
					t.Errorf("Search(%s) returned %v; want one of %v", tt.name, f.Conds, tt.hits)
				}
				if f.Share <= 0 || f.Share > 1.2 {
					t.Errorf("Search(%s) share of %v = %v; want in (0, 1.2]", tt.name, f.Conds, f.Share)
				}
			}
		})
	}
}

func condKey(cs []Cond) string {
	b := make([]byte, 0, 8*len(cs))
	for _, c := range cs {
		b = append(b, byte(c.Dim), byte(c.Code), ';')
	}
	return string(b)
}

func TestSearchChangeAndShare(t *testing.T) {
	// Two dims; only a=0,b=1 changes, from 10 to 40.
	c := &Cube{
		Dims:   []string{"a", "b"},
		Labels: [][]string{{"x", "y"}, {"p", "q"}},
		Codes:  [][]int32{{0, 0, 1, 1}, {0, 1, 0, 1}},
		Num0:   []float64{10, 10, 10, 10},
		Num1:   []float64{10, 40, 10, 10},
	}
	got := Search(c, SearchOptions{})
	if len(got) != 1 {
		t.Fatalf("Search = %v; want one segment", foundConds(got))
	}
	if want := conds(Cond{0, 0}, Cond{1, 1}); !reflect.DeepEqual(got[0].Conds, want) {
		t.Errorf("Search conds = %v; want %v", got[0].Conds, want)
	}
	if got[0].Change != 30 || got[0].Share != 1 {
		t.Errorf("Search change, share = %v, %v; want 30, 1", got[0].Change, got[0].Share)
	}
}

func TestSearchNothingChanged(t *testing.T) {
	c := synthCube(3, []int{3, 4}, false, 1)
	for i := range c.Num1 {
		c.Num1[i] = c.Num0[i]
	}
	if got := Search(c, SearchOptions{}); len(got) != 0 {
		t.Errorf("Search(unchanged) = %v; want nothing", foundConds(got))
	}
	if got := Search(&Cube{}, SearchOptions{}); got != nil {
		t.Errorf("Search(empty) = %v; want nil", got)
	}
}

func TestSearchDeterministic(t *testing.T) {
	c := synthCube(11, []int{5, 6, 4, 3}, false, 0.4, conds(Cond{1, 3}), conds(Cond{0, 1}, Cond{2, 2}))
	first := Search(c, SearchOptions{})
	for range 5 {
		if again := Search(c, SearchOptions{}); !reflect.DeepEqual(again, first) {
			t.Fatalf("Search = %v; want the same as the first run %v", again, first)
		}
	}
}

func TestSearchRespectsLimits(t *testing.T) {
	c := synthCube(5, []int{4, 5, 6, 3}, false, 3, conds(Cond{0, 2}, Cond{1, 1}, Cond{2, 5}))
	for _, f := range Search(c, SearchOptions{MaxDepth: 2}) {
		if len(f.Conds) > 2 {
			t.Errorf("Search(MaxDepth 2) returned %v; want at most 2 conditions", f.Conds)
		}
	}
	c = synthCube(5, []int{6, 5}, false, 3, conds(Cond{0, 0}), conds(Cond{0, 1}), conds(Cond{0, 2}))
	if got := Search(c, SearchOptions{MaxResults: 2}); len(got) > 2 {
		t.Errorf("Search(MaxResults 2) = %v; want at most 2", foundConds(got))
	}
}

func TestCombinations(t *testing.T) {
	tests := []struct {
		n, k int
		want [][]int
	}{
		{3, 1, [][]int{{0}, {1}, {2}}},
		{4, 2, [][]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}},
		{3, 3, [][]int{{0, 1, 2}}},
	}
	for _, tt := range tests {
		if got := combinations(tt.n, tt.k); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("combinations(%d, %d) = %v; want %v", tt.n, tt.k, got, tt.want)
		}
	}
}

// BenchmarkSearch48k times the search on a RiskLoc-S-sized cube (five
// dimensions, 48,000 leaves) with two injected causes, at full depth.
func BenchmarkSearch48k(b *testing.B) {
	c := synthCube(1, []int{10, 12, 10, 8, 5}, false, 0.3,
		conds(Cond{0, 3}, Cond{4, 1}), conds(Cond{1, 2}, Cond{2, 4}, Cond{3, 6}))
	for b.Loop() {
		Search(c, SearchOptions{MaxDepth: 5})
	}
}

// BenchmarkSearchWide times the default depth-3 search on seven
// dimensions with hundreds of values in one of them.
func BenchmarkSearchWide(b *testing.B) {
	c := synthCube(2, []int{300, 8, 6, 5, 4, 3, 2}, false, 2, conds(Cond{0, 17}, Cond{2, 1}))
	for b.Loop() {
		Search(c, SearchOptions{})
	}
}

// FuzzSearch checks Search on small cubes with arbitrary values,
// negative and zero ones included: it must not panic, must respect
// MaxResults and must return finite numbers and sorted conditions.
func FuzzSearch(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, false)
	f.Add([]byte{0, 0, 0, 0, 200, 0, 0, 0, 1, 1, 1, 1}, false)
	f.Add([]byte{9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9}, true)
	f.Fuzz(func(t *testing.T, data []byte, ratio bool) {
		c := synthCube(1, []int{3, 2, 2}, ratio, 1)
		for i := range c.Num0 {
			if 2*i+1 >= len(data) {
				break
			}
			c.Num0[i] = float64(int8(data[2*i]))
			c.Num1[i] = float64(int8(data[2*i+1]))
		}
		got := Search(c, SearchOptions{MaxResults: 3})
		if len(got) > 3 {
			t.Fatalf("Search = %v; want at most 3 segments", foundConds(got))
		}
		for _, fd := range got {
			for _, v := range []float64{fd.Change, fd.Share, fd.Score} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("Search found %v with change %v, share %v, score %v; want finite numbers", fd.Conds, fd.Change, fd.Share, fd.Score)
				}
			}
			if len(fd.Conds) == 0 || !sort.SliceIsSorted(fd.Conds, func(i, j int) bool { return fd.Conds[i].Dim < fd.Conds[j].Dim }) {
				t.Errorf("Search found conditions %v; want some, sorted by dimension", fd.Conds)
			}
		}
	})
}

// matches reports whether leaf i of c satisfies every condition.
func matches(c *Cube, i int, conds []Cond) bool {
	for _, k := range conds {
		if c.Codes[k.Dim][i] != k.Code {
			return false
		}
	}
	return true
}
