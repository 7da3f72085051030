package drill

import (
	"math"
	"sort"
)

// ExplainOptions tunes Explain. The zero value is ready to use.
type ExplainOptions struct {
	MaxDepth   int     // largest number of dimensions in a segment (default 3)
	MaxResults int     // most segments returned (default 5)
	MinShare   float64 // smallest excess, as a share of the total change, worth reporting (default 0.03)
	// Descend is how much of a segment's excess change a narrower segment
	// inside it must carry to replace it outright (default 0.85).
	Descend float64
	// MinZ is the smallest excess, in standard errors, for a segment to be
	// considered at all (default 3).
	MinZ float64
}

func (o ExplainOptions) withDefaults(dims int) ExplainOptions {
	if o.MaxDepth <= 0 {
		o.MaxDepth = 3
	}
	o.MaxDepth = min(o.MaxDepth, dims)
	if o.MaxResults <= 0 {
		o.MaxResults = 5
	}
	if o.MinShare <= 0 {
		o.MinShare = 0.03
	}
	if o.Descend <= 0 {
		o.Descend = 0.85
	}
	if o.MinZ <= 0 {
		o.MinZ = 3
	}
	return o
}

// Explain finds the few segments whose change stands out from the rest of
// the population: the question an analyst asks of a metric that moved
// between two periods, where (unlike a forecast residual) the baseline is
// itself noisy and the whole population may drift.
//
// A segment's excess change is its change minus what it would have done at
// the rest of the population's rate:
//
//	excess(s) = Δs − B(s) · (ΔT − Δs) / (BT − B(s))
//
// where B is the baseline and Δ the change, of the segment (s) and of the
// total (T). Its noise is estimated from the leaves: a leaf's deviation from
// the population's rate has a variance of about k·B(leaf), with k the median
// of deviation²/B over the leaves (k is 1 for Poisson counts; for sums of
// money it absorbs the spread of the amounts), so a segment's excess has a
// standard error of about sqrt(k·B(s)).
//
// Among one- and two-dimension segments whose excess is at least MinZ
// standard errors, Explain takes the one with the largest absolute excess,
// then narrows it while a segment inside it (one more dimension) carries
// its excess: at least Descend of it, or all of it but for noise (the part
// outside the narrower segment is within two standard errors of zero). So a
// cause in android AND version 5.2 is reported as that, not as android. The
// chosen segment's leaves are removed and the search repeats, so each
// segment's Change counts only leaves no earlier segment took.
//
// Ratio cubes are turned into an additive problem first (each leaf's
// expected comparison numerator is its comparison denominator times its
// baseline ratio), so only changes of rate stand out; mix shifts are the
// decomposition's job.
func Explain(c *Cube, opt ExplainOptions) []Found {
	if c == nil || c.Len() == 0 || len(c.Dims) == 0 {
		return nil
	}
	opt = opt.withDefaults(len(c.Dims))
	base, cmp := make([]float64, c.Len()), make([]float64, c.Len())
	copy(cmp, c.Num1)
	if c.Ratio() {
		for i := range base {
			if c.Den0[i] > 0 {
				base[i] = c.Den1[i] * c.Num0[i] / c.Den0[i]
			} else {
				base[i] = c.Num1[i] // no baseline rate: nothing to compare
			}
		}
	} else {
		copy(base, c.Num0)
	}
	var totalB, totalC float64
	for i := range base {
		totalB += base[i]
		totalC += cmp[i]
	}
	totalChange := totalC - totalB
	if totalChange == 0 {
		return nil
	}
	active := make([]bool, c.Len())
	for i := range active {
		active[i] = true
	}
	var out []Found
	k := 0.0 // the leaf noise, estimated once over every leaf
	for len(out) < opt.MaxResults {
		e := explainer{c: c, base: base, cmp: cmp, active: active, minZ: opt.MinZ, k: k}
		e.totals()
		k = e.k
		best, ok := e.best(min(2, opt.MaxDepth))
		if !ok || math.Abs(best.excess) < opt.MinShare*math.Abs(totalChange) {
			break
		}
		for len(best.conds) < opt.MaxDepth {
			child, ok := e.bestChild(best)
			if !ok || child.excess*best.excess <= 0 {
				break
			}
			if math.Abs(child.excess) < opt.Descend*math.Abs(best.excess) && math.Abs(e.outside(best, child)) > 2*e.sd(best.b-child.b) {
				break
			}
			best = child
		}
		change := best.c - best.b
		if c.Ratio() {
			change = e.ratioEffect(best)
		}
		out = append(out, Found{Conds: best.conds, Change: change, Share: change / ratioAware(c, totalChange, e), Score: best.excess / totalChange})
		for i := range active {
			if active[i] && matches(c, i, best.conds) {
				active[i] = false
			}
		}
	}
	return out
}

// ratioAware returns the total change in the units Found.Change uses: the
// change of the overall ratio for ratio cubes.
func ratioAware(c *Cube, additive float64, e explainer) float64 {
	if !c.Ratio() {
		return additive
	}
	var n0, d0, n1, d1 float64
	for i := range c.Num0 {
		n0, d0, n1, d1 = n0+c.Num0[i], d0+c.Den0[i], n1+c.Num1[i], d1+c.Den1[i]
	}
	if d0 == 0 || d1 == 0 {
		return additive
	}
	return n1/d1 - n0/d0
}

type explainer struct {
	c         *Cube
	base, cmp []float64
	active    []bool
	tb, tc    float64
	k         float64 // variance of a leaf's deviation per unit of baseline
	minZ      float64
}

// sd is the standard error of the excess of a segment with baseline b.
func (e *explainer) sd(b float64) float64 { return math.Sqrt(e.k * math.Max(math.Abs(b), 1e-12)) }

// seg is a segment with its baseline and comparison sums and its excess.
type seg struct {
	conds  []Cond
	b, c   float64
	excess float64
}

func (e *explainer) totals() {
	e.tb, e.tc = 0, 0
	for i, a := range e.active {
		if a {
			e.tb += e.base[i]
			e.tc += e.cmp[i]
		}
	}
	if e.k > 0 {
		return
	}
	g := 0.0
	if e.tb != 0 {
		g = (e.tc - e.tb) / e.tb
	}
	var ratios []float64
	for i, a := range e.active {
		if a && e.base[i] > 0 {
			d := e.cmp[i] - e.base[i]*(1+g)
			ratios = append(ratios, d*d/e.base[i])
		}
	}
	sort.Float64s(ratios)
	e.k = 1
	if n := len(ratios); n > 0 && ratios[n/2] > 0 {
		e.k = ratios[n/2]
	}
}

func (e *explainer) score(s *seg) {
	restB := e.tb - s.b
	d := s.c - s.b
	rate := 0.0
	if restB != 0 {
		rate = ((e.tc - e.tb) - d) / restB
	}
	s.excess = d - s.b*rate
}

// outside is the excess change of the part of parent outside child,
// against the rate of the population outside parent.
func (e *explainer) outside(parent, child seg) float64 {
	restB := e.tb - parent.b
	rate := 0.0
	if restB != 0 {
		rate = ((e.tc - e.tb) - (parent.c - parent.b)) / restB
	}
	return (parent.c - parent.b) - (child.c - child.b) - (parent.b-child.b)*rate
}

// cuboid aggregates the active leaves inside within by the given dims.
func (e *explainer) cuboid(dims []int, within []Cond) []seg {
	// Index segments densely by their codes when the cuboid is small enough,
	// which it is for one and two dimensions of up to thousands of values.
	size := 1
	for _, d := range dims {
		size *= max(len(e.c.Labels[d]), 1)
		if size > 1<<22 {
			size = 0
			break
		}
	}
	var dense []int32
	var sparse map[int]int32
	if size > 0 {
		dense = make([]int32, size)
		for i := range dense {
			dense[i] = -1
		}
	} else {
		sparse = map[int]int32{}
	}
	var out []seg
	for i, a := range e.active {
		if !a || !matches(e.c, i, within) {
			continue
		}
		key := 0
		for _, d := range dims {
			key = key*max(len(e.c.Labels[d]), 1) + int(e.c.Codes[d][i])
		}
		var k int32
		var ok bool
		if dense != nil {
			k = dense[key]
			ok = k >= 0
		} else {
			k, ok = sparse[key]
		}
		if !ok {
			k = int32(len(out))
			if dense != nil {
				dense[key] = k
			} else {
				sparse[key] = k
			}
			conds := append([]Cond(nil), within...)
			for _, d := range dims {
				conds = append(conds, Cond{Dim: d, Code: e.c.Codes[d][i]})
			}
			sort.Slice(conds, func(a, b int) bool { return conds[a].Dim < conds[b].Dim })
			out = append(out, seg{conds: conds})
		}
		out[k].b += e.base[i]
		out[k].c += e.cmp[i]
	}
	for i := range out {
		e.score(&out[i])
	}
	return out
}

// best returns the segment of up to depth dimensions with the largest
// absolute excess; ties go to fewer dimensions.
func (e *explainer) best(depth int) (seg, bool) {
	var best seg
	found := false
	consider := func(s seg) {
		if math.Abs(s.excess) < e.minZ*e.sd(s.b) {
			return
		}
		if !found || math.Abs(s.excess) > math.Abs(best.excess)*(1+1e-9) {
			best, found = s, true
		}
	}
	n := len(e.c.Dims)
	for d := 0; d < n; d++ {
		for _, s := range e.cuboid([]int{d}, nil) {
			consider(s)
		}
	}
	if depth >= 2 {
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				for _, s := range e.cuboid([]int{a, b}, nil) {
					consider(s)
				}
			}
		}
	}
	return best, found
}

// bestChild returns the segment with one more dimension inside s that has
// the largest absolute excess.
func (e *explainer) bestChild(s seg) (seg, bool) {
	used := map[int]bool{}
	for _, c := range s.conds {
		used[c.Dim] = true
	}
	var best seg
	found := false
	for d := range e.c.Dims {
		if used[d] {
			continue
		}
		for _, ch := range e.cuboid([]int{d}, s.conds) {
			if !found || math.Abs(ch.excess) > math.Abs(best.excess) {
				best, found = ch, true
			}
		}
	}
	return best, found
}

// ratioEffect is the change of the overall ratio that the segment's own
// rate change caused: its excess numerator over the comparison denominator.
func (e *explainer) ratioEffect(s seg) float64 {
	var d1 float64
	for i := range e.c.Den1 {
		d1 += e.c.Den1[i]
	}
	if d1 == 0 {
		return 0
	}
	return (s.c - s.b) / d1
}

func matches(c *Cube, i int, conds []Cond) bool {
	for _, k := range conds {
		if c.Codes[k.Dim][i] != k.Code {
			return false
		}
	}
	return true
}
