package intent

import "testing"

// TestPerAThingItsColumnCounts: "revenue per order" divides by the total
// of a column that counts orders, when there is one; with none it is an
// average over rows, also of a measure named by its column ("sales per
// order" is not the total of sales).
func TestPerAThingItsColumnCounts(t *testing.T) {
	daily := schemaOf("daily", Column{Name: "date", Type: "date", Min: "2020-01-01", Max: "2021-12-31"},
		Column{Name: "store", Type: "string", Values: []string{"Downtown", "Mall"}},
		Column{Name: "revenue", Type: "float"}, Column{Name: "orders", Type: "integer"}, Column{Name: "calls", Type: "integer"})
	lines := schemaOf("lines", Column{Name: "region", Type: "string", Values: []string{"East", "West"}},
		Column{Name: "sales", Type: "float"}, Column{Name: "units", Type: "integer"})
	checkCases(t, []parseCase{
		{text: "revenue per order by store", schema: daily, want: want{Table: "daily",
			Measures: []Measure{{Column: "revenue", Agg: "sum", Per: "orders"}}, GroupBy: []Group{{"store", ""}}}},
		{text: "revenue per call", schema: daily, want: want{Table: "daily", Measures: []Measure{{Column: "revenue", Agg: "sum", Per: "calls"}}}},
		{text: "sales per order", schema: lines, want: want{Table: "lines", Measures: []Measure{{Column: "sales", Agg: "avg"}}}},
		{text: "units per order by region", schema: lines, want: want{Table: "lines",
			Measures: []Measure{{Column: "units", Agg: "avg"}}, GroupBy: []Group{{"region", ""}}}},
	})
}

// TestARatioOfTotalsOnly: a ratio of totals answers neither an extreme
// or a median of each row's ratio, which is each row's ratio, nor a ratio
// of a price or a rate, which is already per something and does not add
// up.
func TestARatioOfTotalsOnly(t *testing.T) {
	countries := schemaOf("c", Column{Name: "country", Type: "string", Values: []string{"China", "India"}},
		Column{Name: "region", Type: "string", Values: []string{"Asia", "Europe"}},
		Column{Name: "gdp", Type: "float"}, Column{Name: "pop", Type: "integer"})
	checkCases(t, []parseCase{
		{text: "maximum gdp per capita by region", schema: countries, want: want{Table: "c",
			Measures: []Measure{{Column: "gdp", Agg: "max", Over: "pop"}}, GroupBy: []Group{{"region", ""}}}},
		{text: "median gdp per capita by region", schema: countries, want: want{Table: "c",
			Measures: []Measure{{Column: "gdp", Agg: "median", Over: "pop"}}, GroupBy: []Group{{"region", ""}}}},
	})
	shops := schemaOf("shops", Column{Name: "chain", Type: "string", Values: []string{"Subway", "Arby's"}},
		Column{Name: "price", Type: "float"}, Column{Name: "units", Type: "integer"}, Column{Name: "growth_rate", Type: "float"})
	reported(t, shops, "average price per unit", "price per unit by chain", "growth rate per unit")
	checkCases(t, []parseCase{
		{text: "which country has the highest gdp per capita", schema: countries, want: want{Table: "c",
			Measures: []Measure{{Column: "gdp", Agg: "sum", Per: "pop"}}, Top: &TopN{1, "country", true}}},
	})
}
