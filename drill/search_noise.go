package drill

import (
	"math"
	"slices"
	"sort"
)

// Besides counting anomalous leaves, additive metrics are searched by
// judging each segment's summed change against the noise expected at its
// size: a cause that moves fifty leaves by 30% is plain in their sum even
// when the forecast error of single leaves is as large as 30%.

// noiseZMin is the smallest excess, in standard errors of the noise, for
// which a segment can be blamed, whatever the other side of the layer
// suggests.
const noiseZMin = 6

// noiseSpread is how uneven a segment's parts may be, relative to its
// excess: split by any further dimension, the parts' squared deviations
// from the segment's common relative change, in standard errors and less
// what noise explains, must stay within (noiseSpread·z)². A real cause
// moves all of its parts by about the same factor, while a segment that
// merely contains a cause has one part carrying the change and the others
// none.
const noiseSpread = 0.5

// noiseSample is about how many leaves noiseModel looks at to estimate
// the spread of forecast errors.
const noiseSample = 1 << 16

// noiseModel fills each leaf's exposure (the mean of its expected and
// observed value) and its noise variance, s²·m^p for exposure m (Taylor's
// power law). A forecast's errors are relative (p = 2: a leaf's noise is a
// common relative deviation times its exposure), but a leaf that sums a
// few events (orders, sessions) has a count's noise, which grows like its
// size (p = 1): the relative noise of its small leaves, taken for every
// leaf, would make a large segment's sum look far noisier than it is. The
// exponent is fitted from how the leaves' deviations grow with their size
// (noiseExponent); the scale s robustly (median absolute deviation) so that
// a minority of broken leaves inflates neither.
func noiseModel(lv *leaves) {
	// A median needs no more than a systematic sample of the leaves.
	step := max(1, len(lv.b)/noiseSample)
	var ms, ds []float64
	for i := range lv.b {
		lv.m[i] = (lv.b[i] + lv.o[i]) / 2
		if i%step == 0 && lv.m[i] > 0 {
			ms = append(ms, lv.m[i])
			ds = append(ds, math.Abs(lv.o[i]-lv.b[i]))
		}
	}
	p := noiseExponent(ms, ds)
	devs := make([]float64, len(ms))
	for i := range ms {
		devs[i] = ds[i] / math.Pow(ms[i], p/2)
	}
	s := 0.0
	if len(devs) > 0 {
		sort.Float64s(devs)
		s = devs[len(devs)/2] / 0.6745 // median of |N(0, 1)|
	}
	// A perfect forecast still leaves rounding; the floor keeps every
	// standard error positive so that scores stay comparable.
	s = math.Max(s, 1e-6)
	for i, m := range lv.m {
		if p == 2 {
			lv.v[i] = s * s * m * m
		} else {
			lv.v[i] = s * s * math.Pow(m, p)
		}
	}
}

// noiseBins is how many groups of leaves, by size, noiseExponent compares.
const noiseBins = 8

// noiseExponent returns the exponent p in [1, 2] of the power law by which
// the leaves' absolute deviations ds grow with their exposures ms, from how
// the median relative deviation falls over groups of leaves of similar size:
// p = 2 + 2·slope of log median |d|/m on log median m, by least squares.
// Medians keep the leaves of a cause, which are few, from bending it. A
// group whose median leaf is empty in one period is left out: its median
// sits at the bound of relative deviations (2) whatever the noise, as do the
// small leaves of a few events and, in forecasts, leaves forecast at 1 and
// observed at 0. Without enough spread in size to tell, p is 2 (relative
// errors).
func noiseExponent(ms, ds []float64) float64 {
	idx := make([]int, len(ms))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return ms[idx[a]] < ms[idx[b]] })
	var xs, ys []float64
	for g := range noiseBins {
		lo, hi := g*len(idx)/noiseBins, (g+1)*len(idx)/noiseBins
		if hi-lo < 3 {
			continue
		}
		bm, br := make([]float64, 0, hi-lo), make([]float64, 0, hi-lo)
		for _, i := range idx[lo:hi] {
			bm, br = append(bm, ms[i]), append(br, ds[i]/ms[i])
		}
		sort.Float64s(bm)
		sort.Float64s(br)
		if m, r := bm[len(bm)/2], br[len(br)/2]; r > 0 && r < 2*(1-1e-9) {
			xs, ys = append(xs, math.Log(m)), append(ys, math.Log(r))
		}
	}
	if len(xs) < 2 {
		return 2
	}
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx /= float64(len(xs))
	my /= float64(len(xs))
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	// Sizes within a factor of about 1.5 of each other cannot tell the
	// exponent.
	if sxx < 0.1*float64(len(xs)) {
		return 2
	}
	return math.Min(math.Max(2+2*sxy/sxx, 1), 2)
}

// zScore is a segment's excess over its noise in standard errors.
func zScore(a *elemAgg) float64 {
	if a.v <= 0 {
		return 0
	}
	return a.ep / math.Sqrt(a.v)
}

// bestNoise returns, from one layer, the segment with the largest change
// whose excess stands out from the layer's noise and whose parts moved
// alike. It backs up the anomalous-leaf search: a layer where no segment
// is pure enough may still hold a cause whose leaves are each within the
// noise.
func (s *searcher) bestNoise(layer []*cuboid) (candidate, bool) {
	// The most extreme segment on the other side shows how far noise
	// alone reaches in this layer; heavy-tailed forecast errors push it
	// well past noiseZMin for small segments.
	s.buildLayer(layer)
	reach := 0.0
	for _, cb := range layer {
		for i := range cb.agg {
			reach = math.Max(reach, -zScore(&cb.agg[i]))
		}
	}
	limit := math.Max(noiseZMin, reach)
	var cands []candidate
	for _, cb := range layer {
		for i := range cb.agg {
			a := &cb.agg[i]
			if a.ep <= s.floor {
				continue
			}
			if z := zScore(a); z > limit {
				cands = append(cands, candidate{cb: cb, slot: int32(i), score: z})
			}
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		return cands[i].cb.agg[cands[i].slot].ep > cands[j].cb.agg[cands[j].slot].ep
	})
	for _, cd := range cands {
		if s.even(cd.cb, cd.slot, cd.score) {
			// Report how far beyond the noise the segment reaches, on
			// the same 0..1 scale as purity.
			cd.score = 1 - limit/cd.score
			return cd, true
		}
	}
	return candidate{}, false
}

// even reports whether the active leaves of a segment moved alike: split
// by any further dimension, its parts' changes must fit the segment's
// common relative change up to noise, or up to noiseSpread of the
// segment's excess z.
func (s *searcher) even(cb *cuboid, slot int32, z float64) bool {
	a := &cb.agg[slot]
	if a.m <= 0 {
		return true
	}
	rate := a.ep / a.m
	conds := cb.conds(s.c, slot)
	allowed := noiseSpread * noiseSpread * z * z
	var idx []int32 // the segment's leaves, listed on first need
	for d := range s.c.Dims {
		if slices.ContainsFunc(conds, func(c Cond) bool { return c.Dim == d }) {
			continue
		}
		parts, ok := s.childParts(conds, d)
		if !ok {
			if idx == nil {
				idx = cb.leavesOf(s.c, slot)
			}
			parts = s.leafParts(idx, d)
		}
		chi, df := 0.0, -1.0
		for i := range parts {
			p := &parts[i]
			if p.v <= 0 {
				continue
			}
			r := p.ep - rate*p.m
			chi += r * r / p.v
			df++
		}
		if chi-df > allowed {
			return false
		}
	}
	return true
}

// childParts returns the aggregates of the segment conds split by
// dimension d, one per value of d, from the built cuboid of the next
// layer; false if that cuboid is not built.
func (s *searcher) childParts(conds []Cond, d int) ([]elemAgg, bool) {
	child := make([]Cond, 0, len(conds)+1)
	at := len(conds)
	for j, c := range conds {
		if c.Dim > d && at == len(conds) {
			at = j
		}
	}
	child = append(append(append(child, conds[:at]...), Cond{Dim: d}), conds[at:]...)
	ccb := s.cuboidFor(child)
	if ccb == nil || !ccb.ready {
		return nil, false
	}
	parts := make([]elemAgg, max(len(s.c.Labels[d]), 1))
	for code := range parts {
		child[at].Code = int32(code)
		if sl := ccb.slotOf(child); sl >= 0 {
			parts[code] = ccb.agg[sl]
		}
	}
	return parts, true
}

// leafParts aggregates the active leaves idx by their value of d.
func (s *searcher) leafParts(idx []int32, d int) []elemAgg {
	parts := make([]elemAgg, max(len(s.c.Labels[d]), 1))
	codes := s.c.Codes[d]
	for _, i := range idx {
		if s.active[i] {
			p := &parts[codes[i]]
			p.ep += s.lv.ep[i]
			p.m += s.lv.m[i]
			p.v += s.lv.v[i]
		}
	}
	return parts
}

// segmentSide returns +1 (rise) or -1 (fall) for the side on which some
// segment above the leaves stands out from the noise clearly more than
// any segment on the other side, or 0 when neither does. A segment must
// stand out twice as far as a blamed one to overrule the leaves, unless
// the leaves could not tell (see leaves.tied). It builds the cuboids of
// those layers, which the search needs anyway.
func (s *searcher) segmentSide() int {
	depth := min(len(s.layers), len(s.c.Dims)-1)
	if depth == 0 {
		depth = len(s.layers)
	}
	hi, lo := 0.0, 0.0 // most extreme z on the current side and the other
	// Deepest first, so that shallower layers are rolled up from it.
	for l := depth - 1; l >= 0; l-- {
		s.buildLayer(s.layers[l])
	}
	for _, layer := range s.layers[:depth] {
		for _, cb := range layer {
			for i := range cb.agg {
				z := zScore(&cb.agg[i])
				hi, lo = math.Max(hi, z), math.Max(lo, -z)
			}
		}
	}
	cur := 1
	if !s.lv.up {
		cur = -1
	}
	need := 2.0 * noiseZMin
	if s.lv.tied {
		need = noiseZMin
	}
	switch {
	case hi >= need && hi >= sideMargin*lo:
		return cur
	case lo >= need && lo >= sideMargin*hi:
		return -cur
	}
	return 0
}

// sideMargin is how much further one side's segments must reach than the
// other's for segmentSide to choose it.
const sideMargin = 1.25
