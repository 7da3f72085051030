package intent

import "testing"

// TestNoOverreach: requests the newer readings must not answer as another
// question (each found by review): a lower-case "us", a span of time
// "within" days, a number outside the age column's range, ages of two
// groups, "between" two values of an order, "with a region breakdown", a
// period or a negation in a glossed phrase, "hourly trips", an acronym of
// an abbreviation, and the value a bare share is of.
func TestNoOverreach(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	i := func(n, lo, hi string) Column { return Column{Name: n, Type: "integer", Min: lo, Max: hi} }
	d := func(n, lo, hi string) Column { return Column{Name: n, Type: "date", Min: lo, Max: hi} }
	subs := schemaOf("subscriptions", d("signup_date", "2022-01-01", "2024-06-30"), s("plan", "Basic", "Pro"), f("revenue"))
	visits := schemaOf("visits", d("visit_date", "2022-01-01", "2024-06-30"), i("age", "18", "90"), s("sex", "Male", "Female"),
		f("height_cm"), f("weight"), f("cost"))
	tickets := schemaOf("tickets", s("priority", "Low", "Medium", "High", "Critical"), s("team", "A", "B"), f("hours"))
	staff := schemaOf("staff", s("marital", "married", "single"), s("region", "NE", "W"), f("pay_hr"), s("dept", "Ops", "Sales"))
	sales := schemaOf("sales", d("order_date", "2022-01-01", "2024-06-30"), s("region", "East", "West"), f("amount"))
	homes := schemaOf("households", s("hh_id"), s("reg", "North", "South"), f("inc_x9"), i("elec", "0", "1"))
	trips := schemaOf("trips", Column{Name: "start_time", Type: "timestamp", Min: "2024-01-01", Max: "2024-12-31"},
		s("station", "A", "B"), f("trip_hours"))
	bookings := schemaOf("bookings", d("arrival_date", "2016-01-01", "2018-12-31"), s("hotel", "City", "Resort"), f("adr"), f("amt"))
	reported(t, subs, "revenue within 30 days", "total revenue within 30 days of signup")
	reported(t, visits, "average cost for patients within 30 days", "average weight of males over 180",
		"avg cost for women aged over 60 and men aged under 40")
	reported(t, tickets, "number of tickets with priority between Low and High")
	reported(t, trips, "average hourly trips by station")
	reported(t, bookings, "average monthly tips by hotel")
	// two values of one column, both required, leave no row
	reported(t, schemaOf("trial", i("ps", "0", "2"), f("ast")), "avg ast for ps 0 and for ps 2")
	checkCases(t, []parseCase{
		{text: "total pay_hr with a region breakdown", schema: staff, want: want{Table: "staff",
			Measures: []Measure{{Column: "pay_hr", Agg: "sum"}}, GroupBy: []Group{{"region", ""}}}},
		{text: "how many households without electricity (elec)", schema: homes, want: want{Table: "households",
			Measures: []Measure{{Column: "hh_id", Agg: "count_distinct"}}, Filters: []Filter{{"elec", "<=", []string{"0"}}}}},
	})
	in, err := Parse("total amount last year (amount)", sales, now)
	if err != nil || in.Time == nil {
		t.Errorf("total amount last year (amount): %v, Time %+v; want last year kept", err, in)
	}
	for range 30 {
		in, err := Parse("pct married in NE by dept", staff, now)
		if err != nil || in.RateOf != "marital" {
			t.Fatalf("pct married in NE by dept: RateOf %q, %v; want marital, the value after the share word", in.RateOf, err)
		}
	}
}

// TestOlderIsAnAge: "or older" says an age; without an age column it is
// reported, not read as a count of people at least that large.
func TestOlderIsAnAge(t *testing.T) {
	towns := schemaOf("towns", Column{Name: "POPTOT", Type: "integer", Min: "10", Max: "400000"}, Column{Name: "Pop65P", Type: "integer"})
	reported(t, towns, "What share of the population is 65 or older?")
}
