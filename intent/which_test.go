package intent

import "testing"

// TestWhichOfWhat: "which" ranks the noun it refers back to ("among the
// … lakes, which had"), or the noun after a value ("which alpine lake");
// the value stays a filter. The table's rows said in the plural are not
// rows of a type spelled in the singular; verbs of containing link the
// ranked to its count.
func TestWhichOfWhat(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	lakes := schemaOf("lakes", s("lake", "Garda", "Como", "Bled"), s("zone", "alpine", "lowland"), s("kind", "Lake", "Reservoir"),
		s("basin", "Po", "Danube"), f("depth_m"), f("area_km2"))
	checkCases(t, []parseCase{
		{text: "Among the alpine lakes, which had the greatest depth?", schema: lakes, want: want{Table: "lakes",
			Measures: []Measure{{Column: "depth_m", Agg: "avg"}}, Filters: []Filter{eq("zone", "alpine")},
			Top: &TopN{N: 1, Column: "lake", Desc: true}}},
		{text: "which alpine lake has the greatest depth", schema: lakes, want: want{Table: "lakes",
			Measures: []Measure{{Column: "depth_m", Agg: "avg"}}, Filters: []Filter{eq("zone", "alpine")},
			Top: &TopN{N: 1, Column: "lake", Desc: true}}},
		{text: "Which basin contains the most lakes?", schema: lakes, want: want{Table: "lakes",
			Measures: []Measure{{Column: "lake", Agg: "count_distinct"}}, Top: &TopN{N: 1, Column: "basin", Desc: true}}},
		{text: "what share of lakes are classed as a reservoir", schema: lakes, want: want{Table: "lakes",
			Measures: []Measure{{Column: "lake", Agg: "count_distinct"}}, Analyses: []string{AnalysisShare}, Filters: []Filter{eq("kind", "Reservoir")}}},
	})
	// over a table of regions (no column names the countries), the
	// plural is the rows, not the rows of type 'Country'
	regions := schemaOf("countries", s("name", "Chad", "Peru"), s("type", "Country", "Dependency"), s("subregion", "Andes", "Sahel"))
	checkCases(t, []parseCase{
		{text: "Which subregion contains the most countries?", schema: regions, want: want{Table: "countries",
			Top: &TopN{N: 1, Column: "subregion", Desc: true}}},
	})
}

// TestBirthDateIsNoPeriod: of two dates, a birth date is not when the
// rows happened.
func TestBirthDateIsNoPeriod(t *testing.T) {
	cohort := schemaOf("cohort", Column{Name: "birth_dt", Type: "date", Min: "1920-01-01", Max: "1990-12-31"},
		Column{Name: "dx_dt", Type: "date", Min: "2000-01-01", Max: "2010-12-31"}, Column{Name: "age", Type: "integer"})
	in, err := Parse("how many cases in 2005", cohort, now)
	if err != nil || in.Time == nil || in.Time.Column != "dx_dt" {
		t.Errorf("how many cases in 2005: %v, %+v; want a period on dx_dt", err, in)
	}
}

// TestMonthOfYearColumns: a calendar month over year and month columns of
// numbers is the two filters.
func TestMonthOfYearColumns(t *testing.T) {
	i := func(n, lo, hi string) Column { return Column{Name: n, Type: "integer", Min: lo, Max: hi} }
	counts := schemaOf("counts", i("yr", "1990", "2005"), i("mth", "1", "12"), i("visits", "0", "900"))
	checkCases(t, []parseCase{
		{text: "total visits in Feb 1996", schema: counts, want: want{Table: "counts",
			Measures: []Measure{{Column: "visits", Agg: "sum"}}, Filters: []Filter{eq("yr", "1996"), eq("mth", "2")}}},
	})
}

// TestQuarterOfYearColumns: a calendar quarter over year and quarter
// columns of numbers is the two filters.
func TestQuarterOfYearColumns(t *testing.T) {
	i := func(n, lo, hi string) Column { return Column{Name: n, Type: "integer", Min: lo, Max: hi} }
	q := schemaOf("q", i("yr", "2021", "2023"), i("qtr", "1", "4"), i("units", "1", "900"))
	checkCases(t, []parseCase{
		{text: "total units in Q3 2022", schema: q, want: want{Table: "q",
			Measures: []Measure{{Column: "units", Agg: "sum"}}, Filters: []Filter{eq("yr", "2022"), eq("qtr", "3")}}},
	})
}

// TestRankedByTheOnlyMeasure: "which port is the deepest" names its
// measure; "which port is the lowest" ranks by the table's one measure.
func TestRankedByTheOnlyMeasure(t *testing.T) {
	ports := schemaOf("ports", Column{Name: "ident", Type: "string"}, Column{Name: "name", Type: "string"},
		Column{Name: "country", Type: "string", Values: []string{"BR", "US", "CA"}}, Column{Name: "elevation_ft", Type: "integer", Min: "-10", Max: "9000"})
	checkCases(t, []parseCase{
		{text: "which port in Brazil is the lowest", schema: ports, want: want{Table: "ports",
			Measures: []Measure{{Column: "elevation_ft", Agg: "avg"}}, Filters: []Filter{eq("country", "BR")}, Top: &TopN{N: 1}}},
	})
}

// TestCountOfAValueNamingTheRows: "how many large ports" over a kind
// large_port counts the rows of that kind.
func TestCountOfAValueNamingTheRows(t *testing.T) {
	ports := schemaOf("ports", Column{Name: "ident", Type: "string"}, Column{Name: "kind", Type: "string", Values: []string{"large_port", "small_port"}},
		Column{Name: "country", Type: "string", Values: []string{"BR", "MX", "US"}})
	checkCases(t, []parseCase{
		{text: "how many large ports in Mexico", schema: ports, want: want{Table: "ports",
			Measures: []Measure{countRows}, Filters: []Filter{eq("kind", "large_port"), eq("country", "MX")}}},
	})
}

// TestWhichAfterItsSuperlative: "lowest average temperature - which
// month?" ranks the months lowest first, one of them; a month column of
// numbers is each month; a station id the trips repeat ranks stations.
func TestWhichAfterItsSuperlative(t *testing.T) {
	i := func(n, lo, hi string) Column { return Column{Name: n, Type: "integer", Min: lo, Max: hi} }
	wx := Schema{Tables: []Table{{Name: "wx", Rows: 3000, Columns: []Column{i("yr", "2000", "2009"), i("month", "1", "12"),
		{Name: "temp", Type: "float"}, i("station_id", "1", "40"), {Name: "trips", Type: "integer", Min: "0", Max: "90"}}}}}
	checkCases(t, []parseCase{
		{text: "lowest average temp - which month?", schema: wx, want: want{Table: "wx",
			Measures: []Measure{{Column: "temp", Agg: "avg"}}, Top: &TopN{N: 1, Column: "month", Desc: false}}},
		{text: "which month has the highest average temp", schema: wx, want: want{Table: "wx",
			Measures: []Measure{{Column: "temp", Agg: "avg"}}, Top: &TopN{N: 1, Column: "month", Desc: true}}},
		{text: "top 3 stations by total trips", schema: wx, want: want{Table: "wx",
			Measures: []Measure{{Column: "trips", Agg: "sum"}}, Top: &TopN{N: 3, Column: "station_id", Desc: true}}},
	})
}

// TestAtLeastOneRow: "at least one order" over a table of orders holds
// for every row: no filter.
func TestAtLeastOneRow(t *testing.T) {
	orders := Schema{Tables: []Table{{Name: "orders", Rows: 900, Columns: []Column{{Name: "cust_id", Type: "string"},
		{Name: "ord_dt", Type: "date", Min: "2021-01-01", Max: "2023-12-31"}, {Name: "amt", Type: "float"}}}}}
	in, err := Parse("How many distinct customers placed at least one order in 2022?", orders, now)
	if err != nil || len(in.Filters) != 0 || len(in.Unknown) != 0 || in.Time == nil {
		t.Errorf("at least one order: %v, filters %+v, unknown %+v; want no filter, the year kept", err, in.Filters, in.Unknown)
	}
}
