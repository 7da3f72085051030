package intent

import "testing"

// TestDaysFromOneDateToAnother: a length of time between two date columns
// is a measure of each row's days, with the aggregate said before it; a
// superlative after "which" ranks; without a word of time, "between" two
// dates is no span.
func TestDaysFromOneDateToAnother(t *testing.T) {
	d := func(n, lo, hi string) Column { return Column{Name: n, Type: "date", Min: lo, Max: hi} }
	bk := schemaOf("bkgs", Column{Name: "bk_id", Type: "string"}, d("bk_dt", "2022-01-01", "2024-12-31"),
		d("chk_in_dt", "2022-01-05", "2025-03-01"), Column{Name: "nts", Type: "integer", Min: "1", Max: "14"},
		Column{Name: "chan", Type: "string", Values: []string{"OTA", "Direct"}})
	span := func(agg string) []Measure { return []Measure{{Column: "chk_in_dt", Since: "bk_dt", Agg: agg}} }
	checkCases(t, []parseCase{
		{text: "median lead time in days (bk_dt to chk_in_dt)", schema: bk, want: want{Table: "bkgs", Measures: span("median")}},
		{text: "avg days from bk_dt to chk_in_dt by chan", schema: bk, want: want{Table: "bkgs", Measures: span("avg"), GroupBy: []Group{{"chan", ""}}}},
		{text: "how many days between bk_dt and chk_in_dt on average", schema: bk, want: want{Table: "bkgs", Measures: span("avg")}},
		{text: "longest gap between bk_dt and chk_in_dt", schema: bk, want: want{Table: "bkgs", Measures: span("max")}},
	})
	reported(t, bk, "total nts between bk_dt and chk_in_dt")
}
