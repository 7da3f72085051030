package intent

// Requests the reviewers of the twelfth session found answered as other
// questions by that session's new rules; each must be read right or
// reported.

import (
	"slices"
	"testing"
)

func revAf(n string) Column              { return Column{Name: n, Type: "float"} }
func revAi(n, lo, hi string) Column      { return Column{Name: n, Type: "integer", Min: lo, Max: hi} }
func revAs(n string, v ...string) Column { return Column{Name: n, Type: "string", Values: v} }
func revAflag(n string) Column {
	return Column{Name: n, Type: "integer", Min: "0", Max: "1", Values: []string{"0", "1"}}
}

// revAok fails unless the request is refused (an Unknown or an error) or
// good(in) holds.
func revAok(t *testing.T, s Schema, text string, good func(*Intent) bool) {
	t.Helper()
	in, err := Parse(text, s, now)
	if err != nil || len(in.Unknown) > 0 {
		return
	}
	if !good(in) {
		t.Errorf("Parse(%q): answered as another question: measures %v group %v top %+v filters %v analyses %v\n understood %q",
			text, in.Measures, in.GroupBy, in.Top, in.Filters, in.Analyses, in.Understood)
	}
}

func revAmeasures(in *Intent, col string) bool {
	return slices.ContainsFunc(in.Measures, func(m Measure) bool { return m.Column == col })
}
func revAgroups(in *Intent, col string) bool {
	return slices.ContainsFunc(in.GroupBy, func(g Group) bool { return g.Column == col })
}

// 1. subject.go unitOfColumn: a unit before "of" names a column of another unit.
func TestRevAUnitOfColumnOtherUnit(t *testing.T) {
	ts := schemaOf("timesheets", revAs("project", "P1", "P2"), revAf("labor_cost"), revAi("downtime_min", "0", "600"))
	revAok(t, ts, "total hours of labor by project", func(in *Intent) bool { return !revAmeasures(in, "labor_cost") })
	revAok(t, ts, "total hours of downtime by project", func(in *Intent) bool { return !revAmeasures(in, "downtime_min") })
}

// 2. measure.go measureAt: an integer column whose name has hr/day/week
// (home runs, overtime hours) is no measure any more; the ranking falls
// back to a count of rows.
func TestRevAPeriodPartNamesAMeasure(t *testing.T) {
	bat := schemaOf("batting", revAs("team", "NYY", "BOS"), revAi("hr", "0", "49"), revAs("player", "Ann", "Bob"))
	revAok(t, bat, "which team had the most hr", func(in *Intent) bool { return revAmeasures(in, "hr") })
	sh := schemaOf("shifts", revAs("dept", "ops", "it"), revAi("overtime_hr", "0", "16"), revAf("cost"))
	revAok(t, sh, "which dept had the most overtime hr", func(in *Intent) bool { return revAmeasures(in, "overtime_hr") })
	revAok(t, sh, "sum of overtime hr by dept", func(in *Intent) bool { return revAmeasures(in, "overtime_hr") })
}

// 3. subject.go acrossOver: "across X" is dropped when a ranking is of
// something else, though X is the breakdown asked for.
func TestRevAAcrossWithRanking(t *testing.T) {
	s := schemaOf("sales", revAs("region", "east", "west", "north"), revAs("product", "Widget", "Gadget"), revAf("revenue"),
		Column{Name: "order_date", Type: "date", Min: "2020-01-01", Max: "2023-12-31"})
	revAok(t, s, "compare revenue across regions for the top 5 products", func(in *Intent) bool { return revAgroups(in, "region") })
	revAok(t, s, "revenue trend across months for the top 3 products", func(in *Intent) bool { return revAgroups(in, "order_date") })
}

// 4. order.go extremeRow: "the airport with the highest elevation" under
// "which country" becomes the country with the highest average elevation.
func TestRevAExtremeRowUnderWhich(t *testing.T) {
	air := schemaOf("airports", revAs("name", "Alpha", "Beta", "Gamma"), revAs("country", "BR", "US"), revAs("type", "large_airport", "small_airport"), revAf("elevation_ft"))
	air.Tables[0].Rows = 3
	revAok(t, air, "which country has the airport with the highest elevation", func(in *Intent) bool {
		return !slices.ContainsFunc(in.Measures, func(m Measure) bool { return m.Column == "elevation_ft" && m.Agg == "avg" }) || in.Top == nil || in.Top.Column == ""
	})
}

// 5. group.go dimension/fewLevels: "products ranked by quantity" over a
// quantity 1..10 groups by the quantity and counts rows.
func TestRevAFewLevelsRankBy(t *testing.T) {
	s := schemaOf("order_lines", revAs("product", "Widget", "Gadget"), revAi("quantity", "1", "10"), revAf("price"))
	for _, q := range []string{"products ranked by quantity", "products sorted by quantity", "list products by quantity"} {
		revAok(t, s, q, func(in *Intent) bool { return !revAgroups(in, "quantity") && revAmeasures(in, "quantity") })
	}
}

// 6. presence.go versusNot: the person noun between the flag and vs is a
// condition of its own ("women": gender = female), dropped.
func TestRevAVersusNotDropsNoun(t *testing.T) {
	s := schemaOf("staff", revAflag("married"), revAf("pay"), revAs("gender", "male", "female"), revAs("dept", "ops", "it"))
	revAok(t, s, "avg pay for married women vs not", func(in *Intent) bool {
		return slices.ContainsFunc(in.Filters, func(f Filter) bool { return f.Column == "gender" }) || revAgroups(in, "gender")
	})
}

// 7. words.go "#": "store #" (the store's number) is read as a count,
// which the ranking then uses instead of the amount.
func TestRevAHashAfterNoun(t *testing.T) {
	s := schemaOf("invoices", revAi("invoice_no", "1000", "9000"), revAi("store_no", "1", "40"), revAs("region", "east", "west"), revAf("amount"))
	revAok(t, s, "top 5 store # by amount", func(in *Intent) bool { return len(in.Measures) > 0 && in.Measures[0].Column == "amount" })
	revAok(t, s, "revenue by invoice #", func(in *Intent) bool { return len(in.Measures) == 1 })
}

// 8. group.go whichFrom: "of the <any unit>" is taken for the part's own
// period: a week of the year for "week of the month", a month of the
// year for "month of the quarter", a day of the month for "day of the year".
func TestRevAWhichPartOfOtherPeriod(t *testing.T) {
	wk := schemaOf("sales", revAi("year", "2020", "2023"), revAi("week", "1", "53"), revAf("revenue"))
	ymd := schemaOf("sales", revAi("year", "2020", "2023"), revAi("month", "1", "12"), revAi("day", "1", "31"), revAf("revenue"))
	never := func(*Intent) bool { return false }
	revAok(t, wk, "which week of the month has the highest revenue", never)
	revAok(t, ymd, "which month of the quarter has the highest revenue", never)
	revAok(t, ymd, "which day of the year has the highest revenue", never)
}

// 9. subject.go asides: "vs" between two correlated measures each said of
// another place is consumed; the correlation is read within each place.
func TestRevACorrVsAcrossPlaces(t *testing.T) {
	s := schemaOf("daily_sales", Column{Name: "date", Type: "date", Min: "2022-01-01", Max: "2023-12-31"}, revAs("city", "Paris", "London"), revAf("sales"), revAf("temp"))
	revAok(t, s, "corr of sales in Paris vs temp in London", func(*Intent) bool { return false })
}

// 10. unknown.go nameSays: "train" ends with "rain", so "wettest first"
// ranks by a train delay without a word.
func TestRevANameSaysSuffix(t *testing.T) {
	s := schemaOf("rail", revAs("line", "L1", "L2"), revAi("month", "1", "12"), revAf("train_delay"))
	revAok(t, s, "avg train_delay by month, wettest first", func(*Intent) bool { return false })
}

// 11. subject.go payPeriodSaid: "hourly" over a salary of 30,000 to
// 250,000 (a year's pay) is read as that salary.
func TestRevAPayPeriodOfAnnualSalary(t *testing.T) {
	s := schemaOf("staff", revAs("dept", "ops", "it"), revAi("salary", "30000", "250000"))
	revAok(t, s, "average hourly salary by dept", func(*Intent) bool { return false })
	revAok(t, s, "who has the highest monthly salary", func(*Intent) bool { return false })
}

// 12. group.go ranked/rankedNoun: over four years of year and month
// columns, "the best month" ranks month numbers summed over the years.
func TestRevAMonthPartOverYears(t *testing.T) {
	ym := schemaOf("sales", revAi("year", "2020", "2023"), revAi("month", "1", "12"), revAf("revenue"))
	revAok(t, ym, "top 3 months by revenue", func(in *Intent) bool { return in.Top == nil || in.Top.Column != "month" || revAgroups(in, "year") })
	revAok(t, ym, "the best month for revenue", func(in *Intent) bool { return in.Top == nil || in.Top.Column != "month" || revAgroups(in, "year") })
}
