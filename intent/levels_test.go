package intent

import "testing"

// panelSchema is a country-year panel: each country's population, once a
// year.
func panelSchema() Schema {
	return schemaOf("gm", Column{Name: "country", Type: "string", Values: []string{"China", "India", "Chile"}},
		Column{Name: "year", Type: "integer"}, Column{Name: "pop", Type: "integer"},
		Column{Name: "life_expect", Type: "float"})
}

// TestALevelIsNotAddedUpOverTime: a population summed over the years of a
// panel counts everyone once a year; within one year, per year or per
// country in a year it is a population. A table with a year that is not
// its time (a founding year) adds populations up.
func TestALevelIsNotAddedUpOverTime(t *testing.T) {
	reported(t, panelSchema(), "Which country had the largest population?", "total population by country",
		"total population between 1990 and 2000")
	sum := []Measure{{Column: "pop", Agg: "sum"}}
	checkCases(t, []parseCase{
		{text: "Which 5 countries had the highest population in 2005?", schema: panelSchema(), want: want{Table: "gm", Measures: sum,
			Filters: []Filter{{Column: "year", Op: "=", Values: []string{"2005"}}}, Top: &TopN{5, "country", true}}},
		{text: "total population by year", schema: panelSchema(), want: want{Table: "gm", Measures: sum, GroupBy: []Group{{"year", ""}}}},
	})
	in, err := Parse("total population by year", panelSchema(), now)
	if err != nil || !in.PerPeriodOnly {
		t.Errorf("total population by year: PerPeriodOnly %v, %v; want true: no grand total over the years", in != nil && in.PerPeriodOnly, err)
	}
	cities := schemaOf("cities", Column{Name: "city", Type: "string", Values: []string{"Lima", "Oslo"}},
		Column{Name: "founded_year", Type: "integer"}, Column{Name: "population", Type: "integer"})
	checkCases(t, []parseCase{
		{text: "total population", schema: cities, want: want{Table: "cities", Measures: []Measure{{Column: "population", Agg: "sum"}}}},
	})
}

// TestAnAveragePerEntityIsSharedAmongThem: "average cost per patient"
// over a patient id is the total cost over the number of patients, not a
// table of one row per patient; a measure that does not add up is
// reported.
func TestAnAveragePerEntityIsSharedAmongThem(t *testing.T) {
	visits := schemaOf("visits", Column{Name: "Patient.ID", Type: "string"},
		Column{Name: "Dept", Type: "string", Values: []string{"Surgery", "Cardiology"}},
		Column{Name: "Cost.USD", Type: "float"}, Column{Name: "Age", Type: "integer"})
	checkCases(t, []parseCase{
		{text: "Which department has the highest average cost per patient?", schema: visits, want: want{Table: "visits",
			Measures: []Measure{{Column: "Cost.USD", Agg: "sum", PerEach: "Patient.ID"}}, Top: &TopN{1, "Dept", true}}},
		{text: "average number of visits per patient by department", schema: visits, want: want{Table: "visits",
			Measures: []Measure{{Agg: "count", PerEach: "Patient.ID"}}, GroupBy: []Group{{"Dept", ""}}}},
	})
	reported(t, visits, "average age per patient")
}

// TestAPercentageOfAColumnOfFractions: "above 10%" over a discount of 0
// to 0.2 is above 0.1; over a column of percentages it stays 10. A
// participle and "by" ("delayed by more than 15 minutes") say the column.
func TestAPercentageOfAColumnOfFractions(t *testing.T) {
	sales := schemaOf("sales", Column{Name: "discount", Type: "float", Min: "0", Max: "0.2"},
		Column{Name: "margin_pct", Type: "float", Min: "-5", Max: "42"}, Column{Name: "delay", Type: "integer", Min: "-20", Max: "300"})
	checkCases(t, []parseCase{
		{text: "number of orders with discount above 10%", schema: sales, want: want{Table: "sales", Measures: []Measure{{Agg: "count"}},
			Filters: []Filter{{Column: "discount", Op: ">", Values: []string{"0.1"}}}}},
		{text: "number of orders with margin_pct above 10%", schema: sales, want: want{Table: "sales", Measures: []Measure{{Agg: "count"}},
			Filters: []Filter{{Column: "margin_pct", Op: ">", Values: []string{"10"}}}}},
		{text: "how many orders were delayed by more than 15 minutes", schema: sales, want: want{Table: "sales", Measures: []Measure{{Agg: "count"}},
			Filters: []Filter{{Column: "delay", Op: ">", Values: []string{"15"}}}}},
	})
}

// TestWordsOfExportsNames: R-style names read from the words people say:
// "gross state product" is gsp (an acronym over another column's word),
// "crime rate" crim, "by gender" the column of Men and Women, "which
// firm" an integer column that numbers firms; "measured" says how the
// rows came to be.
func TestWordsOfExportsNames(t *testing.T) {
	produc := schemaOf("produc", Column{Name: "state", Type: "string", Values: []string{"ALABAMA", "TEXAS"}},
		Column{Name: "year", Type: "integer"}, Column{Name: "region", Type: "integer"}, Column{Name: "gsp", Type: "integer"},
		Column{Name: "unemp", Type: "float"})
	boston := schemaOf("boston", Column{Name: "crim", Type: "float"}, Column{Name: "medv", Type: "float"})
	chem := schemaOf("chem", Column{Name: "art", Type: "integer"}, Column{Name: "fem", Type: "string", Values: []string{"Men", "Women"}},
		Column{Name: "mar", Type: "string", Values: []string{"Married", "Single"}})
	firms := schemaOf("firms", Column{Name: "firm", Type: "integer"}, Column{Name: "year", Type: "integer"}, Column{Name: "capital", Type: "float"})
	checkCases(t, []parseCase{
		{text: "average gross state product by region", schema: produc, want: want{Table: "produc",
			Measures: []Measure{{Column: "gsp", Agg: "avg"}}, GroupBy: []Group{{"region", ""}}}},
		{text: "how many rows have a crime rate above 10", schema: boston, want: want{Table: "boston",
			Measures: []Measure{{Agg: "count"}}, Filters: []Filter{{Column: "crim", Op: ">", Values: []string{"10"}}}}},
		{text: "average number of articles by gender", schema: chem, want: want{Table: "chem",
			Measures: []Measure{{Column: "art", Agg: "avg"}}, GroupBy: []Group{{"fem", ""}}}},
		{text: "which firm had the highest average capital", schema: firms, want: want{Table: "firms",
			Measures: []Measure{{Column: "capital", Agg: "avg"}}, Top: &TopN{1, "firm", true}}},
		{text: "how many married chem rows were measured", schema: chem, want: want{Table: "chem",
			Measures: []Measure{{Agg: "count"}}, Filters: []Filter{{Column: "mar", Op: "=", Values: []string{"Married"}}}}},
	})
}

// TestVerbsOfMoney: "billed the most" and "earn more than 1,000" name the
// money column, as "revenue" does.
func TestVerbsOfMoney(t *testing.T) {
	inv := schemaOf("invoices", Column{Name: "Region", Type: "string", Values: []string{"North", "South"}},
		Column{Name: "Amount ($)", Type: "float"})
	checkCases(t, []parseCase{
		{text: "which region was billed the most", schema: inv, want: want{Table: "invoices",
			Measures: []Measure{{Column: "Amount ($)", Agg: "sum"}}, Top: &TopN{1, "Region", true}}},
	})
}

// TestAShareOfThings: "what fraction of states are in region 5" is a
// share of the distinct states, not of each state's rows; "share of each
// species" stays a share per species.
func TestAShareOfThings(t *testing.T) {
	s := schemaOf("produc", Column{Name: "state", Type: "string", Values: []string{"ALABAMA", "TEXAS"}},
		Column{Name: "region", Type: "integer"}, Column{Name: "year", Type: "integer"}, Column{Name: "gsp", Type: "integer"})
	checkCases(t, []parseCase{
		{text: "what fraction of states are in region 5", schema: s, want: want{Table: "produc",
			Measures: []Measure{{Column: "state", Agg: "count_distinct"}}, Filters: []Filter{{Column: "region", Op: "=", Values: []string{"5"}}},
			Analyses: []string{AnalysisShare}}},
		{text: "share of each state", schema: s, want: want{Table: "produc", GroupBy: []Group{{"state", ""}}, Analyses: []string{AnalysisShare}}},
	})
}

// TestTheHighestOfNothingNamed: "which sensor recorded the highest single
// reading" names no measure: reported, not a count of rows; "the largest
// share of flights" ranks by the count it shares.
func TestTheHighestOfNothingNamed(t *testing.T) {
	s := schemaOf("readings", Column{Name: "time", Type: "timestamp", Min: "2025-03-01", Max: "2025-03-14"},
		Column{Name: "sensor", Type: "string", Values: []string{"a", "b"}}, Column{Name: "temp", Type: "float"})
	reported(t, s, "Which sensor recorded the highest single reading?")
	in, err := Parse("Which sensor had the largest share of readings?", s, now)
	if err != nil || len(in.Unknown) > 0 || in.Top == nil || in.Top.Column != "sensor" {
		t.Errorf("largest share: %+v, %v; want sensors ranked, nothing reported", in, err)
	}
}

// TestInTotalSaysHow: "which firm invested the most in total" is the
// total of inv, named by a verb and averaged by default until "in total"
// says how; an amount in francs is money.
func TestInTotalSaysHow(t *testing.T) {
	firms := schemaOf("firms", Column{Name: "firm", Type: "integer", Min: "1", Max: "10"}, Column{Name: "inv", Type: "float"})
	engel := schemaOf("engel", Column{Name: "income", Type: "float"}, Column{Name: "foodexp", Type: "float"})
	checkCases(t, []parseCase{
		{text: "Which firm invested the most in total?", schema: firms, want: want{Table: "firms",
			Measures: []Measure{{Column: "inv", Agg: "sum"}}, Top: &TopN{1, "firm", true}}},
		{text: "how many rows have an income above 1,000 francs", schema: engel, want: want{Table: "engel",
			Measures: []Measure{{Agg: "count"}}, Filters: []Filter{{Column: "income", Op: ">", Values: []string{"1000"}}}}},
	})
}

// TestGroupedByAFewLevels: an integer of a few levels ("stars" 3 to 5)
// is grouped by, even when its name says an amount and a word before it
// says whose it is ("by hotel stars"), as is a year ("per survey year").
func TestGroupedByAFewLevels(t *testing.T) {
	hb := schemaOf("hotel_bkgs", Column{Name: "chan", Type: "string", Values: []string{"OTA", "GDS"}}, Column{Name: "adr_usd", Type: "float"},
		Column{Name: "stars", Type: "integer", Min: "3", Max: "5"}, Column{Name: "n_rooms", Type: "integer", Min: "12", Max: "480"})
	byStars := []Group{{"stars", ""}}
	checkCases(t, []parseCase{
		{text: "bookings by stars", schema: hb, want: want{Table: "hotel_bkgs", Measures: []Measure{{Agg: "count"}}, GroupBy: byStars}},
		{text: "avg adr_usd by hotel stars", schema: hb, want: want{Table: "hotel_bkgs", Measures: []Measure{{Column: "adr_usd", Agg: "avg"}}, GroupBy: byStars}},
	})
	// a number the word before it says whose is no grouping
	reported(t, hb, "bookings by hotel adr_usd")
	// a year column, like a few levels, may have a word before it
	gss := schemaOf("gss", Column{Name: "year", Type: "integer", Min: "1972", Max: "2006"},
		Column{Name: "happy", Type: "string", Values: []string{"very happy", "not too happy"}})
	checkCases(t, []parseCase{
		{text: "count per survey year", schema: gss, want: want{Table: "gss", Measures: []Measure{{Agg: "count"}}, GroupBy: []Group{{"year", ""}}}},
	})
}
