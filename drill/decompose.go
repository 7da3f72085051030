package drill

import (
	"fmt"
	"math"
)

// An Effect is one part's share of a metric's change between the baseline
// (period 0) and the comparison (period 1).
type Effect struct {
	Name string
	// Change is the part's total effect on the metric. The Changes of a
	// Decomposition's Effects and Remainder add up to its Change.
	Change float64
	// Rate and Mix split Change for ratio metrics (Rate+Mix == Change): Rate
	// is what the part's own ratio moving did, Mix what its share of the
	// denominator moving did. Both are zero for additive metrics.
	Rate, Mix float64
	// Value0 and Value1 are the part's own metric value in each period: its
	// numerator for additive metrics, Scale*Num/Den for ratios (NaN when the
	// part has no denominator in that period).
	Value0, Value1 float64
	// Share0 and Share1 are the part's share of the denominator (ratio) or
	// of the total (additive) in each period; zero when the total is zero.
	Share0, Share1 float64
}

// Driver names the component that dominates a ratio effect: "rate" when the
// part's own ratio moved more than its weight, "mix" otherwise, and "" for
// additive effects, which have no split.
func (e Effect) Driver() string {
	switch {
	case e.Rate == 0 && e.Mix == 0:
		return ""
	case math.Abs(e.Rate) >= math.Abs(e.Mix):
		return "rate"
	default:
		return "mix"
	}
}

// A Decomposition splits a metric's change into the effects of the parts of
// a partition of the population: a few named Effects and an explicit
// Remainder for everything else, which add up to Change exactly (up to
// floating-point rounding; see Check).
type Decomposition struct {
	Total0, Total1 float64 // the metric over the whole population per period
	Change         float64 // Total1 - Total0
	Ratio          bool    // the effects carry a rate/mix split
	Effects        []Effect
	Remainder      Effect
}

// restName names the remainder when the caller left it unnamed.
const restName = "everything else"

// Additive decomposes the change of an additive metric (sum, count). parts
// and rest must partition the population; rest may be the zero Part when
// parts cover everything. A part's effect is its own change, Num1 - Num0,
// so the effects and the remainder add up to Total1 - Total0. Values are in
// the units of Num: pass numerators already multiplied by the metric's
// Scale when it is not 1.
func Additive(parts []Part, rest Part) Decomposition {
	var s0, s1 sum
	for _, p := range append(parts[:len(parts):len(parts)], rest) {
		s0.add(p.Num0)
		s1.add(p.Num1)
	}
	d := Decomposition{Total0: s0.value(), Total1: s1.value()}
	d.Change = d.Total1 - d.Total0
	effect := func(p Part) Effect {
		return Effect{
			Name:   p.Name,
			Change: p.Num1 - p.Num0,
			Value0: p.Num0, Value1: p.Num1,
			Share0: safeDiv(p.Num0, d.Total0), Share1: safeDiv(p.Num1, d.Total1),
		}
	}
	d.Effects = make([]Effect, len(parts))
	for i, p := range parts {
		d.Effects[i] = effect(p)
	}
	d.Remainder = effect(named(rest))
	return d
}

// Distinct decomposes the change of a distinct count (COUNT(DISTINCT x)),
// which does not add up over segments because one entity can appear in
// several. Each of unique must count, per period, the entities seen ONLY in
// that segment (its unique contribution: what the total would lose without
// it), and shared the entities seen in two or more segments. Together they
// count every entity once,
//
//	D = sum(unique) + shared,
//
// so the decomposition is additive and exact: a segment's effect is the
// change of its unique contribution, and the Remainder (named "shared
// across segments" unless shared has a name) is the change of the overlap.
// unique must cover every segment of the dimension; put the segments not of
// interest into one extra part rather than leaving them out.
func Distinct(unique []Part, shared Part) Decomposition {
	if shared.Name == "" {
		shared.Name = "shared across segments"
	}
	return Additive(unique, shared)
}

// Ratio decomposes the change of a ratio or average metric Scale*Num/Den
// into rate and mix effects. parts and rest must partition the population.
//
// With D_t the total denominator in period t, w_i = Den_i/D_t the part's
// weight and r_i = Num_i/Den_i its own ratio, the metric is R = sum w_i r_i
// and, with bars for the average of the two periods and Δ for period 1
// minus period 0, each part's effect is
//
//	rate_i = w̄_i Δr_i
//	mix_i  = (r̄_i - R̄) Δw_i
//
// The identity w1 r1 - w0 r0 = w̄ Δr + r̄ Δw makes sum(rate+mix) = ΔR - R̄
// sum(Δw), and sum(Δw) = 0 because weights add up to 1 in both periods, so
// the effects add up exactly. Subtracting R̄ (which changes no sum) makes
// mix mean something: a part that grows its share at the average ratio
// moves nothing, one that grows at an above-average ratio lifts the metric.
// The split is symmetric in the periods, so swapping them negates it.
//
// Edge cases keep NaN out of every sum:
//   - A part with Den_i = 0 in one period (it appears or vanishes) takes its
//     ratio from the other period, so Δr_i = 0 and its whole effect is mix.
//     Its Value for the empty period is still NaN.
//   - A period with D_t = 0 has R_t = 0 (as Metric.Value has it) and zero
//     weights; then sum(Δw) is not 0, so R̄ is replaced by 0, which keeps the
//     sum exact and books the whole appearance of the metric as mix.
//   - A numerator without a denominator (Num_i != 0, Den_i = 0) still counts
//     in R_t = sum(Num)/D_t; its Num_i/D_t is booked as rate, since it is the
//     part's numerator, not its weight, that moved the metric.
func Ratio(parts []Part, rest Part, scale float64) Decomposition {
	if scale == 0 {
		scale = 1
	}
	all := append(parts[:len(parts):len(parts)], named(rest))
	var n0, n1, d0, d1 sum
	for _, p := range all {
		n0.add(p.Num0)
		n1.add(p.Num1)
		d0.add(p.Den0)
		d1.add(p.Den1)
	}
	D0, D1 := d0.value(), d1.value()
	R0, R1 := safeDiv(n0.value(), D0), safeDiv(n1.value(), D1)
	center := (R0 + R1) / 2
	if D0 == 0 || D1 == 0 {
		center = 0
	}
	d := Decomposition{Total0: scale * R0, Total1: scale * R1, Ratio: true}
	d.Change = d.Total1 - d.Total0

	effects := make([]Effect, len(all))
	for i, p := range all {
		w0, w1 := safeDiv(p.Den0, D0), safeDiv(p.Den1, D1)
		r0, r1 := ownRatio(p.Num0, p.Den0), ownRatio(p.Num1, p.Den1)
		f0, f1 := r0, r1
		switch {
		case math.IsNaN(f0) && math.IsNaN(f1):
			f0, f1 = 0, 0
		case math.IsNaN(f0):
			f0 = f1
		case math.IsNaN(f1):
			f1 = f0
		}
		rate := (w0+w1)/2*(f1-f0) + orphan(p.Num1, p.Den1, D1) - orphan(p.Num0, p.Den0, D0)
		mix := ((f0+f1)/2 - center) * (w1 - w0)
		effects[i] = Effect{
			Name:   p.Name,
			Rate:   scale * rate,
			Mix:    scale * mix,
			Change: scale*rate + scale*mix,
			Value0: scale * r0, Value1: scale * r1,
			Share0: w0, Share1: w1,
		}
	}
	d.Effects = effects[:len(parts)]
	d.Remainder = effects[len(parts)]
	return d
}

// Check reports an error when the effects and the remainder do not add up to
// Change, Change is not Total1-Total0, or (for ratios) an effect's Rate and
// Mix do not add up to its Change, each within 1e-9 of the magnitude of the
// numbers involved. A non-finite number anywhere is an error.
func (d Decomposition) Check() error {
	var s sum
	mag := math.Max(math.Abs(d.Total0), math.Abs(d.Total1))
	for _, e := range append(d.Effects[:len(d.Effects):len(d.Effects)], d.Remainder) {
		s.add(e.Change)
		mag = math.Max(mag, math.Max(math.Abs(e.Change), math.Abs(e.Rate)+math.Abs(e.Mix)))
		if d.Ratio && !near(e.Rate+e.Mix, e.Change, mag) {
			return fmt.Errorf("effect %q: rate %g + mix %g != change %g", e.Name, e.Rate, e.Mix, e.Change)
		}
	}
	if !near(d.Total1-d.Total0, d.Change, mag) {
		return fmt.Errorf("change %g != total1 %g - total0 %g", d.Change, d.Total1, d.Total0)
	}
	if !near(s.value(), d.Change, mag) {
		return fmt.Errorf("effects add up to %g; change is %g", s.value(), d.Change)
	}
	return nil
}

// near reports whether a and b agree within 1e-9 of mag, and are finite.
func near(a, b, mag float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsNaN(mag) {
		return false
	}
	return math.Abs(a-b) <= 1e-9*mag
}

// ownRatio is num/den, or NaN when the part has no denominator.
func ownRatio(num, den float64) float64 {
	if den == 0 {
		return math.NaN()
	}
	return num / den
}

// orphan is the contribution num/total of a numerator that has no
// denominator of its own, which w*r misses.
func orphan(num, den, total float64) float64 {
	if den != 0 || total == 0 {
		return 0
	}
	return num / total
}

// safeDiv is a/b, or 0 when b is 0.
func safeDiv(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// named gives the remainder its default name.
func named(rest Part) Part {
	if rest.Name == "" {
		rest.Name = restName
	}
	return rest
}

// sum is a Neumaier compensated sum, so that totals of many parts lose no
// more precision than the differences taken from them.
type sum struct{ s, c float64 }

func (s *sum) add(x float64) {
	t := s.s + x
	if math.Abs(s.s) >= math.Abs(x) {
		s.c += (s.s - t) + x
	} else {
		s.c += (x - t) + s.s
	}
	s.s = t
}

func (s *sum) value() float64 { return s.s + s.c }
