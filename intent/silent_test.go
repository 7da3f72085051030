package intent

import "testing"

// reported checks that each request is parsed with something reported
// as Unknown: an answer to it would answer another question.
func reported(t *testing.T, s Schema, texts ...string) {
	t.Helper()
	for _, text := range texts {
		in, err := Parse(text, s, now)
		if err != nil {
			continue // a clarification asked for is reported too
		}
		if len(in.Unknown) == 0 {
			t.Errorf("Parse(%q): nothing reported; want an Unknown (measures %v, top %v, filters %v, understood %q)",
				text, in.Measures, in.Top, in.Filters, in.Understood)
		}
	}
}

func schemaOf(name string, cols ...Column) Schema {
	return Schema{Tables: []Table{{Name: name, Rows: 500, Columns: cols}}}
}

// TestRevenueOfPricesItCannotMultiply: revenue is a unit price times a
// quantity only when both are sure; a stock level, two unit prices, a
// price that may be per line, or a discount left out is reported.
func TestRevenueOfPricesItCannotMultiply(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	region := Column{Name: "region", Type: "string", Values: []string{"East", "West"}}
	reported(t, schemaOf("inventory", Column{Name: "product", Type: "string", Values: []string{"Widget", "Gadget"}},
		f("unit_price"), f("quantity_in_stock"), f("reorder_level")), "revenue by product", "total sales by product")
	reported(t, schemaOf("orders", region, f("unit_price"), f("list_price"), f("quantity")), "total sales by region", "revenue")
	reported(t, schemaOf("orders", region, f("price"), f("quantity")), "total sales by region")
	reported(t, schemaOf("orders", region, f("UnitPrice"), f("Quantity"), f("Discount")), "revenue by region")
	checkCases(t, []parseCase{
		{text: "revenue by supplier", schema: schemaOf("purchases", Column{Name: "supplier", Type: "string", Values: []string{"Acme"}},
			f("unit_cost"), f("unit_price"), f("qty")), want: want{Table: "purchases",
			Measures: []Measure{{Column: "unit_price", Agg: "sum", Times: "qty"}}, GroupBy: []Group{{"supplier", ""}}}},
	})
}

// TestHowMuchIsNoAge: "how much" reads the table's only measure only when
// it is an amount that adds up.
func TestHowMuchIsNoAge(t *testing.T) {
	reported(t, schemaOf("employees", Column{Name: "name", Type: "string", Values: []string{"Ann", "Bob"}},
		Column{Name: "dept", Type: "string", Values: []string{"Sales", "Support"}}, Column{Name: "age", Type: "integer"}),
		"how much do employees in Support make", "how much did Sales bring in")
	reported(t, schemaOf("loans", Column{Name: "grade", Type: "string", Values: []string{"A", "B"}},
		Column{Name: "interest_rate", Type: "float"}), "how much was lent to grade A")
}

// TestSuperlativeOfAnotherMeasure: a superlative that names what it ranks
// by ("wettest") over a ranking by another measure is reported, not
// ranked by that other measure.
func TestSuperlativeOfAnotherMeasure(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	weather := schemaOf("weather", Column{Name: "date", Type: "date", Min: "2012-01-01", Max: "2015-12-31"},
		f("precipitation"), f("temp_max"), f("temp_min"), f("wind"))
	reported(t, weather, "average temp_max by month, wettest first", "average wind by month, hottest first",
		"what was the high on the wettest day", "the 3 wettest months by average wind")
	checkCases(t, []parseCase{
		{text: "the 3 wettest months", schema: weather, want: want{Table: "weather",
			Measures: []Measure{{Column: "precipitation", Agg: "sum"}}, GroupBy: []Group{{"date", "month"}}, Top: &TopN{3, "date", true}}},
	})
}

// TestOrderInTimeIsNoRanking: "latest first" orders periods in time; read
// as a ranking by the measure it would put the largest first.
func TestOrderInTimeIsNoRanking(t *testing.T) {
	weather := schemaOf("weather", Column{Name: "date", Type: "date", Min: "2012-01-01", Max: "2015-12-31"},
		Column{Name: "precipitation", Type: "float"})
	reported(t, weather, "total precipitation by month, latest first", "total precipitation by month, oldest first",
		"total precipitation by month, most recent first", "rank the months by precipitation, newest first")
	reported(t, countriesByYear, "population by country in 2005, newest first")
}

// TestPartOfANameIsNoValue: a name in capitals is read as part of a
// value only whole: "the English League" is not the English Premier League.
func TestPartOfANameIsNoValue(t *testing.T) {
	matches := schemaOf("matches", Column{Name: "league", Type: "string", Values: []string{"English Premier League", "Scottish Premiership"}},
		Column{Name: "team", Type: "string", Values: []string{"Arsenal", "Celtic"}}, Column{Name: "goals", Type: "integer"})
	reported(t, matches, "total goals by team in the English League", "total goals in the English Football League")
	comps := schemaOf("matches", Column{Name: "competition", Type: "string", Values: []string{"English Premier League", "FA Cup"}},
		Column{Name: "team", Type: "string", Values: []string{"Arsenal", "Celtic"}}, Column{Name: "goals", Type: "integer"})
	reported(t, comps, "total goals by team in the English League")
	checkCases(t, []parseCase{
		{text: "total goals by team in the Premier League", schema: comps, want: want{Table: "matches",
			Measures: []Measure{{Column: "goals", Agg: "sum"}}, Filters: []Filter{eq("competition", "English Premier League")},
			GroupBy: []Group{{"team", ""}}}},
	})
}

// TestFiscalYearValueBesideADate: "FY2023", a value of a fiscal-year
// column, is that value, not the calendar year 2023 of a date column.
func TestFiscalYearValueBesideADate(t *testing.T) {
	budget := schemaOf("budget", Column{Name: "fiscal_year", Type: "string", Values: []string{"FY2022", "FY2023"}},
		Column{Name: "posted_on", Type: "date", Min: "2021-07-01", Max: "2023-06-30"}, Column{Name: "amount", Type: "float"})
	checkCases(t, []parseCase{
		{text: "total amount in FY2023", schema: budget, want: want{Table: "budget",
			Measures: []Measure{{Column: "amount", Agg: "sum"}}, Filters: []Filter{eq("fiscal_year", "FY2023")}}},
	})
}

// TestSortByTheGrouping: "order by month" orders by the months, not by
// the measure; months come in time order, other groupings are reported.
func TestSortByTheGrouping(t *testing.T) {
	weather := schemaOf("weather", Column{Name: "date", Type: "date", Min: "2012-01-01", Max: "2015-12-31"},
		Column{Name: "precipitation", Type: "float"})
	checkCases(t, []parseCase{
		{text: "order by month total precipitation", schema: weather, want: want{Table: "weather",
			Measures: []Measure{{Column: "precipitation", Agg: "sum"}}, GroupBy: []Group{{"date", "month"}}}},
	})
	reported(t, countriesByYear, "sort by country the population in 2005", "Sort by year the population of Chile")
}
