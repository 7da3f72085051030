package intent

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestUnitOfAMeasure: a unit said after a measure ("city mpg", "price in
// dollars") is noted as the user's and adds no measure; one that another
// unit in the column's name contradicts ("in kg" of weight_lbs) is
// reported, for nothing is converted.
func TestUnitOfAMeasure(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	cars := schemaOf("cars", Column{Name: "mfr", Type: "string", Values: []string{"audi", "ford"}}, f("cty"), f("price"), f("weight_lbs"))
	checkCases(t, []parseCase{
		{text: "average city mpg by manufacturer", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "cty", Agg: "avg"}}, GroupBy: []Group{{"mfr", ""}},
			Understood: []string{"mpg -> the unit, as said (the numbers are the data's, not converted)"}}},
		{text: "average price in dollars per manufacturer", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "price", Agg: "avg"}}, GroupBy: []Group{{"mfr", ""}}}},
		{text: "average weight in pounds", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "weight_lbs", Agg: "avg"}}, Understood: []string{"in pounds -> the unit of weight_lbs"}}},
		{text: "average weight (lbs) by manufacturer", schema: cars, want: want{Table: "cars",
			Measures: []Measure{{Column: "weight_lbs", Agg: "avg"}}, GroupBy: []Group{{"mfr", ""}}}},
	})
	if in, _ := Parse("average weight (kg) by manufacturer", cars, time.Now()); in == nil || len(in.Unknown) != 1 {
		t.Errorf("average weight (kg) of weight_lbs: unknown %+v, want kg reported", in)
	}
	in, _ := Parse("average weight in kg by manufacturer", cars, time.Now())
	if in == nil || len(in.Unknown) != 1 || in.Unknown[0].Word != "in kg" {
		t.Fatalf("average weight in kg of weight_lbs: unknown %+v, want \"in kg\" reported", in)
	}
}

// TestAnAbbreviationThatIsAColumn: "pop" over a population column is the
// column, not "period over period", and "(M)" after it is its unit.
func TestAnAbbreviationThatIsAColumn(t *testing.T) {
	ctry := schemaOf("ctry", Column{Name: "name", Type: "string", Values: []string{"Canada", "France"}},
		Column{Name: "cont", Type: "string", Values: []string{"NA", "EU"}}, Column{Name: "pop_m", Type: "float", Min: "5", Max: "1400"})
	eu := []Filter{{Column: "cont", Op: "=", Values: []string{"EU"}}}
	checkCases(t, []parseCase{
		{text: "total pop in EU", schema: ctry, want: want{Table: "ctry", Measures: []Measure{{Column: "pop_m", Agg: "sum"}}, Filters: eu}},
		{text: "total pop (M) in EU", schema: ctry, want: want{Table: "ctry", Measures: []Measure{{Column: "pop_m", Agg: "sum"}}, Filters: eu}},
	})
}

// TestShorthandWith: "w/" is "with" and "w/o" "without"; "w/w" stays a
// comparison.
func TestShorthandWith(t *testing.T) {
	ctry := schemaOf("ctry", Column{Name: "name", Type: "string", Values: []string{"Canada", "France"}},
		Column{Name: "cont", Type: "string", Values: []string{"NA", "EU"}}, Column{Name: "gdp_usd_bn", Type: "float", Min: "5", Max: "20000"})
	ctry.Tables[0].Rows = 2 // a country a row
	checkCases(t, []parseCase{
		{text: "country w/ highest gdp", schema: ctry, want: want{Table: "ctry", Measures: []Measure{{Column: "gdp_usd_bn", Agg: "sum"}},
			Top: &TopN{1, "", true}}},
		{text: "country with highest gdp", schema: ctry, want: want{Table: "ctry", Measures: []Measure{{Column: "gdp_usd_bn", Agg: "sum"}},
			Top: &TopN{1, "", true}}},
	})
	for _, text := range []string{"country w/ highest gdp", "countries w/o gdp", "gdp w/w"} {
		toks := mergePhrases(text, tokenize(text))
		var low []string
		for _, t := range toks {
			low = append(low, t.low)
		}
		want := map[string]string{"country w/ highest gdp": "country with highest gdp", "countries w/o gdp": "countries without gdp",
			"gdp w/w": "gdp w / w"}[text]
		if got := strings.Join(low, " "); got != want {
			t.Errorf("tokens of %q: %q, want %q", text, got, want)
		}
	}
}

// TestAScaleToShowIn: "in $k" (or "$k" right after the measure) divides a measure of dollars by 1000; a
// scale the column's name has is its unit ("in $bn" of gdp_usd_bn), and
// another is the ratio of the two ("in millions" of billions).
func TestAScaleToShowIn(t *testing.T) {
	emp := schemaOf("emp", Column{Name: "dept", Type: "string", Values: []string{"Eng", "Ops"}},
		Column{Name: "salary_usd", Type: "integer", Min: "50000", Max: "180000"}, Column{Name: "gdp_usd_bn", Type: "float", Min: "1", Max: "9"})
	by := []Group{{"dept", ""}}
	checkCases(t, []parseCase{
		{text: "avg salary in $k by dept", schema: emp, want: want{Table: "emp", Measures: []Measure{{Column: "salary_usd", Agg: "avg", Scale: 1000}}, GroupBy: by}},
		{text: "total salary $k by dept", schema: emp, want: want{Table: "emp", Measures: []Measure{{Column: "salary_usd", Agg: "sum", Scale: 1000}}, GroupBy: by}},
		{text: "total salary (thousands) by dept", schema: emp, want: want{Table: "emp", Measures: []Measure{{Column: "salary_usd", Agg: "sum", Scale: 1000}}, GroupBy: by}},
		{text: "total gdp in $bn by dept", schema: emp, want: want{Table: "emp", Measures: []Measure{{Column: "gdp_usd_bn", Agg: "sum"}}, GroupBy: by}},
		{text: "total gdp in millions by dept", schema: emp, want: want{Table: "emp", Measures: []Measure{{Column: "gdp_usd_bn", Agg: "sum", Scale: 0.001}}, GroupBy: by}},
	})
	// a column whose name gives no unit and whose values are all below a
	// million is already in millions; one in dollars is divided
	pwt := schemaOf("pwt", Column{Name: "country", Type: "string", Values: []string{"Chad", "India"}},
		Column{Name: "pop", Type: "float", Min: "0.05", Max: "1380.4"}, Column{Name: "cost_usd", Type: "float", Min: "10", Max: "900"})
	checkCases(t, []parseCase{
		{text: "total pop in millions", schema: pwt, want: want{Table: "pwt", Measures: []Measure{{Column: "pop", Agg: "sum"}}}},
		{text: "avg salary in millions", schema: emp, want: want{Table: "emp", Measures: []Measure{{Column: "salary_usd", Agg: "avg", Scale: 1e6}}}},
		{text: "avg cost in thousands", schema: pwt, want: want{Table: "pwt", Measures: []Measure{{Column: "cost_usd", Agg: "avg", Scale: 1000}}}},
	})
	reported(t, emp, "number of depts $k", "depts $k")
	if in, err := Parse("number of depts in $k", emp, now); err == nil && len(in.Unknown) == 0 {
		t.Errorf("a count in $k: read as %+v, want the scale reported", in.Measures)
	}
}

// TestADistanceSaidAsWritten: "1500m" names a column m1500_s, as its
// name writes the distance the other way round.
func TestADistanceSaidAsWritten(t *testing.T) {
	dec := schemaOf("decath", Column{Name: "country", Type: "string", Values: []string{"FRA", "USA"}},
		Column{Name: "m100_s", Type: "float", Min: "10", Max: "12"}, Column{Name: "m1500_s", Type: "float", Min: "250", Max: "300"})
	checkCases(t, []parseCase{
		{text: "avg 1500m time by country", schema: dec, want: want{Table: "decath", Measures: []Measure{{Column: "m1500_s", Agg: "avg"}},
			GroupBy: []Group{{"country", ""}}}},
	})
}

// TestShortNegation: "excl." with its full stop excludes the value after
// it.
func TestShortNegation(t *testing.T) {
	ctry := schemaOf("ctry", Column{Name: "cont", Type: "string", Values: []string{"NA", "EU", "AS"}},
		Column{Name: "gdp_usd_bn", Type: "float", Min: "5", Max: "20000"})
	checkCases(t, []parseCase{
		{text: "median gdp excl. NA", schema: ctry, want: want{Table: "ctry", Measures: []Measure{{Column: "gdp_usd_bn", Agg: "median"}},
			Filters: []Filter{{Column: "cont", Op: "!=", Values: []string{"NA"}}}}},
	})
}

// TestAListOfAnIntegerColumnsValues: "grade 4 or 5" picks both grades;
// a number outside the column's range is not one of them.
func TestAListOfAnIntegerColumnsValues(t *testing.T) {
	pts := schemaOf("pts", Column{Name: "sex", Type: "string", Values: []string{"M", "F"}},
		Column{Name: "grade", Type: "integer", Min: "1", Max: "5"}, Column{Name: "charge_usd", Type: "integer", Min: "10", Max: "50000"})
	checkCases(t, []parseCase{
		{text: "how many patients with grade 4 or 5", schema: pts, want: want{Table: "pts", Measures: []Measure{{Agg: "count"}},
			Filters: []Filter{{Column: "grade", Op: "in", Values: []string{"4", "5"}}}}},
		{text: "avg charge for grade 1, 2 and 3", schema: pts, want: want{Table: "pts", Measures: []Measure{{Column: "charge_usd", Agg: "avg"}},
			Filters: []Filter{{Column: "grade", Op: "in", Values: []string{"1", "2", "3"}}}}},
	})
}

// TestDegreesAndARunOfTheName: "tmin" names tmin_f, whose name is read as
// temp min f; "32°F", "0C" are degrees; "at or below" and "or below" are
// comparisons, not a value of tmin.
func TestDegreesAndARunOfTheName(t *testing.T) {
	wx := schemaOf("wx", Column{Name: "station", Type: "string", Values: []string{"Oslo", "Bergen"}},
		Column{Name: "tmin_f", Type: "integer", Min: "10", Max: "50"}, Column{Name: "tmax_c", Type: "float", Min: "-10", Max: "30"})
	le32 := []Filter{{Column: "tmin_f", Op: "<=", Values: []string{"32"}}}
	checkCases(t, []parseCase{
		{text: "avg tmin", schema: wx, want: want{Table: "wx", Measures: []Measure{{Column: "tmin_f", Agg: "avg"}}}},
		{text: "avg tmin by station where tmin 32°F or below", schema: wx, want: want{Table: "wx", Measures: []Measure{{Column: "tmin_f", Agg: "avg"}},
			Filters: le32, GroupBy: []Group{{"station", ""}}}},
		{text: "avg tmin by station where tmin at or below 32 F", schema: wx, want: want{Table: "wx", Measures: []Measure{{Column: "tmin_f", Agg: "avg"}},
			Filters: le32, GroupBy: []Group{{"station", ""}}}},
		{text: "avg tmax by station when tmax below 0C", schema: wx, want: want{Table: "wx", Measures: []Measure{{Column: "tmax_c", Agg: "avg"}},
			Filters: []Filter{{Column: "tmax_c", Op: "<", Values: []string{"0"}}}, GroupBy: []Group{{"station", ""}}}},
	})
}

// TestCodesAndIdentifiersByTheirEnds: county_fips and emp_no identify
// rows, so "the most counties" counts them and never sums the codes;
// "segment" is seg, a noun exports cut short; "service" is svc.
func TestCodesAndIdentifiersByTheirEnds(t *testing.T) {
	counties := schemaOf("counties", Column{Name: "county_fips", Type: "integer", Min: "1001", Max: "56045"},
		Column{Name: "state", Type: "string", Values: []string{"OH", "PA"}}, Column{Name: "unemp_rate", Type: "float", Min: "2", Max: "12"})
	if in, err := Parse("which state has the most counties", counties, now); err != nil ||
		slices.ContainsFunc(in.Measures, func(m Measure) bool { return m.Column == "county_fips" && m.Agg == "sum" }) {
		t.Errorf("the most counties: %+v, %v; want them counted, not their codes summed", in, err)
	}
	staff := schemaOf("staff", Column{Name: "emp_no", Type: "integer", Min: "1001", Max: "1060"},
		Column{Name: "seg", Type: "string", Values: []string{"SMB", "ENT"}}, Column{Name: "sal_k", Type: "integer", Min: "45", Max: "190"},
		Column{Name: "yrs_svc", Type: "integer", Min: "0", Max: "25"})
	checkCases(t, []parseCase{
		{text: "avg sal by segment", schema: staff, want: want{Table: "staff", Measures: []Measure{{Column: "sal_k", Agg: "avg"}}, GroupBy: []Group{{"seg", ""}}}},
		{text: "avg yrs of service by segment", schema: staff, want: want{Table: "staff", Measures: []Measure{{Column: "yrs_svc", Agg: "avg"}}, GroupBy: []Group{{"seg", ""}}}},
	})
}

// TestAWordForAColumnOfTheJoiningTable: "avg salary in Engineering" over
// staff joined to depts is about staff, whose sal_k "salary" abbreviates,
// though only depts' value is named as written.
func TestAWordForAColumnOfTheJoiningTable(t *testing.T) {
	s := Schema{Tables: []Table{
		{Name: "staff", Rows: 60, Joined: []string{"depts"}, Columns: []Column{{Name: "emp_no", Type: "integer", Min: "1001", Max: "1060"},
			{Name: "dept_cd", Type: "string", Values: []string{"ENG", "SLS"}}, {Name: "sal_k", Type: "integer", Min: "45", Max: "190"},
			{Name: "dept_nm", Type: "string", Values: []string{"Engineering", "Sales"}}, {Name: "floor", Type: "integer", Min: "1", Max: "4"}}},
		{Name: "depts", Rows: 2, Columns: []Column{{Name: "dept_cd", Type: "string", Values: []string{"ENG", "SLS"}},
			{Name: "dept_nm", Type: "string", Values: []string{"Engineering", "Sales"}}, {Name: "floor", Type: "integer", Min: "1", Max: "4"}}},
	}}
	checkCases(t, []parseCase{
		{text: "avg salary in Engineering", schema: s, want: want{Table: "staff", Measures: []Measure{{Column: "sal_k", Agg: "avg"}},
			Filters: []Filter{{Column: "dept_nm", Op: "=", Values: []string{"Engineering"}}}}},
	})
}

// TestADateSaidAsAVerb: with an order date and a signup date, "customers
// who signed up in March 2021" puts the period on the signup date.
func TestADateSaidAsAVerb(t *testing.T) {
	ord := schemaOf("ord", Column{Name: "order_dt", Type: "date", Min: "2022-01-01", Max: "2022-12-28"},
		Column{Name: "amt_usd", Type: "float", Min: "1", Max: "60"}, Column{Name: "signup_dt", Type: "date", Min: "2021-01-02", Max: "2021-12-28"})
	in, err := Parse("total amt for customers who signed up in March 2021", ord, now)
	if err != nil || in.Time == nil || in.Time.Column != "signup_dt" || in.Time.Start != "2021-03-01" ||
		slices.ContainsFunc(in.Unknown, func(u Unknown) bool { return u.Word == "signed" || u.Word == "up" }) {
		t.Errorf("signed up in March 2021: %+v, %+v, %v; want the period on signup_dt", in.Time, in.Unknown, err)
	}
}

// TestTheWholeAShareIsOf: "what % of male patients had grade 5" is a share
// of the male patients; "among women" says the whole too. With one filter,
// or the filter after the rows' noun, the share is of all the rows.
func TestTheWholeAShareIsOf(t *testing.T) {
	pts := schemaOf("pts", Column{Name: "sex", Type: "string", Values: []string{"M", "F"}},
		Column{Name: "grade", Type: "integer", Min: "1", Max: "5"}, Column{Name: "age", Type: "integer", Min: "1", Max: "90"})
	wholes := func(text string) []string {
		in, err := Parse(text, pts, now)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		return in.ShareWithin
	}
	for text, want := range map[string][]string{
		"what % of male patients had grade 5":    {"sex"},
		"percentage of female patients over 65":  {"sex"},
		"share of patients aged 65+ among women": {"sex"},
		"what fraction of patients are female":   nil,
		"share of female patients":               nil,
	} {
		if got := wholes(text); !slices.Equal(got, want) {
			t.Errorf("%s: the whole is where %v, want %v", text, got, want)
		}
	}
}

// TestAVerbNamesTheTable: "customers who ordered in 2022" over customers
// and the orders that join them is about the orders (table ord).
func TestAVerbNamesTheTable(t *testing.T) {
	s := Schema{Tables: []Table{
		{Name: "ord", Rows: 400, Joined: []string{"cust"}, Columns: []Column{{Name: "order_id", Type: "integer", Min: "5001", Max: "5400"},
			{Name: "cust_id", Type: "integer", Min: "1", Max: "60"}, {Name: "order_dt", Type: "date", Min: "2022-01-01", Max: "2022-12-28"},
			{Name: "region", Type: "string", Values: []string{"East", "West"}}, {Name: "signup_dt", Type: "date", Min: "2021-01-05", Max: "2021-12-10"}}},
		{Name: "cust", Rows: 60, Columns: []Column{{Name: "cust_id", Type: "integer", Min: "1", Max: "60"},
			{Name: "region", Type: "string", Values: []string{"East", "West"}}, {Name: "signup_dt", Type: "date", Min: "2021-01-05", Max: "2021-12-10"}}},
	}}
	in, err := Parse("how many distinct customers ordered in 2022", s, now)
	if err != nil || in.Table != "ord" || in.Time == nil || in.Time.Column != "order_dt" {
		t.Errorf("customers who ordered in 2022: %+v, %v; want table ord, the period on order_dt", in, err)
	}
}

// TestBoughtSaysNothing: "customers who bought Beverages" counts the
// customers of those rows; "bought" is reported only over a table that
// holds a form of it as a value.
func TestBoughtSaysNothing(t *testing.T) {
	ord := schemaOf("ord", Column{Name: "cust_id", Type: "integer", Min: "1", Max: "60"},
		Column{Name: "cat_name", Type: "string", Values: []string{"Beverages", "Snacks"}}, Column{Name: "amt", Type: "float", Min: "1", Max: "60"})
	checkCases(t, []parseCase{
		{text: "how many customers bought Beverages", schema: ord, want: want{Table: "ord", Measures: []Measure{{Column: "cust_id", Agg: "count_distinct"}},
			Filters: []Filter{{Column: "cat_name", Op: "=", Values: []string{"Beverages"}}}}},
	})
	trades := schemaOf("trades", Column{Name: "side", Type: "string", Values: []string{"buy", "sell"}}, Column{Name: "qty", Type: "integer", Min: "1", Max: "9"})
	if in, err := Parse("how many shares were bought", trades, now); err == nil && len(in.Unknown) == 0 {
		t.Errorf("shares bought over a side of buy and sell: %+v; want bought reported", in)
	}
}

// TestWhenTheExtremeHappened: "when was the highest tmax" asks for the
// row of the maximum, which carries its date.
func TestWhenTheExtremeHappened(t *testing.T) {
	wx := schemaOf("wx", Column{Name: "obs_date", Type: "date", Min: "2024-01-01", Max: "2024-02-28"},
		Column{Name: "station", Type: "string", Values: []string{"Oslo", "Bergen"}}, Column{Name: "tmax_c", Type: "float", Min: "-10", Max: "30"},
		Column{Name: "precip_mm", Type: "float", Min: "0", Max: "30"})
	checkCases(t, []parseCase{
		{text: "when was the highest tmax", schema: wx, want: want{Table: "wx", Measures: []Measure{{Column: "tmax_c", Agg: "max"}}, Top: &TopN{1, "", true}}},
		{text: "max precip and the date it happened", schema: wx, want: want{Table: "wx", Measures: []Measure{{Column: "precip_mm", Agg: "max"}}, Top: &TopN{1, "", true}}},
		{text: "max precip", schema: wx, want: want{Table: "wx", Measures: []Measure{{Column: "precip_mm", Agg: "max"}}}},
	})
}

// TestARatioOfTwoColumns: a slash or "ratio of X to Y" divides the total
// of X by the total of Y; a denominator that does not add up is not one.
func TestARatioOfTwoColumns(t *testing.T) {
	shp := schemaOf("shp", Column{Name: "carrier", Type: "string", Values: []string{"UPS", "DHL"}},
		Column{Name: "wt_kg", Type: "float", Min: "0.5", Max: "40"}, Column{Name: "freight_usd", Type: "float", Min: "5", Max: "300"},
		Column{Name: "disc_pct", Type: "float", Min: "0", Max: "30"})
	per := []Measure{{Column: "freight_usd", Agg: "sum", Per: "wt_kg"}}
	by := []Group{{"carrier", ""}}
	checkCases(t, []parseCase{
		{text: "freight_usd / wt_kg by carrier", schema: shp, want: want{Table: "shp", Measures: per, GroupBy: by}},
		{text: "ratio of freight to weight by carrier", schema: shp, want: want{Table: "shp", Measures: per, GroupBy: by}},
		{text: "the freight to weight ratio by carrier", schema: shp, want: want{Table: "shp", Measures: per, GroupBy: by}},
		{text: "freight per kg by carrier", schema: shp, want: want{Table: "shp", Measures: per, GroupBy: by}},
	})
	if in, err := Parse("freight_usd / disc_pct by carrier", shp, now); err == nil && len(in.Unknown) == 0 {
		t.Errorf("a ratio to a percentage: %+v; want the slash reported", in.Measures)
	}
}

// TestTheUnitAfterANumberNamesItsColumn: "> 5 days" is of dlv_days, not of
// the shipments' money; "10+ years" of yrs_svc, not of the hire year;
// "20kg" is 20 of wt_kg.
func TestTheUnitAfterANumberNamesItsColumn(t *testing.T) {
	shp := schemaOf("shp", Column{Name: "carrier", Type: "string", Values: []string{"UPS", "DHL"}},
		Column{Name: "wt_kg", Type: "float", Min: "0.5", Max: "40"}, Column{Name: "freight_usd", Type: "float", Min: "5", Max: "300"},
		Column{Name: "dlv_days", Type: "integer", Min: "1", Max: "9"})
	staff := schemaOf("staff", Column{Name: "dept", Type: "string", Values: []string{"ENG", "OPS"}},
		Column{Name: "yrs_svc", Type: "integer", Min: "0", Max: "25"}, Column{Name: "hire_yr", Type: "integer", Min: "1998", Max: "2023"})
	count := []Measure{{Agg: "count"}}
	checkCases(t, []parseCase{
		{text: "how many shipments > 5 days", schema: shp, want: want{Table: "shp", Measures: count,
			Filters: []Filter{{Column: "dlv_days", Op: ">", Values: []string{"5"}}}}},
		{text: "avg freight for shipments over 20kg", schema: shp, want: want{Table: "shp", Measures: []Measure{{Column: "freight_usd", Agg: "avg"}},
			Filters: []Filter{{Column: "wt_kg", Op: ">", Values: []string{"20"}}}}},
		{text: "number of staff with 10+ years", schema: staff, want: want{Table: "staff", Measures: count,
			Filters: []Filter{{Column: "yrs_svc", Op: ">=", Values: []string{"10"}}}}},
	})
}

// TestANumberInTheColumnsScale: "over 150k" of sal_k, which holds
// thousands, is over 150; "over 150 thousand" too; over 150 is as said.
func TestANumberInTheColumnsScale(t *testing.T) {
	staff := schemaOf("staff", Column{Name: "dept", Type: "string", Values: []string{"ENG", "OPS"}},
		Column{Name: "sal_k", Type: "integer", Min: "45", Max: "190"})
	over := func(v string) []Filter { return []Filter{{Column: "sal_k", Op: ">", Values: []string{v}}} }
	count := []Measure{{Agg: "count"}}
	checkCases(t, []parseCase{
		{text: "how many staff with sal over 150k", schema: staff, want: want{Table: "staff", Measures: count, Filters: over("150")}},
		{text: "how many staff with sal over 150 thousand", schema: staff, want: want{Table: "staff", Measures: count, Filters: over("150")}},
		{text: "how many staff with sal over 150", schema: staff, want: want{Table: "staff", Measures: count, Filters: over("150")}},
	})
}

// TestAFlagAsAPercentage: "% remote by dept" is the average of the 0/1
// column in percent; "what percentage of employees are remote" the share
// of the rows where it is 1.
func TestAFlagAsAPercentage(t *testing.T) {
	emp := schemaOf("emp", Column{Name: "dept", Type: "string", Values: []string{"Eng", "Ops"}},
		Column{Name: "remote", Type: "integer", Min: "0", Max: "1"}, Column{Name: "salary_usd", Type: "integer", Min: "50000", Max: "180000"})
	checkCases(t, []parseCase{
		{text: "% remote by dept", schema: emp, want: want{Table: "emp", Measures: []Measure{{Column: "remote", Agg: "avg", Scale: 0.01}},
			GroupBy: []Group{{"dept", ""}}}},
		{text: "what percentage of employees are remote", schema: emp, want: want{Table: "emp",
			Filters: []Filter{{Column: "remote", Op: "=", Values: []string{"1"}}}, Analyses: []string{AnalysisShare}}},
	})
}

// TestNameAndCodeShortened: "dept name" names dept_nm, "dept code"
// dept_cd.
func TestNameAndCodeShortened(t *testing.T) {
	staff := schemaOf("staff", Column{Name: "dept_cd", Type: "string", Values: []string{"ENG", "OPS"}},
		Column{Name: "dept_nm", Type: "string", Values: []string{"Engineering", "Operations"}}, Column{Name: "sal_k", Type: "integer", Min: "45", Max: "190"})
	checkCases(t, []parseCase{
		{text: "avg sal by dept name", schema: staff, want: want{Table: "staff", Measures: []Measure{{Column: "sal_k", Agg: "avg"}}, GroupBy: []Group{{"dept_nm", ""}}}},
		{text: "avg sal by dept code", schema: staff, want: want{Table: "staff", Measures: []Measure{{Column: "sal_k", Agg: "avg"}}, GroupBy: []Group{{"dept_cd", ""}}}},
	})
}

// TestThingsPerAGroup: "customers per segment" over invoices counts the
// distinct customers of each segment, not the invoices of each pair.
func TestThingsPerAGroup(t *testing.T) {
	sales := schemaOf("sales", Column{Name: "customer", Type: "string", Values: []string{"Acme Co", "Bolt Ltd", "Cora Inc"}},
		Column{Name: "segment", Type: "string", Values: []string{"SMB", "Enterprise"}}, Column{Name: "net_sales", Type: "float", Min: "100", Max: "5000"})
	checkCases(t, []parseCase{
		{text: "customers per segment", schema: sales, want: want{Table: "sales", Measures: []Measure{{Column: "customer", Agg: "count_distinct"}},
			GroupBy: []Group{{"segment", ""}}}},
		{text: "net sales by customer", schema: sales, want: want{Table: "sales", Measures: []Measure{{Column: "net_sales", Agg: "sum"}},
			GroupBy: []Group{{"customer", ""}}}},
	})
}

// TestTheSingleExtreme: "which site had the single lowest yield" ranks the
// sites by their lowest row, not by their average.
func TestTheSingleExtreme(t *testing.T) {
	crops := schemaOf("crops", Column{Name: "site", Type: "string", Values: []string{"Morris", "Waseca"}},
		Column{Name: "yield_bu", Type: "float", Min: "20", Max: "60"})
	checkCases(t, []parseCase{
		{text: "which site had the single lowest yield", schema: crops, want: want{Table: "crops", Measures: []Measure{{Column: "yield_bu", Agg: "min"}},
			Top: &TopN{1, "site", false}}},
		{text: "which site had the lowest yield", schema: crops, want: want{Table: "crops", Measures: []Measure{{Column: "yield_bu", Agg: "avg"}},
			Top: &TopN{1, "site", false}}},
	})
}

// TestCountsSaidWithTheirWords: "how many distinct customers ordered" is
// the distinct customers ("distinct" is no abbreviation of disc_pct,
// "ordered" no noun of orders); "the highest total spend" is the total,
// ranked, not its maximum too; "customers per segment" are counted.
func TestCountsSaidWithTheirWords(t *testing.T) {
	orders := Schema{Tables: []Table{{Name: "orders", Rows: 400, Columns: []Column{{Name: "ord_id", Type: "integer", Min: "1", Max: "400"},
		{Name: "cust_id", Type: "string", Values: []string{"C001", "C002"}}, {Name: "cust_nm", Type: "string", Values: []string{"Iris Labs", "Kite Retail"}},
		{Name: "seg", Type: "string", Values: []string{"Ent", "SMB"}}, {Name: "ord_dt", Type: "date", Min: "2022-01-01", Max: "2023-12-31"},
		{Name: "amt_usd", Type: "float", Min: "1", Max: "900"}, {Name: "disc_pct", Type: "float", Min: "0", Max: "20"}}}}}
	in, err := Parse("How many distinct customers ordered in 2022?", orders, now)
	if err != nil || len(in.Measures) != 1 || in.Measures[0] != (Measure{Column: "cust_id", Agg: "count_distinct"}) {
		t.Errorf("distinct customers: %+v, %v", in, err)
	}
	in, err = Parse("Which customer, by name, has the highest total spend?", orders, now)
	if err != nil || len(in.Measures) != 1 || in.Measures[0].Agg != "sum" {
		t.Errorf("the highest total spend: %+v, %v; want the total only", in.Measures, err)
	}
	in, err = Parse("customers per segment", orders, now)
	if err != nil || len(in.Measures) != 1 || in.Measures[0] != (Measure{Column: "cust_nm", Agg: "count_distinct"}) || len(in.GroupBy) != 1 || in.GroupBy[0].Column != "seg" {
		t.Errorf("customers per segment: %+v, %+v, %v", in.Measures, in.GroupBy, err)
	}
}

// TestAWordOfTheTablesNameForItsColumn: "% in agriculture" over
// eu_agriculture(pct_agri) is the column the word abbreviates, not a count
// of the table's rows; "eu agriculture", the name's words together, is
// the table.
func TestAWordOfTheTablesNameForItsColumn(t *testing.T) {
	s := Schema{Tables: []Table{{Name: "eu_agriculture", Rows: 3, Columns: []Column{{Name: "country", Type: "string", Values: []string{"B", "DK", "UK"}},
		{Name: "gnp_per_head", Type: "float", Min: "5", Max: "30"}, {Name: "pct_agri", Type: "float", Min: "1", Max: "20"}}}}}
	checkCases(t, []parseCase{
		{text: "country w/ lowest % in agriculture", schema: s, want: want{Table: "eu_agriculture", Measures: []Measure{{Column: "pct_agri", Agg: "avg"}},
			Top: &TopN{1, "country", false}}},
		{text: "how many countries in eu agriculture", schema: s, want: want{Table: "eu_agriculture", Measures: []Measure{{Column: "country", Agg: "count_distinct"}}}},
	})
}

// TestAgesRangesAndPopulations: an age said with its adjective or unit
// ("65 or older", "over 65 yrs", "aged 18-30", "70 years old or older"),
// a range with a dash or "to" before its unit, a unit after a column
// already named, and "people" after a number as the population.
func TestAgesRangesAndPopulations(t *testing.T) {
	att := schemaOf("att", Column{Name: "attendee", Type: "string", Values: []string{"Ann", "Bob", "Cy"}},
		Column{Name: "age", Type: "integer", Min: "18", Max: "90"}, Column{Name: "tickets", Type: "integer", Min: "1", Max: "4"})
	shp := schemaOf("shp", Column{Name: "dest", Type: "string", Values: []string{"Lyon", "Oslo"}},
		Column{Name: "wt_kg", Type: "float", Min: "1", Max: "490"}, Column{Name: "cost_usd", Type: "float", Min: "10", Max: "900"})
	cities := schemaOf("cities", Column{Name: "ctry", Type: "string", Values: []string{"FR", "NO"}},
		Column{Name: "pop_est", Type: "integer", Min: "10000", Max: "9000000"})
	age := func(op, v string) Filter { return Filter{Column: "age", Op: op, Values: []string{v}} }
	rows := []Measure{{Agg: "count"}}
	tickets := []Measure{{Column: "tickets", Agg: "sum"}}
	checkCases(t, []parseCase{
		{text: "total tickets of people 65 or older", schema: att, want: want{Table: "att", Measures: tickets, Filters: []Filter{age(">=", "65")}}},
		{text: "total tickets of guests over 65 yrs", schema: att, want: want{Table: "att", Measures: tickets, Filters: []Filter{age(">", "65")}}},
		{text: "total tickets for those aged 18-30", schema: att, want: want{Table: "att", Measures: tickets,
			Filters: []Filter{age(">=", "18"), age("<=", "30")}}},
		{text: "total tickets for guests aged between 30 and 40", schema: att, want: want{Table: "att", Measures: tickets,
			Filters: []Filter{age(">=", "30"), age("<=", "40")}}},
		{text: "total tickets of visitors 70 years old or older", schema: att, want: want{Table: "att", Measures: tickets, Filters: []Filter{age(">=", "70")}}},
		{text: "number of rows 100–200 kg", schema: shp, want: want{Table: "shp", Measures: rows,
			Filters: []Filter{{Column: "wt_kg", Op: ">=", Values: []string{"100"}}, {Column: "wt_kg", Op: "<=", Values: []string{"200"}}}}},
		{text: "total cost where weight is more than 200 kg", schema: shp, want: want{Table: "shp", Measures: []Measure{{Column: "cost_usd", Agg: "sum"}},
			Filters: []Filter{{Column: "wt_kg", Op: ">", Values: []string{"200"}}}}},
		{text: "number of rows with more than 1,000,000 people", schema: cities, want: want{Table: "cities", Measures: rows,
			Filters: []Filter{{Column: "pop_est", Op: ">", Values: []string{"1000000"}}}}},
		{text: "number of rows with between 1 and 2 million people", schema: cities, want: want{Table: "cities", Measures: rows,
			Filters: []Filter{{Column: "pop_est", Op: ">=", Values: []string{"1000000"}}, {Column: "pop_est", Op: "<=", Values: []string{"2000000"}}}}},
	})
}

// TestYearsOfAgeOrOfService: "5-10 years" of employees over a table with
// an age and a tenure is either: reported; over a table with an age
// alone it is the age.
func TestYearsOfAgeOrOfService(t *testing.T) {
	emp := schemaOf("emp", Column{Name: "dept", Type: "string", Values: []string{"Ops", "Eng"}},
		Column{Name: "age", Type: "integer", Min: "20", Max: "65"}, Column{Name: "tenure", Type: "integer", Min: "0", Max: "40"},
		Column{Name: "salary", Type: "float", Min: "1000", Max: "9000"})
	reported(t, emp, "avg salary for employees 5-10 years by dept", "avg salary for employees over 10 years by dept")
	checkCases(t, []parseCase{
		{text: "avg salary for employees 60 years old or older", schema: emp, want: want{Table: "emp", Measures: []Measure{{Column: "salary", Agg: "avg"}},
			Filters: []Filter{{Column: "age", Op: ">=", Values: []string{"60"}}}}},
	})
}

// TestAUnitOfAColumn: "years of experience" names the column in the unit
// it counts, as a measure and in a condition: "16 or more years of
// education" is a condition on education, not on another number.
func TestAUnitOfAColumn(t *testing.T) {
	n := func(name, lo, hi string) Column { return Column{Name: name, Type: "integer", Min: lo, Max: hi} }
	wages := schemaOf("wages", n("education", "2", "18"), n("experience", "0", "55"), Column{Name: "wage", Type: "float", Min: "1", Max: "44"},
		n("age", "18", "64"), Column{Name: "sector", Type: "string", Values: []string{"manuf", "const", "other"}})
	exp := []Measure{{Column: "experience", Agg: "avg"}}
	checkCases(t, []parseCase{
		{text: "avg years of experience", schema: wages, want: want{Table: "wages", Measures: exp}},
		{text: "What's the average years of experience for people with 16 or more years of education?", schema: wages,
			want: want{Table: "wages", Measures: exp, Filters: []Filter{{"education", ">=", []string{"16"}}}}},
		{text: "avg experience of workers with more than 12 years of education", schema: wages,
			want: want{Table: "wages", Measures: exp, Filters: []Filter{{"education", ">", []string{"12"}}}}},
		{text: "mean yrs of education by sector", schema: wages,
			want: want{Table: "wages", Measures: []Measure{{Column: "education", Agg: "avg"}}, GroupBy: []Group{{"sector", ""}}}},
	})
	// a span of time, or a unit of something that is no column, is reported
	reported(t, wages, "avg wage, 3 years of sales")
}

// TestShorthandOfAnAmountAddsUp: hours and yields in shorthand (lab_hrs,
// yld_kg) add up when no aggregate is said, as their full names do.
func TestShorthandOfAnAmountAddsUp(t *testing.T) {
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	tm := schemaOf("tmsht", s("dept", "DSGN", "ENG"), Column{Name: "lab_hrs", Type: "float"}, Column{Name: "yld_kg", Type: "float"})
	by := []Group{{"dept", ""}}
	checkCases(t, []parseCase{
		{text: "lab hours by dept", schema: tm, want: want{Table: "tmsht", Measures: []Measure{{Column: "lab_hrs", Agg: "sum"}}, GroupBy: by}},
		{text: "yield by dept", schema: tm, want: want{Table: "tmsht", Measures: []Measure{{Column: "yld_kg", Agg: "sum"}}, GroupBy: by}},
		{text: "avg lab hours by dept", schema: tm, want: want{Table: "tmsht", Measures: []Measure{{Column: "lab_hrs", Agg: "avg"}}, GroupBy: by}},
	})
}

// TestAPayPeriodTheNameLeavesUnsaid: "hourly wage" over a wage whose name
// says no period and whose values are an hour's pay, in a table where no
// column says a period, is that wage; with another column that says one,
// or values of a year's pay, it is reported.
func TestAPayPeriodTheNameLeavesUnsaid(t *testing.T) {
	sex := Column{Name: "gender", Type: "string", Values: []string{"male", "female"}}
	one := schemaOf("cps", Column{Name: "wage", Type: "float", Min: "1", Max: "44.5"}, sex)
	checkCases(t, []parseCase{
		{text: "avg hourly wage by gender", schema: one, want: want{Table: "cps", Measures: []Measure{{Column: "wage", Agg: "avg"}},
			GroupBy: []Group{{"gender", ""}}, Understood: []string{"hourly -> the period wage is paid for (its name says none; read as the column)"}}},
	})
	reported(t, schemaOf("cps", Column{Name: "wage", Type: "float", Min: "1", Max: "44.5"}, Column{Name: "wage_yr", Type: "float"}, sex), "avg hourly wage by gender")
	// a salary of a year's size is no hourly wage
	reported(t, schemaOf("cps", Column{Name: "salary", Type: "integer", Min: "30000", Max: "250000"}, sex), "avg hourly salary by gender")
	// "earning more than $10/hr": a condition on the money, per hour
	ages := schemaOf("cps", Column{Name: "wage", Type: "float"}, Column{Name: "age", Type: "integer", Min: "18", Max: "64"}, sex)
	checkCases(t, []parseCase{
		{text: "avg age of workers earning more than $10/hr", schema: ages, want: want{Table: "cps", Measures: []Measure{{Column: "age", Agg: "avg"}},
			Filters: []Filter{{"wage", ">", []string{"10"}}}}},
	})
}

// TestAScaledThresholdBeyondTheColumn: "pop > 100M" over a POP whose
// values run to 1,051 (millions its name does not say) is reported: as
// written no row passes.
func TestAScaledThresholdBeyondTheColumn(t *testing.T) {
	un := schemaOf("un86", Column{Name: "country", Type: "string", Values: []string{"Chad", "India"}},
		Column{Name: "POP", Type: "float", Min: "0.24", Max: "1051.55"}, Column{Name: "DEN", Type: "float", Min: "1", Max: "900"})
	reported(t, un, "avg DEN for countries with pop > 100M")
	checkCases(t, []parseCase{
		{text: "avg DEN for countries with pop > 100", schema: un, want: want{Table: "un86",
			Measures: []Measure{{Column: "DEN", Agg: "avg"}}, Filters: []Filter{{"POP", ">", []string{"100"}}}, GroupBy: []Group{{"country", ""}}}},
	})
}
