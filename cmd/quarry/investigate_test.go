package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/internal/sampledata"
	"github.com/quarry-dev/quarry/investigation"
)

// runCLI runs the quarry command in-process and returns stdout, stderr and
// the exit status main would return.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, func(string) string { return "" }, strings.NewReader(""), &out, &errb)
	code := exitCode(err, &errb)
	return out.String(), errb.String(), code
}

// investigateScenario runs "quarry demo --json" on a sample scenario.
func investigateScenario(t *testing.T, name string) (*investigation.Result, string) {
	t.Helper()
	dir := t.TempDir()
	stdout, stderr, code := runCLI(t, "demo", "--scenario", name, "--data-dir", dir, "--json")
	if code != 0 {
		t.Fatalf("quarry demo --scenario %s exited %d\n%s", name, code, stderr)
	}
	var res investigation.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("decode --json output: %v\n%s", err, stdout)
	}
	return &res, dir
}

func findExplanation(res *investigation.Result, seg string) *investigation.Explanation {
	for i := range res.Explanations {
		if segmentKey(res.Explanations[i].Segment) == seg {
			return &res.Explanations[i]
		}
	}
	return nil
}

func TestInvestigateFindsPlantedCauses(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end investigations are not short")
	}
	tests := []struct {
		scenario string
		status   string
		want     []struct{ seg, kind string } // planted causes that must be explanations
		first    string                       // kind of the rank-1 explanation
	}{
		{"revenue_drop", investigation.OutcomeCompleted, []struct{ seg, kind string }{
			{"app_version=5.2 AND platform=android", investigation.KindVolume},
			{"customers.segment=enterprise", investigation.KindRate},
		}, investigation.KindVolume},
		{"checkout_conversion", investigation.OutcomeCompleted, []struct{ seg, kind string }{
			{"traffic_source=paid_social", investigation.KindMix},
			{"country=DE AND device=ios", investigation.KindRate},
		}, ""},
		{"broken_pipeline", investigation.OutcomeCompleted, []struct{ seg, kind string }{
			{"source_system=eu_batch", investigation.KindDataQuality},
		}, investigation.KindDataQuality},
		{"weekday_mix", investigation.OutcomeCompleted, []struct{ seg, kind string }{
			{"", investigation.KindCalendar},
		}, ""},
		{"steady", investigation.OutcomeNoFindings, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			res, _ := investigateScenario(t, tt.scenario)
			if res.Status != tt.status {
				t.Fatalf("status = %s; want %s (explanations: %s)", res.Status, tt.status, titles(res))
			}
			for _, w := range tt.want {
				var e *investigation.Explanation
				if w.seg == "" {
					for i := range res.Explanations {
						if res.Explanations[i].Kind == w.kind {
							e = &res.Explanations[i]
						}
					}
				} else {
					e = findExplanation(res, w.seg)
				}
				if e == nil {
					t.Errorf("no explanation for planted %s (%s); got %s", w.seg, w.kind, titles(res))
					continue
				}
				if e.Kind != w.kind {
					t.Errorf("explanation %q kind = %s; want %s", e.Title, e.Kind, w.kind)
				}
			}
			if tt.first != "" && (len(res.Explanations) == 0 || res.Explanations[0].Kind != tt.first) {
				t.Errorf("rank 1 kind: got %s; want %s", titles(res), tt.first)
			}
			for i, e := range res.Explanations {
				if e.Rank != i+1 || e.Likelihood != investigation.LikelihoodForRank(i+1) || len(e.Evidence) == 0 || len(e.SourceHypotheses) == 0 {
					t.Errorf("explanation %d malformed: rank %d, likelihood %q, %d evidence, hypotheses %v", i, e.Rank, e.Likelihood, len(e.Evidence), e.SourceHypotheses)
				}
				for _, ev := range e.Evidence {
					if ev.SQL == "" || ev.AuditSequence == 0 {
						t.Errorf("evidence %q of %q lacks its SQL or audit entry", ev.Description, e.Title)
					}
				}
			}
		})
	}
}

func titles(res *investigation.Result) string {
	var s []string
	for _, e := range res.Explanations {
		s = append(s, e.Kind+": "+segmentKey(e.Segment)+" ("+e.Title+")")
	}
	return "[" + strings.Join(s, "; ") + "]"
}

func TestInvestigateWritesSessionLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end investigations are not short")
	}
	res, dir := investigateScenario(t, "revenue_drop")
	sess := filepath.Join(dir, "sessions", res.SessionID)
	for _, p := range []string{"metadata.json", "context.json", "analysis/schema.json", "analysis/plan.json",
		"analysis/hypotheses/hyp_001.json", "analysis/findings_ledger.json", "analysis/iterations/iter_001.json",
		"analysis/full_outputs/output_001.txt", "results/explanations.json", "report.md", "charts/waterfall.png", "audit.jsonl"} {
		if _, err := os.Stat(filepath.Join(sess, p)); err != nil {
			t.Errorf("session lacks %s", p)
		}
	}
	var meta investigation.Investigation
	data, _ := os.ReadFile(filepath.Join(sess, "metadata.json"))
	if err := json.Unmarshal(data, &meta); err != nil || meta.Status != investigation.StatusCompleted || !meta.ReportReady {
		t.Errorf("metadata = %+v (%v); want completed with report ready", meta, err)
	}
	v, err := audit.VerifyFile(filepath.Join(sess, "audit.jsonl"))
	if err != nil || !v.OK() || v.Entries < 10 {
		t.Errorf("audit log: %+v, %v; want an intact chain of many entries", v, err)
	}
	if res.ReportPath != filepath.Join(sess, "report.md") {
		t.Errorf("report_path = %s", res.ReportPath)
	}
	var ledger investigation.FindingsLedger
	data, _ = os.ReadFile(filepath.Join(sess, "analysis/findings_ledger.json"))
	json.Unmarshal(data, &ledger)
	if ledger.TotalIterations < 3 || ledger.TotalIterations > quarry.MaxLoopIterations || ledger.ExitReason == "" {
		t.Errorf("ledger: %d iterations, exit %q", ledger.TotalIterations, ledger.ExitReason)
	}
	if n := len(ledger.HypothesisOutcomes); n < quarry.MinHypotheses || n > quarry.MaxHypotheses {
		t.Errorf("%d hypotheses; want 5-7", n)
	}
	// Shares of the planted causes match the measured ground truth.
	s, _ := sampledata.Get("revenue_drop")
	for _, c := range s.Planted {
		key := segmentKey(c.Segment)
		if c.Table != "orders" {
			key = segmentKey(investigation.Segment{{Column: c.Table + "." + c.Segment[0].Column, Value: c.Segment[0].Value}})
		}
		e := findExplanation(res, key)
		if e == nil {
			continue // reported by TestInvestigateFindsPlantedCauses
		}
		if math.Abs(e.ShareOfChange-c.ApproxShare) > 0.15 {
			t.Errorf("%s share = %.3f; planted %.3f", key, e.ShareOfChange, c.ApproxShare)
		}
	}
}

func TestInvestigateBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	good := write("orders.csv", "order_id,order_date,platform,amount\n1,2024-03-04,ios,10\n2,2024-03-18,web,12\n")
	base := []string{"--metric", "SELECT SUM(amount) FROM orders", "--baseline", "2024-03-04..2024-03-10", "--comparison", "2024-03-18..2024-03-24", "--data-dir", filepath.Join(dir, "data")}
	tests := []struct {
		name string
		args []string
		code string
	}{
		{"not csv", append([]string{"investigate", "--file", write("orders.txt", "a,b\n1,2\n")}, base...), quarry.ECodeInvalidFileType},
		{"no files", append([]string{"investigate"}, base...), quarry.ECodeNoFilesUploaded},
		{"missing metric", []string{"investigate", "--file", good, "--baseline", "2024-03-04..2024-03-10", "--comparison", "2024-03-18..2024-03-24"}, quarry.ECodeMetricSQLRequired},
		{"unparsable date", []string{"investigate", "--file", good, "--metric", "SELECT SUM(amount) FROM orders", "--baseline", "2024-13-04..2024-03-10", "--comparison", "2024-03-18..2024-03-24"}, quarry.ECodeInvalidDateRange},
		{"end before start", []string{"investigate", "--file", good, "--metric", "SELECT SUM(amount) FROM orders", "--baseline", "2024-03-10..2024-03-04", "--comparison", "2024-03-18..2024-03-24"}, quarry.ECodeInvalidDateRange},
		{"empty file", append([]string{"investigate", "--file", write("empty.csv", "")}, base...), quarry.ECodeEmptyFile},
		{"ragged rows", append([]string{"investigate", "--file", write("ragged.csv", "order_id,order_date,amount\n1,2024-03-04,10\n2,2024-03-18\n")}, base...), quarry.ECodeMalformedCSV},
		{"no header", append([]string{"investigate", "--file", write("nohead.csv", "1,2024-03-04,10\n2,2024-03-18,12\n")}, base...), quarry.ECodeNoHeaders},
		{"unknown column", []string{"investigate", "--file", good, "--metric", "SELECT SUM(revenue) FROM orders", "--baseline", "2024-03-04..2024-03-10", "--comparison", "2024-03-18..2024-03-24", "--data-dir", filepath.Join(dir, "data")}, quarry.ECodeInvalidMetricSQL},
		{"metric does not parse", []string{"investigate", "--file", good, "--metric", "SELEC SUM(amount FROM orders", "--baseline", "2024-03-04..2024-03-10", "--comparison", "2024-03-18..2024-03-24", "--data-dir", filepath.Join(dir, "data")}, quarry.ECodeInvalidMetricSQL},
		{"over the size limit", append([]string{"investigate", "--max-file-mb", "1", "--file", write("big.csv", "a,b\n"+strings.Repeat("1,2\n", 300_000))}, base...), quarry.ECodeFileTooLarge},
		{"unknown table", []string{"investigate", "--file", good, "--metric", "SELECT SUM(amount) FROM sales", "--baseline", "2024-03-04..2024-03-10", "--comparison", "2024-03-18..2024-03-24", "--data-dir", filepath.Join(dir, "data")}, quarry.ECodeInvalidMetricSQL},
		{"unsupported metric", []string{"investigate", "--file", good, "--metric", "SELECT platform, SUM(amount) FROM orders GROUP BY platform", "--baseline", "2024-03-04..2024-03-10", "--comparison", "2024-03-18..2024-03-24", "--data-dir", filepath.Join(dir, "data")}, quarry.ECodeUnsupportedMetric},
		{"period without data", []string{"investigate", "--file", good, "--metric", "SELECT SUM(amount) FROM orders", "--baseline", "2023-03-04..2023-03-10", "--comparison", "2024-03-18..2024-03-24", "--data-dir", filepath.Join(dir, "data")}, quarry.ECodeNoDataInPeriod},
		{"time column not a date", []string{"investigate", "--file", good, "--metric", "SELECT SUM(amount) FROM orders", "--time-column", "orders.platform", "--baseline", "2024-03-04..2024-03-10", "--comparison", "2024-03-18..2024-03-24", "--data-dir", filepath.Join(dir, "data")}, quarry.ECodeInvalidTimeColumn},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, tt.args...)
			if code != 1 || !strings.Contains(stderr, "error "+tt.code+":") {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit 1 with %s", code, stderr, tt.code)
			}
		})
	}
	// Eleven files are refused before anything is written.
	args := []string{"investigate"}
	for i := 0; i < 11; i++ {
		args = append(args, "--file", good)
	}
	_, stderr, code := runCLI(t, append(args, base...)...)
	if code != 1 || !strings.Contains(stderr, quarry.ECodeMaxFilesExceeded) {
		t.Fatalf("11 files: exit %d, %s", code, stderr)
	}
}

func TestFailedSessionKeepsItsArtifacts(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "orders.csv")
	os.WriteFile(p, []byte("order_id,order_date,amount\n1,2024-03-04,10\n2,2024-03-18,12\n"), 0o644)
	data := filepath.Join(dir, "data")
	_, _, code := runCLI(t, "investigate", "--file", p, "--metric", "SELECT SUM(nope) FROM orders",
		"--baseline", "2024-03-04..2024-03-10", "--comparison", "2024-03-18..2024-03-24", "--data-dir", data)
	if code != 1 {
		t.Fatalf("exit %d; want 1", code)
	}
	sessions, _ := filepath.Glob(filepath.Join(data, "sessions", "*", "metadata.json"))
	if len(sessions) != 1 {
		t.Fatalf("%d sessions; want 1", len(sessions))
	}
	var meta investigation.Investigation
	raw, _ := os.ReadFile(sessions[0])
	json.Unmarshal(raw, &meta)
	if meta.Status != investigation.StatusFailed || meta.Error == nil || meta.Error.Code != quarry.ECodeInvalidMetricSQL {
		t.Fatalf("failed session metadata = %+v; want failed with INVALID_METRIC_SQL", meta)
	}
	sess := filepath.Dir(sessions[0])
	for _, rel := range []string{"context.json", "audit.jsonl"} {
		if _, err := os.Stat(filepath.Join(sess, rel)); err != nil {
			t.Errorf("failed session lost %s", rel)
		}
	}
	if res, err := audit.VerifyFile(filepath.Join(sess, "audit.jsonl")); err != nil || !res.OK() {
		t.Errorf("failed session's audit log: %+v %v", res, err)
	}
}

func TestAuditVerifyCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	l, _ := audit.Open(path, "r", nil)
	l.Append(quarry.EventToolCalled, "actor", map[string]any{"sql": "SELECT 1"})
	l.Append(quarry.EventObservationRecorded, "actor", map[string]any{"rows": 1})
	l.Close()
	out, _, code := runCLI(t, "audit", "verify", path)
	if code != 0 || !strings.Contains(out, "2 entries, each hash recomputed") || !strings.Contains(out, "verified") {
		t.Fatalf("verify intact: exit %d, %s", code, out)
	}
	raw, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.Replace(raw, []byte(`"rows":1`), []byte(`"rows":2`), 1), 0o644)
	_, stderr, code := runCLI(t, "audit", "verify", path)
	if code != 1 || !strings.Contains(stderr, "entry 2 is broken") {
		t.Fatalf("verify tampered: exit %d, %s", code, stderr)
	}
}

// TestAuditVerifyChecksArtifacts edits what an investigation wrote (the
// explanations, a chart, the uploaded file) and cuts the log short: each is
// caught, by name.
func TestAuditVerifyChecksArtifacts(t *testing.T) {
	_, dir := investigateScenario(t, "revenue_drop")
	sessions, _ := filepath.Glob(filepath.Join(dir, "sessions", "*", "audit.jsonl"))
	if len(sessions) != 1 {
		t.Fatalf("sessions: %v", sessions)
	}
	logPath := sessions[0]
	sess := filepath.Dir(logPath)
	out, stderr, code := runCLI(t, "audit", "verify", logPath)
	if code != 0 || !strings.Contains(out, "verified") {
		t.Fatalf("intact: exit %d\n%s%s", code, out, stderr)
	}
	charts, _ := filepath.Glob(filepath.Join(sess, "charts", "*.png"))
	uploads, _ := filepath.Glob(filepath.Join(sess, "files", "*.csv"))
	if len(charts) == 0 || len(uploads) == 0 {
		t.Fatalf("no charts or uploads in %s", sess)
	}
	edit := func(p string) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(p, append(b, ' '), 0o644)
	}
	edit(filepath.Join(sess, "results", "explanations.json"))
	edit(charts[0])
	edit(uploads[0])
	out, _, code = runCLI(t, "audit", "verify", logPath)
	for _, want := range []string{"results/explanations.json: changed", "charts/" + filepath.Base(charts[0]) + ": changed", "files/" + filepath.Base(uploads[0]) + ": changed"} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("after edits: exit %d, output lacks %q\n%s", code, want, out)
		}
	}
	raw, _ := os.ReadFile(logPath)
	os.WriteFile(logPath, raw[:bytes.LastIndexByte(raw[:len(raw)-1], '\n')+1], 0o644)
	out, _, code = runCLI(t, "audit", "verify", logPath)
	if code != 1 || !strings.Contains(out, "removed from its end") {
		t.Errorf("after cutting the last entry: exit %d\n%s", code, out)
	}
}

// Overlapping periods are the user's choice; rows in both count in both.
func TestInvestigateOverlappingPeriods(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end investigations are not short")
	}
	dir := t.TempDir()
	s, _ := sampledata.Get("revenue_drop")
	paths, err := sampledata.WriteScenario(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, "investigate", "--file", paths[0], "--file", paths[1], "--metric", s.MetricSQL,
		"--baseline", "2024-03-04..2024-03-24", "--comparison", "2024-03-18..2024-03-31", "--data-dir", filepath.Join(dir, "data"), "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var res investigation.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Overall.BaselineValue <= 0 || res.Overall.ComparisonValue <= 0 {
		t.Fatalf("overall = %+v; want both periods measured", res.Overall)
	}
}

// The explanations' changes plus the waterfall's "everything else" equal the
// total change: checked on the explanations file of a ratio investigation.
func TestExplanationsAddUpToTheChange(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end investigations are not short")
	}
	res, _ := investigateScenario(t, "checkout_conversion")
	var sum float64
	for _, e := range res.Explanations {
		sum += e.ShareOfChange
		if e.Change == 0 || math.Abs(e.ShareOfChange-e.Change/res.Overall.Change) > 1e-9 {
			t.Errorf("%q: share %.4f does not match change %.6f of %.6f", e.Title, e.ShareOfChange, e.Change, res.Overall.Change)
		}
	}
	if sum <= 0.5 || sum > 1.5 {
		t.Errorf("explanations account for %.2f of the change; want most of it", sum)
	}
}
