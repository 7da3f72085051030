package intent

// Requests the reviewers of the twelfth session found answered as other
// questions by that session's new rules; each must be read right or
// reported.

import "testing"

func rbD(n, a, b string) Column        { return Column{Name: n, Type: "date", Min: a, Max: b} }
func rbI(n, a, b string) Column        { return Column{Name: n, Type: "integer", Min: a, Max: b} }
func rbF(n string) Column              { return Column{Name: n, Type: "float"} }
func rbS(n string, v ...string) Column { return Column{Name: n, Type: "string", Values: v} }

// schema.go colsAt (date name before a grain): "delivery days" is read as
// delivery_date and the question becomes a count of shipments.
func TestRevBDeliveryDaysCountedAsRows(t *testing.T) {
	sh := schemaOf("shipments", rbS("shipment_id"), rbD("order_date", "2023-01-01", "2024-12-31"),
		rbD("delivery_date", "2023-01-03", "2025-01-10"), rbS("carrier", "UPS", "FedEx"), rbF("cost"))
	reported(t, sh, "how many delivery days by carrier")
}

// abbrev.go abbreviationBeside + schema.go hyphenAt: "check-in hour by
// hotel" was avg(chk_in_hr) by hotel; now no measure, rows counted.
func TestRevBCheckInHourLosesItsMeasure(t *testing.T) {
	h := schemaOf("stays", rbS("stay_id"), rbD("chk_in_dt", "2023-01-01", "2024-12-31"), rbS("hotel", "Lisbon", "Porto"),
		rbF("adr"), rbI("chk_in_hr", "0", "23"))
	for _, q := range []string{"check-in hour by hotel", "check in hour by hotel"} {
		in, err := Parse(q, h, now)
		if err != nil {
			continue
		}
		if len(in.Unknown) == 0 && (len(in.Measures) != 1 || in.Measures[0].Column != "chk_in_hr") {
			t.Errorf("%q: measures %v, want chk_in_hr (as before) or an Unknown; understood %q", q, in.Measures, in.Understood)
		}
	}
}

// spans.go dateSpans: "between" is unordered; the later date first gives
// negative days and "longest" picks the shortest gap (max of negatives).
func TestRevBLongestGapBetweenReversed(t *testing.T) {
	o := schemaOf("orders", rbS("order_id"), rbD("order_date", "2023-01-01", "2024-12-31"), rbD("ship_date", "2023-01-02", "2025-01-05"), rbF("sales"))
	in, err := Parse("longest gap between ship_date and order_date", o, now)
	if err == nil && len(in.Unknown) == 0 && len(in.Measures) == 1 && in.Measures[0].Since == "ship_date" && in.Measures[0].Agg == "max" {
		t.Errorf("longest gap between ship_date and order_date = max(order_date - ship_date): the shortest gap, negated")
	}
}

// group.go per-day perRow + unknown.go periodsOfParts: a table of events
// with year/month/day columns, fewer rows than days, is taken as one row
// a day; "average fatalities per day" becomes the average per accident.
func TestRevBEventsPerDayReadAsRows(t *testing.T) {
	a := schemaOf("accidents", rbI("year", "2005", "2024"), rbI("month", "1", "12"), rbI("day", "1", "31"),
		rbS("state", "CA", "TX"), rbI("fatalities", "0", "9"), rbI("injuries", "0", "40"))
	a.Tables[0].Rows = 5000 // 7305 days: some days have 2+ accidents, many none
	for _, q := range []string{"average fatalities per day", "how many days had more than 2 fatalities"} {
		in, err := Parse(q, a, now)
		if err == nil && len(in.Unknown) == 0 && len(in.GroupBy) == 0 {
			t.Errorf("%q: measures %v filters %v understood %q: read as one row a day over a table of accidents", q, in.Measures, in.Filters, in.Understood)
		}
	}
}

// measure.go rowsNamed: "total bookings" over a table named bookings whose
// rows carry the booked amount was sum(acv_usd); now a count of deals.
func TestRevBSaaSBookingsCounted(t *testing.T) {
	sa := schemaOf("bookings", rbS("deal_id"), rbD("close_date", "2024-01-01", "2024-12-31"), rbS("region", "EMEA", "AMER"), rbF("acv_usd"))
	in, err := Parse("total bookings by region", sa, now)
	if err == nil && len(in.Unknown) == 0 && len(in.Measures) == 1 && in.Measures[0].Column == "" {
		t.Errorf("total bookings by region over bookings(acv_usd): count of rows, silently (understood %q)", in.Understood)
	}
}
