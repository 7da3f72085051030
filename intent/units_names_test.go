package intent

import "testing"

// TestUnitsAndClinicalNames: a unit spelled out names the column that
// holds it short; a row noun the id column says the rows are not is not
// read as the rows; clinical shorthand in a column's name is its word, as
// noun and as verb; of several dates, the one chosen is the one trends
// are drawn over.
func TestUnitsAndClinicalNames(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	i := func(n, lo, hi string) Column { return Column{Name: n, Type: "integer", Min: lo, Max: hi} }
	crops := schemaOf("picks", i("pick_id", "1", "500"), s("crop", "tomato", "pepper"), f("yld_kg"), i("crew_cnt", "1", "6"))
	clinic := schemaOf("clinic", Column{Name: "dob", Type: "date", Min: "1930-01-01", Max: "1980-12-31"},
		Column{Name: "dx_dt", Type: "date", Min: "1995-01-01", Max: "2010-12-31"}, s("dx", "colon", "lung"), f("surv_mo"))
	checkCases(t, []parseCase{
		{text: "total kilos of tomato", schema: crops, want: want{Table: "picks",
			Measures: []Measure{{Column: "yld_kg", Agg: "sum"}}, Filters: []Filter{eq("crop", "tomato")}}},
		{text: "median surv_mo by diagnosis", schema: clinic, want: want{Table: "clinic",
			Measures: []Measure{{Column: "surv_mo", Agg: "median"}}, GroupBy: []Group{{"dx", ""}}}},
		{text: "how many were diagnosed in 2005", schema: clinic, want: want{Table: "clinic",
			Measures: []Measure{countRows}, Time: &TimeRange{Column: "dx_dt", Start: "2005-01-01", End: "2006-01-01", Label: "2005"}}},
	})
	// picks are numbered by pick_id: workers are not its rows
	reported(t, crops, "how many workers on average per pick")
	in, err := Parse("average surv_mo for lung", clinic, now)
	if err != nil || in.DateColumn != "dx_dt" {
		t.Errorf("average surv_mo for lung: DateColumn = %q, %v; want dx_dt, not the birth date", in.DateColumn, err)
	}
}

// TestShortWordsAndBlanks: a name's short word is said in full beside its
// other word ("equivalised income" for eqIncome); "excl. blanks" leaves
// out missing values, which every measure does.
func TestShortWordsAndBlanks(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	silc := schemaOf("silc", f("eqIncome"), s("sex", "female", "male"), f("csat"))
	checkCases(t, []parseCase{
		{text: "median equivalised income for women", schema: silc, want: want{Table: "silc",
			Measures: []Measure{{Column: "eqIncome", Agg: "median"}}, Filters: []Filter{eq("sex", "female")}}},
		{text: "avg csat (excl. blanks)", schema: silc, want: want{Table: "silc", Measures: []Measure{{Column: "csat", Agg: "avg"}}}},
	})
}

// TestRatioOfOneRow: a ratio that may be of each row or of the totals is
// one number for one row; a unit the request says the data is in brings
// the ratio back to ones.
func TestRatioOfOneRow(t *testing.T) {
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	ne := Schema{Tables: []Table{{Name: "nations", Rows: 3, Columns: []Column{s("name", "Brazil", "Chile", "Peru"),
		s("continent", "South America"), {Name: "gdp_md_est", Type: "float", Min: "1000", Max: "2000000"},
		{Name: "pop_est", Type: "integer", Min: "3000000", Max: "200000000"}}}}}
	checkCases(t, []parseCase{
		{text: "GDP per capita for Brazil (gdp_md_est is in $ millions)", schema: ne, want: want{Table: "nations",
			Measures: []Measure{{Column: "gdp_md_est", Agg: "sum", Per: "pop_est", DataScale: 1e6}}, Filters: []Filter{eq("name", "Brazil")}}},
	})
	reported(t, ne, "GDP per capita in South America")
}

// TestMillionsInParentheses: "(m)" after a measure all below a million is
// the millions it is in; after one of millions, metres, not scaled.
func TestMillionsInParentheses(t *testing.T) {
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	pwt := schemaOf("pwt", s("country", "Brazil", "Mexico"), Column{Name: "emp", Type: "float", Min: "0.1", Max: "800"},
		Column{Name: "depth", Type: "float", Min: "0", Max: "9000000"})
	checkCases(t, []parseCase{
		{text: "employment Brazil vs Mexico (m)", schema: pwt, want: want{Table: "pwt",
			Measures: []Measure{{Column: "emp", Agg: "avg"}}, Filters: []Filter{{"country", "in", []string{"Brazil", "Mexico"}}},
			GroupBy: []Group{{"country", ""}}}},
	})
	// a column of millions of something is in metres, as said: nothing scaled
	if in, err := Parse("average depth (m)", pwt, now); err != nil || len(in.Measures) != 1 || in.Measures[0].Scale != 0 {
		t.Errorf("average depth (m): %v, %+v; want depth unscaled", err, in)
	}
}
