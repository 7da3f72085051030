package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/sampledata"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/investigations"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/llmtest"
	"github.com/quarry-dev/quarry/mcp/codeexec"
	"github.com/quarry-dev/quarry/mcp/codeexec/codeexectest"
)

var (
	filesRe      = regexp.MustCompile(`CSV files at: ([^;\n]*?)[;.]\s`)
	pythonSumsRe = regexp.MustCompile(`baseline revenue [0-9.]+\ncomparison revenue [0-9.]+\n`)
	pythonCodeRe = regexp.MustCompile(`(?s)The code was:\n(.*?)\n\nWrite corrected Python`)
)

// periodsScript returns Python that sums the amount column of the orders
// file in each period, using only the standard library. column names the
// amount column, so a test can misspell it.
func periodsScript(orders, column string, s sampledata.Scenario) string {
	path, _ := json.Marshal(orders) // a JSON string is a Python string literal
	return fmt.Sprintf(`import csv
totals = {"baseline": 0.0, "comparison": 0.0}
periods = {"baseline": (%q, %q), "comparison": (%q, %q)}
with open(%s, newline="") as f:
    for row in csv.DictReader(f):
        for name, (start, end) in periods.items():
            if start <= row["order_date"] <= end:
                totals[name] += float(row[%q])
for name, total in totals.items():
    print(f"{name} revenue {total:.2f}")
`, s.Baseline.Start, s.Baseline.End, s.Comparison.Start, s.Comparison.End, path, column)
}

// TestScriptedModelSendsPython runs revenue_drop with a scripted analyst
// that works in Python on a code-execution MCP server the test starts over
// streamable HTTP. The session's files are uploaded there; the model's
// Python runs and its output comes back into the iteration and the
// evidence; a script that fails goes back to the model with its traceback
// and is repaired; everything is in the audit log; and the explanations
// stay the offline analyst's.
func TestScriptedModelSendsPython(t *testing.T) {
	codeexectest.RequirePython(t)
	scenario, _ := sampledata.Get("revenue_drop")
	sandbox := t.TempDir()
	srv := httptest.NewServer(codeexectest.New(codeexectest.Options{Dir: sandbox, Timeout: 30 * time.Second}).Handler())
	t.Cleanup(srv.Close)

	m := analystModel()
	sqlDecide, sqlRepair := m.Purposes["decide"], m.Purposes["repair"]
	var offered []string // the file paths the decide prompt offered
	m.Purposes["decide"] = func(req *llm.Request) (*llm.Response, error) {
		prompt := req.Messages[0].Content
		it := iterationOf(req)
		if it > 2 {
			return sqlDecide(req)
		}
		f := filesRe.FindStringSubmatch(prompt)
		if f == nil {
			t.Fatalf("iteration %d: the decide prompt offers no files for Python:\n%s", it, prompt)
		}
		offered = strings.Split(f[1], ", ")
		orders := ""
		for _, p := range offered {
			if filepath.Base(p) == "orders.csv" {
				orders = p
			}
		}
		column := "amount"
		if it == 2 {
			column = "amonut" // a typo the repair fixes
		}
		d := decisionJSON("ANALYZE", "", "total revenue per period, straight from the file", "", nil)
		d["python"] = periodsScript(orders, column, scenario)
		return llmtest.JSON(d), nil
	}
	m.Purposes["repair"] = func(req *llm.Request) (*llm.Response, error) {
		code := pythonCodeRe.FindStringSubmatch(req.Messages[0].Content)
		if code == nil {
			return sqlRepair(req)
		}
		if !strings.Contains(req.Messages[0].Content, "KeyError: 'amonut'") {
			t.Errorf("the repair prompt does not carry the traceback:\n%s", req.Messages[0].Content)
		}
		return llmtest.JSON(map[string]string{"code": strings.ReplaceAll(code[1], "amonut", "amount"), "reasoning": "the column is amount"}), nil
	}

	sqlCondense := m.Purposes["condense"]
	m.Purposes["condense"] = func(req *llm.Request) (*llm.Response, error) {
		if p := pythonSumsRe.FindString(req.Messages[0].Content); p != "" {
			return llmtest.JSON(map[string]string{"summary": "Python summed the file: " + strings.ReplaceAll(strings.TrimSpace(p), "\n", ", ") + "."}), nil
		}
		return sqlCondense(req)
	}

	res, dir := runWithModel(t, "revenue_drop", m, func(inv *investigationRun) {
		inv.dialCode = func(ctx context.Context) (investigations.CodeSession, error) {
			return codeexec.Dial(ctx, codeexec.Config{URL: srv.URL})
		}
	})
	sameExplanations(t, res)

	// Both files were uploaded, byte for byte, and offered to the model.
	if len(offered) != 2 {
		t.Fatalf("the model was offered %v; want the two uploaded files", offered)
	}
	stored := readGlob[investigation.UploadedFile](t, dir, "files/*_meta.json")
	if len(stored) != 2 {
		t.Fatalf("%d stored files; want 2", len(stored))
	}
	for _, f := range stored {
		got, err := os.ReadFile(filepath.Join(sandbox, f.TableName+".csv"))
		if err != nil {
			t.Fatalf("not uploaded: %v", err)
		}
		want, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s in the sandbox differs from the session's %s", f.TableName, f.Path)
		}
	}

	// The Python's sums are DuckDB's metric values, to the cent.
	want := fmt.Sprintf("baseline revenue %.2f\ncomparison revenue %.2f\n", res.Overall.BaselineValue, res.Overall.ComparisonValue)
	if want != fmt.Sprintf("baseline revenue %.2f\ncomparison revenue %.2f\n", 947082.79, 849350.31) {
		t.Fatalf("metric values %v and %v; the sample data changed", res.Overall.BaselineValue, res.Overall.ComparisonValue)
	}
	its := iterations(t, dir)
	for _, i := range []int{0, 1} {
		if !strings.Contains(its[i].CodeExecuted, "# python\n") || !strings.Contains(its[i].RawOutput, want) {
			t.Errorf("iteration %d ran %q and got:\n%s\nwant output %q", i+1, its[i].CodeExecuted, its[i].RawOutput, want)
		}
	}
	if !strings.Contains(its[1].RawOutput, "-- python failed") || !strings.Contains(its[1].RawOutput, "KeyError: 'amonut'") {
		t.Errorf("iteration 2 does not hold the failed script and its traceback:\n%s", its[1].RawOutput)
	}
	if n := m.CountByPurpose()["repair"]; n != 1 {
		t.Errorf("%d repairs; want 1, of the misspelt Python column", n)
	}

	// Every run of Python is a tool call with an observation in the audit log.
	var calls, failed, succeeded int
	for _, e := range auditEvents(t, dir) {
		switch {
		case e.EventType == quarry.EventToolCalled && e.EventData["tool_name"] == "python":
			calls++
		case e.EventType == quarry.EventObservationRecorded && strings.HasPrefix(fmt.Sprint(e.EventData["call_id"]), "py_"):
			if e.EventData["success"] == true {
				succeeded++
			} else {
				failed++
			}
		}
	}
	if calls != 3 || succeeded != 2 || failed != 1 {
		t.Errorf("audit log: %d python calls, %d succeeded, %d failed; want 3, 2, 1", calls, succeeded, failed)
	}

	// The Python's output is evidence: a finding that quotes it is verified.
	var ledger investigation.FindingsLedger
	readJSON(t, filepath.Join(dir, "analysis", "findings_ledger.json"), &ledger)
	quoted := fmt.Sprintf("Python summed the file: baseline revenue %.2f, comparison revenue %.2f.", 947082.79, 849350.31)
	if len(ledger.Findings) < 2 || ledger.Findings[0].Summary != quoted || ledger.Findings[1].Summary != quoted {
		t.Errorf("findings %+v; the first two should quote the Python's sums, verified: %q", ledger.Findings, quoted)
	}
	for _, f := range ledger.Findings {
		if strings.Contains(f.Summary, evidenceMarker) {
			t.Errorf("finding %s = %q; every number was measured", f.FindingID, f.Summary)
		}
	}
	checkSums(t, filepath.Join(sandbox, "orders.csv"), scenario, res)
}

// checkSums sums the uploaded orders file in Go as a third opinion on the
// metric values that DuckDB and the Python both reported.
func checkSums(t *testing.T, path string, s sampledata.Scenario, res *investigation.Result) {
	t.Helper()
	tb, err := sampledata.ReadTable(path)
	if err != nil {
		t.Fatal(err)
	}
	var base, comp float64
	for i := range tb.Rows {
		v, d := tb.Num(i, "amount"), tb.Get(i, "order_date")
		if d >= s.Baseline.Start.String() && d <= s.Baseline.End.String() {
			base += v
		}
		if d >= s.Comparison.Start.String() && d <= s.Comparison.End.String() {
			comp += v
		}
	}
	if fmt.Sprintf("%.2f %.2f", base, comp) != fmt.Sprintf("%.2f %.2f", res.Overall.BaselineValue, res.Overall.ComparisonValue) {
		t.Errorf("Go sums %.2f and %.2f; DuckDB's metric %.2f and %.2f", base, comp, res.Overall.BaselineValue, res.Overall.ComparisonValue)
	}
}
