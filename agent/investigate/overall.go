package investigate

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/drill"
	"github.com/quarry-dev/quarry/investigation"
)

// overallStats is the metric over the whole population in both periods.
type overallStats struct {
	series  // day-level series and period totals
	change  investigation.OverallChange
	test    drill.TestResult
	rec     record
	dayRows []dayRows // rows per day with data, both periods
}

// dayRows is the number of rows of one day.
type dayRows struct {
	day  quarry.Date
	rows float64
}

// series is a day-level series per period read from a daily query, with
// the periods' row counts and numerator and denominator totals.
type series struct {
	base, cmp         []drill.Day
	rowsBase, rowsCmp int64
	num, den          [2]float64
}

// add places one day's aggregates into the periods that contain it.
func (s *series) add(sc *scope, day quarry.Date, num, den float64, n int64) {
	d := drill.Day{Date: day.String(), Num: num, Den: den}
	if sc.base.Contains(day) {
		s.base = append(s.base, d)
		s.rowsBase += n
		s.num[0] += num
		s.den[0] += den
	}
	if sc.cmp.Contains(day) {
		s.cmp = append(s.cmp, d)
		s.rowsCmp += n
		s.num[1] += num
		s.den[1] += den
	}
}

// asDate converts a DATE value read back from the engine.
func asDate(v any) (quarry.Date, error) {
	switch t := v.(type) {
	case time.Time:
		return quarry.NewDate(t), nil
	case string:
		return quarry.ParseDate(t)
	}
	return quarry.Date{}, fmt.Errorf("investigate: day value %v (%T) is not a date", v, v)
}

// measureOverall computes the metric in both periods, day by day, and
// tests whether the change is larger than day-to-day noise.
func (r *run) measureOverall(ctx context.Context) error {
	sql := r.scope.daily(nil, "")
	res, rec, err := r.rec.query(ctx, "overall metric per day", sql)
	if err != nil {
		return err
	}
	var s series
	var stamps []quarry.Date
	var valued [2]int // days with a non-NULL numerator, per period
	for i, row := range res.Rows {
		day, err := asDate(row[0])
		if err != nil {
			return err
		}
		if row[1] != nil {
			if r.scope.base.Contains(day) {
				valued[0]++
			}
			if r.scope.cmp.Contains(day) {
				valued[1]++
			}
		}
		s.add(r.scope, day, res.Float(i, 1), res.Float(i, 2), int64(res.Float(i, 3)))
		r.overall.dayRows = append(r.overall.dayRows, dayRows{day: day, rows: res.Float(i, 3)})
		stamps = append(stamps, day)
	}
	r.grain = detectGrain(stamps)
	if r.grain.unit != investigation.GrainDay {
		r.progress(investigation.Event{Step: "overall", Message: fmt.Sprintf("the data is %s: one date per %s, so periods are compared %s by %s",
			r.grain.adjective(), r.grain.noun(), r.grain.noun(), r.grain.noun())})
	}
	if s.rowsBase == 0 || s.rowsCmp == 0 {
		return r.noDataError(ctx, s)
	}
	for p, name := range []string{"baseline", "comparison"} {
		if valued[p] == 0 {
			r.warn(fmt.Sprintf("The metric %s is NULL on every row of the %s period: the column it reads has no values there, so the period shows 0.", r.metric.Numerator, name))
		}
	}
	if b, c := r.scope.base, r.scope.cmp; !b.End.Time().Before(c.Start.Time()) && !c.End.Time().Before(b.Start.Time()) {
		lo, hi := maxDate(b.Start, c.Start), minDate(b.End, c.End)
		r.warn(fmt.Sprintf("The baseline and comparison periods overlap (%s..%s): rows of those days count in both, which shrinks the change.", lo, hi))
	}
	if err := r.checkPeriodBudget(); err != nil {
		return err
	}
	o := &r.overall
	// A day (or month, at a monthly grain) without rows is one the metric
	// was zero (or undefined, for ratios), not one that did not happen.
	s.base, s.cmp = r.fillDays(s.base, r.scope.base), r.fillDays(s.cmp, r.scope.cmp)
	o.series, o.rec = s, rec
	// Test deseasonalised days, so a weekly pattern is not mistaken for
	// noise; the calendar hypothesis deals with the weekday mix.
	b, c := r.deseason(s.base, s.cmp)
	o.test = drill.ChangeTest(b, c, r.metric.Ratio(), r.metric.Scale)
	v0, v1 := r.metric.Value(s.num[0], s.den[0]), r.metric.Value(s.num[1], s.den[1])
	if r.metric.Kind == investigation.MetricDistinct {
		// Distinct counts do not add up over days; count each period once.
		if v0, v1, err = r.distinctTotals(ctx); err != nil {
			return err
		}
	}
	if err := r.checkFinite(s, v0, v1); err != nil {
		return err
	}
	o.change = investigation.OverallChange{
		Metric:          r.metric.SQL,
		BaselineValue:   v0,
		ComparisonValue: v1,
		Change:          v1 - v0,
		ChangePct:       pct(v1-v0, v0),
		PValue:          o.test.PValue,
		Significant:     o.test.PValue <= alpha,
		Grain:           r.grain.unit,
		BelowPrecision:  o.test.BelowPrecision,
	}
	if math.IsNaN(o.test.PValue) {
		// Without a variance estimate, call a change of over 5% real.
		o.change.PValue = -1
		o.change.Significant = math.Abs(o.change.ChangePct) > 5
	}
	if o.test.BelowPrecision {
		r.progress(investigation.Event{Step: "overall", Message: "metric: " + r.noiseText()})
		return nil
	}
	r.progress(investigation.Event{Step: "overall", Message: fmt.Sprintf("metric moved from %s to %s (%+.1f%%), %s over %d+%d %ss",
		num(v0), num(v1), o.change.ChangePct, stat("p", o.test.PValue), len(s.base), len(s.cmp), r.grain.noun())})
	return nil
}

// alpha is the significance level of every test, after correction.
const alpha = 0.05

func (r *run) distinctTotals(ctx context.Context) (float64, float64, error) {
	var out [2]float64
	for p, rg := range []quarry.DateRange{r.scope.base, r.scope.cmp} {
		sql := fmt.Sprintf("SELECT %s FROM %s WHERE %s", r.metric.Numerator, r.scope.from(), r.scope.where(r.scope.in(rg)))
		res, _, err := r.rec.query(ctx, fmt.Sprintf("distinct count in period %d", p), sql)
		if err != nil {
			return 0, 0, err
		}
		out[p] = r.metric.Value(res.Float(0, 0), 0)
	}
	return out[0], out[1], nil
}

// noDataError explains which period is empty and where the data lies.
func (r *run) noDataError(ctx context.Context, s series) error {
	which := "baseline period " + r.scope.base.String()
	if s.rowsBase > 0 {
		which = "comparison period " + r.scope.cmp.String()
	} else if s.rowsCmp == 0 {
		which = "baseline and comparison periods"
	}
	e := quarry.Errorf(quarry.ECodeNoDataInPeriod, "the metric has no rows in the %s", which)
	sql := fmt.Sprintf("SELECT MIN(%s), MAX(%s) FROM %s", r.scope.day(), r.scope.day(), r.scope.from())
	if r.metric.Where != "" {
		sql += " WHERE " + r.metric.Where
	}
	if res, _, err := r.rec.query(ctx, "date range of the data", sql); err == nil && len(res.Rows) == 1 && res.Rows[0][0] != nil {
		return e.WithHint(fmt.Sprintf("%s has data from %s to %s", r.metric.TimeColumn, res.String(0, 0), res.String(0, 1)))
	}
	return e
}

func pct(change, base float64) float64 {
	if base == 0 {
		return 0
	}
	return 100 * change / math.Abs(base)
}

// warn records a warning for the result and the report and says it in the
// progress stream.
func (r *run) warn(msg string) {
	r.warnings = append(r.warnings, msg)
	r.progress(investigation.Event{Step: "warning", Message: msg})
}

func maxDate(a, b quarry.Date) quarry.Date {
	if a.Time().After(b.Time()) {
		return a
	}
	return b
}

func minDate(a, b quarry.Date) quarry.Date {
	if a.Time().Before(b.Time()) {
		return a
	}
	return b
}
