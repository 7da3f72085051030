package intent

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
)

// TestAPeriodTheDataDoesNotReach: a year or a period outside the data's
// dates is refused, saying what the data covers, on a date column and on
// an integer year column; one that overlaps the data is answered.
func TestAPeriodTheDataDoesNotReach(t *testing.T) {
	sales := schemaOf("sales", Column{Name: "txn_dt", Type: "date", Min: "2023-01-01", Max: "2024-12-31"},
		Column{Name: "net_amt", Type: "float", Min: "1", Max: "900"})
	trade := schemaOf("trade", Column{Name: "country", Type: "string", Values: []string{"Japan", "Chile"}},
		Column{Name: "yr", Type: "integer", Min: "2021", Max: "2022"}, Column{Name: "exports", Type: "float", Min: "0", Max: "90"})
	for _, c := range []struct {
		s    Schema
		text string
	}{
		{sales, "Total net amt in 2022"},
		{sales, "total net amt in 2024 compared with 2021"},
		{trade, "Total exports in 2019"},
		{trade, "total exports since 2023"},
	} {
		_, err := Parse(c.text, c.s, now)
		if quarry.ErrorCode(err) != quarry.ECodeNeedsClarification || !strings.Contains(err.Error(), "runs from") {
			t.Errorf("Parse(%q): %v; want NEEDS_CLARIFICATION saying what the data covers", c.text, err)
		}
	}
	checkCases(t, []parseCase{
		{text: "Total exports in 2021", schema: trade, want: want{Table: "trade", Measures: []Measure{{Column: "exports", Agg: "sum"}},
			Filters: []Filter{{Column: "yr", Op: "=", Values: []string{"2021"}}}}},
	})
	if _, err := Parse("total net amt since 2024", sales, now); err != nil {
		t.Errorf("a period overlapping the data: %v", err)
	}
}

// TestAColumnPerCapitaAlready: "GDP per capita" is the column gdp_pc or
// gdpPercap when the table has one, not that column divided by the
// population again.
func TestAColumnPerCapitaAlready(t *testing.T) {
	for _, name := range []string{"gdp_pc", "gdpPercap"} {
		s := schemaOf("africa", Column{Name: "country", Type: "string", Values: []string{"Senegal", "Mali"}},
			Column{Name: "year", Type: "integer", Min: "1972", Max: "1991"}, Column{Name: name, Type: "float", Min: "300", Max: "3000"},
			Column{Name: "population", Type: "integer", Min: "1000", Max: "90000000"})
		checkCases(t, []parseCase{
			{text: "Senegal's GDP per capita in 1975", schema: s, want: want{Table: "africa", Measures: []Measure{{Column: name, Agg: "avg"}},
				Filters: []Filter{{Column: "year", Op: "=", Values: []string{"1975"}}, {Column: "country", Op: "=", Values: []string{"Senegal"}}}}},
		})
	}
}

// TestAMeasureNounAbbreviated: "discount" is disc_pct and "price" unit_prc
// when the table abbreviates them and has no column called so.
func TestAMeasureNounAbbreviated(t *testing.T) {
	lines := schemaOf("sales", Column{Name: "cat", Type: "string", Values: []string{"Household", "Bakery"}},
		Column{Name: "unit_prc", Type: "float", Min: "1", Max: "90"}, Column{Name: "disc_pct", Type: "float", Min: "0", Max: "30"})
	checkCases(t, []parseCase{
		{text: "Average discount % for Household", schema: lines, want: want{Table: "sales",
			Measures: []Measure{{Column: "disc_pct", Agg: "avg"}}, Filters: []Filter{{Column: "cat", Op: "=", Values: []string{"Household"}}}}},
		{text: "highest unit price by cat", schema: lines, want: want{Table: "sales",
			Measures: []Measure{{Column: "unit_prc", Agg: "max"}}, GroupBy: []Group{{"cat", ""}}}},
	})
}

// TestCompareWhatIsSideBySide: "compare" is applied by the two values
// grouped side by side.
func TestCompareWhatIsSideBySide(t *testing.T) {
	gss := schemaOf("gss", Column{Name: "marital", Type: "string", Values: []string{"Married", "Divorced", "Never married"}},
		Column{Name: "tvhours", Type: "integer", Min: "0", Max: "24"})
	checkCases(t, []parseCase{
		{text: "Compare average TV hours for married vs never married", schema: gss, want: want{Table: "gss",
			Measures: []Measure{{Column: "tvhours", Agg: "avg"}}, GroupBy: []Group{{"marital", ""}},
			Filters: []Filter{{Column: "marital", Op: "in", Values: []string{"Married", "Never married"}}}}},
	})
	if in, err := Parse("Compare average TV hours for married vs never married", gss, now); err != nil || len(in.Unknown) > 0 {
		t.Errorf("compare: %v, unknown %v; want nothing reported", err, in.Unknown)
	}
}

// TestAPlaceNounAbbreviated: "region" is rgn, also through a joined
// table's columns.
func TestAPlaceNounAbbreviated(t *testing.T) {
	sales := schemaOf("sales", Column{Name: "store_id", Type: "string", Values: []string{"S01", "S02"}},
		Column{Name: "net_amt", Type: "float", Min: "1", Max: "90"}, Column{Name: "rgn", Type: "string", Values: []string{"North", "West"}})
	checkCases(t, []parseCase{
		{text: "Net sales by region", schema: sales, want: want{Table: "sales",
			Measures: []Measure{{Column: "net_amt", Agg: "sum"}}, GroupBy: []Group{{"rgn", ""}}}},
	})
}

// TestACountedValueInThePlural: "number of fouls" over a table of events
// counts the events of type 'foul'; over a table named for deaths they are
// its rows, not the rows of type 'Death'.
func TestACountedValueInThePlural(t *testing.T) {
	events := schemaOf("lakers", Column{Name: "etype", Type: "string", Values: []string{"shot", "foul", "rebound"}},
		Column{Name: "period", Type: "integer", Min: "1", Max: "5"})
	checkCases(t, []parseCase{
		{text: "Number of fouls in each period", schema: events, want: want{Table: "lakers", Measures: []Measure{{Agg: "count"}},
			Filters: []Filter{{Column: "etype", Op: "=", Values: []string{"foul"}}}, GroupBy: []Group{{"period", ""}}}},
	})
	deaths := schemaOf("deaths", Column{Name: "type", Type: "string", Values: []string{"Death", "Injury"}},
		Column{Name: "race", Type: "string", Values: []string{"Asian", "White"}})
	if in, err := Parse("number of deaths by race", deaths, now); err != nil || len(in.Filters) > 0 {
		t.Errorf("number of deaths by race: filters %v, %v; want the rows of deaths counted", in.Filters, err)
	}
}

// TestValuesBeforeTheCountedNoun: "how many home games" over a table of
// plays counts the distinct games the value describes, not the plays.
func TestValuesBeforeTheCountedNoun(t *testing.T) {
	plays := schemaOf("pbp", Column{Name: "game_id", Type: "integer", Min: "1", Max: "30"},
		Column{Name: "home_away", Type: "string", Values: []string{"home", "away"}},
		Column{Name: "event", Type: "string", Values: []string{"shot", "foul"}}, Column{Name: "points", Type: "integer", Min: "0", Max: "3"})
	home := []Filter{{Column: "home_away", Op: "=", Values: []string{"home"}}}
	checkCases(t, []parseCase{
		{text: "how many home games", schema: plays, want: want{Table: "pbp", Measures: []Measure{{Column: "game_id", Agg: "count_distinct"}}, Filters: home}},
		{text: "number of home games", schema: plays, want: want{Table: "pbp", Measures: []Measure{{Column: "game_id", Agg: "count_distinct"}}, Filters: home}},
		{text: "how many home fouls", schema: plays, want: want{Table: "pbp", Measures: []Measure{{Agg: "count"}},
			Filters: []Filter{{Column: "home_away", Op: "=", Values: []string{"home"}}, {Column: "event", Op: "=", Values: []string{"foul"}}}}},
	})
}

// TestAFlagSaysWhichRows: a 0/1 column said of the rows ("born preterm",
// "non-preterm babies") picks the rows where it is 1 (or 0); after an
// aggregate it is a rate. "Scored" and "owned" say how a measure accrued;
// "zip code" is the column zip.
func TestAFlagSaysWhichRows(t *testing.T) {
	births := schemaOf("births", Column{Name: "id", Type: "integer", Min: "1", Max: "500"},
		Column{Name: "bweight", Type: "integer", Min: "600", Max: "4500"}, Column{Name: "preterm", Type: "integer", Min: "0", Max: "1"},
		Column{Name: "zip", Type: "string", Values: []string{"95814", "95819"}})
	one := func(v string) []Filter { return []Filter{{Column: "preterm", Op: "=", Values: []string{v}}} }
	checkCases(t, []parseCase{
		{text: "How many babies were born preterm?", schema: births, want: want{Table: "births", Measures: []Measure{{Agg: "count"}}, Filters: one("1")}},
		{text: "average bweight of non-preterm babies", schema: births, want: want{Table: "births",
			Measures: []Measure{{Column: "bweight", Agg: "avg"}}, Filters: one("0")}},
		{text: "average preterm", schema: births, want: want{Table: "births", Measures: []Measure{{Column: "preterm", Agg: "avg"}}}},
		{text: "Which zip code has the highest average bweight?", schema: births, want: want{Table: "births",
			Measures: []Measure{{Column: "bweight", Agg: "avg"}}, Top: &TopN{1, "zip", true}}},
	})
	students := schemaOf("students", Column{Name: "Gender", Type: "string", Values: []string{"male", "female"}},
		Column{Name: "Dvds", Type: "integer", Min: "0", Max: "400"})
	checkCases(t, []parseCase{
		{text: "Median number of DVDs owned by gender", schema: students, want: want{Table: "students",
			Measures: []Measure{{Column: "Dvds", Agg: "median"}}, GroupBy: []Group{{"Gender", ""}}}},
	})
}

// TestAVerbThatIsAValue: "make" is passed over as saying nothing, unless
// the table holds 'made' as a value: then whether it picks the rows is
// reported.
func TestAVerbThatIsAValue(t *testing.T) {
	shots := schemaOf("lakers", Column{Name: "etype", Type: "string", Values: []string{"shot", "foul"}},
		Column{Name: "player", Type: "string", Values: []string{"Pau Gasol", "Kobe Bryant"}},
		Column{Name: "result", Type: "string", Values: []string{"made", "missed"}})
	reported(t, shots, "How many shots did Pau Gasol make?", "How many shots did Pau Gasol make that were made?")
	plain := schemaOf("lakers", Column{Name: "etype", Type: "string", Values: []string{"shot", "foul"}},
		Column{Name: "player", Type: "string", Values: []string{"Pau Gasol", "Kobe Bryant"}})
	checkCases(t, []parseCase{
		{text: "How many shots did Pau Gasol make?", schema: plain, want: want{Table: "lakers", Measures: []Measure{{Agg: "count"}},
			Filters: []Filter{{Column: "etype", Op: "=", Values: []string{"shot"}}, {Column: "player", Op: "=", Values: []string{"Pau Gasol"}}}}},
	})
}

// TestRowsWithAMeasure: "days with precipitation" are the days that had
// some; "how many days" alone counts them all.
func TestRowsWithAMeasure(t *testing.T) {
	weather := schemaOf("weather", Column{Name: "date", Type: "date", Min: "2024-01-01", Max: "2024-12-31"},
		Column{Name: "tmax_c", Type: "float", Min: "-10", Max: "35"}, Column{Name: "precip_mm", Type: "float", Min: "0", Max: "40"})
	checkCases(t, []parseCase{
		{text: "How many days with precipitation?", schema: weather, want: want{Table: "weather", Measures: []Measure{{Column: "date", Agg: "count_distinct"}},
			Filters: []Filter{{Column: "precip_mm", Op: ">", Values: []string{"0"}}}}},
	})
}

// TestAnAmountAYear: "more than 40,000 a year" over a table with no dates
// is the amount, a yearly one as the column is; over dated rows the
// period is reported, for the rows would have to be added up per year.
func TestAnAmountAYear(t *testing.T) {
	survey := schemaOf("survey", Column{Name: "sex", Type: "string", Values: []string{"M", "F"}},
		Column{Name: "income", Type: "float", Min: "0", Max: "90000"})
	checkCases(t, []parseCase{
		{text: "how many people earn more than 40,000 a year", schema: survey, want: want{Table: "survey", Measures: []Measure{{Agg: "count"}},
			Filters: []Filter{{Column: "income", Op: ">", Values: []string{"40000"}}}}},
	})
	payments := schemaOf("payments", Column{Name: "paid_on", Type: "date", Min: "2020-01-01", Max: "2024-12-31"},
		Column{Name: "income", Type: "float", Min: "0", Max: "90000"})
	reported(t, payments, "how many payments of more than 40,000 a year")
}

// TestAged: "aged 65 and over", "aged 18 or younger" and "aged 30" are
// conditions on the age column.
func TestAged(t *testing.T) {
	people := schemaOf("people", Column{Name: "sex", Type: "string", Values: []string{"M", "F"}},
		Column{Name: "age", Type: "integer", Min: "0", Max: "99"}, Column{Name: "income", Type: "float", Min: "0", Max: "90000"})
	cond := func(op, v string) []Filter { return []Filter{{Column: "age", Op: op, Values: []string{v}}} }
	count := []Measure{{Agg: "count"}}
	checkCases(t, []parseCase{
		{text: "how many people aged 65 and over", schema: people, want: want{Table: "people", Measures: count, Filters: cond(">=", "65")}},
		{text: "how many people aged 18 or younger", schema: people, want: want{Table: "people", Measures: count, Filters: cond("<=", "18")}},
		{text: "average income of people aged 30", schema: people, want: want{Table: "people",
			Measures: []Measure{{Column: "income", Agg: "avg"}}, Filters: cond("=", "30")}},
	})
}

// TestAHighBelowZero: "a high below -20 C" is tmax_c < -20: NOAA's tmax
// is the day's high, the minus belongs to the number, and C is degrees.
func TestAHighBelowZero(t *testing.T) {
	weather := Schema{Tables: []Table{{Name: "weather", Rows: 366, Columns: []Column{
		{Name: "date", Type: "date", Min: "2024-01-01", Max: "2024-12-31"},
		{Name: "tmax_c", Type: "float", Min: "-30", Max: "35"}, {Name: "precip_mm", Type: "float", Min: "0", Max: "40"}}}}}
	checkCases(t, []parseCase{
		{text: "how many days had a high below -20 C", schema: weather, want: want{Table: "weather",
			Measures: []Measure{{Agg: "count"}}, Filters: []Filter{{Column: "tmax_c", Op: "<", Values: []string{"-20"}}}}},
	})
}

// TestHowManyPoints: "how many points" over a column of points is their
// sum; a change asked in points stays a change.
func TestHowManyPoints(t *testing.T) {
	shots := schemaOf("lakers", Column{Name: "team", Type: "string", Values: []string{"LAL", "BOS"}},
		Column{Name: "player", Type: "string", Values: []string{"Kobe", "Pau"}}, Column{Name: "points", Type: "integer", Min: "0", Max: "3"})
	checkCases(t, []parseCase{
		{text: "how many points did Kobe score", schema: shots, want: want{Table: "lakers", Measures: []Measure{{Column: "points", Agg: "sum"}},
			Filters: []Filter{{Column: "player", Op: "=", Values: []string{"Kobe"}}}}},
	})
}

// TestSquareFootage: "square footage" is sqft (and "building sqft"
// bldg_sqft); an average price per square foot is no grouping by each
// area but each home's ratio, averaged; without the average its kind is
// not said, reported.
func TestSquareFootage(t *testing.T) {
	homes := schemaOf("homes", Column{Name: "city", Type: "string", Values: []string{"Davis", "Elk Grove"}},
		Column{Name: "baths", Type: "integer", Min: "1", Max: "5"}, Column{Name: "sqft", Type: "integer", Min: "484", Max: "4878"},
		Column{Name: "price", Type: "integer", Min: "1551", Max: "884790"})
	checkCases(t, []parseCase{
		{text: "average square footage of homes with at least 3 baths", schema: homes, want: want{Table: "homes",
			Measures: []Measure{{Column: "sqft", Agg: "avg"}}, Filters: []Filter{{Column: "baths", Op: ">=", Values: []string{"3"}}}}},
	})
	perFoot := []Measure{{Column: "price", Agg: "avg", Over: "sqft"}}
	checkCases(t, []parseCase{
		{text: "average price per square foot", schema: homes, want: want{Table: "homes", Measures: perFoot}},
		{text: "average price per sqft by city", schema: homes, want: want{Table: "homes", Measures: perFoot, GroupBy: []Group{{"city", ""}}}},
	})
	reported(t, homes, "price per square foot", "total price per sqft by city")
}

// TestAnOrdersValue: the average order value over a unit price is the
// price times the quantity, shared among the orders whatever their lines;
// with a discount beside it, whether it is taken off is asked.
func TestAnOrdersValue(t *testing.T) {
	lines := schemaOf("lines", Column{Name: "order_id", Type: "integer", Min: "1", Max: "900"},
		Column{Name: "region", Type: "string", Values: []string{"N", "S"}},
		Column{Name: "qty", Type: "integer", Min: "1", Max: "9"}, Column{Name: "unit_price", Type: "float", Min: "1", Max: "90"})
	checkCases(t, []parseCase{
		{text: "average order value by region", schema: lines, want: want{Table: "lines",
			Measures: []Measure{{Column: "unit_price", Agg: "sum", Times: "qty", PerEach: "order_id"}}, GroupBy: []Group{{"region", ""}}}},
	})
	discounted := schemaOf("lines", Column{Name: "qty", Type: "integer", Min: "1", Max: "9"},
		Column{Name: "unit_price", Type: "float", Min: "1", Max: "90"}, Column{Name: "discount", Type: "float", Min: "0", Max: "0.2"})
	reported(t, discounted, "avg order value")
}

// TestARateOfAValue: "return rate by category" is the share of the
// returned rows within each category, not the count of returned rows; a
// word that flags nothing two-valued is no rate.
func TestARateOfAValue(t *testing.T) {
	orders := schemaOf("orders", Column{Name: "category", Type: "string", Values: []string{"Furniture", "Technology"}},
		Column{Name: "returned", Type: "string", Values: []string{"Yes", "No"}}, Column{Name: "qty", Type: "integer", Min: "1", Max: "9"},
		Column{Name: "churned", Type: "integer", Min: "0", Max: "1"}, Column{Name: "status", Type: "string", Values: []string{"open", "closed", "held"}})
	for text, want := range map[string][2]string{
		"return rate by category":             {"returned", "Yes"},
		"churn rate by category":              {"churned", "1"},
		"return rate by category for 2+ qty?": {"returned", "Yes"},
	} {
		in, err := Parse(text, orders, now)
		if err != nil || in.RateOf != want[0] || !slices.Contains(in.Analyses, AnalysisShare) || len(in.GroupBy) != 1 ||
			!slices.ContainsFunc(in.Filters, func(f Filter) bool { return f.Column == want[0] && f.Op == "=" && f.Values[0] == want[1] }) {
			t.Errorf("Parse(%q) = %+v, %v; want the share of %s = %s by category", text, in, err, want[0], want[1])
		}
	}
	reported(t, orders, "status rate by category") // three values flag nothing
}

// TestTheMostExpensiveVisit: "most expensive" ranks by cost as
// "costliest" does, and "the costliest visit" is a visit, not a count of
// visits.
func TestTheMostExpensiveVisit(t *testing.T) {
	visits := schemaOf("visits", Column{Name: "visit_id", Type: "integer", Min: "1", Max: "1500"},
		Column{Name: "dept", Type: "string", Values: []string{"ER", "Oncology"}}, Column{Name: "cost_usd", Type: "float", Min: "200", Max: "20000"})
	cost := []Measure{{Column: "cost_usd", Agg: "avg"}}
	checkCases(t, []parseCase{
		{text: "most expensive visit", schema: visits, want: want{Table: "visits", Measures: cost, Top: &TopN{1, "", true}}},
		{text: "the least expensive visit", schema: visits, want: want{Table: "visits", Measures: cost, Top: &TopN{1, "", false}}},
	})
}

// TestTheRowOfAnAdjective: a superlative adjective names its measure
// through the column's abbreviated words ("heaviest" wt_kg, "southernmost"
// lat, "most populous" pop_est), and "which shipment" ranks the rows
// rather than counting them.
func TestTheRowOfAnAdjective(t *testing.T) {
	shp := schemaOf("shp", Column{Name: "shp_id", Type: "string", Values: []string{"S000", "S001", "S002"}},
		Column{Name: "dest", Type: "string", Values: []string{"Lyon", "Oslo"}}, Column{Name: "wt_kg", Type: "float", Min: "1", Max: "490"})
	cities := schemaOf("cities", Column{Name: "city", Type: "string", Values: []string{"Lyon", "Oslo", "Rome"}},
		Column{Name: "ctry", Type: "string", Values: []string{"FR", "NO"}}, Column{Name: "lat", Type: "float", Min: "-40", Max: "60"},
		Column{Name: "pop_est", Type: "integer", Min: "10000", Max: "9000000"})
	wt := []Measure{{Column: "wt_kg", Agg: "avg"}}
	checkCases(t, []parseCase{
		{text: "which shipment was the heaviest", schema: shp, want: want{Table: "shp", Measures: wt, Top: &TopN{1, "", true}}},
		{text: "which shipment had the highest weight", schema: shp, want: want{Table: "shp", Measures: wt, Top: &TopN{1, "", true}}},
		{text: "the heaviest shipment", schema: shp, want: want{Table: "shp", Measures: wt, Top: &TopN{1, "", true}}},
		{text: "What is the southernmost city?", schema: cities, want: want{Table: "cities",
			Measures: []Measure{{Column: "lat", Agg: "min"}}, Top: &TopN{1, "city", false}}},
		{text: "most populous city", schema: cities, want: want{Table: "cities",
			Measures: []Measure{{Column: "pop_est", Agg: "max"}}, Top: &TopN{1, "city", true}}},
	})
}

// TestTheCityOfTheDearestSale: "which city had the most expensive home
// sale" ranks the cities by their dearest sale, not by all their sales.
func TestTheCityOfTheDearestSale(t *testing.T) {
	homes := schemaOf("homes", Column{Name: "city", Type: "string", Values: []string{"Davis", "Elk Grove"}},
		Column{Name: "price", Type: "integer", Min: "1551", Max: "884790"})
	checkCases(t, []parseCase{
		{text: "Which city had the most expensive home sale?", schema: homes, want: want{Table: "homes",
			Measures: []Measure{{Column: "price", Agg: "max"}}, Top: &TopN{1, "city", true}}},
		{text: "Which city had the highest total price?", schema: homes, want: want{Table: "homes",
			Measures: []Measure{{Column: "price", Agg: "sum"}}, Top: &TopN{1, "city", true}}},
	})
}

// TestHowManyTradingDays: "how many trading days" over three stocks a day
// counts the days, not the rows; "trading" only says what days they are.
func TestHowManyTradingDays(t *testing.T) {
	stocks := Schema{Tables: []Table{{Name: "stocks", Rows: 1563, Columns: []Column{
		{Name: "date", Type: "date", Min: "2023-01-02", Max: "2024-12-30"},
		{Name: "symbol", Type: "string", Values: []string{"AAPL", "MSFT", "IBM"}},
		{Name: "close", Type: "float", Min: "40", Max: "160"}}}}}
	checkCases(t, []parseCase{
		{text: "how many trading days in 2023", schema: stocks, want: want{Table: "stocks",
			Measures: []Measure{{Column: "date", Agg: "count_distinct"}}, Time: &TimeRange{Column: "date", Start: "2023-01-01", End: "2024-01-01", Label: "2023"}}},
	})
}

// TestTheHighestPaidManager: "highest paid" ranks by salary as
// "highest-paid" does, and "the highest paid manager" is the manager,
// a row of title Manager ranked by salary.
func TestTheHighestPaidManager(t *testing.T) {
	emp := schemaOf("emp", Column{Name: "title", Type: "string", Values: []string{"Manager", "Analyst"}},
		Column{Name: "salary", Type: "integer", Min: "40000", Max: "200000"})
	checkCases(t, []parseCase{
		{text: "highest paid manager", schema: emp, want: want{Table: "emp", Measures: []Measure{{Column: "salary", Agg: "avg"}},
			Top: &TopN{1, "", true}, Filters: []Filter{{Column: "title", Op: "=", Values: []string{"Manager"}}}}},
	})
}

// TestARunningTotal: "cumulative qty by month" asks for a total that grows
// month by month, not each month's own: reported; "cumulative qty" alone
// is the total.
func TestARunningTotal(t *testing.T) {
	orders := schemaOf("orders", Column{Name: "order_dt", Type: "date", Min: "2022-01-01", Max: "2023-12-28"},
		Column{Name: "qty", Type: "integer", Min: "1", Max: "10"})
	reported(t, orders, "cumulative qty by month in 2023", "running total of qty by month")
	checkCases(t, []parseCase{
		{text: "cumulative qty", schema: orders, want: want{Table: "orders", Measures: []Measure{{Column: "qty", Agg: "sum"}}}},
	})
}

// TestAverageQtyPerDay: "average qty per day" over several orders a day
// may be the average order's qty or the average day's total: reported, as
// "average daily qty" is; "total qty per day" is a table of days.
func TestAverageQtyPerDay(t *testing.T) {
	orders := Schema{Tables: []Table{{Name: "orders", Rows: 3000, Columns: []Column{
		{Name: "order_dt", Type: "date", Min: "2022-01-01", Max: "2023-12-28"},
		{Name: "qty", Type: "integer", Min: "1", Max: "10"}}}}}
	reported(t, orders, "average qty per day")
	checkCases(t, []parseCase{
		{text: "total qty per day", schema: orders, want: want{Table: "orders", Measures: []Measure{{Column: "qty", Agg: "sum"}},
			GroupBy: []Group{{"order_dt", "day"}}}},
	})
}

// TestAValueSaidWithoutItsCode: a value numbered or lettered by its code
// ("5. Low income", "F: FOLFOX") is named by its words, and a currency's
// code by its name.
func TestAValueSaidWithoutItsCode(t *testing.T) {
	nations := schemaOf("nations", Column{Name: "income_grp", Type: "string", Values: []string{"1. High income: OECD", "5. Low income"}},
		Column{Name: "arm", Type: "string", Values: []string{"F: FOLFOX", "I: IROX"}},
		Column{Name: "ccy", Type: "string", Values: []string{"EUR", "USD"}}, Column{Name: "pop", Type: "float", Min: "0.1", Max: "1400"})
	pop := []Measure{{Column: "pop", Agg: "sum"}}
	checkCases(t, []parseCase{
		{text: "total pop of low income countries", schema: nations, want: want{Table: "nations", Measures: pop,
			Filters: []Filter{{Column: "income_grp", Op: "=", Values: []string{"5. Low income"}}}}},
		{text: "total pop on FOLFOX", schema: nations, want: want{Table: "nations", Measures: pop,
			Filters: []Filter{{Column: "arm", Op: "=", Values: []string{"F: FOLFOX"}}}}},
		{text: "total pop in euros", schema: nations, want: want{Table: "nations", Measures: pop,
			Filters: []Filter{{Column: "ccy", Op: "=", Values: []string{"EUR"}}}}},
	})
}

// TestTheWordsOfAMessage: a greeting, a thanks, "could you pull" and
// "for the board deck" ask nothing of the data; a word of the data said
// in them is still read.
func TestTheWordsOfAMessage(t *testing.T) {
	tix := schemaOf("tix", Column{Name: "chan", Type: "string", Values: []string{"email", "chat"}},
		Column{Name: "agent", Type: "string", Values: []string{"ana", "ben"}}, Column{Name: "csat", Type: "integer", Min: "1", Max: "5"})
	csat := []Measure{{Column: "csat", Agg: "avg"}}
	checkCases(t, []parseCase{
		{text: "Hi - could you pull the average csat by channel for the board deck? Thanks", schema: tix,
			want: want{Table: "tix", Measures: csat, GroupBy: []Group{{"chan", ""}}}},
		{text: "Hi Sam, can you grab avg csat by agent for my slides? thx", schema: tix,
			want: want{Table: "tix", Measures: csat, GroupBy: []Group{{"agent", ""}}}},
		{text: "Quick one: average csat for ana", schema: tix,
			want: want{Table: "tix", Measures: csat, Filters: []Filter{{Column: "agent", Op: "=", Values: []string{"ana"}}}}},
	})
	board := schemaOf("votes", Column{Name: "board", Type: "string", Values: []string{"North", "South"}}, Column{Name: "seats", Type: "integer", Min: "1", Max: "9"})
	checkCases(t, []parseCase{
		{text: "total seats for the board North", schema: board, want: want{Table: "votes", Measures: []Measure{{Column: "seats", Agg: "sum"}},
			Filters: []Filter{{Column: "board", Op: "=", Values: []string{"North"}}}}},
	})
}

// TestShorthandAndLetterNames: measures exports name by their letters
// (hgb, csat) are named in full words, and chat shorthand for the rows
// ("pts", "tix") counts them; "pts" is no abbreviation of a ps column.
func TestShorthandAndLetterNames(t *testing.T) {
	trial := schemaOf("trial", Column{Name: "arm", Type: "string", Values: []string{"A", "B"}},
		Column{Name: "ps", Type: "integer", Min: "0", Max: "2"}, Column{Name: "hgb", Type: "float", Min: "9", Max: "16"})
	tix := schemaOf("tix", Column{Name: "chan", Type: "string", Values: []string{"email", "chat"}}, Column{Name: "csat", Type: "integer", Min: "1", Max: "5"})
	byArm := []Group{{"arm", ""}}
	checkCases(t, []parseCase{
		{text: "avg haemoglobin by arm", schema: trial, want: want{Table: "trial", Measures: []Measure{{Column: "hgb", Agg: "avg"}}, GroupBy: byArm}},
		{text: "number of pts by arm", schema: trial, want: want{Table: "trial", Measures: []Measure{{Agg: "count"}}, GroupBy: byArm}},
		{text: "avg satisfaction score by chan", schema: tix, want: want{Table: "tix", Measures: []Measure{{Column: "csat", Agg: "avg"}}, GroupBy: []Group{{"chan", ""}}}},
		{text: "# of tix by chan", schema: tix, want: want{Table: "tix", Measures: []Measure{{Agg: "count"}}, GroupBy: []Group{{"chan", ""}}}},
		{text: "# tix by chan", schema: tix, want: want{Table: "tix", Measures: []Measure{{Agg: "count"}}, GroupBy: []Group{{"chan", ""}}}},
	})
}

// TestAGrowthAsAFactor: "by what factor" asks for the change between two
// periods, as a factor; "how many times more … than" may compare two
// groups as well as two periods, and is reported.
func TestAGrowthAsAFactor(t *testing.T) {
	life := schemaOf("life", Column{Name: "country", Type: "string", Values: []string{"Arland", "Borvia"}},
		Column{Name: "year", Type: "integer", Min: "1990", Max: "2010"}, Column{Name: "pop", Type: "integer", Min: "100", Max: "90000"})
	reported(t, life, "how many times more pop in Arland than Borvia")
	for _, text := range []string{"by what factor did total pop grow from 1995 to 2005"} {
		in, err := Parse(text, life, now)
		if err != nil || !slices.Contains(in.Analyses, AnalysisGrowth) || len(in.Unknown) > 0 {
			t.Errorf("Parse(%q) = %+v, %v; want the growth between the years", text, in, err)
		}
	}
}

// TestARatioOfTotals: "total cost / total weight", "ratio of total cost
// to total weight" and "total cost over total weight" divide the totals;
// a slash that divides by nothing read is reported, not dropped.
func TestARatioOfTotals(t *testing.T) {
	shp := schemaOf("shp", Column{Name: "dest", Type: "string", Values: []string{"Lyon", "Oslo"}},
		Column{Name: "wt_kg", Type: "float", Min: "1", Max: "490"}, Column{Name: "cost_usd", Type: "float", Min: "10", Max: "900"})
	ratio := []Measure{{Column: "cost_usd", Agg: "sum", Per: "wt_kg"}}
	by := []Group{{"dest", ""}}
	checkCases(t, []parseCase{
		{text: "total cost / total weight by dest", schema: shp, want: want{Table: "shp", Measures: ratio, GroupBy: by}},
		{text: "ratio of total cost to total weight by dest", schema: shp, want: want{Table: "shp", Measures: ratio, GroupBy: by}},
		{text: "total cost over total weight by dest", schema: shp, want: want{Table: "shp", Measures: ratio, GroupBy: by}},
	})
	reported(t, shp, "total cost / dest")
}

// TestAVerbBetweenTheRankedAndTheMeasure: "which agent handled the most
// tickets" ranks the agents; "pct of" asks a share as "% of" does.
func TestAVerbBetweenTheRankedAndTheMeasure(t *testing.T) {
	tix := schemaOf("tix", Column{Name: "agent", Type: "string", Values: []string{"ana", "ben"}},
		Column{Name: "chan", Type: "string", Values: []string{"email", "chat"}}, Column{Name: "csat", Type: "integer", Min: "1", Max: "5"})
	checkCases(t, []parseCase{
		{text: "which agent handled the most tickets?", schema: tix, want: want{Table: "tix", Measures: []Measure{{Agg: "count"}},
			Top: &TopN{1, "agent", true}}},
	})
	in, err := Parse("pct of tickets from email", tix, now)
	if err != nil || !slices.Contains(in.Analyses, AnalysisShare) {
		t.Errorf("pct of: %+v, %v; want a share", in, err)
	}
}

// TestAShareOfRowsThatHaveIt: "share of orders with a discount" is the
// share of the rows with a discount; "return rate" over returned is a
// rate of its ones, not a tool word and a tail.
func TestAShareOfRowsThatHaveIt(t *testing.T) {
	ords := schemaOf("ords", Column{Name: "rgn", Type: "string", Values: []string{"NE", "SE"}},
		Column{Name: "disc_pct", Type: "integer", Min: "0", Max: "15"}, Column{Name: "amt_usd", Type: "float", Min: "5", Max: "1800"},
		Column{Name: "returned", Type: "integer", Min: "0", Max: "1"})
	in, err := Parse("share of orders with a discount", ords, now)
	if err != nil || !slices.Contains(in.Analyses, AnalysisShare) || len(in.Filters) != 1 || in.Filters[0].Column != "disc_pct" || in.Filters[0].Op != ">" {
		t.Errorf("share of orders with a discount: %+v, %v; want the share of disc_pct > 0", in, err)
	}
	in, err = Parse("return rate by region", ords, now)
	if err != nil || in.RateOf != "returned" || len(in.GroupBy) != 1 {
		t.Errorf("return rate by region: %+v, %v; want the rate of returned = 1 by rgn", in, err)
	}

}

// TestWordsThatLookIdleButPickRows: a part of the day, a word of a value
// after "for the", a verb that may pick rows, a unit that is also a
// currency's name and "over" between a measure and a score are not read
// away: each is reported (or read as the data's).
func TestWordsThatLookIdleButPickRows(t *testing.T) {
	sup := schemaOf("sup", Column{Name: "team", Type: "string", Values: []string{"Board Relations", "Sales"}},
		Column{Name: "chan", Type: "string", Values: []string{"email", "chat"}}, Column{Name: "csat", Type: "integer", Min: "1", Max: "5"},
		Column{Name: "res_hrs", Type: "float", Min: "0.5", Max: "72"}, Column{Name: "ccy", Type: "string", Values: []string{"GBP", "USD"}},
		Column{Name: "wt", Type: "float", Min: "1", Max: "90"})
	reported(t, sup, "avg csat in the evening", "avg csat by chan for the board", "which chan escalated the most tickets",
		"avg res_hrs over csat")
	checkCases(t, []parseCase{
		{text: "total wt in pounds by chan", schema: sup, want: want{Table: "sup", Measures: []Measure{{Column: "wt", Agg: "sum"}},
			GroupBy: []Group{{"chan", ""}}}},
	})
}
