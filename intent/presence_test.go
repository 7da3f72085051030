package intent

import (
	"slices"
	"testing"
)

// TestRowsThatHaveAColumn: a numeric column said as what rows have or are
// ("had a discount", "were returned", "returned orders") filters the rows
// where it is above zero, or the rest when negated; said as a measure
// ("is amount normal", "was units higher", "units with discount") it
// stays a measure.
func TestRowsThatHaveAColumn(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	sales := schemaOf("orders", Column{Name: "store", Type: "string", Values: []string{"Oslo", "Bergen"}},
		f("units"), f("discount"), Column{Name: "returned", Type: "integer"})
	gt := func(c string) Filter { return Filter{Column: c, Op: ">", Values: []string{"0"}} }
	le := func(c string) Filter { return Filter{Column: c, Op: "<=", Values: []string{"0"}} }
	count := []Measure{{Agg: "count"}}
	checkCases(t, []parseCase{
		{text: "how many orders were returned", schema: sales, want: want{Table: "orders", Measures: count, Filters: []Filter{gt("returned")}}},
		{text: "how many orders weren't returned", schema: sales, want: want{Table: "orders", Measures: count, Filters: []Filter{le("returned")}}},
		{text: "how many orders had a discount", schema: sales, want: want{Table: "orders", Measures: count, Filters: []Filter{gt("discount")}}},
		{text: "number of orders without a discount by store", schema: sales, want: want{Table: "orders", Measures: count,
			Filters: []Filter{le("discount")}, GroupBy: []Group{{"store", ""}}}},
		{text: "count of returned orders by store", schema: sales, want: want{Table: "orders", Measures: count,
			Filters: []Filter{gt("returned")}, GroupBy: []Group{{"store", ""}}}},
		{text: "total units of orders with no discount", schema: sales, want: want{Table: "orders",
			Measures: []Measure{{Column: "units", Agg: "sum"}}, Filters: []Filter{le("discount")}}},
		// with an id, the orders are its distinct values
		{text: "how many returned orders", schema: schemaOf("orders", f("units"), Column{Name: "returned", Type: "integer"},
			Column{Name: "order_id", Type: "integer"}), want: want{Table: "orders",
			Measures: []Measure{{Column: "order_id", Agg: "count_distinct"}}, Filters: []Filter{gt("returned")}}},
		// a number after the column is a numeric condition
		{text: "how many orders had a discount above 0.2", schema: sales, want: want{Table: "orders", Measures: count,
			Filters: []Filter{{Column: "discount", Op: ">", Values: []string{"0.2"}}}}},
		// measures, not rows that have them
		{text: "is units normally distributed", schema: sales, want: want{Table: "orders",
			Measures: []Measure{{Column: "units", Agg: "sum"}}, Analyses: []string{"normality"}}},
		{text: "correlation of units with discount", schema: sales, want: want{Table: "orders",
			Measures: []Measure{{Column: "units", Agg: "sum"}, {Column: "discount", Agg: "avg"}}, Analyses: []string{"correlation"}}},
	})
}

// TestCountOfDays: "how many days" over several rows a day counts the
// distinct dates; over one row a day, the rows; weeks of several rows,
// days with a threshold ("sales above 100": a row's or the day's?) and
// days of a table without dates are reported.
func TestCountOfDays(t *testing.T) {
	orders := Schema{Tables: []Table{{Name: "orders", Rows: 3000, Columns: []Column{
		{Name: "order_date", Type: "date", Min: "2023-01-01", Max: "2024-08-23"},
		{Name: "store", Type: "string", Values: []string{"Oslo", "Bergen"}},
		{Name: "discount", Type: "float"}, {Name: "amount", Type: "float"}}}}}
	weather := Schema{Tables: []Table{{Name: "weather", Rows: 365, Columns: []Column{
		{Name: "date", Type: "date", Min: "2023-01-01", Max: "2023-12-31"}, {Name: "precipitation", Type: "float"}}}}}
	checkCases(t, []parseCase{
		{text: "how many days had a discount", schema: orders, want: want{Table: "orders",
			Measures: []Measure{{Column: "order_date", Agg: "count_distinct"}}, Filters: []Filter{{Column: "discount", Op: ">", Values: []string{"0"}}}}},
		{text: "on how many days were orders discounted", schema: orders, want: want{Table: "orders",
			Measures: []Measure{{Column: "order_date", Agg: "count_distinct"}}, Filters: []Filter{{Column: "discount", Op: ">", Values: []string{"0"}}}}},
		{text: "how many days had precipitation above 5", schema: weather, want: want{Table: "weather",
			Measures: []Measure{{Agg: "count"}}, Filters: []Filter{{Column: "precipitation", Op: ">", Values: []string{"5"}}}}},
	})
	reported(t, orders, "how many weeks had a discount", "how many days had an amount above 100")
	reported(t, schemaOf("scores", Column{Name: "team", Type: "string", Values: []string{"A"}}, Column{Name: "points", Type: "float"}),
		"how many days had points")
}

// TestDimensionLeadsRanking: "the channel with the highest sessions" asks
// which channel, as "which channel had the highest sessions" does: the
// top channel by its sessions, not every channel's largest row.
func TestDimensionLeadsRanking(t *testing.T) {
	web := Schema{Tables: []Table{{Name: "web", Rows: 900, Columns: []Column{
		{Name: "date", Type: "date", Min: "2025-01-01", Max: "2025-10-27"},
		{Name: "channel", Type: "string", Values: []string{"email", "search", "social"}},
		{Name: "sessions", Type: "integer"}, {Name: "price", Type: "float"}}}}}
	which, _ := Parse("which channel had the highest price", web, now)
	for _, text := range []string{"the channel with the highest price", "channel with highest price", "show the channel that had the highest price"} {
		in, err := Parse(text, web, now)
		if err != nil || in.Top == nil || *in.Top != *which.Top || !slices.Equal(in.Measures, which.Measures) || len(in.GroupBy) != 0 {
			t.Errorf("Parse(%q) = top %+v measures %v groups %v, %v; want as %q: top %+v measures %v",
				text, in.Top, in.Measures, in.GroupBy, err, which.Text, which.Top, which.Measures)
		}
	}
}

// TestShareOverATableOfCounts: a share with no measure over a table of
// counts is a share of the things counted, not of the rows.
func TestShareOverATableOfCounts(t *testing.T) {
	fraud := schemaOf("fraud", Column{Name: "year", Type: "integer"},
		Column{Name: "type", Type: "string", Values: []string{"Fraud", "Theft", "Other"}}, Column{Name: "count", Type: "integer"})
	checkCases(t, []parseCase{
		{text: "share of Fraud in 2022", schema: fraud, want: want{Table: "fraud",
			Measures: []Measure{{Column: "count", Agg: "sum"}}, Analyses: []string{AnalysisShare},
			Filters: []Filter{eq("year", "2022"), eq("type", "Fraud")}}},
	})
}

// TestRankingLedByANumber: "the 5 SKUs with the fewest units" ranks the
// five; "median units per order" is the median of the rows' units.
func TestRankingLedByANumber(t *testing.T) {
	sales := schemaOf("sales", Column{Name: "store", Type: "string", Values: []string{"Oslo", "Bergen"}},
		Column{Name: "sku", Type: "string", Values: []string{"A", "B"}}, Column{Name: "units", Type: "integer"})
	checkCases(t, []parseCase{
		{text: "the 5 SKUs with the fewest units", schema: sales, want: want{Table: "sales",
			Measures: []Measure{{Column: "units", Agg: "sum"}}, Top: &TopN{N: 5, Column: "sku", Desc: false}}},
		{text: "median units per order by store", schema: sales, want: want{Table: "sales",
			Measures: []Measure{{Column: "units", Agg: "median"}}, GroupBy: []Group{{"store", ""}}}},
	})
}

// TestEventRates: "bounce rate" over bounces and sessions is the total of
// bounces over the total of sessions; with two columns it could be out
// of, or none, it is reported.
func TestEventRates(t *testing.T) {
	web := schemaOf("web", Column{Name: "channel", Type: "string", Values: []string{"email", "search"}},
		Column{Name: "sessions", Type: "integer"}, Column{Name: "bounces", Type: "integer"}, Column{Name: "conversions", Type: "integer"})
	checkCases(t, []parseCase{
		{text: "bounce rate by channel", schema: web, want: want{Table: "web",
			Measures: []Measure{{Column: "bounces", Agg: "sum", Per: "sessions"}}, GroupBy: []Group{{"channel", ""}}}},
		{text: "conversion rate", schema: web, want: want{Table: "web",
			Measures: []Measure{{Column: "conversions", Agg: "sum", Per: "sessions"}}}},
	})
	two := schemaOf("web", Column{Name: "sessions", Type: "integer"}, Column{Name: "visits", Type: "integer"}, Column{Name: "bounces", Type: "integer"})
	reported(t, two, "bounce rate")
	reported(t, schemaOf("web", Column{Name: "bounces", Type: "integer"}), "bounce rate")
}

// TestDayOfTheWeek: "by day of week" and "which day of the week" group
// the dates by their weekday, not by date.
func TestDayOfTheWeek(t *testing.T) {
	checkCases(t, []parseCase{
		{text: "average sessions by day of week", schema: webSchema(), want: want{Table: "web",
			Measures: []Measure{{Column: "sessions", Agg: "avg"}}, GroupBy: []Group{{"date", "weekday"}}}},
		{text: "which day of the week has the most sessions", schema: webSchema(), want: want{Table: "web",
			Measures: []Measure{{Column: "sessions", Agg: "sum"}}, GroupBy: []Group{{"date", "weekday"}}, Top: &TopN{1, "date", true}}},
	})
}

// TestKindAfterAValue: "Dairy products" are the rows of Dairy; a noun
// after a value that is no kind of thing is still reported.
func TestKindAfterAValue(t *testing.T) {
	sales := schemaOf("sales", Column{Name: "category", Type: "string", Values: []string{"Dairy", "Bakery"}}, Column{Name: "unit_price", Type: "float"})
	checkCases(t, []parseCase{
		{text: "average unit price for Dairy products", schema: sales, want: want{Table: "sales",
			Measures: []Measure{{Column: "unit_price", Agg: "avg"}}, Filters: []Filter{eq("category", "Dairy")},
			Understood: []string{"products -> what Dairy names"}}},
	})
	reported(t, sales, "average unit price for Dairy returns")
}

// TestSideBySideWithTheirNoun: "rainy days vs sunny days" and "smokers vs
// non-smokers" put the two groups side by side: a grouping, over the two
// values or the yes/no column.
func TestSideBySideWithTheirNoun(t *testing.T) {
	weather := schemaOf("weather", Column{Name: "date", Type: "date", Min: "2012-01-01", Max: "2015-12-31"},
		Column{Name: "weather", Type: "string", Values: []string{"rain", "sun", "fog"}}, Column{Name: "temp_max", Type: "float"})
	visits := schemaOf("visits", Column{Name: "Smoker", Type: "string", Values: []string{"No", "Yes"}},
		Column{Name: "Readmit", Type: "integer", Min: "0", Max: "1"}, Column{Name: "LOS.days", Type: "integer"})
	checkCases(t, []parseCase{
		{text: "average max temp on rainy days vs sunny days", schema: weather, want: want{Table: "weather",
			Measures: []Measure{{Column: "temp_max", Agg: "avg"}}, Filters: []Filter{{Column: "weather", Op: "in", Values: []string{"rain", "sun"}}},
			GroupBy: []Group{{"weather", ""}}}},
		{text: "average length of stay for smokers vs non-smokers", schema: visits, want: want{Table: "visits",
			Measures: []Measure{{Column: "LOS.days", Agg: "avg"}}, GroupBy: []Group{{"Smoker", ""}}}},
		{text: "average length of stay, readmitted vs not readmitted", schema: visits, want: want{Table: "visits",
			Measures: []Measure{{Column: "LOS.days", Agg: "avg"}}, GroupBy: []Group{{"Readmit", ""}}}},
	})
}

// TestMissingAWord: "missing a sex" and "with no email" are the rows
// where the column is empty; "missing values" stays the analysis.
func TestMissingAWord(t *testing.T) {
	pg := schemaOf("pg", Column{Name: "sex", Type: "string", Values: []string{"female", "male"}},
		Column{Name: "body_mass_g", Type: "integer"}, Column{Name: "email", Type: "string"})
	checkCases(t, []parseCase{
		{text: "How many pg rows are missing a sex?", schema: pg, want: want{Table: "pg", Measures: []Measure{{Agg: "count"}},
			Filters: []Filter{{Column: "sex", Op: "is null"}}}},
		{text: "average body mass of rows with no email", schema: pg, want: want{Table: "pg", Measures: []Measure{{Column: "body_mass_g", Agg: "avg"}},
			Filters: []Filter{{Column: "email", Op: "is null"}}}},
	})
	in, err := Parse("missing values by column", pg, now)
	if err != nil || !slices.Contains(in.Analyses, AnalysisMissing) {
		t.Errorf("missing values: %+v, %v; want the missing-values analysis", in, err)
	}
}

// TestIncludingAndExcluding: "excluding returns" keeps the rows not
// returned, "including returned orders" every row; "a discount of 20%"
// over a column of fractions is a discount of 0.2.
func TestIncludingAndExcluding(t *testing.T) {
	s := schemaOf("sales", Column{Name: "store", Type: "string", Values: []string{"Bergen", "Oslo"}},
		Column{Name: "units", Type: "integer"}, Column{Name: "discount", Type: "float", Min: "0", Max: "0.2"},
		Column{Name: "returned", Type: "integer", Min: "0", Max: "1"})
	units := []Measure{{Column: "units", Agg: "sum"}}
	checkCases(t, []parseCase{
		{text: "total units by store, excluding returns", schema: s, want: want{Table: "sales", Measures: units,
			Filters: []Filter{{Column: "returned", Op: "<=", Values: []string{"0"}}}, GroupBy: []Group{{"store", ""}}}},
		{text: "total units including returns", schema: s, want: want{Table: "sales", Measures: units}},
		{text: "total units of rows that included a discount of 20%", schema: s, want: want{Table: "sales", Measures: units,
			Filters: []Filter{{Column: "discount", Op: "=", Values: []string{"0.2"}}}}},
	})
}

// TestWeekendsVersusWeekdays: the dates grouped into weekend and weekday;
// "by weekday" alone stays the day of the week.
func TestWeekendsVersusWeekdays(t *testing.T) {
	s := webSchema()
	sum := []Measure{{Column: "sessions", Agg: "sum"}}
	checkCases(t, []parseCase{
		{text: "sessions on weekends vs weekdays", schema: s, want: want{Table: "web", Measures: sum, GroupBy: []Group{{"date", "daytype"}}}},
		{text: "sessions by weekday", schema: s, want: want{Table: "web", Measures: sum, GroupBy: []Group{{"date", "weekday"}}}},
	})
}
