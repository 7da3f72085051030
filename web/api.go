package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// apiCSRF refuses state-changing API requests that a browser marks as
// coming from another site (Sec-Fetch-Site, Origin), the same protection
// the pages have; clients that send neither header, such as curl, pass.
var apiCSRF = http.NewCrossOriginProtection()

// api adapts a handler that returns an error to one that writes it in the
// error envelope.
func (s *Server) api(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := apiCSRF.Check(r); err != nil {
			// A browser says the request comes from another site's page.
			s.writeError(w, r, quarry.Errorf(quarry.ECodeForbidden, "cross-origin requests are refused"))
			return
		}
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	})
}

// apiFallback answers unknown API paths and wrong methods in the envelope.
func (s *Server) apiFallback(w http.ResponseWriter, r *http.Request) error {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, p := s.mux.Handler(probe); p != "" && p != "/api/" {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		return quarry.Errorf(codeMethodNotAllowed, "%s is not allowed on %s; use %s", r.Method, r.URL.Path, strings.Join(allow, " or "))
	}
	return quarry.Errorf(quarry.ECodeNotFound, "no API endpoint %s %s", r.Method, r.URL.Path)
}

// sessionResponse is the specification's SessionResponse, with the files
// and, for a failed session, its error.
type sessionResponse struct {
	SessionID   string                        `json:"session_id"`
	Status      investigation.Status          `json:"status"`
	CreatedAt   time.Time                     `json:"created_at"`
	ExpiresAt   time.Time                     `json:"expires_at"`
	FileCount   int                           `json:"file_count"`
	ReportReady bool                          `json:"report_ready"`
	Outcome     string                        `json:"outcome,omitempty"`
	StartedAt   *time.Time                    `json:"started_at,omitempty"`
	FinishedAt  *time.Time                    `json:"finished_at,omitempty"`
	Error       *quarry.ErrorInfo             `json:"error,omitempty"`
	Files       []*investigation.UploadedFile `json:"files"`
}

func newSessionResponse(s *investigation.Investigation, files []*investigation.UploadedFile) sessionResponse {
	if files == nil {
		files = []*investigation.UploadedFile{}
	}
	return sessionResponse{SessionID: s.SessionID, Status: s.Status, CreatedAt: s.CreatedAt, ExpiresAt: s.ExpiresAt,
		FileCount: s.FileCount, ReportReady: s.ReportReady, Outcome: s.Outcome, StartedAt: s.StartedAt,
		FinishedAt: s.FinishedAt, Error: s.Error, Files: files}
}

func (s *Server) createSession(w http.ResponseWriter, r *http.Request) error {
	owner, err := s.creator(r)
	if err != nil {
		return err
	}
	sess, err := s.svc.Create(r.Context(), owner)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/sessions/"+sess.SessionID)
	writeJSON(w, http.StatusCreated, newSessionResponse(sess, nil))
	return nil
}

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) error {
	all, err := s.sessions(r)
	if err != nil {
		return err
	}
	out := make([]sessionResponse, 0, len(all))
	for _, sess := range all {
		out = append(out, newSessionResponse(sess, nil))
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": out})
	return nil
}

func (s *Server) getSession(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	sess, err := s.svc.Session(r.Context(), id)
	if err != nil {
		return err
	}
	var files []*investigation.UploadedFile
	if sess.Status != investigation.StatusExpired {
		if files, err = s.svc.Files(r.Context(), id); err != nil {
			return err
		}
	}
	writeJSON(w, http.StatusOK, newSessionResponse(sess, files))
	return nil
}

func (s *Server) deleteSession(w http.ResponseWriter, r *http.Request) error {
	if err := s.svc.Delete(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}

// fileResponse is the specification's FileUploadResponse plus what the
// form shows on a file card.
type fileResponse struct {
	FileID       string             `json:"file_id"`
	OriginalName string             `json:"original_name"`
	RowCount     int64              `json:"row_count"`
	SizeBytes    int64              `json:"size_bytes"`
	Description  string             `json:"description"`
	TableName    string             `json:"table_name"`
	Schema       *quarry.FileSchema `json:"schema,omitempty"`
}

func newFileResponse(f *investigation.UploadedFile) fileResponse {
	return fileResponse{FileID: f.FileID, OriginalName: f.OriginalName, RowCount: f.RowCount, SizeBytes: f.SizeBytes,
		Description: f.Description, TableName: f.TableName, Schema: f.Schema}
}

// uploadFile streams the multipart field "file" into the session; an
// optional "description" field may come before or after it.
func (s *Server) uploadFile(w http.ResponseWriter, r *http.Request) error {
	f, err := s.receiveUpload(w, r)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/sessions/"+f.SessionID+"/files/"+f.FileID)
	writeJSON(w, http.StatusCreated, newFileResponse(f))
	return nil
}

// receiveUpload reads a multipart upload part by part, so the file goes
// straight to the store without being buffered, and a body far over the
// limit is cut off rather than read to its end.
func (s *Server) receiveUpload(w http.ResponseWriter, r *http.Request) (*investigation.UploadedFile, error) {
	id := r.PathValue("id")
	if _, err := s.svc.Session(r.Context(), id); err != nil {
		return nil, err
	}
	const formSlack = 1 << 20 // room for the other fields and the multipart framing
	r.Body = http.MaxBytesReader(w, r.Body, s.opt.MaxUploadBytes+formSlack)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, quarry.Errorf(codeBadRequest, "send the file as multipart/form-data with a field named \"file\"")
	}
	var (
		f           *investigation.UploadedFile
		description string
	)
	// A request that fails after its file was stored keeps nothing.
	fail := func(err error) (*investigation.UploadedFile, error) {
		if f != nil {
			if rerr := s.svc.RemoveFile(context.WithoutCancel(r.Context()), id, f.FileID); rerr != nil {
				s.log.Error("remove the file of a failed upload", "session", id, "err", rerr)
			}
		}
		return nil, err
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fail(uploadError(err, s.opt.MaxUploadBytes))
		}
		switch part.FormName() {
		case "description":
			b, err := io.ReadAll(io.LimitReader(part, quarry.MaxDescriptionLen*4+1))
			if err != nil {
				return fail(uploadError(err, s.opt.MaxUploadBytes))
			}
			description = string(b)
			if f != nil {
				described, err := s.svc.DescribeFile(r.Context(), id, f.FileID, description)
				if err != nil {
					return fail(err)
				}
				f = described
			}
		case "file":
			if f != nil {
				return fail(quarry.Errorf(quarry.ECodeInvalid, "send one file per request; this one had two, and neither was kept"))
			}
			if f, err = s.svc.AddFile(r.Context(), id, part.FileName(), description, part); err != nil {
				return nil, uploadError(err, s.opt.MaxUploadBytes)
			}
		}
		part.Close()
	}
	if f == nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "no file in the upload; send it in a multipart field named \"file\"")
	}
	return f, nil
}

// uploadError turns a body cut off by MaxBytesReader into FILE_TOO_LARGE.
func uploadError(err error, limit int64) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return quarry.Errorf(quarry.ECodeFileTooLarge, "the upload is larger than the %d MB limit", limit>>20)
	}
	var qe *quarry.Error
	if errors.As(err, &qe) {
		return err
	}
	return quarry.Errorf(codeBadRequest, "the upload could not be read: %w", err)
}

func (s *Server) listFiles(w http.ResponseWriter, r *http.Request) error {
	files, err := s.svc.Files(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	out := make([]fileResponse, 0, len(files))
	for _, f := range files {
		out = append(out, newFileResponse(f))
	}
	writeJSON(w, http.StatusOK, map[string]any{"files": out})
	return nil
}

func (s *Server) describeFile(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Description *string `json:"description"`
	}
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	if req.Description == nil {
		return quarry.Errorf(quarry.ECodeInvalid, "description is required")
	}
	f, err := s.svc.DescribeFile(r.Context(), r.PathValue("id"), r.PathValue("fid"), *req.Description)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "file": newFileResponse(f)})
	return nil
}

func (s *Server) removeFile(w http.ResponseWriter, r *http.Request) error {
	if err := s.svc.RemoveFile(r.Context(), r.PathValue("id"), r.PathValue("fid")); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}

// investigationRequest is the specification's InvestigationRequest.
// TimeColumn and TimeFormat are Quarry's additions for metrics whose date
// column, or the way its dates are written, is not obvious; IgnoreColumns
// names columns to leave out (COLUMN or TABLE.COLUMN).
type investigationRequest struct {
	BusinessContext     string    `json:"business_context"`
	MetricSQL           string    `json:"metric_sql"`
	BaselinePeriod      *dateSpan `json:"baseline_period"`
	ComparisonPeriod    *dateSpan `json:"comparison_period"`
	InvestigationPrompt string    `json:"investigation_prompt"`
	TimeColumn          string    `json:"time_column"`
	TimeFormat          string    `json:"time_format"`
	IgnoreColumns       []string  `json:"ignore_columns"`
}

type dateSpan struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// parse checks the dates and returns the context. Errors:
// INVALID_DATE_RANGE.
func (d *dateSpan) parse(name string) (quarry.DateRange, error) {
	if d == nil || d.Start == "" || d.End == "" {
		return quarry.DateRange{}, quarry.Errorf(quarry.ECodeInvalidDateRange, "the %s period needs a start and an end date (YYYY-MM-DD)", name)
	}
	start, err := quarry.ParseDate(d.Start)
	if err != nil {
		return quarry.DateRange{}, quarry.Errorf(quarry.ECodeInvalidDateRange, "the %s period's start %q is not a date (YYYY-MM-DD)", name, d.Start)
	}
	end, err := quarry.ParseDate(d.End)
	if err != nil {
		return quarry.DateRange{}, quarry.Errorf(quarry.ECodeInvalidDateRange, "the %s period's end %q is not a date (YYYY-MM-DD)", name, d.End)
	}
	return quarry.DateRange{Start: start, End: end}, nil
}

// Context converts the request, checking what the wire format can check.
func (req *investigationRequest) Context() (investigation.Context, error) {
	c := investigation.Context{MetricSQL: strings.TrimSpace(req.MetricSQL), BusinessContext: req.BusinessContext,
		InvestigationPrompt: req.InvestigationPrompt, TimeColumn: strings.TrimSpace(req.TimeColumn),
		TimeFormat: strings.TrimSpace(req.TimeFormat), IgnoreColumns: req.IgnoreColumns}
	if c.MetricSQL == "" {
		return c, quarry.Errorf(quarry.ECodeMetricSQLRequired, "the metric SQL is required")
	}
	var err error
	if c.BaselinePeriod, err = req.BaselinePeriod.parse("baseline"); err != nil {
		return c, err
	}
	if c.ComparisonPeriod, err = req.ComparisonPeriod.parse("comparison"); err != nil {
		return c, err
	}
	return c, nil
}

func (s *Server) investigate(w http.ResponseWriter, r *http.Request) error {
	var req investigationRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	c, err := req.Context()
	if err != nil {
		return err
	}
	id := r.PathValue("id")
	if err := s.svc.Investigate(r.Context(), id, c); err != nil {
		return err
	}
	w.Header().Set("Location", "/api/sessions/"+id)
	writeJSON(w, http.StatusAccepted, map[string]string{"status": "running",
		"message": "the investigation has started; follow it at /api/sessions/" + id + "/events"})
	return nil
}

func (s *Server) getReport(w http.ResponseWriter, r *http.Request) error {
	rep, err := s.svc.Report(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"content": rep.Content, "generated_at": rep.GeneratedAt,
		"status": rep.Status, "format": "markdown"})
	return nil
}

func (s *Server) getExplanations(w http.ResponseWriter, r *http.Request) error {
	ex, err := s.svc.Explanations(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"explanations": ex})
	return nil
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Message string `json:"message"`
	}
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	reply, err := s.svc.Chat(r.Context(), r.PathValue("id"), req.Message)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"response": reply.Content, "artifacts_referenced": reply.ArtifactsReferenced,
		"message_id": reply.MessageID, "timestamp": reply.Timestamp})
	return nil
}

func (s *Server) chatHistory(w http.ResponseWriter, r *http.Request) error {
	hist, err := s.svc.History(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"messages": hist})
	return nil
}

// maxJSONBody bounds a JSON request body: the largest valid request (an
// investigation with every text at its limit) is well under it.
const maxJSONBody = 64 << 10

// decodeJSON reads one JSON object from the body. Errors: BAD_REQUEST for
// a body that is not JSON of the right shape.
func decodeJSON(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, _ := mime.ParseMediaType(ct); mt != "application/json" {
			return quarry.Errorf(codeBadRequest, "send the request as application/json, not %s", mt)
		}
	}
	dec := json.NewDecoder(io.LimitReader(r.Body, maxJSONBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return quarry.Errorf(codeBadRequest, "the request body is not valid JSON for this endpoint: %s", jsonProblem(err))
	}
	return nil
}

func jsonProblem(err error) string {
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		return fmt.Sprintf("field %q should be %s", ute.Field, ute.Type)
	}
	if errors.Is(err, io.EOF) {
		return "the body is empty"
	}
	return err.Error()
}
