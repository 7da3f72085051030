package investigate

import (
	"context"
	"fmt"

	"github.com/quarry-dev/quarry/drill"
)

// dataExtent returns the first and last dates of the metric's rows over
// the whole data, not only the two periods: a period that runs past the
// last date is cut by the data's end, not by missing days.
func (r *run) dataExtent(ctx context.Context) (first, last string, rec record, err error) {
	w := ""
	if r.metric.Where != "" {
		w = "\nWHERE " + r.metric.Where
	}
	sql := fmt.Sprintf("SELECT min(%s) AS first_day, max(%s) AS last_day\nFROM %s%s", r.scope.day(), r.scope.day(), r.scope.from(), w)
	res, rec, err := r.rec.query(ctx, "the data's first and last dates", sql)
	if err != nil || len(res.Rows) == 0 || res.Rows[0][0] == nil {
		return "", "", rec, err
	}
	a, err := asDate(res.Rows[0][0])
	if err != nil {
		return "", "", rec, err
	}
	b, err := asDate(res.Rows[0][1])
	if err != nil {
		return "", "", rec, err
	}
	return a.String(), b.String(), rec, nil
}

// wholeGaps checks the periods' dates without any row: a run before the
// data's first or after its last date is a boundary of the data, named
// first; inside the data, empty dates the row rate explains (sparse
// events) are quiet, and only the others are missing (drill.ClassifyGaps).
// quiet says what the rate explained, for the step's summary.
func (r *run) wholeGaps(ctx context.Context, baseDates, cmpDates []string) (issues []qualityIssue, quiet string, err error) {
	first, last, extentRec, err := r.dataExtent(ctx)
	if err != nil {
		return nil, "", err
	}
	rows := map[string]float64{}
	for _, d := range r.overall.dayRows {
		rows[d.day.String()] += d.rows
	}
	var quietN int
	var g drill.Gaps
	for p, ds := range [][]string{baseDates, cmpDates} {
		name := [2]string{"baseline", "comparison"}[p]
		// Each period at its own rate: the rate may be what changed.
		g = drill.ClassifyGaps(ds, rows, first, last, nil)
		quietN += len(g.Quiet)
		if len(g.Before) > 0 {
			issues = append(issues, r.boundaryIssue(fmt.Sprintf("the data starts on %s: the %s period's first %d %ss (%s) have no rows",
				first, name, len(g.Before), r.grain.noun(), span(g.Before)), g.Before, ds, p, extentRec))
		}
		if len(g.After) > 0 {
			issues = append(issues, r.boundaryIssue(fmt.Sprintf("the data stops after %s: the %s period's last %d %ss (%s) have no rows",
				last, name, len(g.After), r.grain.noun(), span(g.After)), g.After, ds, p, extentRec))
		}
		if len(g.Missing) > 0 {
			is := drill.Issue{Kind: drill.IssueMissingDays, Severity: float64(len(g.Missing)) / float64(len(ds)),
				Detail: fmt.Sprintf("the table has no rows on %d of the %s period's %d %ss (%s)", len(g.Missing), name, len(ds), r.grain.noun(), drill.ListDates(g.Missing, 5)),
				Values: map[string]float64{"missing_days": float64(len(g.Missing)), "expected_days": float64(len(ds)), "comparison": float64(p)}}
			if g.PEmpty > 1e-6 {
				is.Detail += fmt.Sprintf(", more than a rate of %s rows a %s explains", num(g.Rate), r.grain.noun())
			}
			issues = append(issues, qualityIssue{Issue: is, rec: r.overall.rec, impact: r.wholeDayImpact(is)})
		}
	}
	if quietN > 0 {
		quiet = fmt.Sprintf(" %d %ss without rows are sparse events, not missing data: at %s rows a %s (the comparison's rate), %s of %ss have none.",
			quietN, r.grain.noun(), num(g.Rate), r.grain.noun(), pctOf(g.PEmpty), r.grain.noun())
	}
	return issues, quiet, nil
}

// boundaryIssue is a run of empty dates before the data starts or after
// it stops, in period p (0 baseline, 1 comparison) of dates ds.
func (r *run) boundaryIssue(detail string, empty, ds []string, p int, rec record) qualityIssue {
	is := drill.Issue{Kind: drill.IssueDataBoundary, Detail: detail, Severity: float64(len(empty)) / float64(len(ds)),
		Values: map[string]float64{"missing_days": float64(len(empty)), "expected_days": float64(len(ds)), "comparison": float64(p)}}
	return qualityIssue{Issue: is, rec: rec, impact: r.wholeDayImpact(is)}
}

// span names a run of dates: "2002-07-26 to 2002-12-31", or the one date.
func span(dates []string) string {
	if len(dates) == 1 {
		return dates[0]
	}
	return dates[0] + " to " + dates[len(dates)-1]
}
