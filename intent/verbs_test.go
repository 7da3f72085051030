package intent

import (
	"slices"
	"testing"
)

// packing is a table of packing jobs joined through station_id to the
// stations they ran at: its own wt_kg beside the station's cap_kg, its
// date pck_dt beside the station's open_yr.
func packing() Schema {
	jobs := Table{Name: "pck_jobs", Rows: 900, Joined: []string{"stations"}, Columns: []Column{
		{Name: "job_id", Type: "string", Values: []string{"J001", "J002"}},
		{Name: "pck_dt", Type: "date", Min: "2022-01-03", Max: "2024-12-20"},
		{Name: "station_id", Type: "string", Values: []string{"S1", "S2"}},
		{Name: "wt_kg", Type: "float", Min: "1", Max: "900"},
		{Name: "hall", Type: "string", Values: []string{"North", "South"}},
		{Name: "cap_kg", Type: "integer", Min: "1000", Max: "5000"},
		{Name: "open_yr", Type: "integer", Min: "2010", Max: "2022"},
	}}
	stations := Table{Name: "stations", Rows: 6, Columns: []Column{
		{Name: "station_id", Type: "string", Values: []string{"S1", "S2"}},
		{Name: "hall", Type: "string", Values: []string{"North", "South"}},
		{Name: "cap_kg", Type: "integer", Min: "1000", Max: "5000"},
		{Name: "open_yr", Type: "integer", Min: "2010", Max: "2022"},
	}}
	return Schema{Tables: []Table{jobs, stations}}
}

// understoodAll checks a parse that must apply every word.
func understoodAll(t *testing.T, cases []parseCase) {
	t.Helper()
	for _, c := range cases {
		if in, err := Parse(c.text, c.schema, now); err == nil && len(in.Unknown) > 0 {
			t.Errorf("Parse(%q).Unknown = %+v; want every word applied", c.text, in.Unknown)
		}
	}
	checkCases(t, cases)
}

// TestTheTableSaidAsAVerb: a verb whose root the table's name abbreviates
// names the table and its rows ("packed" over pck_jobs, "benchmark" over
// bench); a year said of a verb that names a year column filters that
// column, not the date; a unit counted ("how many kilograms") adds the column
// up, and where two columns are in the unit the table's own is meant.
func TestTheTableSaidAsAVerb(t *testing.T) {
	s := packing()
	wt := Measure{Column: "wt_kg", Agg: "sum"}
	y2023 := &TimeRange{Column: "pck_dt", Start: "2023-01-01", End: "2024-01-01", Label: "2023"}
	bench := schemaOf("bench", Column{Name: "time", Type: "float", Min: "0.1", Max: "90"},
		Column{Name: "test_group", Type: "string", Values: []string{"prog", "io"}})
	understoodAll(t, []parseCase{
		{"how many kilograms did we pack in total during 2023?", s, want{Table: "pck_jobs", Measures: []Measure{wt}, Time: y2023}},
		{"For 2023, the total kilos packed at each hall", s, want{Table: "pck_jobs", Measures: []Measure{wt}, Time: y2023, GroupBy: []Group{{Column: "hall"}}}},
		{"average weight of jobs packed at stations opened before 2016", s, want{Table: "pck_jobs",
			Measures: []Measure{{Column: "wt_kg", Agg: "avg"}}, Filters: []Filter{{"open_yr", "<", []string{"2016"}}}}},
		{"median benchmark time for the prog test group", bench, want{Table: "bench",
			Measures: []Measure{{Column: "time", Agg: "median"}}, Filters: []Filter{eq("test_group", "prog")}}},
	})
}

// TestWhichRowOfTheTableWasTheMost: "which shipment was the heaviest" over
// a table of shipments is the heaviest row, not a count of shipments.
func TestWhichRowOfTheTableWasTheMost(t *testing.T) {
	s := schemaOf("shipments", Column{Name: "shp_id", Type: "string", Values: []string{"S000", "S001"}},
		Column{Name: "wt_kg", Type: "float", Min: "1", Max: "490"})
	understoodAll(t, []parseCase{
		{"which shipment was the heaviest", s, want{Table: "shipments", Measures: []Measure{{Column: "wt_kg", Agg: "avg"}}, Top: &TopN{N: 1, Desc: true}}},
		{"how many kilograms", s, want{Table: "shipments", Measures: []Measure{{Column: "wt_kg", Agg: "sum"}}}},
	})
}

// TestPhrasesAroundNamedColumns: a gloss over a hyphenated phrase or one
// that ends in the column's unit, a comparative after "which", a level
// said by its number, "on average" after a superlative of one row, the
// table called by parts of its name, "of all the countries" over a table
// of countries, and a noun after a column that names its values.
func TestPhrasesAroundNamedColumns(t *testing.T) {
	ctry := Column{Name: "nation", Type: "string", Values: []string{"Chad", "Peru", "Fiji"}}
	risk := schemaOf("wb1999", ctry, Column{Name: "frx3", Type: "float", Min: "-3", Max: "6"},
		Column{Name: "popm", Type: "float", Min: "0.1", Max: "1200"})
	risk.Tables[0].Rows = 3 // one row a nation
	kids := schemaOf("pupils", Column{Name: "campus", Type: "string", Values: []string{"East", "West"}},
		Column{Name: "form", Type: "float", Min: "7", Max: "9"}, Column{Name: "ageyr", Type: "integer", Min: "11", Max: "15"},
		Column{Name: "math", Type: "float", Min: "0", Max: "100"})
	catch := schemaOf("fish", Column{Name: "breed", Type: "string", Values: []string{"Pike", "Perch"}},
		Column{Name: "mass_g", Type: "float", Min: "5", Max: "1600"})
	runs := schemaOf("bench", Column{Name: "chip", Type: "string", Values: []string{"i7", "m1"}},
		Column{Name: "secs", Type: "float", Min: "0.1", Max: "90"})
	one := func(col string) *TopN { return &TopN{N: 1, Column: col, Desc: true} }
	understoodAll(t, []parseCase{
		{"Which nation has the highest free-market index (frx3)?", risk, want{Table: "wb1999",
			Measures: []Measure{{Column: "frx3", Agg: "avg"}}, Top: one("nation")}},
		{"mean age in yrs (ageyr) by campus", kids, want{Table: "pupils",
			Measures: []Measure{{Column: "ageyr", Agg: "avg"}}, GroupBy: []Group{{Column: "campus"}}}},
		{"Which campus has the higher average math score?", kids, want{Table: "pupils",
			Measures: []Measure{{Column: "math", Agg: "avg"}}, Top: one("campus")}},
		{"How many of the East pupils were in form 8?", kids, want{Table: "pupils",
			Measures: []Measure{countRows}, Filters: []Filter{eq("form", "8"), eq("campus", "East")}}},
		{"Which breed has the heaviest fish on average?", catch, want{Table: "fish",
			Measures: []Measure{{Column: "mass_g", Agg: "avg"}}, Top: one("breed")}},
		{"Which nation has the largest popm in the WB 1999 table?", risk, want{Table: "wb1999",
			Measures: []Measure{{Column: "popm", Agg: "avg"}}, Top: one("nation")}},
		{"What is the combined popm of all the nations in the WB table?", risk, want{Table: "wb1999",
			Measures: []Measure{{Column: "popm", Agg: "sum"}}}},
		{"How many distinct chip models appear in the bench results?", runs, want{Table: "bench",
			Measures: []Measure{{Column: "chip", Agg: "count_distinct"}}}},
	})
	// a comparison with something named is no ranking
	reported(t, kids, "which campus has a higher math score than West")
}

// TestRowsADateIsSetFor: a verb that names a date column, said of the
// rows, picks the rows with that date ("paid invoices") or without it
// ("unpaid invoices"); said with a period it is the period's date column.
// "Across both years" pools the periods; a place noun abbreviates a
// column of places.
func TestRowsADateIsSetFor(t *testing.T) {
	bills := schemaOf("bills", Column{Name: "bill_no", Type: "string", Values: []string{"B1", "B2"}},
		Column{Name: "issue_dt", Type: "date", Min: "2022-01-03", Max: "2023-12-20"},
		Column{Name: "paid_dt", Type: "date", Min: "2022-01-10", Max: "2024-01-20", Blanks: 40},
		Column{Name: "amt", Type: "float", Min: "10", Max: "900"})
	notNull := Filter{Column: "paid_dt", Op: "is not null"}
	isNull := Filter{Column: "paid_dt", Op: "is null"}
	stalls := schemaOf("stall_sales", Column{Name: "sale_dt", Type: "date", Min: "2022-01-01", Max: "2023-12-31"},
		Column{Name: "stall", Type: "string", Values: []string{"Pho Real", "Wok On"}},
		Column{Name: "loc", Type: "string", Values: []string{"Harbor", "Park"}}, Column{Name: "rev", Type: "float", Min: "10", Max: "900"})
	understoodAll(t, []parseCase{
		{"# unpaid bills", bills, want{Table: "bills", Measures: []Measure{countRows}, Filters: []Filter{isNull}}},
		{"how many paid bills", bills, want{Table: "bills", Measures: []Measure{countRows}, Filters: []Filter{notNull}}},
		{"total amt of bills that were not paid", bills, want{Table: "bills", Measures: []Measure{{Column: "amt", Agg: "sum"}}, Filters: []Filter{isNull}}},
		{"top 2 stalls by total rev across both years", stalls, want{Table: "stall_sales", Measures: []Measure{{Column: "rev", Agg: "sum"}},
			Top: &TopN{N: 2, Column: "stall", Desc: true}}},
		{"total rev by location", stalls, want{Table: "stall_sales", Measures: []Measure{{Column: "rev", Agg: "sum"}}, GroupBy: []Group{{Column: "loc"}}}},
	})
	// a date every row has says nothing of which are paid; an adjective is
	// no verb; a status's value says it itself
	full := schemaOf("bills", Column{Name: "amt", Type: "float", Min: "10", Max: "900"},
		Column{Name: "paid_dt", Type: "date", Min: "2022-01-10", Max: "2024-01-20"},
		Column{Name: "expiry_dt", Type: "date", Min: "2022-01-10", Max: "2027-01-20"})
	reported(t, full, "how many paid bills", "total amt of expired bills")
	tickets := schemaOf("tickets", Column{Name: "opened_at", Type: "date", Min: "2022-01-10", Max: "2024-01-20", Blanks: 3},
		Column{Name: "prio", Type: "string", Values: []string{"P1", "P2"}})
	if in, err := Parse("how many open tickets", tickets, now); err == nil && slices.ContainsFunc(in.Filters, func(f Filter) bool { return f.Column == "opened_at" }) {
		t.Errorf(`Parse("how many open tickets") filters = %v; want no filter on opened_at`, in.Filters)
	}
	status := schemaOf("bills", Column{Name: "status", Type: "string", Values: []string{"paid", "unpaid", "void"}},
		Column{Name: "paid_dt", Type: "date", Min: "2022-01-10", Max: "2024-01-20", Blanks: 40})
	checkCases(t, []parseCase{{"how many unpaid bills", status, want{Table: "bills", Measures: []Measure{countRows}, Filters: []Filter{eq("status", "unpaid")}}}})
	// a paid date's value said is a period or a comparison, not presence
	in, err := Parse("how many bills were paid in 2023", bills, now)
	if err != nil || in.Time == nil || in.Time.Column != "paid_dt" || slices.ContainsFunc(in.Filters, func(f Filter) bool { return f.Op == "is not null" }) {
		t.Errorf(`Parse("how many bills were paid in 2023") = time %+v filters %v, %v; want paid_dt in 2023`, in.Time, in.Filters, err)
	}
}

// TestAverageDailyOfEventsOrThingsDays: "average daily" over events is
// each day's total averaged; over rows that may each be one thing's day
// (a truck's), it is reported unless the thing is picked or grouped by.
func TestAverageDailyOfEventsOrThingsDays(t *testing.T) {
	trucks := Schema{Tables: []Table{{Name: "truck_days", Rows: 2000, Columns: []Column{
		{Name: "sale_dt", Type: "date", Min: "2023-01-01", Max: "2024-12-31"},
		{Name: "trk", Type: "string", Values: []string{"A", "B", "C", "D", "E"}},
		{Name: "n_ord", Type: "integer", Min: "0", Max: "300"}, {Name: "rev", Type: "float", Min: "0", Max: "5000"}}}}}
	tills := Schema{Tables: []Table{{Name: "tills", Rows: 90000, Columns: []Column{
		{Name: "sale_dt", Type: "date", Min: "2023-01-01", Max: "2024-12-31"},
		{Name: "store", Type: "string", Values: []string{"North", "South"}},
		{Name: "amt", Type: "float", Min: "0", Max: "500"}}}}}
	daily := func(col string) Measure { return Measure{Column: col, Agg: "avg", PerPeriod: "day"} }
	understoodAll(t, []parseCase{
		{"average daily amt", tills, want{Table: "tills", Measures: []Measure{daily("amt")}}},
		{"average daily amt by store", tills, want{Table: "tills", Measures: []Measure{daily("amt")}, GroupBy: []Group{{Column: "store"}}}},
		{"total orders by trk", trucks, want{Table: "truck_days", Measures: []Measure{{Column: "n_ord", Agg: "sum"}}, GroupBy: []Group{{Column: "trk"}}}},
	})
	reported(t, trucks, "average daily rev", "avg daily orders")
}

// TestTradeWordsOfATable: an acronym in parentheses after the words it
// abbreviates is read as the column it names, its average kept ("average
// daily rate (ADR)" over adr_usd); bookings over a table the name of
// which abbreviates them, with a nightly rate as its money, are counted;
// "treated vs control" are a trial flag's two sides.
func TestTradeWordsOfATable(t *testing.T) {
	stays := schemaOf("bkgs", Column{Name: "bk_id", Type: "string", Values: []string{"B1", "B2"}},
		Column{Name: "chan", Type: "string", Values: []string{"OTA", "Direct"}},
		Column{Name: "adr_usd", Type: "float", Min: "40", Max: "900"}, Column{Name: "stars", Type: "integer", Min: "3", Max: "5"})
	trial := schemaOf("trial", Column{Name: "treat", Type: "integer", Min: "0", Max: "1"}, Column{Name: "wage", Type: "float", Min: "0", Max: "9000"})
	understoodAll(t, []parseCase{
		{"the average daily rate (ADR) by chan", stays, want{Table: "bkgs", Measures: []Measure{{Column: "adr_usd", Agg: "avg"}}, GroupBy: []Group{{Column: "chan"}}}},
		{"bookings by star rating", stays, want{Table: "bkgs", Measures: []Measure{countRows}, GroupBy: []Group{{Column: "stars"}}}},
		{"average wage for the treatment group versus the control group", trial, want{Table: "trial",
			Measures: []Measure{{Column: "wage", Agg: "avg"}}, GroupBy: []Group{{Column: "treat"}}}},
		{"avg wage, treated vs control", trial, want{Table: "trial", Measures: []Measure{{Column: "wage", Agg: "avg"}}, GroupBy: []Group{{Column: "treat"}}}},
	})
	// a money column that adds up leaves bookings to be said
	sales := schemaOf("bkgs", Column{Name: "chan", Type: "string", Values: []string{"OTA", "Direct"}}, Column{Name: "amount", Type: "float", Min: "40", Max: "900"})
	reported(t, sales, "bookings by chan")
}

// TestLevelsOfAColumnAndPooledYears: "a WFNS grade of 4 or 5" is those
// levels of wfns; "both yrs" pools the years.
func TestLevelsOfAColumnAndPooledYears(t *testing.T) {
	sah := schemaOf("sah", Column{Name: "wfns", Type: "integer", Min: "1", Max: "5"}, Column{Name: "s100b", Type: "float", Min: "0", Max: "3"})
	trials := schemaOf("oats", Column{Name: "variety", Type: "string", Values: []string{"Trebi", "Velvet"}},
		Column{Name: "year", Type: "integer", Min: "1931", Max: "1932"}, Column{Name: "yield", Type: "float", Min: "10", Max: "60"})
	understoodAll(t, []parseCase{
		{"median s100b with a WFNS grade of 4 or 5", sah, want{Table: "sah", Measures: []Measure{{Column: "s100b", Agg: "median"}},
			Filters: []Filter{{"wfns", "in", []string{"4", "5"}}}}},
		{"Trebi avg yield, both yrs", trials, want{Table: "oats", Measures: []Measure{{Column: "yield", Agg: "avg"}}, Filters: []Filter{eq("variety", "Trebi")}}},
	})
}

// TestAYearOrLater: "in 2020 or later" runs from 2020 on, "2019 or
// earlier" up to 2019's end.
func TestAYearOrLater(t *testing.T) {
	cust := schemaOf("customers", Column{Name: "cust_id", Type: "string", Values: []string{"C1", "C2"}},
		Column{Name: "signup_yr", Type: "integer", Min: "2015", Max: "2024"})
	understoodAll(t, []parseCase{
		{"how many customers signed up in 2020 or later", cust, want{Table: "customers", Measures: []Measure{{Column: "cust_id", Agg: "count_distinct"}},
			Filters: []Filter{{"signup_yr", ">=", []string{"2020"}}}}},
		{"how many customers signed up in 2019 or earlier", cust, want{Table: "customers", Measures: []Measure{{Column: "cust_id", Agg: "count_distinct"}},
			Filters: []Filter{{"signup_yr", "<=", []string{"2019"}}}}},
	})
	in, err := Parse("total amount in 2021 or later", salesSchema, now)
	if err != nil || in.Time == nil || in.Time.Start != "2021-01-01" || len(in.Unknown) > 0 {
		t.Errorf(`Parse("total amount in 2021 or later") time = %+v, unknown %v, %v; want from 2021-01-01`, in.Time, in.Unknown, err)
	}
}

// TestDaysOfTheWeekAsValues: over a column of days written short and no
// date, "Sundays" is 'Sun' and "day of the week" the column; "how many
// different barley varieties" over barley(variety) counts the varieties.
func TestDaysOfTheWeekAsValues(t *testing.T) {
	tips := schemaOf("tips", Column{Name: "day", Type: "string", Values: []string{"Thur", "Fri", "Sat", "Sun"}},
		Column{Name: "tip", Type: "float", Min: "1", Max: "10"}, Column{Name: "total_bill", Type: "float", Min: "3", Max: "50"})
	oats := schemaOf("oats", Column{Name: "variety", Type: "string", Values: []string{"Trebi", "Velvet"}}, Column{Name: "yield", Type: "float", Min: "10", Max: "60"})
	understoodAll(t, []parseCase{
		{"average tip on Sundays", tips, want{Table: "tips", Measures: []Measure{{Column: "tip", Agg: "avg"}}, Filters: []Filter{eq("day", "Sun")}}},
		{"total bill by day of the week", tips, want{Table: "tips", Measures: []Measure{{Column: "total_bill", Agg: "sum"}}, GroupBy: []Group{{Column: "day"}}}},
		{"how many different oats varieties", oats, want{Table: "oats", Measures: []Measure{{Column: "variety", Agg: "count_distinct"}}}},
	})
}
