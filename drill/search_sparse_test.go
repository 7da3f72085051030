package drill

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// eventCube builds the cube an investigation builds from raw rows: each
// leaf's value in a period is the sum of a Poisson number of events (orders)
// with log-normal amounts, a few events per leaf and period, so many leaves
// are empty in one period. shares are each dimension's value weights; perLeaf
// is the mean number of events of an average leaf. volume and amount multiply,
// in the comparison period, the event rate and the amounts of the leaves
// matching their segment; keep multiplies the rate of every leaf (a small
// drift of the whole population).
func eventCube(seed uint64, shares [][]float64, perLeaf float64, volume, amount map[*[]Cond]float64, keep float64) *Cube {
	rng := rand.New(rand.NewPCG(seed, 3))
	c := &Cube{}
	n := 1
	for d, w := range shares {
		c.Dims = append(c.Dims, string(rune('a'+d)))
		labels := make([]string, len(w))
		for v := range labels {
			labels[v] = c.Dims[d] + string(rune('0'+v%10)) + string(rune('a'+v/10))
		}
		c.Labels = append(c.Labels, labels)
		c.Codes = append(c.Codes, nil)
		n *= len(w)
	}
	poisson := func(mean float64) int {
		// Knuth's method is fine for the small means used here.
		l, k, p := math.Exp(-mean), 0, 1.0
		for {
			p *= rng.Float64()
			if p <= l {
				return k
			}
			k++
		}
	}
	sum := func(events int, factor float64) float64 {
		s := 0.0
		for range events {
			s += factor * 50 * math.Exp(0.6*rng.NormFloat64())
		}
		return s
	}
	for i := range n {
		rest, weight := i, float64(n)*perLeaf
		codes := make([]int32, len(shares))
		for d := len(shares) - 1; d >= 0; d-- {
			codes[d] = int32(rest % len(shares[d]))
			rest /= len(shares[d])
			weight *= shares[d][codes[d]]
		}
		for d := range shares {
			c.Codes[d] = append(c.Codes[d], codes[d])
		}
		rate, amt := keep, 1.0
		for seg, f := range volume {
			if matches(c, i, *seg) {
				rate *= f
			}
		}
		for seg, f := range amount {
			if matches(c, i, *seg) {
				amt *= f
			}
		}
		c.Num0 = append(c.Num0, sum(poisson(weight), 1))
		c.Num1 = append(c.Num1, sum(poisson(weight*rate), amt))
	}
	return c
}

// shopShares are uneven value weights over six dimensions (3·3·4·4·6·12 =
// 10,368 leaves), as in an online shop's orders.
var shopShares = [][]float64{
	{0.40, 0.35, 0.25},
	{0.60, 0.25, 0.15},
	{0.25, 0.50, 0.15, 0.10},
	{0.40, 0.30, 0.20, 0.10},
	{0.34, 0.22, 0.12, 0.14, 0.08, 0.10},
	{0.30, 0.10, 0.10, 0.08, 0.08, 0.08, 0.06, 0.05, 0.05, 0.04, 0.03, 0.03},
}

func TestSearchSparseEvents(t *testing.T) {
	// A few events per leaf: most leaves are empty in one period or the
	// other, so single leaves reach the largest relative deviation on both
	// sides and their noise grows with their size like a count's, not in
	// proportion to it. A broken release loses 70% of one pair's events and
	// a price cut takes 30% off another segment's amounts, while everything
	// drifts down 1.5%: both causes must be found, and nothing else.
	lost, cheaper := conds(Cond{0, 1}, Cond{2, 2}), conds(Cond{1, 2})
	for _, seed := range []uint64{1, 2, 3} {
		c := eventCube(seed, shopShares, 1.5, map[*[]Cond]float64{&lost: 0.3}, map[*[]Cond]float64{&cheaper: 0.7}, 0.985)
		got := foundConds(Search(c, SearchOptions{MaxDepth: len(c.Dims)}))
		if len(got) != 2 || !slices.ContainsFunc(got, func(f []Cond) bool { return slices.Equal(f, lost) }) ||
			!slices.ContainsFunc(got, func(f []Cond) bool { return slices.Equal(f, cheaper) }) {
			t.Errorf("Search(sparse events, seed %d) = %v; want %v and %v", seed, got, lost, cheaper)
		}
	}
}

func TestSearchSparseEventsNoCause(t *testing.T) {
	// The same shape with nothing planted: no segment may be blamed.
	for _, seed := range []uint64{4, 5, 6} {
		c := eventCube(seed, shopShares, 1.5, nil, nil, 1)
		if got := Search(c, SearchOptions{MaxDepth: len(c.Dims)}); len(got) > 0 {
			t.Errorf("Search(sparse events, no cause, seed %d) = %v; want none", seed, foundConds(got))
		}
	}
}

func TestNoiseExponent(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 4))
	// Leaves from 1 to 10,000 in size: counts (Poisson noise), forecasts
	// (5% relative noise), and forecasts with a tenth of the leaves
	// forecast at 1 and observed at 0, whose relative deviation is 2
	// whatever the noise.
	shapes := []struct {
		name   string
		leaf   func(size float64) (b, o float64)
		lo, hi float64
	}{
		{"counts", func(size float64) (float64, float64) {
			return size, math.Max(size+math.Sqrt(size)*rng.NormFloat64(), 0)
		}, 1, 1.2},
		{"forecast", func(size float64) (float64, float64) {
			return size, size * (1 + 0.05*rng.NormFloat64())
		}, 1.9, 2},
		{"forecast with emptied leaves", func(size float64) (float64, float64) {
			if rng.IntN(10) == 0 {
				return 1, 0
			}
			return size, size * (1 + 0.05*rng.NormFloat64())
		}, 1.9, 2},
	}
	for _, sh := range shapes {
		var ms, ds []float64
		for range 5000 {
			b, o := sh.leaf(math.Exp(rng.Float64() * math.Log(10000)))
			ms, ds = append(ms, (b+o)/2), append(ds, math.Abs(o-b))
		}
		if got := noiseExponent(ms, ds); got < sh.lo || got > sh.hi {
			t.Errorf("noiseExponent(%s) = %.2f; want %.1f to %.1f", sh.name, got, sh.lo, sh.hi)
		}
	}
}
