package analyze_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/analysis"
)

// countyRows are counties of three states, most named once, "Washington
// County" and "Clay County" in each: a label that repeats across the
// rows it names.
func countyRows() [][]string {
	rows := [][]string{{"fips", "county", "st", "unemp_rt"}}
	fips := 1000
	add := func(name, st string, rate float64) {
		fips += 3
		rows = append(rows, []string{fmt.Sprint(fips), name, st, fmt.Sprint(rate)})
	}
	for i, st := range []string{"OH", "MI", "IN"} {
		add("Washington County", st, 5+float64(i)) // 5, 6, 7: together 6
		add("Clay County", st, 4)
		for k := range 6 {
			add(fmt.Sprintf("%s%d County", st, k), st, 3+float64(k)/2) // up to 5.5
		}
	}
	return rows
}

// TestNamesakesAreRankedApart: "which county has the highest rate" over
// a table where county names repeat across states ranks each county, told
// apart by its state, not the average of the counties that share a name.
func TestNamesakesAreRankedApart(t *testing.T) {
	path := writeRows(t, "counties.csv", countyRows())
	res := runRequest(t, "county w/ highest unemployment rate", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s; want completed", res.Status)
	}
	want := [][]string{{"county", "st", "avg_unemp_rt"}, {"Washington County", "IN", "7"}}
	if got := readTable(t, res, "by_county"); !reflect.DeepEqual(got, want) {
		t.Errorf("by_county = %v; want %v", got, want)
	}
	if !strings.Contains(res.Summary, "told apart by st") {
		t.Errorf("summary %q; want it to say the names repeat", res.Summary)
	}

	res = runRequest(t, "top 3 counties by unemp_rt", path)
	got := readTable(t, res, "by_county")
	if len(got) != 4 || got[1][1] != "IN" || got[2][1] != "MI" || got[2][0] != "Washington County" {
		t.Errorf("by_county = %v; want Washington County of IN, then of MI", got)
	}
	if !strings.Contains(res.Summary, "Washington County (IN) leads") {
		t.Errorf("summary %q; want the leader with its state", res.Summary)
	}

	// within one state the names do not repeat
	res = runRequest(t, "which county in MI has the highest unemp_rt", path)
	if got := readTable(t, res, "by_county"); len(got) != 2 || got[0][1] != "avg_unemp_rt" || got[1][0] != "Washington County" {
		t.Errorf("by_county in MI = %v; want Washington County alone", got)
	}
}

// TestRepeatedDimensionIsNotANamesake: a region repeating over the rows
// of a region-by-product table is one region, and an order number
// repeating over its lines one order: both are grouped alone.
func TestRepeatedDimensionIsNotANamesake(t *testing.T) {
	rows := [][]string{{"region", "product", "sales"}}
	for _, r := range []string{"East", "West"} {
		for k, p := range []string{"Widget", "Gadget", "Gizmo"} {
			rows = append(rows, []string{r, p, fmt.Sprint(10*(k+1) + len(r))})
		}
	}
	res := runRequest(t, "which region has the highest sales", writeRows(t, "sales.csv", rows))
	if got := readTable(t, res, "by_region"); len(got) != 2 || len(got[0]) != 2 || got[1][0] != "East" {
		t.Errorf("by_region = %v; want East by its total", got)
	}

	lines := [][]string{{"order_no", "product", "amount"}}
	for o := range 6 {
		lines = append(lines, []string{fmt.Sprintf("A%d", o), "Widget", fmt.Sprint(o + 1)})
		if o%2 == 0 {
			lines = append(lines, []string{fmt.Sprintf("A%d", o), "Gadget", "10"})
		}
	}
	res = runRequest(t, "which order_no has the highest total amount", writeRows(t, "lines.csv", lines))
	if got := readTable(t, res, "by_order_no"); len(got) != 2 || len(got[0]) != 2 || got[1][0] != "A4" {
		t.Errorf("by_order_no = %v; want A4 with its two lines", got)
	}
}

// TestARateWithinEachGroup: "reopen rate by channel" is the reopened
// share of each channel's tickets; another filter scopes the whole.
func TestARateWithinEachGroup(t *testing.T) {
	rows := [][]string{{"tkt_id", "chan", "agent", "reopened"}}
	add := func(chan_, agent string, n, reopened int) {
		for k := range n {
			r := "N"
			if k < reopened {
				r = "Y"
			}
			rows = append(rows, []string{fmt.Sprintf("T%03d", len(rows)), chan_, agent, r})
		}
	}
	add("email", "ana", 10, 1) // email: 1 + 3 of 20
	add("email", "ben", 10, 3)
	add("chat", "ana", 4, 2) // chat: 2 + 0 of 8
	add("chat", "ben", 4, 0)
	path := writeRows(t, "tix.csv", rows)
	res := runRequest(t, "reopen rate by chan", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s %+v", res.Status, res.Error)
	}
	want := [][]string{{"chan", "rate_pct", "part", "whole"}, {"chat", "25", "2", "8"}, {"email", "20", "4", "20"}}
	if got := readTable(t, res, "rate_by_chan"); !reflect.DeepEqual(got, want) {
		t.Errorf("rate_by_chan = %v; want %v", got, want)
	}
	res = runRequest(t, "reopen rate by chan for ben", path)
	want = [][]string{{"chan", "rate_pct", "part", "whole"}, {"email", "30", "3", "10"}, {"chat", "0", "0", "4"}}
	if got := readTable(t, res, "rate_by_chan"); !reflect.DeepEqual(got, want) {
		t.Errorf("rate_by_chan for ben = %v; want %v", got, want)
	}
}
