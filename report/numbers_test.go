package report

import (
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// TestWeakExplanationIsNotSignificant: q = 0.217 is never called
// significant, even when the explanation is marked so (a data problem kept
// for its missing rows), and the next steps treat it as weak.
func TestWeakExplanationIsNotSignificant(t *testing.T) {
	in := completedInput()
	in.NextSteps = nil
	e := &in.Explanations[0]
	e.PValue, e.Significant = ptr(0.217), true
	md := Markdown(in, Charts{})
	if strings.Contains(md, "**Significance:** significant (adjusted p = 0.217)") {
		t.Error("q = 0.217 is called significant")
	}
	if !strings.Contains(md, "**Significance:** not significant (adjusted p = 0.217)") {
		t.Error("q = 0.217 is not called not significant")
	}
	if !strings.Contains(md, "the effect is not significant yet") {
		t.Error("next steps act on it as if it were significant")
	}

	dq := &in.Explanations[2]
	dq.PValue, dq.Significant = ptr(0.404), true
	md = Markdown(in, Charts{})
	if !strings.Contains(md, "**Significance:** not significant (adjusted p = 0.404); reported as a data problem") {
		t.Errorf("a data problem with q = 0.404 is not said to be not significant")
	}
	dq.PValue = nil
	if md := Markdown(in, Charts{}); !strings.Contains(md, "**Significance:** no test needed: the problem is found by counting rows") {
		t.Errorf("a data problem without a test does not say why it needs none")
	}
}

// TestSetAsideChangeIsLabelled: an explanation measured after earlier
// candidates took some of its rows says so beside its change, with its
// number over all rows.
func TestSetAsideChangeIsLabelled(t *testing.T) {
	in := completedInput()
	e := &in.Explanations[1]
	e.Evidence = append(e.Evidence, investigation.Evidence{Description: "over all its rows",
		Values: map[string]float64{"all_rows_change": -0.0017, "rows_set_aside": 412}})
	md := Markdown(in, Charts{})
	want := "- **Change:** -0.12 pp (24.0% of the change), measured after the 412 rows it shares with segments earlier in the partition were set aside; over all its rows it moved -0.17 pp (34.0% of the change)"
	if !strings.Contains(md, want) {
		_, got, _ := strings.Cut(md, "### 2.")
		t.Errorf("want %q in\n%.600s", want, got)
	}
	if !strings.Contains(md, "`all_rows_change` = -0.17 pp") {
		t.Error("the all-rows change is not printed as a change of the metric")
	}
}

// TestNoFindingsStepsComeFromTheData: without findings, the next steps
// and the data to gather follow from what the run had and found (its
// periods' noise, its one grouping column, the missing business context,
// a concentration that did not pass its test), never from a fixed list of
// columns the files do not have.
func TestNoFindingsStepsComeFromTheData(t *testing.T) {
	in := noFindingsInput()
	in.DataModel.Tables[0].Columns = in.DataModel.Tables[0].Columns[:2] // order_date, region
	in.DataModel.Tables[0].Columns = append(in.DataModel.Tables[0].Columns, quarry.Column{Name: "amount", InferredType: quarry.RoleMeasure})
	in.DataModel.RecommendedDimensions = []string{"region"}
	in.Plan.Steps[0].DimensionsToCheck = []string{"region"}
	in.Hypotheses = []investigation.Hypothesis{
		{HypothesisID: "hyp_001", Title: "Change concentrated in region", Kind: "dimension", Dimensions: []string{"region"}, Status: investigation.HypConfirmed,
			Verdict: "region=west, over all its rows, carries 145% of the change from 22.1% of the baseline"},
		{HypothesisID: "hyp_002", Title: "A uniform shift across all segments", Kind: investigation.KindUniform, Status: investigation.HypRuledOut, Verdict: "the change is within day-to-day variation"},
	}
	md := Markdown(in, Charts{})
	for _, canned := range []string{"price plan", "device type", "marketing campaign", "acquisition channel", "app version", "control group", "spread evenly"} {
		if strings.Contains(md, canned) {
			t.Errorf("report suggests %q, which nothing in the data points at", canned)
		}
	}
	for _, want := range []string{
		"With 31 days per period, a change has to be about 49,494 (4.0%) either way",  // from p = 0.41 and the change of -14,563
		"Only `region` could group the rows",                                          // the one dimension
		"Say in the business context what happened in both periods",                   // none was given
		"Change concentrated in region: region=west, over all its rows, carries 145%", // a possible reason
		"Look again at `region=west` with more days of data",                          // a next step
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	in.Context.BusinessContext = "A price rise on 1 February."
	if md := Markdown(in, Charts{}); strings.Contains(md, "Say in the business context") {
		t.Error("asks for a business context that was given")
	}
}

// TestWholePopulationExplanationsAreNotBars: an explanation of all rows (a
// partial last day) has no bar in the waterfall, whose bars add up to the
// change; the report says so beside the table instead of leaving a number
// the table does not show unexplained.
func TestWholePopulationExplanationsAreNotBars(t *testing.T) {
	in := completedInput()
	in.Explanations = append(in.Explanations, investigation.Explanation{Rank: 4, Title: "Partial last day in the data", Kind: investigation.KindDataQuality,
		Segment: investigation.Segment{}, Change: -0.0008, ShareOfChange: 0.16, Significant: true})
	md := Markdown(in, Charts{Waterfall: "charts/waterfall.png"})
	want := "*Not in the waterfall: “Partial last day in the data” (-0.08 pp). It is measured on all rows, not as a part of the partition the bars add up to, so its number overlaps the bars and “everything else”.*"
	if !strings.Contains(md, want) {
		t.Errorf("report lacks %q", want)
	}
	if md := Markdown(completedInput(), Charts{Waterfall: "charts/waterfall.png"}); strings.Contains(md, "Not in the waterfall") {
		t.Error("segment explanations are said to be outside the waterfall")
	}
}
