package intent

import (
	"testing"
	"time"
)

// TestUnitOfAMeasure: a unit said after a measure ("city mpg", "price in
// dollars") is noted as the user's and adds no measure; one that another
// unit in the column's name contradicts ("in kg" of weight_lbs) is
// reported, for nothing is converted.
func TestUnitOfAMeasure(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	cars := schemaOf("cars", Column{Name: "mfr", Type: "string", Values: []string{"audi", "ford"}}, f("cty"), f("price"), f("weight_lbs"))
	checkCases(t, []parseCase{
		{text: "average city mpg by manufacturer", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "cty", Agg: "avg"}}, GroupBy: []Group{{"mfr", ""}},
			Understood: []string{"mpg -> the unit, as said (the numbers are the data's, not converted)"}}},
		{text: "average price in dollars per manufacturer", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "price", Agg: "avg"}}, GroupBy: []Group{{"mfr", ""}}}},
		{text: "average weight in pounds", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "weight_lbs", Agg: "avg"}}, Understood: []string{"in pounds -> the unit of weight_lbs"}}},
		{text: "average weight (lbs) by manufacturer", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "weight_lbs", Agg: "avg"}}, GroupBy: []Group{{"mfr", ""}}}},
	})
	if in, _ := Parse("average weight (kg) by manufacturer", cars, time.Now()); in == nil || len(in.Unknown) != 1 {
		t.Errorf("average weight (kg) of weight_lbs: unknown %+v, want kg reported", in)
	}
	in, _ := Parse("average weight in kg by manufacturer", cars, time.Now())
	if in == nil || len(in.Unknown) != 1 || in.Unknown[0].Word != "in kg" {
		t.Fatalf("average weight in kg of weight_lbs: unknown %+v, want \"in kg\" reported", in)
	}
}
