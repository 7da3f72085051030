package web

import (
	"errors"
	"mime/multipart"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

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
	Class  string // the badge's: the status, or clarify
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
	all, err := s.analyses(r)
	if err != nil {
		return err
	}
	p := analysesPage{pageBase: pageBase{Title: "Analyses", Errors: st.summary()}, Form: s.newAnalysisForm(v, st)}
	if len(all) > analysesLimit {
		p.Hidden = len(all) - analysesLimit
		all = all[:analysesLimit]
	}
	for _, a := range all {
		row := analysisRow{Summary: a, URL: analysisURL(a.RequestID), Label: analysisStatusLabel(a.Status), Class: a.Status,
			Time: parseTime(a.Timestamp), Intent: clip(oneLine(a.Intent), 120)}
		if a.ErrorCode == quarry.ECodeNeedsClarification {
			row.Label, row.Class = "Needs clarification", "clarify"
		}
		p.Analyses = append(p.Analyses, row)
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
	// Browsers send a textarea's line breaks as CRLF but count them as one
	// character against its maxlength.
	v := analysisValues{Intent: strings.ReplaceAll(r.FormValue("intent"), "\r\n", "\n"), Source: strings.TrimSpace(r.FormValue("source")),
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
	owner, err := s.creator(r)
	if err != nil {
		return err
	}
	res, err := s.opt.Analyses.Start(r.Context(), owner, req, uploads)
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
