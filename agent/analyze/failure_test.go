package analyze_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/analyze"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/duckdb"
	_ "modernc.org/sqlite" // the "sqlite" driver, to write the test's database
)

// slowLoad is a workspace whose files take longer to load than any
// analysis may: LoadFile returns when ctx ends, with ctx's error, as the
// engine's does when its load is interrupted.
type slowLoad struct{ analyze.Workspace }

func (w slowLoad) LoadFile(ctx context.Context, name, path string) (*quarry.FileSchema, int64, error) {
	<-ctx.Done()
	return nil, 0, ctx.Err()
}

// A timeout while the sources load leaves a recorded analysis: failed,
// RESOURCE_LIMIT naming the stage in words (no engine text, no path), its
// record saved and its request in the log with the error.
func TestAnalysisLoadTimeoutIsRecorded(t *testing.T) {
	e := newEnv(t)
	e.a.NewWorkspace = func(context.Context) (analyze.Workspace, error) {
		ws, err := duckdb.Open(duckdb.Options{MemoryLimit: "512MB"})
		return slowLoad{ws}, err
	}
	data := writeCSV(t, "t.csv", "x\n1\n")
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: "total x", DataSources: []analysis.DataSource{csvSource(data)},
		Constraints: analysis.Constraints{TimeoutSeconds: 1}})
	if err != nil {
		t.Fatalf("Run: %v; want a recorded failure", err)
	}
	if res.Status != analysis.StatusFailed || res.Error == nil || res.Error.Code != quarry.ECodeResourceLimit {
		t.Fatalf("status %s, error %+v; want failed with %s", res.Status, res.Error, quarry.ECodeResourceLimit)
	}
	if want := "the analysis stopped at its 1 s timeout while loading the sources"; res.Error.Message != want || res.Error.Hint == "" {
		t.Errorf("error %q (hint %q); want %q with a hint", res.Error.Message, res.Error.Hint, want)
	}
	var saved analysis.Result
	if err := e.store.ReadJSON(filepath.Join("analyses", res.RequestID, "result.json"), &saved); err != nil ||
		saved.Status != analysis.StatusFailed || saved.Error == nil || saved.Error.Code != quarry.ECodeResourceLimit {
		t.Fatalf("saved record %+v, %v; want failed with %s", saved, err, quarry.ECodeResourceLimit)
	}
	entries := readLog(t, e.store.AuditLog())
	if len(entries) != 2 || entries[0].EventType != quarry.EventRequestSubmitted || entries[0].RequestID != res.RequestID ||
		entries[1].EventType != quarry.EventRecordSaved {
		t.Fatalf("log %+v; want the request's entry and its record's hash", entries)
	}
	d := entries[0].EventData
	info, _ := d["error"].(map[string]any)
	if d["stage"] != "loading" || info["code"] != quarry.ECodeResourceLimit || d["request"] == nil {
		t.Errorf("request entry %v; want the request, stage loading and the %s error", d, quarry.ECodeResourceLimit)
	}
}

// A timeout after a step succeeded ends partial_success: the finished
// step's table and number are delivered, the summary says which step did
// not run and why, and the error names the timeout.
func TestAnalysisTimeoutAfterOneStepIsPartial(t *testing.T) {
	e := newEnv(t)
	data := writeCSV(t, "t.csv", "x\n1\n2\n4\n")
	e.a.Planner = planOf(
		analysis.Subtask{TaskID: "sum", Description: "Sum of x", ToolName: analysis.ToolSQL, Arguments: map[string]any{"query": "SELECT sum(x) AS total FROM t"},
			Deliverable: analysis.DeliverTables},
		analysis.Subtask{TaskID: "slow", Description: "A query that would run for minutes", ToolName: analysis.ToolSQL, Dependencies: []string{"sum"},
			Arguments: map[string]any{"query": "SELECT count(*) AS n FROM range(100000000000) a WHERE a.range % 7 = 3"}, Deliverable: analysis.DeliverTables})
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: "test", DataSources: []analysis.DataSource{csvSource(data)},
		Constraints: analysis.Constraints{TimeoutSeconds: 6}, Deliverables: []string{analysis.DeliverTables, analysis.DeliverSummary}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != analysis.StatusPartialSuccess {
		t.Fatalf("status %s (%+v, %v); want %s", res.Status, res.Error, res.Undelivered, analysis.StatusPartialSuccess)
	}
	if res.Error == nil || res.Error.Code != quarry.ECodeResourceLimit || !strings.Contains(res.Error.Message, "6 s timeout while running the steps") {
		t.Errorf("error %+v; want %s naming the timeout while running the steps", res.Error, quarry.ECodeResourceLimit)
	}
	if !strings.Contains(res.Summary, "Sum of x: total 7.") || !strings.Contains(res.Summary, "A query that would run for minutes did not run to the end: it timed out") {
		t.Errorf("summary %q; want the total and the step that timed out", res.Summary)
	}
	tables := 0
	for _, a := range res.Artifacts {
		if a.ArtifactType == analysis.ArtifactTable {
			tables++
			if a.TaskID != "sum" {
				t.Errorf("a table of step %s was delivered", a.TaskID)
			}
		}
	}
	if tables != 1 {
		t.Errorf("%d tables delivered; want the finished step's", tables)
	}
	var saved analysis.Result
	if err := e.store.ReadJSON(filepath.Join("analyses", res.RequestID, "result.json"), &saved); err != nil || saved.Status != analysis.StatusPartialSuccess {
		t.Errorf("saved record %s, %v", saved.Status, err)
	}
}

// A type-mismatch repair that casts every value to NULL is a failed step,
// not a total of nothing; a cast that keeps numbers still succeeds.
func TestAnalysisAllNullRepairFails(t *testing.T) {
	e := newEnv(t)
	data := writeCSV(t, "t.csv", "region,score\nwest,n/a\neast,unknown\nwest,-\n")
	e.a.Planner = planOf(analysis.Subtask{TaskID: "q", Description: "Total score", ToolName: analysis.ToolSQL,
		Arguments: map[string]any{"query": "SELECT SUM(score) AS v FROM t"}, Deliverable: analysis.DeliverTables})
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: "test", DataSources: []analysis.DataSource{csvSource(data)},
		Deliverables: []string{analysis.DeliverTables}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Observations) != 2 {
		t.Fatalf("%d observations %+v; want the type mismatch and the repaired call", len(res.Observations), res.Observations)
	}
	if !strings.Contains(res.Calls[1].Arguments["query"].(string), "TRY_CAST") {
		t.Fatalf("second call %v; want the cast repair", res.Calls[1].Arguments["query"])
	}
	second := res.Observations[1]
	if second.Status != analysis.ObsError || second.ErrorCategory == nil || *second.ErrorCategory != analysis.CategoryTypeMismatch ||
		!strings.Contains(*second.ErrorMessage, "left every value of v empty") || second.Data != nil {
		t.Errorf("repaired call's observation %s %v %v; want an error, type_mismatch, every value empty", second.Status, second.ErrorCategory, second.ErrorMessage)
	}
	if res.Status != analysis.StatusFailed || res.Plan.Subtasks[0].Status != analysis.TaskFailed {
		t.Errorf("status %s, step %s; want failed", res.Status, res.Plan.Subtasks[0].Status)
	}
	for _, a := range res.Artifacts {
		if a.ArtifactType == analysis.ArtifactTable {
			t.Errorf("a table was delivered for a failed step: %s", a.ContentRef)
		}
	}
}

// A database table over the row limit: a total runs in the database,
// over every row. A median, which needs the rows here, is computed over
// the 200,000 the load keeps of 300,000, and that is said in the summary,
// the report and the artifacts' metadata, and the analysis is
// partial_success, not a completed figure of two thirds of the data.
func TestAnalysisTruncatedDatabaseTotal(t *testing.T) {
	const rows = 300_000
	path := filepath.Join(t.TempDir(), "big.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"CREATE TABLE orders (id INTEGER, region TEXT, amount REAL)",
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000) INSERT INTO orders SELECT i, CASE i % 3 WHEN 0 THEN 'east' WHEN 1 THEN 'west' ELSE 'north' END, 1.0 FROM n",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	e := newEnv(t)
	// A total and a breakdown run in the database: every row counts, and
	// only the result comes here.
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: "total amount by region",
		DataSources: []analysis.DataSource{{Type: analysis.SourceSQL, Name: "big", ConnectionString: "sqlite:" + path}},
		Constraints: analysis.Constraints{TimeoutSeconds: 170}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("pushed down: status %s (%+v %v); want completed", res.Status, res.Error, res.Undelivered)
	}
	for _, c := range res.Calls {
		if c.TaskID == "load" || c.ToolName == analysis.ToolSQL && c.Arguments["source"] != "big" {
			t.Errorf("step %s ran in %v; want every aggregate in the database, no load", c.TaskID, c.Arguments["source"])
		}
	}
	if got := quarry.AsFloat(observationOf(t, res, "totals").Data.(map[string]any)["rows"].([][]any)[0][0]); got != rows {
		t.Errorf("total %v; want %d, over every row", got, rows)
	}
	// A median is not written the same in every database: the rows come
	// here, cut at the row limit, and the result says so.
	res, err = e.a.Run(context.Background(), analysis.Request{Intent: "median amount",
		DataSources: []analysis.DataSource{{Type: analysis.SourceSQL, Name: "big", ConnectionString: "sqlite:" + path}},
		Constraints: analysis.Constraints{TimeoutSeconds: 170}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Request.Constraints.RowLimit != analysis.DefaultRowLimit || analysis.DefaultRowLimit != 200_000 {
		t.Fatalf("row limit %d; the test is about the default of 200,000", res.Request.Constraints.RowLimit)
	}
	if res.Status == analysis.StatusCompleted || res.Status != analysis.StatusPartialSuccess {
		t.Fatalf("status %s (%+v %v); want partial_success for a total over cut rows", res.Status, res.Error, res.Undelivered)
	}
	load := observationOf(t, res, "load")
	data := load.Data.(map[string]any)
	if data["truncated"] != true || data["row_limit"] != 200_000 || data["rows_available"] != int64(rows) || *load.RowCount != 200_000 {
		t.Errorf("load observation truncated=%v row_limit=%v rows_available=%v rows=%d; want true, 200000, %d, 200000",
			data["truncated"], data["row_limit"], data["rows_available"], *load.RowCount, rows)
	}
	// The total is of the rows kept, and the sentence beside it says so.
	if !strings.Contains(res.Summary, "200,000") || !strings.Contains(res.Summary, "first 200,000 of 300,000 rows of step load only (cut at the row limit of 200,000)") {
		t.Errorf("summary %q; want the total with the cut in words", res.Summary)
	}
	if !strings.Contains(strings.Join(res.Undelivered, "\n"), "computed over the first 200,000 of 300,000 rows of step load") {
		t.Errorf("undelivered %v; want the cut named", res.Undelivered)
	}
	var report string
	metaOK := false
	for _, a := range res.Artifacts {
		switch a.ArtifactType {
		case analysis.ArtifactReport:
			body, _ := os.ReadFile(a.ContentRef)
			report = string(body)
		case analysis.ArtifactTable:
			if a.TaskID == "totals" {
				metaOK = a.Metadata["truncated"] == true && a.Metadata["row_limit"] == 200_000 && a.Metadata["computed_over_cut_rows_of"] == "load"
			}
		}
	}
	if !metaOK {
		t.Errorf("the totals table's metadata does not say it was computed over cut rows: %+v", res.Artifacts)
	}
	if !strings.Contains(report, "LIMIT 200000") || !strings.Contains(report, "of 300,000 rows") {
		t.Errorf("report.md does not show the LIMIT that ran and the cut:\n%s", report)
	}
	// A whole table below the limit is completed, with no cut said.
	small := filepath.Join(t.TempDir(), "small.db")
	db, err = sql.Open("sqlite", small)
	if err != nil {
		t.Fatal(err)
	}
	db.Exec("CREATE TABLE orders (id INTEGER, region TEXT, amount REAL)")
	db.Exec("INSERT INTO orders VALUES (1, 'east', 2.5), (2, 'west', 4)")
	db.Close()
	whole, err := e.a.Run(context.Background(), analysis.Request{Intent: "total amount",
		DataSources: []analysis.DataSource{{Type: analysis.SourceSQL, Name: "small", ConnectionString: "sqlite:" + small}},
		Constraints: analysis.Constraints{RowLimit: 2}})
	if err != nil || whole.Status != analysis.StatusCompleted || strings.Contains(whole.Summary, "row limit") {
		t.Errorf("a whole table at the limit: %s %q %v; want completed with nothing cut", whole.Status, whole.Summary, err)
	}
}

// A workspace query whose own LIMIT is the row limit, over more rows, is
// cut: counted where it ran, marked, and an aggregate over it says so and
// keeps the run from completed. The same LIMIT over exactly as many rows
// cuts nothing.
func TestAnalysisLimitAtTheRowLimitIsCut(t *testing.T) {
	var b strings.Builder
	b.WriteString("x\n")
	for i := 1; i <= 50; i++ {
		b.WriteString(strconv.Itoa(i) + "\n")
	}
	for _, tt := range []struct {
		name   string
		query  string
		cut    bool
		status string
	}{
		{"50 rows", "SELECT x FROM t LIMIT 10", true, analysis.StatusPartialSuccess},
		{"10 rows", "SELECT x FROM t WHERE x <= 10 LIMIT 10", false, analysis.StatusCompleted},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			data := writeCSV(t, "t.csv", b.String())
			e.a.Planner = planOf(
				analysis.Subtask{TaskID: "values", Description: "Values of x", ToolName: analysis.ToolSQL, Arguments: map[string]any{"query": tt.query}},
				analysis.Subtask{TaskID: "total", Description: "Total x", ToolName: analysis.ToolDF, Dependencies: []string{"values"},
					Arguments: map[string]any{"input": "values", "operation": analysis.OpAggregate, "columns": []any{"x"}, "aggregation": "sum"}, Deliverable: analysis.DeliverTables},
				analysis.Subtask{TaskID: "profile", Description: "Profile of x", ToolName: analysis.ToolProfile, Dependencies: []string{"values"},
					Arguments: map[string]any{"input": "values"}, Deliverable: analysis.DeliverTables},
				analysis.Subtask{TaskID: "hist", Description: "Distribution of x", ToolName: analysis.ToolPlot, Dependencies: []string{"values"},
					Arguments: map[string]any{"input": "values", "type": "histogram", "x_col": "x", "title": "x"}, Deliverable: analysis.DeliverCharts})
			res, err := e.a.Run(context.Background(), analysis.Request{Intent: "test", DataSources: []analysis.DataSource{csvSource(data)},
				Constraints: analysis.Constraints{RowLimit: 10}, Deliverables: []string{analysis.DeliverTables, analysis.DeliverCharts, analysis.DeliverSummary}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tt.status {
				t.Fatalf("status %s (%v); want %s", res.Status, res.Undelivered, tt.status)
			}
			values := observationOf(t, res, "values").Data.(map[string]any)
			total := observationOf(t, res, "total").Data.(map[string]any)
			said := strings.Contains(res.Summary, "Computed over the first 10 of 50 rows of step values only (cut at the row limit of 10)")
			if !tt.cut {
				if values["truncated"] != nil || total["truncated"] != nil || said || len(res.Artifacts) == 0 || res.Artifacts[0].Metadata["truncated"] != nil {
					t.Errorf("nothing was cut, yet: values %v, total %v, summary %q", values, total, res.Summary)
				}
				return
			}
			if values["truncated"] != true || values["rows_available"] != int64(50) || values["row_limit"] != 10 {
				t.Errorf("values %v; want truncated, 50 rows available, row_limit 10", values)
			}
			if total["truncated"] != true || total["computed_over_cut_rows_of"] != "values" {
				t.Errorf("total %v; want computed over the cut rows of values", total)
			}
			if !said {
				t.Errorf("summary %q; want the cut said beside the total", res.Summary)
			}
			charts := 0
			for _, a := range res.Artifacts {
				if a.ArtifactType == analysis.ArtifactChart {
					charts++
					if a.Metadata["truncated"] != true || a.Metadata["computed_over_cut_rows_of"] != "values" {
						t.Errorf("chart metadata %v; want it drawn from the cut rows of values", a.Metadata)
					}
				}
			}
			if charts != 1 {
				t.Errorf("%d charts; want the histogram", charts)
			}
			// The profile's mean is of the cut rows too, and says so.
			profiled := false
			for _, line := range strings.Split(res.Summary, "\n") {
				if strings.Contains(line, "x: mean ") && strings.Contains(line, "first 10 of 50 rows of step values only") {
					profiled = true
				}
			}
			if !profiled {
				t.Errorf("summary %q; want the profile's mean with the cut", res.Summary)
			}
		})
	}
}

// A planner that does not answer within the timeout: the offline plan
// that takes over is recorded but not run, and the analysis fails with
// the timeout, naming the planning.
func TestAnalysisPlanningTimeoutIsRecorded(t *testing.T) {
	e := newEnv(t)
	data := writeCSV(t, "t.csv", "region,amount\nwest,1\neast,2\n")
	e.a.Planner = func(ctx context.Context, _ *analysis.Request, _ []analysis.SourceTable) (*analysis.Plan, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: "total amount by region", DataSources: []analysis.DataSource{csvSource(data)},
		Constraints: analysis.Constraints{TimeoutSeconds: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != analysis.StatusFailed || res.Error == nil || res.Error.Code != quarry.ECodeResourceLimit ||
		res.Error.Message != "the analysis stopped at its 1 s timeout while planning" {
		t.Fatalf("status %s, error %+v; want failed with the timeout while planning", res.Status, res.Error)
	}
	if len(res.Calls) != 0 || len(res.Artifacts) != 0 {
		t.Errorf("%d calls and %d artifacts after the timeout; want none", len(res.Calls), len(res.Artifacts))
	}
	events := map[string]int{}
	for _, ev := range readLog(t, e.store.AuditLog()) {
		events[ev.EventType]++
	}
	if events[quarry.EventRequestSubmitted] != 1 || events[quarry.EventPlanCreated] != 1 || events[quarry.EventToolCalled] != 0 {
		t.Errorf("log events %v; want the request and the plan, no call", events)
	}
}

// fullDisk is a store that cannot write reports: the disk is full.
type fullDisk struct{ analyze.Store }

func (s fullDisk) WriteArtifact(rel string, data []byte) (string, error) {
	if strings.HasSuffix(rel, "report.md") {
		return "", &os.PathError{Op: "write", Path: "/srv/quarry/" + rel, Err: syscall.ENOSPC}
	}
	return s.Store.WriteArtifact(rel, data)
}

// A failure while delivering, after the steps succeeded, keeps what was
// delivered: partial_success, with the error's code (STORAGE_FULL, no
// server path) and the report named as undelivered.
func TestAnalysisDeliveryFailureIsPartial(t *testing.T) {
	e := newEnv(t)
	e.a.Store = fullDisk{e.store}
	data := writeCSV(t, "t.csv", "x\n1\n2\n4\n")
	e.a.Planner = planOf(analysis.Subtask{TaskID: "sum", Description: "Sum of x", ToolName: analysis.ToolSQL,
		Arguments: map[string]any{"query": "SELECT sum(x) AS total FROM t"}, Deliverable: analysis.DeliverTables})
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: "test", DataSources: []analysis.DataSource{csvSource(data)}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != analysis.StatusPartialSuccess || res.Error == nil || res.Error.Code != quarry.ECodeStorageFull || strings.Contains(res.Error.Message, "/srv/") {
		t.Fatalf("status %s, error %+v; want partial_success with %s and no path", res.Status, res.Error, quarry.ECodeStorageFull)
	}
	if !strings.Contains(strings.Join(res.Undelivered, "\n"), "deliverables: no space is left") {
		t.Errorf("undelivered %v; want the deliverables' failure", res.Undelivered)
	}
	tables := 0
	for _, a := range res.Artifacts {
		if a.ArtifactType == analysis.ArtifactTable {
			tables++
		}
	}
	if tables != 1 || !strings.Contains(res.Summary, "total 7") {
		t.Errorf("%d tables, summary %q; want the step's table and total", tables, res.Summary)
	}
}
