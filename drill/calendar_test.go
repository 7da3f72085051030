package drill

import (
	"math"
	"testing"
	"time"
)

// series builds n days from start with Num (and Den) taken from the
// weekday: weekday values on Monday to Friday, weekend values otherwise.
func series(start string, n int, weekdayNum, weekendNum, weekdayDen, weekendDen float64) []Day {
	var out []Day
	for _, d := range dates(start, n) {
		wd, _ := weekday(d)
		if wd == time.Saturday || wd == time.Sunday {
			out = append(out, Day{Date: d, Num: weekendNum, Den: weekendDen})
		} else {
			out = append(out, Day{Date: d, Num: weekdayNum, Den: weekdayDen})
		}
	}
	return out
}

func TestWeekdayEffectAdditive(t *testing.T) {
	// 2026-01-03 is a Saturday: the baseline's 10 days hold 4 weekend days,
	// the comparison's (from Tuesday 2026-01-13) only 2.
	base := series("2026-01-03", 10, 100, 40, 0, 0)
	tests := []struct {
		name               string
		cmp                []Day
		wantChange, wantEx float64
	}{
		// Same levels: +120 is all calendar (760 -> 880).
		{"calendar only", series("2026-01-13", 10, 100, 40, 0, 0), 120, 120},
		// 10% growth on top: 760 -> 968; the calendar still explains 120.
		{"calendar and growth", series("2026-01-13", 10, 110, 44, 0, 0), 208, 120},
	}
	for _, tt := range tests {
		c := WeekdayEffect(base, tt.cmp, false, 1)
		if !approx(c.Change, tt.wantChange, 1e-9) || !approx(c.ExpectedChange, tt.wantEx, 1e-9) ||
			!approx(c.ShareOfChange, tt.wantEx/tt.wantChange, 1e-9) || c.LengthChange != 0 {
			t.Errorf("WeekdayEffect(%s) = %+v; want change %v, expected %v", tt.name, c, tt.wantChange, tt.wantEx)
		}
	}
	c := WeekdayEffect(base, series("2026-01-13", 10, 100, 40, 0, 0), false, 1)
	if c.Base[time.Saturday] != 2 || c.Cmp[time.Saturday] != 1 || !approx(c.Profile[time.Sunday]/c.Profile[time.Monday], 0.4, 1e-9) {
		t.Errorf("WeekdayEffect counts %v %v, profile %v; want 2 and 1 Saturdays, Sunday at 0.4 of Monday", c.Base, c.Cmp, c.Profile)
	}
}

func TestWeekdayEffectQuiet(t *testing.T) {
	// Two whole weeks against two whole weeks, 20% growth: nothing is
	// calendar.
	base := series("2026-01-05", 14, 100, 40, 0, 0)
	cmp := series("2026-01-19", 14, 120, 48, 0, 0)
	c := WeekdayEffect(base, cmp, false, 1)
	if math.Abs(c.ExpectedChange) > 1e-9 || math.Abs(c.ShareOfChange) > 1e-9 || c.LengthChange != 0 {
		t.Errorf("WeekdayEffect(same mix) = %+v; want no calendar effect", c)
	}
	// One week against two: the same mix, so only the length matters.
	c = WeekdayEffect(base[:7], cmp, false, 1)
	if math.Abs(c.ExpectedChange) > 1e-9 || !approx(c.LengthChange, 580, 1e-9) {
		t.Errorf("WeekdayEffect(1 week vs 2) = %+v; want expected 0, length +580", c)
	}
}

func TestWeekdayEffectRatio(t *testing.T) {
	// Conversion is 10% on weekdays and 5% at weekends, with half the
	// traffic; the comparison has fewer weekend days, so conversion rises.
	base := series("2026-01-03", 10, 100, 25, 1000, 500)
	cmp := series("2026-01-13", 10, 100, 25, 1000, 500)
	c := WeekdayEffect(base, cmp, true, 100)
	r0, r1 := 100*(6*100+4*25)/(6*1000+4*500.0), 100*(8*100+2*25)/(8*1000+2*500.0)
	if !approx(c.Change, r1-r0, 1e-9) || !approx(c.ExpectedChange, r1-r0, 1e-9) || !approx(c.ShareOfChange, 1, 1e-9) {
		t.Errorf("WeekdayEffect(ratio) = %+v; want change = expected = %v", c, r1-r0)
	}
	if !approx(c.Volume[time.Saturday]/c.Volume[time.Friday], 0.5, 1e-9) {
		t.Errorf("WeekdayEffect(ratio).Volume = %v; want weekends at half", c.Volume)
	}
}

func TestWeekdayEffectDegenerate(t *testing.T) {
	c := WeekdayEffect([]Day{{Date: "not a date", Num: 1}}, series("2026-01-05", 3, 1, 1, 0, 0), false, 1)
	if c.Skipped != 1 || c.ExpectedChange != 0 || c.Profile != ones() {
		t.Errorf("WeekdayEffect(no baseline) = %+v; want 1 skipped and no effect", c)
	}
	zero := WeekdayEffect(series("2026-01-05", 7, 0, 0, 0, 0), series("2026-01-12", 5, 0, 0, 0, 0), true, 1)
	if zero.Change != 0 || zero.ExpectedChange != 0 || math.IsNaN(zero.ShareOfChange) {
		t.Errorf("WeekdayEffect(all zero) = %+v; want zeros", zero)
	}
}
