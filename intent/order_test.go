package intent

import (
	"slices"
	"strings"
	"testing"
)

var countriesByYear = Schema{Tables: []Table{{Name: "gapminder", Rows: 700, Columns: []Column{
	{Name: "country", Type: "string", Values: []string{"Chile", "Peru", "Spain", "Japan"}},
	{Name: "year", Type: "integer"},
	{Name: "pop", Type: "integer"},
	{Name: "fertility", Type: "float"},
}}}}

func TestParseOrderWords(t *testing.T) {
	y2005 := []Filter{eq("year", "2005")}
	pop := []Measure{{Column: "pop", Agg: "sum"}}
	checkCases(t, []parseCase{
		{text: "Rank the countries by population in 2005", schema: countriesByYear, want: want{Table: "gapminder",
			Measures: pop, Filters: y2005, Top: &TopN{0, "country", true}}},
		{text: "Rank the countries by population in 2005, lowest first", schema: countriesByYear, want: want{Table: "gapminder",
			Measures: pop, Filters: y2005, Top: &TopN{0, "country", false}}},
		{text: "Bottom 3 countries for fertility in 2005 - lowest first", schema: countriesByYear, want: want{Table: "gapminder",
			Measures: []Measure{{Column: "fertility", Agg: "avg"}}, Filters: y2005, Top: &TopN{3, "country", false}}},
		{text: "average fertility by country in descending order", schema: countriesByYear, want: want{Table: "gapminder",
			Measures: []Measure{{Column: "fertility", Agg: "avg"}}, GroupBy: []Group{{"country", ""}}, Top: &TopN{0, "country", true}}},
		{text: "total population by country, from lowest to highest", schema: countriesByYear, want: want{Table: "gapminder",
			Measures: pop, GroupBy: []Group{{"country", ""}}, Top: &TopN{0, "country", false}}},
	})
}

func TestParseOrderThatCannotApplyIsReported(t *testing.T) {
	for _, text := range []string{
		"top 2 countries by population, lowest first", // top is highest first
		"total population in 2005, highest first",     // nothing to order
	} {
		in, err := Parse(text, countriesByYear, now)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if len(in.Unknown) == 0 {
			t.Errorf("%q: nothing reported; want the order not applied (understood %q)", text, in.Understood)
		}
	}
}

func TestParseHowMuchOfTheOnlyMeasure(t *testing.T) {
	iowa := Schema{Tables: []Table{{Name: "iowa", Aliases: []string{"iowa_electricity"}, Rows: 51, Columns: []Column{
		{Name: "year", Type: "date", Min: "2001-01-01", Max: "2017-01-01"},
		{Name: "source", Type: "string", Values: []string{"Fossil Fuels", "Nuclear Energy", "Renewables"}},
		{Name: "net_generation", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		{text: "How much electricity did Iowa generate from renewables in 2016?", schema: iowa, want: want{Table: "iowa",
			Measures: []Measure{{Column: "net_generation", Agg: "sum"}}, Filters: []Filter{eq("source", "Renewables")},
			Time:       &TimeRange{Column: "year", Start: "2016-01-01", End: "2017-01-01", Label: "2016"},
			Understood: []string{"How much -> sum of net_generation (the table's only measure)", "electricity -> the rows of iowa"}}},
	})
	// Two measures: "how much" does not choose.
	two := countriesByYear
	if _, err := Parse("How much did Chile have in 2005?", two, now); err == nil {
		t.Errorf("how much over two measures: no error; want a clarification")
	}
}

func TestParseTheFilesNameNamesTheTable(t *testing.T) {
	weather := Schema{Tables: []Table{{Name: "weather", Aliases: []string{"seattle_weather"}, Rows: 1461, Columns: []Column{
		{Name: "date", Type: "date", Min: "2012-01-01", Max: "2015-12-31"},
		{Name: "weather", Type: "string", Values: []string{"rain", "sun"}},
	}}}}
	in, err := Parse("How many rainy days did Seattle have in 2014?", weather, now)
	if err != nil || len(in.Unknown) > 0 {
		t.Fatalf("err %v, unknown %+v", err, in.Unknown)
	}
	in, err = Parse("How many rainy days did Portland have in 2014?", weather, now)
	if err != nil || len(in.Unknown) == 0 || in.Unknown[0].Word != "Portland" {
		t.Fatalf("err %v, unknown %+v; want Portland not understood", err, in.Unknown)
	}
}

func TestParseRevenueIsPriceTimesQuantity(t *testing.T) {
	lines := Schema{Tables: []Table{{Name: "orders", Rows: 72, Columns: []Column{
		{Name: "OrderID", Type: "integer"},
		{Name: "Category", Type: "string", Values: []string{"Coffee", "Tea"}},
		{Name: "qty", Type: "integer"},
		{Name: "UnitPrice", Type: "float"},
	}}}}
	withAmount := Schema{Tables: []Table{{Name: "orders", Rows: 72, Columns: []Column{
		{Name: "qty", Type: "integer"},
		{Name: "unit_price", Type: "float"},
		{Name: "amount", Type: "float"},
	}}}}
	byCat := []Group{{"Category", ""}}
	checkCases(t, []parseCase{
		{text: "revenue by category", schema: lines, want: want{Table: "orders",
			Measures: []Measure{{Column: "UnitPrice", Agg: "sum", Times: "qty"}}, GroupBy: byCat,
			Understood: []string{"revenue -> sum of UnitPrice × qty"}}},
		{text: "total quantity times unit price by category", schema: lines, want: want{Table: "orders",
			Measures: []Measure{{Column: "qty", Agg: "sum", Times: "UnitPrice"}}, GroupBy: byCat}},
		{text: "average sales per order", schema: lines, want: want{Table: "orders",
			Measures: []Measure{{Column: "UnitPrice", Agg: "avg", Times: "qty"}}}},
		{text: "total revenue", schema: withAmount, want: want{Table: "orders", Measures: []Measure{{Column: "amount", Agg: "sum"}}}},
	})
}

func TestParseCompoundsListsAndChangesInUnits(t *testing.T) {
	visits := Schema{Tables: []Table{{Name: "visits", Rows: 90, Columns: []Column{
		{Name: "VisitID", Type: "integer"},
		{Name: "patient_id", Type: "string"},
		{Name: "VisitDate", Type: "date", Min: "2021-01-04", Max: "2023-03-30"},
	}}}}
	life := Schema{Tables: []Table{{Name: "gapminder", Rows: 700, Columns: []Column{
		{Name: "country", Type: "string", Values: []string{"China", "India", "Peru"}},
		{Name: "year", Type: "integer"},
		{Name: "life_expect", Type: "float"},
		{Name: "pop", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		// the head of "patient visits" is visits
		{text: "number of patient visits per year", schema: visits, want: want{Table: "visits",
			Measures: []Measure{{Column: "VisitID", Agg: "count_distinct"}}, GroupBy: []Group{{"VisitDate", "year"}}}},
		// listed countries stay apart when a measure does not add up
		{text: "Life expectancy of China and India for each year", schema: life, want: want{Table: "gapminder",
			Measures: []Measure{{Column: "life_expect", Agg: "avg"}}, Filters: []Filter{{"country", "in", []string{"China", "India"}}},
			GroupBy: []Group{{"country", ""}, {"year", ""}}}},
		// ... and are added up when it does
		{text: "total population of China and India for each year", schema: life, want: want{Table: "gapminder",
			Measures: []Measure{{Column: "pop", Agg: "sum"}}, Filters: []Filter{{"country", "in", []string{"China", "India"}}},
			GroupBy: []Group{{"year", ""}}}},
		// "how many years" of a change in life expectancy is the change
		{text: "How many years did life expectancy in China increase between 1960 and 2000?", schema: life, want: want{Table: "gapminder",
			Measures: []Measure{{Column: "life_expect", Agg: "avg"}}, Filters: []Filter{{"year", "in", []string{"1960", "2000"}}, eq("country", "China")},
			GroupBy: []Group{{"year", ""}}, Analyses: []string{AnalysisGrowth}}},
	})
}

func TestParseValuesByTheirOtherForms(t *testing.T) {
	patients := Schema{Tables: []Table{{Name: "patients", Rows: 25, Columns: []Column{
		{Name: "patient_id", Type: "string"},
		{Name: "Sex", Type: "string", Values: []string{"F", "M"}},
		{Name: "Weight kg", Type: "float"},
		{Name: "Smoker", Type: "string", Values: []string{"no", "yes"}},
	}}}}
	sales := Schema{Tables: []Table{{Name: "sales", Rows: 20, Columns: []Column{
		{Name: "Region", Type: "string", Values: []string{"North", "South"}},
		{Name: "FiscalYear", Type: "string", Values: []string{"FY2021", "FY2022", "FY2023"}},
		{Name: "Revenue ($)", Type: "float"},
	}}}}
	checkCases(t, []parseCase{
		// "F" is too short a word to be read alone, "female" is not
		{text: "Average weight of the female patients?", schema: patients, want: want{Table: "patients",
			Measures: []Measure{{Column: "Weight kg", Agg: "avg"}}, Filters: []Filter{eq("Sex", "F")}}},
		{text: "Count of patients by sex and smoking status", schema: patients, want: want{Table: "patients",
			Measures: []Measure{{Column: "patient_id", Agg: "count_distinct"}}, GroupBy: []Group{{"Sex", ""}, {"Smoker", ""}}}},
		// a fiscal year the data spells as a value is that value
		{text: "total revenue by region in FY2023", schema: sales, want: want{Table: "sales",
			Measures: []Measure{{Column: "Revenue ($)", Agg: "sum"}}, Filters: []Filter{eq("FiscalYear", "FY2023")}, GroupBy: []Group{{"Region", ""}}}},
	})
}

func TestParsePartOfOneValue(t *testing.T) {
	football := Schema{Tables: []Table{{Name: "football", Rows: 9000, Columns: []Column{
		{Name: "division", Type: "string", Values: []string{"English Premier League", "Deutsche Bundesliga", "Österreichische Bundesliga"}},
		{Name: "home_score", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		{text: "average home score in the Premier League", schema: football, want: want{Table: "football",
			Measures: []Measure{{Column: "home_score", Agg: "avg"}}, Filters: []Filter{eq("division", "English Premier League")}}},
	})
	// part of two values: reported, with both nearest
	in, err := Parse("average home score in the Bundesliga", football, now)
	if err != nil || len(in.Filters) != 0 || len(in.Unknown) == 0 || len(in.Unknown[0].Nearest) != 2 {
		t.Errorf("Bundesliga: err %v, filters %v, unknown %+v; want it reported with two nearest", err, in.Filters, in.Unknown)
	}
}

// TestParseTheLongestOfTheRows: "the longest strike" is the strike, a row
// ranked by its duration, shown with the rest of it.
func TestParseTheLongestOfTheRows(t *testing.T) {
	strikes := Schema{Tables: []Table{{Name: "strikes", Rows: 62, Columns: []Column{
		{Name: "duration", Type: "integer"},
		{Name: "iprod", Type: "float"},
	}}}}
	checkCases(t, []parseCase{
		{text: "How long did the longest strike last, in days?", schema: strikes, want: want{Table: "strikes",
			Measures: []Measure{{Column: "duration", Agg: "avg"}}, Top: &TopN{1, "", true}}},
		{text: "the shortest strike", schema: strikes, want: want{Table: "strikes",
			Measures: []Measure{{Column: "duration", Agg: "avg"}}, Top: &TopN{1, "", false}}},
	})
	// "last" with a period after it is the period, and no date: reported
	if in, err := Parse("the longest strike of the last 3 years", strikes, now); err == nil && len(in.Unknown) == 0 {
		t.Errorf("last 3 years over no date: nothing reported")
	}
}

func TestParseGrossNetAndCounts(t *testing.T) {
	lines := Schema{Tables: []Table{{Name: "orders", Rows: 240, Columns: []Column{
		{Name: "region", Type: "string", Values: []string{"East", "West"}},
		{Name: "quantity", Type: "integer"},
		{Name: "unit_price", Type: "float"},
		{Name: "discount", Type: "float"},
	}}}}
	gross := []Measure{{Column: "unit_price", Agg: "sum", Times: "quantity"}}
	population := Schema{Tables: []Table{{Name: "population", Rows: 570, Columns: []Column{
		{Name: "year", Type: "integer"}, {Name: "age", Type: "integer"}, {Name: "sex", Type: "integer"}, {Name: "people", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		{text: "gross sales by region", schema: lines, want: want{Table: "orders", Measures: gross, GroupBy: []Group{{"region", ""}}}},
		{text: "total sales before any discount", schema: lines, want: want{Table: "orders", Measures: gross}},
		{text: "What share of gross sales does each region account for?", schema: lines, want: want{Table: "orders", Measures: gross,
			GroupBy: []Group{{"region", ""}}, Analyses: []string{AnalysisShare}}},
		{text: "What was the total population counted in 1900?", schema: population, want: want{Table: "population",
			Measures: []Measure{{Column: "people", Agg: "sum"}}, Filters: []Filter{eq("year", "1900")}}},
		{text: "How many countries had a fertility rate above 3 in 2000?", schema: countriesByYear, want: want{Table: "gapminder",
			Measures: []Measure{{Column: "country", Agg: "count_distinct"}}, Filters: []Filter{eq("year", "2000"), {"fertility", ">", []string{"3"}}}}},
	})
	// Sales over a discount column, gross or net not said: reported.
	in, err := Parse("total sales by region", lines, now)
	if err != nil || len(in.Unknown) != 1 || in.Unknown[0].Word != "sales" {
		t.Errorf("sales with a discount: err %v, unknown %+v; want gross or net reported", err, in.Unknown)
	}
}

func TestParseRowsOfAYesNoColumn(t *testing.T) {
	insurance := Schema{Tables: []Table{{Name: "insurance", Rows: 1338, Columns: []Column{
		{Name: "sex", Type: "string", Values: []string{"female", "male"}},
		{Name: "smoker", Type: "string", Values: []string{"no", "yes"}},
		{Name: "charges", Type: "float"},
	}}}}
	charges := []Measure{{Column: "charges", Agg: "sum"}}
	checkCases(t, []parseCase{
		{text: "average charges for female smokers", schema: insurance, want: want{Table: "insurance",
			Measures: []Measure{{Column: "charges", Agg: "avg"}}, Filters: []Filter{eq("sex", "female"), eq("smoker", "yes")}}},
		{text: "total charges of non-smokers", schema: insurance, want: want{Table: "insurance",
			Measures: charges, Filters: []Filter{eq("smoker", "no")}}},
		{text: "total charges by smoker", schema: insurance, want: want{Table: "insurance",
			Measures: charges, GroupBy: []Group{{"smoker", ""}}}},
	})
}

func TestParseACodeInCapitalsIsNotAWord(t *testing.T) {
	staff := Schema{Tables: []Table{{Name: "employees", Rows: 25, Columns: []Column{
		{Name: "dept", Type: "string", Values: []string{"IT", "HR", "Sales"}},
		{Name: "age", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		{text: "average age of employees in IT", schema: staff, want: want{Table: "employees",
			Measures: []Measure{{Column: "age", Agg: "avg"}}, Filters: []Filter{eq("dept", "IT")}}},
		{text: "average age for it", schema: staff, want: want{Table: "employees", Measures: []Measure{{Column: "age", Agg: "avg"}}}},
	})
}

func TestParseAModifierOfAGrouping(t *testing.T) {
	staff := Schema{Tables: []Table{{Name: "employees", Rows: 25, Columns: []Column{
		{Name: "Location", Type: "string", Values: []string{"Berlin", "Munich"}},
		{Name: "EmpStatus", Type: "string", Values: []string{"Active", "Left"}},
		{Name: "Salary ($)", Type: "float"},
	}}}}
	checkCases(t, []parseCase{
		{text: "Average salary of active staff by office location", schema: staff, want: want{Table: "employees",
			Measures: []Measure{{Column: "Salary ($)", Agg: "avg"}}, Filters: []Filter{eq("EmpStatus", "Active")},
			GroupBy: []Group{{"Location", ""}}, Understood: []string{"office location -> Location (office describes it)"}}},
	})
	// A value before the column is a filter, not a modifier.
	in, err := Parse("Average salary by Berlin location", staff, now)
	if err != nil || slices.ContainsFunc(in.Understood, func(s string) bool { return strings.Contains(s, "describes it") }) {
		t.Errorf("err %v, understood %q; want Berlin not read as a modifier", err, in.Understood)
	}
}

func TestParseRolesOfTwinColumns(t *testing.T) {
	football := Schema{Tables: []Table{{Name: "football", Rows: 6508, Columns: []Column{
		{Name: "date", Type: "date", Min: "2013-07-20", Max: "2017-05-28"},
		{Name: "division", Type: "string", Values: []string{"English Premier League", "Serie A"}},
		{Name: "home_team", Type: "string", Values: []string{"Arsenal", "Roma"}},
		{Name: "away_team", Type: "string", Values: []string{"Arsenal", "Roma"}},
		{Name: "home_score", Type: "integer"},
		{Name: "away_score", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		{text: "Which 5 teams scored the most goals at home in 2015?", schema: football, want: want{Table: "football",
			Measures: []Measure{{Column: "home_score", Agg: "sum"}}, Top: &TopN{5, "home_team", true},
			Time: &TimeRange{Column: "date", Start: "2015-01-01", End: "2016-01-01", Label: "2015"}}},
		{text: "Number of fixtures per league per calendar year", schema: football, want: want{Table: "football",
			Measures: []Measure{{Agg: "count"}}, GroupBy: []Group{{"division", ""}, {"date", "year"}}}},
		{text: "number of Premier League games", schema: football, want: want{Table: "football",
			Measures: []Measure{{Agg: "count"}}, Filters: []Filter{eq("division", "English Premier League")}}},
	})
	// No role said: which team, which score? Reported.
	for _, text := range []string{"Which 5 teams scored the most goals?", "total goals by division"} {
		if in, err := Parse(text, football, now); err == nil && len(in.Unknown) == 0 {
			t.Errorf("%q: nothing reported (measures %v, top %+v)", text, in.Measures, in.Top)
		}
	}
}

func TestParseARatioOfTotals(t *testing.T) {
	countries := Schema{Tables: []Table{{Name: "c", Rows: 4, Columns: []Column{
		{Name: "country", Type: "string", Values: []string{"A", "B", "C"}},
		{Name: "region", Type: "string", Values: []string{"North", "South"}},
		{Name: "year", Type: "integer"},
		{Name: "gdp", Type: "float"},
		{Name: "pop", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		{text: "GDP per capita by region in 2020", schema: countries, want: want{Table: "c",
			Measures: []Measure{{Column: "gdp", Agg: "sum", Per: "pop"}}, Filters: []Filter{eq("year", "2020")}, GroupBy: []Group{{"region", ""}},
			Understood: []string{"per capita -> the total of gdp divided by the total of pop"}}},
		{text: "average gdp per person", schema: countries, want: want{Table: "c", Measures: []Measure{{Column: "gdp", Agg: "sum", Per: "pop"}}}},
		// "per region" is still a grouping
		{text: "total gdp per region", schema: countries, want: want{Table: "c", Measures: []Measure{{Column: "gdp", Agg: "sum"}},
			GroupBy: []Group{{"region", ""}}}},
	})
	if in, err := Parse("per capita by region", countries, now); err == nil && len(in.Unknown) == 0 {
		t.Errorf("a ratio with nothing to divide: nothing reported (measures %v)", in.Measures)
	}
}

func TestParseCompareKeepsValuesApart(t *testing.T) {
	cars := Schema{Tables: []Table{{Name: "cars", Rows: 406, Columns: []Column{
		{Name: "Origin", Type: "string", Values: []string{"USA", "Europe", "Japan"}},
		{Name: "Horsepower", Type: "float"},
		{Name: "Weight", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		{text: "Compare average horsepower of American and Japanese cars", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "Horsepower", Agg: "avg"}}, Filters: []Filter{{"Origin", "in", []string{"USA", "Japan"}}},
			GroupBy: []Group{{"Origin", ""}}}},
	})
}

func TestParseTheVerbOfADateColumn(t *testing.T) {
	movies := Schema{Tables: []Table{{Name: "movies", Rows: 3201, Columns: []Column{
		{Name: "Distributor", Type: "string", Values: []string{"Warner Bros.", "Sony Pictures"}},
		{Name: "Release Date", Type: "date", Min: "1915-01-01", Max: "2046-12-31"},
	}}}}
	// With no period, "released" may mean rows with a release date, which
	// some rows lack: reported, not read as every row.
	if in, err := Parse("Which distributor released the most movies?", movies, now); err == nil && len(in.Unknown) == 0 {
		t.Errorf("released with no period: nothing reported (understood %q)", in.Understood)
	}
}

func TestParseAValueBeforeItsColumnsVerb(t *testing.T) {
	movies := Schema{Tables: []Table{{Name: "movies", Rows: 3201, Columns: []Column{
		{Name: "MPAA Rating", Type: "string", Values: []string{"G", "PG", "R", "Not Rated"}},
		{Name: "Running Time min", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		{text: "average running time of R rated movies", schema: movies, want: want{Table: "movies",
			Measures: []Measure{{Column: "Running Time min", Agg: "avg"}}, Filters: []Filter{eq("MPAA Rating", "R")}}},
	})
}

func TestParseWhereRowsLiveAndOnAverage(t *testing.T) {
	penguins := Schema{Tables: []Table{{Name: "penguins", Rows: 344, Columns: []Column{
		{Name: "Species", Type: "string", Values: []string{"Adelie", "Gentoo"}},
		{Name: "Island", Type: "string", Values: []string{"Biscoe", "Dream"}},
		{Name: "Body Mass (g)", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		{text: "What proportion of penguins live on each island?", schema: penguins, want: want{Table: "penguins",
			GroupBy: []Group{{"Island", ""}}, Analyses: []string{AnalysisShare}}},
		{text: "Which island has the heaviest penguins on average?", schema: penguins, want: want{Table: "penguins",
			Measures: []Measure{{Column: "Body Mass (g)", Agg: "avg"}}, Top: &TopN{1, "Island", true}}},
	})
}

func TestParseWhichThingNothingNames(t *testing.T) {
	stocks := Schema{Tables: []Table{{Name: "stocks", Rows: 560, Columns: []Column{
		{Name: "symbol", Type: "string", Values: []string{"AMZN", "IBM", "MSFT"}},
		{Name: "date", Type: "date", Min: "2000-01-01", Max: "2010-03-01"},
		{Name: "price", Type: "float"},
	}}}}
	checkCases(t, []parseCase{
		{text: "Which symbol had the highest average price?", schema: stocks, want: want{Table: "stocks",
			Measures: []Measure{{Column: "price", Agg: "avg"}}, Top: &TopN{1, "symbol", true}}},
		{text: "average price of IBM's stock", schema: stocks, want: want{Table: "stocks",
			Measures: []Measure{{Column: "price", Agg: "avg"}}, Filters: []Filter{eq("symbol", "IBM")}}},
	})
	// "stock price" is the price of a stock, so "stock" is no name of the
	// symbol column: "which stock" is reported as "which company" is.
	in, err := Parse("Which company had the highest average price?", stocks, now)
	if err != nil || in.Top != nil || !slices.ContainsFunc(in.Unknown, func(u Unknown) bool { return u.Word == "which company" }) {
		t.Errorf("err %v, top %+v, unknown %+v; want which company reported", err, in.Top, in.Unknown)
	}
}

func TestParsePerACodeIsAGrouping(t *testing.T) {
	groups := Schema{Tables: []Table{{Name: "groups", Rows: 9, Columns: []Column{
		{Name: "name", Type: "string"}, {Name: "group", Type: "integer"}, {Name: "height", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		{text: "What's the mean height per group?", schema: groups, want: want{Table: "groups",
			Measures: []Measure{{Column: "height", Agg: "avg"}}, GroupBy: []Group{{"group", ""}}}},
	})
}

func TestParseAnEntityBeforeItsMeasure(t *testing.T) {
	orders := Schema{Tables: []Table{{Name: "orders", Rows: 25, Columns: []Column{
		{Name: "customer", Type: "string"},
		{Name: "region", Type: "string", Values: []string{"East", "West"}},
		{Name: "age", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		{text: "average customer age", schema: orders, want: want{Table: "orders", Measures: []Measure{{Column: "age", Agg: "avg"}}}},
		{text: "average customer age by region", schema: orders, want: want{Table: "orders",
			Measures: []Measure{{Column: "age", Agg: "avg"}}, GroupBy: []Group{{"region", ""}}}},
		{text: "average age by customer", schema: orders, want: want{Table: "orders",
			Measures: []Measure{{Column: "age", Agg: "avg"}}, GroupBy: []Group{{"customer", ""}}}},
	})
}

func TestParseShowTheirNames(t *testing.T) {
	orders := Schema{Tables: []Table{{Name: "orders", Rows: 72, Columns: []Column{
		{Name: "CustNo", Type: "string"},
		{Name: "CustomerName", Type: "string", Values: []string{"Gouda BV", "Kaas & Co"}},
		{Name: "amount", Type: "float"},
	}}}}
	checkCases(t, []parseCase{
		{text: "Top 3 customers by total amount - show their names", schema: orders, want: want{Table: "orders",
			Measures: []Measure{{Column: "amount", Agg: "sum"}}, Top: &TopN{3, "CustomerName", true}}},
	})
	if in, err := Parse("total amount, show their names", orders, now); err == nil && len(in.Unknown) == 0 {
		t.Errorf("names with no ranking of names: nothing reported")
	}
}

func TestParseCountsTheRowsOfTheJoiningTable(t *testing.T) {
	s := Schema{Tables: []Table{
		{Name: "employees", Rows: 30, Joined: []string{"departments"}, Columns: []Column{
			{Name: "emp_id", Type: "string"}, {Name: "dept_id", Type: "string"},
			{Name: "dept_name", Type: "string", Values: []string{"Engineering", "Finance", "Legal", "Sales"}},
			{Name: "Salary ($)", Type: "float"},
		}},
		{Name: "departments", Rows: 4, Columns: []Column{
			{Name: "dept_id", Type: "string"},
			{Name: "dept_name", Type: "string", Values: []string{"Engineering", "Finance", "Legal", "Sales"}},
			{Name: "Location", Type: "string", Values: []string{"Berlin", "Munich"}},
		}},
	}}
	checkCases(t, []parseCase{
		{text: "headcount by department", schema: s, want: want{Table: "employees", Measures: []Measure{{Agg: "count"}}, GroupBy: []Group{{"dept_name", ""}}}},
		// two departments in Berlin: each is a row, counted
		{text: "number of departments by location", schema: s, want: want{Table: "departments",
			Measures: []Measure{{Column: "dept_id", Agg: "count_distinct"}}, GroupBy: []Group{{"Location", ""}}}},
	})
}
