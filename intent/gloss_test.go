package intent

import "testing"

// TestGlosses: a phrase followed by the data's own names in parentheses
// is read as those names; a statement in parentheses, or a value's column
// in parentheses, is not a gloss, and a possessive or a value before the
// parentheses stays a filter.
func TestGlosses(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	survey := schemaOf("survey", s("hh_id", "H1", "H2"), Column{Name: "hh_no", Type: "integer", Min: "1", Max: "900"}, s("reg", "North", "South"), f("inc_x9"), f("hsz"),
		s("band.age", "20-29", "30-39"), f("stat.fu"), f("chol"))
	depots := schemaOf("depots", s("depot", "BRM2", "LDS1"), f("cost_gbp"), f("boxes"), s("country", "Chad", "Peru"), f("gdpx"))
	checkCases(t, []parseCase{
		{text: "total household cash income (inc_x9) in North", schema: survey, want: want{Table: "survey",
			Measures: []Measure{{Column: "inc_x9", Agg: "sum"}}, Filters: []Filter{eq("reg", "North")},
			Understood: []string{"household cash income -> inc_x9 (named in parentheses)"}}},
		{text: "avg chol of those who died (vstat 1 or 2)", schema: schemaOf("cohort", f("chol"), Column{Name: "vstat", Type: "integer", Min: "0", Max: "2"}),
			want: want{Table: "cohort", Measures: []Measure{{Column: "chol", Agg: "avg"}}, Filters: []Filter{{"vstat", "in", []string{"1", "2"}}},
				Understood: []string{"died -> vstat 1 or 2 (named in parentheses)"}}},
		{text: "avg household size (hsz) by reg", schema: survey, want: want{Table: "survey",
			Measures: []Measure{{Column: "hsz", Agg: "avg"}}, GroupBy: []Group{{"reg", ""}}}},
		{text: "mean cholesterol in their thirties (band.age 30-39)", schema: survey, want: want{Table: "survey",
			Measures: []Measure{{Column: "chol", Agg: "avg"}}, Filters: []Filter{eq("band.age", "30-39")}}},
		{text: "average cost out of the Bremen depot (BRM2)", schema: depots, want: want{Table: "depots",
			Measures: []Measure{{Column: "cost_gbp", Agg: "avg"}}, Filters: []Filter{eq("depot", "BRM2")}}},
		// things in the plural, glossed by the column numbering them, are
		// counted by its distinct values
		{text: "how many households (hh_no) are there", schema: survey, want: want{Table: "survey",
			Measures: []Measure{{Column: "hh_no", Agg: "count_distinct"}}}},
		// a column's name written with its dots is that column
		{text: "share of rows with stat.fu = 2", schema: survey, want: want{Table: "survey",
			Measures: []Measure{countRows}, Analyses: []string{AnalysisShare}, Filters: []Filter{{"stat.fu", "=", []string{"2"}}}}},
	})
	// the possessive stays a filter: Peru is not explained away
	in, err := Parse("average Peru's real output (gdpx)", depots, now)
	if err != nil || len(in.Filters) != 1 || in.Filters[0].Column != "country" {
		t.Errorf("a possessive before a gloss: %v, %+v", err, in)
	}
	// a statement in parentheses is words, not a gloss: "Bremen" is unknown
	reported(t, depots, "average cost for Bremen (cost_gbp is in pounds)")
}

// TestNegativeGloss: "no insurance (uninsured)" and "no high school
// degree (nodegr)" are the column said, its negation with it: not negated
// again.
func TestNegativeGloss(t *testing.T) {
	cover := schemaOf("cover", Column{Name: "uninsured", Type: "integer", Min: "0", Max: "1"}, Column{Name: "age", Type: "integer", Min: "0", Max: "99"})
	in, err := Parse("share of people with no insurance (uninsured)", cover, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range in.Filters {
		if f.Column == "uninsured" && f.Op == "<=" {
			t.Errorf("filters %+v: the negative column negated again", in.Filters)
		}
	}
	// a phrase that the name negates is reported, not read as the name
	reported(t, cover, "avg age of insured people (uninsured)")
	// "nodegr" is the "no" and a shorthand of a word of the phrase
	lalonde := schemaOf("lalonde", Column{Name: "nodegr", Type: "integer", Min: "0", Max: "1"}, Column{Name: "re78", Type: "float"})
	checkCases(t, []parseCase{
		{text: "avg re78 of those with no high school degree (nodegr)", schema: lalonde, want: want{Table: "lalonde",
			Measures: []Measure{{Column: "re78", Agg: "avg"}}, Filters: []Filter{eq("nodegr", "1")}}},
	})
}
