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
