package investigate

import (
	"fmt"
	"math"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/drill"
	"github.com/quarry-dev/quarry/investigation"
)

// checkFinite refuses a metric that is not a finite number in a period:
// a sum past the largest float (about 1.8e308) is +Inf, and a column may
// hold inf or nan. Nothing can be measured from an infinite total (the
// change is Inf-Inf = NaN), so rather than report "no findings" the run
// fails with UNSUPPORTED_METRIC, names the period and the first day, and
// says how to make the metric finite. Checked at the overall step, before
// any artifact holds the values, so no JSON output ever carries them.
func (r *run) checkFinite(s series, v0, v1 float64) error {
	for p, period := range []struct {
		name  string
		rg    quarry.DateRange
		days  []drill.Day
		value float64
	}{
		{"baseline", r.scope.base, s.base, v0},
		{"comparison", r.scope.cmp, s.cmp, v1},
	} {
		first := ""
		for _, d := range period.days {
			if !finite1(d.Num) || !finite1(d.Den) || !finite1(r.metric.Value(d.Num, d.Den)) {
				first = d.Date
				break
			}
		}
		if first == "" && finite1(period.value) && finite1(s.num[p]) && finite1(s.den[p]) {
			continue
		}
		msg := fmt.Sprintf("the metric %s is not a finite number in the %s period %s", r.metric.Numerator, period.name, period.rg)
		if first != "" {
			msg += fmt.Sprintf(" (first on %s)", first)
		}
		return quarry.Errorf(quarry.ECodeUnsupportedMetric, "%s: it overflows the largest floating-point number (about 1.8e308), or the column holds inf or nan values", msg).
			WithHint("scale the values down inside the aggregate (for example SUM(x / 1e6) for SUM(x)), or leave out the rows whose values are infinite, so every period's total stays finite")
	}
	if !finite1(v1 - v0) {
		return quarry.Errorf(quarry.ECodeUnsupportedMetric, "the change of the metric %s from the baseline to the comparison period overflows the largest floating-point number (about 1.8e308)", r.metric.Numerator).
			WithHint("scale the values down inside the aggregate (for example SUM(x / 1e6) for SUM(x))")
	}
	return nil
}

func finite1(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// noiseText says why the overall change needs no explaining: within its
// day-to-day variation, or no change at all beyond the floating-point
// precision of the sums (drill.WithinPrecision), which no test decides.
func (r *run) noiseText() string {
	o := r.overall.change
	if r.overall.test.BelowPrecision {
		return fmt.Sprintf("no change beyond floating-point precision (%s to %s, a relative change of %.1e)",
			num(o.BaselineValue), num(o.ComparisonValue), relChange(o.BaselineValue, o.ComparisonValue))
	}
	return fmt.Sprintf("within %s-to-%s variation (%s)", r.grain.noun(), r.grain.noun(), stat("p", o.PValue))
}

// relChange is |b-a| relative to the larger magnitude.
func relChange(a, b float64) float64 {
	m := math.Max(math.Abs(a), math.Abs(b))
	if m == 0 {
		return 0
	}
	return math.Abs(b-a) / m
}

// finiteExplanations drops explanations whose numbers JSON cannot carry
// (a segment sum that overflowed while the total did not) and says so in
// a warning, rather than fail to write explanations.json.
func (r *run) finiteExplanations(es []investigation.Explanation) []investigation.Explanation {
	var out []investigation.Explanation
	for _, e := range es {
		if !finite1(e.Change) || !finite1(e.ShareOfChange) || e.PValue != nil && math.IsInf(*e.PValue, 0) {
			r.warn(fmt.Sprintf("The explanation %q was left out: its numbers are not finite (a sum overflowed).", e.Title))
			continue
		}
		if e.PValue != nil && math.IsNaN(*e.PValue) {
			e.PValue = nil
		}
		out = append(out, e)
	}
	return out
}

// maxPeriodValues bounds the values per period an investigation compares:
// every day of a daily period (every week of a weekly one) is a value of
// the overall series and of every segment's, gaps filled in, so a period
// of a thousand years would cost hundreds of megabytes per segment. A
// century of days is far past any investigation.
const maxPeriodValues = 36600

// checkPeriodBudget refuses periods with more values at the data's grain
// than maxPeriodValues, with RESOURCE_LIMIT, before any series is filled.
// Monthly and coarser data have at most a twelfth as many values and are
// counted likewise.
func (r *run) checkPeriodBudget() error {
	perValue := map[string]int64{investigation.GrainWeek: 7, investigation.GrainMonth: 28, investigation.GrainQuarter: 90, investigation.GrainYear: 365}[r.grain.unit]
	if perValue == 0 || r.grain.anchor.IsZero() {
		perValue = 1
	}
	for _, p := range []struct {
		name string
		rg   quarry.DateRange
	}{{"baseline", r.scope.base}, {"comparison", r.scope.cmp}} {
		// Unix seconds, not Time.Sub, which saturates at 292 years.
		days := (p.rg.End.Time().Unix()-p.rg.Start.Time().Unix())/86400 + 1
		if n := days / perValue; n > maxPeriodValues {
			return quarry.Errorf(quarry.ECodeResourceLimit, "the %s period %s has %d %ss; an investigation compares at most %d values per period", p.name, p.rg, n, r.grain.noun(), maxPeriodValues).
				WithHint("choose shorter periods, or aggregate the data to months or years")
		}
	}
	return nil
}
