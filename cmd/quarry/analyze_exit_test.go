package main

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// TestAnalyzeExitStatus: a failed analysis exits 1 in every output mode,
// with the result on stdout (--json: one JSON object) and its code on
// stderr; the help text documents the exit statuses.
func TestAnalyzeExitStatus(t *testing.T) {
	dir := t.TempDir()
	sales := "../../testdata/analyze/sales.csv"
	tests := []struct {
		name string
		args []string
		code string // the result's error code
	}{
		{"a source that cannot be loaded", []string{"--source", "nope.csv", "total amount by region"}, quarry.ECodeNotFound},
		{"a request the planner refuses", []string{"--source", sales, "the weather on mars"}, quarry.ECodeNeedsClarification},
	}
	for _, tt := range tests {
		for _, asJSON := range []bool{true, false} {
			args := append([]string{"analyze", "--data-dir", dir}, tt.args...)
			if asJSON {
				args = append(args, "--json")
			}
			stdout, stderr, exit := runCLI(t, args...)
			if exit != 1 || !strings.Contains(stderr, "error "+tt.code+":") {
				t.Errorf("%s (json %v): exit %d; want 1 with %s on stderr\n%s", tt.name, asJSON, exit, tt.code, stderr)
			}
			if !asJSON {
				// The answer comes first: what could not be done, then the status.
				if !strings.HasPrefix(stdout, "I could not answer this") || !strings.Contains(stdout, "\n"+analysis.StatusFailed+", "+tt.code+" (request ") {
					t.Errorf("%s: stdout %q; want the failed result", tt.name, stdout)
				}
				continue
			}
			var res analysis.Result
			if err := json.Unmarshal([]byte(stdout), &res); err != nil {
				t.Fatalf("%s: stdout is not the JSON result: %v\n%s", tt.name, err, stdout)
			}
			if res.Status != analysis.StatusFailed || res.Error == nil || res.Error.Code != tt.code || res.RequestID == "" {
				t.Errorf("%s: JSON result %s %+v; want failed with %s", tt.name, res.Status, res.Error, tt.code)
			}
		}
	}
	_, stderr, exit := runCLI(t, "analyze", "-h")
	if exit != 0 || !strings.Contains(stderr, "Exit status:") || !strings.Contains(stderr, "NEEDS_CLARIFICATION") || !strings.Contains(stderr, "-row-limit") {
		t.Errorf("analyze -h: exit %d\n%s", exit, stderr)
	}
}

// TestAnalyzeExitOfAResult: the exit status follows the recorded result:
// completed and partial_success exit 0; failed exits 1 with the result's
// own code (a plan whose steps all failed, NEEDS_CLARIFICATION), or
// INVALID when it has none.
func TestAnalyzeExitOfAResult(t *testing.T) {
	tests := []struct {
		res  analysis.Result
		code string // "" for exit 0
	}{
		{analysis.Result{Status: analysis.StatusCompleted}, ""},
		{analysis.Result{Status: analysis.StatusPartialSuccess, Error: &quarry.ErrorInfo{Code: quarry.ECodeResourceLimit, Message: "the analysis stopped at its 5 s timeout while running the steps"}}, ""},
		{analysis.Result{Status: analysis.StatusFailed, Plan: &analysis.Plan{}, Error: &quarry.ErrorInfo{Code: quarry.ECodeForbidden, Message: "no step succeeded"}}, quarry.ECodeForbidden},
		{analysis.Result{Status: analysis.StatusFailed, Error: &quarry.ErrorInfo{Code: quarry.ECodeNeedsClarification, Message: "2 words could not be applied"},
			Clarification: &analysis.Clarification{NotUnderstood: []analysis.UnknownWord{{Word: "high"}}}}, quarry.ECodeNeedsClarification},
		{analysis.Result{Status: analysis.StatusFailed, Plan: &analysis.Plan{}}, quarry.ECodeInvalid},
	}
	for _, tt := range tests {
		err := analyzeExit(&tt.res)
		if got := quarry.ErrorCode(err); got != tt.code {
			t.Errorf("%s with %+v: exit error %v; want code %q", tt.res.Status, tt.res.Error, err, tt.code)
		}
		if tt.code != "" && exitCode(err, io.Discard) != 1 {
			t.Errorf("%s: exit status %d; want 1", tt.res.Status, exitCode(err, io.Discard))
		}
	}
}
