package web

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// do sends a request to a server over svc and returns the recorded answer.
func do(t *testing.T, svc investigation.Service, req *http.Request) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	New(svc, Options{}).ServeHTTP(rec, req)
	return rec
}

func get(t *testing.T, svc investigation.Service, target string) *httptest.ResponseRecorder {
	t.Helper()
	return do(t, svc, httptest.NewRequest(http.MethodGet, target, nil))
}

func postForm(t *testing.T, svc investigation.Service, target string, form url.Values, htmx bool) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if htmx {
		req.Header.Set("HX-Request", "true")
	}
	return do(t, svc, req)
}

func postUpload(t *testing.T, svc investigation.Service, target, name, content, description string, htmx bool) *httptest.ResponseRecorder {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(fw, content)
	if err := mw.WriteField("description", description); err != nil {
		t.Fatal(err)
	}
	mw.Close()
	req := httptest.NewRequest(http.MethodPost, target, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if htmx {
		req.Header.Set("HX-Request", "true")
	}
	return do(t, svc, req)
}

// wantStatus fails the test unless rec has the status.
func wantStatus(t *testing.T, rec *httptest.ResponseRecorder, status int) {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status = %d; want %d; body:\n%s", rec.Code, status, rec.Body.String())
	}
}

// element returns the opening tag of the element with the given id.
func element(t *testing.T, page, id string) string {
	t.Helper()
	m := regexp.MustCompile(`<[a-z][a-z0-9]*\b[^>]*\bid="` + regexp.QuoteMeta(id) + `"[^>]*>`).FindString(page)
	if m == "" {
		t.Fatalf("no element with id %q in:\n%s", id, page)
	}
	return m
}

var headingTag = regexp.MustCompile(`<h([1-6])\b`)

// headingLevels are the levels of a page's headings in order.
func headingLevels(page string) []int {
	var out []int
	for _, m := range headingTag.FindAllStringSubmatch(page, -1) {
		out = append(out, int(m[1][0]-'0'))
	}
	return out
}

// checkHeadings fails unless the page has exactly one h1, first, and no
// heading skips a level below the one before it.
func checkHeadings(t *testing.T, page string) {
	t.Helper()
	levels := headingLevels(page)
	if len(levels) == 0 || levels[0] != 1 {
		t.Fatalf("heading levels %v; want the first to be h1", levels)
	}
	if n := strings.Count(page, "<h1"); n != 1 {
		t.Errorf("page has %d h1; want 1", n)
	}
	for i := 1; i < len(levels); i++ {
		if levels[i] > levels[i-1]+1 {
			t.Errorf("heading levels %v skip from h%d to h%d", levels, levels[i-1], levels[i])
		}
	}
}

func TestHomeListsSessions(t *testing.T) {
	f := newFake(t)
	done := f.add(investigation.StatusCompleted)
	f.contexts[done] = &investigation.Context{InvestigationPrompt: "Why did revenue drop?"}
	fresh := f.add(investigation.StatusCreated)

	rec := get(t, f, "/")
	wantStatus(t, rec, http.StatusOK)
	page := rec.Body.String()
	for _, want := range []string{
		`<h1>Quarry</h1>`,
		`action="/sessions"`,
		`id="new-session"`,
		`href="/sessions/` + done + `"`,
		`href="/sessions/` + fresh + `"`,
		`<span class="badge badge-completed">Completed</span>`,
		`<span class="badge badge-created">New</span>`,
		`Why did revenue drop?`,
		`action="/sessions/` + fresh + `/delete"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("home page lacks %s", want)
		}
	}

	if strings.Index(page, fresh) > strings.Index(page, done) {
		t.Errorf("home page lists %s after %s; want newest first", fresh, done)
	}
	checkHeadings(t, page)
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("Content-Security-Policy = %q; want scripts from self only", csp)
	}
	// Delete from the list, without JavaScript: back to the list.
	rec = postForm(t, f, "/sessions/"+fresh+"/delete", nil, false)
	wantStatus(t, rec, http.StatusSeeOther)
	if _, ok := f.sessions[fresh]; ok {
		t.Errorf("the deleted session is still there")
	}
}

func TestCreateSessionRedirects(t *testing.T) {
	f := newFake(t)
	rec := postForm(t, f, "/sessions", nil, false)
	wantStatus(t, rec, http.StatusSeeOther)
	if len(f.order) != 1 {
		t.Fatalf("sessions = %d; want 1", len(f.order))
	}
	if loc, want := rec.Header().Get("Location"), "/sessions/"+f.order[0]; loc != want {
		t.Errorf("Location = %q; want %q", loc, want)
	}
}

func TestCreateSessionRefusesOtherSites(t *testing.T) {
	f := newFake(t)
	req := httptest.NewRequest(http.MethodPost, "/sessions", nil)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	rec := do(t, f, req)
	if rec.Code != http.StatusForbidden {
		t.Errorf("cross-site POST /sessions = %d; want 403", rec.Code)
	}
	if len(f.order) != 0 {
		t.Errorf("a cross-site post created %d sessions", len(f.order))
	}
}

func TestFormPageHasLabelledFields(t *testing.T) {
	f := newFake(t)
	id := f.add(investigation.StatusCreated)
	if rec := postUpload(t, f, "/sessions/"+id+"/files", "orders.csv", "order_id,amount\n1,2\n", "", false); rec.Code != http.StatusSeeOther {
		t.Fatalf("upload = %d", rec.Code)
	}
	rec := get(t, f, "/sessions/"+id)
	wantStatus(t, rec, http.StatusOK)
	page := rec.Body.String()
	labelled := []string{"file-input", "file-description", "metric_sql", "business_context", "baseline_start",
		"baseline_end", "comparison_start", "comparison_end", "time_column", "ignore_columns", "investigation_prompt", "description-file1"}
	for _, id := range labelled {
		element(t, page, id)
		if !strings.Contains(page, `<label for="`+id+`"`) {
			t.Errorf("field %s has no <label for>", id)
		}
	}
	for _, id := range []string{"upload-button", "start", "file-list", "upload-form", "investigate-form", "metric-tables"} {
		element(t, page, id)
	}
	for _, want := range []string{
		`<h2 id="documents-heading">Relevant documents</h2>`,
		`<h2 id="context-heading">Business context</h2>`,
		`<h2 id="prompt-heading">Investigation prompt</h2>`,
		`accept=".csv"`, `name="file"`, `enctype="multipart/form-data"`,
		`placeholder="SELECT SUM(amount) FROM orders"`,
		`Tables you can use: <code>orders</code>.`,
		`class="file-card" id="file-file1" data-file-id="file1"`,
		`action="/sessions/` + id + `/files/file1/delete"`,
		`action="/sessions/` + id + `/files/file1/description"`,
		`action="/sessions/` + id + `/investigate"`,
		`<summary>Advanced</summary>`,
		`<select id="time_column" name="time_column"`, `<option value="">Detect it</option>`, `name="time_format"`,
		`class="button danger small remove-file"`,
		`<td><code>amount</code></td><td><span class="role role-measure">measure</span></td><td>float</td>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("form page lacks %s", want)
		}
	}
	for _, id := range []string{"baseline_start", "baseline_end", "comparison_start", "comparison_end"} {
		if !strings.Contains(element(t, page, id), `type="date"`) {
			t.Errorf("%s is not a date input", id)
		}
	}
	checkHeadings(t, page)
}

func TestInvestigateWithoutMetricKeepsValues(t *testing.T) {
	f := newFake(t)
	id := f.add(investigation.StatusHasFiles)
	form := url.Values{"metric_sql": {"  "}, "business_context": {"New checkout <b>on</b> mobile"},
		"baseline_start": {"2024-02-01"}, "baseline_end": {"2024-02-14"}, "comparison_start": {"2024-02-15"},
		"comparison_end": {"2024-02-28"}, "investigation_prompt": {"Why did it drop?"}, "time_column": {"orders.day"}}
	rec := postForm(t, f, "/sessions/"+id+"/investigate", form, false)
	wantStatus(t, rec, http.StatusUnprocessableEntity)
	page := rec.Body.String()
	if len(f.investigated) != 0 {
		t.Errorf("the service was asked to investigate %d times; want 0", len(f.investigated))
	}
	metric := element(t, page, "metric_sql")
	for _, want := range []string{`aria-invalid="true"`, `aria-describedby="metric_sql-hint metric-error metric-tables"`} {
		if !strings.Contains(metric, want) {
			t.Errorf("metric field %s lacks %s", metric, want)
		}
	}
	errTag := element(t, page, "metric-error")
	if !strings.Contains(errTag, `class="field-error"`) {
		t.Errorf("metric error %s is not a field-error", errTag)
	}
	// The error sits right after the metric field.
	after := page[strings.Index(page, metric):]
	if i, j := strings.Index(after, `id="metric-error"`), strings.Index(after, `id="business_context"`); i < 0 || i > j {
		t.Errorf("the metric error is not next to the metric field")
	}
	for _, want := range []string{
		"a metric definition is required",
		"for example SELECT SUM(amount) FROM orders",
		`New checkout &lt;b&gt;on&lt;/b&gt; mobile</textarea>`,
		`value="2024-02-01"`, `value="2024-02-14"`, `value="2024-02-15"`, `value="2024-02-28"`,
		`Why did it drop?</textarea>`, `value="orders.day"`,
		`role="alert"`, `<a href="#metric_sql">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("re-rendered form lacks %s", want)
		}
	}
	checkHeadings(t, page)
}

// TestInvestigateShowsEveryError: a submit with several problems shows all
// of them at once, each at its field and in the summary, not only the
// first.
func TestInvestigateShowsEveryError(t *testing.T) {
	f := newFake(t)
	id := f.add(investigation.StatusHasFiles)
	form := url.Values{"metric_sql": {""}, "baseline_start": {"2024-02-14"}, "baseline_end": {"2024-02-01"},
		"comparison_start": {"2024-02-28"}, "comparison_end": {"2024-02-15"},
		"investigation_prompt": {strings.Repeat("x", quarry.MaxInvestigationPrompt+1)}}
	rec := postForm(t, f, "/sessions/"+id+"/investigate", form, false)
	wantStatus(t, rec, http.StatusUnprocessableEntity)
	page := rec.Body.String()
	if len(f.investigated) != 0 {
		t.Errorf("the service was asked to investigate %d times; want 0", len(f.investigated))
	}
	for _, id := range []string{"metric-error", "dates-error", "investigation_prompt-error"} {
		element(t, page, id)
	}
	for _, want := range []string{
		"a metric definition is required",
		"the baseline period ends (2024-02-01) before it starts (2024-02-14); the comparison period ends (2024-02-15) before it starts (2024-02-28)",
		"the investigation prompt is 2001 characters",
		`<a href="#metric_sql">`, `<a href="#baseline_start">`, `<a href="#investigation_prompt">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, field := range []string{"metric_sql", "baseline_start", "baseline_end", "comparison_start", "comparison_end"} {
		if tag := element(t, page, field); !strings.Contains(tag, `aria-invalid="true"`) {
			t.Errorf("%s is not marked invalid: %s", field, tag)
		}
	}
}

func TestInvestigateErrorsGoToTheirFields(t *testing.T) {
	tests := []struct {
		name       string
		form       url.Values
		serviceErr error
		status     int
		errID      string // the inline error element
		invalid    []string
		message    string
	}{
		{
			name:    "bad dates",
			form:    url.Values{"metric_sql": {"SELECT SUM(amount) FROM orders"}, "baseline_start": {"2024-02-01"}, "baseline_end": {"yesterday"}, "comparison_start": {"2024-02-15"}},
			status:  http.StatusUnprocessableEntity,
			errID:   "dates-error",
			invalid: []string{"baseline_end", "comparison_end"},
			message: "enter the baseline end and comparison end dates",
		},
		{
			name:    "all dates missing",
			form:    url.Values{"metric_sql": {"SELECT SUM(amount) FROM orders"}},
			status:  http.StatusUnprocessableEntity,
			errID:   "dates-error",
			invalid: []string{"baseline_start", "baseline_end", "comparison_start", "comparison_end"},
			message: "enter the start and end dates of both periods",
		},
		{
			name:       "no data in period",
			serviceErr: quarry.Errorf(quarry.ECodeNoDataInPeriod, "no rows fall in the comparison period").WithHint("check the dates"),
			status:     http.StatusUnprocessableEntity,
			errID:      "dates-error",
			invalid:    []string{"baseline_start", "baseline_end", "comparison_start", "comparison_end"},
			message:    "no rows fall in the comparison period",
		},
		{
			name:       "unsupported metric",
			serviceErr: quarry.Errorf(quarry.ECodeUnsupportedMetric, "MEDIAN is not supported"),
			status:     http.StatusUnprocessableEntity,
			errID:      "metric-error",
			invalid:    []string{"metric_sql"},
			message:    "MEDIAN is not supported",
		},
		{
			name:       "bad time column",
			serviceErr: quarry.Errorf(quarry.ECodeInvalidTimeColumn, "orders.day is not a date column"),
			status:     http.StatusUnprocessableEntity,
			errID:      "metric-error",
			invalid:    []string{"metric_sql", "time_column"},
			message:    "orders.day is not a date column",
		},
		{
			name:       "no files",
			serviceErr: quarry.Errorf(quarry.ECodeNoFilesUploaded, "upload at least one file"),
			status:     http.StatusUnprocessableEntity,
			errID:      "upload-error",
			invalid:    []string{"file-input"},
			message:    "upload at least one file",
		},
		{
			name:       "conflict goes to the summary",
			serviceErr: quarry.Errorf(quarry.ECodeConflict, "the investigation has already started"),
			status:     http.StatusConflict,
			errID:      "error-summary-title",
			message:    "the investigation has already started",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			id := f.add(investigation.StatusHasFiles)
			f.investigateErr = tt.serviceErr
			form := tt.form
			if form == nil {
				form = url.Values{"metric_sql": {"SELECT SUM(amount) FROM orders"}, "baseline_start": {"2024-02-01"},
					"baseline_end": {"2024-02-14"}, "comparison_start": {"2024-02-15"}, "comparison_end": {"2024-02-28"}}
			}
			rec := postForm(t, f, "/sessions/"+id+"/investigate", form, false)
			wantStatus(t, rec, tt.status)
			page := rec.Body.String()
			element(t, page, tt.errID)
			if !strings.Contains(page, tt.message) {
				t.Errorf("page lacks the message %q", tt.message)
			}
			for _, field := range tt.invalid {
				if tag := element(t, page, field); !strings.Contains(tag, `aria-invalid="true"`) {
					t.Errorf("%s is not marked invalid: %s", field, tag)
				}
			}
			if len(tt.invalid) > 0 && !strings.Contains(page, `<a href="#`+tt.invalid[0]+`">`) {
				t.Errorf("the error summary does not link to %s", tt.invalid[0])
			}
			if tt.serviceErr != nil && len(f.investigated) != 1 {
				t.Errorf("service calls = %d; want 1", len(f.investigated))
			}
		})
	}
}

func TestInvestigateStartsAndRedirects(t *testing.T) {
	f := newFake(t)
	id := f.add(investigation.StatusHasFiles)
	form := url.Values{"metric_sql": {" SELECT SUM(amount) FROM orders "}, "baseline_start": {"2024-02-01"},
		"baseline_end": {"2024-02-14"}, "comparison_start": {"2024-02-15"}, "comparison_end": {"2024-02-28"},
		"time_column": {"orders.day"}, "time_format": {" %d/%m/%Y "}, "ignore_columns": {" year, orders.month ,"}}
	rec := postForm(t, f, "/sessions/"+id+"/investigate", form, false)
	wantStatus(t, rec, http.StatusSeeOther)
	if loc := rec.Header().Get("Location"); loc != "/sessions/"+id {
		t.Errorf("Location = %q", loc)
	}
	if len(f.investigated) != 1 {
		t.Fatalf("service calls = %d; want 1", len(f.investigated))
	}
	c := f.investigated[0]
	want := "SELECT SUM(amount) FROM orders|2024-02-01..2024-02-14|2024-02-15..2024-02-28|orders.day|%d/%m/%Y|year,orders.month"
	if got := strings.Join([]string{c.MetricSQL, c.BaselinePeriod.String(), c.ComparisonPeriod.String(), c.TimeColumn, c.TimeFormat,
		strings.Join(c.IgnoreColumns, ",")}, "|"); got != want {
		t.Errorf("Investigate got %s; want %s", got, want)
	}
}

func TestUploadWithoutJS(t *testing.T) {
	f := newFake(t)
	id := f.add(investigation.StatusCreated)
	rec := postUpload(t, f, "/sessions/"+id+"/files", "orders.csv", "order_id,amount\n1,2\n2,3\n", "One row per order", false)
	wantStatus(t, rec, http.StatusSeeOther)
	if loc := rec.Header().Get("Location"); loc != "/sessions/"+id+"#file-file1" {
		t.Errorf("Location = %q", loc)
	}
	if got := f.files[id][0].Description; got != "One row per order" {
		t.Errorf("description = %q", got)
	}
}

func TestBadUploadShowsInlineError(t *testing.T) {
	f := newFake(t)
	id := f.add(investigation.StatusCreated)
	f.addFileErr = quarry.Errorf(quarry.ECodeInvalidFileType, "orders.xlsx is not a CSV file").WithHint("export the sheet as CSV")
	rec := postUpload(t, f, "/sessions/"+id+"/files", "orders.xlsx", "PK\x03\x04", "", false)
	wantStatus(t, rec, http.StatusUnsupportedMediaType)
	page := rec.Body.String()
	input := element(t, page, "file-input")
	for _, want := range []string{`aria-invalid="true"`, `upload-error`} {
		if !strings.Contains(input, want) {
			t.Errorf("file input %s lacks %s", input, want)
		}
	}
	errTag := element(t, page, "upload-error")
	if !strings.Contains(errTag, "field-error") {
		t.Errorf("upload error %s is not a field-error", errTag)
	}
	for _, want := range []string{"orders.xlsx is not a CSV file", "export the sheet as CSV"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}

	// The same error over htmx is the upload form alone, retargeted.
	rec = postUpload(t, f, "/sessions/"+id+"/files", "orders.xlsx", "PK\x03\x04", "", true)
	wantStatus(t, rec, http.StatusUnsupportedMediaType)
	if got := rec.Header().Get("HX-Retarget"); got != "#upload-form" {
		t.Errorf("HX-Retarget = %q; want #upload-form", got)
	}
	frag := rec.Body.String()
	if strings.Contains(frag, "<html") || !strings.Contains(frag, `id="upload-error"`) || !strings.Contains(frag, "orders.xlsx is not a CSV file") {
		t.Errorf("htmx upload error fragment:\n%s", frag)
	}
}

func TestUploadWithHTMXReturnsOneCard(t *testing.T) {
	f := newFake(t)
	id := f.add(investigation.StatusCreated)
	rec := postUpload(t, f, "/sessions/"+id+"/files", "orders.csv", "order_id,amount\n1,2\n2,3\n", "Orders", true)
	wantStatus(t, rec, http.StatusOK)
	frag := rec.Body.String()
	if strings.Contains(frag, "<html") || strings.Contains(frag, "<main") {
		t.Fatalf("htmx answer is a page, not a fragment:\n%s", frag)
	}
	if n := strings.Count(frag, `class="file-card"`); n != 1 {
		t.Errorf("fragment has %d file cards; want 1:\n%s", n, frag)
	}
	if !strings.HasPrefix(strings.TrimSpace(frag), `<article class="file-card" id="file-file1"`) {
		t.Errorf("fragment does not start with the card:\n%s", frag)
	}
	for _, want := range []string{
		`orders.csv`, `Orders</textarea>`,
		`id="metric-tables" hx-swap-oob="true">Tables you can use: <code>orders</code>.`,
		`id="upload-form"`, `hx-swap-oob="innerHTML">orders.csv added: 2 rows.`,
	} {
		if !strings.Contains(frag, want) {
			t.Errorf("fragment lacks %s", want)
		}
	}
	if strings.Contains(frag, `id="upload-error"`) {
		t.Errorf("a successful upload answers an error")
	}
}

func TestDescribeAndRemoveFile(t *testing.T) {
	f := newFake(t)
	id := f.add(investigation.StatusCreated)
	postUpload(t, f, "/sessions/"+id+"/files", "orders.csv", "order_id,amount\n1,2\n", "", false)
	base := "/sessions/" + id + "/files/file1"

	rec := postForm(t, f, base+"/description", url.Values{"description": {"Amounts in EUR"}}, false)
	wantStatus(t, rec, http.StatusSeeOther)
	if got := f.files[id][0].Description; got != "Amounts in EUR" {
		t.Errorf("description = %q", got)
	}

	rec = postForm(t, f, base+"/description", url.Values{"description": {"Net of tax"}}, true)
	wantStatus(t, rec, http.StatusOK)
	if frag := rec.Body.String(); strings.Count(frag, `class="file-card"`) != 1 || !strings.Contains(frag, "Net of tax</textarea>") || !strings.Contains(frag, "Saved") {
		t.Errorf("htmx describe fragment:\n%s", frag)
	}

	long := strings.Repeat("x", quarry.MaxDescriptionLen+1)
	rec = postForm(t, f, base+"/description", url.Values{"description": {long}}, false)
	wantStatus(t, rec, http.StatusUnprocessableEntity)
	if tag := element(t, rec.Body.String(), "description-file1"); !strings.Contains(tag, `aria-invalid="true"`) {
		t.Errorf("description field %s is not marked invalid", tag)
	}
	element(t, rec.Body.String(), "file-file1-error")

	rec = postForm(t, f, base+"/delete", nil, true)
	wantStatus(t, rec, http.StatusOK)
	frag := rec.Body.String()
	if strings.Contains(frag, "file-card") || !strings.Contains(frag, "orders.csv removed.") || !strings.Contains(frag, "Upload a file to see the table names") {
		t.Errorf("htmx remove fragment:\n%s", frag)
	}
	if len(f.files[id]) != 0 {
		t.Errorf("files left = %d", len(f.files[id]))
	}

	rec = postForm(t, f, base+"/delete", nil, false)
	wantStatus(t, rec, http.StatusNotFound)
}

const sampleReport = "# Checkout Conversion Investigation Report\n\n" +
	"> **Question:** Why did it drop?\n\n" +
	"| Period | Days | Conversion |\n|---|---:|---:|\n| Baseline | 14 | 4.10% |\n| Comparison | 14 | 3.60% |\n\n" +
	"## Data Model\n\n```text\nsessions (412,803 rows)\n```\n\n" +
	"#### sessions (412,803 rows)\n\n" +
	"## Explanations\n\n### 1. Mobile fell\n\n- evidence\n\n  <details><summary>SQL</summary>\n\n  ```sql\n  SELECT 1\n  ```\n\n  </details>\n\n" +
	"<script>alert(1)</script>\n\n" +
	"## Charts\n\n![Contribution waterfall](charts/waterfall.png)\n\n[raw data](files/orders.csv)\n"

// completedSession is a finished investigation with a report, a data model
// and a chart.
func completedSession(t *testing.T, f *fakeService) string {
	id := f.add(investigation.StatusCompleted)
	f.reports[id] = &investigation.Report{SessionID: id, Content: sampleReport, Status: "completed"}
	f.models[id] = &investigation.DataModel{SessionID: id,
		Tables: []investigation.TableInfo{{Name: "orders", RowCount: 16021, ColumnCount: 3}, {Name: "sessions", RowCount: 412803, ColumnCount: 4}},
		Relationships: []investigation.Relationship{{FromTable: "orders", FromColumn: "session_id", ToTable: "sessions", ToColumn: "session_id",
			RelationshipType: investigation.RelForeignKey, Confidence: 0.99, ToUnique: true}}}
	f.writeArtifact(t, id, "charts/waterfall.png", "\x89PNG\r\n\x1a\nfake")
	f.iters[id] = []investigation.IterationLog{{Iteration: 1, Decision: "ANALYZE", CompressedSummary: "Mobile holds 70% of the drop."},
		{Iteration: 2, Decision: "CONCLUDE", CompressedSummary: "Nothing else moved."}}
	return id
}

func TestReportPage(t *testing.T) {
	f := newFake(t)
	id := completedSession(t, f)
	rec := get(t, f, "/sessions/"+id)
	wantStatus(t, rec, http.StatusOK)
	page := rec.Body.String()
	for _, want := range []string{
		`<article id="report"`,
		`<h1 id="report-title">Checkout Conversion Investigation Report</h1>`,
		`<th>Period</th>`, `<td align="right">4.10%</td>`,
		`class="table-wrap" role="region" tabindex="0" aria-label="Table: Period, Days, Conversion"`,
		`<img src="/sessions/` + id + `/artifacts/charts/waterfall.png" alt="Contribution waterfall">`,
		`<a href="files/orders.csv">`,
		`<details><summary>SQL</summary>`, `</details>`,
		`<figure id="data-model"`, `<title id="dm-title">Data model: 2 tables, 1 relationship</title>`,
		`<desc id="dm-desc">`, `orders.session_id refers to sessions.session_id`,
		`<code>orders.session_id</code> → <code>sessions.session_id</code>`,
		`id="download-report" class="button secondary" href="/api/sessions/` + id + `/report/download"`,
		`<div id="chat-messages"`, `aria-live="polite"`,
		`<a class="skip-link" href="#main">`, `<main id="main"`, `<html lang="en">`,
		`<ol id="progress" class="progress">`,
		`<span class="progress-label">Iteration 2</span> <span class="decision">CONCLUDE</span> <span class="progress-text">Nothing else moved.</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report page lacks %s", want)
		}
	}
	if strings.Index(page, `id="progress"`) < strings.Index(page, "</article>") {
		t.Errorf("the investigation log comes before the end of the report")
	}
	if strings.Contains(page, "<script>alert") {
		t.Errorf("raw HTML from the report reached the page")
	}
	if strings.Contains(page, `http-equiv="refresh"`) {
		t.Errorf("a completed report refreshes itself")
	}
	// The diagram follows the Data Model heading, before the next section.
	if dm, ex := strings.Index(page, `id="data-model"`), strings.Index(page, `>Explanations</h2>`); dm < strings.Index(page, `>Data Model</h2>`) || dm > ex {
		t.Errorf("the data model diagram is not under the Data Model heading")
	}
	// The report's h4 under an h2 becomes an h3; the title is the only h1.
	if !strings.Contains(page, `<h3 id="sessions-412803-rows">`) {
		t.Errorf("the skipped heading level was not closed up")
	}
	checkHeadings(t, page)
	for _, id := range []string{"chat-form", "chat-message", "chat-send"} {
		element(t, page, id)
	}
	if tag := element(t, page, "chat-message"); strings.Contains(tag, "disabled") || !strings.Contains(tag, `maxlength="5000"`) {
		t.Errorf("chat field on a completed report: %s", tag)
	}
	if !strings.Contains(page, `<label for="chat-message">`) {
		t.Errorf("the chat field has no label")
	}
}

func TestRunningPage(t *testing.T) {
	f := newFake(t)
	id := f.add(investigation.StatusRunning)
	f.contexts[id] = &investigation.Context{MetricSQL: "SELECT SUM(amount) FROM orders",
		BaselinePeriod:   quarry.DateRange{Start: quarry.MustParseDate("2024-01-01"), End: quarry.MustParseDate("2024-01-31")},
		ComparisonPeriod: quarry.DateRange{Start: quarry.MustParseDate("2024-02-01"), End: quarry.MustParseDate("2024-02-29")}}
	f.iters[id] = []investigation.IterationLog{{Iteration: 1, Decision: "ANALYZE", CompressedSummary: "Mobile holds 70% of the drop."}}

	page := get(t, f, "/sessions/"+id).Body.String()
	for _, want := range []string{
		`<noscript><meta http-equiv="refresh" content="3"></noscript>`,
		`<ol id="progress" class="progress" aria-live="polite" data-events-url="/api/sessions/` + id + `/events" data-seen="0" data-fallback="true">`,
		`<span class="progress-label">Iteration 1</span> <span class="decision">ANALYZE</span> <span class="progress-text">Mobile holds 70% of the drop.</span>`,
		`/static/progress.js?v=`, `SELECT SUM(amount) FROM orders`, `2024-02-01 to 2024-02-29`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("running page lacks %s", want)
		}
	}
	if tag := element(t, page, "chat-message"); !strings.Contains(tag, "disabled") {
		t.Errorf("chat field is enabled while running: %s", tag)
	}
	checkHeadings(t, page)

	// With events the list is the stream so far, and says how far it is.
	f.events[id] = []investigation.Event{{Step: "load", Message: "Loaded 2 files"}, {Step: "loop", Iteration: 1, Decision: "ANALYZE", Finding: "Mobile holds 70%."}}
	page = get(t, f, "/sessions/"+id).Body.String()
	for _, want := range []string{`data-seen="2">`, `<span class="progress-label">load</span> <span class="progress-text">Loaded 2 files</span>`} {
		if !strings.Contains(page, want) {
			t.Errorf("running page with events lacks %s", want)
		}
	}
}

func TestFailedExpiredAndMissingSessions(t *testing.T) {
	f := newFake(t)
	failed := f.add(investigation.StatusFailed)
	f.sessions[failed].Error = &quarry.ErrorInfo{Code: quarry.ECodeNoDataInPeriod, Message: "no rows in the comparison period", Hint: "check the dates"}
	expired := f.add(investigation.StatusExpired)

	rec := get(t, f, "/sessions/"+failed)
	wantStatus(t, rec, http.StatusOK)
	page := rec.Body.String()
	for _, want := range []string{`id="failure" class="alert alert-error" role="alert"`, "no rows in the comparison period", "check the dates",
		`<code>NO_DATA_IN_PERIOD</code>`, `Start a new investigation`} {
		if !strings.Contains(page, want) {
			t.Errorf("failed page lacks %s", want)
		}
	}
	checkHeadings(t, page)

	rec = get(t, f, "/sessions/"+expired)
	wantStatus(t, rec, http.StatusGone)
	if page := rec.Body.String(); !strings.Contains(page, "expired") {
		t.Errorf("expired page does not say it expired:\n%s", page)
	}
	checkHeadings(t, rec.Body.String())

	rec = get(t, f, "/sessions/nope")
	wantStatus(t, rec, http.StatusNotFound)
	checkHeadings(t, rec.Body.String())
}

func TestArtifacts(t *testing.T) {
	f := newFake(t)
	id := completedSession(t, f)
	f.writeArtifact(t, id, "files/orders.csv", "secret,data\n")
	f.writeArtifact(t, id, "report.md", "# Report\n")
	f.writeArtifact(t, id, "results/explanations.json", "[]")
	f.writeArtifact(t, id, "analysis/iterations/iter_001.json", "{}")
	base := "/sessions/" + id + "/artifacts/"

	tests := []struct {
		path   string
		status int
		ctype  string
	}{
		{"charts/waterfall.png", http.StatusOK, "image/png"},
		{"report.md", http.StatusOK, "text/markdown; charset=utf-8"},
		{"results/explanations.json", http.StatusOK, "application/json"},
		{"analysis/iterations/iter_001.json", http.StatusOK, "application/json"},
		{"files/orders.csv", http.StatusNotFound, ""},
		{"charts/..%2F..%2Ffiles%2Forders.csv", http.StatusNotFound, ""},
		{"charts/%2E%2E/files/orders.csv", http.StatusNotFound, ""},
		{"metadata.json", http.StatusNotFound, ""},
		{"charts/missing.png", http.StatusNotFound, ""},
	}
	for _, tt := range tests {
		rec := get(t, f, base+tt.path)
		if rec.Code != tt.status {
			t.Errorf("GET %s = %d; want %d", tt.path, rec.Code, tt.status)
			continue
		}
		if tt.ctype != "" && rec.Header().Get("Content-Type") != tt.ctype {
			t.Errorf("GET %s Content-Type = %q; want %q", tt.path, rec.Header().Get("Content-Type"), tt.ctype)
		}
		if strings.Contains(rec.Body.String(), "secret,data") {
			t.Errorf("GET %s served the uploaded data", tt.path)
		}
	}
	// A literal ../ never reaches the handler: the mux cleans the path.
	rec := get(t, f, base+"charts/../../files/orders.csv")
	if rec.Code == http.StatusOK || strings.Contains(rec.Body.String(), "secret,data") {
		t.Errorf("GET with ../ = %d, body %q", rec.Code, rec.Body.String())
	}
}

func TestChat(t *testing.T) {
	f := newFake(t)
	id := completedSession(t, f)
	f.answer = investigation.ChatMessage{Content: "Mobile explains **62%** of the drop.",
		ArtifactsReferenced: []string{"results/explanations.json#1", "report.md#explanations", "files/orders.csv"}}

	rec := postForm(t, f, "/sessions/"+id+"/chat", url.Values{"message": {"Why mobile?"}}, false)
	wantStatus(t, rec, http.StatusSeeOther)
	if loc := rec.Header().Get("Location"); loc != "/sessions/"+id+"#chat-messages" {
		t.Errorf("Location = %q", loc)
	}

	rec = postForm(t, f, "/sessions/"+id+"/chat", url.Values{"message": {"And <desktop>?"}}, true)
	wantStatus(t, rec, http.StatusOK)
	frag := rec.Body.String()
	user, assistant := strings.Index(frag, `class="chat-message user"`), strings.Index(frag, `class="chat-message assistant"`)
	if user < 0 || assistant < user {
		t.Fatalf("fragment lacks the question then the answer:\n%s", frag)
	}
	for _, want := range []string{
		`And &lt;desktop&gt;?`, `Mobile explains <strong>62%</strong> of the drop.`,
		`<a href="/sessions/` + id + `/artifacts/results/explanations.json">results/explanations.json#1</a>`,
		`<a href="/sessions/` + id + `/artifacts/report.md">report.md#explanations</a>`,
		`id="chat-form"`, `hx-swap-oob="true"`,
	} {
		if !strings.Contains(frag, want) {
			t.Errorf("chat fragment lacks %s", want)
		}
	}
	if strings.Contains(frag, "files/orders.csv</a>") {
		t.Errorf("chat links to uploaded data")
	}
	if strings.Contains(frag, "<html") {
		t.Errorf("htmx chat answer is a whole page")
	}

	// The history shows on the page.
	page := get(t, f, "/sessions/"+id).Body.String()
	if n := strings.Count(page, `class="chat-message `); n != 4 {
		t.Errorf("page shows %d chat messages; want 4", n)
	}
	checkHeadings(t, page)
}

func TestChatErrors(t *testing.T) {
	f := newFake(t)
	id := completedSession(t, f)

	rec := postForm(t, f, "/sessions/"+id+"/chat", url.Values{"message": {"   "}}, false)
	wantStatus(t, rec, http.StatusUnprocessableEntity)
	page := rec.Body.String()
	if tag := element(t, page, "chat-message"); !strings.Contains(tag, `aria-invalid="true"`) || !strings.Contains(tag, "chat-error") {
		t.Errorf("chat field after an empty message: %s", tag)
	}
	if !strings.Contains(page, "the message is empty") {
		t.Errorf("page lacks the chat error")
	}

	rec = postForm(t, f, "/sessions/"+id+"/chat", url.Values{"message": {"   "}}, true)
	wantStatus(t, rec, http.StatusUnprocessableEntity)
	if rec.Header().Get("HX-Retarget") != "#chat-form" || !strings.Contains(rec.Body.String(), `id="chat-error"`) {
		t.Errorf("htmx chat error: %v\n%s", rec.Header(), rec.Body.String())
	}

	running := f.add(investigation.StatusRunning)
	rec = postForm(t, f, "/sessions/"+running+"/chat", url.Values{"message": {"Why?"}}, false)
	wantStatus(t, rec, http.StatusConflict)
	if page := rec.Body.String(); !strings.Contains(page, "not completed") || !strings.Contains(page, `Why?</textarea>`) {
		t.Errorf("chat before completion:\n%s", page)
	}
}

func TestStaticFiles(t *testing.T) {
	for _, name := range []string{"htmx.min.js", "app.css", "progress.js"} {
		rec := get(t, newFake(t), "/static/"+name)
		wantStatus(t, rec, http.StatusOK)
		if cc := rec.Header().Get("Cache-Control"); !strings.Contains(cc, "max-age=31536000") {
			t.Errorf("%s Cache-Control = %q", name, cc)
		}
		if rec.Body.Len() == 0 {
			t.Errorf("%s is empty", name)
		}
	}
	if rec := get(t, newFake(t), "/static/VERSIONS.md"); rec.Code != http.StatusNotFound {
		t.Errorf("GET /static/VERSIONS.md = %d; want 404", rec.Code)
	}
	if ct := get(t, newFake(t), "/static/app.css").Header().Get("Content-Type"); ct != "text/css; charset=utf-8" {
		t.Errorf("app.css Content-Type = %q", ct)
	}
}

func TestRenumberHeadings(t *testing.T) {
	tests := []struct {
		src  string
		top  int
		want []int
	}{
		{"## a\n### b\n## c", 2, []int{2, 3, 2}},
		{"# a\n# b\n## c", 2, []int{2, 2, 3}},
		{"## a\n#### b\n##### c\n## d", 2, []int{2, 3, 4, 2}},
		{"### a\n###### b", 3, []int{3, 4}},
		{"# a\n## b", 3, []int{3, 4}},
	}
	for _, tt := range tests {
		out, err := renderMarkdown(chatMarkdown, tt.src, markdownOptions{TopLevel: tt.top})
		if err != nil {
			t.Fatal(err)
		}
		if got := headingLevels(string(out.HTML)); !slices.Equal(got, tt.want) {
			t.Errorf("renderMarkdown(%q, top %d) headings = %v; want %v", tt.src, tt.top, got, tt.want)
		}
	}
}

func TestDataModelDiagram(t *testing.T) {
	dm := &investigation.DataModel{
		Tables: []investigation.TableInfo{
			{Name: "campaigns", RowCount: 42, ColumnCount: 5},
			{Name: "orders", RowCount: 16021, ColumnCount: 3, Columns: []quarry.Column{
				{Name: "order_id", InferredType: quarry.RoleID}, {Name: "amount", InferredType: quarry.RoleMeasure}}},
			{Name: "sessions<x>", RowCount: 412803, ColumnCount: 4},
		},
		Relationships: []investigation.Relationship{
			{FromTable: "orders", FromColumn: "session_id", ToTable: "sessions<x>", ToColumn: "session_id", RelationshipType: investigation.RelForeignKey, ToUnique: true},
			{FromTable: "sessions<x>", FromColumn: "channel", ToTable: "campaigns", ToColumn: "channel_name", RelationshipType: investigation.RelSimilarValues},
			{FromTable: "orders", FromColumn: "x", ToTable: "missing", ToColumn: "y"},
		},
	}
	v := newDataModelView(dm)
	svg := string(v.SVG)
	// orders refers to sessions, which refers to campaigns: three columns
	// from left to right.
	for _, want := range []string{
		`<rect x="16" y="16"`,  // orders, first column
		`<rect x="446" y="16"`, // sessions, second
		`<rect x="876" y="16"`, // campaigns, third
		`sessions&lt;x&gt;`, `session_id`, `channel → channel_name`, `stroke-dasharray="6 4"`,
		`<title id="dm-title">Data model: 3 tables, 2 relationships</title>`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("diagram lacks %s:\n%s", want, svg)
		}
	}
	if strings.Contains(svg, "sessions<x>") || strings.Contains(svg, "missing") {
		t.Errorf("diagram has an unescaped name or a link to an unknown table")
	}
	if got := fmt.Sprint(v.Tables[1].Keys); got != "[session_id order_id]" {
		t.Errorf("orders key columns = %s; want the join column and the id", got)
	}
	if len(v.Relationships) != 2 || v.Relationships[0].Kind != "foreign key, many-to-one" || v.Relationships[1].Kind != "similar values" {
		t.Errorf("relationships = %+v", v.Relationships)
	}
	if newDataModelView(nil) != nil || newDataModelView(&investigation.DataModel{}) != nil {
		t.Errorf("a missing or empty data model has a diagram")
	}
}

// TestFooterSaysWhatLeavesTheMachine: every page's footer names the
// analyst and says plainly what, if anything, is sent off the machine.
func TestFooterSaysWhatLeavesTheMachine(t *testing.T) {
	for _, tt := range []struct {
		name      string
		analyst   Analyst
		want, not []string
	}{
		{"offline", Analyst{},
			[]string{"your files and results stay here", "no model is configured"}, []string{"is sent"}},
		{"local model", Analyst{Model: "openai/llama3.2", Local: true},
			[]string{"its model, <strong>openai/llama3.2</strong>, run on this machine", "your files and results stay here"}, []string{"is sent", "sent to"}},
		{"remote model", Analyst{Model: "anthropic/claude-sonnet-4-5"},
			[]string{"<strong>anthropic/claude-sonnet-4-5</strong>, which runs outside this machine: it is sent your questions and context, column descriptions, sample values, query results (up to 200 rows each) and findings"},
			[]string{"stay here", "code sandbox"}},
		{"local model, code sandbox", Analyst{Model: "openai/qwen", Local: true, CodeSandbox: true},
			[]string{"which runs on this machine", "The uploaded files are sent to the code sandbox"}, []string{"stay here"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			id := f.add(investigation.StatusCompleted)
			for _, target := range []string{"/", "/sessions/" + id, "/sessions/" + quarry.NewID()} {
				rec := httptest.NewRecorder()
				New(f, Options{Analyst: tt.analyst}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
				footer := rec.Body.String()
				if i := strings.Index(footer, `<footer class="site-footer">`); i >= 0 {
					footer = footer[i:]
				} else {
					t.Fatalf("%s has no footer", target)
				}
				for _, w := range tt.want {
					if !strings.Contains(footer, w) {
						t.Errorf("%s footer lacks %q:\n%s", target, w, footer)
					}
				}
				for _, n := range tt.not {
					if strings.Contains(footer, n) {
						t.Errorf("%s footer says %q:\n%s", target, n, footer)
					}
				}
			}
		})
	}
}
