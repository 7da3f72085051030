package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// RetryPolicy is the specification's retry configuration for model calls:
// 3 attempts, waiting 1 s and then 2 s (the delay doubles each time) after a
// retryable failure, or longer when the provider's retry-after asks for it.
type RetryPolicy struct {
	Attempts     int           // total attempts, first one included
	InitialDelay time.Duration // wait before the second attempt
	Multiplier   float64       // each further wait is this much longer
	// MaxRetryAfter caps how long a retry-after hint may make us wait;
	// a provider asking for longer is treated as unavailable at once.
	MaxRetryAfter time.Duration
	// Timeout bounds each attempt.
	Timeout time.Duration
	// Sleep waits for d or until ctx is done; nil means a real timer.
	// Tests replace it to record the waits instead of sleeping.
	Sleep func(ctx context.Context, d time.Duration) error
}

// DefaultRetryPolicy is the specification's policy with a 60 s timeout per
// attempt.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{Attempts: 3, InitialDelay: time.Second, Multiplier: 2,
		MaxRetryAfter: 30 * time.Second, Timeout: 60 * time.Second}
}

// Retry wraps m so that every call follows p, or makes fewer attempts
// when the request's MaxAttempts says so; the Response, or the *Error of
// a call that failed after a retry, says how many it made. After the last
// attempt fails with a retryable error, the call fails with
// KindUnavailable, so the caller does the step offline; errors that no
// retry can fix (bad key, bad request, malformed reply) return at once.
func Retry(m Model, p RetryPolicy) Model {
	if p.Attempts <= 0 {
		p.Attempts = 1
	}
	if p.Multiplier <= 0 {
		p.Multiplier = 2
	}
	if p.Sleep == nil {
		p.Sleep = sleep
	}
	return &retrying{m: m, p: p}
}

type retrying struct {
	m Model
	p RetryPolicy
}

func (r *retrying) Name() string { return r.m.Name() }

func (r *retrying) Complete(ctx context.Context, req *Request) (*Response, error) {
	delay := r.p.InitialDelay
	attempts := r.p.Attempts
	if req.MaxAttempts > 0 && req.MaxAttempts < attempts {
		attempts = req.MaxAttempts
	}
	var last *Error
	for attempt := 1; attempt <= attempts; attempt++ {
		resp, err := r.attempt(ctx, req)
		if err == nil {
			resp.Attempts = attempt
			return resp, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var e *Error
		if !errors.As(err, &e) {
			return nil, err
		}
		if !e.Retryable() {
			return nil, afterAttempts(e, attempt)
		}
		last = e
		if attempt == attempts {
			break
		}
		wait := delay
		if e.RetryAfter > r.p.MaxRetryAfter && r.p.MaxRetryAfter > 0 {
			return nil, &Error{Kind: KindUnavailable, Status: e.Status, Provider: e.Provider, Err: e, Attempts: attempt,
				Message: fmt.Sprintf("provider asked to wait %s, longer than the %s allowed: %s", e.RetryAfter, r.p.MaxRetryAfter, e.Message)}
		}
		wait = max(wait, e.RetryAfter)
		if err := r.p.Sleep(ctx, wait); err != nil {
			return nil, err
		}
		delay = time.Duration(float64(delay) * r.p.Multiplier)
	}
	return nil, &Error{Kind: KindUnavailable, Status: last.Status, Provider: last.Provider, Err: last, Attempts: attempts,
		Message: fmt.Sprintf("no answer after %d attempts: %s", attempts, last.Message)}
}

// afterAttempts is e, the error no retry can fix, as the call returns it
// after attempts: itself after the first, a copy saying how many after
// more.
func afterAttempts(e *Error, attempts int) *Error {
	if attempts == 1 {
		return e
	}
	c := *e
	c.Attempts = attempts
	return &c
}

func (r *retrying) attempt(ctx context.Context, req *Request) (*Response, error) {
	if r.p.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.p.Timeout)
		defer cancel()
		resp, err := r.m.Complete(ctx, req)
		if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, &Error{Kind: KindUnavailable, Message: fmt.Sprintf("no reply within %s", r.p.Timeout), Err: err}
		}
		return resp, err
	}
	return r.m.Complete(ctx, req)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// RetryAfter reads a provider's wait hint from response headers:
// "retry-after-ms" (milliseconds), then "retry-after" (seconds or an HTTP
// date, relative to now). It returns 0 when there is none.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
