package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		{"not understood", []string{"analyze", "--source", "../../testdata/analyze/sales.csv", "the weather on mars"}, 1, "INVALID"},
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
