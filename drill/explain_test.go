package drill

import (
	"math"
	"math/rand/v2"
	"testing"
)

// plantedCube builds a full cube over dims (value counts) with Poisson-like
// noise, then multiplies the comparison of every leaf inside each planted
// segment by its factor. Leaves hold counts; ratio cubes hold conversions
// over sessions.
func plantedCube(seed uint64, dims []int, planted map[*[]Cond]float64, ratio bool) *Cube {
	rng := rand.New(rand.NewPCG(seed, 1))
	c := &Cube{}
	n := 1
	for d, k := range dims {
		c.Dims = append(c.Dims, string(rune('a'+d)))
		labels := make([]string, k)
		for i := range labels {
			labels[i] = c.Dims[d] + string(rune('0'+i%10)) + string(rune('a'+i/10))
		}
		c.Labels = append(c.Labels, labels)
		c.Codes = append(c.Codes, nil)
		n *= k
	}
	if ratio {
		c.Den0, c.Den1 = make([]float64, 0, n), make([]float64, 0, n)
	}
	noisy := func(mean float64) float64 {
		return math.Max(0, math.Round(mean+rng.NormFloat64()*math.Sqrt(mean)))
	}
	for i := 0; i < n; i++ {
		rest := i
		for d := range dims {
			c.Codes[d] = append(c.Codes[d], int32(rest%dims[d]))
			rest /= dims[d]
		}
		size := 50 + 200*rng.Float64()
		factor := 1.0
		for seg, f := range planted {
			if matches(c, i, *seg) {
				factor = f
			}
		}
		if ratio {
			s0, s1 := noisy(size*20), noisy(size*20)
			c.Den0, c.Den1 = append(c.Den0, s0), append(c.Den1, s1)
			c.Num0 = append(c.Num0, noisy(s0*0.05))
			c.Num1 = append(c.Num1, noisy(s1*0.05*factor))
		} else {
			c.Num0 = append(c.Num0, noisy(size))
			c.Num1 = append(c.Num1, noisy(size*0.99*factor))
		}
	}
	return c
}

func sameConds(a, b []Cond) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestExplainFindsPlantedSegments(t *testing.T) {
	twoDim := []Cond{{Dim: 0, Code: 1}, {Dim: 2, Code: 3}}
	oneDim := []Cond{{Dim: 1, Code: 4}}
	threeDim := []Cond{{Dim: 0, Code: 2}, {Dim: 1, Code: 0}, {Dim: 3, Code: 5}}
	tests := []struct {
		name    string
		dims    []int
		planted map[*[]Cond]float64
		ratio   bool
		want    [][]Cond
	}{
		{"two-dimension drop", []int{4, 6, 8, 10}, map[*[]Cond]float64{&twoDim: 0.3}, false, [][]Cond{twoDim}},
		{"one dimension, not its children", []int{4, 6, 8, 10}, map[*[]Cond]float64{&oneDim: 0.6}, false, [][]Cond{oneDim}},
		{"two causes", []int{4, 6, 8, 10}, map[*[]Cond]float64{&twoDim: 0.3, &oneDim: 1.5}, false, [][]Cond{oneDim, twoDim}},
		{"three-dimension rise", []int{5, 5, 5, 8}, map[*[]Cond]float64{&threeDim: 3}, false, [][]Cond{threeDim}},
		{"ratio rate drop", []int{4, 6, 8}, map[*[]Cond]float64{&twoDim: 0.4}, true, [][]Cond{twoDim}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := plantedCube(7, tt.dims, tt.planted, tt.ratio)
			got := Explain(c, ExplainOptions{})
			if len(got) < len(tt.want) {
				t.Fatalf("Explain found %d segments %v; want %v first", len(got), got, tt.want)
			}
			for _, w := range tt.want {
				found := false
				for _, g := range got[:len(tt.want)] {
					found = found || sameConds(g.Conds, w)
				}
				if !found {
					t.Errorf("Explain top %d = %v; want %v among them", len(tt.want), got[:len(tt.want)], w)
				}
			}
		})
	}
}

func TestExplainNoChangeFindsLittle(t *testing.T) {
	c := plantedCube(3, []int{4, 6, 8, 10}, nil, false)
	for _, f := range Explain(c, ExplainOptions{}) {
		if math.Abs(f.Change) > 0.02*sumOf(c.Num0) {
			t.Errorf("Explain on noise found %v changing by %.0f (%.1f%% of the total)", f.Conds, f.Change, 100*f.Change/sumOf(c.Num0))
		}
	}
}

// Later segments are measured only on the leaves earlier ones left, so
// their changes add up without double counting.
func TestExplainMeasuresSegmentsExclusively(t *testing.T) {
	a := []Cond{{Dim: 0, Code: 1}}
	b := []Cond{{Dim: 1, Code: 2}}
	c := plantedCube(11, []int{4, 6, 8}, map[*[]Cond]float64{&a: 0.5, &b: 1.6}, false)
	got := Explain(c, ExplainOptions{MaxResults: 10})
	if len(got) < 2 {
		t.Fatalf("Explain = %v; want both planted segments", got)
	}
	taken := make([]bool, c.Len())
	for _, f := range got {
		var want float64
		for i := range taken {
			if !taken[i] && matches(c, i, f.Conds) {
				want += c.Num1[i] - c.Num0[i]
				taken[i] = true
			}
		}
		if math.Abs(f.Change-want) > 1e-6 {
			t.Errorf("segment %v change = %.1f; want %.1f over the leaves earlier segments left", f.Conds, f.Change, want)
		}
	}
}

func sumOf(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}

func BenchmarkExplainWide(b *testing.B) {
	p := []Cond{{Dim: 1, Code: 3}, {Dim: 4, Code: 17}}
	c := plantedCube(5, []int{3, 8, 24, 7, 40, 5}, map[*[]Cond]float64{&p: 0.3}, false)
	b.ReportMetric(float64(c.Len()), "leaves")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Explain(c, ExplainOptions{})
	}
}
