package drill

import (
	"math"
	"sort"
)

// searcher is the state of one Search: the leaves not yet explained and
// the cuboids of every layer, built when the walk first reaches them.
type searcher struct {
	c            *Cube
	lv           *leaves
	opt          SearchOptions
	active       []bool
	layers       [][]*cuboid // layers[k-1] holds the cuboids of k dimensions
	anomalyTotal float64     // summed change of the anomalous leaves
	totalChange  float64     // for Share
	ratioDen1    float64     // overall comparison denominator (ratio cubes)
	floor        float64     // smallest change worth a segment (additive cubes)
	// base, when not nil, is a cuboid over every dimension but the one
	// with the most values, far smaller than the cube: the cuboids
	// without that dimension are rolled up from it.
	base *cuboid
}

// riskPrior is added to a segment's normal weight: half a normal leaf, so
// that a single strongly anomalous leaf (weight near 1) still passes the
// default purity of 0.5 while a weakly anomalous one does not.
const riskPrior = 0.5

// maxSearchElements caps the elements of all the cuboids a search may
// hold at once (each about 56 bytes): a cube of many dimensions over
// thousands of leaves has more cuboids in its deep layers than memory
// holds, and its search stops at the deepest layer that fits (4 of 14
// dimensions over 10,000 leaves). The benchmarks' cubes fit whole.
const maxSearchElements = 4 << 20

// SearchDepth is the largest number of dimensions a segment Search
// returns can have over c: opt.MaxDepth, or fewer when the cuboids of
// deeper layers would not fit in memory (maxSearchElements).
func SearchDepth(c *Cube, opt SearchOptions) int {
	if c == nil || len(c.Dims) == 0 {
		return 0
	}
	return searchDepth(c, opt.withDefaults(len(c.Dims), c.Ratio()).MaxDepth)
}

func searchDepth(c *Cube, maxDepth int) int {
	elements := 0.0
	for k := 1; k <= maxDepth; k++ {
		for _, dims := range combinations(len(c.Dims), k) {
			elements += elementBound(c, dims)
		}
		if k > 1 && elements > maxSearchElements {
			return k - 1 // a deeper layer than memory allows
		}
	}
	return maxDepth
}

// elementBound is the most elements the cuboid over dims holds: every
// combination of its dimensions' values when they are few enough to be
// kept in a slice (denseLimit), else at most one per leaf, in a map that
// costs about three times as much.
func elementBound(c *Cube, dims []int) float64 {
	size := 1.0
	for _, d := range dims {
		size *= float64(max(len(c.Labels[d]), 1))
	}
	if size <= denseLimit {
		return size
	}
	return 3 * math.Min(size, float64(c.Len()))
}

// candidate is a segment chosen by best.
type candidate struct {
	cb    *cuboid
	slot  int32
	score float64
}

func newSearcher(c *Cube, lv *leaves, opt SearchOptions) *searcher {
	s := &searcher{c: c, lv: lv, opt: opt, active: make([]bool, c.Len())}
	for i := range s.active {
		s.active[i] = true
		if lv.abn[i] {
			s.anomalyTotal += lv.ep[i]
		}
	}
	for k := 1; k <= searchDepth(c, opt.MaxDepth); k++ {
		var layer []*cuboid
		for _, dims := range combinations(len(c.Dims), k) {
			layer = append(layer, newCuboid(c, dims))
		}
		s.layers = append(s.layers, layer)
	}
	s.base = newBase(c)
	if c.Ratio() {
		var n0, d0, n1 float64
		for i := range c.Len() {
			n0 += c.Num0[i]
			d0 += c.Den0[i]
			n1 += c.Num1[i]
			s.ratioDen1 += c.Den1[i]
		}
		if d0 != 0 && s.ratioDen1 != 0 {
			s.totalChange = n1/s.ratioDen1 - n0/d0
		}
	} else {
		for i := range c.Len() {
			s.totalChange += c.Num1[i] - c.Num0[i]
		}
		s.floor = opt.MinExplained * math.Abs(s.totalChange)
	}
	return s
}

// remainingAnomaly is the summed change of anomalous leaves not yet
// covered by a found segment.
func (s *searcher) remainingAnomaly() float64 {
	var sum float64
	for i, on := range s.active {
		if on && s.lv.abn[i] {
			sum += s.lv.ep[i]
		}
	}
	return sum
}

// best walks the layers and returns, from the shallowest layer that has
// one, the segment with the largest change among those whose leaves are
// anomalous enough.
func (s *searcher) best() (candidate, bool) {
	floor := s.opt.MinExplained * s.anomalyTotal
	if !s.c.Ratio() && s.remainingAnomaly() < floor {
		// Too little anomalous change is left for a pure segment;
		// only the noise search can still find one.
		floor = math.Inf(1)
	}
	for _, layer := range s.layers {
		s.buildLayer(layer)
		var found candidate
		ok := false
		for _, cb := range layer {
			for _, slot := range s.ranked(cb, floor) {
				score := s.risk(cb, slot)
				if score >= s.opt.MinPurity {
					found = candidate{cb: cb, slot: slot, score: score}
					ok = true
					floor = cb.agg[slot].ep
					break
				}
			}
		}
		if ok {
			found = s.generalize(found)
			return found, true
		}
		if !s.c.Ratio() {
			if cand, ok := s.bestNoise(layer); ok {
				return cand, true
			}
		}
	}
	return candidate{}, false
}

// ranked lists the slots of cb that hold an anomalous leaf, whose change
// exceeds floor and whose purity could pass, largest change first.
func (s *searcher) ranked(cb *cuboid, floor float64) []int32 {
	var out []int32
	for i := range cb.agg {
		a := &cb.agg[i]
		if a.nAbn == 0 || a.ep <= floor {
			continue
		}
		// The purity from the aggregates bounds the risk score from
		// above; skipping hopeless segments here saves a scan of their
		// leaves.
		if a.abnW/(a.abnW+a.normW+riskPrior) < s.opt.MinPurity {
			continue
		}
		out = append(out, int32(i))
	}
	sort.Slice(out, func(i, j int) bool {
		ai, aj := cb.agg[out[i]].ep, cb.agg[out[j]].ep
		if ai != aj {
			return ai > aj
		}
		return out[i] < out[j]
	})
	return out
}

// risk scores a segment: the weighted share of anomalous leaves, less how
// unevenly its leaves moved (a real root cause moves all its leaves by
// about the same factor, so scaling its baseline by the segment's overall
// change should explain each leaf).
func (s *searcher) risk(cb *cuboid, slot int32) float64 {
	a := cb.agg[slot]
	high := a.abnW / (a.abnW + a.normW + riskPrior)
	if s.c.Ratio() {
		// Leaf counts are too noisy to judge whether a segment's leaves
		// moved together; purity by volume carries the decision.
		return high
	}
	var sumB, sumO float64
	idx := cb.leavesOf(s.c, slot)
	for _, i := range idx {
		if s.active[i] && s.lv.b[i] != 0 && s.lv.o[i] != 0 {
			sumB += s.lv.b[i]
			sumO += s.lv.o[i]
		}
	}
	low := 0.0
	if sumB != 0 {
		scale := sumO / sumB
		var w1, w2 float64
		for _, i := range idx {
			b, o := s.lv.b[i], s.lv.o[i]
			if !s.active[i] || b == 0 || o == 0 {
				continue
			}
			e := b * scale
			if e+o != 0 {
				w1 += math.Abs(2 * (e - o) / (e + o))
			}
			w2 += math.Abs(s.lv.dev[i])
		}
		if w2 != 0 {
			low = w1 / w2
		}
	}
	return high - low
}

// remove marks the leaves of cand explained and updates every built
// cuboid.
func (s *searcher) remove(cand candidate) {
	for _, i := range cand.cb.leavesOf(s.c, cand.slot) {
		if !s.active[i] {
			continue
		}
		s.active[i] = false
		for _, layer := range s.layers {
			for _, cb := range layer {
				s.drop(cb, int(i))
			}
		}
		if s.base != nil {
			s.drop(s.base, int(i))
		}
	}
}

// drop takes leaf i out of cb's aggregates if cb is built.
func (s *searcher) drop(cb *cuboid, i int) {
	if cb.ready {
		if sl := cb.slot(s.c, i, false); sl >= 0 {
			cb.add(s.lv, i, sl, -1)
		}
	}
}

// found converts a candidate into the caller's terms, measuring its
// change on the raw cube (all of its leaves, explained before or not).
func (s *searcher) found(cand candidate) Found {
	f := Found{Conds: cand.cb.conds(s.c, cand.slot), Score: cand.score}
	idx := cand.cb.leavesOf(s.c, cand.slot)
	c := s.c
	if c.Ratio() {
		var n0, d0, n1, d1 float64
		for _, i := range idx {
			n0 += c.Num0[i]
			d0 += c.Den0[i]
			n1 += c.Num1[i]
			d1 += c.Den1[i]
		}
		if d0 != 0 && s.ratioDen1 != 0 {
			f.Change = (n1 - d1*n0/d0) / s.ratioDen1
		}
	} else {
		for _, i := range idx {
			f.Change += c.Num1[i] - c.Num0[i]
		}
	}
	if s.totalChange != 0 {
		f.Share = f.Change / s.totalChange
	}
	return f
}

// siblingShare is how large, relative to a segment's own relative
// change, the relative change of the rest of a parent must be for the
// parent to be blamed instead.
const siblingShare = 0.5

// generalize replaces cand by a parent (one condition fewer) while the
// rest of that parent moved in the same direction by at least
// siblingShare of cand's relative change: a root cause moves all of its
// leaves by about the same factor, so a segment whose siblings moved
// alike is a fragment of a larger cause whose leaves were too noisy to
// pass the purity test one by one.
func (s *searcher) generalize(cand candidate) candidate {
	for len(cand.cb.dims) > 1 {
		a := cand.cb.agg[cand.slot]
		if a.base <= 0 {
			return cand
		}
		rate := a.ep / a.base
		conds := cand.cb.conds(s.c, cand.slot)
		var best candidate
		bestRatio := siblingShare
		for j := range conds {
			parentConds := append(append([]Cond(nil), conds[:j]...), conds[j+1:]...)
			pcb := s.cuboidFor(parentConds)
			if pcb == nil || !pcb.ready {
				continue
			}
			ps := pcb.slotOf(parentConds)
			if ps < 0 {
				continue
			}
			p := pcb.agg[ps]
			sibBase, sibEP := p.base-a.base, p.ep-a.ep
			if sibBase <= 0 {
				continue
			}
			if r := (sibEP / sibBase) / rate; r >= bestRatio {
				bestRatio = r
				best = candidate{cb: pcb, slot: ps, score: cand.score}
			}
		}
		if best.cb == nil {
			return cand
		}
		cand = best
	}
	return cand
}

// cuboidFor returns the cuboid whose dimensions are those of conds.
func (s *searcher) cuboidFor(conds []Cond) *cuboid {
	if len(conds) == 0 || len(conds) > len(s.layers) {
		return nil
	}
next:
	for _, cb := range s.layers[len(conds)-1] {
		for j, d := range cb.dims {
			if conds[j].Dim != d {
				continue next
			}
		}
		return cb
	}
	return nil
}
