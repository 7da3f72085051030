package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/llmtest"
)

// Adversarial scripted models: each misbehaves in one way, and each run
// must still complete with the offline analyst's explanations while the
// misbehaviour is contained and logged.

// TestModelThatInventsNumbers: every number the model makes up is marked
// unverified in the findings and the report, and the audit log says so.
func TestModelThatInventsNumbers(t *testing.T) {
	m := analystModel()
	m.Purposes["condense"] = llmtest.Fixed(llmtest.JSON(map[string]string{"summary": "Revenue fell by 37.2% because a marketing cut of $1,234,567 hit every channel."}))
	m.Purposes["report"] = llmtest.Fixed(llmtest.JSON(map[string]string{"summary": "Revenue fell 41.9% after a 2,718,281 dollar budget cut."}))
	res, dir := runWithModel(t, "revenue_drop", m)
	sameExplanations(t, res)

	var ledger investigation.FindingsLedger
	readJSON(t, filepath.Join(dir, "analysis", "findings_ledger.json"), &ledger)
	for _, f := range ledger.Findings {
		if !strings.Contains(f.Summary, "37.2% [unverified]") || !strings.Contains(f.Summary, "$1,234,567 [unverified]") {
			t.Fatalf("finding %s = %q; want both invented numbers marked", f.FindingID, f.Summary)
		}
	}
	rep, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(rep), "41.9% [unverified]") || !strings.Contains(string(rep), "2,718,281 [unverified]") {
		t.Errorf("report summary does not mark the invented numbers")
	}
	if n := len(policies(auditEvents(t, dir), "number_check", "marked_unverified")); n < len(ledger.Findings)+1 {
		t.Errorf("%d number_check entries in the audit log; want one per finding and one for the report (%d)", n, len(ledger.Findings)+1)
	}
}

// TestModelThatAttacksTheSandbox: SQL that reads files, attaches a
// database, installs an extension or changes settings fails in the
// sandbox, is logged as denied, and nothing of the host leaks out.
func TestModelThatAttacksTheSandbox(t *testing.T) {
	attacks := []string{
		"SELECT * FROM read_csv('/etc/passwd')",
		"ATTACH '/tmp/quarry-attack.db' AS x",
		"INSTALL httpfs",
		"SET enable_external_access = true",
	}
	m := analystModel()
	m.Purposes["decide"] = func(req *llm.Request) (*llm.Response, error) {
		return llmtest.JSON(decisionJSON("ANALYZE", "", "look at the system", "SELECT * FROM read_text('/etc/passwd')", nil)), nil
	}
	repairs := 0
	m.Purposes["repair"] = func(req *llm.Request) (*llm.Response, error) {
		sql := attacks[repairs%len(attacks)]
		repairs++
		return llmtest.JSON(map[string]string{"code": sql, "reasoning": "try another way"}), nil
	}
	res, dir := runWithModel(t, "revenue_drop", m)
	sameExplanations(t, res)

	denied := policies(auditEvents(t, dir), "sandbox", "denied")
	if len(denied) < 5 {
		t.Fatalf("%d denied sandbox entries; want every attempt (at least the first iteration's 4)", len(denied))
	}
	seen := map[string]bool{}
	for _, e := range denied {
		seen[strings.Fields(e.EventData["sql"].(string))[0]+" "+strings.Fields(e.EventData["sql"].(string))[1]] = true
	}
	for _, a := range append(attacks, "SELECT * FROM read_text") {
		key := strings.Join(strings.Fields(a)[:2], " ")
		if !seen[key] {
			t.Errorf("no denied entry for %q (have %v)", a, seen)
		}
	}
	if _, err := os.Stat("/tmp/quarry-attack.db"); err == nil {
		t.Errorf("ATTACH created /tmp/quarry-attack.db")
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		if strings.Contains(string(b), "root:x:0:0") {
			t.Errorf("%s contains /etc/passwd content", p)
		}
		return nil
	})
	for _, it := range iterations(t, dir) {
		if it.Decision != investigation.DecisionConclude && strings.Count(it.CodeExecuted, "-- failed (forbidden by the sandbox)") != 4 {
			t.Errorf("iteration %d ran %q; want the attack and 3 repairs, all forbidden", it.Iteration, it.CodeExecuted)
			break
		}
	}
}

// TestModelThatNeverConcludes: the loop stops at the iteration cap, after
// every planned check has run.
func TestModelThatNeverConcludes(t *testing.T) {
	m := analystModel()
	m.Purposes["decide"] = llmtest.Fixed(llmtest.JSON(decisionJSON("DRILL_DOWN", "hyp_001", "one more look",
		"SELECT country, SUM(amount) AS revenue FROM orders GROUP BY 1 ORDER BY 2 DESC", []map[string]string{{"hypothesis_id": "hyp_007", "status": "CONFIRMED"}})))
	res, dir := runWithModel(t, "revenue_drop", m)
	sameExplanations(t, res)
	var ledger investigation.FindingsLedger
	readJSON(t, filepath.Join(dir, "analysis", "findings_ledger.json"), &ledger)
	if ledger.ExitReason != investigation.ExitMaxIterations && ledger.ExitReason != investigation.ExitStall {
		t.Errorf("exit reason %s; want MAX_ITERATIONS or STALL_DETECTED", ledger.ExitReason)
	}
	if ledger.TotalIterations > quarry.MaxLoopIterations {
		t.Errorf("%d iterations; the cap is %d", ledger.TotalIterations, quarry.MaxLoopIterations)
	}
	// Its status claims were never applied.
	offlineHyps := statusesOffline(t)
	for _, h := range hypotheses(t, dir) {
		if want, ok := offlineHyps[h.Kind+"/"+strings.Join(h.Dimensions, ",")]; ok && want != h.Status {
			t.Errorf("%s (%s) is %s; offline it is %s", h.HypothesisID, h.Title, h.Status, want)
		}
	}
	if len(policies(auditEvents(t, dir), "hypothesis_status", "not_applied")) == 0 {
		t.Errorf("the model's status claims are not logged as not applied")
	}
}

// statusesOffline runs revenue_drop offline and returns each hypothesis's
// final status by kind and dimensions.
func statusesOffline(t *testing.T) map[string]investigation.HypothesisStatus {
	t.Helper()
	_, dir := investigateScenario(t, "revenue_drop")
	paths, _ := filepath.Glob(filepath.Join(dir, "sessions", "*"))
	out := map[string]investigation.HypothesisStatus{}
	for _, p := range paths {
		for _, h := range hypotheses(t, p) {
			out[h.Kind+"/"+strings.Join(h.Dimensions, ",")] = h.Status
		}
	}
	if len(out) == 0 {
		t.Fatal("no offline hypotheses found")
	}
	return out
}

// TestModelThatReturnsInvalidJSON: every answer is rejected and logged, and
// every step runs offline.
func TestModelThatReturnsInvalidJSON(t *testing.T) {
	m := &llmtest.Model{ModelName: "garbage", Reply: llmtest.Fixed(llmtest.Text("Sure! Here is the JSON you asked for: {decision: ANALYZE"))}
	res, dir := runWithModel(t, "revenue_drop", m)
	sameExplanations(t, res)
	rejected := policies(auditEvents(t, dir), "model_output", "rejected")
	if len(rejected) != len(m.Calls()) {
		t.Errorf("%d rejections logged for %d calls", len(rejected), len(m.Calls()))
	}
	if counts := m.CountByPurpose(); counts["repair"] != 0 || counts["decide"] == 0 {
		t.Errorf("calls by purpose %v; want decisions asked and no repairs", counts)
	}
}

// TestModelUnavailable: a provider that is down costs two calls; the rest
// of the run is offline and completes.
func TestModelUnavailable(t *testing.T) {
	m := &llmtest.Model{ModelName: "down", Reply: llmtest.Fail(&llm.Error{Kind: llm.KindUnavailable, Status: 529, Provider: "scripted", Message: "overloaded"})}
	var progress strings.Builder
	res, dir := runWithModel(t, "revenue_drop", m, func(inv *investigationRun) { inv.stderr = &progress })
	sameExplanations(t, res)
	if !strings.Contains(progress.String(), "model down did not answer (UNAVAILABLE); this step and the rest of the investigation run offline") {
		t.Errorf("the progress does not say the rest of the run is offline:\n%s", progress.String())
	}
	if n := len(m.Calls()); n != 2 {
		t.Errorf("%d calls to a model that is down; want 2", n)
	}
	if res.Tokens == nil || res.Tokens.Calls != 0 {
		t.Errorf("tokens %+v; want 0 successful calls", res.Tokens)
	}
	var found bool
	for _, e := range auditEvents(t, dir) {
		if s, _ := e.EventData["policy"].(string); strings.Contains(s, "rest of the investigation runs offline") {
			found = true
		}
	}
	if !found {
		t.Errorf("the switch to offline is not in the audit log")
	}
}
