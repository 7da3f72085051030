package intent

import "testing"

// TestVersusReadsTwoSides: "vs" between the two measures of a correlation
// names the pair; "vs" before the negation of a yes/no column's word,
// however the negation is written, sets the two groups side by side.
func TestVersusReadsTwoSides(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	flag := func(n string) Column {
		return Column{Name: n, Type: "integer", Min: "0", Max: "1", Values: []string{"0", "1"}}
	}
	readings := schemaOf("readings", f("ozone"), f("surftemp"), f("pressure"))
	corr := []Measure{{Column: "ozone", Agg: "avg"}, {Column: "surftemp", Agg: "avg"}}
	staff := schemaOf("staff", Column{Name: "schooling", Type: "integer"}, flag("union"), flag("married"), f("pay"),
		Column{Name: "dept", Type: "string", Values: []string{"ops", "it"}})
	medianPay := []Measure{{Column: "pay", Agg: "median"}}
	avgPay := []Measure{{Column: "pay", Agg: "avg"}}
	checkCases(t, []parseCase{
		{text: "corr ozone vs surftemp", schema: readings, want: want{Table: "readings", Measures: corr, Analyses: []string{AnalysisCorrelation}}},
		{text: "correlation of ozone vs. surftemp", schema: readings, want: want{Table: "readings", Measures: corr, Analyses: []string{AnalysisCorrelation}}},
		{text: "What is the median pay for union members compared with non-members?", schema: staff,
			want: want{Table: "staff", Measures: medianPay, GroupBy: []Group{{"union", ""}}}},
		{text: "median pay, union vs non-union", schema: staff, want: want{Table: "staff", Measures: medianPay, GroupBy: []Group{{"union", ""}}}},
		{text: "avg pay of married vs unmarried staff", schema: staff, want: want{Table: "staff", Measures: avgPay, GroupBy: []Group{{"married", ""}}}},
		{text: "avg pay, married vs not", schema: staff, want: want{Table: "staff", Measures: avgPay, GroupBy: []Group{{"married", ""}}}},
		{text: "avg pay for union vs nonunion", schema: staff, want: want{Table: "staff", Measures: avgPay, GroupBy: []Group{{"union", ""}}}},
	})
	// "vs" of something else is still reported
	reported(t, readings, "corr ozone vs surftemp vs pressure by station")
	reported(t, staff, "avg pay, married vs unionised", "avg pay, married vs not in ops")
}
