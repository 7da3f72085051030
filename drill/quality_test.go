package drill

import (
	"strings"
	"testing"
	"time"
)

// dates returns n consecutive dates from start.
func dates(start string, n int) []string {
	t, err := time.Parse(time.DateOnly, start)
	if err != nil {
		panic(err)
	}
	out := make([]string, n)
	for i := range out {
		out[i] = t.AddDate(0, 0, i).Format(time.DateOnly)
	}
	return out
}

// kinds lists the issues' kinds and segments for failure messages.
func kinds(issues []Issue) []string {
	var out []string
	for _, i := range issues {
		out = append(out, i.Kind+":"+i.Segment)
	}
	return out
}

func TestMissingDays(t *testing.T) {
	base, cmp := dates("2026-01-01", 14), dates("2026-01-15", 14)
	gap := append(append([]string(nil), cmp[:5]...), cmp[7:]...) // no rows on 2 days
	tests := []struct {
		name string
		segs []SegmentDays
		want []string
	}{
		{"clean", []SegmentDays{{"", base, cmp}, {"region=EU", base, cmp}, {"region=US", base[:4], cmp[:3]}}, nil},
		{"segment gap", []SegmentDays{{"", base, cmp}, {"region=EU", base, gap}, {"region=US", base, cmp}},
			[]string{"missing_days:region=EU"}},
		{"table gap", []SegmentDays{{"", base, gap}, {"region=EU", base, gap}}, []string{"missing_days:"}},
		{"baseline gap", []SegmentDays{{"", base, cmp}, {"region=EU", base[3:], cmp}},
			[]string{"missing_days:region=EU"}},
		{"sparse segment", []SegmentDays{{"", base, cmp}, {"sku=rare", base[:5], cmp[:1]}}, nil},
	}
	for _, tt := range tests {
		got := MissingDays(tt.segs, base, cmp)
		if strings.Join(kinds(got), " ") != strings.Join(tt.want, " ") {
			t.Errorf("MissingDays(%s) = %v; want %v", tt.name, kinds(got), tt.want)
		}
	}
	got := MissingDays([]SegmentDays{{"", base, cmp}, {"region=EU", base, gap}}, base, cmp)
	if i := got[0]; i.Column != "region" || i.Values["missing_days"] != 2 || i.Severity != 2.0/14 ||
		!strings.Contains(i.Detail, "2026-01-20, 2026-01-21") {
		t.Errorf("MissingDays(segment gap) = %+v; want region, 2 days of 14, dates in detail", i)
	}
}

func TestNullSpike(t *testing.T) {
	tests := []struct {
		name string
		cols []NullCounts
		want []string
	}{
		{"spike", []NullCounts{{Column: "country", Nulls0: 50, Rows0: 10000, Nulls1: 800, Rows1: 10000}}, []string{"null_spike:"}},
		{"stable", []NullCounts{{Column: "country", Nulls0: 500, Rows0: 10000, Nulls1: 520, Rows1: 10000}}, nil},
		{"small rise", []NullCounts{{Column: "country", Nulls0: 200, Rows0: 10000, Nulls1: 400, Rows1: 10000}}, nil},
		{"too few rows", []NullCounts{{Column: "country", Nulls0: 0, Rows0: 20, Nulls1: 2, Rows1: 20}}, nil},
		{"empty", []NullCounts{{Column: "country"}}, nil},
	}
	for _, tt := range tests {
		got := NullSpike(tt.cols)
		if strings.Join(kinds(got), " ") != strings.Join(tt.want, " ") {
			t.Errorf("NullSpike(%s) = %v; want %v", tt.name, kinds(got), tt.want)
		}
	}
	got := NullSpike([]NullCounts{{Column: "country", Nulls0: 50, Rows0: 10000, Nulls1: 800, Rows1: 10000}})
	if i := got[0]; i.Column != "country" || !approx(i.Severity, 0.075, 1e-12) || i.Values["p_value"] > 1e-10 {
		t.Errorf("NullSpike(spike) = %+v; want column country, severity 0.075, tiny p", i)
	}
}

func TestCategories(t *testing.T) {
	cats := []CategoryCount{
		{Value: "web", Rows0: 500, Rows1: 480, Volume0: 5000, Volume1: 4800},
		{Value: "Mobile App", Rows0: 300, Rows1: 0, Volume0: 3000, Volume1: 0},
		{Value: "mobile_app", Rows0: 0, Rows1: 310, Volume0: 0, Volume1: 3100},
		{Value: "kiosk", Rows0: 0, Rows1: 1, Volume0: 0, Volume1: 1},
	}
	got := Categories("channel", cats)
	want := "new_category:channel=mobile_app vanished_category:channel=Mobile App"
	if strings.Join(kinds(got), " ") != want {
		t.Fatalf("Categories = %v; want %v", kinds(got), want)
	}
	if !strings.Contains(got[0].Detail, "rename") || !approx(got[0].Severity, 3100.0/7901, 1e-12) {
		t.Errorf("Categories new = %+v; want a rename hint and severity 3100/7901", got[0])
	}
	clean := Categories("channel", cats[:1])
	if len(clean) != 0 {
		t.Errorf("Categories(clean) = %v; want none", kinds(clean))
	}
}

func TestPartialLastDay(t *testing.T) {
	week := func(start string, rows ...float64) []DayCount {
		out := make([]DayCount, len(rows))
		for i, d := range dates(start, len(rows)) {
			out[i] = DayCount{d, rows[i]}
		}
		return out
	}
	// 2026-01-05 is a Monday; weekends are quiet.
	base := week("2026-01-05", 1000, 1010, 990, 1005, 995, 300, 280)
	tests := []struct {
		name string
		cmp  []DayCount
		want []string
	}{
		{"partial", week("2026-01-12", 1000, 1010, 990, 1005, 995, 300, 80), []string{"partial_last_day:"}},
		{"quiet sunday", week("2026-01-12", 1000, 1010, 990, 1005, 995, 300, 290), nil},
		{"ends on a weekday", week("2026-01-12", 1000, 1010, 990, 1005, 400), []string{"partial_last_day:"}},
		{"whole period lower", week("2026-01-12", 400, 410, 390, 405, 395), nil},
		{"too short", week("2026-01-12", 1000, 10), nil},
	}
	for _, tt := range tests {
		got := PartialLastDay(base, tt.cmp)
		if strings.Join(kinds(got), " ") != strings.Join(tt.want, " ") {
			t.Errorf("PartialLastDay(%s) = %v; want %v", tt.name, kinds(got), tt.want)
		}
	}
	got := PartialLastDay(week("2026-01-05", 1000, 1010, 990, 1005, 400), nil)
	if len(got) != 1 || got[0].Values["comparison"] != 0 || !approx(got[0].Severity, 1-400/1002.5, 1e-12) {
		t.Errorf("PartialLastDay(baseline partial) = %+v; want one baseline issue, severity 1-400/1002.5", got)
	}
}

// TestPartialLastMonth: monthly dates have no weekday to compare by. The
// last month is set against the period's other months, not against the
// months that happen to start on the same weekday (two Mondays here, one
// of them quiet), and the detail names months.
func TestPartialLastMonth(t *testing.T) {
	base := []DayCount{{"2024-01-01", 40}, {"2024-02-01", 100}, {"2024-03-01", 100}}
	cmp := []DayCount{{"2024-04-01", 100}, {"2024-05-01", 100}, {"2024-06-01", 100}, {"2024-07-01", 45}}
	if got := PartialLastDay(base, cmp); len(got) != 0 {
		t.Errorf("PartialLastDay(months as days) = %v; want none: the Mondays' median is 70", kinds(got))
	}
	got := PartialLast(base, cmp, "month")
	const want = "the last comparison month, 2024-07-01, has 45 rows against 100 in a normal month"
	if len(got) != 1 || got[0].Detail != want {
		t.Errorf("PartialLast(months) = %+v; want one issue %q", got, want)
	}
}

func TestDuplicates(t *testing.T) {
	tests := []struct {
		name string
		c    DupCounts
		want []string
	}{
		{"clean", DupCounts{"order_id", 10000, 10000, 10000, 11000, 11000, 11000}, nil},
		{"steady duplicates", DupCounts{"order_id", 10000, 9800, 9800, 11000, 10780, 10780}, nil},
		{"double load", DupCounts{"order_id", 10000, 10000, 10000, 12000, 10000, 10000}, []string{"duplicate_rows:"}},
		{"updates appended", DupCounts{"order_id", 10000, 10000, 10000, 12000, 12000, 10000}, []string{"duplicate_keys:"}},
		{"no key", DupCounts{"", 10000, 10000, 0, 12000, 12000, 0}, nil},
		{"both", DupCounts{"order_id", 10000, 10000, 10000, 14000, 12000, 10000}, []string{"duplicate_rows:", "duplicate_keys:"}},
	}
	for _, tt := range tests {
		got := Duplicates(tt.c)
		if strings.Join(kinds(got), " ") != strings.Join(tt.want, " ") {
			t.Errorf("Duplicates(%s) = %v; want %v", tt.name, kinds(got), tt.want)
		}
	}
	got := Duplicates(DupCounts{"order_id", 10000, 10000, 10000, 12000, 12000, 10000})
	if got[0].Column != "order_id" || !approx(got[0].Severity, 2000.0/12000, 1e-12) {
		t.Errorf("Duplicates(updates appended) = %+v; want column order_id, severity 1/6", got[0])
	}
}

func TestSumRows(t *testing.T) {
	days := []string{"2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04"}
	perDay := map[string]map[string]float64{"c=a": {}, "c=b": {}, "c=c": {}, "c=Total": {}}
	for i, d := range days {
		a, b, c := float64(10+i), float64(20+2*i), float64(5)
		perDay["c=a"][d], perDay["c=b"][d], perDay["c=c"][d] = a, b, c
		perDay["c=Total"][d] = a + b + c
	}
	perDay["c=Total"]["2024-01-04"] += 0.1 // rounding in the export
	got := SumRows("c", perDay)
	if len(got) != 1 || got[0].Segment != "c=Total" || got[0].Kind != IssueSumRows || got[0].Values["days_matching"] != 4 {
		t.Fatalf("SumRows = %+v; want c=Total on 4 days", got)
	}
	// Without the total nothing is flagged, and a value that is half the
	// total on one day only is not a total.
	delete(perDay, "c=Total")
	perDay["c=a"]["2024-01-01"] = 25
	if got := SumRows("c", perDay); len(got) != 0 {
		t.Errorf("SumRows without totals = %+v", got)
	}
}
