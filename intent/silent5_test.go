package intent

import "testing"

// webSchema is a web-analytics table of counts per day and channel.
func webSchema() Schema {
	return schemaOf("web", Column{Name: "date", Type: "date", Min: "2023-11-01", Max: "2024-02-28"},
		Column{Name: "channel", Type: "string", Values: []string{"Email", "Social", "Direct"}},
		Column{Name: "sessions", Type: "integer"}, Column{Name: "bounces", Type: "integer"},
		Column{Name: "conversions", Type: "integer"}, Column{Name: "alarm", Type: "integer"})
}

// TestARateOfACountIsNotTheCount: "bounce rate" over a column of bounces
// is bounces over something, not the average number of bounces: over the
// table's one column of what they are out of (sessions), else reported.
func TestARateOfACountIsNotTheCount(t *testing.T) {
	rate := []Measure{{Column: "bounces", Agg: "sum", Per: "sessions"}}
	checkCases(t, []parseCase{
		{text: "bounce rate by channel", schema: webSchema(), want: want{Table: "web", Measures: rate, GroupBy: []Group{{"channel", ""}}}},
		{text: "bounces rate in December", schema: webSchema(), want: want{Table: "web", Measures: rate,
			Time: &TimeRange{Column: "date", Start: "2023-12-01", End: "2024-01-01", Label: "December 2023"}}},
	})
	noBase := schemaOf("web", Column{Name: "channel", Type: "string", Values: []string{"Email"}}, Column{Name: "bounces", Type: "integer"})
	reported(t, noBase, "bounce rate by channel", "bounce rate")
}

// TestHowManyOfASingularCountColumn: "how many alarms" over an integer
// column named alarm adds it up; the number of rows is not the number of
// alarms.
func TestHowManyOfASingularCountColumn(t *testing.T) {
	sum := []Measure{{Column: "alarm", Agg: "sum"}}
	checkCases(t, []parseCase{
		{text: "how many alarms per day", schema: webSchema(), want: want{Table: "web", Measures: sum, GroupBy: []Group{{"date", "day"}}}},
		{text: "number of alarms by channel", schema: webSchema(), want: want{Table: "web", Measures: sum, GroupBy: []Group{{"channel", ""}}}},
	})
}

// TestTheMostOfAPluralCountColumn: "the most conversions" over an
// integer conversions column ranks by their total, though a conversion
// alone names a rate.
func TestTheMostOfAPluralCountColumn(t *testing.T) {
	checkCases(t, []parseCase{
		{text: "which channel had the most conversions", schema: webSchema(), want: want{Table: "web",
			Measures: []Measure{{Column: "conversions", Agg: "sum"}}, Top: &TopN{1, "channel", true}}},
	})
}

// TestTopRowsByAnIntegerColumn: "top 5 cars by horsepower" ranks the
// cars by their horsepower; it does not count cars per horsepower value.
func TestTopRowsByAnIntegerColumn(t *testing.T) {
	cars := schemaOf("cars", Column{Name: "Name", Type: "string", Values: []string{"ford pinto", "audi 100"}},
		Column{Name: "Horsepower", Type: "integer"}, Column{Name: "Cylinders", Type: "integer"})
	checkCases(t, []parseCase{
		{text: "top 5 cars by horsepower", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "Horsepower", Agg: "avg"}}, Top: &TopN{5, "", true}}},
		{text: "bottom 3 cars by cylinders", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "Cylinders", Agg: "avg"}}, Top: &TopN{3, "", false}}},
	})
}

// TestNumberOfTheTablesRows: "number of cars with more than 6 cylinders"
// counts the cars; the cylinders are the condition, not a measure.
func TestNumberOfTheTablesRows(t *testing.T) {
	cars := schemaOf("cars", Column{Name: "Name", Type: "string", Values: []string{"ford pinto"}},
		Column{Name: "Cylinders", Type: "integer"}, Column{Name: "Origin", Type: "string", Values: []string{"USA", "Japan"}})
	six := []Filter{{Column: "Cylinders", Op: ">", Values: []string{"6"}}}
	checkCases(t, []parseCase{
		{text: "number of cars with more than 6 cylinders", schema: cars, want: want{Table: "cars", Measures: []Measure{{Agg: "count"}}, Filters: six}},
		{text: "number of cars per origin with more than 6 cylinders", schema: cars, want: want{Table: "cars", Measures: []Measure{{Agg: "count"}},
			Filters: six, GroupBy: []Group{{"Origin", ""}}}},
	})
}
