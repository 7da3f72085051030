package intent

import "testing"

// TestWordsThatChangeNothing: how a correlation is asked for, "which one",
// the rest of a column's name after its first word, where the rows are
// kept ("covered in the survey"), the table's subject said as a verb's
// noun ("shipping cost") and shorthand for accounts are understood, not
// reported.
func TestWordsThatChangeNothing(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	parcels := schemaOf("shipments", s("shp_id", "S1", "S2"), f("wt_kg"), f("cost_eur"), f("gdp_md_est"), s("carrier", "DHL", "UPS"),
		s("seg", "Enterprise", "SMB"), Column{Name: "ship_dt", Type: "date", Min: "2022-01-01", Max: "2022-12-31"})
	checkCases(t, []parseCase{
		{text: "How strongly does parcel weight correlate with shipping cost? give me the coefficient", schema: parcels,
			want: want{Table: "shipments", Measures: []Measure{{Column: "wt_kg", Agg: "avg"}, {Column: "cost_eur", Agg: "sum"}},
				Analyses: []string{AnalysisCorrelation}}},
		{text: "heaviest shipment - which one?", schema: parcels, want: want{Table: "shipments",
			Measures: []Measure{{Column: "wt_kg", Agg: "avg"}}, Top: &TopN{N: 1, Desc: true}}},
		{text: "median gdp est by carrier", schema: parcels, want: want{Table: "shipments",
			Measures: []Measure{{Column: "gdp_md_est", Agg: "median"}}, GroupBy: []Group{{"carrier", ""}}}},
		{text: "how many different carriers are covered in the survey", schema: parcels, want: want{Table: "shipments",
			Measures: []Measure{{Column: "carrier", Agg: "count_distinct"}}}},
		{text: "# of shipments from Enterprise accts", schema: parcels, want: want{Table: "shipments",
			Measures: []Measure{countRows}, Filters: []Filter{eq("seg", "Enterprise")}}},
	})
}
