package analyze

import (
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// The report's first section is the answer: the summary when every step
// succeeded, else what could not be answered and why, first, then what
// could.
func TestAnswerMarkdown(t *testing.T) {
	msg := `column "amout" does not exist`
	plan := func(statuses ...string) *analysis.Plan {
		p := &analysis.Plan{}
		for i, st := range statuses {
			id := []string{"totals", "by_state"}[i]
			p.Subtasks = append(p.Subtasks, analysis.Subtask{TaskID: id, Description: "Step  " + id, Status: st})
		}
		return p
	}
	failed := &analysis.Result{Observations: []analysis.Observation{
		{TaskID: "by_state", Status: analysis.ObsError, ErrorMessage: new("timeout")},
		{TaskID: "by_state", Status: analysis.ObsError, ErrorMessage: &msg},
	}}
	const summary = "- Totals of sales: amount 1,234.50 [totals]"
	for _, tt := range []struct {
		name    string
		plan    *analysis.Plan
		res     *analysis.Result
		summary string
		want    string
	}{
		{"answered", plan(analysis.TaskSucceeded, analysis.TaskSucceeded), &analysis.Result{}, summary,
			"## Answer\n\n" + summary + "\n\n"},
		{"answered, read as", plan(analysis.TaskSucceeded), &analysis.Result{Clarification: &analysis.Clarification{Understood: []string{"high temperature -> temp_max"}}}, summary,
			"## Answer\n\n" + summary + "\n\nUnderstood:\n\n- high temperature -> temp\\_max\n\n"},
		{"part", plan(analysis.TaskSucceeded, analysis.TaskFailed), failed, summary,
			"## Answer\n\nI could answer only part of this: these steps did not succeed, and the figures below leave them out.\n\n" +
				"- Step `by_state` (Step by_state) failed: column \"amout\" does not exist\n\n" +
				"What I could answer:\n\n" + summary + "\n\n"},
		{"nothing", plan(analysis.TaskFailed, analysis.TaskSkipped), &analysis.Result{}, "",
			"## Answer\n\nI could not answer this: no step of the plan succeeded.\n\n" +
				"- Step `totals` (Step totals) failed\n- Step `by_state` (Step by_state) skipped\n\n"},
		{"unclear", nil, &analysis.Result{Error: &quarry.ErrorInfo{Code: quarry.ECodeNeedsClarification}, Clarification: &analysis.Clarification{
			Understood: []string{"2015 -> year = 2015"},
			NotUnderstood: []analysis.UnknownWord{{Word: "high_temp*", Reason: "no column or value is called that", Nearest: []string{"temp_max", "temp_min"}},
				{Word: "forecast", Reason: "no tool forecasts"}}}}, "",
			"## Answer\n\nI could not answer this as asked: some words of the request would change the answer and could not be applied.\n\n" +
				"Not understood:\n\n- **high\\_temp\\***: no column or value is called that; nearest in the data: `temp_max`, `temp_min`\n" +
				"- **forecast**: no tool forecasts\n\nUnderstood:\n\n- 2015 -> year = 2015\n\n"},
	} {
		if got := answerMarkdown(tt.plan, tt.res, tt.summary); got != tt.want {
			t.Errorf("%s:\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}
