package analyze_test

import (
	"slices"
	"testing"

	"github.com/quarry-dev/quarry/analysis"
)

// TestChangeByGroupBetweenPeriods: "percent change in units from 2023 to
// 2024 by store" is each store's units in both years, the change and the
// percent, largest rise first; a store without 2023 has no percent.
func TestChangeByGroupBetweenPeriods(t *testing.T) {
	rows := [][]string{{"order_date", "store", "units"},
		{"2023-02-01", "Oslo", "10"}, {"2023-06-01", "Oslo", "30"}, {"2024-03-01", "Oslo", "50"},
		{"2023-04-01", "Bergen", "20"}, {"2024-05-01", "Bergen", "10"}, {"2024-09-01", "Bergen", "5"},
		{"2024-01-01", "Tromso", "7"}, {"2022-12-31", "Oslo", "1000"}}
	path := writeRows(t, "sales.csv", rows)
	for _, text := range []string{"percent change in units from 2023 to 2024 by store", "change in units between 2023 and 2024 for each store"} {
		res := runRequest(t, text, path)
		if res.Status != analysis.StatusCompleted {
			t.Fatalf("%q: status %s (%+v)", text, res.Status, res.Error)
		}
		got := readTable(t, res, "by_store_growth")
		want := [][]string{{"store", "units 2023", "units 2024", "change", "pct_change"},
			{"Oslo", "40", "50", "10", "25"}, {"Bergen", "20", "15", "-5", "-25"}, {"Tromso", "", "7", "", ""}}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("%q: by_store_growth = %q;\nwant %q", text, got, want)
		}
	}
}

// TestByDayOfTheWeek: a grouping by weekday adds up each weekday's rows,
// named and in the week's order.
func TestByDayOfTheWeek(t *testing.T) {
	rows := [][]string{{"date", "sessions"},
		{"2025-03-03", "10"}, {"2025-03-10", "5"}, {"2025-03-04", "7"}, {"2025-03-09", "20"}}
	res := runRequest(t, "total sessions by day of the week", writeRows(t, "web.csv", rows))
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s (%+v)", res.Status, res.Error)
	}
	got := readTable(t, res, "trend")
	want := [][]string{{"period", "sessions"}, {"1 Monday", "15"}, {"2 Tuesday", "7"}, {"7 Sunday", "20"}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("by weekday = %q; want %q", got, want)
	}
}
