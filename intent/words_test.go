package intent

import "testing"

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
	deaths := []Measure{{"Deaths", "sum"}}
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
	rate := []Measure{{"rate", "avg"}}
	y2010 := []Filter{eq("year", "2010")}
	checkCases(t, []parseCase{
		{text: "average rate by industry", schema: industries, want: want{Table: "unemployment", Measures: rate,
			GroupBy: []Group{{"series", ""}}, Understood: []string{"industry -> series (the only category column of unemployment)"}}},
		{text: "top 2 industries with the lowest rate in 2010", schema: industries, want: want{Table: "unemployment", Measures: rate,
			Filters: y2010, Top: &TopN{2, "series", false}}},
		{text: "which industry had the highest rate in 2010", schema: industries, want: want{Table: "unemployment", Measures: rate,
			Filters: y2010, Top: &TopN{1, "series", true}}},
		{text: "deaths by type of disaster", schema: disasters, want: want{Table: "disasters", Measures: []Measure{{"Deaths", "sum"}},
			GroupBy: []Group{{"Entity", ""}}}},
	})
}

func TestParseStateCodesAreNotWords(t *testing.T) {
	// "in", "or", "me" are the codes of Indiana, Oregon and Maine; only
	// written in capitals are they the states.
	checkCases(t, []parseCase{
		{text: "What did strikes in Texas cost in total?", schema: strikes, want: want{Table: "birdstrikes",
			Measures: []Measure{{"Cost Total $", "sum"}}, Filters: []Filter{eq("Origin State", "Texas")}}},
		{text: "total cost of strikes in IN", schema: strikes, want: want{Table: "birdstrikes",
			Measures: []Measure{{"Cost Total $", "sum"}}, Filters: []Filter{eq("Origin State", "Indiana")}}},
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
			Measures:   []Measure{{"Worldwide Gross", "sum"}},
			Time:       &TimeRange{Column: "Release Date", Start: "2005-01-01", End: "2006-01-01", Label: "2005"},
			Understood: []string{"released -> the period's column Release Date"}}},
	})
}
