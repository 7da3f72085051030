package sampledata

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/quarry-dev/quarry"
)

// newRand returns a PCG generator for seed. The second PCG word is a fixed
// constant so that one int64 is all a scenario has to record.
func newRand(seed int64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
}

// poisson draws a Poisson count with mean lambda: Knuth's product method
// for small means, a rounded normal approximation for large ones (where the
// two are indistinguishable at the sizes generated here).
func poisson(r *rand.Rand, lambda float64) int {
	if lambda <= 0 {
		return 0
	}
	if lambda < 30 {
		limit, p, n := math.Exp(-lambda), r.Float64(), 0
		for p > limit {
			p *= r.Float64()
			n++
		}
		return n
	}
	n := math.Round(lambda + math.Sqrt(lambda)*r.NormFloat64())
	if n < 0 {
		return 0
	}
	return int(n)
}

// logNormal draws a positive amount with the given mean and log-scale
// spread sigma: order values are skewed, with a long right tail.
func logNormal(r *rand.Rand, mean, sigma float64) float64 {
	return math.Exp(math.Log(mean) - sigma*sigma/2 + sigma*r.NormFloat64())
}

// bernoulli reports true with probability p.
func bernoulli(r *rand.Rand, p float64) bool { return r.Float64() < p }

// picker draws indexes with fixed relative weights.
type picker struct{ cum []float64 }

func newPicker(weights []float64) picker {
	cum := make([]float64, len(weights))
	total := 0.0
	for i, w := range weights {
		total += w
		cum[i] = total
	}
	for i := range cum {
		cum[i] /= total
	}
	return picker{cum}
}

// pick returns index i with probability weights[i]/sum(weights).
func (p picker) pick(r *rand.Rand) int {
	u := r.Float64()
	lo, hi := 0, len(p.cum)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if p.cum[mid] > u {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// prob returns the probability of index i.
func (p picker) prob(i int) float64 {
	if i == 0 {
		return p.cum[0]
	}
	return p.cum[i] - p.cum[i-1]
}

// zipfWeights returns n weights falling off as 1/(i+1)^s: a few popular
// values and a long tail, like cities or stores.
func zipfWeights(n int, s float64) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 1 / math.Pow(float64(i+1), s)
	}
	return w
}

// date parses a constant date; the package's dates are literals, so a bad
// one is a programming error.
func date(s string) quarry.Date { return quarry.MustParseDate(s) }

// period returns the inclusive range between two constant dates.
func period(from, to string) quarry.DateRange {
	return quarry.DateRange{Start: date(from), End: date(to)}
}

// days returns every day of r in order.
func days(r quarry.DateRange) []quarry.Date {
	out := make([]quarry.Date, 0, r.Days())
	for d := r.Start; !d.Time().After(r.End.Time()); d = d.AddDays(1) {
		out = append(out, d)
	}
	return out
}

// weekend reports whether d is a Saturday or Sunday.
func weekend(d quarry.Date) bool {
	wd := d.Weekday()
	return wd == time.Saturday || wd == time.Sunday
}
