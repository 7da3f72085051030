package web

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// Error slots: where on the page an error is shown.
const (
	slotUpload          = "upload"
	slotMetric          = "metric"
	slotDates           = "dates"
	slotBusinessContext = "business_context"
	slotPrompt          = "prompt"
	slotChat            = "chat"
	slotSummary         = ""
)

// fileSlot is the slot of a file card's description.
func fileSlot(fileID string) string { return "file:" + fileID }

// slotOf places an error by its code: the metric's codes at the metric
// field, the periods' at the dates, the files' at the upload; the rest go
// to the summary at the top of the page.
func slotOf(code string) string {
	switch code {
	case quarry.ECodeMetricSQLRequired, quarry.ECodeInvalidMetricSQL, quarry.ECodeUnsupportedMetric, quarry.ECodeInvalidTimeColumn:
		return slotMetric
	case quarry.ECodeInvalidDateRange, quarry.ECodeNoDataInPeriod:
		return slotDates
	case quarry.ECodeNoFilesUploaded, quarry.ECodeFileTooLarge, quarry.ECodeInvalidFileType, quarry.ECodeNoHeaders,
		quarry.ECodeEmptyFile, quarry.ECodeMalformedCSV, quarry.ECodeMaxFilesExceeded:
		return slotUpload
	}
	return slotSummary
}

// slotFields are the field each slot's error is about, for the summary's
// links and aria-invalid.
var slotFields = map[string]struct{ id, label string }{
	slotUpload:          {"file-input", "CSV file"},
	slotMetric:          {"metric_sql", "Metric definition"},
	slotDates:           {"baseline_start", "Periods"},
	slotBusinessContext: {"business_context", "Business context"},
	slotPrompt:          {"investigation_prompt", "Investigation prompt"},
	slotChat:            {"chat-message", "Message"},
}

// placedError is an error and where it is shown.
type placedError struct {
	slot string
	err  *quarry.Error
}

// pageState is what a page re-rendered after a failed post keeps: what the
// user typed and the errors, each at its field.
type pageState struct {
	errs []placedError
	// invalid are the ids of fields marked aria-invalid beyond each slot's
	// own field (the date inputs).
	invalid map[string]bool

	investigate       *investigateValues
	uploadDescription string
	fileID            string // the card a description post concerns
	fileDescription   string
	chat              string
}

// add places err, by its code unless slot is given.
func (st *pageState) add(slot string, err *quarry.Error) {
	st.errs = append(st.errs, placedError{slot: slot, err: err})
}

// at is the error shown at slot, nil if none.
func (st *pageState) at(slot string) *quarry.Error {
	for _, e := range st.errs {
		if e.slot == slot && slot != slotSummary {
			return e.err
		}
	}
	return nil
}

// summary lists every error for the top of the page.
func (st *pageState) summary() []summaryItem {
	var out []summaryItem
	for _, e := range st.errs {
		it := summaryItem{Message: e.err.Message, Hint: e.err.Hint}
		if f, ok := slotFields[e.slot]; ok {
			it.Field, it.Label, it.Hint = f.id, f.label, ""
		}
		if e.slot == slotDates {
			for _, f := range dateFields {
				if st.invalid[f.id] {
					it.Field = f.id
					break
				}
			}
		}
		if fid, ok := strings.CutPrefix(e.slot, "file:"); ok {
			it.Field, it.Label, it.Hint = "description-"+fid, "File description", ""
		}
		out = append(out, it)
	}
	return out
}

// fieldError is an error shown next to a field.
type fieldError struct {
	ID      string // the error element's id, named by the field's aria-describedby
	Message string
	Hint    string
}

func newFieldError(id string, e *quarry.Error) *fieldError {
	if e == nil {
		return nil
	}
	return &fieldError{ID: id, Message: e.Message, Hint: e.Hint}
}

// investigateValues are the investigation form's fields as typed.
type investigateValues struct {
	MetricSQL, BusinessContext, Prompt, TimeColumn, TimeFormat string
	// IgnoreColumns is the comma-separated list of columns to leave out.
	IgnoreColumns                                              string
	BaselineStart, BaselineEnd, ComparisonStart, ComparisonEnd string
}

// periodView is one fieldset of the form's two periods.
type periodView struct {
	Legend string
	Fields []dateField
}

// dateField is one date input of a period.
type dateField struct {
	ID, Label, Value string
	Invalid, HasErr  bool
}

// Periods lays out the baseline and comparison date inputs.
func (p formPage) Periods() []periodView {
	v := p.Values
	if v == nil {
		v = &investigateValues{}
	}
	field := func(id, label, value string) dateField {
		return dateField{ID: id, Label: label, Value: value, Invalid: p.Invalid[id], HasErr: p.DatesErr != nil}
	}
	return []periodView{
		{"Baseline period", []dateField{field("baseline_start", "Baseline start", v.BaselineStart), field("baseline_end", "Baseline end", v.BaselineEnd)}},
		{"Comparison period", []dateField{field("comparison_start", "Comparison start", v.ComparisonStart), field("comparison_end", "Comparison end", v.ComparisonEnd)}},
	}
}

func valuesOf(c *investigation.Context) *investigateValues {
	return &investigateValues{MetricSQL: c.MetricSQL, BusinessContext: c.BusinessContext, Prompt: c.InvestigationPrompt,
		TimeColumn: c.TimeColumn, TimeFormat: c.TimeFormat, IgnoreColumns: strings.Join(c.IgnoreColumns, ", "), BaselineStart: c.BaselinePeriod.Start.String(), BaselineEnd: c.BaselinePeriod.End.String(),
		ComparisonStart: c.ComparisonPeriod.Start.String(), ComparisonEnd: c.ComparisonPeriod.End.String()}
}

// formPage is the page of a session before its investigation: files,
// business context and prompt.
type formPage struct {
	pageBase
	Session   *investigation.Investigation
	Files     []fileCard
	Tables    tablesHint
	Upload    uploadForm
	Values    *investigateValues
	MetricErr *fieldError
	DatesErr  *fieldError
	ContextErr,
	PromptErr *fieldError
	Invalid      map[string]bool
	AdvancedOpen bool
	// TimeColumns are the columns that can place rows in time, as
	// TABLE.COLUMN, for the time-column choice.
	TimeColumns []string
	StartAction string
	MaxFiles    int
	MaxFileMB   int64
	MetricMax   int
	ContextMax  int
	PromptMax   int
}

// fileCard is one uploaded file on the form.
type fileCard struct {
	File        *investigation.UploadedFile
	Action      string // the file's URL prefix: /sessions/{id}/files/{fid}
	Description string
	Err         *fieldError
	Saved       bool
}

// tablesHint lists the table names a metric can use; it is updated out of
// band when files come and go.
type tablesHint struct {
	Names []string
	OOB   bool
}

// uploadForm is the form that adds a file.
type uploadForm struct {
	Action      string
	Description string
	Err         *fieldError
	Full        bool // the session holds the most files allowed
	OOB         bool
}

func newFileCard(sessionID string, f *investigation.UploadedFile) fileCard {
	return fileCard{File: f, Action: sessionURL(sessionID) + "/files/" + f.FileID, Description: f.Description}
}

func tableNames(files []*investigation.UploadedFile) tablesHint {
	var t tablesHint
	for _, f := range files {
		if f.TableName != "" {
			t.Names = append(t.Names, f.TableName)
		}
	}
	return t
}

func (s *Server) renderForm(w http.ResponseWriter, r *http.Request, sess *investigation.Investigation, status int, st *pageState) error {
	ctx := r.Context()
	id := sess.SessionID
	files, err := s.svc.Files(ctx, id)
	if err != nil {
		return err
	}
	p := formPage{
		pageBase:    pageBase{Title: "New investigation", Errors: st.summary()},
		Session:     sess,
		Tables:      tableNames(files),
		Upload:      uploadForm{Action: sessionURL(id) + "/files", Description: st.uploadDescription, Full: len(files) >= quarry.MaxFilesPerSession},
		Values:      st.investigate,
		MetricErr:   newFieldError("metric-error", st.at(slotMetric)),
		DatesErr:    newFieldError("dates-error", st.at(slotDates)),
		ContextErr:  newFieldError("business_context-error", st.at(slotBusinessContext)),
		PromptErr:   newFieldError("investigation_prompt-error", st.at(slotPrompt)),
		Invalid:     st.invalid,
		StartAction: sessionURL(id) + "/investigate",
		MaxFiles:    quarry.MaxFilesPerSession, MaxFileMB: s.opt.MaxUploadBytes >> 20,
		MetricMax: quarry.MaxMetricSQLLen, ContextMax: quarry.MaxBusinessContextLen,
		PromptMax: quarry.MaxInvestigationPrompt,
	}
	p.Upload.Err = newFieldError("upload-error", st.at(slotUpload))
	if p.Values == nil {
		p.Values = &investigateValues{}
		if c, err := s.svc.Context(ctx, id); err == nil && c != nil {
			p.Values = valuesOf(c)
		}
	}
	if p.Invalid == nil {
		p.Invalid = map[string]bool{}
	}
	if p.MetricErr != nil && st.at(slotMetric).Code == quarry.ECodeInvalidTimeColumn {
		p.Invalid["time_column"] = true
		// The engine's hint names the command-line flag.
		p.MetricErr.Hint = "Choose the time column, and how its dates are written if they are unusual, under Advanced."
	}
	p.AdvancedOpen = p.Values.TimeColumn != "" || p.Values.TimeFormat != "" || p.Values.IgnoreColumns != "" || p.Invalid["time_column"]
	p.TimeColumns = timeColumns(files, p.Values.TimeColumn)
	for _, f := range files {
		c := newFileCard(id, f)
		if f.FileID == st.fileID {
			c.Description = st.fileDescription
			c.Err = newFieldError("file-"+f.FileID+"-error", st.at(fileSlot(f.FileID)))
		}
		p.Files = append(p.Files, c)
	}
	s.render(w, r, status, "form", p)
	return nil
}

// failForm shows err on the session's page: the page again with the error
// at slot, status from the error's code. A session that is gone gets the
// error page instead.
func (s *Server) failForm(w http.ResponseWriter, r *http.Request, qe *quarry.Error, st *pageState, slot string) error {
	switch qe.Code {
	case quarry.ECodeSessionNotFound, quarry.ECodeSessionExpired:
		return qe
	}
	st.add(slot, qe)
	return s.renderSession(w, r, r.PathValue("id"), pageStatus(qe), st)
}

// uploadPage receives a file from the upload form. Without JavaScript it
// redirects back to the form; with htmx it answers the new file card, the
// table names and a fresh upload form, or the upload form with the error.
func (s *Server) uploadPage(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	f, err := s.receiveUpload(w, r)
	if err != nil {
		qe := s.asQuarryError(r, err)
		if !isHTMX(r) {
			return s.failForm(w, r, qe, &pageState{}, slotUpload)
		}
		if qe.Code == quarry.ECodeSessionNotFound || qe.Code == quarry.ECodeSessionExpired {
			return qe
		}
		w.Header().Set("HX-Retarget", "#upload-form")
		w.Header().Set("HX-Reswap", "outerHTML")
		s.renderFragment(w, r, pageStatus(qe), fragment{"upload_form",
			uploadForm{Action: sessionURL(id) + "/files", Err: newFieldError("upload-error", qe)}})
		return nil
	}
	if !isHTMX(r) {
		seeOther(w, r, sessionURL(id)+"#file-"+f.FileID)
		return nil
	}
	return s.renderFileChange(w, r, id, f.OriginalName+" added: "+formatCount(f.RowCount)+" rows.", fragment{"file_card", newFileCard(id, f)})
}

// renderFileChange answers an htmx upload or removal: the fragments given,
// then, out of band, the table names under the metric field, a fresh upload
// form and the status line read to screen readers.
func (s *Server) renderFileChange(w http.ResponseWriter, r *http.Request, id, status string, first ...fragment) error {
	files, err := s.svc.Files(r.Context(), id)
	if err != nil {
		return err
	}
	tables := tableNames(files)
	tables.OOB = true
	s.renderFragment(w, r, http.StatusOK, append(first,
		fragment{"metric_tables", tables},
		fragment{"upload_form", uploadForm{Action: sessionURL(id) + "/files", OOB: true, Full: len(files) >= quarry.MaxFilesPerSession}},
		fragment{"file_status", status})...)
	return nil
}

// describePage saves a file's description.
func (s *Server) describePage(w http.ResponseWriter, r *http.Request) error {
	id, fid := r.PathValue("id"), r.PathValue("fid")
	if err := parseForm(w, r); err != nil {
		return err
	}
	desc := r.PostForm.Get("description")
	var f *investigation.UploadedFile
	var err error
	if n := utf8.RuneCountInString(desc); n > quarry.MaxDescriptionLen {
		err = quarry.Errorf(quarry.ECodeInvalid, "the description is %d characters; the limit is %d", n, quarry.MaxDescriptionLen)
	} else {
		f, err = s.svc.DescribeFile(r.Context(), id, fid, desc)
	}
	if err != nil {
		qe := s.asQuarryError(r, err)
		if !isHTMX(r) {
			return s.failForm(w, r, qe, &pageState{fileID: fid, fileDescription: desc}, fileSlot(fid))
		}
		card, ok := s.findCard(r, id, fid)
		if !ok {
			return qe
		}
		card.Description, card.Err = desc, newFieldError("file-"+fid+"-error", qe)
		s.renderFragment(w, r, pageStatus(qe), fragment{"file_card", card})
		return nil
	}
	if !isHTMX(r) {
		seeOther(w, r, sessionURL(id)+"#file-"+fid)
		return nil
	}
	card := newFileCard(id, f)
	card.Saved = true
	s.renderFragment(w, r, http.StatusOK, fragment{"file_card", card})
	return nil
}

// findCard is the card of a file of the session.
func (s *Server) findCard(r *http.Request, id, fid string) (fileCard, bool) {
	files, err := s.svc.Files(r.Context(), id)
	if err != nil {
		return fileCard{}, false
	}
	for _, f := range files {
		if f.FileID == fid {
			return newFileCard(id, f), true
		}
	}
	return fileCard{}, false
}

// removeFilePage removes a file; with htmx the answer is empty, which
// swaps the card out, plus the table names and a status line.
func (s *Server) removeFilePage(w http.ResponseWriter, r *http.Request) error {
	id, fid := r.PathValue("id"), r.PathValue("fid")
	card, known := s.findCard(r, id, fid)
	if err := s.svc.RemoveFile(r.Context(), id, fid); err != nil {
		qe := s.asQuarryError(r, err)
		if !isHTMX(r) {
			return s.failForm(w, r, qe, &pageState{}, slotSummary)
		}
		if !known {
			return qe
		}
		card.Err = newFieldError("file-"+fid+"-error", qe)
		s.renderFragment(w, r, pageStatus(qe), fragment{"file_card", card})
		return nil
	}
	if !isHTMX(r) {
		seeOther(w, r, sessionURL(id))
		return nil
	}
	status := "File removed."
	if known {
		status = card.File.OriginalName + " removed."
	}
	return s.renderFileChange(w, r, id, status)
}

// investigatePage starts the investigation from the form and redirects to
// its page, or shows the form again with the errors at their fields.
func (s *Server) investigatePage(w http.ResponseWriter, r *http.Request) error {
	if err := parseForm(w, r); err != nil {
		return err
	}
	form := r.PostForm
	v := &investigateValues{MetricSQL: form.Get("metric_sql"), BusinessContext: form.Get("business_context"),
		Prompt: form.Get("investigation_prompt"), TimeColumn: form.Get("time_column"), TimeFormat: form.Get("time_format"),
		IgnoreColumns: form.Get("ignore_columns"),
		BaselineStart: form.Get("baseline_start"), BaselineEnd: form.Get("baseline_end"),
		ComparisonStart: form.Get("comparison_start"), ComparisonEnd: form.Get("comparison_end")}
	st := &pageState{investigate: v, invalid: map[string]bool{}}
	c, ok := v.context(st)
	if !ok {
		return s.renderSession(w, r, r.PathValue("id"), http.StatusUnprocessableEntity, st)
	}
	if err := s.svc.Investigate(r.Context(), r.PathValue("id"), c); err != nil {
		qe := s.asQuarryError(r, err)
		if qe.Code == quarry.ECodeInvalid && v.IgnoreColumns != "" {
			st.invalid["ignore_columns"] = true
		}
		if slotOf(qe.Code) == slotDates {
			for _, f := range dateFields {
				st.invalid[f.id] = true
			}
		}
		return s.failForm(w, r, qe, st, slotOf(qe.Code))
	}
	seeOther(w, r, sessionURL(r.PathValue("id")))
	return nil
}

var dateFields = []struct{ id, label string }{
	{"baseline_start", "baseline start"}, {"baseline_end", "baseline end"},
	{"comparison_start", "comparison start"}, {"comparison_end", "comparison end"},
}

// context checks what the form can check by itself, placing each problem
// at its field in st, and converts the values. It checks every field, so a
// submit with several problems (no metric and a period that ends before it
// starts) shows all of them at once; the checks are those of
// quarry.InvestigationContext.Validate, which otherwise stops at the first.
func (v *investigateValues) context(st *pageState) (investigation.Context, bool) {
	c := investigation.Context{MetricSQL: strings.TrimSpace(v.MetricSQL), BusinessContext: v.BusinessContext,
		InvestigationPrompt: v.Prompt, TimeColumn: strings.TrimSpace(v.TimeColumn), TimeFormat: strings.TrimSpace(v.TimeFormat),
		IgnoreColumns: splitList(v.IgnoreColumns)}
	ok := true
	check := func(slot string, err error) {
		var qe *quarry.Error
		if errors.As(err, &qe) {
			st.add(slot, qe)
			ok = false
		}
	}
	if c.MetricSQL == "" {
		st.add(slotMetric, quarry.Errorf(quarry.ECodeMetricSQLRequired, "a metric definition is required").
			WithHint("write the metric as SQL over your tables, for example SELECT SUM(amount) FROM orders"))
		ok = false
	} else {
		check(slotMetric, quarry.CheckText("the metric SQL", c.MetricSQL, quarry.MaxMetricSQLLen, quarry.ECodeInvalidMetricSQL))
	}
	check(slotBusinessContext, quarry.CheckText("the business context", c.BusinessContext, quarry.MaxBusinessContextLen, quarry.ECodeInvalid))
	dates := []*quarry.Date{&c.BaselinePeriod.Start, &c.BaselinePeriod.End, &c.ComparisonPeriod.Start, &c.ComparisonPeriod.End}
	typed := []string{v.BaselineStart, v.BaselineEnd, v.ComparisonStart, v.ComparisonEnd}
	var bad []string
	for i, f := range dateFields {
		d, err := quarry.ParseDate(strings.TrimSpace(typed[i]))
		if err != nil {
			st.invalid[f.id] = true
			bad = append(bad, f.label)
			continue
		}
		*dates[i] = d
	}
	var problems []string
	if len(bad) > 0 {
		msg := "enter the " + joinWords(bad) + " " + plural(len(bad), "date", "dates")
		if len(bad) == len(dateFields) {
			msg = "enter the start and end dates of both periods"
		}
		problems = append(problems, msg)
	}
	// A period whose two dates were read must not end before it starts.
	for i, p := range []struct {
		name string
		r    quarry.DateRange
	}{{"baseline", c.BaselinePeriod}, {"comparison", c.ComparisonPeriod}} {
		if p.r.Start.IsZero() || p.r.End.IsZero() || !p.r.End.Time().Before(p.r.Start.Time()) {
			continue
		}
		st.invalid[dateFields[2*i].id], st.invalid[dateFields[2*i+1].id] = true, true
		problems = append(problems, fmt.Sprintf("the %s period ends (%s) before it starts (%s)", p.name, p.r.End, p.r.Start))
	}
	if len(problems) > 0 {
		st.add(slotDates, quarry.Errorf(quarry.ECodeInvalidDateRange, "%s", strings.Join(problems, "; ")).
			WithHint("use the date pickers or type dates as YYYY-MM-DD"))
		ok = false
	}
	check(slotPrompt, quarry.CheckText("the investigation prompt", c.InvestigationPrompt, quarry.MaxInvestigationPrompt, quarry.ECodeInvalid))
	if err := quarry.CheckText("the time column", c.TimeColumn, quarry.MaxOriginalNameLen, quarry.ECodeInvalidTimeColumn); err != nil {
		st.invalid["time_column"] = true
		check(slotMetric, err)
	}
	if err := quarry.CheckText("the time format", c.TimeFormat, quarry.MaxTimeFormatLen, quarry.ECodeInvalidTimeColumn); err != nil {
		st.invalid["time_format"] = true
		check(slotMetric, err)
	}
	return c, ok
}

// joinWords joins "a", "b", "c" as "a, b and c".
func joinWords(ws []string) string {
	if len(ws) < 2 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

// timeColumns lists the uploaded columns that can place rows in time:
// dates and timestamps, and numbers named as years or instants. The
// current choice stays listed even when no file has it any more.
func timeColumns(files []*investigation.UploadedFile, current string) []string {
	var out []string
	for _, f := range files {
		if f.Schema == nil {
			continue
		}
		for _, c := range f.Schema.Columns {
			name := strings.ToLower(c.Name)
			numeric := c.DataType == quarry.TypeInteger && (strings.Contains(name, "year") || strings.Contains(name, "epoch") ||
				name == "ts" || strings.HasSuffix(name, "_ts") || strings.HasSuffix(name, "_at") || strings.Contains(name, "time"))
			if c.InferredType == quarry.RoleTimestamp || numeric || c.Format != "" && c.DataType == quarry.TypeString {
				out = append(out, f.TableName+"."+c.Name)
			}
		}
	}
	if current != "" && !slices.Contains(out, current) {
		out = append(out, current)
	}
	return out
}
