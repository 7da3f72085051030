package research

import (
	"strings"
	"testing"

	rs "github.com/quarry-dev/quarry/research"
)

// A briefing's summary tells each disagreement as a plain sentence from
// its claims: each side's value, source and marker, and which is
// preferred and why.
func TestBriefingWritesDisagreementsPlainly(t *testing.T) {
	res := run(t, halden, "What happened to Halden Bio: its trial, the licence deal and the plant?")
	sum := res.Report.ExecutiveSummary
	for _, want := range []string{"was reported as 412 patients by", "and 388 patients by", "412 patients is preferred: ", "[cite:"} {
		if !strings.Contains(sum, want) {
			t.Errorf("executive summary %q; want %q in it", sum, want)
		}
	}
	if strings.Contains(sum, "Sources disagree on") {
		t.Errorf("executive summary %q; want plain sentences, not a list of sides", sum)
	}
}

// A number the sentence would write that no cited passage holds is not
// written: the plain sentence gives way.
func TestDisagreementChecksItsNumbers(t *testing.T) {
	facts := map[string]*rs.Fact{
		"a": {ID: "a", SourceTitle: "Report", Passage: "The trial enrolled 412 patients.", Text: "The trial enrolled 412 patients."},
		"b": {ID: "b", SourceTitle: "News", Passage: "The trial enrolled 388 patients.", Text: "The trial enrolled 388 patients."},
	}
	d := rs.Discrepancy{Topic: "trial enrollment", Preferred: "412 patients", Strategy: rs.StrategyConsensus,
		Sides: []rs.Side{{Value: "412 patients", FactIDs: []string{"a"}}, {Value: "398 patients", FactIDs: []string{"b"}}}}
	if got := disagreement(d, facts); got != "" {
		t.Errorf("disagreement = %q; want none: 398 is in no passage", got)
	}
	d.Sides[1].Value = "388 patients"
	if got := disagreement(d, facts); !strings.HasPrefix(got, "Trial enrollment was reported as 412 patients by Report [cite:a] and 388 patients by News [cite:b]; 412 patients is preferred") {
		t.Errorf("disagreement = %q", got)
	}
}
