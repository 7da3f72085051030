package llm

import (
	"errors"
	"fmt"
	"time"
)

// Kind classifies a model error by what the caller can do about it.
type Kind string

// Error kinds. The names match quarry's error codes so that the agent layer
// can pass them through unchanged.
const (
	// KindUnavailable: the provider did not answer, answered 5xx or 529,
	// or kept rate-limiting past the retry policy. Do the step offline.
	KindUnavailable Kind = "UNAVAILABLE"
	// KindRateLimited: 429. Retry after RetryAfter.
	KindRateLimited Kind = "RATE_LIMITED"
	// KindUnauthorized: the key is missing or wrong (401, 403).
	KindUnauthorized Kind = "UNAUTHORIZED"
	// KindInvalid: the provider refused the request (400, 404, 422), for
	// example an unknown model name.
	KindInvalid Kind = "INVALID"
	// KindMalformed: the reply could not be read (bad JSON, no content,
	// structured output that is not the asked-for JSON).
	KindMalformed Kind = "MALFORMED"
)

// Error is a failed model call.
type Error struct {
	Kind Kind
	// Status is the HTTP status, or 0 when there was no HTTP answer.
	Status int
	// RetryAfter is the provider's retry-after hint, or 0.
	RetryAfter time.Duration
	// Provider names who failed, for example "anthropic".
	Provider string
	Message  string
	// Err is the underlying error, if any.
	Err error
	// Attempts is how many attempts the failed call made, set by Retry;
	// 0 when unknown (see Attempts).
	Attempts int
}

func (e *Error) Error() string {
	s := e.Provider
	if s == "" {
		s = "llm"
	}
	if e.Status != 0 {
		s += fmt.Sprintf(": HTTP %d", e.Status)
	}
	return s + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether the retry policy retries this error: 429, 5xx
// and 529 (Anthropic's "overloaded"), and failures with no HTTP answer at
// all (connection refused, reset, per-attempt timeout).
func (e *Error) Retryable() bool {
	switch {
	case e.Kind == KindRateLimited:
		return true
	case e.Status >= 500:
		return true
	case e.Status == 0 && e.Kind == KindUnavailable:
		return true
	}
	return false
}

// ErrorKind returns err's Kind, or "" when err is not an *Error.
func ErrorKind(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}

// KindForStatus maps an HTTP status to an error kind.
func KindForStatus(status int) Kind {
	switch {
	case status == 429:
		return KindRateLimited
	case status == 401 || status == 403:
		return KindUnauthorized
	case status >= 500:
		return KindUnavailable
	case status >= 400:
		return KindInvalid
	}
	return KindMalformed
}

// Attempts returns how many attempts the call that failed with err made:
// the Attempts Retry recorded in err's *Error, or 1 when it recorded none
// (a model without Retry, or an error that is not a model error).
func Attempts(err error) int {
	var e *Error
	if errors.As(err, &e) && e.Attempts > 0 {
		return e.Attempts
	}
	return 1
}
