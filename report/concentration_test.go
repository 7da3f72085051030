package report

import (
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/investigation"
)

// TestConcentrationNamesRows: an explanation carried by a few rows says
// so where a segment explanation names its segment, needs no test, and
// the answer gives the change without those rows.
func TestConcentrationNamesRows(t *testing.T) {
	in := noFindingsInput()
	in.Status = investigation.OutcomeCompleted
	in.Metric = investigation.Metric{Kind: investigation.MetricSum, Numerator: "sum(cost)", Scale: 1}
	in.Overall = investigation.OverallChange{BaselineValue: 3462034, ComparisonValue: 7259985, Change: 3797951, ChangePct: 109.7, PValue: 0.2}
	in.Explanations = []investigation.Explanation{{Rank: 1, Title: "One row is 88.7% of the rise: 2000-02-22, PHILADELPHIA INTL, Canada goose, 3,367,644",
		Kind: investigation.KindConcentration, Segment: investigation.Segment{}, ShareOfChange: 0.887, Change: 3367644, Significant: true}}
	md := Markdown(in, Charts{})
	for _, want := range []string{
		"- **Rows:** the rows named in the evidence",
		"- **Significance:** no test needed: the rows are read from the data",
		"Without the effect of these rows the metric would have risen 12.4% (+430,307).",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	if strings.Contains(md, "- **Segment:** all rows") {
		t.Error("a few rows are called all rows")
	}
}
