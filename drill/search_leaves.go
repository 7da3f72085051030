package drill

import "math"

// leaves holds the per-leaf quantities the search works on.
type leaves struct {
	b, o   []float64 // expected and observed additive value
	dev    []float64 // relative deviation 2(o-b)/(o+b), 0 when both are 0
	abn    []bool    // on the anomalous side of the cutoff
	w      []float64 // how sure we are of abn (or of normal), in [0, 1]
	ep     []float64 // o-b, signed so that the anomalous side is positive
	m      []float64 // exposure (o+b)/2, the scale of a leaf's noise
	v      []float64 // noise variance of ep (additive metrics)
	cutoff float64
	lo, hi float64 // the most extreme deviations of leaves not empty in both periods
	up     bool    // the anomalous side is a rise
	// tied is set when the leaves reach equally far on both sides, so
	// they cannot tell the anomalous side. Relative deviations are bounded
	// by 2 (a leaf empty in one period), which leaves that sum a few
	// events reach on both sides whatever changed.
	tied bool
}

// ratioMinZ is the smallest surprise (excess over the square root of the
// expected count) that makes a leaf of a ratio metric anomalous, whatever
// the noise on the other side suggests.
const ratioMinZ = 3

// prepareLeaves computes deviations, the anomalous side and leaf weights.
// A side of +1 or -1 forces the anomalous side (rise or fall); 0 lets the
// leaves tell. It returns nil when nothing changed.
func prepareLeaves(c *Cube, side int) *leaves {
	lv := measureLeaves(c)
	if lv != nil {
		lv.orient(c, side)
	}
	return lv
}

// measureLeaves computes what does not depend on the anomalous side: the
// expected and observed values, deviations, their extremes and, for
// additive metrics, the noise model. It returns nil when nothing changed.
func measureLeaves(c *Cube) *leaves {
	n := c.Len()
	lv := &leaves{
		b: make([]float64, n), o: make([]float64, n),
		dev: make([]float64, n), abn: make([]bool, n),
		w: make([]float64, n), ep: make([]float64, n),
		m: make([]float64, n), v: make([]float64, n),
	}
	if c.Ratio() {
		ratioToAdditive(c, lv.b, lv.o)
	} else {
		copy(lv.b, c.Num0)
		copy(lv.o, c.Num1)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range n {
		b, o := lv.b[i], lv.o[i]
		switch {
		case c.Ratio():
			// Counts over a denominator: Poisson-like noise, so a
			// leaf's surprise is its excess over the square root of
			// what was expected.
			lv.dev[i] = (o - b) / math.Sqrt(b+1)
		case b+o != 0:
			lv.dev[i] = 2 * (o - b) / (b + o)
		}
		if b != 0 || o != 0 {
			lo, hi = math.Min(lo, lv.dev[i]), math.Max(hi, lv.dev[i])
		}
	}
	if lo > hi {
		return nil
	}
	lv.lo, lv.hi = lo, hi
	lv.tied = math.Abs(hi) == math.Abs(lo)
	if !c.Ratio() {
		noiseModel(lv)
	}
	return lv
}

// orient sets the anomalous side, the cutoff and what follows from them
// (abn, ep, w). A side of +1 or -1 forces the side; 0 lets the leaves
// tell. Search orients the same leaves again when whole segments point
// at the other side, so everything else is measured once.
func (lv *leaves) orient(c *Cube, side int) {
	// The anomalous side is the one that reaches further from zero; the
	// other side's reach estimates the noise, mirrored as the cutoff. The
	// extreme itself is used, not a trimmed one: with few anomalies (a
	// single broken leaf) any trimming hides them, and by symmetry only
	// about one noisy leaf is expected beyond the mirrored extreme.
	up := math.Abs(lv.hi) >= math.Abs(lv.lo)
	if side != 0 {
		up = side > 0
	}
	lv.up = up
	sign := 1.0
	if up {
		lv.cutoff = -lv.lo
	} else {
		lv.cutoff = -lv.hi
		sign = -1
	}
	if c.Ratio() && math.Abs(lv.cutoff) < ratioMinZ {
		lv.cutoff = math.Copysign(ratioMinZ, sign)
	}
	for i := range lv.dev {
		d := lv.dev[i]
		lv.abn[i] = (up && d > lv.cutoff) || (!up && d < lv.cutoff)
		lv.ep[i] = sign * (lv.o[i] - lv.b[i])
		switch {
		case c.Ratio():
			// Count data: a leaf matters in proportion to its volume,
			// so a handful of viewers cannot outvote thousands.
			lv.w[i] = c.Den1[i]
		case lv.abn[i]:
			lv.w[i] = math.Min(math.Abs(d), 1)
		case lv.b[i] == 0 && lv.o[i] == 0:
			lv.w[i] = 0
		default:
			lv.w[i] = math.Min(math.Abs(lv.cutoff-d), 1)
		}
	}
}

// ratioToAdditive fills b with each leaf's expected numerator, its
// comparison denominator at its baseline ratio, and o with the observed
// numerator. Leaves without a baseline denominator are expected at the
// overall baseline ratio.
func ratioToAdditive(c *Cube, b, o []float64) {
	var n0, d0 float64
	for i := range c.Len() {
		n0 += c.Num0[i]
		d0 += c.Den0[i]
	}
	overall := 0.0
	if d0 != 0 {
		overall = n0 / d0
	}
	for i := range c.Len() {
		rate := overall
		if c.Den0[i] != 0 {
			rate = c.Num0[i] / c.Den0[i]
		}
		b[i] = c.Den1[i] * rate
		o[i] = c.Num1[i]
	}
}
