package drill

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// noisyCube builds a full cross product of dims with the given
// cardinalities whose comparison is the baseline times (1+noise·N(0,1)),
// times factor in the leaves matching hit (when hit is not nil).
func noisyCube(seed uint64, cards []int, noise, factor float64, hit []Cond) *Cube {
	c := synthCube(seed, cards, false, 1)
	rng := rand.New(rand.NewPCG(seed, 2))
	for i := range c.Num0 {
		scale := 1 + noise*rng.NormFloat64()
		if hit != nil && matches(c, i, hit) {
			scale *= factor
		}
		c.Num1[i] = math.Max(c.Num0[i]*scale, 0)
	}
	return c
}

func TestSearchFindsCauseHiddenInLeafNoise(t *testing.T) {
	// Every leaf is off by 25% on average and a few leaves were forecast
	// at almost nothing (as when a forecast is clipped at zero), so noisy
	// leaves reach further than the halved leaves of the cause; only
	// their sum gives the cause away, and its parents (a=2, b=1) and
	// children must not be blamed instead.
	cause := conds(Cond{0, 2}, Cond{1, 1})
	for _, seed := range []uint64{1, 2, 3} {
		c := noisyCube(seed, []int{6, 5, 40}, 0.25, 0.5, cause)
		for _, i := range []int{5, 333, 1000} {
			c.Num0[i] *= 0.01
		}
		got := Search(c, SearchOptions{})
		if len(got) == 0 || !reflect.DeepEqual(got[0].Conds, cause) {
			t.Errorf("Search(seed %d) = %v; want %v first", seed, foundConds(got), cause)
		}
	}
}

func TestSearchPureNoiseBlamesNoSegment(t *testing.T) {
	// Without a cause, no segment above the leaves may stand out.
	for _, seed := range []uint64{4, 5, 6} {
		c := noisyCube(seed, []int{6, 5, 40}, 0.25, 1, nil)
		for _, f := range Search(c, SearchOptions{}) {
			if len(f.Conds) < 3 {
				t.Errorf("Search(noise, seed %d) blamed %v; want no segment above the leaves", seed, f.Conds)
			}
		}
	}
}

func TestSearchSideFromSegments(t *testing.T) {
	// One leaf forecast at almost nothing rises the most of all leaves
	// (relative deviation 2), but the cause is a=1 falling by 40%.
	c := noisyCube(9, []int{4, 5, 6, 3}, 0.02, 0.6, conds(Cond{0, 1}))
	c.Num0[0], c.Num1[0] = 0.001, 50
	lv := prepareLeaves(c, 0)
	if !lv.up {
		t.Fatalf("leaves alone chose a fall; the test needs them to mislead")
	}
	s := newSearcher(c, lv, SearchOptions{}.withDefaults(len(c.Dims), false))
	if got := s.segmentSide(); got != -1 {
		t.Errorf("segmentSide = %d; want -1", got)
	}
	got := Search(c, SearchOptions{})
	if len(got) == 0 || !reflect.DeepEqual(got[0].Conds, conds(Cond{0, 1})) {
		t.Errorf("Search = %v; want [a=1] first", foundConds(got))
	}
}

func TestNoiseModelSpread(t *testing.T) {
	// Half the leaves are off by 10%, half by 30%, one is broken: the
	// median absolute relative deviation ignores the broken one.
	lv := &leaves{}
	for i := range 101 {
		b, o := 100.0, 110.0
		if i%2 == 1 {
			o = 130
		}
		if i == 100 {
			o = 1000
		}
		lv.b, lv.o = append(lv.b, b), append(lv.o, o)
	}
	lv.m, lv.v = make([]float64, len(lv.b)), make([]float64, len(lv.b))
	noiseModel(lv)
	// Sorted, the deviations are 50 of 10/105, 50 of 30/115 and the
	// broken leaf's: the median is a 30% leaf's.
	sigma := (30.0 / 115) / 0.6745
	if want := sigma * sigma * 115 * 115; math.Abs(lv.v[1]-want) > 1e-9*want {
		t.Errorf("noiseModel variance of a 30%% leaf = %v; want %v", lv.v[1], want)
	}
	if lv.m[0] != 105 {
		t.Errorf("noiseModel exposure = %v; want 105", lv.m[0])
	}
}

func TestRollupMatchesBuild(t *testing.T) {
	c := noisyCube(3, []int{9, 4, 3, 5}, 0.1, 0.5, conds(Cond{0, 1}))
	lv := prepareLeaves(c, 0)
	s := newSearcher(c, lv, SearchOptions{}.withDefaults(len(c.Dims), false))
	// Explain some leaves first so that the aggregates cover only part
	// of the cube.
	s.buildLayer(s.layers[2])
	s.remove(candidate{cb: s.layers[2][0], slot: 7})
	s.buildLayer(s.layers[1])
	if s.base == nil || !s.base.ready {
		t.Fatalf("base cuboid = %v; want one built over the narrow dimensions", s.base)
	}
	for _, rolled := range s.layers[1] {
		direct := newCuboid(c, rolled.dims)
		direct.build(c, lv, s.active)
		for slot := range direct.agg {
			w, g := direct.agg[slot], rolled.agg[slot]
			if math.Abs(w.ep-g.ep) > 1e-9 || math.Abs(w.v-g.v) > 1e-9 || w.nAbn != g.nAbn {
				t.Errorf("rolled-up cuboid %v slot %d = %+v; want %+v", rolled.dims, slot, g, w)
			}
		}
	}
}

func TestEvenRejectsParentsOfCause(t *testing.T) {
	// a=2 and b=1 hold the cause a=2 AND b=1 but moved unevenly: only
	// that part of them fell. The cause itself moved evenly.
	cause := conds(Cond{0, 2}, Cond{1, 1})
	c := noisyCube(8, []int{6, 5, 40}, 0.05, 0.5, cause)
	s := newSearcher(c, prepareLeaves(c, -1), SearchOptions{}.withDefaults(len(c.Dims), false))
	for _, layer := range s.layers {
		s.buildLayer(layer)
	}
	tests := []struct {
		conds []Cond
		want  bool
	}{
		{conds(Cond{0, 2}), false},
		{conds(Cond{1, 1}), false},
		{cause, true},
	}
	for _, tt := range tests {
		cb := s.cuboidFor(tt.conds)
		slot := cb.slotOf(tt.conds)
		z := zScore(&cb.agg[slot])
		if z < noiseZMin {
			t.Fatalf("z of %v = %v; want it to stand out", tt.conds, z)
		}
		if got := s.even(cb, slot, z); got != tt.want {
			t.Errorf("even(%v) = %v; want %v", tt.conds, got, tt.want)
		}
	}
}

func TestSearchDeterministicInParallel(t *testing.T) {
	// Large enough for cuboids to be built side by side.
	c := noisyCube(12, []int{10, 12, 10, 50}, 0.1, 0.6, conds(Cond{1, 4}, Cond{3, 7}))
	if c.Len() < parallelLeaves {
		t.Fatalf("cube has %d leaves; want at least %d", c.Len(), parallelLeaves)
	}
	first := Search(c, SearchOptions{})
	if len(first) == 0 || !reflect.DeepEqual(first[0].Conds, conds(Cond{1, 4}, Cond{3, 7})) {
		t.Fatalf("Search = %v; want [b=4 d=7] first", foundConds(first))
	}
	for range 3 {
		if again := Search(c, SearchOptions{}); !reflect.DeepEqual(again, first) {
			t.Fatalf("Search = %v; want the same as the first run %v", again, first)
		}
	}
}
