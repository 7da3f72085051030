package intent

import "testing"

// TestNoOverreachAgain: the second review's requests: a named column
// before "or older", a week's sales summed, blanks of a column or of no
// column, "who" after a noun or with a number or with no measure, "at
// least N" as a condition, "compared with" a value, compass letters of
// no region column, and a quarter compared with another.
func TestNoOverreachAgain(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	i := func(n, lo, hi string) Column { return Column{Name: n, Type: "integer", Min: lo, Max: hi} }
	cust := schemaOf("cust", i("age", "18", "90"), i("tenure_yrs", "0", "40"), f("spend"))
	walmart := schemaOf("walmart", s("store", "A", "B"), Column{Name: "date", Type: "date", Min: "2020-01-01", Max: "2021-12-31"}, f("weekly_sales"))
	boxes := schemaOf("containers", i("is_empty", "0", "1"), f("weight"), s("port", "Oslo", "Rome"))
	survey := schemaOf("survey", f("csat"), s("agent", "ana", "bo"))
	sales := schemaOf("sales", s("product_name", "X", "Y"), s("region", "N", "S"), f("units"), f("revenue"))
	deals := schemaOf("deals", s("region", "N", "S"), s("rep", "ana", "bo"), f("amount"))
	hr := schemaOf("hr", s("emp", "ana", "bo"), s("dept", "Ops", "Sales"), f("salary"))
	folk := schemaOf("folk", s("sex", "M", "F"), s("dept", "Ops", "Sales"), f("pay_hr"), s("region", "NE", "MW", "S", "W"))
	shirts := schemaOf("shirts", s("size", "S", "M", "L"), s("cut", "N", "W", "S"), f("price"))
	fin := schemaOf("fin", i("yr", "2020", "2023"), i("qtr", "1", "4"), f("sales"))
	checkCases(t, []parseCase{
		{text: "average spend where tenure_yrs is 5 or older", schema: cust, want: want{Table: "cust",
			Measures: []Measure{{Column: "spend", Agg: "avg"}}, Filters: []Filter{{"tenure_yrs", ">=", []string{"5"}}}}},
		{text: "weekly_sales by store", schema: walmart, want: want{Table: "walmart",
			Measures: []Measure{{Column: "weekly_sales", Agg: "sum"}}, GroupBy: []Group{{"store", ""}}}},
		{text: "average weight excluding empty containers", schema: boxes, want: want{Table: "containers",
			Measures: []Measure{{Column: "weight", Agg: "avg"}}, Filters: []Filter{{"is_empty", "<=", []string{"0"}}}}},
		{text: "number of surveys excluding blank csat", schema: survey, want: want{Table: "survey",
			Measures: []Measure{countRows}, Filters: []Filter{{Column: "csat", Op: "is not null"}}}},
		{text: "who are the top 5 reps by amount", schema: deals, want: want{Table: "deals",
			Measures: []Measure{{Column: "amount", Agg: "sum"}}, Top: &TopN{N: 5, Column: "rep", Desc: true}}},
	})
	hotel := schemaOf("hotel", i("no_of_children", "0", "3"), i("no_of_adults", "1", "4"), f("avg_price_per_room"), s("room_type", "A", "B"))
	checkCases(t, []parseCase{
		{text: "average price per room with at least one child", schema: hotel, want: want{Table: "hotel",
			Measures: []Measure{{Column: "avg_price_per_room", Agg: "avg"}}, Filters: []Filter{{"no_of_children", ">=", []string{"1"}}}}},
	})
	reported(t, survey, "count by agent excl. blanks")
	reported(t, sales, "who sold the most units")
	reported(t, deals, "who sold the least", "customers who bought the most")
	reported(t, hr, "departments with at least 10 employees")
	reported(t, folk, "pay gap by dept", "pay_hr by dept compared with women")
	reported(t, shirts, "average price in the west")
	reported(t, fin, "sales in Q3 2022 vs Q3 2021")
}
