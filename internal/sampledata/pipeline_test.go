package sampledata

import (
	"testing"
	"time"
)

func TestBrokenPipeline(t *testing.T) {
	s, _ := Get("broken_pipeline")
	events := loadTable(t, s, "events.csv")
	base, comp := events.sums(s, "event_date", "value", nil)
	change := comp - base
	t.Logf("value: baseline %.2f comparison %.2f change %.2f (%.2f%%)", base, comp, change, 100*change/base)
	if pct := change / base; pct > -0.07 || pct < -0.15 {
		t.Errorf("value change = %.2f%%; want between -15%% and -7%%", 100*pct)
	}

	isEU := events.in(s.Planted[0].Segment)
	eb, ec := events.sums(s, "event_date", "value", isEU)
	euShare := (ec - eb) / change
	t.Logf("source_system=eu_batch: %.2f -> %.2f change %.2f share %.3f", eb, ec, ec-eb, euShare)

	// Rows and non-eu_batch value per day.
	rows, other := map[string]int{}, map[string]float64{}
	euRows := map[string]int{}
	for i := range events.rows {
		d := events.get(i, "event_date")
		rows[d]++
		if isEU(i) {
			euRows[d]++
		} else {
			other[d] += events.num(i, "value")
		}
	}
	for d := date("2024-06-27"); !d.Time().After(s.Comparison.End.Time()); d = d.AddDays(1) {
		if euRows[d.String()] != 0 {
			t.Errorf("eu_batch rows on %s = %d; want 0", d, euRows[d.String()])
		}
	}
	if euRows["2024-06-26"] == 0 {
		t.Errorf("eu_batch rows on 2024-06-26 = 0; want the outage to start on 2024-06-27")
	}

	// The last day is a Sunday; compare it with the earlier Sundays.
	last := s.Comparison.End
	if last.Weekday() != time.Sunday {
		t.Fatalf("last day %s is a %s; the test assumes a Sunday", last, last.Weekday())
	}
	var sundays []string
	for d := s.Baseline.Start; d.Time().Before(last.Time()); d = d.AddDays(1) {
		if d.Weekday() == time.Sunday {
			sundays = append(sundays, d.String())
		}
	}
	expectRows, expectOther := 0.0, 0.0
	for _, d := range sundays {
		expectRows += float64(rows[d]-euRows[d]) / float64(len(sundays))
		expectOther += other[d] / float64(len(sundays))
	}
	rowShare := float64(rows[last.String()]) / expectRows
	partial := (other[last.String()] - expectOther) / change
	t.Logf("last day %s: %d rows, %.0f expected without eu_batch (%.2f), value %.2f vs %.2f expected, share %.3f",
		last, rows[last.String()], expectRows, rowShare, other[last.String()], expectOther, partial)
	if rowShare < 0.25 || rowShare > 0.35 {
		t.Errorf("last day rows = %.2f of a normal Sunday; want about 0.30", rowShare)
	}
	t.Logf("unexplained: %.3f", 1-euShare-partial)

	checkShares(t, []shareCheck{
		{s.Planted[0], euShare, 0.50, 0.80},
		{s.Planted[1], partial, 0.20, 0.45},
	})
}
