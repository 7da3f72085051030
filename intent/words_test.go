package intent

import (
	"slices"
	"testing"
)

// Tables shaped like the public ones users bring: years as integers,
// one category column named for what it holds, state names.
var (
	disasters = Schema{Tables: []Table{{Name: "disasters", Rows: 800, Columns: []Column{
		{Name: "Entity", Type: "string", Values: []string{"All natural disasters", "Drought", "Earthquake", "Flood"}},
		{Name: "Year", Type: "integer"},
		{Name: "Deaths", Type: "integer"},
	}}}}
	industries = Schema{Tables: []Table{{Name: "unemployment", Rows: 1700, Columns: []Column{
		{Name: "series", Type: "string", Values: []string{"Government", "Construction", "Manufacturing"}},
		{Name: "year", Type: "integer"},
		{Name: "month", Type: "integer"},
		{Name: "rate", Type: "float"},
	}}}}
	strikes = Schema{Tables: []Table{{Name: "birdstrikes", Rows: 10000, Columns: []Column{
		{Name: "Origin State", Type: "string", Values: []string{"Texas", "Indiana", "Oregon", "Maine"}},
		{Name: "Cost Total $", Type: "integer"},
	}}}}
)

func TestParseOpenYearRanges(t *testing.T) {
	deaths := []Measure{{Column: "Deaths", Agg: "sum"}}
	ge := func(y string) Filter { return Filter{"Year", ">=", []string{y}} }
	le := func(y string) Filter { return Filter{"Year", "<=", []string{y}} }
	checkCases(t, []parseCase{
		{text: "total deaths since 1990", schema: disasters, want: want{Table: "disasters", Measures: deaths, Filters: []Filter{ge("1990")},
			Understood: []string{"since 1990 -> Year >= 1990"}}},
		{text: "total earthquake deaths from 2000 onward", schema: disasters, want: want{Table: "disasters", Measures: deaths,
			Filters: []Filter{ge("2000"), eq("Entity", "Earthquake")}}},
		{text: "total deaths after 1990", schema: disasters, want: want{Table: "disasters", Measures: deaths, Filters: []Filter{ge("1991")}}},
		{text: "total deaths before 1950", schema: disasters, want: want{Table: "disasters", Measures: deaths, Filters: []Filter{le("1949")}}},
		{text: "total deaths prior to 1950", schema: disasters, want: want{Table: "disasters", Measures: deaths, Filters: []Filter{le("1949")}}},
		{text: "total deaths until 1950", schema: disasters, want: want{Table: "disasters", Measures: deaths, Filters: []Filter{le("1950")}}},
	})
}

func TestParseCategoryNouns(t *testing.T) {
	rate := []Measure{{Column: "rate", Agg: "avg"}}
	y2010 := []Filter{eq("year", "2010")}
	checkCases(t, []parseCase{
		{text: "average rate by industry", schema: industries, want: want{Table: "unemployment", Measures: rate,
			GroupBy: []Group{{"series", ""}}, Understood: []string{"industry -> series (the only category column of unemployment)"}}},
		{text: "top 2 industries with the lowest rate in 2010", schema: industries, want: want{Table: "unemployment", Measures: rate,
			Filters: y2010, Top: &TopN{2, "series", false}}},
		{text: "which industry had the highest rate in 2010", schema: industries, want: want{Table: "unemployment", Measures: rate,
			Filters: y2010, Top: &TopN{1, "series", true}}},
		{text: "deaths by type of disaster", schema: disasters, want: want{Table: "disasters", Measures: []Measure{{Column: "Deaths", Agg: "sum"}},
			GroupBy: []Group{{"Entity", ""}}}},
	})
}

func TestParseStateCodesAreNotWords(t *testing.T) {
	// "in", "or", "me" are the codes of Indiana, Oregon and Maine; only
	// written in capitals are they the states.
	checkCases(t, []parseCase{
		{text: "What did strikes in Texas cost in total?", schema: strikes, want: want{Table: "birdstrikes",
			Measures: []Measure{{Column: "Cost Total $", Agg: "sum"}}, Filters: []Filter{eq("Origin State", "Texas")}}},
		{text: "total cost of strikes in IN", schema: strikes, want: want{Table: "birdstrikes",
			Measures: []Measure{{Column: "Cost Total $", Agg: "sum"}}, Filters: []Filter{eq("Origin State", "Indiana")}}},
	})
}

func TestParsePeriodColumnWords(t *testing.T) {
	movies := Schema{Tables: []Table{{Name: "movies", Rows: 3000, Columns: []Column{
		{Name: "Title", Type: "string"},
		{Name: "Worldwide Gross", Type: "float"},
		{Name: "Release Date", Type: "date", Min: "1990-01-01", Max: "2010-12-31"},
	}}}}
	checkCases(t, []parseCase{
		{text: "total worldwide gross of films released in 2005", schema: movies, want: want{Table: "movies",
			Measures:   []Measure{{Column: "Worldwide Gross", Agg: "sum"}},
			Time:       &TimeRange{Column: "Release Date", Start: "2005-01-01", End: "2006-01-01", Label: "2005"},
			Understood: []string{"released -> the period's column Release Date"}}},
	})
}

func TestParseGroupedSubjectCounts(t *testing.T) {
	s := Schema{Tables: []Table{{Name: "birdstrikes", Rows: 10000, Columns: []Column{
		{Name: "Time of day", Type: "string", Values: []string{"Day", "Night", "Dawn", "Dusk"}},
		{Name: "Cost Total $", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		// A column whose name starts with a stop word ("time").
		{text: "strikes by time of day", schema: s, want: want{Table: "birdstrikes", Measures: []Measure{{Agg: "count"}},
			GroupBy: []Group{{"Time of day", ""}}}},
		{text: "total cost by time of day", schema: s, want: want{Table: "birdstrikes", Measures: []Measure{{Column: "Cost Total $", Agg: "sum"}},
			GroupBy: []Group{{"Time of day", ""}}}},
	})
	// A grouping that names nothing, in words the parser passes over
	// ("time" is a stop word), is reported, not dropped.
	in, _ := Parse("total cost by time", s, now)
	if !slices.ContainsFunc(in.Unknown, func(u Unknown) bool { return u.Word == "by time" }) {
		t.Errorf("Unknown = %+v; want \"by time\" reported", in.Unknown)
	}
}

func TestParseEntityWords(t *testing.T) {
	// orders widened with its customers' columns through customer_id.
	s := Schema{Tables: []Table{{Name: "orders", Rows: 90, Joined: []string{"customers"}, Columns: []Column{
		{Name: "order_date", Type: "date", Min: "2022-01-01", Max: "2023-12-31"},
		{Name: "amount", Type: "float"},
		{Name: "customer_id", Type: "integer"},
		{Name: "customer_name", Type: "string", Values: []string{"Avery Stone", "Blake Rivera", "Dana Okafor"}},
		{Name: "segment", Type: "string", Values: []string{"Consumer", "Corporate", "Small Business"}},
		{Name: "country", Type: "string", Values: []string{"Canada", "Mexico", "United States"}},
	}}}}
	sales := []Measure{{Column: "amount", Agg: "sum"}}
	checkCases(t, []parseCase{
		{text: "total sales by customer segment", schema: s, want: want{Table: "orders", Measures: sales, GroupBy: []Group{{"segment", ""}}}},
		{text: "sales to Mexico customers per year", schema: s, want: want{Table: "orders", Measures: sales,
			Filters: []Filter{eq("country", "Mexico")}, GroupBy: []Group{{"order_date", "year"}}}},
	})
}

func TestParseColumnNamesSaidOtherwise(t *testing.T) {
	cars := Schema{Tables: []Table{{Name: "cars", Rows: 406, Columns: []Column{
		{Name: "Name", Type: "string"},
		{Name: "Miles_per_Gallon", Type: "float"},
		{Name: "Origin", Type: "string", Values: []string{"USA", "Europe", "Japan"}},
	}}}}
	iowa := Schema{Tables: []Table{{Name: "iowa", Rows: 51, Columns: []Column{
		{Name: "year", Type: "date", Min: "2001-01-01", Max: "2017-01-01"},
		{Name: "source", Type: "string", Values: []string{"Fossil Fuels", "Nuclear Energy", "Renewables"}},
		{Name: "net_generation", Type: "integer"},
	}}}}
	strikes := Schema{Tables: []Table{{Name: "birdstrikes", Rows: 10000, Columns: []Column{
		{Name: "Origin State", Type: "string", Values: []string{"Texas", "Ohio"}},
		{Name: "Cost Other", Type: "integer"},
		{Name: "Cost Total $", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		{text: "average fuel economy per origin", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "Miles_per_Gallon", Agg: "avg"}}, GroupBy: []Group{{"Origin", ""}}}},
		{text: "average miles per gallon by origin", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "Miles_per_Gallon", Agg: "avg"}}, GroupBy: []Group{{"Origin", ""}}}},
		// A date column called year groups by year.
		{text: "net generation by source and year", schema: iowa, want: want{Table: "iowa",
			Measures: []Measure{{Column: "net_generation", Agg: "sum"}}, GroupBy: []Group{{"source", ""}, {"year", "year"}}}},
		{text: "top 5 states by total cost", schema: strikes, want: want{Table: "birdstrikes",
			Measures: []Measure{{Column: "Cost Total $", Agg: "sum"}}, Top: &TopN{5, "Origin State", true}}},
	})
}

func TestParseAdjectivesVerbsAndWholeData(t *testing.T) {
	cars := Schema{Tables: []Table{{Name: "cars", Rows: 406, Columns: []Column{
		{Name: "Name", Type: "string"},
		{Name: "Miles_per_Gallon", Type: "float"},
		{Name: "Origin", Type: "string", Values: []string{"USA", "Europe", "Japan"}},
	}}}}
	weather := Schema{Tables: []Table{{Name: "weather", Rows: 1461, Columns: []Column{
		{Name: "date", Type: "date", Min: "2012-01-01", Max: "2015-12-31"},
		{Name: "temp_max", Type: "float"},
		{Name: "temp_min", Type: "float"},
		{Name: "precipitation", Type: "float"},
	}}}}
	checkCases(t, []parseCase{
		{text: "How many Japanese cars get at least 30 miles per gallon?", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Agg: "count"}}, Filters: []Filter{{"Miles_per_Gallon", ">=", []string{"30"}}, eq("Origin", "Japan")}}},
		{text: "average mpg of American cars", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "Miles_per_Gallon", Agg: "avg"}}, Filters: []Filter{eq("Origin", "USA")}}},
		{text: "On how many days did the high temperature go above 30 degrees?", schema: weather, want: want{Table: "weather",
			Measures: []Measure{{Agg: "count"}}, Filters: []Filter{{"temp_max", ">", []string{"30"}}}}},
		{text: "average precipitation over the whole dataset", schema: weather, want: want{Table: "weather",
			Measures: []Measure{{Column: "precipitation", Agg: "avg"}}}},
	})
}

// flightsWithAirports is flights widened with the state of the airport at
// each end (through its keys origin and destination), coded as postal codes.
var flightsWithAirports = Schema{Tables: []Table{{Name: "flights", Rows: 5000, Joined: []string{"airports"}, Columns: []Column{
	{Name: "origin", Type: "string", Values: []string{"DFW", "LAX", "ORD"}},
	{Name: "destination", Type: "string", Values: []string{"DFW", "LAX", "ORD"}},
	{Name: "delay", Type: "integer"},
	{Name: "origin_state", Type: "string", Values: []string{"TX", "CA", "IL"}},
	{Name: "destination_state", Type: "string", Values: []string{"TX", "CA", "IL"}},
}}}}

func TestParseRoleWordsPickAColumn(t *testing.T) {
	s := flightsWithAirports
	checkCases(t, []parseCase{
		{text: "average delay for flights departing from airports in Texas", schema: s, want: want{Table: "flights",
			Measures: []Measure{{Column: "delay", Agg: "avg"}}, Filters: []Filter{eq("origin_state", "TX")}}},
		{text: "How many flights landed at airports in California?", schema: s, want: want{Table: "flights",
			Measures: []Measure{{Agg: "count"}}, Filters: []Filter{eq("destination_state", "CA")}}},
	})
	// Without a word of its role, Texas is either end: not applied.
	in, _ := Parse("average delay of flights in Texas", s, now)
	if len(in.Filters) != 0 || len(in.Unknown) == 0 {
		t.Errorf("filters %v, unknown %v; want Texas not applied and reported", in.Filters, in.Unknown)
	}
}

func TestParseLongerNamesInPart(t *testing.T) {
	strikes := Schema{Tables: []Table{{Name: "birdstrikes", Rows: 10000, Columns: []Column{
		{Name: "Aircraft Airline Operator", Type: "string", Values: []string{"FEDEX EXPRESS", "UNITED AIRLINES"}},
		{Name: "Cost Other", Type: "integer"},
		{Name: "Cost Repair", Type: "integer"},
		{Name: "Cost Total $", Type: "integer"},
	}}}}
	flights := Schema{Tables: []Table{{Name: "flights", Rows: 5366, Columns: []Column{
		{Name: "origin", Type: "string", Values: []string{"ATL", "ORD"}},
		{Name: "count", Type: "integer"},
		{Name: "origin_city", Type: "string", Values: []string{"Atlanta", "Chicago"}},
		{Name: "destination_city", Type: "string", Values: []string{"Atlanta", "Chicago"}},
	}}}}
	checkCases(t, []parseCase{
		{text: "Top 3 airline operators by total strike cost", schema: strikes, want: want{Table: "birdstrikes",
			Measures: []Measure{{Column: "Cost Total $", Agg: "sum"}}, Top: &TopN{3, "Aircraft Airline Operator", true}}},
		// "origin cities" is origin_city, not origin; "departing" says the
		// role of the rows, not a grouping.
		{text: "Top 5 origin cities by total departing flights", schema: flights, want: want{Table: "flights",
			Measures: []Measure{{Column: "count", Agg: "sum"}}, Top: &TopN{5, "origin_city", true}}},
	})
}

func TestParseValuesSaidAsWords(t *testing.T) {
	gap := Schema{Tables: []Table{{Name: "health", Rows: 187, Columns: []Column{
		{Name: "country", Type: "string"},
		{Name: "income", Type: "integer"},
		{Name: "region", Type: "string", Values: []string{"south_asia", "sub_saharan_africa", "america"}},
	}}}}
	burtin := Schema{Tables: []Table{{Name: "burtin", Rows: 16, Columns: []Column{
		{Name: "Bacteria", Type: "string", Values: []string{"Aerobacter aerogenes", "Bacillus anthracis", "Brucella abortus"}},
		{Name: "Penicillin", Type: "float"},
		{Name: "Gram_Staining", Type: "string", Values: []string{"negative", "positive"}},
	}}}}
	temps := Schema{Tables: []Table{{Name: "temps", Rows: 136, Columns: []Column{
		{Name: "year", Type: "integer"},
		{Name: "temp", Type: "float"},
	}}}}
	checkCases(t, []parseCase{
		{text: "average income in Sub-Saharan Africa", schema: gap, want: want{Table: "health",
			Measures: []Measure{{Column: "income", Agg: "avg"}}, Filters: []Filter{eq("region", "sub_saharan_africa")}}},
		// "gram-negative bacteria": the rows, not a grouping by name.
		{text: "average penicillin for gram-negative bacteria", schema: burtin, want: want{Table: "burtin",
			Measures: []Measure{{Column: "Penicillin", Agg: "avg"}}, Filters: []Filter{eq("Gram_Staining", "negative")}}},
		{text: "average temp in the 1990s", schema: temps, want: want{Table: "temps",
			Measures: []Measure{{Column: "temp", Agg: "avg"}}, Filters: []Filter{{"year", ">=", []string{"1990"}}, {"year", "<=", []string{"1999"}}}}},
	})
}

func TestParseAveragePerPeriod(t *testing.T) {
	daily := Schema{Tables: []Table{{Name: "sp500", Rows: 5105, Columns: []Column{
		{Name: "date", Type: "date", Min: "2000-01-03", Max: "2020-06-01"},
		{Name: "volume", Type: "integer"},
	}}}}
	hourly := Schema{Tables: []Table{{Name: "github", Rows: 8000, Columns: []Column{
		{Name: "time", Type: "timestamp", Min: "2015-01-01", Max: "2015-12-31"},
		{Name: "count", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		// One row a day: the average over rows is the daily average.
		{text: "Which 3 years had the highest average daily trading volume?", schema: daily, want: want{Table: "sp500",
			Measures: []Measure{{Column: "volume", Agg: "avg"}}, GroupBy: []Group{{"date", "year"}}, Top: &TopN{3, "date", true}}},
	})
	// Rows by the hour: an average of daily totals is not an average of
	// rows; it is each day's total, averaged over the days.
	in, _ := Parse("average daily count", hourly, now)
	if want := (Measure{Column: "count", Agg: "avg", PerPeriod: "day"}); len(in.Unknown) > 0 || !slices.Equal(in.Measures, []Measure{want}) {
		t.Errorf("Parse(\"average daily count\") = %+v, unknown %+v; want %+v", in.Measures, in.Unknown, want)
	}
	// a median of daily totals is not computed: reported
	in, _ = Parse("median daily count", hourly, now)
	if !slices.ContainsFunc(in.Unknown, func(u Unknown) bool { return u.Word == "median daily" }) {
		t.Errorf("Unknown = %+v; want \"median daily\" reported", in.Unknown)
	}
}

func TestParseYearsTheDataHas(t *testing.T) {
	crimea := Schema{Tables: []Table{{Name: "crimea", Rows: 24, Columns: []Column{
		{Name: "date", Type: "date", Min: "1854-04-01", Max: "1856-03-01"},
		{Name: "disease", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		{text: "total disease in 1855", schema: crimea, want: want{Table: "crimea", Measures: []Measure{{Column: "disease", Agg: "sum"}},
			Time: &TimeRange{Column: "date", Start: "1855-01-01", End: "1856-01-01", Label: "1855"}}},
		{text: "top 2 months by total disease", schema: crimea, want: want{Table: "crimea", Measures: []Measure{{Column: "disease", Agg: "sum"}},
			GroupBy: []Group{{"date", "month"}}, Top: &TopN{2, "date", true}}},
	})
}

func TestParseNamesWithTheirDescriptions(t *testing.T) {
	sp := Schema{Tables: []Table{{Name: "sp500", Rows: 5105, Columns: []Column{
		{Name: "date", Type: "date", Min: "2000-01-03", Max: "2020-06-01"},
		{Name: "open", Type: "float"},
		{Name: "close", Type: "float"},
	}}}}
	weather := Schema{Tables: []Table{{Name: "weather", Rows: 1461, Columns: []Column{
		{Name: "date", Type: "date", Min: "2012-01-01", Max: "2015-12-31"},
		{Name: "wind", Type: "float"},
		{Name: "weather", Type: "string", Values: []string{"sun", "rain", "fog"}},
	}}}}
	checkCases(t, []parseCase{
		{text: "What was the lowest closing level of the S&P 500 in 2008?", schema: sp, want: want{Table: "sp500",
			Measures: []Measure{{Column: "close", Agg: "min"}}, Time: &TimeRange{Column: "date", Start: "2008-01-01", End: "2009-01-01", Label: "2008"}}},
		{text: "average wind speed for each kind of weather", schema: weather, want: want{Table: "weather",
			Measures: []Measure{{Column: "wind", Agg: "avg"}}, GroupBy: []Group{{"weather", ""}}}},
	})
}

func TestParseShareOfRowsWithACondition(t *testing.T) {
	cars := Schema{Tables: []Table{{Name: "cars", Rows: 406, Columns: []Column{
		{Name: "Name", Type: "string"},
		{Name: "Cylinders", Type: "integer"},
		{Name: "Horsepower", Type: "integer"},
	}}}}
	// The share of rows, not of the condition's column.
	checkCases(t, []parseCase{
		{text: "Percent of cars with 8 cylinders", schema: cars, want: want{Table: "cars",
			Filters: []Filter{eq("Cylinders", "8")}, Analyses: []string{AnalysisShare}}},
	})
}

func TestParseEqualityKeepsTheAggregation(t *testing.T) {
	cars := Schema{Tables: []Table{{Name: "cars", Rows: 406, Columns: []Column{
		{Name: "Name", Type: "string"},
		{Name: "Cylinders", Type: "integer"},
		{Name: "Horsepower", Type: "integer"},
	}}}}
	// "4 cylinders" once took the request's first word ("median") with it.
	checkCases(t, []parseCase{
		{text: "median horsepower of cars with 4 cylinders", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "Horsepower", Agg: "median"}}, Filters: []Filter{eq("Cylinders", "4")}}},
	})
}

func TestParseUnitsVerbsAndPluralValues(t *testing.T) {
	penguins := Schema{Tables: []Table{{Name: "penguins", Rows: 344, Columns: []Column{
		{Name: "Species", Type: "string", Values: []string{"Adelie", "Gentoo"}},
		{Name: "Beak Length (mm)", Type: "float"},
		{Name: "Body Mass (g)", Type: "integer"},
	}}}}
	weather := Schema{Tables: []Table{{Name: "weather", Rows: 1461, Columns: []Column{
		{Name: "date", Type: "date", Min: "2012-01-01", Max: "2015-12-31"},
		{Name: "precipitation", Type: "float"},
	}}}}
	movies := Schema{Tables: []Table{{Name: "movies", Rows: 3201, Columns: []Column{
		{Name: "Title", Type: "string"},
		{Name: "IMDB Rating", Type: "float"},
		{Name: "Major Genre", Type: "string", Values: []string{"Comedy", "Black Comedy", "Drama"}},
	}}}}
	checkCases(t, []parseCase{
		{text: "how many penguins weigh more than 5000 grams", schema: penguins, want: want{Table: "penguins",
			Measures: []Measure{{Agg: "count"}}, Filters: []Filter{{"Body Mass (g)", ">", []string{"5000"}}}}},
		{text: "average bill length by species", schema: penguins, want: want{Table: "penguins",
			Measures: []Measure{{Column: "Beak Length (mm)", Agg: "avg"}}, GroupBy: []Group{{"Species", ""}}}},
		{text: "count of days with more than 10 mm of precipitation", schema: weather, want: want{Table: "weather",
			Measures: []Measure{{Agg: "count"}}, Filters: []Filter{{"precipitation", ">", []string{"10"}}}}},
		{text: "average IMDB rating of comedies", schema: movies, want: want{Table: "movies",
			Measures: []Measure{{Column: "IMDB Rating", Agg: "avg"}}, Filters: []Filter{eq("Major Genre", "Comedy")}}},
	})
}

func TestParseNoCountOfADailySeries(t *testing.T) {
	sp := Schema{Tables: []Table{{Name: "sp500", Rows: 123, Columns: []Column{
		{Name: "date", Type: "date", Min: "2000-01-01", Max: "2010-03-01"},
		{Name: "price", Type: "float"},
	}}}}
	in, _ := Parse("How much did the S&P 500 change, in percent, between Jan 2000 and Jan 2010?", sp, now)
	if !slices.ContainsFunc(in.Unknown, func(u Unknown) bool { return u.Word == "what to compute" }) {
		t.Errorf("measures %v, unknown %+v; want the measure asked for, not a count of rows", in.Measures, in.Unknown)
	}
}

func TestParseTheJoinedTablesOwnRows(t *testing.T) {
	products := Table{Name: "products", Rows: 8, Columns: []Column{
		{Name: "product_id", Type: "string"},
		{Name: "category", Type: "string", Values: []string{"Furniture", "Technology"}},
		{Name: "list_price", Type: "float"},
	}}
	orders := Table{Name: "orders", Rows: 90, Joined: []string{"products"}, Columns: []Column{
		{Name: "order_id", Type: "integer"},
		{Name: "product_id", Type: "string"},
		{Name: "amount", Type: "float"},
		{Name: "category", Type: "string", Values: []string{"Furniture", "Technology"}},
		{Name: "list_price", Type: "float"},
	}}
	s := Schema{Tables: []Table{orders, products}}
	checkCases(t, []parseCase{
		// Only the products' columns: the products' rows.
		{text: "average list price by category", schema: s, want: want{Table: "products",
			Measures: []Measure{{Column: "list_price", Agg: "avg"}}, GroupBy: []Group{{"category", ""}}}},
		// Sales are the orders'.
		{text: "total sales by category", schema: s, want: want{Table: "orders",
			Measures: []Measure{{Column: "amount", Agg: "sum"}}, GroupBy: []Group{{"category", ""}}}},
	})
}

func TestParseBusiestPeriodAndComparisonsOfLength(t *testing.T) {
	tickets := Schema{Tables: []Table{{Name: "tickets", Rows: 600, Columns: []Column{
		{Name: "ticket_id", Type: "integer"},
		{Name: "created_at", Type: "timestamp", Min: "2023-01-01", Max: "2023-12-31"},
		{Name: "resolution_hours", Type: "float"},
	}}}}
	checkCases(t, []parseCase{
		{text: "busiest month for tickets", schema: tickets, want: want{Table: "tickets",
			Measures: []Measure{{Column: "ticket_id", Agg: "count_distinct"}}, GroupBy: []Group{{"created_at", "month"}}, Top: &TopN{1, "created_at", true}}},
	})
	in, err := Parse("how many tickets took longer than 48 hours to resolve", tickets, now)
	if err != nil || len(in.Unknown) > 0 || !slices.ContainsFunc(in.Filters, func(f Filter) bool { return f.Column == "resolution_hours" && f.Op == ">" && f.Values[0] == "48" }) {
		t.Errorf("filters %v, unknown %+v, %v; want resolution_hours > 48", in.Filters, in.Unknown, err)
	}
}

func TestParseWordsOfPeople(t *testing.T) {
	staff := Schema{Tables: []Table{{Name: "employees", Rows: 300, Columns: []Column{
		{Name: "employee_id", Type: "integer"},
		{Name: "department", Type: "string", Values: []string{"Engineering", "Sales", "Support"}},
		{Name: "hire_date", Type: "date", Min: "2015-01-01", Max: "2023-12-31"},
		{Name: "salary", Type: "integer"},
		{Name: "gender", Type: "string", Values: []string{"Female", "Male"}},
		{Name: "age", Type: "integer"},
		{Name: "remote", Type: "boolean"},
		{Name: "city", Type: "string", Values: []string{"Austin", "Boston", "Denver"}},
	}}}}
	salary := []Measure{{Column: "salary", Agg: "avg"}}
	ids := []Measure{{Column: "employee_id", Agg: "count_distinct"}}
	checkCases(t, []parseCase{
		{text: "average salary of women in Sales", schema: staff, want: want{Table: "employees", Measures: salary,
			Filters: []Filter{eq("gender", "Female"), eq("department", "Sales")}}},
		{text: "median age of remote employees", schema: staff, want: want{Table: "employees",
			Measures: []Measure{{Column: "age", Agg: "median"}}, Filters: []Filter{eq("remote", "true")}}},
		{text: "average salary of non-remote employees", schema: staff, want: want{Table: "employees", Measures: salary,
			Filters: []Filter{eq("remote", "false")}}},
		{text: "How many employees are older than 50?", schema: staff, want: want{Table: "employees", Measures: ids,
			Filters: []Filter{{"age", ">", []string{"50"}}}}},
		{text: "how many employees were hired in 2020", schema: staff, want: want{Table: "employees", Measures: ids,
			Time: &TimeRange{Column: "hire_date", Start: "2020-01-01", End: "2021-01-01", Label: "2020"}}},
		{text: "top 3 cities by headcount", schema: staff, want: want{Table: "employees", Measures: []Measure{{Agg: "count"}},
			Top: &TopN{3, "city", true}}},
	})
}

func TestParseCountsOfPeopleAndGroupsOfGroups(t *testing.T) {
	pop := Schema{Tables: []Table{{Name: "population", Rows: 570, Columns: []Column{
		{Name: "year", Type: "integer"},
		{Name: "age", Type: "integer"},
		{Name: "sex", Type: "integer"},
		{Name: "people", Type: "integer"},
	}}}}
	riots := Schema{Tables: []Table{{Name: "riots", Rows: 63, Columns: []Column{
		{Name: "type", Type: "string", Values: []string{"Death", "Homicide"}},
		{Name: "gender", Type: "string", Values: []string{"Female", "Male"}},
	}}}}
	orders := Schema{Tables: []Table{{Name: "orders", Rows: 240, Columns: []Column{
		{Name: "product", Type: "string", Values: []string{"Drill", "Rake"}},
		{Name: "category", Type: "string", Values: []string{"Hardware", "Garden"}},
		{Name: "quantity", Type: "integer"},
	}}}}
	people := []Measure{{Column: "people", Agg: "sum"}}
	checkCases(t, []parseCase{
		{text: "Population by age in 2000, both sexes combined", schema: pop, want: want{Table: "population", Measures: people,
			Filters: []Filter{eq("year", "2000")}, GroupBy: []Group{{"age", ""}}}},
		{text: "Total quantity sold per product category", schema: orders, want: want{Table: "orders",
			Measures: []Measure{{Column: "quantity", Agg: "sum"}}, GroupBy: []Group{{"category", ""}}}},
	})
	// "deaths" is the rows counted or the type Death: not said.
	in, _ := Parse("How many deaths of each type were there?", riots, now)
	if len(in.Filters) != 0 || len(in.Unknown) == 0 {
		t.Errorf("filters %v, unknown %+v; want deaths reported, not read as type = 'Death'", in.Filters, in.Unknown)
	}
}

func TestParseCountOverATableOfCounts(t *testing.T) {
	jobs := Schema{Tables: []Table{{Name: "jobs", Rows: 7000, Columns: []Column{
		{Name: "job", Type: "string", Values: []string{"Farmer", "Teacher"}},
		{Name: "sex", Type: "string", Values: []string{"men", "women"}},
		{Name: "year", Type: "integer"},
		{Name: "count", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		{text: "how many male farmers were there in 1900", schema: jobs, want: want{Table: "jobs",
			Measures: []Measure{{Column: "count", Agg: "sum"}}, Filters: []Filter{eq("year", "1900"), eq("sex", "men"), eq("job", "Farmer")},
			Understood: []string{"how many -> sum of count (each row of jobs counts count)"}}},
	})
}
