package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/sampledata"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/mcp"
)

// allTools is every tool the server offers.
var allTools = []string{"ask_investigation", "create_investigation", "describe_investigation_table", "get_investigation",
	"get_investigation_explanations", "get_investigation_report", "list_investigation_tables",
	"list_investigations", "run_investigation_sql", "start_investigation"}

// env is a real session manager over a fresh data dir.
type env struct {
	dir string
	app *app.App
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{dir: t.TempDir()}
	a, err := app.Open(context.Background(), app.Options{DataDir: e.dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	e.app = a
	return e
}

// connectInMemory connects a client to a server over in-memory transports.
func connectInMemory(t *testing.T, srv *mcpsdk.Server) *mcpsdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcpsdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return connectClient(t, ct)
}

// connectHTTP serves srv over streamable HTTP and connects a client to it.
func connectHTTP(t *testing.T, srv *mcpsdk.Server) *mcpsdk.ClientSession {
	t.Helper()
	ts := httptest.NewServer(mcp.NewHTTPHandler(srv, nil))
	t.Cleanup(ts.Close)
	return connectClient(t, &mcpsdk.StreamableClientTransport{Endpoint: ts.URL, DisableStandaloneSSE: true})
}

func connectClient(t *testing.T, tr mcpsdk.Transport) *mcpsdk.ClientSession {
	t.Helper()
	c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "quarry-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// result is a tool call's outcome as a client sees it.
type result struct {
	isError bool
	text    string
	raw     json.RawMessage // the structured content
}

func call(t *testing.T, cs *mcpsdk.ClientSession, name string, args any) result {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	var r result
	r.isError = res.IsError
	for _, c := range res.Content {
		if tc, ok := c.(*mcpsdk.TextContent); ok {
			r.text += tc.Text
		}
	}
	if res.StructuredContent != nil {
		if r.raw, err = json.Marshal(res.StructuredContent); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// ok calls a tool that must succeed and decodes its structured content.
func ok[T any](t *testing.T, cs *mcpsdk.ClientSession, name string, args any) (T, string) {
	t.Helper()
	var out T
	r := call(t, cs, name, args)
	if r.isError {
		t.Fatalf("%s(%v) failed: %s", name, args, r.text)
	}
	if err := json.Unmarshal(r.raw, &out); err != nil {
		t.Fatalf("%s: structured content %s: %v", name, r.raw, err)
	}
	return out, r.text
}

// failCode calls a tool that must fail and returns the code its text
// starts with.
func failCode(t *testing.T, cs *mcpsdk.ClientSession, name string, args any) (code, text string) {
	t.Helper()
	r := call(t, cs, name, args)
	if !r.isError {
		t.Fatalf("%s(%v) succeeded: %.300s", name, args, r.text)
	}
	code, _, found := strings.Cut(r.text, ": ")
	if !found {
		t.Fatalf("%s error %q is not CODE: message", name, r.text)
	}
	return code, r.text
}

func sample(t *testing.T, scenario, file string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", scenario, file))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Output shapes, as a client decodes them.
type (
	session struct {
		SessionID   string `json:"session_id"`
		Status      string `json:"status"`
		FileCount   int    `json:"file_count"`
		ReportReady bool   `json:"report_ready"`
		Outcome     string `json:"outcome"`
		Error       *struct {
			Code, Message string
		} `json:"error"`
	}
	table struct {
		Table    string   `json:"table"`
		FileName string   `json:"file_name"`
		RowCount int64    `json:"row_count"`
		Columns  []string `json:"columns"`
	}
	created struct {
		Session session `json:"session"`
		Tables  []table `json:"tables"`
	}
	sqlResult struct {
		Columns   []string `json:"columns"`
		Rows      [][]any  `json:"rows"`
		RowCount  int      `json:"row_count"`
		Truncated bool     `json:"truncated"`
	}
	sessionDetail struct {
		Session  session  `json:"session"`
		Tables   []table  `json:"tables"`
		Progress []string `json:"progress"`
		Next     string   `json:"next"`
	}
	explanations struct {
		Explanations []struct {
			Rank          int     `json:"rank"`
			Title         string  `json:"title"`
			Likelihood    string  `json:"likelihood"`
			Kind          string  `json:"kind"`
			Segment       string  `json:"segment"`
			ShareOfChange float64 `json:"share_of_change"`
			Headline      string  `json:"headline"`
			Evidence      []struct {
				Description string `json:"description"`
				SQL         string `json:"sql"`
			} `json:"evidence"`
		} `json:"explanations"`
	}
)

func TestToolList(t *testing.T) {
	e := newEnv(t)
	for _, tt := range []struct {
		name       string
		allowPaths bool
	}{{"text only", false}, {"paths allowed", true}} {
		t.Run(tt.name, func(t *testing.T) {
			cs := connectInMemory(t, mcp.NewServer(e.app.Investigations, mcp.Options{AllowPaths: tt.allowPaths}))
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range res.Tools {
				names = append(names, tool.Name)
				if len(tool.Description) < 60 || tool.InputSchema == nil || tool.OutputSchema == nil || tool.Annotations == nil {
					t.Errorf("tool %s lacks a description, schema or annotations: %+v", tool.Name, tool)
				}
				if tool.Name != "create_investigation" {
					continue
				}
				schema, _ := json.Marshal(tool.InputSchema)
				if got := strings.Contains(string(schema), `"path"`); got != tt.allowPaths {
					t.Errorf("create_investigation offers path: %v, want %v\n%s", got, tt.allowPaths, schema)
				}
			}
			slices.Sort(names)
			if !slices.Equal(names, allTools) {
				t.Fatalf("tools %v, want %v", names, allTools)
			}
		})
	}
}

// TestInvestigation drives the whole flow of the sample revenue drop over
// both transports against a real session manager.
func TestInvestigation(t *testing.T) {
	for _, tr := range []struct {
		name    string
		connect func(*testing.T, *mcpsdk.Server) *mcpsdk.ClientSession
	}{{"in-memory", connectInMemory}, {"streamable HTTP", connectHTTP}} {
		t.Run(tr.name, func(t *testing.T) {
			e := newEnv(t)
			cs := tr.connect(t, mcp.NewServer(e.app.Investigations, mcp.Options{}))
			investigate(t, e, cs)
		})
	}
}

func investigate(t *testing.T, e *env, cs *mcpsdk.ClientSession) {
	scen, _ := sampledata.Get("revenue_drop")
	files := []map[string]string{}
	for _, f := range scen.Files {
		files = append(files, map[string]string{"name": f.Name, "csv": sample(t, "revenue_drop", f.Name), "description": f.Description})
	}
	c, text := ok[created](t, cs, "create_investigation", map[string]any{"files": files})
	id := c.Session.SessionID
	if c.Session.Status != "has_files" || c.Session.FileCount != 2 || len(c.Tables) != 2 || !strings.Contains(text, id) {
		t.Fatalf("create_investigation: %+v\n%s", c, text)
	}

	tables, _ := ok[struct{ Tables []table }](t, cs, "list_investigation_tables", map[string]string{"session_id": id})
	rows := map[string]int64{}
	for _, tb := range tables.Tables {
		rows[tb.Table] = tb.RowCount
	}
	if rows["orders"] != 34179 || rows["customers"] != 6000 {
		t.Fatalf("list_investigation_tables: %+v", tables)
	}

	desc, text := ok[struct {
		Columns []struct{ Name, DataType, Role string }
	}](t, cs, "describe_investigation_table", map[string]string{"session_id": id, "table": "orders"})
	roles := map[string]string{}
	for _, col := range desc.Columns {
		roles[col.Name] = col.Role
	}
	if roles["platform"] != quarry.RoleDimension || roles["amount"] != quarry.RoleMeasure || roles["order_date"] != quarry.RoleTimestamp || !strings.Contains(text, "| platform | string | dimension |") {
		t.Errorf("describe_investigation_table orders: %v\n%s", roles, text)
	}
	if code, text := failCode(t, cs, "describe_investigation_table", map[string]string{"session_id": id, "table": "refunds"}); code != quarry.ECodeNotFound || !strings.Contains(text, "orders") {
		t.Errorf("describe_investigation_table of a missing table: %s", text)
	}

	// Exact values from testdata/README.md: revenue per period, and the
	// enterprise segment reached through the join.
	res, text := ok[sqlResult](t, cs, "run_investigation_sql", map[string]string{"session_id": id, "sql": `
		SELECT order_date >= DATE '2024-03-18' AS comparison, ROUND(SUM(amount), 2) AS revenue
		FROM orders WHERE order_date BETWEEN DATE '2024-03-04' AND DATE '2024-03-31' GROUP BY 1 ORDER BY 1`})
	if len(res.Rows) != 2 || res.Rows[0][1] != 947082.79 || res.Rows[1][1] != 849350.31 || res.Truncated {
		t.Errorf("revenue per period: %+v", res)
	}
	if !strings.Contains(text, "| comparison | revenue |") || !strings.Contains(text, "| false | 947082.79 |") || !strings.HasSuffix(text, "2 rows.") {
		t.Errorf("revenue per period as text:\n%s", text)
	}
	res, _ = ok[sqlResult](t, cs, "run_investigation_sql", map[string]string{"session_id": id, "sql": `
		SELECT COUNT(*) AS orders, ROUND(SUM(o.amount), 2) AS revenue FROM orders o JOIN customers c USING (customer_id)
		WHERE c.segment = 'enterprise' AND o.order_date BETWEEN DATE '2024-03-04' AND DATE '2024-03-17'`})
	if len(res.Rows) != 1 || res.Rows[0][0] != 385.0 || res.Rows[0][1] != 73973.64 {
		t.Errorf("enterprise baseline: %+v", res)
	}
	res, text = ok[sqlResult](t, cs, "run_investigation_sql", map[string]string{"session_id": id, "sql": "SELECT order_id, order_date FROM orders ORDER BY order_id"})
	if len(res.Rows) != mcp.DefaultMaxRows || res.RowCount != 34179 || !res.Truncated || res.Rows[0][1] != "2024-03-04" {
		t.Errorf("capped result: %d rows of %d, truncated %v, first %v", len(res.Rows), res.RowCount, res.Truncated, res.Rows[0])
	}
	if !strings.HasSuffix(text, "First 200 of 34179 rows shown; aggregate or add ORDER BY ... LIMIT to see what matters.") {
		t.Errorf("capped result text ends %q", text[max(0, len(text)-120):])
	}

	for _, tt := range []struct{ tool, sql, code string }{
		{"run_investigation_sql", "SELECT * FROM read_csv('/etc/passwd')", quarry.ECodeForbidden},
		{"run_investigation_sql", "ATTACH '/tmp/x.db' AS x", quarry.ECodeForbidden},
		{"run_investigation_sql", "SET threads = 1", quarry.ECodeForbidden},
		{"run_investigation_sql", "INSTALL httpfs", quarry.ECodeForbidden},
		{"run_investigation_sql", "SELECT missing FROM orders", quarry.ECodeInvalid},
	} {
		if code, text := failCode(t, cs, tt.tool, map[string]string{"session_id": id, "sql": tt.sql}); code != tt.code {
			t.Errorf("%s: %s, want %s", tt.sql, text, tt.code)
		}
	}
	_, text = failCode(t, cs, "run_investigation_sql", map[string]string{"session_id": id, "sql": "DROP TABLE orders"})
	if text != "FORBIDDEN: only read-only SELECT statements are allowed" {
		t.Errorf("DROP TABLE: %q", text)
	}
	checkAudit(t, e, id, 3+6) // 3 queries above, 6 refused

	for _, tt := range []struct {
		name string
		tool string
		args map[string]any
		code string
	}{
		{"unknown session", "get_investigation", map[string]any{"session_id": quarry.NewID()}, quarry.ECodeSessionNotFound},
		{"explanations before the run", "get_investigation_explanations", map[string]any{"session_id": id}, quarry.ECodeInvestigationNotComplete},
		{"report before the run", "get_investigation_report", map[string]any{"session_id": id}, quarry.ECodeInvestigationNotComplete},
		{"ask before the run", "ask_investigation", map[string]any{"session_id": id, "question": "why?"}, quarry.ECodeInvestigationNotComplete},
		{"bad date", "start_investigation", map[string]any{"session_id": id, "metric_sql": scen.MetricSQL,
			"baseline_period": map[string]string{"start": "2024-03-04", "end": "March 17"}, "comparison_period": map[string]string{"start": "2024-03-18", "end": "2024-03-31"}}, quarry.ECodeInvalidDateRange},
		{"unsupported metric", "start_investigation", map[string]any{"session_id": id, "metric_sql": "SELECT MAX(amount) FROM orders",
			"baseline_period": map[string]string{"start": "2024-03-04", "end": "2024-03-17"}, "comparison_period": map[string]string{"start": "2024-03-18", "end": "2024-03-31"}}, quarry.ECodeUnsupportedMetric},
	} {
		if code, text := failCode(t, cs, tt.tool, tt.args); code != tt.code {
			t.Errorf("%s: %s, want %s", tt.name, text, tt.code)
		}
	}

	start, text := ok[struct{ Status string }](t, cs, "start_investigation", map[string]any{
		"session_id":        id,
		"metric_sql":        scen.MetricSQL,
		"baseline_period":   map[string]string{"start": scen.Baseline.Start.String(), "end": scen.Baseline.End.String()},
		"comparison_period": map[string]string{"start": scen.Comparison.Start.String(), "end": scen.Comparison.End.String()},
		"business_context":  scen.Context,
		"prompt":            scen.Prompt,
	})
	if start.Status != "running" || !strings.Contains(text, "get_investigation") {
		t.Fatalf("start_investigation: %+v %s", start, text)
	}
	if code, _ := failCode(t, cs, "start_investigation", map[string]any{"session_id": id, "metric_sql": scen.MetricSQL,
		"baseline_period":   map[string]string{"start": scen.Baseline.Start.String(), "end": scen.Baseline.End.String()},
		"comparison_period": map[string]string{"start": scen.Comparison.Start.String(), "end": scen.Comparison.End.String()}}); code != quarry.ECodeConflict {
		t.Errorf("a second start_investigation: %s, want CONFLICT", code)
	}

	detail := waitFinished(t, cs, id)
	if detail.Session.Status != "completed" || detail.Session.Outcome != investigation.OutcomeCompleted || !detail.Session.ReportReady ||
		len(detail.Progress) == 0 || !strings.Contains(detail.Next, "get_investigation_explanations") {
		t.Fatalf("finished session: %+v", detail)
	}

	ex, text := ok[explanations](t, cs, "get_investigation_explanations", map[string]string{"session_id": id})
	if len(ex.Explanations) == 0 {
		t.Fatal("no explanations")
	}
	first := ex.Explanations[0]
	if first.Rank != 1 || first.Likelihood != investigation.LikelihoodMostLikely || first.Segment != "platform=android AND app_version=5.2" ||
		!strings.Contains(first.Title, "platform=android AND app_version=5.2") || len(first.Evidence) == 0 || first.Evidence[0].SQL == "" {
		t.Errorf("first explanation: %+v", first)
	}
	if !strings.HasPrefix(text, "1. [Most Likely] ") {
		t.Errorf("explanations text starts %.100q", text)
	}

	// By default the compact form: the answer and the numbers, a few
	// hundred characters, not the whole report with its SQL.
	rep, text := ok[struct{ Status, Markdown string }](t, cs, "get_investigation_report", map[string]string{"session_id": id})
	if rep.Status != investigation.OutcomeCompleted || text != rep.Markdown || len(rep.Markdown) > 3000 ||
		!strings.Contains(rep.Markdown, "**Answer:**") || !strings.Contains(rep.Markdown, "1. [Most Likely] ") ||
		first.Headline == "" || !strings.Contains(rep.Markdown, "The top explanation is “"+first.Title+"”: "+first.Headline) ||
		!strings.Contains(rep.Markdown, " — volume, "+first.Headline+", significant") ||
		!strings.Contains(rep.Markdown, "platform=android AND app_version=5.2") || strings.Contains(rep.Markdown, "SELECT") {
		t.Errorf("compact report: status %s, %d characters:\n%s", rep.Status, len(rep.Markdown), rep.Markdown)
	}
	full, _ := ok[struct{ Status, Markdown string }](t, cs, "get_investigation_report", map[string]any{"session_id": id, "full": true})
	if !strings.Contains(full.Markdown, "## Explanations") || !strings.Contains(full.Markdown, "SELECT") || len(full.Markdown) <= len(rep.Markdown) {
		t.Errorf("full report: %d characters", len(full.Markdown))
	}

	ans, text := ok[struct {
		Answer         string   `json:"answer"`
		CitedArtifacts []string `json:"cited_artifacts"`
	}](t, cs, "ask_investigation", map[string]string{"session_id": id, "question": "Which hypotheses were ruled out and why?"})
	if !strings.Contains(ans.Answer, "hyp_001") || len(ans.CitedArtifacts) == 0 || !strings.Contains(text, "Sources: ") {
		t.Errorf("ask: %+v", ans)
	}
	if code, _ := failCode(t, cs, "ask_investigation", map[string]string{"session_id": id, "question": "  "}); code != quarry.ECodeInvalid {
		t.Errorf("an empty question: %s, want INVALID", code)
	}

	list, text := ok[struct{ Sessions []session }](t, cs, "list_investigations", map[string]any{})
	if len(list.Sessions) != 1 || list.Sessions[0].SessionID != id || list.Sessions[0].Status != "completed" || !strings.HasPrefix(text, "1 investigation(s)\n"+id) {
		t.Errorf("list_investigations: %+v\n%s", list, text)
	}
}

// waitFinished polls get_investigation until the investigation has ended.
func waitFinished(t *testing.T, cs *mcpsdk.ClientSession, id string) sessionDetail {
	t.Helper()
	for {
		d, _ := ok[sessionDetail](t, cs, "get_investigation", map[string]string{"session_id": id})
		if d.Session.Status != "running" {
			return d
		}
		time.Sleep(50 * time.Millisecond) // the test's deadline bounds the wait
	}
}

// checkAudit checks that the session's audit log records n run_investigation_sql calls,
// each as a tool_called and an observation_recorded entry by actor mcp.
func checkAudit(t *testing.T, e *env, id string, n int) {
	t.Helper()
	f, err := os.Open(filepath.Join(e.dir, "sessions", id, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []quarry.AuditEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var a quarry.AuditEntry
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
		got = append(got, a)
	}
	if len(got) != 2*n {
		t.Fatalf("%d audit entries, want %d", len(got), 2*n)
	}
	for i, a := range got {
		want := quarry.EventToolCalled
		if i%2 == 1 {
			want = quarry.EventObservationRecorded
		}
		if a.EventType != want || a.Actor != "mcp" {
			t.Errorf("audit entry %d: %s by %s", i, a.EventType, a.Actor)
		}
	}
}

func TestCreateSession(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "Daily Sales.csv")
	if err := os.WriteFile(good, []byte("day,store,sales\n2024-01-01,a,10\n2024-01-02,b,12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	withPaths := connectInMemory(t, mcp.NewServer(e.app.Investigations, mcp.Options{AllowPaths: true}))
	textOnly := connectInMemory(t, mcp.NewServer(e.app.Investigations, mcp.Options{}))

	c, _ := ok[created](t, withPaths, "create_investigation", map[string]any{"files": []map[string]string{
		{"path": good, "description": "sales per store and day"},
		{"name": "stores.csv", "csv": "store,city\na,Paris\nb,Lyon\n"},
	}})
	if len(c.Tables) != 2 || c.Tables[0].Table != "daily_sales" || c.Tables[0].FileName != "Daily Sales.csv" || c.Tables[0].RowCount != 2 ||
		!slices.Equal(c.Tables[0].Columns, []string{"day", "store", "sales"}) || c.Tables[1].Table != "stores" {
		t.Errorf("session from a path and text: %+v", c)
	}

	before, err := e.app.Investigations.Sessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		cs    *mcpsdk.ClientSession
		files []map[string]string
		code  string
		text  string
	}{
		{"no files", textOnly, []map[string]string{}, quarry.ECodeNoFilesUploaded, ""},
		{"not csv", textOnly, []map[string]string{{"name": "a.csv", "csv": "a,b\n1,2\n"}, {"name": "notes.txt", "csv": "x\n1\n"}},
			quarry.ECodeInvalidFileType, "INVALID_FILE_TYPE: file 2 (notes.txt): notes.txt is not a .csv file"},
		{"empty", textOnly, []map[string]string{{"name": "a.csv", "csv": ""}}, quarry.ECodeEmptyFile, ""},
		{"header only", textOnly, []map[string]string{{"name": "a.csv", "csv": "a,b\n"}}, quarry.ECodeEmptyFile, ""},
		{"relative path", withPaths, []map[string]string{{"path": "data.csv"}}, quarry.ECodeInvalid, ""},
		{"missing path", withPaths, []map[string]string{{"path": filepath.Join(dir, "nope.csv")}}, quarry.ECodeNotFound, ""},
		{"csv and path", withPaths, []map[string]string{{"name": "a.csv", "csv": "a\n1\n", "path": good}}, quarry.ECodeInvalid, ""},
	} {
		code, text := failCode(t, tt.cs, "create_investigation", map[string]any{"files": tt.files})
		if code != tt.code || (tt.text != "" && !strings.HasPrefix(text, tt.text)) {
			t.Errorf("%s: %q, want %s %s", tt.name, text, tt.code, tt.text)
		}
	}
	// Over a text-only server a path is not even accepted by the schema.
	if code, text := failCode(t, textOnly, "create_investigation", map[string]any{"files": []map[string]string{{"name": "x.csv", "path": good}}}); code != quarry.ECodeInvalid || !strings.Contains(text, "path") {
		t.Errorf("a path given to a text-only server: %s", text)
	}
	after, err := e.app.Investigations.Sessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Errorf("failed create_investigation calls left %d sessions behind", len(after)-len(before))
	}
}

func TestExpiredSession(t *testing.T) {
	var now atomic.Int64 // Unix nanoseconds
	now.Store(time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC).UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()).UTC() }
	a, err := app.Open(context.Background(), app.Options{DataDir: t.TempDir(), Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	cs := connectInMemory(t, mcp.NewServer(a.Investigations, mcp.Options{}))
	c, _ := ok[created](t, cs, "create_investigation", map[string]any{"files": []map[string]string{{"name": "a.csv", "csv": "day,v\n2024-01-01,1\n"}}})
	now.Add(int64(25 * time.Hour))
	id := c.Session.SessionID
	d, text := ok[sessionDetail](t, cs, "get_investigation", map[string]string{"session_id": id})
	if d.Session.Status != "expired" || !strings.Contains(d.Next, "create_investigation") || !strings.Contains(text, "expired") {
		t.Errorf("expired session: %+v", d)
	}
	for _, tt := range []struct {
		tool string
		args map[string]string
	}{
		{"list_investigation_tables", map[string]string{"session_id": id}},
		{"describe_investigation_table", map[string]string{"session_id": id, "table": "a"}},
		{"run_investigation_sql", map[string]string{"session_id": id, "sql": "SELECT 1"}},
		{"get_investigation_report", map[string]string{"session_id": id}},
	} {
		if code, text := failCode(t, cs, tt.tool, tt.args); code != quarry.ECodeSessionExpired {
			t.Errorf("%s on an expired session: %s", tt.tool, text)
		}
	}
}
