package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/internal/app"
)

func TestAnalyzeCommand(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runCLI(t, "analyze", "--source", "../../testdata/analyze/sales.csv", "--data-dir", dir, "--json",
		"Analyze Q1 2021 Arizona sales; trends + charts")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var res struct {
		RequestID string `json:"request_id"`
		Status    string `json:"status"`
		Plan      struct {
			PlanID   string `json:"plan_id"`
			Subtasks []struct {
				TaskID, ToolName, Status string
				Dependencies             []string `json:"dependencies"`
			} `json:"subtasks"`
			Total float64 `json:"total_estimated_seconds"`
		} `json:"plan"`
		Observations []struct {
			Status   string  `json:"status"`
			Seconds  float64 `json:"execution_time_seconds"`
			RowCount *int    `json:"row_count"`
		} `json:"observations"`
		Artifacts []struct {
			Type, ContentRef, ContentHash string
			SizeBytes                     int64 `json:"size_bytes"`
		} `json:"artifacts"`
		Summary  string `json:"summary"`
		AuditLog string `json:"audit_log"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout)
	}
	if res.Status != "completed" || res.Plan.PlanID == "" || len(res.Plan.Subtasks) < 3 || res.Summary == "" || len(res.Observations) < 3 {
		t.Fatalf("result %+v", res)
	}
	for _, o := range res.Observations {
		if o.Status != "success" || o.Seconds <= 0 {
			t.Errorf("observation %+v", o)
		}
	}
	for _, p := range []string{res.AuditLog} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("audit_log %s: %v", p, err)
		}
	}
	var raw map[string]any
	json.Unmarshal([]byte(stdout), &raw)
	for _, a := range raw["artifacts"].([]any) {
		ref := a.(map[string]any)["content_ref"].(string)
		if _, err := os.Stat(ref); err != nil || !strings.HasPrefix(ref, dir) {
			t.Errorf("content_ref %s: %v", ref, err)
		}
	}
	for _, k := range []string{"request_id", "status", "plan", "observations", "artifacts", "summary", "audit_log"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("--json lacks %s", k)
		}
	}

	// The log verifies; a replay is identical.
	if _, stderr, code := runCLI(t, "audit", "verify", filepath.Join(dir, "logs", "data_agent_runs.jsonl")); code != 0 {
		t.Errorf("audit verify exit %d\n%s", code, stderr)
	}
	out, stderr, code := runCLI(t, "analyze", "replay", "--data-dir", dir, res.RequestID)
	if code != 0 || !strings.Contains(out, "every artifact hash is identical") {
		t.Errorf("replay exit %d\n%s\n%s", code, out, stderr)
	}
	// The run was kept as a recipe.
	out, _, code = runCLI(t, "recipes", "list", "--data-dir", dir)
	if code != 0 || !strings.Contains(out, "Analyze {time_range} {state} sales; trends + charts") {
		t.Errorf("recipes list exit %d:\n%s", code, out)
	}
	if _, stderr, code := runCLI(t, "recipes", "delete", "nope", "--data-dir", dir); code != 1 || !strings.Contains(stderr, "NOT_FOUND") {
		t.Errorf("recipes delete nope: exit %d %s", code, stderr)
	}
}

func TestAnalyzeCommandErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no request", []string{"analyze", "--source", "../../testdata/analyze/sales.csv"}, 2, "needs one request"},
		{"no source", []string{"analyze", "sales by month"}, 1, "no data source"},
		{"unknown file kind", []string{"analyze", "--source", "x.xlsx", "sales"}, 2, "not a CSV"},
		{"missing file", []string{"analyze", "--source", "nope.csv", "sales by month"}, 1, "NOT_FOUND"},
		{"row limit", []string{"analyze", "--source", "../../testdata/analyze/sales.csv", "--row-limit", "0", "sales"}, 1, "row_limit"},
		{"timeout", []string{"analyze", "--source", "../../testdata/analyze/sales.csv", "--timeout", "200s", "sales"}, 1, "timeout_seconds 200"},
		{"not understood", []string{"analyze", "--source", "../../testdata/analyze/sales.csv", "the weather on mars"}, 1, "NEEDS_CLARIFICATION"},
		{"replay of nothing", []string{"analyze", "replay", "0000-1111"}, 1, "NOT_FOUND"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, append(tt.args, "--data-dir", dir)...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d; want %d mentioning %q\n%s", code, tt.code, tt.want, stderr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "artifacts")); err == nil {
		t.Error("a refused request wrote artifacts")
	}
}

// TestAnalyzeRunsThroughTheService: quarry analyze runs the request
// through the server's analyses service, so that quarry serve's stack on
// the same data dir lists it and reads it, with its audit trail, by its
// ID; a request the planner refuses is recorded as failed with its code,
// as the API records it.
func TestAnalyzeRunsThroughTheService(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runCLI(t, "analyze", "--source", "../../testdata/analyze/sales.csv", "--data-dir", dir, "--json",
		"Analyze Q1 2021 Arizona sales; trends + charts")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var res analysis.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout)
	}
	if _, stderr, code := runCLI(t, "analyze", "--source", "../../testdata/analyze/sales.csv", "--data-dir", dir, "the weather on mars"); code != 1 ||
		!strings.Contains(stderr, "error "+quarry.ECodeNeedsClarification+":") {
		t.Fatalf("refused request: exit %d\n%s", code, stderr)
	}

	ctx := context.Background()
	a, err := app.Open(ctx, app.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	got, err := a.Analyses.Get(ctx, res.RequestID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != analysis.StatusCompleted || len(got.Artifacts) != len(res.Artifacts) || len(got.Artifacts) == 0 {
		t.Errorf("through the service: %s with %d artifacts; the command printed %s with %d", got.Status, len(got.Artifacts), res.Status, len(res.Artifacts))
	}
	for i := range got.Artifacts {
		if got.Artifacts[i].ContentHash != res.Artifacts[i].ContentHash {
			t.Errorf("artifact %s: hash %s; the command printed %s", got.Artifacts[i].ContentRef, got.Artifacts[i].ContentHash, res.Artifacts[i].ContentHash)
		}
	}
	entries, err := a.Analyses.Audit(ctx, res.RequestID)
	if err != nil || len(entries) == 0 {
		t.Errorf("audit trail: %d entries (%v); want the run's", len(entries), err)
	}
	list, err := a.Analyses.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	statuses := map[string]int{}
	for _, s := range list {
		statuses[s.Status]++
	}
	if len(list) != 2 || statuses[analysis.StatusCompleted] != 1 || statuses[analysis.StatusFailed] != 1 {
		t.Fatalf("the service lists %+v; want the completed analysis and the refused request, failed", list)
	}
	for _, s := range list {
		if s.Status != analysis.StatusFailed {
			continue
		}
		refused, err := a.Analyses.Get(ctx, s.RequestID)
		if err != nil || refused.Error == nil || refused.Error.Code != quarry.ECodeNeedsClarification || refused.Plan != nil || refused.Clarification == nil {
			t.Errorf("refused request recorded as %+v (%v); want failed with NEEDS_CLARIFICATION, what was not understood and no plan", refused, err)
		}
	}
}

// printAnalysis opens with the answer: the summary of a completed
// analysis; for one that did not answer, that it did not and why, with the
// words not understood and their nearest columns, before the status, the
// artifacts and the steps.
func TestPrintAnalysis(t *testing.T) {
	plan := &analysis.Plan{Subtasks: []analysis.Subtask{
		{TaskID: "totals", ToolName: analysis.ToolSQL, Description: "Totals of  sales", Status: analysis.TaskSucceeded},
		{TaskID: "by_state", ToolName: analysis.ToolSQL, Description: "Amount by state", Status: analysis.TaskFailed},
	}}
	arts := []analysis.Artifact{{ArtifactType: analysis.ArtifactTable, ContentRef: "/d/artifacts/tables/r/totals.csv", ContentHash: "0123456789abcdef"}}
	for _, tt := range []struct {
		name string
		res  analysis.Result
		want string
	}{
		{"completed", analysis.Result{RequestID: "r1", Status: analysis.StatusCompleted, Summary: "- Totals of sales: amount 1,234.50 [totals]",
			Plan: &analysis.Plan{Subtasks: plan.Subtasks[:1]}, Artifacts: arts, AuditLog: "/d/logs/data_agent_runs.jsonl"}, `- Totals of sales: amount 1,234.50 [totals]

completed (request r1)
table   /d/artifacts/tables/r/totals.csv  sha256 0123456789ab…
steps:
  succeeded totals (sql.run, Totals of sales)
audit log: /d/logs/data_agent_runs.jsonl
`},
		{"completed, read as", analysis.Result{RequestID: "r5", Status: analysis.StatusCompleted, Summary: "- Days: 42 [count]",
			Clarification: &analysis.Clarification{Understood: []string{"high temperature -> temp_max"}}, AuditLog: "log"}, `- Days: 42 [count]
Understood:
  - high temperature -> temp_max

completed (request r5)
audit log: log
`},
		{"partial", analysis.Result{RequestID: "r2", Status: analysis.StatusPartialSuccess, Summary: "- Totals of sales: amount 1,234.50 [totals]",
			Undelivered: []string{"step by_state (Amount by state) failed"}, Plan: plan, AuditLog: "log"}, `I could answer only part of this; these did not run, and the figures below leave them out:
  - step by_state (Amount by state) failed
What I could answer:
- Totals of sales: amount 1,234.50 [totals]

partial_success (request r2)
steps:
  succeeded totals (sql.run, Totals of sales)
  failed    by_state (sql.run, Amount by state)
audit log: log
`},
		{"needs clarification", analysis.Result{RequestID: "r3", Status: analysis.StatusFailed,
			Error: &quarry.ErrorInfo{Code: quarry.ECodeNeedsClarification, Message: "2 words of the request match nothing in the data", Hint: "name the column"},
			Clarification: &analysis.Clarification{Understood: []string{"2015 -> year = 2015", "above 30 -> > 30"},
				NotUnderstood: []analysis.UnknownWord{{Word: "high temperature", Reason: "no column or value is called that", Nearest: []string{"temp_max", "temp_min"}},
					{Word: "forecast", Reason: "no tool forecasts"}}}, AuditLog: "log"}, `I could not answer this as asked: 2 words of the request match nothing in the data
hint: name the column
Not understood:
  - "high temperature": no column or value is called that (nearest: temp_max, temp_min)
  - "forecast": no tool forecasts
Understood:
  - 2015 -> year = 2015
  - above 30 -> > 30

failed, NEEDS_CLARIFICATION (request r3)
audit log: log
`},
		{"failed", analysis.Result{RequestID: "r4", Status: analysis.StatusFailed, Undelivered: []string{"step by_state (Amount by state) failed"},
			Plan: &analysis.Plan{Subtasks: plan.Subtasks[1:]}, AuditLog: "log"}, `I could not answer this: no step of the plan succeeded.
  - step by_state (Amount by state) failed

failed (request r4)
steps:
  failed    by_state (sql.run, Amount by state)
audit log: log
`},
	} {
		var b strings.Builder
		printAnalysis(&b, &tt.res)
		if b.String() != tt.want {
			t.Errorf("%s: printed\n%s\nwant\n%s", tt.name, b.String(), tt.want)
		}
	}
}
