package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/quarry-dev/quarry/room"

	"github.com/quarry-dev/quarry"
)

// errorBody is the specification's error envelope:
// {"error": {"code", "message", "details"}}.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details"`
}

// statusOf maps an error code to its HTTP status: 404 for what does not
// exist, 409 for what the state machine forbids, 413 for an oversized
// upload, 422 for input that fails validation.
func statusOf(code string) int {
	switch code {
	case quarry.ECodeSessionNotFound, quarry.ECodeNotFound:
		return http.StatusNotFound
	case quarry.ECodeSessionExpired:
		return http.StatusGone
	case quarry.ECodeConflict, quarry.ECodeInvestigationNotComplete:
		return http.StatusConflict
	case quarry.ECodeFileTooLarge:
		return http.StatusRequestEntityTooLarge
	case quarry.ECodeInvalidFileType:
		return http.StatusUnsupportedMediaType
	case quarry.ECodeMaxFilesExceeded, quarry.ECodeNoHeaders, quarry.ECodeEmptyFile, quarry.ECodeMalformedCSV, quarry.ECodeMalformedDocument,
		quarry.ECodeMetricSQLRequired, quarry.ECodeInvalidMetricSQL, quarry.ECodeUnsupportedMetric,
		quarry.ECodeNoFilesUploaded, quarry.ECodeInvalidDateRange, quarry.ECodeNoDataInPeriod,
		quarry.ECodeInvalidTimeColumn, quarry.ECodeInvalid:
		return http.StatusUnprocessableEntity
	case quarry.ECodeUnauthorized:
		return http.StatusUnauthorized
	case quarry.ECodeForbidden:
		return http.StatusForbidden
	case quarry.ECodeRateLimited:
		return http.StatusTooManyRequests
	case quarry.ECodeUnavailable:
		return http.StatusServiceUnavailable
	case quarry.ECodeStorageFull:
		return http.StatusInsufficientStorage
	case quarry.ECodeResourceLimit:
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusInternalServerError
}

// Codes of errors about the request itself rather than its content.
const (
	codeBadRequest       = "BAD_REQUEST"
	codeMethodNotAllowed = "METHOD_NOT_ALLOWED"
)

// writeError writes err in the error envelope. Errors that are not
// *quarry.Error are logged and answered with a generic 500: their detail
// is for the log, not the client.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var qe *quarry.Error
	if !errors.As(err, &qe) {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		qe = quarry.Errorf(quarry.ECodeInternal, "internal error")
	}
	status := statusOf(qe.Code)
	if qe.Code == codeBadRequest {
		status = http.StatusBadRequest
	}
	if qe.Code == codeMethodNotAllowed {
		status = http.StatusMethodNotAllowed
	}
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="quarry"`)
	}
	setRetryAfter(w, err)
	details := map[string]any{}
	if qe.Hint != "" {
		details["hint"] = qe.Hint
	}
	var dup *room.Duplicate
	if errors.As(err, &dup) {
		details["document_id"], details["document_name"] = dup.Existing.ID, dup.Existing.Name
	}
	writeJSON(w, status, errorBody{Error: errorDetail{Code: qe.Code, Message: qe.Message, Details: details}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v) // the client went away; nothing to do
}

// setRetryAfter tells the client when to try again, for an error that
// says (a *room.RateLimited: past the questions of the hour, the failed
// sign-ins of a window, or the sign-ins one server checks at once).
func setRetryAfter(w http.ResponseWriter, err error) {
	var limited *room.RateLimited
	if errors.As(err, &limited) && limited.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(limited.RetryAfter))
	}
}
