package intent

import "testing"

// TestFlagsAndUnits: a flag's word before the rows picks the rows flagged
// yes ("late shipments"), and before the rows and "rate" asks for their
// share ("late-delivery rate"); a unit in words names the column whose
// name holds it short ("within 8 hours" of hrs_to_fix).
func TestFlagsAndUnits(t *testing.T) {
	f := func(n string) Column { return Column{Name: n, Type: "float"} }
	s := func(n string, vs ...string) Column { return Column{Name: n, Type: "string", Values: vs} }
	i := func(n, lo, hi string) Column { return Column{Name: n, Type: "integer", Min: lo, Max: hi} }
	jobs := schemaOf("repairs", s("job_id", "J1", "J2"), s("depot", "North", "South"), f("hrs_to_fix"), i("redo_flg", "0", "1"), f("parts_eur"))
	checkCases(t, []parseCase{
		{text: "redo repairs per depot", schema: jobs, want: want{Table: "repairs",
			Filters: []Filter{eq("redo_flg", "1")}, GroupBy: []Group{{"depot", ""}}}},
		{text: "which depot has the highest redo-repair rate", schema: jobs, want: want{Table: "repairs",
			Filters: []Filter{eq("redo_flg", "1")}, Analyses: []string{AnalysisShare}, Top: &TopN{N: 1, Column: "depot", Desc: true}}},
		{text: "share of repairs fixed within 4 hours", schema: jobs, want: want{Table: "repairs",
			Analyses: []string{AnalysisShare}, Filters: []Filter{{"hrs_to_fix", "<=", []string{"4"}}}}},
		// and its negation picks the rows flagged no
		{text: "average parts_eur of non-redo repairs", schema: jobs, want: want{Table: "repairs",
			Measures: []Measure{{Column: "parts_eur", Agg: "avg"}}, Filters: []Filter{eq("redo_flg", "0")}}},
	})
}

// TestFlagVersusNot: "redo vs non-redo" over redo_flg sets the flag's two
// groups side by side.
func TestFlagVersusNot(t *testing.T) {
	jobs := schemaOf("repairs", Column{Name: "redo_flg", Type: "integer", Min: "0", Max: "1"}, Column{Name: "parts_eur", Type: "float"})
	checkCases(t, []parseCase{
		{text: "average parts_eur for redo vs non-redo repairs", schema: jobs, want: want{Table: "repairs",
			Measures: []Measure{{Column: "parts_eur", Agg: "avg"}}, GroupBy: []Group{{"redo_flg", ""}}}},
	})
}
