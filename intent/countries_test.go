package intent

import "testing"

// TestCountriesByCode: a column of ISO codes is named by the countries'
// English names and demonyms; two-letter codes count as countries only
// in a column whose name says so, so that "Canada" is no state CA.
func TestCountriesByCode(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	guests := schemaOf("guests", s("origin", "BRA", "PRT", "GBR", "DEU", "FRA"), f("spend"))
	firms := schemaOf("firms", s("hq_country", "BR", "PT", "DE"), f("revenue"))
	states := schemaOf("sales", s("state", "CA", "NY", "TX", "WA"), f("amount"))
	checkCases(t, []parseCase{
		{text: "average spend of guests from Brazil", schema: guests, want: want{Table: "guests",
			Measures: []Measure{{Column: "spend", Agg: "avg"}}, Filters: []Filter{eq("origin", "BRA")}}},
		{text: "total spend, UK vs Germany", schema: guests, want: want{Table: "guests",
			Measures: []Measure{{Column: "spend", Agg: "sum"}}, Filters: []Filter{{"origin", "in", []string{"GBR", "DEU"}}},
			GroupBy: []Group{{"origin", ""}}}},
		{text: "total revenue of Portuguese firms", schema: firms, want: want{Table: "firms",
			Measures: []Measure{{Column: "revenue", Agg: "sum"}}, Filters: []Filter{eq("hq_country", "PT")}}},
	})
	reported(t, states, "total amount in Canada")
}

// TestCountryAliasesInCapitals: "us" in "show us" is no country; "US" is.
func TestCountryAliasesInCapitals(t *testing.T) {
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	guests := schemaOf("guests", s("origin", "BRA", "PRT", "GBR", "DEU", "FRA", "USA"), s("hotel", "City", "Resort"),
		Column{Name: "spend", Type: "float"})
	checkCases(t, []parseCase{
		{text: "show us total spend by hotel", schema: guests, want: want{Table: "guests",
			Measures: []Measure{{Column: "spend", Agg: "sum"}}, GroupBy: []Group{{"hotel", ""}}}},
		{text: "total spend from the US", schema: guests, want: want{Table: "guests",
			Measures: []Measure{{Column: "spend", Agg: "sum"}}, Filters: []Filter{eq("origin", "USA")}}},
	})
}

// TestCountryNameOverItsCode: a country said both by a column of names
// and one of codes is filtered on the names.
func TestCountryNameOverItsCode(t *testing.T) {
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	rates := schemaOf("rates", s("country", "Switzerland", "Japan", "Brazil"), s("isocode", "CHE", "JPN", "BRA"),
		Column{Name: "xr", Type: "float"})
	checkCases(t, []parseCase{
		{text: "average Swiss xr", schema: rates, want: want{Table: "rates",
			Measures: []Measure{{Column: "xr", Agg: "avg"}}, Filters: []Filter{eq("country", "Switzerland")}}},
	})
}
