package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/sampledata"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/llmtest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// runWithModel runs a sample scenario with model m and returns the result
// and the session directory. Each option may change the investigation
// before it runs.
func runWithModel(t *testing.T, scenario string, m llm.Model, options ...func(*investigationRun)) (*investigation.Result, string) {
	t.Helper()
	s, ok := sampledata.Get(scenario)
	if !ok {
		t.Fatalf("no scenario %s", scenario)
	}
	dir := t.TempDir()
	paths, err := sampledata.WriteScenario(filepath.Join(dir, "samples"), s)
	if err != nil {
		t.Fatal(err)
	}
	inv := investigationRun{dataDir: dir, maxMB: 50, stderr: io.Discard, model: m}
	for i, p := range paths {
		inv.files = append(inv.files, fileArg{path: p, description: s.Files[i].Description})
	}
	inv.context = investigation.Context{MetricSQL: s.MetricSQL, BaselinePeriod: s.Baseline, ComparisonPeriod: s.Comparison,
		BusinessContext: s.Context, InvestigationPrompt: s.Prompt}
	for _, o := range options {
		o(&inv)
	}
	res, err := inv.run(context.Background())
	if err != nil {
		t.Fatalf("investigation with %s: %v", m.Name(), err)
	}
	report := res.ReportPath
	if !filepath.IsAbs(report) {
		report = filepath.Join(dir, report)
	}
	return res, filepath.Dir(report)
}

// offline is the offline result of revenue_drop, computed once.
var offline struct {
	res  *investigation.Result
	hyps map[string]investigation.HypothesisStatus
}

func offlineResult(t *testing.T) *investigation.Result {
	t.Helper()
	if offline.res == nil {
		offline.res, _ = investigateScenario(t, "revenue_drop")
	}
	return offline.res
}

// sameExplanations checks that a model-driven run found exactly what the
// offline analyst found: the same segments in the same order with the same
// shares of the change.
func sameExplanations(t *testing.T, got *investigation.Result) {
	t.Helper()
	want := offlineResult(t)
	if len(got.Explanations) != len(want.Explanations) {
		t.Fatalf("%d explanations; offline found %d", len(got.Explanations), len(want.Explanations))
	}
	for i := range want.Explanations {
		g, w := got.Explanations[i], want.Explanations[i]
		if segmentKey(g.Segment) != segmentKey(w.Segment) || g.ShareOfChange != w.ShareOfChange || g.Change != w.Change {
			t.Errorf("explanation %d = %s (%.4f, %.2f); offline %s (%.4f, %.2f)", i+1,
				segmentKey(g.Segment), g.ShareOfChange, g.Change, segmentKey(w.Segment), w.ShareOfChange, w.Change)
		}
	}
}

var (
	iterationRe = regexp.MustCompile(`iteration (\d+) of`)
	measuredRe  = regexp.MustCompile(`Quarry's measured summary: (.*)`)
	firstExplRe = regexp.MustCompile(`(?m)^1\. (.*)$`)
)

func iterationOf(req *llm.Request) int {
	m := iterationRe.FindStringSubmatch(req.Messages[0].Content)
	if m == nil {
		return 0
	}
	n := 0
	fmt.Sscan(m[1], &n)
	return n
}

// analystModel is a well-behaved scripted analyst for revenue_drop: it
// reads the schema, proposes hypotheses (one untestable), writes SQL (one
// with a misspelt column it then repairs), condenses by restating the
// measurement and concludes once Quarry's checks are done.
func analystModel() *llmtest.Model {
	return &llmtest.Model{ModelName: "scripted-analyst", Purposes: map[string]llmtest.Reply{
		"schema": llmtest.Fixed(llmtest.JSON(map[string]any{
			"columns": []map[string]string{
				{"table": "orders", "column": "amount", "meaning": "order revenue in USD"},
				{"table": "orders", "column": "app_version", "meaning": "mobile app release the order was placed with"},
				{"table": "customers", "column": "segment", "meaning": "consumer or enterprise account"},
			},
			"relationships":          []string{"orders.customer_id -> customers.customer_id gives each order its customer's segment"},
			"recommended_dimensions": []string{"app_version", "platform", "customers.segment", "no_such_column"},
		})),
		"hypotheses": llmtest.Fixed(llmtest.JSON(map[string]any{"hypotheses": []map[string]any{
			{"title": "Release 5.2 broke checkout on Android", "causal_story": "The 5.2 rollout in February may have broken the Android checkout.", "kind": "segment",
				"dimensions": []string{"platform", "app_version"}, "expected_pattern": "android 5.2 orders collapse", "priority": 1},
			{"title": "Enterprise price lists were cut", "causal_story": "Negotiated enterprise prices may have dropped.", "kind": "segment",
				"dimensions": []string{"customers.segment"}, "expected_pattern": "enterprise order value falls", "priority": 2},
			{"title": "Tracking lost orders", "causal_story": "An analytics outage may have dropped order rows.", "kind": "data_quality",
				"dimensions": []string{}, "expected_pattern": "missing days", "priority": 3},
			{"title": "Easter moved the calendar", "causal_story": "Holidays changed the weekday mix.", "kind": "calendar",
				"dimensions": []string{}, "expected_pattern": "weekday mix differs", "priority": 4},
			{"title": "A competitor launched", "causal_story": "A competitor took market share.", "kind": "other",
				"dimensions": []string{"competitor"}, "expected_pattern": "all segments fall", "priority": 5},
		}})),
		"decide": func(req *llm.Request) (*llm.Response, error) {
			prompt := req.Messages[0].Content
			switch it := iterationOf(req); {
			case it == 1:
				return llmtest.JSON(decisionJSON("ANALYZE", "hyp_001", "see revenue by platform and version first",
					"SELECT platform, app_version, SUM(amount) AS revenue FROM orders GROUP BY 1, 2 ORDER BY 1, 2", nil)), nil
			case it == 2:
				return llmtest.JSON(decisionJSON("DRILL_DOWN", "hyp_001", "daily android 5.2 revenue",
					"SELECT order_date, SUM(amount) AS revenue FROM orders WHERE platform = 'android' AND app_versoin = '5.2' GROUP BY 1 ORDER BY 1", nil)), nil
			case strings.Contains(prompt, "none: every planned check has run"):
				return llmtest.JSON(decisionJSON("CONCLUDE", "", "every hypothesis has a measured verdict", "", nil)), nil
			}
			return llmtest.JSON(decisionJSON("ANALYZE", "", "follow Quarry's planned check", "", nil)), nil
		},
		"repair": func(req *llm.Request) (*llm.Response, error) {
			fixed := strings.ReplaceAll(sqlIn(req.Messages[0].Content), "app_versoin", "app_version")
			return llmtest.JSON(map[string]string{"code": fixed, "reasoning": "the column is app_version"}), nil
		},
		"condense": func(req *llm.Request) (*llm.Response, error) {
			m := measuredRe.FindStringSubmatch(req.Messages[0].Content)
			s := "Nothing was measured in this step."
			if m != nil && strings.TrimSpace(m[1]) != "" {
				s = "In short: " + m[1]
			}
			return llmtest.JSON(map[string]string{"summary": s}), nil
		},
		"report": func(req *llm.Request) (*llm.Response, error) {
			m := firstExplRe.FindStringSubmatch(req.Messages[0].Content)
			return llmtest.JSON(map[string]string{"summary": "The largest cause: " + m[1]}), nil
		},
	}}
}

func decisionJSON(decision, hyp, why, sql string, updates []map[string]string) map[string]any {
	if updates == nil {
		updates = []map[string]string{}
	}
	return map[string]any{"decision": decision, "hypothesis_id": hyp, "reasoning": why, "sql": sql, "python": "", "hypothesis_updates": updates}
}

// sqlIn returns the failed query quoted in a repair prompt.
func sqlIn(prompt string) string {
	_, after, _ := strings.Cut(prompt, "The query was:\n")
	sql, _, _ := strings.Cut(after, "\n\nWrite a corrected query")
	return sql
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// readGlob decodes every file matching pattern under dir, in name order.
func readGlob[T any](t *testing.T, dir, pattern string) []T {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, pattern))
	sort.Strings(paths)
	var out []T
	for _, p := range paths {
		var v T
		readJSON(t, p, &v)
		out = append(out, v)
	}
	return out
}

func iterations(t *testing.T, dir string) []investigation.IterationLog {
	return readGlob[investigation.IterationLog](t, dir, "analysis/iterations/iter_*.json")
}

func hypotheses(t *testing.T, dir string) []investigation.Hypothesis {
	return readGlob[investigation.Hypothesis](t, dir, "analysis/hypotheses/hyp_*.json")
}

// auditEvents returns the audit log's entries.
func auditEvents(t *testing.T, dir string) []quarry.AuditEntry {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []quarry.AuditEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e quarry.AuditEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

func policies(entries []quarry.AuditEntry, policy, decision string) []quarry.AuditEntry {
	var out []quarry.AuditEntry
	for _, e := range entries {
		if e.EventType == quarry.EventPolicyDecision && e.EventData["policy"] == policy && e.EventData["decision"] == decision {
			out = append(out, e)
		}
	}
	return out
}

// TestScriptedModelDrivesEveryStep runs revenue_drop with a well-behaved
// scripted analyst and checks that the model took part in every step, its
// repair was used, statuses and explanations stayed the offline analyst's,
// tokens were counted, and the whole exchange matches the golden
// transcript.
func TestScriptedModelDrivesEveryStep(t *testing.T) {
	m := analystModel()
	res, dir := runWithModel(t, "revenue_drop", m)
	sameExplanations(t, res)

	counts := m.CountByPurpose()
	for _, p := range []string{"schema", "hypotheses", "decide", "repair", "condense", "report"} {
		if counts[p] == 0 {
			t.Errorf("no %q call; calls: %v", p, counts)
		}
	}
	if counts["repair"] != 1 {
		t.Errorf("%d repair calls; want 1 (one misspelt column)", counts["repair"])
	}

	its := iterations(t, dir)
	if its[0].Decision != investigation.DecisionAnalyze || !strings.Contains(its[0].CodeExecuted, "SELECT platform, app_version, SUM(amount)") {
		t.Errorf("iteration 1: %s %q; want the model's ANALYZE query", its[0].Decision, its[0].CodeExecuted)
	}
	if its[1].Decision != investigation.DecisionDrillDown || !strings.Contains(its[1].CodeExecuted, "-- failed (missing column)") ||
		!strings.Contains(its[1].RawOutput, "app_version = '5.2'") {
		t.Errorf("iteration 2 should hold the failed query and its repair:\n%s", its[1].RawOutput)
	}
	last := its[len(its)-1]
	if last.Decision != investigation.DecisionConclude || !strings.HasPrefix(last.Reasoning, "model: ") {
		t.Errorf("last iteration %s %q; want the model's CONCLUDE", last.Decision, last.Reasoning)
	}
	var sum investigation.TokenUsage
	maxMemory := 0
	for _, it := range its {
		maxMemory = max(maxMemory, it.WorkingMemoryTokens)
		if it.WorkingMemoryTokens == 0 || it.WorkingMemoryTokens > 6000 {
			t.Errorf("iteration %d working memory %d tokens; want 1..6000", it.Iteration, it.WorkingMemoryTokens)
		}
		if it.Tokens == nil || it.Tokens.Calls == 0 {
			t.Errorf("iteration %d has no token usage", it.Iteration)
			continue
		}
		sum.Calls += it.Tokens.Calls
		sum.InputTokens += it.Tokens.InputTokens
	}
	t.Logf("%d iterations, largest working memory %d tokens (estimated), %d calls", len(its), maxMemory, len(m.Calls()))
	if res.Tokens == nil || res.Tokens.Calls != len(m.Calls()) || res.Model != "scripted-analyst" {
		t.Fatalf("result tokens %+v model %q; want %d calls by scripted-analyst", res.Tokens, res.Model, len(m.Calls()))
	}
	if sum.Calls >= res.Tokens.Calls || sum.InputTokens >= res.Tokens.InputTokens {
		t.Errorf("iterations count %+v; the investigation's %+v must add the schema, hypotheses and report calls", sum, *res.Tokens)
	}
	var usage struct {
		Total     investigation.TokenUsage            `json:"total"`
		ByPurpose map[string]investigation.TokenUsage `json:"by_purpose"`
	}
	readJSON(t, filepath.Join(dir, "analysis", "llm_usage.json"), &usage)
	if usage.Total != *res.Tokens || usage.ByPurpose["decide"].Calls != counts["decide"] {
		t.Errorf("llm_usage.json = %+v; want total %+v and %d decide calls", usage, *res.Tokens, counts["decide"])
	}

	// The model's hypotheses joined or enriched the data-driven ones; the
	// untestable one was dropped and logged.
	hyps := hypotheses(t, dir)
	var titles []string
	for _, h := range hyps {
		titles = append(titles, h.Title+" ["+string(h.Status)+"]")
	}
	joined := strings.Join(titles, "; ")
	for _, want := range []string{"Release 5.2 broke checkout on Android [CONFIRMED]", "Enterprise price lists were cut", "Tracking lost orders", "Easter moved the calendar"} {
		if !strings.Contains(joined, want) {
			t.Errorf("hypotheses %s; want %q", joined, want)
		}
	}
	if strings.Contains(joined, "competitor") {
		t.Errorf("untestable hypothesis kept: %s", joined)
	}
	audit := auditEvents(t, dir)
	if len(policies(audit, "hypotheses", "dropped")) != 1 {
		t.Errorf("the dropped hypothesis is not in the audit log")
	}

	rep, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, summary, _ := strings.Cut(string(rep), "## Summary\n\n")
	summary, _, _ = strings.Cut(summary, "\n\n")
	if !strings.HasPrefix(summary, "The largest cause: ") || strings.Contains(summary, evidenceMarker) {
		t.Errorf("report summary %q; want the model's, with every number verified", summary)
	}
	golden(t, "testdata/model_transcript.golden", m.Transcript())
}

const evidenceMarker = "[unverified]"

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < min(len(gl), len(wl)); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs at line %d:\n got: %s\nwant: %s\n(run go test -update if the change is intended)", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s differs in length: %d lines, want %d (run go test -update if intended)", path, len(gl), len(wl))
	}
}
