package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/web"
)

// richIntent asks for several breakdowns, a trend of 60 rows (three pages
// of a table) and a histogram: a plan of two levels.
const richIntent = "Analyze 2021 sales by state and category; trend by month, distribution, charts"

// field is one form field; fields repeat (deliverables).
type field struct{ name, value string }

// postAnalysisForm sends the New analysis form as a browser does, without
// following the redirect.
func (e *env) postAnalysisForm(fields []field, files map[string][]byte, header map[string]string) response {
	e.t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, f := range fields {
		mw.WriteField(f.name, f.value)
	}
	for name, body := range files {
		fw, _ := mw.CreateFormFile("file", name)
		fw.Write(body)
	}
	if len(files) == 0 {
		// A file input left empty still sends its part.
		fw, _ := mw.CreateFormFile("file", "")
		fw.Write(nil)
	}
	mw.Close()
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+"/analyses", &b)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	for k, v := range header {
		req.Header.Set(k, v)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return response{status: res.StatusCode, header: res.Header, body: body}
}

// pageGet fetches a page, as htmx when htmx is set.
func (e *env) pageGet(path string, htmx bool) response {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.srv.URL+path, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	if htmx {
		req.Header.Set("HX-Request", "true")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return response{status: res.StatusCode, header: res.Header, body: body}
}

func defaultFields(intent string) []field {
	return []field{{"intent", intent}, {"deliverables", "tables"}, {"deliverables", "charts"}, {"deliverables", "reports"},
		{"deliverables", "summary"}, {"row_limit", "200000"}, {"timeout_seconds", "30"}, {"source", ""},
		{"allowed_columns", ""}, {"blocked_patterns", ""}}
}

// wantIn fails for each string page lacks.
func wantIn(t *testing.T, what, page string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(page, w) {
			t.Errorf("%s lacks %s", what, w)
		}
	}
}

// tagWithID is the opening tag of the element with the given id.
func tagWithID(t *testing.T, page, id string) string {
	t.Helper()
	m := regexp.MustCompile(`<[a-z][a-z0-9]*\b[^>]*\bid="` + regexp.QuoteMeta(id) + `"[^>]*>`).FindString(page)
	if m == "" {
		t.Fatalf("no element with id %q", id)
	}
	return m
}

// wantHeadings fails unless the page has one h1, first, and no heading
// skips a level.
func wantHeadings(t *testing.T, page string) {
	t.Helper()
	var levels []int
	for _, m := range regexp.MustCompile(`<h([1-6])\b`).FindAllStringSubmatch(page, -1) {
		levels = append(levels, int(m[1][0]-'0'))
	}
	if len(levels) == 0 || levels[0] != 1 || strings.Count(page, "<h1") != 1 {
		t.Fatalf("heading levels %v; want one h1, first", levels)
	}
	for i := 1; i < len(levels); i++ {
		if levels[i] > levels[i-1]+1 {
			t.Errorf("heading levels %v skip from h%d to h%d", levels, levels[i-1], levels[i])
		}
	}
}

func TestAnalysesFormPage(t *testing.T) {
	e := newEnv(t)
	r := e.pageGet("/analyses", false)
	if r.status != http.StatusOK {
		t.Fatalf("GET /analyses: %d\n%s", r.status, r.body)
	}
	page := string(r.body)
	wantIn(t, "the analyses page", page,
		`<h1>Analyses</h1>`,
		`action="/analyses" enctype="multipart/form-data"`,
		`<textarea id="intent" name="intent" rows="3" maxlength="2000" required`,
		`<input type="file" id="files" name="file" multiple accept=".csv,.json,.jsonl,.ndjson,.parquet,.db,.sqlite,.sqlite3"`,
		`id="source" name="source"`,
		`id="row_limit" name="row_limit" value="200000"`,
		`id="timeout_seconds" name="timeout_seconds" value="30"`,
		`<details class="advanced">`,
		`id="allowed_columns"`, `id="blocked_patterns"`,
		`No analyses yet.`,
		`<a href="/analyses">Analyses</a>`, // the navigation
	)
	for _, d := range []string{"tables", "charts", "reports", "summary"} {
		wantIn(t, "the form", page, `id="deliverable-`+d+`" name="deliverables" value="`+d+`" checked>`)
	}
	wantHeadings(t, page)
	if home := string(e.pageGet("/", false).body); !strings.Contains(home, `<a href="/analyses">Analyses</a>.`) {
		t.Error("the home page does not link to the analyses")
	}
}

func TestAnalysesFormErrors(t *testing.T) {
	e := newEnv(t)
	sales := map[string][]byte{"sales.csv": []byte("day,amount\n2024-01-01,5\n")}

	// Several problems at once: each at its field, everything typed kept.
	fields := []field{{"intent", "  "}, {"deliverables", "tables"}, {"deliverables", "charts"}, {"row_limit", "300000"},
		{"timeout_seconds", "soon"}, {"source", "mysql://db"}, {"allowed_columns", "amount, day"}, {"blocked_patterns", "ok\n([a-z"}}
	r := e.postAnalysisForm(fields, sales, nil)
	if r.status != http.StatusUnprocessableEntity {
		t.Fatalf("bad submit: %d; want 422\n%s", r.status, r.body)
	}
	page := string(r.body)
	for _, f := range []string{"intent", "row_limit", "timeout_seconds", "source", "blocked_patterns"} {
		tag := tagWithID(t, page, f)
		if !strings.Contains(tag, `aria-invalid="true"`) || !strings.Contains(tag, f+"-error") {
			t.Errorf("field %s is not marked invalid and described by its error: %s", f, tag)
		}
		tagWithID(t, page, f+"-error")
	}
	wantIn(t, "the form after a bad submit", page,
		`<p class="field-error" id="intent-error"><span class="visually-hidden">Error: </span>say what to analyze`,
		`the row limit must be a whole number from 1 to 200,000`,
		`id="row_limit" name="row_limit" value="300000"`,
		`id="timeout_seconds" name="timeout_seconds" value="soon"`,
		`value="mysql://db"`,
		`value="amount, day"`,
		`>ok
([a-z</textarea>`,
		`<details class="advanced" open>`,
		`value="tables" checked>`, `value="charts" checked>`,
		`There are 5 problems`,
		`<a href="#intent">Request: say what to analyze</a>`,
	)
	for _, d := range []string{"reports", "summary"} {
		if strings.Contains(page, `value="`+d+`" checked`) {
			t.Errorf("deliverable %s was unchecked but is checked again", d)
		}
	}
	wantHeadings(t, page)

	// The request typed but no data: the error is at the files, the
	// request kept.
	r = e.postAnalysisForm(defaultFields("monthly sales trend"), nil, nil)
	if r.status != http.StatusUnprocessableEntity {
		t.Fatalf("no data: %d; want 422", r.status)
	}
	page = string(r.body)
	wantIn(t, "the form without data", page, `id="files-error"`, `choose at least one file`, `>monthly sales trend</textarea>`, `Choose the files again`)

	// No deliverable.
	r = e.postAnalysisForm([]field{{"intent", "sales"}, {"row_limit", "10"}, {"timeout_seconds", "30"}}, sales, nil)
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(string(r.body), `id="deliverable-tables-error"`) {
		t.Errorf("no deliverable: %d; want 422 with the error at the deliverables", r.status)
	}

	// A file of a kind the analyses cannot read: analyses.Start refuses
	// it, and the error is shown at the files.
	r = e.postAnalysisForm(defaultFields("sales"), map[string][]byte{"sales.xlsx": []byte("x")}, nil)
	if r.status != http.StatusUnsupportedMediaType || !strings.Contains(string(r.body), `id="files-error"`) {
		t.Errorf("an .xlsx file: %d; want 415 with the error at the files\n%s", r.status, r.body)
	}

	// Another site cannot post the form.
	r = e.postAnalysisForm(defaultFields("sales"), sales, map[string]string{"Sec-Fetch-Site": "cross-site"})
	if r.status != http.StatusForbidden {
		t.Errorf("a cross-site post: %d; want 403", r.status)
	}

	if list := e.jsonReq(http.MethodGet, "/api/analyses", nil).json(t)["analyses"].([]any); len(list) != 0 {
		t.Errorf("refused submits started %d analyses", len(list))
	}
}

func TestAnalysisPage(t *testing.T) {
	e := newEnv(t)
	sales, err := os.ReadFile("../testdata/analyze/sales.csv")
	if err != nil {
		t.Fatal(err)
	}
	r := e.postAnalysisForm(defaultFields(richIntent), map[string][]byte{"sales.csv": sales}, nil)
	if r.status != http.StatusSeeOther {
		t.Fatalf("POST /analyses: %d; want 303\n%s", r.status, r.body)
	}
	loc := r.header.Get("Location")
	id, ok := strings.CutPrefix(loc, "/analyses/")
	if !ok || id == "" {
		t.Fatalf("redirected to %q", loc)
	}
	e.waitForEnd(id)

	r = e.pageGet(loc, false)
	if r.status != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", loc, r.status, r.body)
	}
	page := string(r.body)
	wantHeadings(t, page)
	if strings.Contains(page, "analysis.js") || strings.Contains(page, `http-equiv="refresh"`) {
		t.Error("a finished analysis's page still follows its progress")
	}
	wantIn(t, "the analysis page", page,
		`<h1>`+richIntent+`</h1>`,
		`<span id="analysis-status" class="badge badge-completed">Completed</span>`,
		`<code>sales: sales.csv (csv)</code>`,
	)

	// The plan: an accessible SVG with a box per step, all succeeded, and
	// the same steps as a list.
	plan := getJSON(t, e, "/api/analyses/"+id)["plan"].(map[string]any)["subtasks"].([]any)
	if len(plan) < 6 {
		t.Fatalf("a plan of %d steps; want the breakdowns, trend and histogram", len(plan))
	}
	svg := regexp.MustCompile(`(?s)<svg class="dag-svg".*?</svg>`).FindString(page)
	if svg == "" {
		t.Fatal("no plan diagram (svg.dag-svg)")
	}
	wantIn(t, "the diagram", svg, `role="img" aria-labelledby="dag-title dag-desc"`,
		`<title id="dag-title">Plan: `+strconv.Itoa(len(plan))+` steps in 2 levels</title>`, `<desc id="dag-desc">Steps, left to right: totals (sql.run);`)
	if n := strings.Count(svg, `class="dag-node status-succeeded"`); n != len(plan) {
		t.Errorf("%d succeeded boxes in the diagram; want %d", n, len(plan))
	}
	if n := strings.Count(svg, `<text class="dag-status"`); n != strings.Count(svg, `✓ Succeeded</text>`) {
		t.Errorf("not every box says Succeeded in words")
	}
	edges := 0
	for _, st := range plan {
		st := st.(map[string]any)
		task := st["task_id"].(string)
		deps, _ := st["dependencies"].([]any)
		edges += len(deps)
		item := regexp.MustCompile(`(?s)<li id="step-` + task + `" .*?</li>`).FindString(page)
		if !strings.Contains(item, `<span id="step-status-`+task+`" class="task-status status-succeeded">✓ Succeeded</span>`) {
			t.Errorf("the list's step %s does not say it succeeded:\n%s", task, item)
		}
		if st["tool_name"] == "sql.run" && !strings.Contains(item, `<pre class="sql" aria-label="SQL of step `+task+`"><code>SELECT `) {
			t.Errorf("step %s does not show its SQL", task)
		}
		if !strings.Contains(item, `<span class="obs-status obs-success">success</span>`) {
			t.Errorf("step %s does not show its observation", task)
		}
		// A chart sits in the second column, level with the step it draws.
		if len(deps) == 1 {
			x, y := boxAt(t, svg, task)
			dx, dy := boxAt(t, svg, deps[0].(string))
			if x <= dx || y != dy {
				t.Errorf("box %s at (%d, %d); want it right of and level with %s at (%d, %d)", task, x, y, deps[0], dx, dy)
			}
		}
	}
	if n := strings.Count(svg, `<path class="dag-edge"`); n != edges {
		t.Errorf("%d arrows; want one per dependency, %d", n, edges)
	}

	// The answer opens the page: the summary's first line is the first
	// thing after the heading, above the artifacts, the plan and the
	// request.
	answer := regexp.MustCompile(`(?s)<section class="card answer answer-answered" id="answer" aria-labelledby="answer-heading">\s*<h2 id="answer-heading">Answer</h2>\s*<div id="summary" class="markdown summary"><ul>\s*<li>(.*?)</li>`).FindStringSubmatch(page)
	if answer == nil || !strings.HasPrefix(answer[1], "Totals of sales (2021): amount 435,786.80") {
		t.Errorf("the answer section does not open with the summary's totals: %q", answer)
	}
	wantInOrder(t, page, `<h1>`, `id="answer"`, `Totals of sales (2021): amount 435,786.80`, `id="charts"`, `id="tables"`, `id="report"`, `id="downloads"`, `id="plan"`, `id="request-heading"`, `id="audit"`)
	if strings.Contains(page, `id="not-answered"`) || strings.Contains(page, `id="clarification"`) {
		t.Error("a completed analysis says it did not answer")
	}
	imgs := regexp.MustCompile(`<img src="(/analyses/[^"]+/artifacts/[^"]+)" alt="([^"]+)">`).FindAllStringSubmatch(page, -1)
	if len(imgs) < 4 {
		t.Fatalf("%d chart images; want 4", len(imgs))
	}
	for _, m := range imgs {
		res := e.pageGet(m[1], false)
		if res.status != http.StatusOK || res.header.Get("Content-Type") != "image/png" || !bytes.HasPrefix(res.body, []byte("\x89PNG")) {
			t.Errorf("chart %s (%s): %d %s", m[1], m[2], res.status, res.header.Get("Content-Type"))
		}
	}
	wantIn(t, "the charts", page, `alt="Total amount by state (2021)"`)

	// The trend table: 60 rows on three pages.
	const trend = "Total amount by month and state (2021)"
	wantIn(t, "the tables", page, `<h3>`+trend+`</h3>`, `60 rows · rows 1 to 25, page 1 of 3`, `aria-label="Pages of `+trend+`"`)
	next := regexp.MustCompile(`<a href="([^"]+page=2)#table-([^"]+)" hx-get="([^"]+)"`).FindStringSubmatch(page)
	if next == nil {
		t.Fatal("no link to the table's second page")
	}
	href := strings.ReplaceAll(next[1], "&amp;", "&")
	p2 := string(e.pageGet(href, false).body)
	wantIn(t, "the table's second page", p2, `rows 26 to 50, page 2 of 3`, `<span class="current" aria-current="page"><span class="visually-hidden">Page </span>2</span>`)
	frag := e.pageGet(strings.ReplaceAll(next[3], "&amp;", "&"), true)
	if f := strings.TrimSpace(string(frag.body)); !strings.HasPrefix(f, `<div id="table-`+next[2]+`"`) || strings.Contains(f, "<html") {
		t.Errorf("htmx's page of the table is not the table alone:\n%.300s", f)
	}
	last := string(e.pageGet(strings.Replace(href, "page=2", "page=99", 1), false).body)
	wantIn(t, "a page past the end", last, `rows 51 to 60, page 3 of 3`)
	if rows := regexp.MustCompile(`(?s)<div id="table-` + next[2] + `".*?</table>`).FindString(p2); strings.Count(rows, "<tr>") != 26 {
		t.Errorf("the second page has %d rows with its header; want 26", strings.Count(rows, "<tr>"))
	}

	// Downloads, and the report rendered with its charts pointed at the
	// artifacts route.
	dl := regexp.MustCompile(`<a href="([^"]+\?download=1)" download>trend\.csv</a>`).FindStringSubmatch(page)
	if dl == nil {
		t.Fatal("no download of trend.csv")
	}
	if res := e.pageGet(dl[1], false); !strings.HasPrefix(res.header.Get("Content-Disposition"), "attachment") || !bytes.HasPrefix(res.body, []byte("period,state,amount")) {
		t.Errorf("download: %s %.40q", res.header.Get("Content-Disposition"), res.body)
	}
	report := regexp.MustCompile(`(?s)<details class="analysis-report">.*?</details>\s*</section>`).FindString(page)
	wantIn(t, "the report", report, `<h3>Answer</h3>`, `<img src="/analyses/`+id+`/artifacts/`)
	if strings.Contains(report, "../../charts") {
		t.Error("the report still links its charts relative to its file")
	}

	// The audit trail and its verification.
	audit := regexp.MustCompile(`(?s)<table class="audit">.*?</table>`).FindString(page)
	if n := strings.Count(audit, "<tr>") - 1; n < 8 {
		t.Errorf("the audit trail shows %d entries", n)
	}
	wantIn(t, "the audit trail", audit, `<td class="num">1</td>`, `<code>request_submitted</code>`, `<code>plan_created</code>`, `<code>artifact_generated</code>`)
	wantIn(t, "the page", page, `<form class="verify-form" method="get" action="/analyses/`+id+`/verify#audit"`, `<button type="submit" id="verify" class="button">Verify</button>`)
	v := string(e.pageGet(loc+"/verify", false).body)
	wantIn(t, "the page after Verify", v, `<div id="verify-result" class="verify-result" role="status">`, `✓ OK: the log is intact.`, `and match the anchor`, `artifacts match their SHA-256`)
	if vf := string(e.pageGet(loc+"/verify", true).body); !strings.Contains(vf, `✓ OK`) || strings.Contains(vf, "<html") {
		t.Errorf("htmx's verification is not the result alone:\n%.300s", vf)
	}

	// The list shows it.
	list := string(e.pageGet("/analyses", false).body)
	wantIn(t, "the list", list, `<span class="badge badge-completed">Completed</span>`, `<a href="`+loc+`">`+richIntent+`</a>`)

	// A changed chart fails verification, naming the problem.
	for _, a := range getJSON(t, e, "/api/analyses/"+id)["artifacts"].([]any) {
		if a := a.(map[string]any); a["artifact_type"] == "chart" {
			os.WriteFile(a["content_ref"].(string), []byte("x"), 0o644)
			break
		}
	}
	if v := string(e.pageGet(loc+"/verify", true).body); !strings.Contains(v, "✗ The log does not verify") || !strings.Contains(v, "<li>") {
		t.Errorf("a changed chart verified:\n%s", v)
	}
}

// wantInOrder fails unless each string is in page, each after the one
// before it.
func wantInOrder(t *testing.T, page string, wants ...string) {
	t.Helper()
	at, prev := 0, "the start"
	for _, w := range wants {
		i := strings.Index(page[at:], w)
		if i < 0 {
			if strings.Contains(page, w) {
				t.Errorf("%s comes before %s; want it after", w, prev)
			} else {
				t.Errorf("the page lacks %s", w)
			}
			continue
		}
		at, prev = at+i+len(w), w
	}
}

// boxAt is where a step's box is in the diagram.
func boxAt(t *testing.T, svg, task string) (x, y int) {
	t.Helper()
	m := regexp.MustCompile(`id="dag-node-` + regexp.QuoteMeta(task) + `"[^>]*><title>[^<]*</title><rect class="dag-box" x="(\d+)" y="(\d+)"`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatalf("no box for step %s", task)
	}
	x, _ = strconv.Atoi(m[1])
	y, _ = strconv.Atoi(m[2])
	return x, y
}

func getJSON(t *testing.T, e *env, path string) map[string]any {
	t.Helper()
	return e.jsonReq(http.MethodGet, path, nil).json(t)
}

func TestAnalysisPageNotFound(t *testing.T) {
	e := newEnv(t)
	for _, path := range []string{
		"/analyses/00000000-0000-0000-0000-000000000000",
		"/analyses/00000000-0000-0000-0000-000000000000/verify",
		"/analyses/00000000-0000-0000-0000-000000000000/artifacts/x",
		"/analyses/..%2f..%2fetc",
	} {
		r := e.pageGet(path, false)
		if r.status != http.StatusNotFound || !strings.Contains(r.header.Get("Content-Type"), "text/html") || !strings.Contains(string(r.body), "<h1>Not found</h1>") {
			t.Errorf("GET %s: %d %s; want the 404 page", path, r.status, r.header.Get("Content-Type"))
		}
	}
}

// fakeAnalyses serves one analysis whose state and events a test sets, for
// the pages of an analysis that is still running.
type fakeAnalyses struct {
	analysis.Service // Wait, which the pages never call, panics
	mu               sync.Mutex
	res              *analysis.Result
	live             chan analysis.Event
}

var _ analysis.Service = (*fakeAnalyses)(nil)

// runningAnalysis is an analysis halfway: steps of every status over three
// levels, one step failed after three attempts and the step after it
// skipped.
func runningAnalysis() *fakeAnalyses {
	msg, cat := `column "amout" does not exist`, "missing_column"
	rows := 12
	step := func(id, tool, status string, deps ...string) analysis.Subtask {
		args := map[string]any{"query": "SELECT 1"}
		if tool == analysis.ToolPlot {
			args = map[string]any{"input": deps[0], "type": "bar", "x_col": "state", "y_col": "amount", "title": id}
		}
		return analysis.Subtask{TaskID: id, Description: "Step " + id, ToolName: tool, Dependencies: deps, Arguments: args, Status: status}
	}
	res := &analysis.Result{RequestID: "0f0e0d0c-0000-4000-8000-000000000001", Status: analysis.StatusExecuting,
		Request: &analysis.Request{Intent: "Sales by state with a chart, and by product", Timestamp: "2024-05-01T10:00:00Z",
			Deliverables: analysis.AllDeliverables, Constraints: analysis.Constraints{RowLimit: 1000, TimeoutSeconds: 30},
			DataSources: []analysis.DataSource{{Type: analysis.SourceCSV, Name: "sales", FilePath: "/data/uploads/x/sales.csv"}}},
		Plan: &analysis.Plan{Subtasks: []analysis.Subtask{
			step("totals", analysis.ToolSQL, analysis.TaskSucceeded),
			step("by_state", analysis.ToolSQL, analysis.TaskRunning),
			step("by_state_chart", analysis.ToolPlot, analysis.TaskPending, "by_state"),
			step("by_product", analysis.ToolSQL, analysis.TaskFailed),
			step("by_product_chart", analysis.ToolPlot, analysis.TaskSkipped, "by_product"),
			step("profile", analysis.ToolProfile, analysis.TaskPending, "by_state", "by_state_chart"),
		}, Reasoning: "Offline planner.", TotalEstimatedSeconds: 4},
		Observations: []analysis.Observation{{TaskID: "totals", CallID: "c1", Status: analysis.ObsSuccess, RowCount: &rows, ExecutionTimeSeconds: 0.01}},
		Calls:        []analysis.ToolCall{{CallID: "c1", TaskID: "totals", AttemptNumber: 1}}}
	for i := 1; i <= 3; i++ {
		id := "p" + strconv.Itoa(i)
		res.Calls = append(res.Calls, analysis.ToolCall{CallID: id, TaskID: "by_product", AttemptNumber: i})
		res.Observations = append(res.Observations, analysis.Observation{TaskID: "by_product", CallID: id, Status: analysis.ObsError,
			ErrorMessage: &msg, ErrorCategory: &cat, ExecutionTimeSeconds: 0.002})
	}
	return &fakeAnalyses{res: res, live: make(chan analysis.Event, 16)}
}

func (f *fakeAnalyses) Start(context.Context, string, analysis.Request, []analysis.Upload) (*analysis.Result, error) {
	return nil, quarry.Errorf(quarry.ECodeUnavailable, "not in this test")
}

func (f *fakeAnalyses) Get(_ context.Context, id string) (*analysis.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id != f.res.RequestID {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "no analysis %s", id)
	}
	c := *f.res
	if c.Plan != nil {
		p := *c.Plan
		p.Subtasks = slices.Clone(p.Subtasks)
		c.Plan = &p
	}
	return &c, nil
}

// finish marks every step succeeded and the analysis completed, then ends
// its events.
func (f *fakeAnalyses) finish() {
	f.mu.Lock()
	for i := range f.res.Plan.Subtasks {
		f.res.Plan.Subtasks[i].Status = analysis.TaskSucceeded
	}
	f.res.Status = analysis.StatusCompleted
	f.mu.Unlock()
	close(f.live)
}

func (f *fakeAnalyses) List(context.Context) ([]analysis.Summary, error) { return nil, nil }

func (f *fakeAnalyses) Subscribe(_ context.Context, id string) ([]analysis.Event, <-chan analysis.Event, func(), error) {
	if _, err := f.Get(context.Background(), id); err != nil {
		return nil, nil, nil, err
	}
	return []analysis.Event{{Step: "plan", Message: "planned"}}, f.live, func() {}, nil
}

func (f *fakeAnalyses) Audit(context.Context, string) ([]quarry.AuditEntry, error) { return nil, nil }

func (f *fakeAnalyses) VerifyAudit(context.Context) (*analysis.AuditCheck, error) {
	return &analysis.AuditCheck{OK: true}, nil
}

func (f *fakeAnalyses) Artifact(_ context.Context, id, aid string) (*analysis.Artifact, string, error) {
	return nil, "", quarry.Errorf(quarry.ECodeNotFound, "no artifact %s", aid)
}

func (f *fakeAnalyses) Recipes(context.Context) ([]analysis.Recipe, error) { return nil, nil }

func TestAnalysisPageRunning(t *testing.T) {
	f := runningAnalysis()
	srv := httptest.NewServer(web.New(nil, web.Options{Analyses: f}))
	defer srv.Close()
	res, err := http.Get(srv.URL + "/analyses/" + f.res.RequestID)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	page := string(body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET: %d\n%s", res.StatusCode, page)
	}
	wantHeadings(t, page)
	wantIn(t, "the running page", page,
		`<script src="/static/analysis.js?v=`,
		`<noscript><meta http-equiv="refresh" content="3"></noscript>`,
		`data-events-url="/api/analyses/`+f.res.RequestID+`/events" data-running="true" data-has-plan="true"`,
		`<span id="analysis-status" class="badge badge-executing">Running</span>`,
		`id="live-status"`,
		`<title id="dag-title">Plan: 6 steps in 3 levels</title>`,
		`profile (profiler.analyze) after by_state and by_state_chart`,
		`<h2 id="answer-heading">Answer</h2>
  <p class="muted">The answer appears here when the analysis has finished, above its charts, tables and report.</p>`,
	)
	wantInOrder(t, page, `id="live-status"`, `id="answer"`, `id="plan"`)
	for task, want := range map[string]string{
		"totals": "succeeded", "by_state": "running", "by_state_chart": "pending", "by_product": "failed", "by_product_chart": "skipped", "profile": "pending",
	} {
		label := map[string]string{"succeeded": "✓ Succeeded", "running": "◔ Running", "pending": "○ Pending", "failed": "✗ Failed", "skipped": "– Skipped"}[want]
		if !regexp.MustCompile(`<g class="dag-node status-` + want + `" id="dag-node-` + task + `"[^>]*>.*?<text class="dag-status"[^>]*>` + label + `</text>`).MatchString(page) {
			t.Errorf("the box of %s is not %s with the words %q", task, want, label)
		}
		wantIn(t, "the list of steps", page, `<span id="step-status-`+task+`" class="task-status status-`+want+`">`+label+`</span>`)
	}
	// The failed step shows each attempt with its category and message.
	item := regexp.MustCompile(`(?s)<li id="step-by_product" .*?</li>`).FindString(page)
	for i := 1; i <= 3; i++ {
		wantIn(t, "the failed step", item, `<tr><td class="num">`+strconv.Itoa(i)+`</td><td><span class="obs-status obs-error">error</span>`)
	}
	wantIn(t, "the failed step", item, `<code>missing_column</code> column &#34;amout&#34; does not exist`)
	// The profile step is in the third column, after both its inputs.
	x0, _ := boxAt(t, page, "by_state")
	x1, _ := boxAt(t, page, "by_state_chart")
	x2, _ := boxAt(t, page, "profile")
	if !(x0 < x1 && x1 < x2) {
		t.Errorf("columns of by_state, by_state_chart, profile at x = %d, %d, %d; want three levels", x0, x1, x2)
	}
}

// unclearAnalysis is an analysis that ended NEEDS_CLARIFICATION: a word of
// the request would change the answer and could not be applied, so
// nothing was answered.
func unclearAnalysis() *fakeAnalyses {
	res := &analysis.Result{RequestID: "0f0e0d0c-0000-4000-8000-000000000002", Status: analysis.StatusFailed,
		Request: &analysis.Request{Intent: "How many days in 2015 had a high temperature above 30 degrees?", Timestamp: "2024-05-01T10:00:00Z",
			Deliverables: analysis.AllDeliverables, Constraints: analysis.Constraints{RowLimit: 1000, TimeoutSeconds: 30},
			DataSources: []analysis.DataSource{{Type: analysis.SourceCSV, Name: "weather", FilePath: "/data/uploads/x/weather.csv"}}},
		Error: &quarry.ErrorInfo{Code: quarry.ECodeNeedsClarification, Message: `the request has words that would change the answer and that match no column, value or operation`,
			Hint: "name the column, e.g. temp_max"},
		Clarification: &analysis.Clarification{
			Understood: []string{"how many days -> count of rows", "2015 -> year of date = 2015", "above 30 -> > 30"},
			NotUnderstood: []analysis.UnknownWord{
				{Word: "high temperature", Reason: "no column or value is called that", Nearest: []string{"temp_max", "temp_min"}},
				{Word: "degrees", Reason: "no unit is recorded for any column"},
			}},
		Observations: []analysis.Observation{}, Artifacts: []analysis.Artifact{}}
	return &fakeAnalyses{res: res, live: make(chan analysis.Event)}
}

// fakePage fetches the page of f's analysis.
func fakePage(t *testing.T, f *fakeAnalyses) string {
	t.Helper()
	srv := httptest.NewServer(web.New(nil, web.Options{Analyses: f}))
	defer srv.Close()
	res, err := http.Get(srv.URL + "/analyses/" + f.res.RequestID)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET: %d\n%s", res.StatusCode, body)
	}
	page := string(body)
	wantHeadings(t, page)
	return page
}

// A request that could not be answered as asked says so first: the badge
// reads Needs clarification (not Completed, not green), then the words not
// understood with why and the nearest columns, then what was understood.
func TestAnalysisPageClarification(t *testing.T) {
	f := unclearAnalysis()
	page := fakePage(t, f)
	wantIn(t, "the page", page,
		`<span id="analysis-status" class="badge badge-clarify">Needs clarification</span>`,
		`<p class="alert-title" id="answer-lead">I could not answer this as asked: the request has words that would change the answer and that match no column, value or operation.</p>`,
		`<p>name the column, e.g. temp_max</p>`,
		`Error code <code>NEEDS_CLARIFICATION</code>`,
		`<li><strong class="word">“high temperature”</strong>: no column or value is called that<br><span class="nearest">Nearest in the data: <code>temp_max</code>, <code>temp_min</code></span></li>`,
		`<li><strong class="word">“degrees”</strong>: no unit is recorded for any column</li>`,
		`<li>how many days -&gt; count of rows</li><li>2015 -&gt; year of date = 2015</li><li>above 30 -&gt; &gt; 30</li>`,
	)
	wantInOrder(t, page, `<h1>`, `id="answer"`, `id="answer-lead"`, `What I did not understand`, `“high temperature”`, `What I understood`, `id="plan"`, `id="request-heading"`)
	if strings.Contains(page, "badge-completed") || strings.Contains(page, "badge-failed") {
		t.Error("an analysis that needs clarification has the badge of another status")
	}
	if strings.Contains(page, "/data/uploads") {
		t.Error("the page shows a server path")
	}

	// A completed analysis with how it read the request: the summary
	// first, then what was understood.
	done := unclearAnalysis()
	done.res.Status, done.res.Error, done.res.Summary = analysis.StatusCompleted, nil, "- Days: 42 [count]"
	done.res.Clarification.NotUnderstood = nil
	page = fakePage(t, done)
	wantIn(t, "the completed page", page, `<span id="analysis-status" class="badge badge-completed">Completed</span>`)
	wantInOrder(t, page, `<h2 id="answer-heading">Answer</h2>`, `<div id="summary" class="markdown summary"><ul>`, `Days: 42`, `id="clarification"`, `What I understood`, `id="plan"`)
	if strings.Contains(page, `id="not-answered"`) || strings.Contains(page, "What I did not understand") || strings.Contains(page, "Ask again") {
		t.Error("a completed analysis says it did not understand")
	}

	// The API returns the clarification as it is.
	srv := httptest.NewServer(web.New(nil, web.Options{Analyses: f}))
	defer srv.Close()
	res, err := http.Get(srv.URL + "/api/analyses/" + f.res.RequestID)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var got struct {
		Status        string                  `json:"status"`
		Error         quarry.ErrorInfo        `json:"error"`
		Clarification *analysis.Clarification `json:"clarification"`
	}
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got.Status != analysis.StatusFailed || got.Error.Code != quarry.ECodeNeedsClarification || got.Clarification == nil ||
		!reflect.DeepEqual(*got.Clarification, *f.res.Clarification) {
		t.Errorf("the API returns status %s, code %s, clarification %+v; want failed, NEEDS_CLARIFICATION and %+v",
			got.Status, got.Error.Code, got.Clarification, *f.res.Clarification)
	}
}

// An analysis that answered in part or not at all says what did not run
// before any figure, in the colour of its status: amber for part, red for
// nothing.
func TestAnalysisPageNotAnswered(t *testing.T) {
	f := runningAnalysis()
	f.res.Status = analysis.StatusPartialSuccess
	f.res.Summary = "- Totals of sales: amount 1,234.50 [totals]"
	f.res.Undelivered = []string{"step by_product (Step by_product) failed", "step by_product_chart (Step by_product_chart) skipped"}
	page := fakePage(t, f)
	wantIn(t, "the partial page", page,
		`<span id="analysis-status" class="badge badge-partial_success">Partly completed</span>`,
		`<div id="not-answered" class="alert alert-warning">`,
		`<ul class="not-run"><li>step by_product (Step by_product) failed</li><li>step by_product_chart (Step by_product_chart) skipped</li></ul>`,
		`<h3 id="partial-heading">What I could answer</h3>`,
	)
	wantInOrder(t, page, `id="answer"`, `I could answer only part of this`, `step by_product (Step by_product) failed`, `What I could answer`, `Totals of sales: amount 1,234.50`, `id="plan"`)

	// Failed with no step succeeded, and failed with an error before a plan.
	f.res.Status, f.res.Summary = analysis.StatusFailed, ""
	page = fakePage(t, f)
	wantIn(t, "the failed page", page,
		`<span id="analysis-status" class="badge badge-failed">Failed</span>`,
		`<div id="not-answered" class="alert alert-error">`,
		`<p class="alert-title" id="answer-lead">I could not answer this: no step of the plan succeeded.</p>`,
	)
	wantInOrder(t, page, `id="answer"`, `id="answer-lead"`, `step by_product (Step by_product) failed`, `id="plan"`)
	f.res.Plan, f.res.Undelivered = nil, nil
	f.res.Error = &quarry.ErrorInfo{Code: quarry.ECodeInvalid, Message: "sales.parquet is not a Parquet file"}
	page = fakePage(t, f)
	wantIn(t, "the page of a failure before the plan", page,
		`<p class="alert-title" id="answer-lead">I could not answer this: sales.parquet is not a Parquet file.</p>`,
		`Error code <code>INVALID</code>`,
		`<p id="no-plan" class="muted">No plan was made: the analysis ended before its steps were planned.</p>`,
	)
	if strings.Contains(page, `id="summary"`) || strings.Contains(page, `id="clarification"`) {
		t.Error("a failed analysis shows a summary or a clarification it does not have")
	}
}
