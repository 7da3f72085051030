package web

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// analysisPage is the page of one analysis.
type analysisPage struct {
	pageBase
	ID          string
	URL         string
	Heading     string
	Status      string
	StatusLabel string
	// StatusClass is the badge's class: the status, or clarify for an
	// analysis that needs the request clarified.
	StatusClass string
	Running     bool
	EventsURL   string
	Request     requestView
	// Answer opens the page: the summary, or what could not be answered.
	Answer     analysisAnswer
	RecipeID   string
	RecipeNote string
	Plan       *planView
	Steps      []stepView
	Charts     []chartView
	Tables     []tableView
	Report     template.HTML
	ReportErr  *quarry.Error
	Downloads  []downloadView
	Audit      []auditRow
	AuditErr   *quarry.Error
	Verify     *verifyView
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
	p := analysisPage{ID: id, URL: analysisURL(id), Status: res.Status, StatusLabel: analysisStatusLabel(res.Status), StatusClass: res.Status,
		Running: analysisRunning(res.Status), EventsURL: "/api/analyses/" + url.PathEscape(id) + "/events",
		Answer: newAnalysisAnswer(res), RecipeID: res.RecipeID, RecipeNote: res.RecipeNote, Verify: check}
	if needsClarification(res) {
		p.StatusLabel, p.StatusClass = "Needs clarification", "clarify"
	}
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
			p.Answer.Summary = out.HTML
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

// analysisAnswer is the answer at the top of an analysis's page: the summary
// of a completed analysis, or, for one that did not answer, what could not
// be answered and why, said first and plainly, with what was understood
// and what was not.
type analysisAnswer struct {
	// Kind is running, answered, partial or unanswered.
	Kind string
	// Lead is the first sentence when the analysis did not answer in
	// full: "I could not answer this: ...".
	Lead string
	Hint string
	Code string
	// NotRun are the steps and deliverables that did not come out.
	NotRun        []string
	Clarification *analysisClarification
	Summary       template.HTML
}

// analysisClarification is how a request was read, for one that could not be
// answered as asked.
type analysisClarification struct {
	Understood    []string
	NotUnderstood []analysis.UnknownWord
}

// needsClarification reports whether an analysis ended because its
// request could not be answered as asked.
func needsClarification(res *analysis.Result) bool {
	return res.Status == analysis.StatusFailed && res.Error != nil && res.Error.Code == quarry.ECodeNeedsClarification
}

func newAnalysisAnswer(res *analysis.Result) analysisAnswer {
	v := analysisAnswer{NotRun: res.Undelivered}
	if c := res.Clarification; c != nil && (len(c.Understood) > 0 || len(c.NotUnderstood) > 0) {
		v.Clarification = &analysisClarification{Understood: c.Understood, NotUnderstood: c.NotUnderstood}
	}
	if res.Error != nil {
		v.Hint, v.Code = res.Error.Hint, res.Error.Code
	}
	switch res.Status {
	case analysis.StatusCompleted:
		v.Kind = "answered"
	case analysis.StatusPartialSuccess:
		v.Kind = "partial"
		v.Lead = "I could answer only part of this: what did not run is listed here, and the figures below leave it out."
	case analysis.StatusFailed:
		v.Kind = "unanswered"
		switch {
		case needsClarification(res):
			v.Lead = "I could not answer this as asked: " + sentence(res.Error.Message)
		case res.Error != nil:
			v.Lead = "I could not answer this: " + sentence(res.Error.Message)
		default:
			v.Lead = "I could not answer this: no step of the plan succeeded."
		}
	default:
		v.Kind = "running"
	}
	return v
}

// sentence ends s with a full stop unless it ends a sentence already.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
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
