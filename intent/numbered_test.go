package intent

import "testing"

// TestNumberedGroupsAndAges: a column's whole name spelled by initials
// may end in a noun the parser knows ("functional score" for fs); a coded
// number after its column is a filter, and two set against each other are
// compared side by side; values "between" one another are compared; a
// bare number after people, or "aged" and a comparison, is an age.
func TestNumberedGroupsAndAges(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	i := func(n, lo, hi string) Column { return Column{Name: n, Type: "integer", Min: lo, Max: hi} }
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	clinic := schemaOf("clinic", i("fs", "1", "4"), f("crp"), i("age", "18", "90"), s("gender", "Male", "Female"), f("lv"))
	checkCases(t, []parseCase{
		{text: "mean CRP for functional score 1 versus functional score 4", schema: clinic, want: want{Table: "clinic",
			Measures: []Measure{{Column: "crp", Agg: "avg"}}, Filters: []Filter{{"fs", "in", []string{"1", "4"}}},
			GroupBy: []Group{{"fs", ""}}}},
		{text: "avg crp, fs 2 vs 3", schema: clinic, want: want{Table: "clinic",
			Measures: []Measure{{Column: "crp", Agg: "avg"}}, Filters: []Filter{{"fs", "in", []string{"2", "3"}}},
			GroupBy: []Group{{"fs", ""}}}},
		{text: "Compare mean CRP between male and female patients", schema: clinic, want: want{Table: "clinic",
			Measures: []Measure{{Column: "crp", Agg: "avg"}}, Filters: []Filter{{"gender", "in", []string{"Male", "Female"}}},
			GroupBy: []Group{{"gender", ""}}}},
		{text: "average left volume, women over 60", schema: clinic, want: want{Table: "clinic",
			Measures: []Measure{{Column: "lv", Agg: "avg"}}, Filters: []Filter{{"age", ">", []string{"60"}}, eq("gender", "Female")}}},
		{text: "avg crp for girls aged under 30", schema: clinic, want: want{Table: "clinic",
			Measures: []Measure{{Column: "crp", Agg: "avg"}}, Filters: []Filter{{"age", "<", []string{"30"}}, eq("gender", "Female")}}},
	})
	// a number out of the column's range is no second group
	reported(t, clinic, "avg crp, fs 2 vs 9")
}
