package intent

import "testing"

// TestWordsForTheRows: "respondents" in a survey names its rows, as
// averages, groups and counts read them; counting them when a name column
// repeats (a player's seasons) is reported, not a count of rows.
func TestWordsForTheRows(t *testing.T) {
	gss := Schema{Tables: []Table{{Name: "gss", Rows: 21483, Columns: []Column{
		{Name: "year", Type: "integer", Min: "2000", Max: "2014"},
		{Name: "marital", Type: "string", Values: []string{"Married", "Divorced", "Never married"}},
		{Name: "age", Type: "integer", Min: "18", Max: "89"},
		{Name: "relig", Type: "string", Values: []string{"Protestant", "Catholic", "None"}}}}}}
	checkCases(t, []parseCase{
		{text: "How many respondents were surveyed in 2014?", schema: gss, want: want{Table: "gss", Measures: []Measure{{Agg: "count"}},
			Filters: []Filter{{Column: "year", Op: "=", Values: []string{"2014"}}}}},
		{text: "Average age of respondents by marital status", schema: gss, want: want{Table: "gss",
			Measures: []Measure{{Column: "age", Agg: "avg"}}, GroupBy: []Group{{"marital", ""}}}},
		{text: "Which religion has the most respondents?", schema: gss, want: want{Table: "gss",
			Measures: []Measure{{Agg: "count"}}, Top: &TopN{1, "relig", true}}},
	})
	seasons := Schema{Tables: []Table{{Name: "sluggers", Rows: 300, Columns: []Column{
		{Name: "Player", Type: "string", Values: []string{"Ruth", "Mays", "Aaron"}},
		{Name: "Year", Type: "integer", Min: "1914", Max: "1976"}, {Name: "HR", Type: "integer", Min: "0", Max: "61"}}}}}
	reported(t, seasons, "how many athletes hit more than 40 HR")
}

// TestWordsForOtherRows: customers counted over a table of orders are not
// its rows, even when each row is one order.
func TestWordsForOtherRows(t *testing.T) {
	orders := Schema{Tables: []Table{{Name: "orders", Rows: 3, Columns: []Column{
		{Name: "order_id", Type: "integer", Min: "1", Max: "3"},
		{Name: "amount", Type: "float", Min: "5", Max: "90"}}}}}
	reported(t, orders, "how many customers spent more than 50")
}

// TestWhichOfTheRows: "which city" over a table of one row per city, its
// name in a column called name, ranks the rows; over dated readings of
// each city it is reported. Employees with a hire date and a key are one
// a row.
func TestWhichOfTheRows(t *testing.T) {
	cities := Schema{Tables: []Table{{Name: "urban", Rows: 3, Columns: []Column{
		{Name: "name", Type: "string", Values: []string{"Tokyo", "Delhi", "Osaka"}},
		{Name: "country", Type: "string", Values: []string{"Japan", "India"}},
		{Name: "pop_2020", Type: "float", Min: "19", Max: "37"}}}}}
	checkCases(t, []parseCase{
		{text: "Which city has the largest population?", schema: cities, want: want{Table: "urban",
			Measures: []Measure{{Column: "pop_2020", Agg: "sum"}}, Top: &TopN{1, "", true}}},
	})
	dated := Schema{Tables: []Table{{Name: "readings", Rows: 9, Columns: []Column{
		{Name: "date", Type: "date", Min: "2024-01-01", Max: "2024-01-03"},
		{Name: "name", Type: "string", Values: []string{"Tokyo", "Delhi", "Osaka"}},
		{Name: "pm25", Type: "float", Min: "19", Max: "37"}}}}}
	reported(t, dated, "Which city has the highest pm25?")
	staff := Schema{Tables: []Table{{Name: "emp", Rows: 400, Columns: []Column{
		{Name: "emp_id", Type: "integer", Min: "1001", Max: "1400"}, {Name: "mgr_id", Type: "integer", Min: "1001", Max: "1003"},
		{Name: "hire_date", Type: "date", Min: "2010-01-01", Max: "2024-12-26"}, {Name: "salary", Type: "integer", Min: "40000", Max: "200000"}}}}}
	checkCases(t, []parseCase{
		{text: "how many employees earn more than 150000", schema: staff, want: want{Table: "emp", Measures: []Measure{{Agg: "count"}},
			Filters: []Filter{{Column: "salary", Op: ">", Values: []string{"150000"}}}}},
	})
}

// TestAShareOfAFilterByAGroup: "% of employees remote by dept" does not say
// whether it is each department's remote part or each department's part of
// the remote: reported. "share of salary by dept for engineers" scopes
// the whole and is answered.
func TestAShareOfAFilterByAGroup(t *testing.T) {
	emp := schemaOf("emp", Column{Name: "dept", Type: "string", Values: []string{"Eng", "Sales"}},
		Column{Name: "title", Type: "string", Values: []string{"Engineer", "Manager"}},
		Column{Name: "remote", Type: "boolean"}, Column{Name: "salary", Type: "integer", Min: "40000", Max: "200000"})
	reported(t, emp, "% of employees remote by dept")
	if in, err := Parse("share of salary by dept for engineers", emp, now); err != nil || len(in.Unknown) > 0 {
		t.Errorf("share of salary by dept for engineers: %v, unknown %v", err, in.Unknown)
	}
}

// TestPeopleOfARegistry: a table with a date of birth has a person a row,
// though it has other dates: "how many patients were diagnosed in 2005"
// counts its rows.
func TestPeopleOfARegistry(t *testing.T) {
	d := func(n, lo, hi string) Column { return Column{Name: n, Type: "date", Min: lo, Max: hi} }
	reg := schemaOf("registry", Column{Name: "sex", Type: "integer", Min: "1", Max: "2"}, d("birth_dt", "1900-01-01", "1980-01-01"),
		d("dx_dt", "1990-01-01", "2012-12-01"), Column{Name: "dx_age", Type: "float"})
	checkCases(t, []parseCase{
		{text: "How many patients were diagnosed in 2005?", schema: reg, want: want{Table: "registry", Measures: []Measure{{Agg: "count"}},
			Time: &TimeRange{Column: "dx_dt", Start: "2005-01-01", End: "2006-01-01", Label: "2005"}}},
	})
	// with no date of birth, a dated row is an observation, not a patient
	visits := schemaOf("visits", Column{Name: "sex", Type: "integer", Min: "1", Max: "2"}, d("visit_dt", "1990-01-01", "2012-12-01"))
	reported(t, visits, "How many patients visited in 2005?")
}

// TestRowsNamedByTheirKey: over a table of one row a country, "avg
// density for countries with pop > 100" averages over those rows; it is
// no grouping of one row each. Where the names repeat, it still groups.
func TestRowsNamedByTheirKey(t *testing.T) {
	cols := []Column{{Name: "country", Type: "string", Values: []string{"Chad", "India", "Peru"}},
		{Name: "POP", Type: "float", Min: "0.24", Max: "1051.55"}, {Name: "DEN", Type: "float", Min: "1", Max: "900"}}
	one := Schema{Tables: []Table{{Name: "un86", Rows: 3, Columns: cols}}}
	checkCases(t, []parseCase{
		{text: "avg DEN for countries with POP > 100", schema: one, want: want{Table: "un86",
			Measures: []Measure{{Column: "DEN", Agg: "avg"}}, Filters: []Filter{{"POP", ">", []string{"100"}}}}},
	})
	many := Schema{Tables: []Table{{Name: "un86", Rows: 30, Columns: cols}}}
	checkCases(t, []parseCase{
		{text: "avg DEN for countries with POP > 100", schema: many, want: want{Table: "un86",
			Measures: []Measure{{Column: "DEN", Agg: "avg"}}, Filters: []Filter{{"POP", ">", []string{"100"}}}, GroupBy: []Group{{"country", ""}}}},
	})
}
