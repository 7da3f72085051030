package sampledata

import (
	"testing"

	"github.com/quarry-dev/quarry"
)

func TestWeekdayMix(t *testing.T) {
	s, _ := Get("weekday_mix")
	orders := loadTable(t, s, "orders.csv")
	base, comp := orders.sums(s, "order_date", "amount", nil)
	change := comp - base
	t.Logf("revenue: baseline %.2f comparison %.2f change %.2f (%+.2f%%)", base, comp, change, 100*change/base)
	if pct := change / base; pct < 0.12 || pct > 0.22 {
		t.Errorf("revenue change = %+.2f%%; want between +12%% and +22%%", 100*pct)
	}
	if s.Baseline.Days() != s.Comparison.Days() {
		t.Fatalf("periods have %d and %d days; want equal lengths", s.Baseline.Days(), s.Comparison.Days())
	}

	// Baseline revenue per weekday, averaged over the baseline's days.
	daily := map[string]float64{}
	for i := range orders.rows {
		daily[orders.get(i, "order_date")] += orders.num(i, "amount")
	}
	var sum, n [7]float64
	for _, d := range days(s.Baseline) {
		sum[d.Weekday()] += daily[d.String()]
		n[d.Weekday()]++
	}
	// The comparison at the baseline's weekday profile: what the calendar
	// alone predicts.
	expected := 0.0
	weekends := [2]int{}
	for i, r := range []quarry.DateRange{s.Baseline, s.Comparison} {
		for _, d := range days(r) {
			if weekend(d) {
				weekends[i]++
			}
		}
	}
	for _, d := range days(s.Comparison) {
		wd := d.Weekday()
		if n[wd] == 0 {
			t.Fatalf("baseline has no %s", wd)
		}
		expected += sum[wd] / n[wd]
	}
	calendar := (expected - base) / change
	t.Logf("weekend days: baseline %d comparison %d; comparison at baseline weekday profile %.2f; calendar share %.3f, profile change %.3f",
		weekends[0], weekends[1], expected, calendar, 1-calendar)
	if weekends[1] <= weekends[0] {
		t.Errorf("weekend days %d -> %d; want more in the comparison", weekends[0], weekends[1])
	}
	cause := s.Planted[0]
	if calendar < 0.8 || calendar > 1.2 {
		t.Errorf("calendar share = %.3f; want between 0.8 and 1.2", calendar)
	}
	if !near(calendar, cause.ApproxShare, 0.01) {
		t.Errorf("calendar share = %.3f; documented ApproxShare %.3f", calendar, cause.ApproxShare)
	}
}
