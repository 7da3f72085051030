package intent

import "testing"

// TestRowsOfADateInParts: a table with no date column whose date is in
// year, month and day-of-month columns, one row a day, has days as its
// rows: "daily", "per day" and "how many days" are read over the rows;
// "monthly" is not, and a table with fewer rows than days is not one row
// a day.
func TestRowsOfADateInParts(t *testing.T) {
	n := func(name, lo, hi string) Column { return Column{Name: name, Type: "integer", Min: lo, Max: hi} }
	cols := []Column{n("yr", "2001", "2010"), n("mon", "1", "12"), n("dom", "1", "31"), n("dow", "1", "7"), n("calls", "300", "9000")}
	daily := Schema{Tables: []Table{{Name: "calls", Rows: 3652, Columns: cols}}}
	avg := []Measure{{Column: "calls", Agg: "avg"}}
	checkCases(t, []parseCase{
		{text: "avg daily calls by dow", schema: daily, want: want{Table: "calls", Measures: avg, GroupBy: []Group{{"dow", ""}}}},
		{text: "median daily calls for 2002 through 2004", schema: daily, want: want{Table: "calls",
			Measures: []Measure{{Column: "calls", Agg: "median"}}, Filters: []Filter{{"yr", ">=", []string{"2002"}}, {"yr", "<=", []string{"2004"}}}}},
		{text: "How many days in 2003 had fewer than 1,000 calls?", schema: daily, want: want{Table: "calls",
			Measures: []Measure{{Agg: "count"}}, Filters: []Filter{{"yr", "=", []string{"2003"}}, {"calls", "<", []string{"1000"}}}}},
		{text: "avg calls per day, Feb 2006", schema: daily, want: want{Table: "calls", Measures: avg,
			Filters: []Filter{{"yr", "=", []string{"2006"}}, {"mon", "=", []string{"2"}}}}},
	})
	reported(t, daily, "avg monthly calls", "total calls per day")
	// a row every few days is not a day
	sparse := Schema{Tables: []Table{{Name: "calls", Rows: 900, Columns: cols}}}
	reported(t, sparse, "avg daily calls", "How many days in 2003 had fewer than 1,000 calls?", "avg calls per day")
}
