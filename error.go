package quarry

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
)

// Error codes. The first group is the specification's validation codes; the
// second is generic.
const (
	ECodeMaxFilesExceeded         = "MAX_FILES_EXCEEDED"
	ECodeFileTooLarge             = "FILE_TOO_LARGE"
	ECodeInvalidFileType          = "INVALID_FILE_TYPE"
	ECodeNoHeaders                = "NO_HEADERS"
	ECodeEmptyFile                = "EMPTY_FILE"
	ECodeMalformedCSV             = "MALFORMED_CSV"
	ECodeMetricSQLRequired        = "METRIC_SQL_REQUIRED"
	ECodeInvalidMetricSQL         = "INVALID_METRIC_SQL"
	ECodeUnsupportedMetric        = "UNSUPPORTED_METRIC"
	ECodeNoFilesUploaded          = "NO_FILES_UPLOADED"
	ECodeInvalidDateRange         = "INVALID_DATE_RANGE"
	ECodeNoDataInPeriod           = "NO_DATA_IN_PERIOD"
	ECodeInvalidTimeColumn        = "INVALID_TIME_COLUMN"
	ECodeSessionNotFound          = "SESSION_NOT_FOUND"
	ECodeInvestigationNotComplete = "INVESTIGATION_NOT_COMPLETE"
	ECodeSessionExpired           = "SESSION_EXPIRED"
	ECodeRunInterrupted           = "RUN_INTERRUPTED"
	// ECodeMalformedDocument is a data-room document that cannot be read:
	// a broken or encrypted PDF, a DOCX that is not a valid archive or
	// expands beyond its limit, text that is not UTF-8.
	ECodeMalformedDocument = "MALFORMED_DOCUMENT"

	ECodeInvalid      = "INVALID"
	ECodeNotFound     = "NOT_FOUND"
	ECodeConflict     = "CONFLICT"
	ECodeUnauthorized = "UNAUTHORIZED"
	ECodeForbidden    = "FORBIDDEN"
	ECodeRateLimited  = "RATE_LIMITED"
	ECodeUnavailable  = "UNAVAILABLE"
	ECodeInternal     = "INTERNAL"
	// ECodeStorageFull is a write refused for lack of space (a full disk
	// or a quota).
	ECodeStorageFull = "STORAGE_FULL"
	// ECodeResourceLimit is work ended because it would exceed its share
	// of the process's memory, time or size budgets (--memory-mb, render
	// caps, child-process timeouts), while the server and other work go on.
	ECodeResourceLimit = "RESOURCE_LIMIT"
	// ECodeNeedsClarification is a request with words that would change
	// the answer and that could not be applied (a column, value or
	// operation the data or the tools do not have): nothing is answered,
	// and the user is told what was understood, what was not and what is
	// nearest.
	ECodeNeedsClarification = "NEEDS_CLARIFICATION"
)

// Error is Quarry's one error type. Code is one of the ECode constants,
// Message says what is wrong in words a user understands, and Hint, when set,
// says what to do about it.
type Error struct {
	Code    string
	Message string
	Hint    string
	// Err is the cause, when the message was made from an error with %w;
	// errors.Is and errors.As see it through Unwrap. Its text is already
	// in Message.
	Err error
}

// Unwrap returns the cause, nil when there is none.
func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	if e.Hint != "" {
		return fmt.Sprintf("%s: %s (%s)", e.Code, e.Message, e.Hint)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Errorf returns an *Error with the given code and a formatted message.
// As with fmt.Errorf, an error formatted with %w is kept as the cause.
func Errorf(code, format string, args ...any) *Error {
	w := fmt.Errorf(format, args...)
	e := &Error{Code: code, Message: w.Error()}
	switch u := w.(type) {
	case interface{ Unwrap() error }:
		e.Err = u.Unwrap()
	case interface{ Unwrap() []error }:
		e.Err = w
	}
	return e
}

// WithHint returns a copy of e carrying hint.
func (e *Error) WithHint(hint string) *Error {
	c := *e
	c.Hint = hint
	return &c
}

// ErrorCode returns the code of the first *Error in err's chain, "" for nil
// and ECodeInternal for any other error.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ECodeInternal
}

// ErrorMessage returns the message of the first *Error in err's chain, or a
// generic message for errors that are not *Error: their detail belongs in a
// log, not in front of a user.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// StorageError returns err as a STORAGE_FULL *Error when a write in its
// chain failed for lack of space (ENOSPC, EDQUOT), so that the user reads
// the cause rather than "internal error"; any other err is returned as is.
func StorageError(err error) error {
	if err == nil || !(errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)) {
		return err
	}
	if ErrorCode(err) == ECodeStorageFull {
		return err
	}
	msg := "no space is left on the disk that holds the data directory"
	// The file's name says what could not be saved; its path is the
	// server's business.
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg += " (writing " + savedName(filepath.Base(pe.Path)) + ")"
	}
	return Errorf(ECodeStorageFull, "%s", msg).WithHint("free space there, then start again")
}

// savedName is the name of the file a temporary file was to become:
// files are written as ".NAME.RANDOM.tmp" (or "NAME.tmp") and renamed.
func savedName(base string) string {
	name, ok := strings.CutSuffix(base, ".tmp")
	if !ok {
		return base
	}
	if name, ok = strings.CutPrefix(name, "."); ok {
		if i := strings.LastIndexByte(name, '.'); i > 0 {
			name = name[:i]
		}
	}
	return name
}
