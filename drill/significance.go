package drill

import (
	"math"
	"math/rand/v2"
	"sort"
)

// A Day is one day of a metric's series: its numerator and denominator over
// that day's rows. Date is "2006-01-02"; Den is ignored for additive metrics.
type Day struct {
	Date     string
	Num, Den float64
	// Empty marks a day without rows, filled in as zero so that a segment
	// that vanished counts as zeros; charts show it as a gap.
	Empty bool
}

// Test methods, in TestResult.Method.
const (
	MethodWelch     = "welch_t"    // Welch's t-test on day-level values
	MethodPoisson   = "poisson_z"  // z-test on pooled counts or event rates
	MethodBinomial  = "binomial_z" // two-proportion z-test on pooled counts
	MethodBootstrap = "bootstrap"  // day-level bootstrap (see Bootstrap)
	MethodNone      = "none"       // no test possible; PValue is NaN
)

// A TestResult says whether a change between the baseline and the comparison
// is larger than day-to-day noise.
type TestResult struct {
	Statistic float64 // Effect/StdErr: t for Welch, z otherwise
	PValue    float64 // two-sided; NaN when Method is MethodNone, 1 when BelowPrecision
	Effect    float64 // Value1 - Value0
	StdErr    float64 // standard error of Effect
	DF        float64 // degrees of freedom of t; +Inf for z tests
	Method    string
	// DaysBase and DaysCmp count the days that entered the test (days with
	// a zero denominator carry no ratio and are left out).
	DaysBase, DaysCmp int
	// Value0 and Value1 are what is compared: the mean per day for additive
	// metrics, so periods of different length are comparable, and the
	// pooled Scale*sum(Num)/sum(Den) for ratios.
	Value0, Value1 float64
	// Total0 and Total1 are the metric over each whole period: Scale*sum(Num)
	// for additive metrics, equal to Value0 and Value1 for ratios.
	Total0, Total1 float64
	// BelowPrecision marks a non-zero effect within the floating-point
	// rounding of the values compared (see WithinPrecision): no change,
	// whatever the day-to-day noise, so Statistic is 0, PValue 1 and
	// Method MethodNone (no test was needed).
	BelowPrecision bool
}

// RelativePrecision is the relative difference below which two values
// computed from sums of floats are the same number. A sum of n doubles
// carries a rounding error of up to about n*2.2e-16 of its terms'
// magnitude, so 1e-9 covers sums of millions of rows; no business metric
// moves by a billionth of itself.
const RelativePrecision = 1e-9

// WithinPrecision reports whether a and b differ by no more than their
// floating-point rounding: RelativePrecision of the larger magnitude of
// a, b and mag, where mag is the magnitude the values were summed from
// (0 when unknown). 1000000.0000000 and 1000000.0000016 are the same.
// NaN and infinite values are never within precision.
func WithinPrecision(a, b, mag float64) bool {
	d := math.Abs(a - b)
	if math.IsNaN(d) || math.IsInf(d, 0) || math.IsInf(mag, 0) {
		return false
	}
	return d <= RelativePrecision*math.Max(mag, math.Max(math.Abs(a), math.Abs(b)))
}

// minDays is the fewest days per period for which a t-test estimates the
// day-to-day variance; with fewer, ChangeTest falls back to count models.
const minDays = 3

// ChangeTest tests whether the period-level change of a metric is larger
// than its day-to-day noise. Scale is the metric's scale (0 means 1).
//
// With at least 3 days in each period it runs Welch's t-test, which does not
// assume equal variances or period lengths:
//   - additive metrics compare the mean daily value Scale*Num;
//   - ratio metrics compare the pooled ratios m = Scale*sum(Num)/sum(Den),
//     the denominator-weighted mean of daily ratios, with the variance of a
//     ratio of sums over n days as clusters,
//     Var(m) = n/(n-1) * sum((Scale*Num_d - m*Den_d)^2) / sum(Den)^2;
//
// and the Welch-Satterthwaite degrees of freedom.
//
// With fewer days the day-to-day variance cannot be estimated and the test
// assumes the counts are Poisson or binomial, pooling the two periods under
// the null hypothesis:
//   - additive metrics whose daily values are whole non-negative counts: a
//     Poisson z-test on the events per day;
//   - ratios whose numerators and denominators are whole counts with
//     0 <= Num <= Den (conversion rates): a two-proportion z-test;
//   - ratios with whole non-negative numerators (events per unit): a Poisson
//     z-test on the event rates;
//   - anything else (sums of money, averages of measurements) cannot be
//     tested without its variance: Method is MethodNone and PValue NaN.
//
// Count models ignore day-to-day overdispersion, so their p-values are
// optimistic; read them as a floor on the uncertainty.
//
// A change within the floating-point rounding of the values
// (WithinPrecision, against the mean absolute daily value) is no change:
// BelowPrecision is set and PValue is 1, however small the noise.
func ChangeTest(base, cmp []Day, ratio bool, scale float64) TestResult {
	if scale == 0 {
		scale = 1
	}
	s0, s1 := describe(base, ratio, scale), describe(cmp, ratio, scale)
	r := TestResult{
		Effect: s1.value - s0.value, DaysBase: s0.n, DaysCmp: s1.n,
		Value0: s0.value, Value1: s1.value,
		Total0: s0.total, Total1: s1.total,
		Method: MethodNone, PValue: math.NaN(), DF: math.Inf(1),
	}
	if s0.value != s1.value && WithinPrecision(s0.value, s1.value, math.Max(s0.mag, s1.mag)) {
		// Zero noise would make any difference certain (p = 0), rounding
		// included: a change of 1.6e-12 of the value is no change.
		r.BelowPrecision, r.Statistic, r.PValue = true, 0, 1
		return r
	}
	switch {
	case s0.n >= minDays && s1.n >= minDays:
		r.Method = MethodWelch
		r.StdErr = math.Sqrt(s0.varMean + s1.varMean)
		r.DF = welchDF(s0.varMean, s1.varMean, s0.n, s1.n)
	case s0.n == 0 || s1.n == 0:
		return r
	case !ratio && s0.counts && s1.counts:
		// Events per day; under H0 one rate over n0+n1 days.
		r.Method = MethodPoisson
		lambda := (s0.num + s1.num) / float64(s0.n+s1.n)
		r.StdErr = math.Abs(scale) * math.Sqrt(lambda*(1/float64(s0.n)+1/float64(s1.n)))
	case ratio && s0.proportions && s1.proportions:
		r.Method = MethodBinomial
		p := (s0.num + s1.num) / (s0.den + s1.den)
		r.StdErr = math.Abs(scale) * math.Sqrt(p*(1-p)*(1/s0.den+1/s1.den))
	case ratio && s0.counts && s1.counts && s0.den > 0 && s1.den > 0:
		r.Method = MethodPoisson
		lambda := (s0.num + s1.num) / (s0.den + s1.den)
		r.StdErr = math.Abs(scale) * math.Sqrt(lambda*(1/s0.den+1/s1.den))
	default:
		return r
	}
	r.Statistic, r.PValue = testStat(r.Effect, r.StdErr, r.DF)
	return r
}

// testStat returns effect/se and its two-sided p-value under a t
// distribution with df degrees of freedom (normal when df is infinite). A
// zero standard error means the data have no noise at all: any effect is
// then certain and no effect is no evidence.
func testStat(effect, se, df float64) (stat, p float64) {
	switch {
	case math.IsNaN(effect) || math.IsNaN(se):
		return math.NaN(), math.NaN()
	case se == 0 && effect == 0:
		return 0, 1
	case se == 0:
		return math.Copysign(math.Inf(1), effect), 0
	}
	stat = effect / se
	return stat, StudentTwoSided(stat, df)
}

// period holds one period's day-level summary.
type period struct {
	n                   int     // days that enter the test
	num, den            float64 // sums over those days
	value, total        float64 // see TestResult.Value0 and Total0
	varMean             float64 // sampling variance of value
	counts, proportions bool    // see ChangeTest's count models
	// mag is the magnitude value was summed from: the mean absolute daily
	// value for additive metrics, |value| for ratios.
	mag float64
}

func describe(days []Day, ratio bool, scale float64) period {
	p := period{counts: true, proportions: true}
	var num, den sum
	for _, d := range days {
		if ratio && d.Den == 0 {
			continue
		}
		p.n++
		num.add(d.Num)
		den.add(d.Den)
		p.counts = p.counts && whole(d.Num) && d.Num >= 0
		p.proportions = p.proportions && p.counts && whole(d.Den) && d.Num <= d.Den
	}
	p.num, p.den = num.value(), den.value()
	if p.n == 0 {
		p.value, p.total = math.NaN(), math.NaN()
		return p
	}
	var ss sum
	if ratio {
		p.value = scale * p.num / p.den
		p.total = p.value
		for _, d := range days {
			if d.Den != 0 {
				e := scale*d.Num - p.value*d.Den
				ss.add(e * e)
			}
		}
		if p.n > 1 {
			p.varMean = float64(p.n) / float64(p.n-1) * ss.value() / (p.den * p.den)
		}
		p.mag = math.Abs(p.value)
		return p
	}
	p.total = scale * p.num
	p.value = p.total / float64(p.n)
	var abs sum
	for _, d := range days {
		e := scale*d.Num - p.value
		ss.add(e * e)
		abs.add(math.Abs(scale * d.Num))
	}
	p.mag = abs.value() / float64(p.n)
	if p.n > 1 {
		p.varMean = ss.value() / float64(p.n-1) / float64(p.n)
	}
	return p
}

// welchDF is the Welch-Satterthwaite degrees of freedom for two means with
// sampling variances v0, v1 estimated from n0, n1 observations.
func welchDF(v0, v1 float64, n0, n1 int) float64 {
	den := v0*v0/float64(n0-1) + v1*v1/float64(n1-1)
	if den == 0 {
		return float64(n0 + n1 - 2)
	}
	return (v0 + v1) * (v0 + v1) / den
}

func whole(x float64) bool { return x == math.Trunc(x) && !math.IsInf(x, 0) }

// A SegmentSeries is one segment's day-level series in both periods.
type SegmentSeries struct {
	Name      string
	Base, Cmp []Day
}

// A SegmentResult is one segment's ChangeTest with its Benjamini-Hochberg
// q-value over all the segments tested together.
type SegmentResult struct {
	Name string
	TestResult
	QValue float64
}

// SegmentTest runs ChangeTest on each segment's own series (the segment's
// metric, not its contribution to the total) and adjusts the p-values for
// testing many segments at once with BenjaminiHochberg. Results are in the
// order of segs.
func SegmentTest(segs []SegmentSeries, ratio bool, scale float64) []SegmentResult {
	out := make([]SegmentResult, len(segs))
	p := make([]float64, len(segs))
	for i, s := range segs {
		out[i] = SegmentResult{Name: s.Name, TestResult: ChangeTest(s.Base, s.Cmp, ratio, scale)}
		p[i] = out[i].PValue
	}
	for i, q := range BenjaminiHochberg(p) {
		out[i].QValue = q
	}
	return out
}

// BenjaminiHochberg returns the Benjamini-Hochberg adjusted p-values
// (q-values) of p, in the same order: rejecting every hypothesis with
// q <= alpha controls the false discovery rate at alpha. NaN p-values are
// not counted as tests and stay NaN.
func BenjaminiHochberg(p []float64) []float64 {
	idx, q := sortedValid(p)
	m := float64(len(idx))
	running := 1.0
	for k := len(idx) - 1; k >= 0; k-- {
		running = math.Min(running, p[idx[k]]*m/float64(k+1))
		q[idx[k]] = running
	}
	return q
}

// Holm returns Holm's step-down adjusted p-values of p, in the same order:
// rejecting every hypothesis with adjusted p <= alpha controls the
// family-wise error rate at alpha. NaN p-values stay NaN.
func Holm(p []float64) []float64 {
	idx, q := sortedValid(p)
	m := len(idx)
	running := 0.0
	for k, i := range idx {
		running = math.Max(running, math.Min(1, p[i]*float64(m-k)))
		q[i] = running
	}
	return q
}

// sortedValid returns the indexes of the non-NaN p-values in increasing
// order of p, and an output slice with NaN where p is NaN.
func sortedValid(p []float64) ([]int, []float64) {
	q := make([]float64, len(p))
	var idx []int
	for i, v := range p {
		if math.IsNaN(v) {
			q[i] = math.NaN()
			continue
		}
		idx = append(idx, i)
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	return idx, q
}

// Bootstrap tests the change like ChangeTest but estimates its noise by
// resampling days with replacement within each period, rounds times (2000
// if rounds <= 0), with a generator seeded by seed so results repeat. The
// p-value inverts the percentile interval: twice the share of resampled
// effects on the far side of zero, with the usual +1 correction, so it is
// never below 2/(rounds+1). StdErr is the resampled effects' standard
// deviation. It needs 3 days in each period and falls back to ChangeTest
// otherwise. Unlike Welch's test it assumes nothing about the shape of the
// daily values, which helps with a few extreme days.
func Bootstrap(base, cmp []Day, ratio bool, scale float64, rounds int, seed uint64) TestResult {
	r := ChangeTest(base, cmp, ratio, scale)
	if r.DaysBase < minDays || r.DaysCmp < minDays || r.BelowPrecision {
		return r
	}
	if scale == 0 {
		scale = 1
	}
	if rounds <= 0 {
		rounds = 2000
	}
	b, c := testedDays(base, ratio), testedDays(cmp, ratio)
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	resample := func(days []Day) float64 {
		var num, den float64
		for range days {
			d := days[rng.IntN(len(days))]
			num += d.Num
			den += d.Den
		}
		if ratio {
			return scale * safeDiv(num, den)
		}
		return scale * num / float64(len(days))
	}
	var below, above int
	var mean, m2 float64 // Welford's running variance
	for i := range rounds {
		e := resample(c) - resample(b)
		if e <= 0 {
			below++
		}
		if e >= 0 {
			above++
		}
		delta := e - mean
		mean += delta / float64(i+1)
		m2 += delta * (e - mean)
	}
	r.Method = MethodBootstrap
	r.DF = math.Inf(1)
	r.StdErr = math.Sqrt(m2 / float64(rounds-1))
	r.Statistic = safeDiv(r.Effect, r.StdErr)
	r.PValue = math.Min(1, 2*float64(min(below, above)+1)/float64(rounds+1))
	return r
}

// testedDays returns the days that enter a test: for ratios, those with a
// denominator.
func testedDays(days []Day, ratio bool) []Day {
	if !ratio {
		return days
	}
	var out []Day
	for _, d := range days {
		if d.Den != 0 {
			out = append(out, d)
		}
	}
	return out
}

// StudentTwoSided returns the two-sided p-value P(|T| >= |t|) of Student's t
// distribution with df degrees of freedom, the standard normal's when df is
// infinite. It is the regularized incomplete beta I_x(df/2, 1/2) at
// x = df/(df+t^2).
func StudentTwoSided(t, df float64) float64 {
	switch {
	case math.IsNaN(t) || math.IsNaN(df) || df <= 0:
		return math.NaN()
	case math.IsInf(t, 0):
		return 0
	case math.IsInf(df, 1):
		return math.Erfc(math.Abs(t) / math.Sqrt2)
	}
	return RegIncBeta(df/2, 0.5, df/(df+t*t))
}

// RegIncBeta returns the regularized incomplete beta function I_x(a, b), the
// CDF at x of a Beta(a, b) variable, for a, b > 0 and 0 <= x <= 1 (NaN
// otherwise). It evaluates the function's continued fraction with the
// modified Lentz method, using the symmetry I_x(a,b) = 1 - I_(1-x)(b,a)
// where the fraction would converge slowly.
func RegIncBeta(a, b, x float64) float64 {
	switch {
	case !(a > 0) || !(b > 0) || !(x >= 0 && x <= 1):
		return math.NaN()
	case x == 0:
		return 0
	case x == 1:
		return 1
	case x > (a+1)/(a+b+2):
		return 1 - RegIncBeta(b, a, 1-x)
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(a*math.Log(x) + b*math.Log1p(-x) - (la + lb - lab))
	return front / a * betaFraction(a, b, x)
}

// betaFraction evaluates 1/(1+ d1/(1+ d2/(1+ ...))) with
//
//	d(2m+1) = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1))
//	d(2m)   = m(b-m)x / ((a+2m-1)(a+2m))
//
// by the modified Lentz method.
func betaFraction(a, b, x float64) float64 {
	const tiny, eps, maxTerms = 1e-300, 1e-15, 10000
	clamp := func(v float64) float64 {
		if math.Abs(v) < tiny {
			return tiny
		}
		return v
	}
	// The first term is 1/(1 + d1/...): numerator 1, then numerators d_j.
	f, c, d := tiny, tiny, 0.0
	for j := 1; j <= maxTerms; j++ {
		num := 1.0
		if k := j - 1; k > 0 {
			m := float64(k / 2)
			if k%2 == 1 {
				num = -(a + m) * (a + b + m) * x / ((a + 2*m) * (a + 2*m + 1))
			} else {
				num = m * (b - m) * x / ((a + 2*m - 1) * (a + 2*m))
			}
		}
		d = 1 / clamp(1+num*d)
		c = clamp(1 + num/c)
		delta := c * d
		f *= delta
		if math.Abs(delta-1) < eps {
			break
		}
	}
	return f
}
