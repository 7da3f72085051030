package analyze_test

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/analyze"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/duckdb"
	"github.com/quarry-dev/quarry/fsstore"
	"github.com/quarry-dev/quarry/sqlite"
)

const salesCSV = "../../testdata/analyze/sales.csv"

// env is an analyzer over a fresh data dir.
type env struct {
	dir   string
	store fsstore.Analyses
	log   *audit.Log
	a     *analyze.Analyzer
}

func newEnv(t testing.TB) *env {
	t.Helper()
	e := &env{dir: t.TempDir()}
	e.store = fsstore.Analyses{Root: e.dir}
	os.MkdirAll(filepath.Dir(e.store.AuditLog()), 0o755)
	log, err := audit.Open(e.store.AuditLog(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { log.Close() })
	e.log = log
	e.a = &analyze.Analyzer{
		NewWorkspace: func(context.Context) (analyze.Workspace, error) {
			return duckdb.Open(duckdb.Options{MemoryLimit: "512MB"})
		},
		OpenSource: func(ctx context.Context, ds analysis.DataSource) (analysis.Source, error) {
			return sqlite.OpenSource(ctx, strings.TrimPrefix(ds.ConnectionString, "sqlite:"))
		},
		TableName: duckdb.TableName,
		Audit:     log,
		Store:     e.store,
	}
	return e
}

func csvSource(path string) analysis.DataSource {
	return analysis.DataSource{Type: analysis.SourceCSV, FilePath: path}
}

// arizonaQ1 sums the sample's Arizona amounts in Q1 2021 in plain Go.
func arizonaQ1(t *testing.T) (sum float64, rows int) {
	t.Helper()
	f, err := os.Open(salesCSV)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs[1:] {
		if r[2] == "Arizona" && r[1] >= "2021-01-01" && r[1] < "2021-04-01" {
			v, _ := strconv.ParseFloat(r[7], 64)
			sum += v
			rows++
		}
	}
	return sum, rows
}

func TestAnalyzeSales(t *testing.T) {
	e := newEnv(t)
	res, err := e.a.Run(context.Background(), analysis.Request{
		Intent:      "Analyze Q1 2021 Arizona sales; trends + charts",
		DataSources: []analysis.DataSource{csvSource(salesCSV)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s (%v); undelivered %v", res.Status, res.Error, res.Undelivered)
	}
	// The totals step holds the exact sum of the rows in scope.
	want, rows := arizonaQ1(t)
	totals := observationOf(t, res, "totals")
	data := totals.Data.(map[string]any)
	got := quarry.AsFloat(data["rows"].([][]any)[0][0])
	if diff := got - want; diff > 0.005 || diff < -0.005 {
		t.Errorf("total Arizona Q1 2021 amount = %.2f; the file sums to %.2f over %d rows", got, want, rows)
	}
	if !strings.Contains(strings.ReplaceAll(res.Summary, ",", ""), strconv.FormatFloat(want, 'f', 2, 64)) {
		t.Errorf("the summary does not give the total: %s", res.Summary)
	}
	// A monthly trend of three months, charted.
	trend := observationOf(t, res, "trend")
	if n := *trend.RowCount; n != 3 {
		t.Errorf("trend has %d rows; want Jan, Feb, Mar 2021", n)
	}
	kinds := map[string]int{}
	for _, a := range res.Artifacts {
		kinds[a.ArtifactType]++
		body, err := os.ReadFile(a.ContentRef)
		if err != nil || quarry.SHA256Hex(body) != a.ContentHash || int64(len(body)) != a.SizeBytes {
			t.Errorf("artifact %s does not match its hash and size (%v)", a.ContentRef, err)
		}
		if !strings.Contains(filepath.ToSlash(a.ContentRef), "/artifacts/") || !strings.Contains(a.ContentRef, res.RequestID) {
			t.Errorf("artifact %s is not under artifacts/<kind>/<request_id>/", a.ContentRef)
		}
	}
	if kinds[analysis.ArtifactTable] < 2 || kinds[analysis.ArtifactChart] < 1 || kinds[analysis.ArtifactReport] != 1 || kinds[analysis.ArtifactSummary] != 1 {
		t.Errorf("artifacts by type %v; want tables, a chart, the report and the summary", kinds)
	}
	// The report opens with the answer, the summary, then the results,
	// then the plan.
	for _, a := range res.Artifacts {
		if a.ArtifactType != analysis.ArtifactReport {
			continue
		}
		body, _ := os.ReadFile(a.ContentRef)
		md := string(body)
		at := func(s string) int {
			i := strings.Index(md, s)
			if i < 0 {
				t.Errorf("the report lacks %q", s)
			}
			return i
		}
		if first := strings.SplitN(res.Summary, "\n", 2)[0]; !strings.Contains(md, "\n\n## Answer\n\n"+first+"\n") {
			t.Errorf("the report's answer does not open with the summary's first line %q:\n%s", first, md)
		}
		if a, r, p, au := at("\n## Answer\n"), at("\n## Results\n"), at("\n## Plan\n"), at("\n## Audit\n"); !(a < r && r < p && p < au) {
			t.Errorf("the report's sections at %d (answer), %d (results), %d (plan), %d (audit); want them in that order", a, r, p, au)
		}
		if strings.Index(md, "\n## ") != at("\n## Answer\n") {
			t.Error("a section comes before the answer in the report")
		}
	}
	// The audit trace verifies, covers every artifact, and catches a
	// changed artifact.
	rep, err := audit.CheckIn(e.store.AuditLog(), e.dir)
	if err != nil || !rep.OK() || rep.Artifacts != len(res.Artifacts) {
		t.Fatalf("audit check: %+v, %v; want OK over %d artifacts", rep, err, len(res.Artifacts))
	}
	events := map[string]int{}
	for _, ev := range readLog(t, e.store.AuditLog()) {
		if ev.RequestID != res.RequestID {
			t.Errorf("entry %d is for request %q", ev.SequenceNumber, ev.RequestID)
		}
		events[ev.EventType+"/"+ev.Actor]++
	}
	for _, k := range []string{"request_submitted/system", "plan_created/planner", "tool_called/actor", "observation_recorded/actor", "artifact_generated/system"} {
		if events[k] == 0 {
			t.Errorf("no %s entry in the audit log: %v", k, events)
		}
	}
	chart := res.Artifacts[0].ContentRef
	for _, a := range res.Artifacts {
		if a.ArtifactType == analysis.ArtifactChart {
			chart = a.ContentRef
		}
	}
	os.WriteFile(chart, []byte("not the chart"), 0o644)
	if rep, _ := audit.CheckIn(e.store.AuditLog(), e.dir); rep.OK() || len(rep.Problems) != 1 {
		t.Errorf("a changed chart verified: %+v", rep)
	}
	// The record is saved for the API and replay.
	var saved analysis.Result
	if err := e.store.ReadJSON(filepath.Join("analyses", res.RequestID, "result.json"), &saved); err != nil || saved.Status != res.Status {
		t.Errorf("saved result: %v, %+v", err, saved.Status)
	}
}

func observationOf(t *testing.T, res *analysis.Result, task string) analysis.Observation {
	t.Helper()
	var last *analysis.Observation
	for i := range res.Observations {
		if res.Observations[i].TaskID == task {
			last = &res.Observations[i]
		}
	}
	if last == nil || last.Status != analysis.ObsSuccess {
		t.Fatalf("no successful observation of %s: %+v", task, last)
	}
	return *last
}

func readLog(t *testing.T, path string) []quarry.AuditEntry {
	t.Helper()
	entries, err := audit.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// planOf makes a planner that returns the given steps.
func planOf(steps ...analysis.Subtask) func(context.Context, *analysis.Request, []analysis.SourceTable) (*analysis.Plan, error) {
	return func(context.Context, *analysis.Request, []analysis.SourceTable) (*analysis.Plan, error) {
		for i := range steps {
			if steps[i].Dependencies == nil {
				steps[i].Dependencies = []string{}
			}
			steps[i].EstimatedCostSeconds = 0.1
		}
		return &analysis.Plan{Subtasks: steps, Reasoning: "test plan"}, nil
	}
}

func writeCSV(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Each failure category is classified and repaired before the next
// attempt, and every attempt is in the log.
func TestRetriesRepairByCategory(t *testing.T) {
	data := writeCSV(t, "orders.csv", "order,region,amount,score\n1,west,10,5\n2,east,20,unknown\n3,west,5,7\n")
	tests := []struct {
		name, query string
		rowLimit    int
		category    string
		want        float64
	}{
		{"missing column", "SELECT SUM(amont) AS v FROM orders", 0, analysis.CategoryMissingColumn, 35},
		{"type mismatch", "SELECT SUM(score) AS v FROM orders", 0, analysis.CategoryTypeMismatch, 12},
		{"syntax: a keyword as a column", "SELECT MAX(order) AS v FROM orders", 0, analysis.CategorySQLSyntax, 3},
		{"resource exhausted", "SELECT amount AS v FROM orders ORDER BY amount DESC", 2, analysis.CategoryResourceExhausted, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.a.Planner = planOf(analysis.Subtask{TaskID: "q", Description: tt.name, ToolName: analysis.ToolSQL, Arguments: map[string]any{"query": tt.query}, Deliverable: analysis.DeliverTables})
			res, err := e.a.Run(context.Background(), analysis.Request{Intent: "test", DataSources: []analysis.DataSource{csvSource(data)},
				Constraints: analysis.Constraints{RowLimit: max(tt.rowLimit, 100)}, Deliverables: []string{analysis.DeliverTables}})
			if tt.rowLimit > 0 {
				e.a.Planner = planOf(analysis.Subtask{TaskID: "q", Description: tt.name, ToolName: analysis.ToolSQL, Arguments: map[string]any{"query": tt.query}, Deliverable: analysis.DeliverTables})
				res, err = e.a.Run(context.Background(), analysis.Request{Intent: "test", DataSources: []analysis.DataSource{csvSource(data)},
					Constraints: analysis.Constraints{RowLimit: tt.rowLimit}, Deliverables: []string{analysis.DeliverTables}})
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Observations) != 2 {
				t.Fatalf("%d attempts: %+v; want a failure then a repaired success", len(res.Observations), res.Observations)
			}
			first, second := res.Observations[0], res.Observations[1]
			if first.ErrorCategory == nil || *first.ErrorCategory != tt.category {
				t.Errorf("first attempt category %v (%v); want %s", first.ErrorCategory, first.ErrorMessage, tt.category)
			}
			// Rows cut at the row limit are said to be so, and the run
			// is not completed over them.
			wantStatus := analysis.StatusCompleted
			if tt.category == analysis.CategoryResourceExhausted {
				wantStatus = analysis.StatusPartialSuccess
				if d := second.Data.(map[string]any); d["truncated"] != true || d["rows_available"] != int64(3) {
					t.Errorf("the cut rows are not marked: %v", d)
				}
			}
			if second.Status != analysis.ObsSuccess || res.Status != wantStatus {
				t.Fatalf("second attempt %s (%v); run %s, want %s", second.Status, second.ErrorMessage, res.Status, wantStatus)
			}
			if got := quarry.AsFloat(second.Data.(map[string]any)["rows"].([][]any)[0][0]); got != tt.want {
				t.Errorf("repaired result %v; want %v (query now %v)", got, tt.want, res.Calls[1].Arguments["query"])
			}
			if res.Calls[1].AttemptNumber != 2 {
				t.Errorf("second call attempt %d", res.Calls[1].AttemptNumber)
			}
		})
	}
}

// The timeout stops a running query (cancellation, not a check after it
// ends): the step's observation is a timeout and the run says so.
func TestTimeoutCancels(t *testing.T) {
	e := newEnv(t)
	data := writeCSV(t, "t.csv", "x\n1\n")
	e.a.Planner = planOf(analysis.Subtask{TaskID: "slow", Description: "a query that would run for minutes", ToolName: analysis.ToolSQL,
		Arguments: map[string]any{"query": "SELECT count(*) AS n FROM range(100000000000) a WHERE a.range % 7 = 3"}})
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: "test", DataSources: []analysis.DataSource{csvSource(data)},
		Constraints: analysis.Constraints{TimeoutSeconds: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != analysis.StatusFailed || len(res.Observations) == 0 {
		t.Fatalf("status %s with %d observations; want failed", res.Status, len(res.Observations))
	}
	if obs := res.Observations[len(res.Observations)-1]; obs.Status != analysis.ObsTimeout && obs.Status != analysis.ObsResourceLimit {
		t.Errorf("observation %s (%v); want a timeout", obs.Status, obs.ErrorMessage)
	}
	if !strings.Contains(strings.Join(res.Undelivered, " "), "1 s timeout") {
		t.Errorf("undelivered %v; want the timeout named", res.Undelivered)
	}
}

// Bad requests are refused with a clear error, and nothing is written;
// a request that passes validation but whose source cannot be opened, or
// that the planner cannot read, is recorded as failed with its code, its
// log entries and no artifact.
func TestBadRequests(t *testing.T) {
	good := csvSource(salesCSV)
	tests := []struct {
		name     string
		req      analysis.Request
		code     string
		want     string
		recorded string // the event type of the log entry holding the error; "" when refused outright
	}{
		{"empty intent", analysis.Request{Intent: " ", DataSources: []analysis.DataSource{good}}, quarry.ECodeInvalid, "empty", ""},
		{"2001 characters", analysis.Request{Intent: strings.Repeat("a", 2001), DataSources: []analysis.DataSource{good}}, quarry.ECodeInvalid, "2001 characters", ""},
		{"no sources", analysis.Request{Intent: "sales by month"}, quarry.ECodeInvalid, "no data source", ""},
		{"row limit", analysis.Request{Intent: "sales by month", DataSources: []analysis.DataSource{good}, Constraints: analysis.Constraints{RowLimit: 200_001}}, quarry.ECodeInvalid, "row_limit", ""},
		{"timeout", analysis.Request{Intent: "sales by month", DataSources: []analysis.DataSource{good}, Constraints: analysis.Constraints{TimeoutSeconds: 181}}, quarry.ECodeInvalid, "timeout_seconds", ""},
		{"unreadable source", analysis.Request{Intent: "sales by month", DataSources: []analysis.DataSource{csvSource("nope/missing.csv")}}, quarry.ECodeNotFound, "missing.csv", quarry.EventRequestSubmitted},
		{"wrong DSN", analysis.Request{Intent: "sales by month", DataSources: []analysis.DataSource{{Type: analysis.SourceSQL, ConnectionString: "sqlite:nope/shop.db"}}}, quarry.ECodeNotFound, "shop.db", quarry.EventRequestSubmitted},
		{"unknown column", analysis.Request{Intent: `average "discont" by state`, DataSources: []analysis.DataSource{good}}, quarry.ECodeNeedsClarification, "discont", quarry.EventPlanCreated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			res, err := e.a.Run(context.Background(), tt.req)
			if _, serr := os.Stat(filepath.Join(e.dir, "artifacts")); serr == nil {
				t.Error("artifacts were written for a refused request")
			}
			if tt.recorded == "" {
				if quarry.ErrorCode(err) != tt.code || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("Run = %v, %v; want %s mentioning %q", res, err, tt.code, tt.want)
				}
				if data, _ := os.ReadFile(e.store.AuditLog()); len(data) > 0 {
					t.Errorf("the log has entries for an invalid request: %s", data)
				}
				return
			}
			if err != nil || res.Status != analysis.StatusFailed || res.Error == nil || res.Error.Code != tt.code || !strings.Contains(res.Error.Message, tt.want) {
				t.Fatalf("Run = %+v, %v; want a failed result with %s mentioning %q", res, err, tt.code, tt.want)
			}
			var saved analysis.Result
			if err := e.store.ReadJSON(filepath.Join("analyses", res.RequestID, "result.json"), &saved); err != nil || saved.Status != analysis.StatusFailed ||
				saved.Error == nil || saved.Error.Code != tt.code {
				t.Errorf("saved record %+v (%v); want failed with %s", saved, err, tt.code)
			}
			found := false
			for _, ev := range readLog(t, e.store.AuditLog()) {
				if info, ok := ev.EventData["error"].(map[string]any); ok && ev.EventType == tt.recorded && info["code"] == tt.code {
					found = true
				}
			}
			if !found {
				t.Errorf("no %s entry holds the error %s", tt.recorded, tt.code)
			}
		})
	}
}

// A SQLite database is queried in place: the filter runs there, the rest
// here, and the numbers agree with the database's own.
func TestSQLiteSource(t *testing.T) {
	e := newEnv(t)
	db := "../../testdata/analyze/shop.db"
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: "total amount by month in 2021",
		DataSources: []analysis.DataSource{{Type: analysis.SourceSQL, Name: "shop", ConnectionString: "sqlite:" + db}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status == analysis.StatusFailed {
		t.Fatalf("status %s: %v %v", res.Status, res.Error, res.Undelivered)
	}
	src, err := sqlite.OpenSource(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	want, err := src.Query(context.Background(), "SELECT SUM(amount) FROM orders", 10)
	if err != nil {
		t.Fatal(err)
	}
	load := observationOf(t, res, "load")
	if res.Calls[0].Arguments["source"] != "shop" {
		t.Errorf("the first step ran in %v; want the database", res.Calls[0].Arguments["source"])
	}
	totals := observationOf(t, res, "totals")
	got := quarry.AsFloat(totals.Data.(map[string]any)["rows"].([][]any)[0][0])
	if diff := got - want.Float(0, 0); diff > 0.005 || diff < -0.005 || load.RowCount == nil {
		t.Errorf("total for 2021 = %.2f; the database says %.2f", got, want.Float(0, 0))
	}
}

// A replay of the stored plan over the same data writes byte-identical
// artifacts; after the data changes, the artifacts that depend on it
// differ, and the replay says which.
func TestReplay(t *testing.T) {
	e := newEnv(t)
	body, err := os.ReadFile(salesCSV)
	if err != nil {
		t.Fatal(err)
	}
	data := writeCSV(t, "sales.csv", string(body))
	req := analysis.Request{Intent: "monthly sales by state in 2021 with charts", DataSources: []analysis.DataSource{csvSource(data)}}
	first, err := e.a.Run(context.Background(), req)
	if err != nil || first.Status != analysis.StatusCompleted {
		t.Fatalf("%v %v", first, err)
	}
	again, checks, err := e.a.Replay(context.Background(), first)
	if err != nil {
		t.Fatal(err)
	}
	if again.RequestID == first.RequestID || again.ReplayOf != first.RequestID || len(checks) != len(first.Artifacts) {
		t.Fatalf("replay %s of %s with %d checks", again.RequestID, again.ReplayOf, len(checks))
	}
	for _, c := range checks {
		if !c.Identical {
			t.Errorf("%s %s changed on a replay over the same data", c.ArtifactType, c.Name)
		}
	}
	// One 2021 amount changes.
	lines := strings.Split(string(body), "\n")
	for i, l := range lines {
		if strings.Contains(l, ",2021-06-") {
			f := strings.Split(l, ",")
			f[7] = "99999.00"
			lines[i] = strings.Join(f, ",")
			break
		}
	}
	os.WriteFile(data, []byte(strings.Join(lines, "\n")), 0o644)
	_, checks, err = e.a.Replay(context.Background(), first)
	if err != nil {
		t.Fatal(err)
	}
	changed := map[string]bool{}
	for _, c := range checks {
		if !c.Identical {
			changed[c.Name] = true
		}
	}
	if !changed["totals.csv"] || !changed["trend.csv"] || !changed["trend_chart.png"] {
		t.Errorf("changed after the data changed: %v; want the totals, the trend and its chart", changed)
	}
	if rep, err := audit.CheckIn(e.store.AuditLog(), e.dir); err != nil || !rep.OK() {
		t.Errorf("the log of three runs does not verify: %+v %v", rep, err)
	}
}

// Deliverables the request names are produced (a chart of the measure
// over time when nothing else is drawn) or the run says which are missing;
// the defaults do not turn a plain total into a partial success.
func TestNamedDeliverables(t *testing.T) {
	e := newEnv(t)
	plain, err := e.a.Run(context.Background(), analysis.Request{Intent: "total sales in 2021", DataSources: []analysis.DataSource{csvSource(salesCSV)}})
	if err != nil || plain.Status != analysis.StatusCompleted {
		t.Fatalf("a total with the default deliverables: %v %v", plain.Status, err)
	}
	charted, err := e.a.Run(context.Background(), analysis.Request{Intent: "total sales in 2021", DataSources: []analysis.DataSource{csvSource(salesCSV)},
		Deliverables: []string{analysis.DeliverCharts, analysis.DeliverTables}})
	if err != nil || charted.Status != analysis.StatusCompleted {
		t.Fatalf("a total with charts asked for: %v %v %v", charted.Status, charted.Undelivered, err)
	}
	charts := 0
	for _, a := range charted.Artifacts {
		if a.ArtifactType == analysis.ArtifactChart {
			charts++
		}
	}
	if charts == 0 {
		t.Error("charts were asked for and none was drawn")
	}
}
