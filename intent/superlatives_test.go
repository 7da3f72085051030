package intent

import "testing"

// TestSuperlativeOfANamedMeasure: a superlative ranks by the measure the
// request names when that measure is what it ranks by ("coldest" of a
// surftemp, "southernmost" of a latitude); a month numbered 1–12 is the
// period ranked, not a measure, when the years are pooled ("on average",
// "across all years"), and one month of one year otherwise.
func TestSuperlativeOfANamedMeasure(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	atmos := schemaOf("atmos", Column{Name: "date", Type: "date", Min: "1995-01-01", Max: "2000-12-01"},
		Column{Name: "month", Type: "integer", Min: "1", Max: "12"}, Column{Name: "year", Type: "integer", Min: "1995", Max: "2000"},
		f("surftemp"), f("ozone"))
	coldest := want{Table: "atmos", Measures: []Measure{{Column: "surftemp", Agg: "avg"}}, Top: &TopN{1, "month", false}}
	ports := schemaOf("ports", Column{Name: "ident", Type: "string", Values: []string{"AAA", "BBB", "CCC"}},
		f("latitude_deg"), f("longitude_deg"), Column{Name: "elevation_ft", Type: "integer", Min: "-100", Max: "12000"})
	checkCases(t, []parseCase{
		// over several years, the coldest month is one month of one year
		{text: "coldest month (surftemp)", schema: atmos, want: want{Table: "atmos", Measures: []Measure{{Column: "surftemp", Agg: "avg"}},
			GroupBy: []Group{{"date", "month"}}, Top: &TopN{1, "date", false}}},
		{text: "coldest month on avg (surftemp), across all yrs", schema: atmos, want: coldest},
		{text: "which month was hottest on average by surftemp", schema: atmos,
			want: want{Table: "atmos", Measures: []Measure{{Column: "surftemp", Agg: "avg"}}, Top: &TopN{1, "month", true}}},
		{text: "southernmost airport (by latitude)?", schema: ports,
			want: want{Table: "ports", Measures: []Measure{{Column: "latitude_deg", Agg: "avg"}}, Top: &TopN{1, "", false}}},
		{text: "the northernmost port by latitude_deg", schema: ports,
			want: want{Table: "ports", Measures: []Measure{{Column: "latitude_deg", Agg: "avg"}}, Top: &TopN{1, "", true}}},
	})
	// a superlative of another measure than the one named is still reported
	reported(t, atmos, "coldest month by ozone", "average ozone by month, hottest first")
	reported(t, ports, "the highest airport by latitude, southernmost first")
}

// TestWhichPartOfTheYear: "which quarter of the year" over a quarter 1–4
// ranks the quarters; the year said with it is no measure.
func TestWhichPartOfTheYear(t *testing.T) {
	pigs := schemaOf("pigs", Column{Name: "year", Type: "integer", Min: "1967", Max: "1978"},
		Column{Name: "quarter", Type: "integer", Min: "1", Max: "4"}, Column{Name: "profit", Type: "float"})
	checkCases(t, []parseCase{
		{text: "Which quarter of the year has the highest average profit?", schema: pigs,
			want: want{Table: "pigs", Measures: []Measure{{Column: "profit", Agg: "avg"}}, Top: &TopN{1, "quarter", true}}},
	})
}

// TestTheRowOfAnExtreme: "the highest-elevation large airport" and "the
// airport with the highest elevation" ask for the airport, the row ranked
// first, not the highest value alone.
func TestTheRowOfAnExtreme(t *testing.T) {
	ports := Schema{Tables: []Table{{Name: "airports", Rows: 3, Columns: []Column{
		{Name: "ident", Type: "string", Values: []string{"AAA", "BBB", "CCC"}},
		{Name: "type", Type: "string", Values: []string{"large_airport", "small_airport"}},
		{Name: "elevation_ft", Type: "float"}}}}}
	large := []Filter{eq("type", "large_airport")}
	elev := []Measure{{Column: "elevation_ft", Agg: "avg"}}
	checkCases(t, []parseCase{
		{text: "highest-elevation large airport", schema: ports, want: want{Table: "airports", Measures: elev, Filters: large, Top: &TopN{1, "", true}}},
		{text: "the large airport with the lowest elevation", schema: ports, want: want{Table: "airports", Measures: elev, Filters: large, Top: &TopN{1, "", false}}},
		// the extreme value alone, asked of no row
		{text: "highest elevation of large airports", schema: ports, want: want{Table: "airports", Measures: []Measure{{Column: "elevation_ft", Agg: "max"}}, Filters: large}},
	})
}

// TestTheMeasureAfterTheSuperlativeRanks: "which service line generated
// the most net revenue" ranks by the net revenue said after "most", not
// by the count of rows "line" read.
func TestTheMeasureAfterTheSuperlativeRanks(t *testing.T) {
	inv := schemaOf("invoices", Column{Name: "svc", Type: "string", Values: []string{"web", "print"}},
		Column{Name: "iss_dt", Type: "date", Min: "2022-01-01", Max: "2024-12-31"}, Column{Name: "net_gbp", Type: "float"})
	in, err := Parse("Which service line generated the most net revenue in 2024?", inv, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Measures) == 0 || in.Measures[0].Column != "net_gbp" || in.Top == nil || in.Top.Column != "svc" {
		t.Errorf("measures %v top %+v: want the services ranked by net_gbp", in.Measures, in.Top)
	}
	// "the largest single invoice (net)": each service's largest one
	in, err = Parse("Which service line had the largest single invoice (net)?", inv, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Measures) == 0 || in.Measures[0] != (Measure{Column: "net_gbp", Agg: "max"}) {
		t.Errorf("measures %v: want the services ranked by their largest net_gbp", in.Measures)
	}
}
