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
