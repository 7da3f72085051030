package report

import (
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
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
	if md := Markdown(in, Charts{}); !strings.Contains(md, "**Significance:** no test needed: a data problem is counted") {
		t.Errorf("a data problem without a test does not say why it needs none")
	}
}

// TestSetAsideChangeIsLabelled: an explanation measured after earlier
// candidates took some of its rows says so beside its change, with its
// number over all rows.
func TestSetAsideChangeIsLabelled(t *testing.T) {
	in := completedInput()
	e := &in.Explanations[1]
	e.Evidence = append(e.Evidence, quarry.Evidence{Description: "over all its rows",
		Values: map[string]float64{"all_rows_change": -0.0017, "rows_set_aside": 412}})
	md := Markdown(in, Charts{})
	want := "- **Change:** -0.12 pp (+24.0% of the total change), measured after the 412 rows it shares with segments earlier in the partition were set aside; over all its rows it moved -0.17 pp (+34.0% of the total change)"
	if !strings.Contains(md, want) {
		_, got, _ := strings.Cut(md, "### 2.")
		t.Errorf("want %q in\n%.600s", want, got)
	}
	if !strings.Contains(md, "`all_rows_change` = -0.17 pp") {
		t.Error("the all-rows change is not printed as a change of the metric")
	}
}
