package intent

import "testing"

// TestAValueOfTwoColumnsIsNotTheGroupingsOwn: "IT" is both a department
// and a country code. Grouped by country, it is the department (a filter
// on the grouping would leave one group); with nothing to choose by and
// as many values in each, it is reported, not guessed.
func TestAValueOfTwoColumnsIsNotTheGroupingsOwn(t *testing.T) {
	staff := schemaOf("staff", Column{Name: "dept", Type: "string", Values: []string{"IT", "Sales", "HR"}},
		Column{Name: "country", Type: "string", Values: []string{"US", "IT", "DE"}}, Column{Name: "salary", Type: "integer"})
	checkCases(t, []parseCase{
		{text: "average salary in IT by country", schema: staff, want: want{Table: "staff",
			Measures: []Measure{{Column: "salary", Agg: "avg"}}, Filters: []Filter{{Column: "dept", Op: "=", Values: []string{"IT"}}},
			GroupBy: []Group{{"country", ""}}}},
	})
	reported(t, staff, "average salary in IT")
}

// TestACountColumnIsSummed: over a table with a column of calls per agent
// and day, "how many calls" and "calls per agent" add the column up; the
// number of rows is not the number of calls.
func TestACountColumnIsSummed(t *testing.T) {
	daily := schemaOf("daily", Column{Name: "day", Type: "date", Min: "2024-03-01", Max: "2024-03-10"},
		Column{Name: "agent", Type: "string", Values: []string{"Ann", "Bob"}}, Column{Name: "calls", Type: "integer"})
	sum := []Measure{{Column: "calls", Agg: "sum"}}
	checkCases(t, []parseCase{
		{text: "how many calls per agent", schema: daily, want: want{Table: "daily", Measures: sum, GroupBy: []Group{{"agent", ""}}}},
		{text: "calls per agent", schema: daily, want: want{Table: "daily", Measures: sum, GroupBy: []Group{{"agent", ""}}}},
		{text: "number of calls Ann took", schema: daily, want: want{Table: "daily", Measures: sum,
			Filters: []Filter{{Column: "agent", Op: "=", Values: []string{"Ann"}}}}},
	})
}

// TestARoleWordIsNotAMeasure: "home games of Arsenal" counts Arsenal's
// games at home; "home" says the team's role, it is not home_score. "The
// best home record" has no measure of a record and is reported.
func TestARoleWordIsNotAMeasure(t *testing.T) {
	teams := []string{"Arsenal", "Leeds"}
	matches := schemaOf("matches", Column{Name: "home_team", Type: "string", Values: teams},
		Column{Name: "away_team", Type: "string", Values: teams},
		Column{Name: "home_score", Type: "integer"}, Column{Name: "away_score", Type: "integer"})
	checkCases(t, []parseCase{
		{text: "home games of Arsenal", schema: matches, want: want{Table: "matches", Measures: []Measure{{Agg: "count"}},
			Filters: []Filter{{Column: "home_team", Op: "=", Values: []string{"Arsenal"}}}}},
		{text: "number of away games for Leeds", schema: matches, want: want{Table: "matches", Measures: []Measure{{Agg: "count"}},
			Filters: []Filter{{Column: "away_team", Op: "=", Values: []string{"Leeds"}}}}},
	})
	reported(t, matches, "which team has the best home record")
}

// TestSortedByAnotherMeasure: "average profit by store sorted by sales"
// ranks every store by its sales, which come first, beside the profit
// asked for; in the order said when one is. With no grouping to order it
// is reported.
func TestSortedByAnotherMeasure(t *testing.T) {
	stores := schemaOf("stores", Column{Name: "store", Type: "string", Values: []string{"A", "B", "C"}},
		Column{Name: "sales", Type: "integer"}, Column{Name: "profit", Type: "integer"})
	ms := []Measure{{Column: "sales", Agg: "sum"}, {Column: "profit", Agg: "avg"}}
	checkCases(t, []parseCase{
		{text: "average profit by store sorted by sales", schema: stores, want: want{Table: "stores", Measures: ms,
			GroupBy: []Group{{"store", ""}}, Top: &TopN{0, "store", true}}},
		{text: "average profit by store, sorted by sales ascending", schema: stores, want: want{Table: "stores", Measures: ms,
			GroupBy: []Group{{"store", ""}}, Top: &TopN{0, "store", false}}},
	})
	reported(t, stores, "average profit sorted by sales")
}
