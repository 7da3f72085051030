package mcp

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// The model reads the answer first: the summary, or that the request
// could not be answered and why, with the words not understood and their
// nearest columns, before the status and the files.
func TestAnalysisText(t *testing.T) {
	arts := []analysis.Artifact{{ArtifactType: analysis.ArtifactTable, ContentRef: "/d/t.csv"}}
	for _, tt := range []struct {
		name string
		res  analysis.Result
		want string
	}{
		{"completed", analysis.Result{RequestID: "r1", Status: analysis.StatusCompleted, Summary: "- Totals: amount 1,234.50 [totals]", Artifacts: arts},
			"- Totals: amount 1,234.50 [totals]\nanalysis r1: completed\ntable: /d/t.csv\n" +
				"next: read the summary; the artifacts are files on this machine (tables as CSV, charts as PNG, the report as Markdown)"},
		{"partial", analysis.Result{RequestID: "r2", Status: analysis.StatusPartialSuccess, Summary: "- Totals: amount 1,234.50 [totals]",
			Undelivered: []string{"step by_state (Amount by state) failed"}},
			"I could answer only part of this; what did not run is listed as not delivered, and the summary leaves it out.\n" +
				"not delivered: step by_state (Amount by state) failed\nwhat could be answered:\n- Totals: amount 1,234.50 [totals]\nanalysis r2: partial_success\n" +
				"next: tell the user what did not run (listed as not delivered) with the summary, which leaves it out; the artifacts are files on this machine"},
		{"needs clarification", analysis.Result{RequestID: "r3", Status: analysis.StatusFailed,
			Error: &quarry.ErrorInfo{Code: quarry.ECodeNeedsClarification, Message: "2 words of the request match nothing in the data"},
			Clarification: &analysis.Clarification{Understood: []string{"2015 -> year = 2015"},
				NotUnderstood: []analysis.UnknownWord{{Word: "high temperature", Reason: "no column or value is called that", Nearest: []string{"temp_max", "temp_min"}}}}},
			"I could not answer this as asked: 2 words of the request match nothing in the data\n" +
				"not understood: \"high temperature\": no column or value is called that (nearest: temp_max, temp_min)\n" +
				"understood: 2015 -> year = 2015\nanalysis r3: failed\nerror: NEEDS_CLARIFICATION: 2 words of the request match nothing in the data\n" +
				"next: nothing was answered: do not guess. Ask the user what the words not understood mean (the nearest columns and values are listed), then call start_analysis again with the request in the data's words"},
		{"failed", analysis.Result{RequestID: "r4", Status: analysis.StatusFailed, Error: &quarry.ErrorInfo{Code: quarry.ECodeInvalid, Message: "sales.parquet could not be read"}},
			"I could not answer this: sales.parquet could not be read\nanalysis r4: failed\nerror: INVALID: sales.parquet could not be read\n" +
				"next: read the error; fix the request or the data and call start_analysis again"},
	} {
		out := newAnalysisOut(&tt.res)
		if got := out.text(); got != tt.want {
			t.Errorf("%s:\n%s\nwant\n%s", tt.name, got, tt.want)
		}
		if out.Clarification != tt.res.Clarification {
			t.Errorf("%s: the structured result's clarification is %+v; want %+v", tt.name, out.Clarification, tt.res.Clarification)
		}
	}
}

// A clarification, with its lists empty or full, fits the tool's output
// schema, which the SDK checks every result against.
func TestAnalysisOutSchema(t *testing.T) {
	schema, err := jsonschema.For[analysisOut](nil)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := schema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*analysis.Clarification{
		{},
		{Understood: []string{"2015 -> year = 2015"}, NotUnderstood: []analysis.UnknownWord{{Word: "high", Nearest: []string{"temp_max"}}, {Word: "forecast"}}},
	} {
		out := newAnalysisOut(&analysis.Result{RequestID: "r", Status: analysis.StatusFailed, Clarification: c,
			Error: &quarry.ErrorInfo{Code: quarry.ECodeNeedsClarification, Message: "m"}})
		raw, _ := json.Marshal(out)
		var v map[string]any
		json.Unmarshal(raw, &v)
		if err := rs.Validate(v); err != nil {
			t.Errorf("%s does not fit the output schema: %v", raw, err)
		}
	}
}
