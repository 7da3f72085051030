package intent

import (
	"slices"
	"testing"
)

func TestCompoundWords(t *testing.T) {
	for name, want := range map[string][]string{
		"TOTEMP":        {"tot", "emp"},
		"realgdp":       {"real", "gdp"},
		"GNPDEFL":       {"gnp", "defl"},
		"tbilrate":      {"tbil", "rate"},
		"population":    {"population"},
		"birdstrikes":   {"birdstrikes"},
		"Horsepower":    {"horsepower"},
		"weather":       {"weather"},
		"yearly_income": {"yearly", "income"},
	} {
		if got := nameWords(name); !slices.Equal(got, want) {
			t.Errorf("nameWords(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestParseRunTogetherColumnNames(t *testing.T) {
	macro := Schema{Tables: []Table{{Name: "macro", Rows: 203, Columns: []Column{
		{Name: "year", Type: "integer"}, {Name: "quarter", Type: "integer"},
		{Name: "realgdp", Type: "float"}, {Name: "realinv", Type: "float"}, {Name: "tbilrate", Type: "float"},
		{Name: "TOTEMP", Type: "integer"},
	}}}}
	checkCases(t, []parseCase{
		{text: "average real GDP by year", schema: macro, want: want{Table: "macro",
			Measures: []Measure{{Column: "realgdp", Agg: "avg"}}, GroupBy: []Group{{"year", ""}}}},
		{text: "highest treasury bill rate in 1980", schema: macro, want: want{Table: "macro",
			Measures: []Measure{{Column: "tbilrate", Agg: "max"}}, Filters: []Filter{eq("year", "1980")}}},
		{text: "total employment in 1955", schema: macro, want: want{Table: "macro",
			Measures: []Measure{{Column: "TOTEMP", Agg: "sum"}}, Filters: []Filter{eq("year", "1955")}}},
	})
}

// TestTwoWordsOfARun: two words, in either order, that spell a run of
// letters in two pieces name it: "low cloud cover" is cloudlow, "herd
// size" herdsz.
func TestTwoWordsOfARun(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	atmos := schemaOf("atmos", Column{Name: "date", Type: "date", Min: "1995-01-01", Max: "2000-12-01"},
		f("cloudlow"), f("cloudmid"), f("cloudhigh"), f("herdsz"))
	jul := &TimeRange{Column: "date", Start: "1998-07-01", End: "1998-08-01", Label: "July 1998"}
	checkCases(t, []parseCase{
		{text: "What was the average low cloud cover in July 1998?", schema: atmos, want: want{Table: "atmos", Measures: []Measure{{Column: "cloudlow", Agg: "avg"}}, Time: jul}},
		{text: "average herd size in July 1998", schema: atmos, want: want{Table: "atmos", Measures: []Measure{{Column: "herdsz", Agg: "avg"}}, Time: jul}},
	})
	reported(t, atmos, "average cloud size in July 1998")
}

// TestANumberOfThingsNamedN: n_isotopes is the number of isotopes: named
// by the rest of its name, added up when counted, compared in "5+ stable
// isotopes".
func TestANumberOfThingsNamedN(t *testing.T) {
	el := Schema{Tables: []Table{{Name: "elements", Rows: 118, Columns: []Column{{Name: "symbol", Type: "string"},
		{Name: "n_isotopes", Type: "integer", Min: "1", Max: "40"}, {Name: "n_stable_isotopes", Type: "integer", Min: "0", Max: "10"},
		{Name: "mass", Type: "float"}}}}}
	checkCases(t, []parseCase{
		{text: "avg mass of elements w/ 5+ stable isotopes", schema: el, want: want{Table: "elements",
			Measures: []Measure{{Column: "mass", Agg: "avg"}}, Filters: []Filter{{"n_stable_isotopes", ">=", []string{"5"}}}}},
		{text: "What's the total number of stable isotopes across all elements?", schema: el, want: want{Table: "elements",
			Measures: []Measure{{Column: "n_stable_isotopes", Agg: "sum"}}}},
	})
}
