package intent

import "testing"

// TestSharesRatesAndNames: a share word right before a value is the share
// of the rows it picks, within each group when grouped; "with an X code"
// over a text column keeps the rows where it is not empty; "which large
// airport" filters by the value whose last word names the rows and ranks
// them; an adverb of a unit names the column whose name ends in it; "x"
// between groupings crosses them; an acronym may start with an average;
// a noun of a flag spelled with two l's is its rate.
func TestSharesRatesAndNames(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	i := func(n, lo, hi string) Column { return Column{Name: n, Type: "integer", Min: lo, Max: hi} }
	staff := schemaOf("staff", s("sex", "M", "F"), s("marital", "married", "single"), s("region", "NE", "W"), f("pay_hr"),
		s("billable", "Y", "N"), s("badge_code", "B1", ""))
	ports := schemaOf("ports", Column{Name: "ident", Type: "string"}, s("kind", "large_port", "small_port"), Column{Name: "name", Type: "string"}, f("depth_m"))
	stays := schemaOf("stays", s("stay_id", "S1", "S2"), s("hotel", "City", "Resort"), s("meal", "BB", "HB"), f("adr"), i("is_cancelled", "0", "1"))
	checkCases(t, []parseCase{
		{text: "% married", schema: staff, want: want{Table: "staff", Filters: []Filter{eq("marital", "married")}, Analyses: []string{AnalysisShare}}},
		{text: "pct female by region", schema: staff, want: want{Table: "staff", Filters: []Filter{eq("sex", "F")},
			GroupBy: []Group{{"region", ""}}, Analyses: []string{AnalysisShare}}},
		{text: "fraction non-billable", schema: staff, want: want{Table: "staff", Filters: []Filter{eq("billable", "N")}, Analyses: []string{AnalysisShare}}},
		{text: "share of staff with a badge code", schema: staff, want: want{Table: "staff",
			Filters: []Filter{{Column: "badge_code", Op: "is not null"}}, Analyses: []string{AnalysisShare}}},
		{text: "avg hourly pay by region", schema: staff, want: want{Table: "staff",
			Measures: []Measure{{Column: "pay_hr", Agg: "avg"}}, GroupBy: []Group{{"region", ""}}}},
		{text: "which large port has the greatest depth", schema: ports, want: want{Table: "ports",
			Measures: []Measure{{Column: "depth_m", Agg: "avg"}}, Filters: []Filter{eq("kind", "large_port")}, Top: &TopN{N: 1, Desc: true}}},
		{text: "average daily rate by hotel x meal", schema: stays, want: want{Table: "stays",
			Measures: []Measure{{Column: "adr", Agg: "avg"}}, GroupBy: []Group{{"hotel", ""}, {"meal", ""}}}},
		{text: "cancellation rate by hotel", schema: stays, want: want{Table: "stays",
			Filters: []Filter{eq("is_cancelled", "1")}, GroupBy: []Group{{"hotel", ""}}, Analyses: []string{AnalysisShare}}},
	})
	in, err := Parse("pct female by region", staff, now)
	if err != nil || in.RateOf != "sex" {
		t.Errorf("pct female by region: RateOf = %q, %v; want sex (within each region)", in.RateOf, err)
	}
}

// TestComparedAcrossAndIrregularPlurals: "compared across" a grouping is
// that grouping; "children" is the plural of child.
func TestComparedAcrossAndIrregularPlurals(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	i := func(n, lo, hi string) Column { return Column{Name: n, Type: "integer", Min: lo, Max: hi} }
	stays := schemaOf("stays", s("hotel", "City", "Resort"), f("adr"), i("children", "0", "3"))
	checkCases(t, []parseCase{
		{text: "avg adr compared across hotels", schema: stays, want: want{Table: "stays",
			Measures: []Measure{{Column: "adr", Agg: "avg"}}, GroupBy: []Group{{"hotel", ""}}}},
		{text: "average adr of stays with at least one child", schema: stays, want: want{Table: "stays",
			Measures: []Measure{{Column: "adr", Agg: "avg"}}, Filters: []Filter{{"children", ">=", []string{"1"}}}}},
	})
}

// TestPeopleAndPlaces: "who" ranks the one column of people; people said
// in full name a column of them abbreviated, never a yes/no flag; a
// "gap between" two values compares them; regions coded by compass
// letters are named by their words; pay per hour is averaged.
func TestPeopleAndPlaces(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	sheets := schemaOf("sheets", s("emp", "ana", "ben"), s("proj", "Apollo", "Cygnus"), f("hours"))
	folk := schemaOf("folk", s("sex", "M", "F"), s("region", "NE", "MW", "S", "W"), f("pay_hr"), s("union_mbr", "yes", "no"))
	checkCases(t, []parseCase{
		{text: "who worked the most hours", schema: sheets, want: want{Table: "sheets",
			Measures: []Measure{{Column: "hours", Agg: "sum"}}, Top: &TopN{N: 1, Column: "emp", Desc: true}}},
		{text: "number of distinct employees per proj", schema: sheets, want: want{Table: "sheets",
			Measures: []Measure{{Column: "emp", Agg: "count_distinct"}}, GroupBy: []Group{{"proj", ""}}}},
		{text: "pay gap between men and women", schema: folk, want: want{Table: "folk",
			Measures: []Measure{{Column: "pay_hr", Agg: "avg"}}, Filters: []Filter{{"sex", "in", []string{"M", "F"}}}, GroupBy: []Group{{"sex", ""}}}},
		{text: "median pay_hr in the west", schema: folk, want: want{Table: "folk",
			Measures: []Measure{{Column: "pay_hr", Agg: "median"}}, Filters: []Filter{eq("region", "W")}}},
		{text: "count of union members by region", schema: folk, want: want{Table: "folk",
			Measures: []Measure{countRows}, Filters: []Filter{eq("union_mbr", "yes")}, GroupBy: []Group{{"region", ""}}}},
	})
}

// TestAShareOfAFlagOrATotal: "% of workers married" over a 0/1 column is
// the flag's average; a share of a measure named without an aggregate is a
// share of its total, not of an average.
func TestAShareOfAFlagOrATotal(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	people := schemaOf("people", Column{Name: "married", Type: "integer", Min: "0", Max: "1", Values: []string{"0", "1"}}, f("pay"))
	hours := schemaOf("hours", Column{Name: "emp", Type: "string", Values: []string{"a", "b"}}, f("hrs"),
		Column{Name: "billable", Type: "string", Values: []string{"Y", "N"}})
	checkCases(t, []parseCase{
		{text: "% of workers married", schema: people, want: want{Table: "people", Measures: []Measure{{Column: "married", Agg: "avg", Scale: 0.01}}}},
		{text: "fraction of people married", schema: people, want: want{Table: "people", Measures: []Measure{{Column: "married", Agg: "avg"}}}},
		{text: "What fraction of all logged hours were non-billable?", schema: hours, want: want{Table: "hours",
			Measures: []Measure{{Column: "hrs", Agg: "sum"}}, Filters: []Filter{eq("billable", "N")}, Analyses: []string{AnalysisShare}}},
	})
	// an average said is not made a total
	if in, err := Parse("share of average hrs that were billable", hours, now); err == nil && in.Measures[0].Agg != "avg" {
		t.Errorf("a share of the average hrs read as %+v", in.Measures)
	}
}

// TestBookingsOfATableOfBookings: over a table whose name says its rows
// are bookings, "bookings" counts them; with a money column too, the
// count or the money is not said (a hotel counts its bookings, a sales
// team sums them) and is reported.
func TestBookingsOfATableOfBookings(t *testing.T) {
	chans := Column{Name: "chan", Type: "string", Values: []string{"OTA", "Direct"}}
	nights := Column{Name: "nts", Type: "integer", Min: "1", Max: "14"}
	bk := schemaOf("hotel_bkgs", chans, nights)
	checkCases(t, []parseCase{
		{text: "share of bookings through OTA", schema: bk, want: want{Table: "hotel_bkgs", Measures: []Measure{{Agg: "count"}},
			Filters: []Filter{eq("chan", "OTA")}, Analyses: []string{AnalysisShare},
			Understood: []string{"bookings -> count of rows (each row of hotel_bkgs is one)"}}},
		{text: "total bookings by chan", schema: bk, want: want{Table: "hotel_bkgs", Measures: []Measure{{Agg: "count"}}, GroupBy: []Group{{"chan", ""}}}},
	})
	reported(t, schemaOf("bookings", chans, nights, Column{Name: "acv_usd", Type: "float"}), "total bookings by chan", "share of bookings through OTA")
}

// TestAShareOfRowsSaidBeforeItsVerb: the values between the rows' noun
// and the verb that says the part pick the whole.
func TestAShareOfRowsSaidBeforeItsVerb(t *testing.T) {
	bk := schemaOf("bkgs", Column{Name: "chan", Type: "string", Values: []string{"OTA", "Direct"}},
		Column{Name: "city", Type: "string", Values: []string{"Lisbon", "Porto"}})
	in, err := Parse("What share of bookings at our Lisbon hotels came through OTAs?", bk, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.ShareWithin) != 1 || in.ShareWithin[0] != "city" {
		t.Errorf("ShareWithin = %v, want the share of the Lisbon bookings (filters %v)", in.ShareWithin, in.Filters)
	}
}
