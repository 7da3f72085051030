package report

import (
	"math"

	"gonum.org/v1/plot"
)

// Value axes take their range from the data, so every loop and size here
// is bounded by a count, never by stepping a float until it passes a
// bound: a float step can stop changing its value (a range one ULP wide
// puts the tick index past 2^53, where k++ is k), and a range can be
// empty, NaN, infinite or too wide to subtract.

// maxValueTicks bounds the ticks of a value axis. The ticker aims at six;
// a range too narrow for float arithmetic to step through gets its two
// ends instead, so more than this is never drawn.
const maxValueTicks = 12

// flatRelative is the relative width below which a value range is flat:
// the values differ only by the rounding of the sums that made them (see
// drill.RelativePrecision), so the axis is padded around them as if they
// were equal rather than zoomed into the rounding.
const flatRelative = 1e-9

// valueTicks puts about six ticks at round values (1, 2 or 5 times a
// power of ten) and labels them with the report's number format ("1.2M",
// "4.10%") instead of the plot package's "1.2e+06". The plot package's own
// ticker gives three ticks at this height, too few to read values off, and
// it panics on an empty range.
//
// Whatever lo and hi are, it returns at most maxValueTicks finite ticks in
// increasing order within [lo, hi] (up to the rounding of a step's
// multiple): none for NaN or infinite bounds, the one value of an empty
// range, and the two ends of a range too narrow to step through.
type valueTicks struct{ f numberFormat }

// Ticks implements plot.Ticker.
func (t valueTicks) Ticks(lo, hi float64) []plot.Tick {
	if lo > hi {
		lo, hi = hi, lo
	}
	if !isFinite(lo) || !isFinite(hi) {
		return nil
	}
	if lo == hi {
		return []plot.Tick{t.tick(lo)}
	}
	if ticks := t.steps(lo, hi); ticks != nil {
		return ticks
	}
	return []plot.Tick{t.tick(lo), t.tick(hi)}
}

// steps returns the ticks at the multiples of a round step within [lo, hi],
// or nil when the multiples cannot be told apart in float arithmetic or
// would be more than maxValueTicks.
func (t valueTicks) steps(lo, hi float64) []plot.Tick {
	step := niceStep(span(lo, hi))
	if !(step > 0) || math.IsInf(step, 0) {
		return nil // the span underflowed: a range of a few denormals
	}
	k0, k1 := math.Ceil(lo/step), math.Floor(hi/step)
	// Tick indexes past 2^52 are not all representable: k+1 may be k.
	const exact = 1 << 52
	if math.Abs(k0) > exact || math.Abs(k1) > exact {
		return nil
	}
	n := k1 - k0 + 1
	if !(n >= 2 && n <= maxValueTicks) {
		return nil
	}
	ticks := make([]plot.Tick, 0, int(n))
	for i := range int(n) {
		v := (k0 + float64(i)) * step
		if !isFinite(v) || len(ticks) > 0 && !(v > ticks[len(ticks)-1].Value) {
			return nil
		}
		ticks = append(ticks, t.tick(v))
	}
	return ticks
}

func (t valueTicks) tick(v float64) plot.Tick { return plot.Tick{Value: v, Label: t.f.tick(v)} }

// span is hi-lo for finite lo <= hi, held at the largest float when the
// difference overflows (-1e308 to 1e308).
func span(lo, hi float64) float64 {
	if d := hi - lo; !math.IsInf(d, 0) {
		return d
	}
	return math.MaxFloat64
}

// niceStep picks the step, 1, 2 or 5 times a power of ten, that divides
// span into the number of intervals closest to six. It returns 0 when
// span/6 underflows.
func niceStep(span float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(span/6)))
	best, bestDiff := mag, math.Inf(1)
	for _, m := range []float64{0.5, 1, 2, 5, 10} {
		step := m * mag
		if diff := math.Abs(span/step - 6); diff < bestDiff {
			best, bestDiff = step, diff
		}
	}
	return best
}

// tinySpan is the span below which values are too close to tell apart
// on an axis at any zoom: near the denormals, where halving or dividing
// the span underflows.
const tinySpan = 0x1p-1000

// isFlat reports whether finite lo <= hi differ by no more than the
// rounding of their magnitude (flatRelative), equal values included, or
// by less than tinySpan.
func isFlat(lo, hi float64) bool {
	return hi/2-lo/2 < tinySpan || hi-lo <= flatRelative*math.Max(math.Abs(lo), math.Abs(hi))
}

// paddedRange is the axis range for finite data from lo to hi: below and
// above are the room left under and over the data, as fractions of the
// data's span. A flat range (isFlat) is padded as if its span were a tenth
// of its magnitude, or 1 around zero, so a flat series sits inside an axis
// with a few round ticks; a magnitude past the normal floats (denormals)
// counts as zero. The range never overflows, and its width does not
// either unless the data's own does (-1e308 to 1e308): padding that would
// make it overflow is left out, and writePNG refuses such an axis.
func paddedRange(lo, hi, below, above float64) (float64, float64) {
	a, b := padded(lo, hi, below, above)
	if math.IsInf(b-a, 0) {
		return lo, hi
	}
	return a, b
}

func padded(lo, hi, below, above float64) (float64, float64) {
	// Halves, so that -1e308..1e308 does not overflow.
	half := hi/2 - lo/2
	if isFlat(lo, hi) {
		mid := lo/2 + hi/2
		half = math.Abs(mid) * 0.05
		if half < tinySpan {
			half = 0.5
		}
		lo, hi = mid, mid
	}
	return clampFloat(lo - 2*below*half), clampFloat(hi + 2*above*half)
}

// finiteRange returns the smallest and largest finite value of vs, and
// false when there is none.
func finiteRange(vs []float64) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if isFinite(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
			ok = true
		}
	}
	return lo, hi, ok
}

// clampFloat keeps x within the finite floats.
func clampFloat(x float64) float64 {
	return math.Max(-math.MaxFloat64, math.Min(math.MaxFloat64, x))
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
