package intent

import (
	"slices"
	"testing"
)

// flightsByState has the state of both ends of each flight, with the same
// values: which one a request means must come from its words.
var flightsByState = Schema{Tables: []Table{{Name: "flights", Rows: 5000, Columns: []Column{
	{Name: "delay", Type: "integer"},
	{Name: "origin_state", Type: "string", Values: []string{"Texas", "California", "Indiana", "Oregon"}},
	{Name: "destination_state", Type: "string", Values: []string{"Texas", "California", "Indiana", "Oregon"}},
}}}}

func TestParseRoleFromAndTo(t *testing.T) {
	s := flightsWithAirports
	delay := []Measure{{Column: "delay", Agg: "avg"}}
	checkCases(t, []parseCase{
		// "from California" is the origin even after "arriving".
		{text: "average delay of flights arriving in Texas from California", schema: flightsByState, want: want{Table: "flights",
			Measures: delay, Filters: []Filter{eq("destination_state", "Texas"), eq("origin_state", "California")}}},
		{text: "average delay of flights arriving in Texas from California", schema: s, want: want{Table: "flights",
			Measures: delay, Filters: []Filter{eq("destination_state", "TX"), eq("origin_state", "CA")}}},
		{text: "average delay of arrivals from Texas", schema: s, want: want{Table: "flights",
			Measures: delay, Filters: []Filter{eq("origin_state", "TX")}}},
		{text: "how many flights arrived from airports in Texas", schema: s, want: want{Table: "flights",
			Measures: []Measure{{Agg: "count"}}, Filters: []Filter{eq("origin_state", "TX")}}},
		{text: "average delay for flights departing to California", schema: s, want: want{Table: "flights",
			Measures: delay, Filters: []Filter{eq("destination_state", "CA")}}},
		{text: "average delay of flights from Texas to California", schema: s, want: want{Table: "flights",
			Measures: delay, Filters: []Filter{eq("origin_state", "TX"), eq("destination_state", "CA")}}},
	})
}

func TestParseRoleUnsaidIsReported(t *testing.T) {
	// "IN" is Indiana, of either end: not applied, so it must be reported,
	// even though "in" is also a stop word.
	for _, text := range []string{"average delay for flights in IN", "average delay of flights to OR"} {
		in, err := Parse(text, flightsByState, now)
		if err != nil {
			continue
		}
		applied := slices.ContainsFunc(in.Filters, func(f Filter) bool { return true })
		if !applied && len(in.Unknown) == 0 {
			t.Errorf("Parse(%q): no filter and nothing Unknown (%q); the state was dropped silently", text, in.Understood)
		}
	}
}

func TestParseAverageDailyOnCoarserRows(t *testing.T) {
	// Weekly rows: fewer rows than days, but each row is a week's sales;
	// their average is not the average day's sales.
	weekly := Schema{Tables: []Table{{Name: "walmart", Rows: 143, Columns: []Column{
		{Name: "Date", Type: "date", Min: "2010-02-05", Max: "2012-10-26"},
		{Name: "Weekly_Sales", Type: "float"},
	}}}}
	in, err := Parse("average daily sales", weekly, now)
	if err == nil && !slices.ContainsFunc(in.Unknown, func(u Unknown) bool { return u.Word == "average daily" }) {
		t.Errorf("Parse: measures %v, understood %q; want \"average daily\" reported on weekly rows", in.Measures, in.Understood)
	}
}

func TestParsePeriodRankingNotByTheMeasure(t *testing.T) {
	// The top periods are ranked by the measure; a ranking by growth, or
	// within each value of another grouping, is not what is computed.
	for _, text := range []string{"which 2 years had the highest sales growth", "which 3 months had the highest sales for each product"} {
		in, err := Parse(text, salesSchema, now)
		if err == nil && len(in.Unknown) == 0 {
			t.Errorf("Parse(%q) = top %+v, groups %v, analyses %v; want it reported", text, in.Top, in.GroupBy, in.Analyses)
		}
	}
}
