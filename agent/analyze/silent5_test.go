package analyze_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/analysis"
)

// TestEveryMeasureOfATrendIsAColumn: "sessions and revenue per day" is
// one table of both per day, and the change of each is computed when a
// change is asked; the summary of a step speaks of its own measure.
func TestEveryMeasureOfATrendIsAColumn(t *testing.T) {
	path := writeRows(t, "web.csv", [][]string{
		{"date", "channel", "sessions", "revenue_eur"},
		{"2024-01-01", "Email", "10", "100"}, {"2024-01-01", "Social", "20", "50"},
		{"2024-01-02", "Email", "30", "10"}, {"2024-01-03", "Social", "5", "400"},
	})
	res := runRequest(t, "sessions and revenue per day", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s; want completed", res.Status)
	}
	want := [][]string{{"period", "sessions", "revenue_eur"}, {"2024-01-01", "30", "150"}, {"2024-01-02", "30", "10"}, {"2024-01-03", "5", "400"}}
	if got := readTable(t, res, "trend"); !reflect.DeepEqual(got, want) {
		t.Errorf("trend = %v; want %v", got, want)
	}
	if !strings.Contains(res.Summary, "sessions went from 30") || strings.Contains(res.Summary, "Total sessions by day: revenue") {
		t.Errorf("summary %q; want the trend told by sessions", res.Summary)
	}

	res = runRequest(t, "growth of sessions and revenue by day", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("growth: status %s; want completed", res.Status)
	}
	got := readTable(t, res, "trend_growth_revenue_eur")
	if len(got) != 4 || got[3][slices.Index(got[0], "change")] != "390" {
		t.Errorf("trend_growth_revenue_eur = %v; want the change of revenue_eur, 390 on the last day", got)
	}
	if !strings.Contains(res.Summary, "revenue_eur went from 150") {
		t.Errorf("summary %q; want the change of revenue_eur told", res.Summary)
	}
}
