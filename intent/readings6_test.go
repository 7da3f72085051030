package intent

import "testing"

// assays is a table of soil samples whose metals are columns named by
// their chemical symbols, with a land use written as one word.
func assays() Schema {
	f := func(n string) Column { return Column{Name: n, Type: "float", Min: "0.1", Max: "900"} }
	return schemaOf("soil_assays",
		Column{Name: "site_no", Type: "integer", Min: "1", Max: "300"},
		f("Cd"), f("Cr"), f("Cu"), f("Pb"), f("Zn"),
		Column{Name: "landuse", Type: "string", Values: []string{"Forest", "Meadow", "Pasture"}},
		Column{Name: "rock", Type: "string", Values: []string{"Argovian", "Sequanian"}})
}

// TestElementsBySymbol: in a table whose columns are chemical symbols, an
// element's name is its symbol ("copper" is Cu, never Cr by its first and
// last letters); an element without a column is reported, not read as
// another.
func TestElementsBySymbol(t *testing.T) {
	s := assays()
	understoodAll(t, []parseCase{
		{"mean copper by rock", s, want{Table: "soil_assays", Measures: []Measure{{Column: "Cu", Agg: "avg"}}, GroupBy: []Group{{Column: "rock"}}}},
		{"max lead (Pb) concentration for forest sites", s, want{Table: "soil_assays", Measures: []Measure{{Column: "Pb", Agg: "max"}},
			Filters: []Filter{eq("landuse", "Forest")}}},
		{"avg chromium level", s, want{Table: "soil_assays", Measures: []Measure{{Column: "Cr", Agg: "avg"}}}},
	})
	reported(t, s, "mean cobalt by rock", "avg cerium")
	// one column that happens to be a symbol is no table of elements
	one := schemaOf("deliveries", Column{Name: "Co", Type: "integer", Min: "0", Max: "9"},
		Column{Name: "courier", Type: "string", Values: []string{"DHL", "UPS"}})
	if in, err := Parse("total Co by courier", one, now); err != nil || len(in.Measures) != 1 || in.Measures[0].Column != "Co" {
		t.Errorf("Parse(total Co by courier) = %+v, %v; want the sum of Co", in, err)
	}
}

// TestNameWrittenAsOneWord: a column's name written as one word is said
// in its words, the last of which may be a small one ("land use" for
// landuse); R's X before a header that began with a digit is not said.
func TestNameWrittenAsOneWord(t *testing.T) {
	s := assays()
	deca := schemaOf("decathlon", Column{Name: "Athlete", Type: "string", Values: []string{"SEBRLE", "CLAY"}},
		Column{Name: "X1500m", Type: "float", Min: "262", Max: "317"},
		Column{Name: "Competition", Type: "string", Values: []string{"Decastar", "OlympicG"}})
	understoodAll(t, []parseCase{
		{"avg Zn by land use", s, want{Table: "soil_assays", Measures: []Measure{{Column: "Zn", Agg: "avg"}}, GroupBy: []Group{{Column: "landuse"}}}},
		{"mean copper for each combination of land use and rock type", s, want{Table: "soil_assays",
			Measures: []Measure{{Column: "Cu", Agg: "avg"}}, GroupBy: []Group{{Column: "landuse"}, {Column: "rock"}}}},
		{"mean 1500m time at Decastar", deca, want{Table: "decathlon", Measures: []Measure{{Column: "X1500m", Agg: "avg"}},
			Filters: []Filter{eq("Competition", "Decastar")}}},
	})
	// a combination of one grouping is no combination
	reported(t, s, "mean copper for each combination of rock", "avg Zn by land for use")
}

// TestRowsNamedAndCounted: the rows named as what they are are counted
// ("number of students"), and also after "among"; "most common" ranks by
// that count; "no" or "zero" before a column that counts things is 0; a
// word that lists a second measure after the first is one.
func TestRowsNamedAndCounted(t *testing.T) {
	phd := schemaOf("biochem_phd", Column{Name: "art", Type: "integer", Min: "0", Max: "19"},
		Column{Name: "mar", Type: "string", Values: []string{"Married", "Single"}},
		Column{Name: "kid5", Type: "integer", Min: "0", Max: "3"}, Column{Name: "phd", Type: "float", Min: "0.7", Max: "4.6"},
		Column{Name: "age_band", Type: "string", Values: []string{"18-24", "25-34"}})
	count := []Measure{{Agg: "count"}}
	understoodAll(t, []parseCase{
		{"number of students who are married", phd, want{Table: "biochem_phd", Measures: count, Filters: []Filter{eq("mar", "Married")}}},
		{"number of students with more than 3 articles", phd, want{Table: "biochem_phd", Measures: count,
			Filters: []Filter{{"art", ">", []string{"3"}}}}},
		{"How many students published no articles at all?", phd, want{Table: "biochem_phd", Measures: count,
			Filters: []Filter{{"art", "=", []string{"0"}}}}},
		{"count students with zero kid5", phd, want{Table: "biochem_phd", Measures: count, Filters: []Filter{{"kid5", "=", []string{"0"}}}}},
		{"which age band is most common among students who are married", phd, want{Table: "biochem_phd", Measures: count,
			Filters: []Filter{eq("mar", "Married")}, Top: &TopN{N: 1, Column: "age_band", Desc: true}}},
	})
	// "published" is no abbreviation of phd
	if in, err := Parse("avg phd of students who published more than 5 articles", phd, now); err != nil ||
		len(in.Filters) != 1 || in.Filters[0].Column != "art" {
		t.Errorf("Parse(published more than 5 articles) = %+v, %v; want art > 5", in, err)
	}
	// "no more than" is a bound, not a zero
	checkCases(t, []parseCase{{"number of students with no more than 2 articles", phd, want{Table: "biochem_phd", Measures: count,
		Filters: []Filter{{"art", "<=", []string{"2"}}}}}})

	bk := schemaOf("cw_bookings", Column{Name: "bk_id", Type: "string", Values: []string{"BK1", "BK2"}},
		Column{Name: "space", Type: "string", Values: []string{"Hot desk", "Private office"}},
		Column{Name: "amt_usd", Type: "float", Min: "5", Max: "900"})
	understoodAll(t, []parseCase{{"median amt_usd for hot desk bookings", bk, want{Table: "cw_bookings",
		Measures: []Measure{{Column: "amt_usd", Agg: "median"}}, Filters: []Filter{eq("space", "Hot desk")}}}})
	// a second measure listed: bookings counted or summed is not told
	reported(t, bk, "total amt_usd and bookings by space")
}

// TestValuesOfSeveralLabels: a column whose values join labels that are
// values themselves ("Fog-Snow" beside "Fog" and "Snow") is filtered on
// the label said wherever it occurs; an age band's "25-34" is no labels,
// and a column grouped by keeps its values as groups.
func TestValuesOfSeveralLabels(t *testing.T) {
	s := schemaOf("weather", Column{Name: "date", Type: "date", Min: "2021-01-01", Max: "2021-12-31"},
		Column{Name: "events", Type: "string", Values: []string{"Fog", "Fog-Snow", "Rain", "Rain-Snow", "Snow", "Sun"}},
		Column{Name: "age_band", Type: "string", Values: []string{"18-24", "25-34", "35-44"}},
		Column{Name: "precip_mm", Type: "float", Min: "0", Max: "40"})
	avg := []Measure{{Column: "precip_mm", Agg: "avg"}}
	checkCases(t, []parseCase{
		{"avg precip on snow days", s, want{Table: "weather", Measures: avg, Filters: []Filter{{"events", "in", []string{"Snow", "Fog-Snow", "Rain-Snow"}}}}},
		{"avg precip on days without Fog", s, want{Table: "weather", Measures: avg,
			Filters: []Filter{{"events", "!=", []string{"Fog"}}, {"events", "!=", []string{"Fog-Snow"}}}}},
		{"avg precip for 25-34", s, want{Table: "weather", Measures: avg, Filters: []Filter{eq("age_band", "25-34")}}},
		{"avg precip Fog vs Snow", s, want{Table: "weather", Measures: avg, Filters: []Filter{{"events", "in", []string{"Fog", "Snow"}}},
			GroupBy: []Group{{Column: "events"}}}},
	})
}

// TestShareOfAValueByTheRanked: "which make has the highest share of
// SUVs" ranks the SUV part of each make's cars, the share a make has; not
// each make's part of all the SUVs, which would rank their counts.
func TestShareOfAValueByTheRanked(t *testing.T) {
	s := schemaOf("cars", Column{Name: "car_id", Type: "string", Values: []string{"C1", "C2"}},
		Column{Name: "make", Type: "string", Values: []string{"Ford", "Kia"}},
		Column{Name: "body", Type: "string", Values: []string{"SUV", "sedan"}})
	in, err := Parse("which make has the highest share of SUVs", s, now)
	if err != nil || in.RateOf != "body" || in.Top == nil || in.Top.Column != "make" || len(in.Unknown) > 0 {
		t.Errorf("Parse(which make has the highest share of SUVs) = %+v, %v; want the rate of body within each make", in, err)
	}
}

// TestEachRowsRatio: an average, a median or an extreme of a ratio whose
// numerator does not add up, or of a ratio said as one after an average,
// is of each row's ratio ("the average price per horsepower"); a price
// per its own units is the price, and without an aggregate the kind of
// ratio is not said.
func TestEachRowsRatio(t *testing.T) {
	s := schemaOf("cars", Column{Name: "make", Type: "string", Values: []string{"Ford", "Kia"}},
		Column{Name: "price_usd", Type: "integer", Min: "15000", Max: "70000"}, Column{Name: "hp", Type: "integer", Min: "90", Max: "400"},
		Column{Name: "units", Type: "integer", Min: "1", Max: "40"}, Column{Name: "wins", Type: "integer", Min: "0", Max: "30"},
		Column{Name: "losses", Type: "integer", Min: "0", Max: "30"})
	over := func(agg, col, by string) []Measure { return []Measure{{Column: col, Agg: agg, Over: by}} }
	understoodAll(t, []parseCase{
		{"avg price per hp by make", s, want{Table: "cars", Measures: over("avg", "price_usd", "hp"), GroupBy: []Group{{"make", ""}}}},
		{"median price_usd / hp", s, want{Table: "cars", Measures: over("median", "price_usd", "hp")}},
		{"which make has the highest average price-to-hp ratio", s, want{Table: "cars", Measures: over("avg", "price_usd", "hp"),
			Top: &TopN{1, "make", true}}},
		{"average ratio of wins to losses", s, want{Table: "cars", Measures: over("avg", "wins", "losses")}},
	})
	checkCases(t, []parseCase{{"ratio of wins to losses", s, want{Table: "cars", Measures: []Measure{{Column: "wins", Agg: "sum", Per: "losses"}}}}})
	reported(t, s, "price per hp", "avg price per unit", "total price per hp")
}

// TestDailyReadings: a speed or a temperature read once a day has no
// day's total: "the highest daily wind speed" and "the average daily
// speed" are of the rows, not grouped by day; an amount's daily total
// still is. A unit said after a number ("25 knots") names the column in
// it; "ever" and "over the whole record" keep every row.
func TestDailyReadings(t *testing.T) {
	s := schemaOf("wind_daily", Column{Name: "date", Type: "date", Min: "1961-01-01", Max: "1978-12-31"},
		Column{Name: "stn", Type: "string", Values: []string{"VAL", "CLA", "BIR"}},
		Column{Name: "speed_kn", Type: "float", Min: "0", Max: "60"}, Column{Name: "rain_mm", Type: "float", Min: "0", Max: "90"})
	at := []Filter{eq("stn", "VAL")}
	understoodAll(t, []parseCase{
		{"What was the strongest daily wind speed ever recorded at VAL?", s, want{Table: "wind_daily",
			Measures: []Measure{{Column: "speed_kn", Agg: "max"}}, Filters: at}},
		{"which stn had the highest average daily speed over the whole record", s, want{Table: "wind_daily",
			Measures: []Measure{{Column: "speed_kn", Agg: "avg"}}, Top: &TopN{1, "stn", true}}},
		{"how many rows where the wind exceeded 25 knots at VAL", s, want{Table: "wind_daily", Measures: []Measure{{Agg: "count"}},
			Filters: []Filter{{"speed_kn", ">", []string{"25"}}, eq("stn", "VAL")}}},
	})
	checkCases(t, []parseCase{{"highest daily rain_mm", s, want{Table: "wind_daily", Measures: []Measure{{Column: "rain_mm", Agg: "max"}},
		GroupBy: []Group{{"date", "day"}}}}})
}

// TestHighAndLowOfAPair: "low temperature" over min_temp_f and max_temp_f
// is the min; a request opened by "send me" asks; "the different cities"
// are the cities grouped.
func TestHighAndLowOfAPair(t *testing.T) {
	s := schemaOf("weather", Column{Name: "city", Type: "string", Values: []string{"Oslo", "Bergen"}},
		Column{Name: "max_temp_f", Type: "integer", Min: "20", Max: "90"}, Column{Name: "min_temp_f", Type: "integer", Min: "-10", Max: "60"},
		Column{Name: "precip_mm", Type: "float", Min: "0", Max: "40"})
	understoodAll(t, []parseCase{
		{"avg low temperature in Oslo", s, want{Table: "weather", Measures: []Measure{{Column: "min_temp_f", Agg: "avg"}},
			Filters: []Filter{eq("city", "Oslo")}}},
		{"send me the avg high temp for the different cities", s, want{Table: "weather", Measures: []Measure{{Column: "max_temp_f", Agg: "avg"}},
			GroupBy: []Group{{"city", ""}}}},
	})
	// "low precip" names no pair
	reported(t, s, "avg max_temp_f for low precip days")
}

// TestParticipleOfAnAmount: "discounted" said of the rows keeps those with
// a discount above 0, never measures the discount beside the price; a
// "discounted price" is a measure no column holds, reported.
func TestParticipleOfAnAmount(t *testing.T) {
	s := schemaOf("autos", Column{Name: "make", Type: "string", Values: []string{"Ford", "Kia"}},
		Column{Name: "price", Type: "integer", Min: "15000", Max: "70000"}, Column{Name: "discount_pct", Type: "integer", Min: "0", Max: "15"},
		Column{Name: "delta", Type: "integer", Min: "-5", Max: "5"})
	avg := []Measure{{Column: "price", Agg: "avg"}}
	disc := []Filter{{"discount_pct", ">", []string{"0"}}}
	understoodAll(t, []parseCase{
		{"avg price of discounted cars only", s, want{Table: "autos", Measures: avg, Filters: disc}},
		{"avg price by make, discounted only", s, want{Table: "autos", Measures: avg, Filters: disc, GroupBy: []Group{{"make", ""}}}},
	})
	reported(t, s, "avg discounted price by make")
}

// TestTheSubjectAveraged: "avg wind" over a table of wind readings names
// no column, however few it has: reported, never the one measure nor a
// count. A column's word rewritten to "mar" is no March.
func TestTheSubjectAveraged(t *testing.T) {
	s := schemaOf("wind_daily", Column{Name: "date", Type: "date", Min: "1961-01-01", Max: "1978-12-31"},
		Column{Name: "stn", Type: "string", Values: []string{"VAL", "BIR"}}, Column{Name: "speed_kn", Type: "float", Min: "0", Max: "60"})
	reported(t, s, "yearly avg wind at BIR", "total wind")
	phd := schemaOf("phd", Column{Name: "enrolled", Type: "date", Min: "2001-01-01", Max: "2010-12-31"},
		Column{Name: "art", Type: "integer", Min: "0", Max: "19"}, Column{Name: "mar", Type: "string", Values: []string{"Married", "Single"}})
	understoodAll(t, []parseCase{{"avg art by marital status", phd, want{Table: "phd", Measures: []Measure{{Column: "art", Agg: "avg"}},
		GroupBy: []Group{{"mar", ""}}}}})
}

// TestANumberOfThingsSaidAfterIt: "at least 10 measurements" is the
// column that counts them (n_meas), and "at least 10 readings", which no
// column counts, is reported, never a price of at least 10.
func TestANumberOfThingsSaidAfterIt(t *testing.T) {
	s := schemaOf("lab", Column{Name: "sample_id", Type: "integer", Min: "1", Max: "90"},
		Column{Name: "price", Type: "float", Min: "5", Max: "90"}, Column{Name: "n_meas", Type: "integer", Min: "0", Max: "20"})
	checkCases(t, []parseCase{{"rows with at least 10 measurements", s, want{Table: "lab", Measures: []Measure{{Agg: "count"}},
		Filters: []Filter{{"n_meas", ">=", []string{"10"}}}}}})
	reported(t, s, "rows with at least 10 readings")
}

// TestAPeriodACountIsOver: over a table with no dates, "per week" after a
// column of hours or a count says the period it is counted over; after a
// grade it is reported. A column's whole name written as one word
// ("StudyHrs") is that column, never an abbreviation of its first word.
func TestAPeriodACountIsOver(t *testing.T) {
	s := schemaOf("students", Column{Name: "Sex", Type: "string", Values: []string{"Male", "Female"}},
		Column{Name: "StudyHrs", Type: "integer", Min: "0", Max: "40"}, Column{Name: "GPA", Type: "float", Min: "2", Max: "4"})
	understoodAll(t, []parseCase{
		{"median StudyHrs per week by Sex", s, want{Table: "students", Measures: []Measure{{Column: "StudyHrs", Agg: "median"}},
			GroupBy: []Group{{"Sex", ""}}}},
		{"avg study hours per week, all students", s, want{Table: "students", Measures: []Measure{{Column: "StudyHrs", Agg: "avg"}}}},
	})
	reported(t, s, "avg GPA per week")
}

// TestPerHowManyPeople: "per 100k" and "per 1,000 residents" are a ratio
// to the population column for that many people, of totals or, under a
// median, of each row; "1000 residents" is no population of 1000, and
// "per 1000" alone is reported.
func TestPerHowManyPeople(t *testing.T) {
	s := schemaOf("counties", Column{Name: "county", Type: "string", Values: []string{"C1", "C2"}},
		Column{Name: "state", Type: "string", Values: []string{"TX", "CA"}}, Column{Name: "cases", Type: "integer", Min: "10", Max: "9000"},
		Column{Name: "pop", Type: "integer", Min: "5000", Max: "900000"}, Column{Name: "doctors", Type: "integer", Min: "5", Max: "3000"})
	understoodAll(t, []parseCase{
		{"cases per 100k by state", s, want{Table: "counties", Measures: []Measure{{Column: "cases", Agg: "sum", Per: "pop", PerHowMany: 1e5}},
			GroupBy: []Group{{"state", ""}}}},
		{"which county has the most doctors per 1000 residents", s, want{Table: "counties",
			Measures: []Measure{{Column: "doctors", Agg: "sum", Per: "pop", PerHowMany: 1000}}, Top: &TopN{1, "county", true}}},
		{"median cases per 100,000 people", s, want{Table: "counties", Measures: []Measure{{Column: "cases", Agg: "median", Over: "pop", PerHowMany: 1e5}}}},
	})
	reported(t, s, "avg doctors per 1000")
}

// TestReviewSix: readings the session's rules must not make (review A and
// B): a ratio put on another measure or across groupings, labels widened
// in places or where the value was said alone, "and" finishing a
// column's name, a pair of °F and °C columns, "for the whole history
// class", "share over time", a ranking of a value fixed by a filter, a
// zero below a column's range; and requests ending in a superlative or
// "number of" do not panic.
func TestReviewSix(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "integer", Min: "1", Max: "90"} }
	teams := schemaOf("teams", Column{Name: "team", Type: "string", Values: []string{"Ajax", "PSV"}}, f("wins"), f("losses"), f("attendance"),
		f("cylinders"), f("doors"), Column{Name: "price", Type: "float", Min: "1", Max: "90"})
	reported(t, teams, "average attendance and wins-to-losses ratio by team", "max wins and the ratio of wins to losses by team")
	checkCases(t, []parseCase{{"avg price by cylinders/doors", teams, want{Table: "teams", Measures: []Measure{{Column: "price", Agg: "avg"}},
		GroupBy: []Group{{"cylinders", ""}, {"doors", ""}}}}})
	region := Column{Name: "region", Type: "string", Values: []string{"East", "West", "North", "North-East", "South-East", "South"}}
	events := Column{Name: "events", Type: "string", Values: []string{"Fog", "Fog-Snow", "Rain", "Rain-Snow", "Snow"}}
	w := schemaOf("w", region, events, Column{Name: "amount", Type: "float", Min: "0", Max: "90"})
	sum := []Measure{{Column: "amount", Agg: "sum"}}
	checkCases(t, []parseCase{
		{"total amount in the East", w, want{Table: "w", Measures: sum, Filters: []Filter{eq("region", "East")}}},
		{"total amount on days with only Snow", w, want{Table: "w", Measures: sum, Filters: []Filter{eq("events", "Snow")}}},
		{"total amount on Snow and Fog-Snow days", w, want{Table: "w", Measures: sum, Filters: []Filter{{"events", "in", []string{"Snow", "Fog-Snow"}}}}},
	})
	hr := schemaOf("hr", Column{Name: "band", Type: "string", Values: []string{"B1", "B2"}}, Column{Name: "dept", Type: "string", Values: []string{"Ops", "IT"}},
		f("bonus"), f("salary"))
	checkCases(t, []parseCase{{"total bonus and salary by dept", hr, want{Table: "hr",
		Measures: []Measure{{Column: "bonus", Agg: "sum"}, {Column: "salary", Agg: "sum"}}, GroupBy: []Group{{"dept", ""}}}}})
	temps := schemaOf("temps", Column{Name: "city", Type: "string", Values: []string{"Oslo", "Rome"}}, f("max_temp_f"), f("min_temp_f"), f("max_temp_c"), f("min_temp_c"))
	reported(t, temps, "avg high temp by city")
	grades := schemaOf("grades", Column{Name: "subject", Type: "string", Values: []string{"History", "Math"}}, f("score"))
	checkCases(t, []parseCase{{"avg score for the whole history class", grades, want{Table: "grades",
		Measures: []Measure{{Column: "score", Agg: "avg"}}, Filters: []Filter{eq("subject", "History")}}}})
	tickets := schemaOf("tickets", Column{Name: "category", Type: "string", Values: []string{"Bug", "Feature"}},
		Column{Name: "priority", Type: "string", Values: []string{"High", "Low"}}, Column{Name: "rating", Type: "integer", Min: "1", Max: "5"})
	reported(t, tickets, "is Bug the most common category among High priority", "count tickets with zero rating")
	for _, text := range []string{"art highest", "list models with hp lowest", "losses number of"} {
		Parse(text, teams, now) // no panic
	}
}

// TestPriceOfAnAmountPaid: "average price per litre" over a table of
// fills with the amount paid and the litres is the total paid over the
// total litres; "price per km" over an odometer is reported.
func TestPriceOfAnAmountPaid(t *testing.T) {
	s := schemaOf("fleet_fuel", Column{Name: "depot", Type: "string", Values: []string{"York", "Hull"}},
		Column{Name: "litres", Type: "float", Min: "5", Max: "90"}, Column{Name: "amt_eur", Type: "float", Min: "5", Max: "200"},
		Column{Name: "odo_km", Type: "integer", Min: "1000", Max: "300000"})
	understoodAll(t, []parseCase{{"avg price per litre by depot", s, want{Table: "fleet_fuel",
		Measures: []Measure{{Column: "amt_eur", Agg: "sum", Per: "litres"}}, GroupBy: []Group{{"depot", ""}}}}})
	reported(t, s, "price per km", "total amt_eur and cost per litre")
}

// TestWhoPaid: "we paid" after a measure says how it came about.
func TestWhoPaid(t *testing.T) {
	s := schemaOf("fuel", Column{Name: "depot", Type: "string", Values: []string{"York", "Hull"}}, Column{Name: "amt_eur", Type: "float", Min: "5", Max: "200"})
	understoodAll(t, []parseCase{{"total amt_eur we paid by depot", s, want{Table: "fuel", Measures: []Measure{{Column: "amt_eur", Agg: "sum"}},
		GroupBy: []Group{{"depot", ""}}}}})
}

// TestConditionsOnAGroupsAggregate: "makes with avg price above 40k" is a
// condition on each make's average, which no row filter answers:
// reported. "% of cars discounted" keeps the discounted rows as the part;
// by make, whose share is meant is not said.
func TestConditionsOnAGroupsAggregate(t *testing.T) {
	s := schemaOf("autos", Column{Name: "make", Type: "string", Values: []string{"Ford", "Kia"}},
		Column{Name: "price", Type: "integer", Min: "15000", Max: "70000"}, Column{Name: "discount_pct", Type: "integer", Min: "0", Max: "15"})
	reported(t, s, "makes with avg price above 40k", "makes with an average price over 40000", "share of cars discounted, by make")
	checkCases(t, []parseCase{{"avg price where price above 40k", s, want{Table: "autos", Measures: []Measure{{Column: "price", Agg: "avg"}},
		Filters: []Filter{{"price", ">", []string{"40000"}}}}}})
	if in, err := Parse("% of cars discounted", s, now); err != nil || len(in.Filters) != 1 || in.Filters[0].Column != "discount_pct" || len(in.Measures) > 0 {
		t.Errorf("Parse(%% of cars discounted) = %+v, %v; want the share of rows with discount_pct > 0", in, err)
	}
}

// TestItsColumn: "the cheapest car and its make" ranks the cars and shows
// the make of the one found, never the makes by their average price.
func TestItsColumn(t *testing.T) {
	s := schemaOf("Cars93", Column{Name: "make", Type: "string", Values: []string{"Ford", "Kia"}},
		Column{Name: "model", Type: "string", Values: []string{"F1", "K1"}}, Column{Name: "price", Type: "integer", Min: "15000", Max: "70000"})
	in, err := Parse("cheapest car and its make", s, now)
	if err != nil || in.Top == nil || in.Top.Column != "" || len(in.GroupBy) > 0 || len(in.Unknown) > 0 {
		t.Errorf("Parse(cheapest car and its make) = %+v, %v; want the cheapest row, no grouping", in, err)
	}
}

// TestMostPowerful: "the most powerful car" ranks the rows by horsepower.
func TestMostPowerful(t *testing.T) {
	s := schemaOf("Cars93", Column{Name: "make", Type: "string", Values: []string{"Ford", "Kia"}},
		Column{Name: "horsepower", Type: "integer", Min: "90", Max: "400"}, Column{Name: "price", Type: "integer", Min: "15000", Max: "70000"})
	in, err := Parse("most powerful car", s, now)
	if err != nil || in.Top == nil || !in.Top.Desc || len(in.Measures) != 1 || in.Measures[0].Column != "horsepower" || len(in.Unknown) > 0 {
		t.Errorf("Parse(most powerful car) = %+v, %v; want the rows ranked by horsepower", in, err)
	}
}

// TestBookingsThatGotADiscount: "got a discount" keeps the rows with one;
// "bookings" after a measure are the rows, and beside another measure in
// a table of booking_id rows whether they are counted or summed is asked;
// "the pipits counted" adds no filter on the counts.
func TestBookingsThatGotADiscount(t *testing.T) {
	s := schemaOf("escape", Column{Name: "booking_id", Type: "string", Values: []string{"B1", "B2"}},
		Column{Name: "channel", Type: "string", Values: []string{"phone", "web"}}, Column{Name: "room", Type: "string", Values: []string{"Vault", "Crypt"}},
		Column{Name: "price", Type: "integer", Min: "40", Max: "160"}, Column{Name: "discount", Type: "integer", Min: "0", Max: "10"})
	understoodAll(t, []parseCase{{"avg price of phone bookings that got a discount", s, want{Table: "escape", Measures: []Measure{{Column: "price", Agg: "avg"}},
		Filters: []Filter{{"discount", ">", []string{"0"}}, eq("channel", "phone")}}}})
	reported(t, s, "total price and bookings by room")
	birds := schemaOf("pipits", Column{Name: "counts", Type: "integer", Min: "0", Max: "12"}, Column{Name: "cover", Type: "integer", Min: "0", Max: "100"})
	if in, err := Parse("correlation between cover and the number of pipits counted", birds, now); err == nil && len(in.Filters) > 0 {
		t.Errorf("Parse(pipits counted) filters %+v; want none", in.Filters)
	}
}
