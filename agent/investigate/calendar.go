package investigate

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/quarry-dev/quarry/drill"
	"github.com/quarry-dev/quarry/investigation"
)

// calendarResult is the weekday-composition effect on the change.
type calendarResult struct {
	drill.CalendarEffect
	rec record
}

// checkCalendar decides the calendar hypothesis: confirmed when the
// periods' weekday composition alone predicts at least 20% of the change,
// in its direction.
func (r *run) checkCalendar(ctx context.Context) (stepResult, error) {
	var res stepResult
	if r.grain.unit != investigation.GrainDay {
		// One date per week, month or year: the periods have no weekday
		// mix, and a weekly profile of monthly stamps would be noise.
		res.summary = fmt.Sprintf("The data is %s, one date per %s, so there is no weekday mix to compare.", r.grain.adjective(), r.grain.noun())
		res.verdict, res.reason = investigation.HypRuledOut, fmt.Sprintf("%s data has no weekday mix", r.grain.adjective())
		return res, nil
	}
	eff := drill.WeekdayEffect(r.overall.base, r.overall.cmp, r.metric.Ratio(), r.metric.Scale)
	r.stats.calendar = &calendarResult{CalendarEffect: eff, rec: r.overall.rec}
	res.addQuery("overall metric per day", r.overall.rec, weekdayTable(eff))
	share := safeShare(eff.ExpectedChange, r.overall.change.Change)
	same := eff.Base == eff.Cmp
	switch {
	case same:
		res.summary = fmt.Sprintf("Both periods have the same weekday composition (%s), so the calendar explains none of the change.", weekdayCounts(eff.Base))
		res.verdict, res.reason = investigation.HypRuledOut, "identical weekday composition"
	case share >= 0.2:
		res.summary = fmt.Sprintf("The periods differ in weekdays (baseline %s; comparison %s) and the weekly profile alone predicts a change of %s, %s of the observed change.",
			weekdayCounts(eff.Base), weekdayCounts(eff.Cmp), r.fmtChange(eff.ExpectedChange), sharePct(share))
		res.verdict = investigation.HypConfirmed
		res.reason = fmt.Sprintf("weekday composition predicts %s of the change", sharePct(share))
	default:
		res.summary = fmt.Sprintf("The periods differ in weekdays (baseline %s; comparison %s), but the weekly profile predicts only %s (%s of the change).",
			weekdayCounts(eff.Base), weekdayCounts(eff.Cmp), r.fmtChange(eff.ExpectedChange), sharePct(share))
		res.verdict = investigation.HypRuledOut
		res.reason = fmt.Sprintf("weekday composition predicts only %s of the change", sharePct(share))
	}
	if !r.metric.Ratio() && eff.LengthChange != 0 {
		res.summary += fmt.Sprintf(" The periods' different lengths alone account for %s.", r.fmtChange(eff.LengthChange))
	}
	return res, nil
}

func weekdayCounts(c [7]int) string {
	var parts []string
	for d := time.Monday; ; d = (d + 1) % 7 {
		if c[d] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[d], d.String()[:3]))
		}
		if d == time.Sunday {
			break
		}
	}
	return strings.Join(parts, ", ")
}

func weekdayTable(e drill.CalendarEffect) string {
	var b strings.Builder
	b.WriteString("weekday  base days  cmp days  profile\n")
	for d := time.Sunday; d <= time.Saturday; d++ {
		p := e.Profile[d]
		if math.IsNaN(p) {
			p = 1
		}
		fmt.Fprintf(&b, "%-8s %9d %9d  %7.3f\n", d.String()[:3], e.Base[d], e.Cmp[d], p)
	}
	fmt.Fprintf(&b, "expected change from weekday mix: %g; from length: %g; actual: %g\n", e.ExpectedChange, e.LengthChange, e.Change)
	return b.String()
}
