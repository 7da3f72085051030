package intent

import "testing"

// TestWordsForTheRows: "respondents" in a survey names its rows, as
// averages, groups and counts read them; counting them when a name column
// repeats (a player's seasons) is reported, not a count of rows.
func TestWordsForTheRows(t *testing.T) {
	gss := Schema{Tables: []Table{{Name: "gss", Rows: 21483, Columns: []Column{
		{Name: "year", Type: "integer", Min: "2000", Max: "2014"},
		{Name: "marital", Type: "string", Values: []string{"Married", "Divorced", "Never married"}},
		{Name: "age", Type: "integer", Min: "18", Max: "89"},
		{Name: "relig", Type: "string", Values: []string{"Protestant", "Catholic", "None"}}}}}}
	checkCases(t, []parseCase{
		{text: "How many respondents were surveyed in 2014?", schema: gss, want: want{Table: "gss", Measures: []Measure{{Agg: "count"}},
			Filters: []Filter{{Column: "year", Op: "=", Values: []string{"2014"}}}}},
		{text: "Average age of respondents by marital status", schema: gss, want: want{Table: "gss",
			Measures: []Measure{{Column: "age", Agg: "avg"}}, GroupBy: []Group{{"marital", ""}}}},
		{text: "Which religion has the most respondents?", schema: gss, want: want{Table: "gss",
			Measures: []Measure{{Agg: "count"}}, Top: &TopN{1, "relig", true}}},
	})
	seasons := Schema{Tables: []Table{{Name: "sluggers", Rows: 300, Columns: []Column{
		{Name: "Player", Type: "string", Values: []string{"Ruth", "Mays", "Aaron"}},
		{Name: "Year", Type: "integer", Min: "1914", Max: "1976"}, {Name: "HR", Type: "integer", Min: "0", Max: "61"}}}}}
	reported(t, seasons, "how many athletes hit more than 40 HR")
}

// TestWordsForOtherRows: customers counted over a table of orders are not
// its rows, even when each row is one order.
func TestWordsForOtherRows(t *testing.T) {
	orders := Schema{Tables: []Table{{Name: "orders", Rows: 3, Columns: []Column{
		{Name: "order_id", Type: "integer", Min: "1", Max: "3"},
		{Name: "amount", Type: "float", Min: "5", Max: "90"}}}}}
	reported(t, orders, "how many customers spent more than 50")
}

// TestWhichOfTheRows: "which city" over a table of one row per city, its
// name in a column called name, ranks the rows; over dated rows it is
// reported.
func TestWhichOfTheRows(t *testing.T) {
	cities := Schema{Tables: []Table{{Name: "urban", Rows: 3, Columns: []Column{
		{Name: "name", Type: "string", Values: []string{"Tokyo", "Delhi", "Osaka"}},
		{Name: "country", Type: "string", Values: []string{"Japan", "India"}},
		{Name: "pop_2020", Type: "float", Min: "19", Max: "37"}}}}}
	checkCases(t, []parseCase{
		{text: "Which city has the largest population?", schema: cities, want: want{Table: "urban",
			Measures: []Measure{{Column: "pop_2020", Agg: "sum"}}, Top: &TopN{1, "", true}}},
	})
	dated := Schema{Tables: []Table{{Name: "readings", Rows: 3, Columns: []Column{
		{Name: "date", Type: "date", Min: "2024-01-01", Max: "2024-01-03"},
		{Name: "name", Type: "string", Values: []string{"Tokyo", "Delhi", "Osaka"}},
		{Name: "pm25", Type: "float", Min: "19", Max: "37"}}}}}
	reported(t, dated, "Which city has the highest pm25?")
}
