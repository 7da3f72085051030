package web

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// routesAnalysisPages registers the analyses' pages when the server has
// them: the list with the form that starts one, and each analysis with its
// plan, steps, artifacts and audit trail. They work without JavaScript;
// analysis.js follows a running analysis and htmx pages tables and
// verifies the log in place.
func (s *Server) routesAnalysisPages() {
	if s.opt.Analyses == nil {
		return
	}
	// The layout and the home page link to the analyses only when there
	// are some to link to.
	for _, t := range s.views {
		t.Funcs(template.FuncMap{"analysesOn": func() bool { return true }})
	}
	csrf := http.NewCrossOriginProtection()
	s.mux.Handle("GET /analyses", s.page(s.analysesPage))
	s.mux.Handle("POST /analyses", csrf.Handler(s.page(s.startAnalysisPage)))
	s.mux.Handle("GET /analyses/{id}", s.page(s.analysisPage))
	s.mux.Handle("GET /analyses/{id}/verify", s.page(s.verifyAnalysisPage))
	s.mux.Handle("GET /analyses/{id}/artifacts/{aid}", s.page(s.analysisArtifactPage))
}

// analysisURL is the page of an analysis.
func analysisURL(id string) string { return "/analyses/" + url.PathEscape(id) }

// analysesPage is the list of analyses and the form that starts one.
type analysesPage struct {
	pageBase
	Analyses []analysisRow
	Hidden   int
	Form     analysisForm
}

type analysisRow struct {
	analysis.Summary
	URL    string
	Label  string
	Time   time.Time
	Intent string
}

// analysisForm is the "New analysis" form with what was typed and the
// error at each field.
type analysisForm struct {
	Values       analysisValues
	Errs         map[string]*fieldError
	Deliverables []deliverableOption
	AdvancedOpen bool
	IntentMax    int
	MaxFiles     int
	MaxFileMB    int64
	RowLimitMax  int
	TimeoutMax   int
	// RowLimitMaxText is RowLimitMax for people: 200,000.
	RowLimitMaxText string
}

// Err is the error shown at a field, nil if none.
func (f analysisForm) Err(field string) *fieldError { return f.Errs[field] }

// analysisValues are the form's fields as typed.
type analysisValues struct {
	Intent, Source, RowLimit, Timeout, AllowedColumns, BlockedPatterns string
	Deliverables                                                       []string
}

type deliverableOption struct {
	Value, Label, Hint string
	Checked            bool
}

// Fields of the analysis form: their ids, and the names the error summary
// gives them.
const (
	afIntent       = "intent"
	afFiles        = "files"
	afSource       = "source"
	afDeliverables = "deliverable-tables"
	afRowLimit     = "row_limit"
	afTimeout      = "timeout_seconds"
	afColumns      = "allowed_columns"
	afPatterns     = "blocked_patterns"
)

var analysisFieldLabels = map[string]string{
	afIntent: "Request", afFiles: "Files", afSource: "PostgreSQL connection string", afDeliverables: "Deliverables",
	afRowLimit: "Row limit", afTimeout: "Timeout", afColumns: "Allowed columns", afPatterns: "Blocked patterns",
}

var deliverableLabels = []deliverableOption{
	{Value: analysis.DeliverTables, Label: "Tables", Hint: "each result as a CSV file"},
	{Value: analysis.DeliverCharts, Label: "Charts", Hint: "PNG charts of trends, breakdowns and distributions"},
	{Value: analysis.DeliverReports, Label: "Report", Hint: "a Markdown report of every step"},
	{Value: analysis.DeliverSummary, Label: "Summary", Hint: "one sentence per result table"},
}

// analysisFormState collects a failed submit's errors, each at its field.
type analysisFormState struct {
	errs []placedError
}

func (st *analysisFormState) add(field string, err *quarry.Error) {
	st.errs = append(st.errs, placedError{slot: field, err: err})
}

func (s *Server) newAnalysisForm(v analysisValues, st *analysisFormState) analysisForm {
	f := analysisForm{Values: v, Errs: map[string]*fieldError{}, IntentMax: analysis.MaxIntentLen, MaxFiles: maxUploads,
		MaxFileMB: s.opt.MaxUploadBytes >> 20, RowLimitMax: analysis.MaxRowLimit, TimeoutMax: analysis.MaxTimeoutSeconds,
		RowLimitMaxText: formatCount(analysis.MaxRowLimit)}
	for _, d := range deliverableLabels {
		d.Checked = slices.Contains(v.Deliverables, d.Value)
		f.Deliverables = append(f.Deliverables, d)
	}
	if st != nil {
		for _, e := range st.errs {
			if e.slot != "" && f.Errs[e.slot] == nil {
				f.Errs[e.slot] = newFieldError(e.slot+"-error", e.err)
			}
		}
	}
	f.AdvancedOpen = v.AllowedColumns != "" || v.BlockedPatterns != "" || f.Errs[afColumns] != nil || f.Errs[afPatterns] != nil
	return f
}

// summary lists a failed submit's errors for the top of the page.
func (st *analysisFormState) summary() []summaryItem {
	var out []summaryItem
	for _, e := range st.errs {
		it := summaryItem{Message: e.err.Message, Hint: e.err.Hint}
		if label, ok := analysisFieldLabels[e.slot]; ok {
			it.Field, it.Label, it.Hint = e.slot, label, ""
		}
		out = append(out, it)
	}
	return out
}

// defaultAnalysisValues are the form's fields before anything is typed.
func defaultAnalysisValues() analysisValues {
	return analysisValues{RowLimit: strconv.Itoa(analysis.DefaultRowLimit), Timeout: strconv.Itoa(analysis.DefaultTimeoutSeconds),
		Deliverables: slices.Clone(analysis.AllDeliverables)}
}

// analysesLimit is how many analyses the list shows.
const analysesLimit = 50

func (s *Server) analysesPage(w http.ResponseWriter, r *http.Request) error {
	return s.renderAnalyses(w, r, http.StatusOK, defaultAnalysisValues(), &analysisFormState{})
}

func (s *Server) renderAnalyses(w http.ResponseWriter, r *http.Request, status int, v analysisValues, st *analysisFormState) error {
	all, err := s.opt.Analyses.List(r.Context())
	if err != nil {
		return err
	}
	p := analysesPage{pageBase: pageBase{Title: "Analyses", Errors: st.summary()}, Form: s.newAnalysisForm(v, st)}
	if len(all) > analysesLimit {
		p.Hidden = len(all) - analysesLimit
		all = all[:analysesLimit]
	}
	for _, a := range all {
		p.Analyses = append(p.Analyses, analysisRow{Summary: a, URL: analysisURL(a.RequestID), Label: analysisStatusLabel(a.Status),
			Time: parseTime(a.Timestamp), Intent: clip(oneLine(a.Intent), 120)})
	}
	s.render(w, r, status, "analyses", p)
	return nil
}

// startAnalysisPage starts an analysis from the form and redirects to its
// page, or shows the form again with each error at its field and what was
// typed kept (files must be chosen again: browsers do not let a page fill
// them in).
func (s *Server) startAnalysisPage(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxUploads*s.opt.MaxUploadBytes+(1<<20))
	if err := r.ParseMultipartForm(32 << 20); err != nil {
		var tooBig *http.MaxBytesError
		if !errors.As(err, &tooBig) {
			return quarry.Errorf(codeBadRequest, "the form could not be read; send it from the New analysis form")
		}
		st := &analysisFormState{}
		st.add(afFiles, quarry.Errorf(quarry.ECodeFileTooLarge, "the files are larger than %d files of %d MB", maxUploads, s.opt.MaxUploadBytes>>20))
		return s.renderAnalyses(w, r, http.StatusRequestEntityTooLarge, defaultAnalysisValues(), st)
	}
	defer r.MultipartForm.RemoveAll()
	form := r.MultipartForm
	v := analysisValues{Intent: r.FormValue("intent"), Source: strings.TrimSpace(r.FormValue("source")),
		RowLimit: strings.TrimSpace(r.FormValue("row_limit")), Timeout: strings.TrimSpace(r.FormValue("timeout_seconds")),
		AllowedColumns: r.FormValue("allowed_columns"), BlockedPatterns: r.FormValue("blocked_patterns"), Deliverables: form.Value["deliverables"]}
	var files []*multipartFile
	for _, fh := range form.File["file"] {
		if fh.Filename != "" {
			files = append(files, &multipartFile{name: fh.Filename, size: fh.Size, open: fh.Open})
		}
	}
	st := &analysisFormState{}
	req, ok := v.request(st, files, s.opt.MaxUploadBytes)
	if !ok {
		return s.renderAnalyses(w, r, http.StatusUnprocessableEntity, v, st)
	}
	var uploads []analysis.Upload
	for _, f := range files {
		body, err := f.open()
		if err != nil {
			return err
		}
		defer body.Close()
		uploads = append(uploads, analysis.Upload{Name: f.name, Body: body})
	}
	res, err := s.opt.Analyses.Start(r.Context(), req, uploads)
	if err != nil {
		qe := s.asQuarryError(r, err)
		switch qe.Code {
		case quarry.ECodeInternal, quarry.ECodeUnavailable, quarry.ECodeStorageFull:
			return qe
		}
		st.add(analysisFieldOf(qe), qe)
		return s.renderAnalyses(w, r, pageStatus(qe), v, st)
	}
	seeOther(w, r, analysisURL(res.RequestID))
	return nil
}

// multipartFile is an uploaded file of the form.
type multipartFile struct {
	name string
	size int64
	open func() (multipart.File, error)
}

// request checks what the form can check by itself, every field at once,
// placing each problem at its field, and builds the request. The checks
// are those of analysis.Request.Validate, which stops at the first.
func (v analysisValues) request(st *analysisFormState, files []*multipartFile, maxBytes int64) (analysis.Request, bool) {
	ok := true
	fail := func(field string, e *quarry.Error) {
		st.add(field, e)
		ok = false
	}
	req := analysis.Request{Intent: v.Intent}
	if strings.TrimSpace(v.Intent) == "" {
		fail(afIntent, quarry.Errorf(quarry.ECodeInvalid, "say what to analyze").
			WithHint(`for example "monthly sales trend by region in 2021, with charts"`))
	} else if err := quarry.CheckText("the request", v.Intent, analysis.MaxIntentLen, quarry.ECodeInvalid); err != nil {
		fail(afIntent, err.(*quarry.Error))
	}
	switch {
	case len(files) == 0 && v.Source == "":
		fail(afFiles, quarry.Errorf(quarry.ECodeInvalid, "choose at least one file, or give a PostgreSQL connection string"))
	case len(files) > maxUploads:
		fail(afFiles, quarry.Errorf(quarry.ECodeMaxFilesExceeded, "%d files were chosen; at most %d per analysis", len(files), maxUploads))
	}
	for _, f := range files {
		if f.size > maxBytes {
			fail(afFiles, quarry.Errorf(quarry.ECodeFileTooLarge, "%s is larger than %d MB", filepath.Base(f.name), maxBytes>>20))
			break
		}
	}
	if v.Source != "" {
		if !strings.HasPrefix(v.Source, "postgres://") && !strings.HasPrefix(v.Source, "postgresql://") {
			fail(afSource, quarry.Errorf(quarry.ECodeInvalid, "a connection string here starts with postgres://").
				WithHint("upload SQLite, CSV, JSON and Parquet files with the file field"))
		} else {
			req.DataSources = append(req.DataSources, analysis.DataSource{Type: analysis.SourceSQL, ConnectionString: v.Source})
		}
	}
	if len(v.Deliverables) == 0 {
		fail(afDeliverables, quarry.Errorf(quarry.ECodeInvalid, "choose at least one deliverable"))
	}
	for _, d := range v.Deliverables {
		if !slices.Contains(analysis.AllDeliverables, d) {
			fail(afDeliverables, quarry.Errorf(quarry.ECodeInvalid, "unknown deliverable %q", d))
			break
		}
	}
	req.Deliverables = v.Deliverables
	number := func(field, value, what string, hi int) int {
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > hi {
			fail(field, quarry.Errorf(quarry.ECodeInvalid, "the %s must be a whole number from 1 to %s", what, formatCount(int64(hi))))
		}
		return n
	}
	req.Constraints.RowLimit = number(afRowLimit, v.RowLimit, "row limit", analysis.MaxRowLimit)
	req.Constraints.TimeoutSeconds = number(afTimeout, v.Timeout, "timeout in seconds", analysis.MaxTimeoutSeconds)
	req.Policy.AllowedColumns = splitList(v.AllowedColumns)
	if err := quarry.CheckText("the allowed columns", v.AllowedColumns, 4000, quarry.ECodeInvalid); err != nil {
		fail(afColumns, err.(*quarry.Error))
	}
	for i, p := range strings.Split(v.BlockedPatterns, "\n") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if _, err := regexp.Compile(p); err != nil {
			fail(afPatterns, quarry.Errorf(quarry.ECodeInvalid, "line %d, %q, is not a regular expression: %v", i+1, p, strings.TrimPrefix(err.Error(), "error parsing regexp: ")))
			break
		}
		req.Policy.BlockedPatterns = append(req.Policy.BlockedPatterns, p)
	}
	return req, ok
}

// analysisFieldOf places an error of analyses.Start at the field it is
// about; "" is the summary at the top.
func analysisFieldOf(qe *quarry.Error) string {
	switch qe.Code {
	case quarry.ECodeFileTooLarge, quarry.ECodeInvalidFileType, quarry.ECodeMaxFilesExceeded:
		return afFiles
	case quarry.ECodeForbidden:
		return afSource
	case quarry.ECodeInvalid:
		m := qe.Message
		for _, p := range []struct{ prefix, field string }{
			{"the request has no data source", afFiles}, {"two uploads", afFiles}, {"the request", afIntent},
			{"row_limit", afRowLimit}, {"timeout_seconds", afTimeout}, {"blocked pattern", afPatterns},
			{"unknown deliverable", afDeliverables}, {"an sql source", afSource},
		} {
			if strings.HasPrefix(m, p.prefix) {
				return p.field
			}
		}
	}
	return ""
}

// analysisStatusLabel is an analysis's status in words.
func analysisStatusLabel(st string) string {
	switch st {
	case analysis.StatusSubmitted:
		return "Submitted"
	case analysis.StatusPlanning:
		return "Planning"
	case analysis.StatusExecuting:
		return "Running"
	case analysis.StatusCompleted:
		return "Completed"
	case analysis.StatusPartialSuccess:
		return "Partly completed"
	case analysis.StatusFailed:
		return "Failed"
	}
	return st
}

// analysisRunning reports whether an analysis has not ended.
func analysisRunning(st string) bool {
	switch st {
	case analysis.StatusCompleted, analysis.StatusPartialSuccess, analysis.StatusFailed:
		return false
	}
	return true
}

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// analysisPage is the page of one analysis.
type analysisPage struct {
	pageBase
	ID          string
	URL         string
	Heading     string
	Status      string
	StatusLabel string
	Running     bool
	EventsURL   string
	Request     requestView
	Failure     *quarry.ErrorInfo
	Undelivered []string
	RecipeID    string
	RecipeNote  string
	Plan        *planView
	Steps       []stepView
	Summary     template.HTML
	Charts      []chartView
	Tables      []tableView
	Report      template.HTML
	ReportErr   *quarry.Error
	Downloads   []downloadView
	Audit       []auditRow
	AuditErr    *quarry.Error
	Verify      *verifyView
}

// requestView is the request as the user gave it.
type requestView struct {
	Intent       string
	Submitted    time.Time
	Sources      []string
	Deliverables string
	RowLimit     string
	Timeout      int
	Allowed      string
	Blocked      []string
}

func (s *Server) analysisPage(w http.ResponseWriter, r *http.Request) error {
	return s.renderAnalysis(w, r, nil)
}

// renderAnalysis draws an analysis's page, with the log's verification
// when it was asked for. An htmx request for one table's page gets that
// table only.
func (s *Server) renderAnalysis(w http.ResponseWriter, r *http.Request, check *verifyView) error {
	ctx := r.Context()
	id := r.PathValue("id")
	res, err := s.opt.Analyses.Get(ctx, id)
	if err != nil {
		return analysisNotFound(err)
	}
	page := pageNumber(r.URL.Query().Get("page"))
	only := r.URL.Query().Get("table")
	if isHTMX(r) && only != "" {
		for _, a := range res.Artifacts {
			if a.ArtifactID == only && a.ArtifactType == analysis.ArtifactTable {
				s.execute(w, r, http.StatusOK, s.views["analysis"], "analysis_table", s.tableView(r, id, a, page))
				return nil
			}
		}
		return quarry.Errorf(quarry.ECodeNotFound, "analysis %s has no table %s", id, only)
	}
	p := analysisPage{ID: id, URL: analysisURL(id), Status: res.Status, StatusLabel: analysisStatusLabel(res.Status),
		Running: analysisRunning(res.Status), EventsURL: "/api/analyses/" + url.PathEscape(id) + "/events",
		Failure: res.Error, Undelivered: res.Undelivered, RecipeID: res.RecipeID, RecipeNote: res.RecipeNote, Verify: check}
	if res.Request != nil {
		p.Request = newRequestView(res.Request)
	}
	p.Heading = "Analysis"
	if p.Request.Intent != "" {
		p.Heading = clip(oneLine(p.Request.Intent), 100)
	}
	p.Title = p.Heading
	if p.Running {
		p.Refresh = true
		p.Scripts = []string{"analysis.js"}
	}
	if res.Plan != nil {
		p.Plan = newPlanView(res.Plan)
		p.Steps = newStepViews(res)
	}
	if res.Summary != "" {
		if out, err := renderMarkdown(chatMarkdown, res.Summary, markdownOptions{TopLevel: 3}); err == nil {
			p.Summary = out.HTML
		}
	}
	for _, a := range res.Artifacts {
		switch a.ArtifactType {
		case analysis.ArtifactChart:
			p.Charts = append(p.Charts, newChartView(id, a, res.Plan))
		case analysis.ArtifactTable:
			tp := 1
			if a.ArtifactID == only {
				tp = page
			}
			p.Tables = append(p.Tables, s.tableView(r, id, a, tp))
		case analysis.ArtifactReport:
			p.Report, err = s.analysisReport(r, id, a, res.Artifacts)
			if err != nil {
				p.ReportErr = s.asQuarryError(r, err)
			}
		}
		p.Downloads = append(p.Downloads, newDownloadView(id, a))
	}
	entries, err := s.opt.Analyses.Audit(ctx, id)
	if err != nil {
		p.AuditErr = s.asQuarryError(r, err)
	}
	for _, e := range entries {
		p.Audit = append(p.Audit, newAuditRow(e))
	}
	s.render(w, r, http.StatusOK, "analysis", p)
	return nil
}

// analysisNotFound words a missing analysis for the error page.
func analysisNotFound(err error) error {
	if quarry.ErrorCode(err) == quarry.ECodeNotFound {
		var qe *quarry.Error
		if errors.As(err, &qe) {
			return qe.WithHint("the list of analyses is at /analyses")
		}
	}
	return err
}

func newRequestView(req *analysis.Request) requestView {
	v := requestView{Intent: req.Intent, Submitted: parseTime(req.Timestamp), Deliverables: strings.Join(req.Deliverables, ", "),
		RowLimit: formatCount(int64(req.Constraints.RowLimit)), Timeout: req.Constraints.TimeoutSeconds,
		Allowed: strings.Join(req.Policy.AllowedColumns, ", "), Blocked: req.Policy.BlockedPatterns}
	for _, ds := range req.DataSources {
		var what string
		switch {
		case ds.FilePath != "":
			what = filepath.Base(ds.FilePath) + " (" + ds.Type + ")"
		case ds.ConnectionString != "":
			what = redactDSN(ds.ConnectionString)
		}
		if ds.Name != "" {
			what = ds.Name + ": " + what
		}
		v.Sources = append(v.Sources, what)
	}
	return v
}

// redactDSN hides the password of a connection string.
func redactDSN(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		return u.Redacted()
	}
	if strings.Contains(dsn, "password") {
		return "database (connection string hidden)"
	}
	return dsn
}

// stepView is one step of the plan, its arguments and what each attempt
// observed.
type stepView struct {
	TaskID       string
	Description  string
	Tool         string
	Status       string
	StatusLabel  string
	Dependencies []string
	Deliverable  string
	Query        string
	Args         []argView
	Observations []observationView
}

type argView struct{ Name, Value string }

type observationView struct {
	Attempt  int
	Status   string
	Category string
	Message  string
	Seconds  string
	Rows     string
	Time     time.Time
}

func newStepViews(res *analysis.Result) []stepView {
	attempts := map[string]int{}
	for _, c := range res.Calls {
		attempts[c.CallID] = c.AttemptNumber
	}
	var out []stepView
	for _, t := range res.Plan.Subtasks {
		v := stepView{TaskID: t.TaskID, Description: t.Description, Tool: t.ToolName, Status: taskStatus(t.Status),
			Dependencies: t.Dependencies, Deliverable: t.Deliverable}
		v.StatusLabel = taskStatusLabel(v.Status)
		names := make([]string, 0, len(t.Arguments))
		for k := range t.Arguments {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			if q, ok := t.Arguments[k].(string); ok && k == "query" && t.ToolName == analysis.ToolSQL {
				v.Query = q
				continue
			}
			v.Args = append(v.Args, argView{Name: k, Value: argText(t.Arguments[k])})
		}
		for _, o := range res.Observations {
			if o.TaskID != t.TaskID {
				continue
			}
			ov := observationView{Attempt: attempts[o.CallID], Status: o.Status, Seconds: fmt.Sprintf("%.3f s", o.ExecutionTimeSeconds),
				Time: parseTime(o.Timestamp)}
			if ov.Attempt == 0 {
				ov.Attempt = len(v.Observations) + 1
			}
			if o.ErrorCategory != nil {
				ov.Category = *o.ErrorCategory
			}
			if o.ErrorMessage != nil {
				ov.Message = *o.ErrorMessage
			}
			if o.RowCount != nil {
				ov.Rows = formatCount(int64(*o.RowCount))
			}
			v.Observations = append(v.Observations, ov)
		}
		out = append(out, v)
	}
	return out
}

// argText writes an argument for people: text as it is, the rest as JSON.
func argText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// taskStatus is a step's status, pending when the plan has not set one.
func taskStatus(st string) string {
	if st == "" {
		return analysis.TaskPending
	}
	return st
}

// taskStatusLabel is a step's status in words with a mark, so that it
// does not rest on colour; analysis.js writes the same.
func taskStatusLabel(st string) string {
	switch st {
	case analysis.TaskPending:
		return "○ Pending"
	case analysis.TaskRunning:
		return "◔ Running"
	case analysis.TaskSucceeded:
		return "✓ Succeeded"
	case analysis.TaskFailed:
		return "✗ Failed"
	case analysis.TaskSkipped:
		return "– Skipped"
	}
	return st
}

// chartView is one chart of the gallery.
type chartView struct {
	Src, Download, Title, Caption, TaskID string
}

func newChartView(id string, a analysis.Artifact, plan *analysis.Plan) chartView {
	title, _ := a.Metadata["title"].(string)
	if title == "" && plan != nil {
		if t := plan.Task(a.TaskID); t != nil {
			title = t.Description
		}
	}
	if title == "" {
		title = "Chart of step " + a.TaskID
	}
	kind, _ := a.Metadata["chart_type"].(string)
	x, _ := a.Metadata["x_label"].(string)
	y, _ := a.Metadata["y_label"].(string)
	caption := strings.TrimSpace(kind + " chart")
	if x != "" && y != "" {
		caption += " of " + y + " by " + x
	} else if x != "" {
		caption += " of " + x
	}
	return chartView{Src: artifactURL(id, a.ArtifactID), Download: artifactURL(id, a.ArtifactID) + "?download=1",
		Title: title, Caption: caption + ", from step " + a.TaskID, TaskID: a.TaskID}
}

func artifactURL(id, aid string) string {
	return analysisURL(id) + "/artifacts/" + url.PathEscape(aid)
}

// tableRows is how many rows a table shows per page.
const tableRows = 25

// tableView is one page of a result table.
type tableView struct {
	ID, Title, TaskID, Download string
	Columns                     []string
	Numeric                     []bool
	Rows                        [][]string
	Page, Pages, Total          int
	TotalText                   string
	First, Last                 int // rows shown, 1-based
	Links                       []pageLink
	Err                         *quarry.Error
}

// pageLink is a link of a table's pagination.
type pageLink struct {
	Label, Href, HX string
	Current, Rel    bool
	Page            int
}

func pageNumber(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// tableView reads one page of a table artifact's CSV: the header, the
// rows of the page and how many there are in all.
func (s *Server) tableView(r *http.Request, id string, a analysis.Artifact, page int) tableView {
	title, _ := a.Metadata["title"].(string)
	if title == "" {
		title = "Result of step " + a.TaskID
	}
	v := tableView{ID: a.ArtifactID, Title: title, TaskID: a.TaskID, Download: artifactURL(id, a.ArtifactID) + "?download=1", Page: page}
	err := func() error {
		_, p, err := s.opt.Analyses.Artifact(r.Context(), id, a.ArtifactID)
		if err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return quarry.Errorf(quarry.ECodeNotFound, "the table's file is missing")
		}
		defer f.Close()
		cr := csv.NewReader(f)
		cr.FieldsPerRecord = -1
		v.Columns, err = cr.Read()
		if err != nil {
			return quarry.Errorf(quarry.ECodeInvalid, "the table's file cannot be read")
		}
		from := (page - 1) * tableRows
		for {
			rec, err := cr.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				return quarry.Errorf(quarry.ECodeInvalid, "the table's file cannot be read after row %d", v.Total)
			}
			if v.Total >= from && v.Total < from+tableRows {
				v.Rows = append(v.Rows, rec)
			}
			v.Total++
		}
		return nil
	}()
	if err != nil {
		v.Err = s.asQuarryError(r, err)
		return v
	}
	v.TotalText = formatCount(int64(v.Total))
	v.Pages = max(1, (v.Total+tableRows-1)/tableRows)
	if v.Page > v.Pages {
		// A page past the end shows the last one.
		v.Page = v.Pages
		return s.tableView(r, id, a, v.Pages)
	}
	v.Numeric = make([]bool, len(v.Columns))
	for j := range v.Columns {
		v.Numeric[j] = len(v.Rows) > 0
		for _, row := range v.Rows {
			if j < len(row) && row[j] != "" {
				if _, err := strconv.ParseFloat(strings.ReplaceAll(row[j], ",", ""), 64); err != nil {
					v.Numeric[j] = false
					break
				}
			}
		}
	}
	if len(v.Rows) > 0 {
		v.First, v.Last = (v.Page-1)*tableRows+1, (v.Page-1)*tableRows+len(v.Rows)
	}
	if v.Pages > 1 {
		link := func(label string, n int) pageLink {
			q := "?table=" + url.QueryEscape(a.ArtifactID) + "&page=" + strconv.Itoa(n)
			return pageLink{Label: label, Href: analysisURL(id) + q + "#table-" + a.ArtifactID, HX: analysisURL(id) + q, Page: n, Current: n == v.Page}
		}
		if v.Page > 1 {
			l := link("Previous", v.Page-1)
			l.Rel = true
			v.Links = append(v.Links, l)
		}
		for n := 1; n <= v.Pages; n++ {
			if n == 1 || n == v.Pages || n >= v.Page-2 && n <= v.Page+2 {
				v.Links = append(v.Links, link(strconv.Itoa(n), n))
			} else if n == v.Page-3 || n == v.Page+3 {
				v.Links = append(v.Links, pageLink{Label: "…"})
			}
		}
		if v.Page < v.Pages {
			l := link("Next", v.Page+1)
			l.Rel = true
			v.Links = append(v.Links, l)
		}
	}
	return v
}

// analysisReport renders the report's Markdown, its charts pointed at the
// artifacts route.
func (s *Server) analysisReport(r *http.Request, id string, a analysis.Artifact, all []analysis.Artifact) (template.HTML, error) {
	_, p, err := s.opt.Analyses.Artifact(r.Context(), id, a.ArtifactID)
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return "", quarry.Errorf(quarry.ECodeNotFound, "the report's file is missing")
	}
	md := string(data)
	// The report links its charts relative to itself:
	// ../../charts/REQUEST/NAME.png.
	for _, c := range all {
		if c.ArtifactType == analysis.ArtifactChart {
			rel := "](../../charts/" + id + "/" + path.Base(filepath.ToSlash(c.ContentRef)) + ")"
			md = strings.ReplaceAll(md, rel, "]("+artifactURL(id, c.ArtifactID)+")")
		}
	}
	out, err := renderMarkdown(chatMarkdown, md, markdownOptions{TopLevel: 3, Title: true})
	if err != nil {
		return "", err
	}
	return out.HTML, nil
}

// downloadView is one artifact in the list of downloads.
type downloadView struct {
	Type, Name, Size, Hash, Href string
}

func newDownloadView(id string, a analysis.Artifact) downloadView {
	return downloadView{Type: a.ArtifactType, Name: path.Base(filepath.ToSlash(a.ContentRef)), Size: formatBytes(a.SizeBytes),
		Hash: shortHash(a.ContentHash), Href: artifactURL(id, a.ArtifactID) + "?download=1"}
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// auditRow is one entry of the request's audit trail.
type auditRow struct {
	Seq                  int
	Time                 time.Time
	Event, Actor, Detail string
	Hash, FullHash       string
}

func newAuditRow(e quarry.AuditEntry) auditRow {
	d := e.EventData
	str := func(k string) string { s, _ := d[k].(string); return s }
	var detail string
	switch e.EventType {
	case quarry.EventToolCalled:
		detail = fmt.Sprintf("%s: %s", str("task_id"), str("tool_name"))
		if n, ok := d["attempt_number"].(float64); ok && n > 1 {
			detail += fmt.Sprintf(", attempt %d", int(n))
		}
	case quarry.EventObservationRecorded:
		detail = str("task_id") + ": " + str("status")
		if c := str("error_category"); c != "" {
			detail += " (" + c + ")"
		}
	case quarry.EventArtifactGenerated:
		detail = str("artifact_type") + " " + path.Base(str("path"))
	case quarry.EventPolicyDecision:
		detail = strings.Trim(str("task_id")+": "+str("decision")+" "+str("rule"), ": ")
	case quarry.EventPlanCreated:
		if pl, ok := d["plan"].(map[string]any); ok {
			if st, ok := pl["subtasks"].([]any); ok {
				detail = fmt.Sprintf("%d steps", len(st))
			}
		}
		if how := str("planner"); how != "" {
			detail = strings.TrimPrefix(detail+", by the "+how+" planner", ", ")
		}
	}
	return auditRow{Seq: e.SequenceNumber, Time: parseTime(e.Timestamp), Event: e.EventType, Actor: e.Actor, Detail: clip(detail, 80),
		Hash: shortHash(e.Hash), FullHash: e.Hash}
}

// verifyView is what verifying the analyses' log found.
type verifyView struct {
	Check *analysis.AuditCheck
	Err   *quarry.Error
}

// verifyAnalysisPage checks the log the analysis is chained into, with
// every artifact's hash. htmx gets the result alone; without JavaScript
// the page is drawn again with the result in the audit section.
func (s *Server) verifyAnalysisPage(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.opt.Analyses.Get(r.Context(), r.PathValue("id")); err != nil {
		return analysisNotFound(err)
	}
	v := &verifyView{}
	check, err := s.opt.Analyses.VerifyAudit(r.Context())
	if err != nil {
		v.Err = s.asQuarryError(r, err)
	} else {
		v.Check = check
	}
	if isHTMX(r) {
		s.execute(w, r, http.StatusOK, s.views["analysis"], "analysis_verify", v)
		return nil
	}
	return s.renderAnalysis(w, r, v)
}

// analysisArtifactPage serves an artifact's file: charts for the page's
// images, and every artifact as a download.
func (s *Server) analysisArtifactPage(w http.ResponseWriter, r *http.Request) error {
	a, p, err := s.opt.Analyses.Artifact(r.Context(), r.PathValue("id"), r.PathValue("aid"))
	if err != nil {
		return analysisNotFound(err)
	}
	f, err := os.Open(p)
	if err != nil {
		return quarry.Errorf(quarry.ECodeNotFound, "the file of artifact %s is missing", a.ArtifactID)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	ct, ok := artifactTypes[strings.ToLower(filepath.Ext(p))]
	if !ok {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Content-SHA256", a.ContentHash)
	if r.URL.Query().Get("download") != "" {
		w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": filepath.Base(p)}))
	}
	http.ServeContent(w, r, filepath.Base(p), st.ModTime().Truncate(time.Second), f)
	return nil
}

// Geometry of the plan's diagram, in SVG user units.
const (
	dagNodeW   = 200
	dagNodeH   = 66
	dagColGap  = 64
	dagRowGap  = 16
	dagMargin  = 12
	dagIDChars = 22
)

// planView is the plan: its diagram and the planner's reasoning.
type planView struct {
	SVG       template.HTML
	Reasoning string
	Steps     int
	Levels    int
	Estimated string
}

// dagNode is one step's box in the diagram.
type dagNode struct {
	t    *analysis.Subtask
	x, y int
}

// newPlanView draws the plan as a DAG: a column per level (a step's level
// is one more than its deepest dependency's), a box per step with its id,
// tool and status in words, and an arrow from each dependency. Within a
// column a step sits level with its dependencies when there is room, so
// that a chain reads as a straight line.
func newPlanView(p *analysis.Plan) *planView {
	levels := p.Levels()
	nodes := map[string]*dagNode{}
	height := 0
	for l, ids := range levels {
		type placed struct {
			n    *dagNode
			want int
		}
		var col []placed
		for _, id := range ids {
			n := &dagNode{t: p.Task(id), x: dagMargin + l*(dagNodeW+dagColGap)}
			want, k := 0, 0
			for _, d := range n.t.Dependencies {
				if dn := nodes[d]; dn != nil {
					want += dn.y
					k++
				}
			}
			if k > 0 {
				want /= k
			}
			col = append(col, placed{n, want})
			nodes[id] = n
		}
		slices.SortStableFunc(col, func(a, b placed) int { return a.want - b.want })
		next := dagMargin
		for _, c := range col {
			c.n.y = max(next, c.want)
			next = c.n.y + dagNodeH + dagRowGap
		}
		height = max(height, next-dagRowGap+dagMargin)
	}
	width := 2*dagMargin + len(levels)*dagNodeW + max(len(levels)-1, 0)*dagColGap

	var b strings.Builder
	esc := template.HTMLEscapeString
	fmt.Fprintf(&b, `<svg class="dag-svg" xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="dag-title dag-desc" width="%d" height="%d" viewBox="0 0 %d %d">`, width, height, width, height)
	fmt.Fprintf(&b, `<title id="dag-title">Plan: %d %s in %d %s</title>`, len(p.Subtasks), plural(len(p.Subtasks), "step", "steps"), len(levels), plural(len(levels), "level", "levels"))
	fmt.Fprintf(&b, `<desc id="dag-desc">%s</desc>`, esc(planSentence(p)))
	b.WriteString(`<defs><marker id="dag-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="dag-arrowhead"/></marker></defs>`)
	for _, t := range p.Subtasks {
		to := nodes[t.TaskID]
		for _, d := range t.Dependencies {
			from := nodes[d]
			if from == nil {
				continue
			}
			x1, y1 := from.x+dagNodeW, from.y+dagNodeH/2
			x2, y2 := to.x-2, to.y+dagNodeH/2
			fmt.Fprintf(&b, `<path class="dag-edge" data-from="%s" data-to="%s" d="M%d %d C%d %d %d %d %d %d" marker-end="url(#dag-arrow)"/>`,
				esc(d), esc(t.TaskID), x1, y1, x1+dagColGap/2, y1, x2-dagColGap/2, y2, x2, y2)
		}
	}
	for _, t := range p.Subtasks {
		n := nodes[t.TaskID]
		st := taskStatus(t.Status)
		fmt.Fprintf(&b, `<g class="dag-node status-%s" id="dag-node-%s" data-task="%s">`, esc(st), esc(t.TaskID), esc(t.TaskID))
		fmt.Fprintf(&b, `<title>%s</title>`, esc(t.TaskID+": "+t.Description))
		fmt.Fprintf(&b, `<rect class="dag-box" x="%d" y="%d" width="%d" height="%d" rx="8"/>`, n.x, n.y, dagNodeW, dagNodeH)
		fmt.Fprintf(&b, `<rect class="dag-bar" x="%d" y="%d" width="6" height="%d" rx="3"/>`, n.x+1, n.y+1, dagNodeH-2)
		fmt.Fprintf(&b, `<text class="dag-id" x="%d" y="%d">%s</text>`, n.x+16, n.y+22, esc(clip(t.TaskID, dagIDChars)))
		fmt.Fprintf(&b, `<text class="dag-tool" x="%d" y="%d">%s</text>`, n.x+16, n.y+40, esc(t.ToolName))
		fmt.Fprintf(&b, `<text class="dag-status" x="%d" y="%d">%s</text>`, n.x+16, n.y+58, esc(taskStatusLabel(st)))
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return &planView{SVG: template.HTML(b.String()), // every text written above is escaped
		Reasoning: p.Reasoning, Steps: len(p.Subtasks), Levels: len(levels), Estimated: strconv.FormatFloat(p.TotalEstimatedSeconds, 'f', 1, 64)}
}

// planSentence describes the plan's shape for the diagram's <desc>; the
// list of steps beside it gives each step's status.
func planSentence(p *analysis.Plan) string {
	var parts []string
	for _, t := range p.Subtasks {
		s := t.TaskID + " (" + t.ToolName + ")"
		if len(t.Dependencies) > 0 {
			s += " after " + joinWords(t.Dependencies)
		}
		parts = append(parts, s)
	}
	return "Steps, left to right: " + strings.Join(parts, "; ") + ". The list of steps below gives each step's status."
}
