package investigate

import (
	"sort"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// grain is the spacing of the data's time stamps. Monthly or yearly data
// has one date per month or year; reading it as daily would count every
// day between two stamps as missing and test the change against
// "day-to-day" noise of days that never exist. Every per-period step of an
// investigation (the series, the missing-period check, the noise model and
// the charts) runs on the grain's periods instead.
type grain struct {
	unit       string      // one of the quarry.Grain constants
	anchor     quarry.Date // a stamp of the data, fixing weekday or day of month
	endOfMonth bool        // monthly stamps on the last day of the month
}

var daily = grain{unit: investigation.GrainDay}

// detectGrain finds the grain of the distinct dates the data has. Dates
// all on the same day of the year, a year or more apart, are yearly; all
// on the same day of the month (or the last day of each month) are monthly,
// or quarterly when three months or more apart in step; all on the same
// weekday a week or more apart are weekly. Anything else, and fewer than
// two dates, is daily.
func detectGrain(dates []quarry.Date) grain {
	ds := append([]quarry.Date(nil), dates...)
	sort.Slice(ds, func(i, j int) bool { return ds[i].Time().Before(ds[j].Time()) })
	ds = uniqueDates(ds)
	if len(ds) < 2 {
		return daily
	}
	first := ds[0].Time()
	minGap := 1 << 30
	sameYearDay, sameMonthDay, monthEnd, sameWeekday, quarterStep := true, true, true, true, true
	for i, d := range ds {
		t := d.Time()
		sameYearDay = sameYearDay && t.Month() == first.Month() && t.Day() == first.Day()
		sameMonthDay = sameMonthDay && t.Day() == first.Day()
		monthEnd = monthEnd && t.AddDate(0, 0, 1).Day() == 1
		sameWeekday = sameWeekday && t.Weekday() == first.Weekday()
		quarterStep = quarterStep && (int(t.Month())-int(first.Month())+12)%3 == 0
		if i > 0 {
			minGap = min(minGap, int(t.Sub(ds[i-1].Time()).Hours()/24+0.5))
		}
	}
	g := grain{anchor: ds[0]}
	switch {
	case sameYearDay && minGap >= 365:
		g.unit = investigation.GrainYear
	case (sameMonthDay || monthEnd) && minGap >= 89 && quarterStep:
		g.unit, g.endOfMonth = investigation.GrainQuarter, monthEnd && !sameMonthDay
	case (sameMonthDay || monthEnd) && minGap >= 28:
		g.unit, g.endOfMonth = investigation.GrainMonth, monthEnd && !sameMonthDay
	case sameWeekday && minGap >= 7:
		g.unit = investigation.GrainWeek
	default:
		return daily
	}
	return g
}

func uniqueDates(sorted []quarry.Date) []quarry.Date {
	out := sorted[:0]
	for i, d := range sorted {
		if i == 0 || d != sorted[i-1] {
			out = append(out, d)
		}
	}
	return out
}

// periods returns the grain's stamps inside rg, in order: the dates a
// complete dataset at this grain has rows on.
func (g grain) periods(rg quarry.DateRange) []quarry.Date {
	var out []quarry.Date
	start, end := rg.Start.Time(), rg.End.Time()
	if g.unit == investigation.GrainDay || g.anchor.IsZero() {
		for t := start; !t.After(end); t = t.AddDate(0, 0, 1) {
			out = append(out, quarry.NewDate(t))
		}
		return out
	}
	if g.unit == investigation.GrainWeek {
		a := g.anchor.Time()
		off := (int(a.Weekday()) - int(start.Weekday()) + 7) % 7
		for t := start.AddDate(0, 0, off); !t.After(end); t = t.AddDate(0, 0, 7) {
			out = append(out, quarry.NewDate(t))
		}
		return out
	}
	step := map[string]int{investigation.GrainMonth: 1, investigation.GrainQuarter: 3, investigation.GrainYear: 12}[g.unit]
	a := g.anchor.Time()
	// Walk month by month from well before the range, so the anchor's
	// phase (which month of the quarter or year) is kept.
	months := (start.Year()-a.Year())*12 + int(start.Month()) - int(a.Month())
	k := months / step
	if months < 0 && months%step != 0 {
		k--
	}
	for ; ; k++ {
		t := g.stamp(a, k*step)
		if t.After(end) {
			break
		}
		if !t.Before(start) {
			out = append(out, quarry.NewDate(t))
		}
	}
	return out
}

// stamp returns the anchor moved by n months, on the anchor's day of the
// month (clamped to the month's length) or the month's last day.
func (g grain) stamp(a time.Time, n int) time.Time {
	first := time.Date(a.Year(), a.Month()+time.Month(n), 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	day := a.Day()
	if g.endOfMonth || day > last {
		day = last
	}
	return first.AddDate(0, 0, day-1)
}

// noun returns the grain's period in words: "day", "month", ...; a grain
// not yet measured is daily.
func (g grain) noun() string {
	if g.unit == "" {
		return investigation.GrainDay
	}
	return g.unit
}

// isDaily reports whether the data has one value a day, so days and
// weekdays are what its checks compare.
func (g grain) isDaily() bool { return g.noun() == investigation.GrainDay }

// adjective returns "daily", "monthly", ...
func (g grain) adjective() string {
	return map[string]string{investigation.GrainDay: "daily", investigation.GrainWeek: "weekly", investigation.GrainMonth: "monthly",
		investigation.GrainQuarter: "quarterly", investigation.GrainYear: "yearly"}[g.noun()]
}
