package intent

import (
	"slices"
	"testing"
)

// TestAbbreviatedColumns: a word the request says names the one column
// word that abbreviates it; a word that only grows from a column's word,
// a slip of another column's name, or a word two columns abbreviate is
// not read as one.
func TestAbbreviatedColumns(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	cars := schemaOf("cars", s("mfr", "audi", "ford"), s("trans", "auto", "manual"), f("cty"), f("hwy"), f("displ"))
	air := schemaOf("air", f("Ozone"), f("Solar.R"), f("Wind.Spd"), f("Rel.Hum"), s("Month", "May", "June"))
	counties := schemaOf("counties", s("county", "Adams County", "Clay County"), s("st", "OH", "MI"), f("unemp_rt"), f("pop"))
	nations := schemaOf("nations", s("continent", "Asia", "Africa"), s("income_grp", "1. High income", "5. Low income"), f("pop"))
	ops := schemaOf("ops", s("dept", "Sales", "Ops"), s("mgr", "Ann", "Bob"), f("hrs_worked"), f("bldg_sqft"), s("colour", "red"))
	checkCases(t, []parseCase{
		{text: "average city mileage by manufacturer", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "cty", Agg: "avg"}}, GroupBy: []Group{{"mfr", ""}}, Unparsed: []string{"mileage"}}},
		{text: "mean highway by transmission", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "hwy", Agg: "avg"}}, GroupBy: []Group{{"trans", ""}}}},
		{text: "average displacement", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "displ", Agg: "avg"}}}},
		{text: "average solar radiation by Month", schema: air, want: want{Table: "air",
			Measures: []Measure{{Column: "Solar.R", Agg: "avg"}}, GroupBy: []Group{{"Month", ""}}}},
		{text: "average wind speed and relative humidity", schema: air, want: want{Table: "air",
			Measures: []Measure{{Column: "Wind.Spd", Agg: "avg"}, {Column: "Rel.Hum", Agg: "avg"}}}},
		{text: "total hours worked by department", schema: ops, want: want{Table: "ops",
			Measures: []Measure{{Column: "hrs_worked", Agg: "sum"}}, GroupBy: []Group{{"dept", ""}}}},
		{text: "total building sqft per manager", schema: ops, want: want{Table: "ops",
			Measures: []Measure{{Column: "bldg_sqft", Agg: "sum"}}, GroupBy: []Group{{"mgr", ""}}}},
		{text: "how many rows per color", schema: ops, want: want{Table: "ops",
			Measures: []Measure{{Agg: "count"}}, GroupBy: []Group{{"colour", ""}}}},
		// two letters stand for a short word ending as it ends; a word of
		// a column's name said alone is that column, not a slip of it
		{text: "top 5 states by unemp rate", schema: counties, want: want{Table: "counties",
			Measures: []Measure{{Column: "unemp_rt", Agg: "avg"}}, Top: &TopN{N: 5, Column: "st", Desc: true}}},
		{text: "top 5 counties by unemp", schema: counties, want: want{Table: "counties",
			Measures: []Measure{{Column: "unemp_rt", Agg: "avg"}}, Top: &TopN{N: 5, Column: "county", Desc: true}}},
		// "group" is income_grp's, not the one category column's; "income"
		// with no money column is no count of rows
		{text: "average population by income group", schema: nations, want: want{Table: "nations",
			Measures: []Measure{{Column: "pop", Agg: "avg"}}, GroupBy: []Group{{"income_grp", ""}}}},
	})
	reported(t, nations, "total income by continent", "average pop by income")
	// "radiation" alone is no initial of Solar.R; "country" grows from
	// count; "agents" from age; "prodcts" is product with a slip, not pct.
	reported(t, air, "average radiation by Month")
	reported(t, schemaOf("t", s("region", "East"), f("count")), "count by country")
	reported(t, schemaOf("t", s("region", "East"), f("age")), "average age by agents")
	reported(t, schemaOf("t", s("product", "Widget"), f("pct"), f("amount")), "total amount by prodcts")
	// the parser's own words are never abbreviations: "distribution" is
	// no dist column, "monthly" no mon, "median" no med
	trips := Schema{Tables: []Table{{Name: "trips", Rows: 400, Columns: []Column{
		{Name: "start", Type: "date", Min: "2024-01-01", Max: "2024-12-31"},
		{Name: "dist", Type: "float"}, {Name: "mon", Type: "integer"}, {Name: "med_fare", Type: "float"}, {Name: "fare", Type: "float"}}}}}
	for text, what := range map[string]func(*Intent) bool{
		"distribution of fare": func(in *Intent) bool { return slices.Contains(in.Analyses, AnalysisDistribution) },
		"monthly fare":         func(in *Intent) bool { return len(in.GroupBy) == 1 && in.GroupBy[0].Grain == "month" },
		"median fare": func(in *Intent) bool {
			return len(in.Measures) == 1 && in.Measures[0] == Measure{Column: "fare", Agg: "median"}
		},
	} {
		if in, err := Parse(text, trips, now); err != nil || !what(in) {
			t.Errorf("Parse(%q) = %+v, %v: read as an abbreviation", text, in, err)
		}
	}
	// "hwy" and "hgwy" both abbreviate highway: neither is chosen.
	reported(t, schemaOf("t", s("region", "East"), f("hwy"), f("hgwy")), "average highway by region")
}

func TestAbbreviates(t *testing.T) {
	for _, c := range []struct {
		w, cw string
		want  bool
	}{
		{"city", "cty", true}, {"highway", "hwy", true}, {"manager", "mgr", true}, {"department", "dept", true},
		{"hours", "hrs", true}, {"hour", "hrs", false}, {"stay", "sys", false}, {"cities", "cty", true}, {"year", "yr", true}, {"precipitation", "precip", true},
		{"relative", "rel", true}, {"speed", "spd", true}, {"building", "bldg", true}, {"government", "govt", true},
		{"country", "count", false}, {"agent", "age", false}, {"average", "age", false}, {"shipping", "ship", false},
		{"displacement", "dt", false}, {"state", "st", true}, {"date", "dt", true}, {"rate", "rt", true}, {"temple", "temp", false},
		{"cty", "city", false}, {"city", "city", false}, {"service", "svc", true}, {"state", "ste", false}, {"county", "co", false}, {"status", "st", false},
	} {
		if got := abbreviates(c.w, c.cw); got != c.want {
			t.Errorf("abbreviates(%q, %q) = %v, want %v", c.w, c.cw, got, c.want)
		}
	}
}

func TestAmerican(t *testing.T) {
	for w, want := range map[string]string{"colour": "color", "labour": "labor", "centre": "center", "analyse": "analyze",
		"organisation": "organization", "travelled": "traveled", "catalogue": "catalog", "harbours": "harbors", "hour": "hour", "four": "four"} {
		if got := american(w); got != want {
			t.Errorf("american(%q) = %q, want %q", w, got, want)
		}
	}
}

// TestAcronymPlural: "SKUs" counts the sku column; "status" stays itself.
func TestAcronymPlural(t *testing.T) {
	sales := schemaOf("sales", Column{Name: "store", Type: "string", Values: []string{"Oslo", "Bergen"}},
		Column{Name: "sku", Type: "string", Values: []string{"A-1", "B-2"}}, Column{Name: "units", Type: "integer"})
	checkCases(t, []parseCase{
		{text: "how many SKUs per store", schema: sales, want: want{Table: "sales",
			Measures: []Measure{{Column: "sku", Agg: "count_distinct"}}, GroupBy: []Group{{"store", ""}}}},
	})
	for w, want := range map[string]string{"SKUs": "SKU", "IDs": "ID", "status": "status", "Us": "Us", "CO2s": "CO2", "1990s": "1990s"} {
		if got := acronymSingular(w); got != want {
			t.Errorf("acronymSingular(%q) = %q, want %q", w, got, want)
		}
	}
}

// TestAcronymsAndPeople: words whose initials spell a column's word
// name it ("length of stay" LOS.days, "blood pressure" Sys.BP); a
// doubled consonant before -ed is the verb ("readmitted" Readmit); a bare
// number after people is their age.
func TestAcronymsAndPeople(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	h := schemaOf("hospital", Column{Name: "Patient.ID", Type: "string"}, Column{Name: "Dept", Type: "string", Values: []string{"Surgery", "Oncology"}},
		f("LOS.days"), f("Sys.BP"), f("Dia.BP"), Column{Name: "Age", Type: "integer"}, Column{Name: "Readmit", Type: "integer"})
	gt := func(c, v string) Filter { return Filter{Column: c, Op: ">", Values: []string{v}} }
	checkCases(t, []parseCase{
		{text: "average length of stay by department", schema: h, want: want{Table: "hospital",
			Measures: []Measure{{Column: "LOS.days", Agg: "avg"}}, GroupBy: []Group{{"Dept", ""}}}},
		{text: "mean systolic blood pressure", schema: h, want: want{Table: "hospital",
			Measures: []Measure{{Column: "Sys.BP", Agg: "avg"}}, Understood: []string{"mean systolic blood pressure -> average of Sys.BP"}}},
		{text: "how many patients were readmitted", schema: h, want: want{Table: "hospital",
			Measures: []Measure{{Column: "Patient.ID", Agg: "count_distinct"}}, Filters: []Filter{gt("Readmit", "0")}}},
		{text: "average diastolic blood pressure of patients over 60", schema: h, want: want{Table: "hospital",
			Measures: []Measure{{Column: "Dia.BP", Agg: "avg"}}, Filters: []Filter{gt("Age", "60")}}},
		{text: "average age of readmitted patients", schema: h, want: want{Table: "hospital",
			Measures: []Measure{{Column: "Age", Agg: "avg"}}, Filters: []Filter{gt("Readmit", "0")}}},
	})
	// "blood pressure" over two BP columns names neither
	reported(t, h, "average blood pressure by department")
}

// TestWordsRunTogether: a column's name that runs a phrase's words
// together, each cut short, is named by the phrase: bluecol, lwage,
// foodexp, ptratio (in a condition too); a word that is the whole name
// is no run ("remot" + "e" of employees is not remote).
func TestWordsRunTogether(t *testing.T) {
	wages := schemaOf("wages", Column{Name: "bluecol", Type: "string", Values: []string{"no", "yes"}},
		Column{Name: "lwage", Type: "float"}, Column{Name: "foodexp", Type: "float"}, Column{Name: "ptratio", Type: "float"},
		Column{Name: "sex", Type: "string", Values: []string{"female", "male"}})
	checkCases(t, []parseCase{
		{text: "average log wage by sex", schema: wages, want: want{Table: "wages", Measures: []Measure{{Column: "lwage", Agg: "avg"}},
			GroupBy: []Group{{"sex", ""}}}},
		{text: "average food expenditure by blue collar", schema: wages, want: want{Table: "wages",
			Measures: []Measure{{Column: "foodexp", Agg: "avg"}}, GroupBy: []Group{{"bluecol", ""}}}},
		{text: "average log wage where the pupil-teacher ratio is below 15", schema: wages, want: want{Table: "wages",
			Measures: []Measure{{Column: "lwage", Agg: "avg"}}, Filters: []Filter{{Column: "ptratio", Op: "<", Values: []string{"15"}}}}},
	})
}

// TestAWordOfOneValueDescribingThemAll: "the Scottish council districts"
// describes the districts; it is not the one district whose name starts
// with Scottish. Reported, not applied.
func TestAWordOfOneValueDescribingThemAll(t *testing.T) {
	s := schemaOf("scotvote", Column{Name: "COUNCILDIST", Type: "string", Values: []string{"Aberdeen_City", "Scottish_Borders_The", "Fife"}},
		Column{Name: "COUTAX", Type: "integer"})
	reported(t, s, "Average council tax across the Scottish council districts")
	in, _ := Parse("Average council tax across the Scottish council districts", s, now)
	if in == nil || len(in.Filters) > 0 || len(in.Measures) != 1 || in.Measures[0].Column != "COUTAX" {
		t.Errorf("got %+v; want the average of COUTAX (council tax run together) and no filter", in)
	}
}

// TestPeopleAreNoAbbreviation: "workers" names the rows, not the column
// wks (w, k, s are in it); "weeks worked" over a table with no date is
// wks; "20 years of experience" is exp.
func TestPeopleAreNoAbbreviation(t *testing.T) {
	s := schemaOf("wages", Column{Name: "exp", Type: "integer"}, Column{Name: "wks", Type: "integer"},
		Column{Name: "sex", Type: "string", Values: []string{"female", "male"}})
	in, _ := Parse("average weeks worked for workers with more than 20 years of experience", s, now)
	if in == nil || len(in.Filters) != 1 || in.Filters[0].Column != "exp" || len(in.Measures) != 1 || in.Measures[0].Column != "wks" {
		t.Errorf("got %+v; want the average of wks where exp > 20", in)
	}
	checkCases(t, []parseCase{
		{text: "average weeks worked by sex", schema: s, want: want{Table: "wages", Measures: []Measure{{Column: "wks", Agg: "avg"}},
			GroupBy: []Group{{"sex", ""}}}},
	})
}

// TestAHyphenatedNameInShorthand: "check-in" and "check in" name chk_in_dt
// though "check" is a common verb, as the word after it is the name's
// next; the date's name before a grain is that date by the grain.
func TestAHyphenatedNameInShorthand(t *testing.T) {
	d := func(n, lo, hi string) Column { return Column{Name: n, Type: "date", Min: lo, Max: hi} }
	bk := schemaOf("hotel_bkgs", d("bk_dt", "2021-07-01", "2024-12-31"), d("chk_in_dt", "2021-07-05", "2025-03-01"),
		Column{Name: "chan", Type: "string", Values: []string{"OTA", "Direct"}})
	in2023 := &TimeRange{Column: "chk_in_dt", Start: "2023-01-01", End: "2024-01-01", Label: "2023"}
	count := []Measure{{Agg: "count"}}
	checkCases(t, []parseCase{
		{text: "bookings by check-in date in 2023", schema: bk, want: want{Table: "hotel_bkgs", Measures: count, GroupBy: []Group{{"chk_in_dt", "day"}}, Time: in2023}},
		{text: "bookings by check in date in 2023", schema: bk, want: want{Table: "hotel_bkgs", Measures: count, GroupBy: []Group{{"chk_in_dt", "day"}}, Time: in2023}},
		{text: "bookings by check-in month in 2023", schema: bk, want: want{Table: "hotel_bkgs", Measures: count, GroupBy: []Group{{"chk_in_dt", "month"}}, Time: in2023}},
	})
}
