package drill

import (
	"math"
	"sort"
)

// Sparse events (about three bird strikes a day) leave days with no row
// that are not missing data: at that rate some quiet days are expected.
// And a file that ends early leaves one run of empty days at the end of a
// period, which is a boundary of the data, not scattered gaps. Gaps tells
// the three apart.

// underdispersed is the variance-to-mean ratio below which row counts
// are a schedule (one row per store and day) rather than chance events.
const underdispersed = 0.5

// gapAlpha is how unlikely, under the data's own rate, the empty periods
// must be to be called missing.
const gapAlpha = 0.001

// Gaps classifies the expected dates of one period that have no rows.
type Gaps struct {
	// Before and After are the empty dates before the data's first date
	// and after its last: the data starts or stops there.
	Before, After []string
	// Missing are the empty dates inside the data that its rate does not
	// explain: too many of them, or a run too long, to be chance.
	Missing []string
	// Quiet are the empty dates inside the data that its rate explains.
	Quiet []string
	// Rate is the mean rows per date inside the data and PEmpty the
	// probability of a date without rows at that rate.
	Rate, PEmpty float64
}

// ClassifyGaps sorts the expected dates (sorted, "YYYY-MM-DD") without
// rows. rows holds the row count of each date that has rows; first and
// last are the data's first and last dates (over the whole table, not
// just the period). Dates before first or after last are a boundary.
// model holds the row counts (zeros included) the rate is fitted on,
// such as both periods' dates inside the data; nil fits it on this
// period's dates inside the data.
//
// Inside the data, a date's row count is modelled as Poisson with the
// model's mean rate, widened to a negative binomial when the counts vary
// more than Poisson allows (seasons, weekdays, bursts): with mean m and
// variance v > m, P(no row) = (k/(k+m))^k with k = m²/(v-m); otherwise
// e^-m. Counts far more regular than that (v < m/2: one row per store
// and month) are a schedule: P(no row) is zero, and every empty date
// inside the data is missing. The empty dates are missing when their number is unlikely (the
// binomial tail P(X >= empty) below 0.001) or when one run of them is (the
// chance of a run that long anywhere in the period, about n·p^len, below
// 0.001); then the unlikely runs, or every empty date when the count is
// unlikely, are Missing and the rest Quiet. A dense series (a hundred
// rows a day) gives P(no row) near zero, so every empty date is missing,
// as before; three events a day give about one quiet day in ten.
func ClassifyGaps(expected []string, rows map[string]float64, first, last string, model []float64) Gaps {
	var g Gaps
	var inside []string
	for _, d := range expected {
		switch {
		case first != "" && d < first:
			g.Before = append(g.Before, d)
		case last != "" && d > last:
			g.After = append(g.After, d)
		default:
			inside = append(inside, d)
		}
	}
	if len(g.Before) > 0 && rows[g.Before[len(g.Before)-1]] > 0 || len(g.After) > 0 && rows[g.After[0]] > 0 {
		// Rows outside first..last: the bounds are wrong; treat all as inside.
		inside, g.Before, g.After = expected, nil, nil
	}
	g.Before, g.After = emptyOnly(g.Before, rows), emptyOnly(g.After, rows)
	if len(inside) == 0 {
		return g
	}
	counts := make([]float64, len(inside))
	var empty []string
	for i, d := range inside {
		counts[i] = rows[d]
		if counts[i] == 0 {
			empty = append(empty, d)
		}
	}
	if model == nil {
		model = counts
	}
	g.Rate, g.PEmpty = emptyChance(model)
	if len(empty) == 0 {
		return g
	}
	n := len(inside)
	if binomialTail(n, len(empty), g.PEmpty) < gapAlpha {
		g.Missing = empty
		return g
	}
	for _, run := range emptyRuns(inside, rows) {
		if runChance(n, len(run), g.PEmpty) < gapAlpha {
			g.Missing = append(g.Missing, run...)
		} else {
			g.Quiet = append(g.Quiet, run...)
		}
	}
	sort.Strings(g.Missing)
	sort.Strings(g.Quiet)
	return g
}

func emptyOnly(dates []string, rows map[string]float64) []string {
	var out []string
	for _, d := range dates {
		if rows[d] == 0 {
			out = append(out, d)
		}
	}
	return out
}

// emptyChance returns the mean of counts and the chance of a zero under a
// Poisson of that mean, or a negative binomial when the counts are
// overdispersed.
func emptyChance(counts []float64) (mean, p0 float64) {
	if len(counts) == 0 {
		return 0, 1
	}
	n := float64(len(counts))
	for _, c := range counts {
		mean += c
	}
	mean /= n
	if mean == 0 {
		return 0, 1
	}
	var v float64
	for _, c := range counts {
		v += (c - mean) * (c - mean)
	}
	if len(counts) > 1 {
		v /= n - 1
	}
	switch {
	case v < underdispersed*mean:
		// Counts far more regular than chance (one row per store and
		// month): a schedule, not events, so no date is empty by chance.
		return mean, 0
	case v <= mean:
		return mean, math.Exp(-mean)
	}
	k := mean * mean / (v - mean)
	return mean, math.Exp(k * math.Log(k/(k+mean)))
}

// binomialTail is P(X >= x) for X ~ Binomial(n, p).
func binomialTail(n, x int, p float64) float64 {
	if x <= 0 {
		return 1
	}
	if p <= 0 {
		return 0
	}
	if p >= 1 {
		return 1
	}
	lp, lq := math.Log(p), math.Log1p(-p)
	lgn, _ := math.Lgamma(float64(n + 1))
	var sum float64
	for k := x; k <= n; k++ {
		a, _ := math.Lgamma(float64(k + 1))
		b, _ := math.Lgamma(float64(n - k + 1))
		term := math.Exp(lgn - a - b + float64(k)*lp + float64(n-k)*lq)
		sum += term
		if term < sum*1e-16 {
			break
		}
	}
	return math.Min(sum, 1)
}

// runChance is about the chance that n dates, each empty with chance p,
// hold a run of at least length empty dates somewhere.
func runChance(n, length int, p float64) float64 {
	pl := math.Pow(p, float64(length))
	return math.Min(1, pl+float64(n-length)*(1-p)*pl)
}

// emptyRuns returns the runs of consecutive empty dates of dates.
func emptyRuns(dates []string, rows map[string]float64) [][]string {
	var out [][]string
	var cur []string
	for _, d := range dates {
		if rows[d] == 0 {
			cur = append(cur, d)
			continue
		}
		if len(cur) > 0 {
			out = append(out, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// UnlikelyFew reports whether a date with rows rows is too few to be
// chance at normal rows a date: the Poisson chance of that few or fewer
// is below 0.001. One bird strike on a day that usually has three is
// chance; 40 orders on a day of 100 are not.
func UnlikelyFew(rows, normal float64) bool {
	if normal <= 0 || rows >= normal {
		return false
	}
	var cdf float64
	for k := 0.0; k <= math.Floor(rows); k++ {
		lk, _ := math.Lgamma(k + 1)
		cdf += math.Exp(k*math.Log(normal) - normal - lk)
	}
	return cdf < gapAlpha
}
