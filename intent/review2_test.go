package intent

import "testing"

var twinsFootball = Schema{Tables: []Table{{Name: "football", Rows: 6508, Columns: []Column{
	{Name: "date", Type: "date", Min: "2013-07-20", Max: "2017-05-28"},
	{Name: "division", Type: "string", Values: []string{"English Premier League", "Serie A"}},
	{Name: "home_team", Type: "string", Values: []string{"Arsenal", "Roma"}},
	{Name: "away_team", Type: "string", Values: []string{"Arsenal", "Roma"}},
	{Name: "home_score", Type: "integer"},
	{Name: "away_score", Type: "integer"},
}}}}

// TestTheMostOfACountSaidBeforeItsRole: "the most goals away" is a total
// of goals as much as "the most away goals", not an average.
func TestTheMostOfACountSaidBeforeItsRole(t *testing.T) {
	checkCases(t, []parseCase{
		{text: "Which 5 teams had the most goals away?", schema: twinsFootball, want: want{Table: "football",
			Measures: []Measure{{Column: "away_score", Agg: "sum"}}, Top: &TopN{5, "away_team", true}}},
	})
}

// TestByANumberBesideAnotherMeasure: a number after "by" with nothing
// ranked by it, beside another measure, is reported: "number of cities by
// population" is not the count and the total population side by side.
func TestByANumberBesideAnotherMeasure(t *testing.T) {
	cities := schemaOf("cities", Column{Name: "city", Type: "string", Values: []string{"Paris", "Lyon"}},
		Column{Name: "population", Type: "integer"}, Column{Name: "area", Type: "float"}, Column{Name: "revenue", Type: "float"})
	reported(t, cities, "number of cities by population", "average area by population", "total area by revenue")
	checkCases(t, []parseCase{
		{text: "cities by population", schema: cities, want: want{Table: "cities",
			Measures: []Measure{{Column: "population", Agg: "sum"}}, GroupBy: []Group{{"city", ""}}}},
		{text: "top 5 cities by population", schema: cities, want: want{Table: "cities",
			Measures: []Measure{{Column: "population", Agg: "sum"}}, Top: &TopN{5, "city", true}}},
	})
}

// TestCountOfAYesNoNoun: "how many smokers" counts the rows where smoker
// is yes, not the two values of smoker.
func TestCountOfAYesNoNoun(t *testing.T) {
	insurance := schemaOf("insurance", Column{Name: "region", Type: "string", Values: []string{"northeast", "southwest"}},
		Column{Name: "smoker", Type: "string", Values: []string{"no", "yes"}}, Column{Name: "charges", Type: "float"})
	checkCases(t, []parseCase{
		{text: "how many smokers are there", schema: insurance, want: want{Table: "insurance",
			Measures: []Measure{{Agg: "count"}}, Filters: []Filter{eq("smoker", "yes")}}},
		{text: "number of smokers by region", schema: insurance, want: want{Table: "insurance",
			Measures: []Measure{{Agg: "count"}}, Filters: []Filter{eq("smoker", "yes")}, GroupBy: []Group{{"region", ""}}}},
	})
}
