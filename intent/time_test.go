package intent

import "testing"

// The sales data runs from 2020-01-03 to 2021-12-30: relative periods are
// anchored there, not on now (2025-06-15).
func TestParseTimeRanges(t *testing.T) {
	m := []Measure{sumAmount}
	checkCases(t, []parseCase{
		{text: "Q1 2021 sales", want: want{Measures: m, Time: q1}},
		{text: "2021 Q1 sales", want: want{Measures: m, Time: q1}},
		{text: "sales in 2021-Q1", want: want{Measures: m, Time: q1}},
		{text: "sales for the first quarter of 2021", want: want{Measures: m, Time: q1}},
		{text: "sales in Q1 '21", want: want{Measures: m, Time: q1}},
		{text: "sales in Q3", want: want{Measures: m, Time: od("2021-07-01", "2021-10-01", "Q3 2021")}},
		{text: "March 2021 sales", want: want{Measures: m, Time: od("2021-03-01", "2021-04-01", "March 2021"),
			Understood: []string{"March 2021 -> order_date from 2021-03-01 to 2021-03-31"}}},
		{text: "Mar 2021 sales", want: want{Measures: m, Time: od("2021-03-01", "2021-04-01", "March 2021")}},
		{text: "sales 2021-03", want: want{Measures: m, Time: od("2021-03-01", "2021-04-01", "March 2021")}},
		{text: "sales in May", want: want{Measures: m, Time: od("2021-05-01", "2021-06-01", "May 2021")}},
		{text: "sales in 2021", want: want{Measures: m, Time: od("2021-01-01", "2022-01-01", "2021")}},
		{text: "FY2021 revenue", want: want{Measures: m, Time: od("2021-01-01", "2022-01-01", "FY2021")}},
		{text: "revenue for fiscal year 2020", want: want{Measures: m, Time: od("2020-01-01", "2021-01-01", "FY2020")}},
		{text: "H1 2021 sales", want: want{Measures: m, Time: od("2021-01-01", "2021-07-01", "H1 2021")}},
		{text: "sales in the second half of 2020", want: want{Measures: m, Time: od("2020-07-01", "2021-01-01", "H2 2020")}},
		{text: "sales from 2021-01-01 to 2021-03-31", want: want{Measures: m, Time: q1,
			Understood: []string{"from 2021-01-01 to 2021-03-31 -> order_date from 2021-01-01 to 2021-03-31"}}},
		{text: "sales 2021-01-01 - 2021-02-15", want: want{Measures: m, Time: od("2021-01-01", "2021-02-16", "2021-01-01 to 2021-02-15")}},
		{text: "sales from Jan 5 2021 through Feb 2 2021", want: want{Measures: m, Time: od("2021-01-05", "2021-02-03", "2021-01-05 to 2021-02-02")}},
		{text: "sales from 5 January 2021 to 2 February, 2021", want: want{Measures: m, Time: od("2021-01-05", "2021-02-03", "2021-01-05 to 2021-02-02")}},
		{text: "sales between 2021-01-01 and 2021-02-01", want: want{Measures: m, Time: od("2021-01-01", "2021-02-02", "2021-01-01 to 2021-02-01")}},
		{text: "sales between 01/15/2021 and 02/15/2021", want: want{Measures: m, Time: od("2021-01-15", "2021-02-16", "2021-01-15 to 2021-02-15")}},
		{text: "sales in Jan-Mar 2021", want: want{Measures: m, Time: q1}},
		{text: "sales from Q1 to Q3 2021", want: want{Measures: m, Time: od("2021-01-01", "2021-10-01", "2021-01-01 to 2021-09-30")}},
		{text: "sales on 2021-06-15", want: want{Measures: m, Time: od("2021-06-15", "2021-06-16", "2021-06-15")}},
		{text: "sales since June 2021", want: want{Measures: m, Time: od("2021-06-01", "2021-12-31", "since June 2021")}},
		{text: "sales before 2021", want: want{Measures: m, Time: od("2020-01-03", "2021-01-01", "before 2021")}},
		{text: "sales in 2020 and 2021", want: want{Measures: m, Time: od("2020-01-01", "2022-01-01", "2020-01-01 to 2021-12-31")}},
		// Relative periods end at the latest date in the data.
		{text: "sales last 30 days", want: want{Measures: m, Time: od("2021-12-01", "2021-12-31", "last 30 days"),
			Understood: []string{"last 30 days -> order_date from 2021-12-01 to 2021-12-30 (relative to 2021-12-30, the latest order_date)"}}},
		{text: "sales in the past 2 weeks", want: want{Measures: m, Time: od("2021-12-17", "2021-12-31", "past 2 weeks")}},
		{text: "sales last 12 months", want: want{Measures: m, Time: od("2021-01-01", "2021-12-31", "last 12 months")}},
		{text: "sales over the last twelve months", want: want{Measures: m, Time: od("2021-01-01", "2021-12-31", "last 12 months")}},
		{text: "sales last quarter", want: want{Measures: m, Time: od("2021-07-01", "2021-10-01", "last quarter")}},
		{text: "sales last month", want: want{Measures: m, Time: od("2021-11-01", "2021-12-01", "last month")}},
		{text: "sales last week", want: want{Measures: m, Time: od("2021-12-20", "2021-12-27", "last week")}},
		{text: "sales last year", want: want{Measures: m, Time: od("2020-01-01", "2021-01-01", "last year")}},
		{text: "sales this year", want: want{Measures: m, Time: od("2021-01-01", "2022-01-01", "this year")}},
		{text: "sales this month", want: want{Measures: m, Time: od("2021-12-01", "2022-01-01", "this month")}},
		{text: "sales year to date", want: want{Measures: m, Time: od("2021-01-01", "2021-12-31", "year to date")}},
		{text: "YTD sales", want: want{Measures: m, Time: od("2021-01-01", "2021-12-31", "year to date")}},
		{text: "sales in the last quarter of 2020", want: want{Measures: m, Time: od("2020-10-01", "2021-01-01", "Q4 2020")}},
	})
}

func TestParseComparisons(t *testing.T) {
	m := []Measure{sumAmount}
	checkCases(t, []parseCase{
		{text: "Q1 2021 sales vs last year", want: want{Measures: m, Time: q1, Compare: od("2020-01-01", "2020-04-01", "Q1 2020"),
			Understood: []string{"vs last year -> compare with order_date from 2020-01-01 to 2020-03-31"}}},
		{text: "Q1 2021 revenue year over year", want: want{Measures: m, Time: q1, Compare: od("2020-01-01", "2020-04-01", "Q1 2020")}},
		{text: "Q1 2021 revenue YoY", want: want{Measures: m, Time: q1, Compare: od("2020-01-01", "2020-04-01", "Q1 2020")}},
		{text: "March 2021 sales year-over-year", want: want{Measures: m, Time: od("2021-03-01", "2021-04-01", "March 2021"), Compare: od("2020-03-01", "2020-04-01", "March 2020")}},
		{text: "Q1 2021 sales compared to the same period last year", want: want{Measures: m, Time: q1, Compare: od("2020-01-01", "2020-04-01", "Q1 2020")}},
		// Without a period, the latest year to date against the same days a year before.
		{text: "sales year over year", want: want{Measures: m, Time: od("2021-01-01", "2021-12-31", "year to date"), Compare: od("2020-01-01", "2020-12-31", "2020-01-01 to 2020-12-30")}},
		{text: "March 2021 sales vs previous period", want: want{Measures: m, Time: od("2021-03-01", "2021-04-01", "March 2021"), Compare: od("2021-02-01", "2021-03-01", "February 2021")}},
		{text: "Q1 2021 sales period over period", want: want{Measures: m, Time: q1, Compare: od("2020-10-01", "2021-01-01", "Q4 2020")}},
		{text: "sales last 30 days vs the prior period", want: want{Measures: m, Time: od("2021-12-01", "2021-12-31", "last 30 days"), Compare: od("2021-11-01", "2021-12-01", "November 2021")}},
		{text: "March 2021 revenue month over month", want: want{Measures: m, Time: od("2021-03-01", "2021-04-01", "March 2021"), Compare: od("2021-02-01", "2021-03-01", "February 2021")}},
		{text: "sales MoM", want: want{Measures: m, Time: od("2021-12-01", "2021-12-31", "month to date"), Compare: od("2021-11-01", "2021-12-01", "November 2021")}},
		// Month over month across a quarter is a growth by month.
		{text: "Q1 2021 sales month over month", want: want{Measures: m, Time: q1, GroupBy: []Group{byMonth}, Analyses: []string{AnalysisGrowth}}},
		{text: "Q1 2021 sales compared to Q4 2020", want: want{Measures: m, Time: q1, Compare: od("2020-10-01", "2021-01-01", "Q4 2020"),
			Understood: []string{"compared to Q4 2020 -> compare with order_date from 2020-10-01 to 2020-12-31"}}},
		{text: "sales 2021 vs 2020", want: want{Measures: m, Time: od("2021-01-01", "2022-01-01", "2021"), Compare: od("2020-01-01", "2021-01-01", "2020")}},
		{text: "compare 2020 and 2021 sales", want: want{Measures: m, Time: od("2021-01-01", "2022-01-01", "2021"), Compare: od("2020-01-01", "2021-01-01", "2020")}},
		{text: "how did sales change from Q4 2020 to Q1 2021", want: want{Measures: m, Time: q1, Compare: od("2020-10-01", "2021-01-01", "Q4 2020"), Analyses: []string{AnalysisGrowth}}},
	})
}

// Without a date column, relative periods are anchored on now.
func TestParseRelativeWithoutDates(t *testing.T) {
	s := Schema{Tables: []Table{{Name: "t", Columns: []Column{{Name: "amount", Type: "float"}}}}}
	checkCases(t, []parseCase{
		{text: "amount in the last 7 days", schema: s, want: want{Table: "t", Measures: []Measure{sumAmount},
			Time:       &TimeRange{Start: "2025-06-09", End: "2025-06-16", Label: "last 7 days"},
			Understood: []string{"last 7 days -> from 2025-06-09 to 2025-06-15 (no date column) (relative to today, 2025-06-15)"}}},
	})
}

// With two date columns the one named wins, else the one whose name says
// order.
func TestParseDateColumn(t *testing.T) {
	sh := func(col, start, end, label string) *TimeRange {
		return &TimeRange{Column: col, Start: start, End: end, Label: label}
	}
	checkCases(t, []parseCase{
		{text: "shipping cost in Q1 2021", schema: bothSchema, want: want{Table: "shipments", Measures: []Measure{{Column: "cost", Agg: "sum"}},
			Time: sh("order_date", "2021-01-01", "2021-04-01", "Q1 2021"), Unparsed: []string{"shipping"},
			Understood: []string{"date column order_date (its name says order)"}}},
		{text: "cost by ship date last month", schema: bothSchema, want: want{Table: "shipments", Measures: []Measure{{Column: "cost", Agg: "sum"}},
			GroupBy: []Group{{"ship_date", "day"}},
			Time:    sh("ship_date", "2021-05-01", "2021-06-01", "last month")}},
		{text: "average weight by week of ship date", schema: bothSchema, want: want{Table: "shipments", Measures: []Measure{{Column: "weight_kg", Agg: "avg"}},
			GroupBy: []Group{{"ship_date", "week"}}}},
	})
}
