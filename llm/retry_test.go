package llm

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// scripted answers the i-th call with outcomes[i] and counts the calls.
type scripted struct {
	mu       sync.Mutex
	outcomes []func(ctx context.Context) (*Response, error)
	calls    int
}

func (s *scripted) Name() string { return "test/scripted" }

func (s *scripted) Complete(ctx context.Context, req *Request) (*Response, error) {
	s.mu.Lock()
	i := s.calls
	s.calls++
	s.mu.Unlock()
	if i >= len(s.outcomes) {
		return nil, errors.New("script ended")
	}
	return s.outcomes[i](ctx)
}

func fail(e *Error) func(context.Context) (*Response, error) {
	return func(context.Context) (*Response, error) { return nil, e }
}

func succeed(text string) func(context.Context) (*Response, error) {
	return func(context.Context) (*Response, error) { return &Response{Text: text}, nil }
}

// waitForDeadline blocks until the attempt's context ends, as a provider
// that never answers does.
func waitForDeadline(ctx context.Context) (*Response, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

type sleeps struct{ waits []time.Duration }

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.waits = append(s.waits, d)
	return ctx.Err()
}

func policy(s *sleeps) RetryPolicy {
	p := DefaultRetryPolicy()
	p.Sleep = s.sleep
	return p
}

var (
	overloaded  = &Error{Kind: KindUnavailable, Status: 529, Provider: "anthropic", Message: "overloaded"}
	unreachable = &Error{Kind: KindUnavailable, Provider: "openai", Message: "connection refused"}
	badRequest  = &Error{Kind: KindInvalid, Status: 400, Provider: "openai", Message: "unknown model"}
)

func rateLimited(after time.Duration) *Error {
	return &Error{Kind: KindRateLimited, Status: 429, RetryAfter: after, Provider: "anthropic", Message: "slow down"}
}

func TestRetry(t *testing.T) {
	tests := []struct {
		name     string
		outcomes []func(context.Context) (*Response, error)
		waits    []time.Duration
		calls    int
		attempts int    // Response.Attempts when the call succeeds
		kind     Kind   // when it fails
		status   int    // when it fails
		message  string // part of the failure's message
	}{
		{name: "success at once", outcomes: []func(context.Context) (*Response, error){succeed("a")},
			calls: 1, attempts: 1},
		{name: "backoff doubles", outcomes: []func(context.Context) (*Response, error){fail(overloaded), fail(unreachable), succeed("a")},
			waits: []time.Duration{time.Second, 2 * time.Second}, calls: 3, attempts: 3},
		{name: "retry-after longer than the backoff", outcomes: []func(context.Context) (*Response, error){fail(rateLimited(1500 * time.Millisecond)), fail(rateLimited(0)), succeed("a")},
			waits: []time.Duration{1500 * time.Millisecond, 2 * time.Second}, calls: 3, attempts: 3},
		{name: "retry-after shorter than the backoff", outcomes: []func(context.Context) (*Response, error){fail(rateLimited(200 * time.Millisecond)), succeed("a")},
			waits: []time.Duration{time.Second}, calls: 2, attempts: 2},
		{name: "exhausted", outcomes: []func(context.Context) (*Response, error){fail(overloaded), fail(overloaded), fail(overloaded)},
			waits: []time.Duration{time.Second, 2 * time.Second}, calls: 3, kind: KindUnavailable, status: 529, message: "no answer after 3 attempts: overloaded"},
		{name: "rate limited to the end", outcomes: []func(context.Context) (*Response, error){fail(rateLimited(0)), fail(rateLimited(0)), fail(rateLimited(0))},
			waits: []time.Duration{time.Second, 2 * time.Second}, calls: 3, kind: KindUnavailable, status: 429, message: "no answer after 3 attempts"},
		{name: "not retryable", outcomes: []func(context.Context) (*Response, error){fail(badRequest)},
			calls: 1, kind: KindInvalid, status: 400, message: "unknown model"},
		{name: "retry-after past the cap", outcomes: []func(context.Context) (*Response, error){fail(rateLimited(31 * time.Second))},
			calls: 1, kind: KindUnavailable, status: 429, message: "asked to wait 31s, longer than the 30s allowed"},
		{name: "retry-after at the cap", outcomes: []func(context.Context) (*Response, error){fail(rateLimited(30 * time.Second)), succeed("a")},
			waits: []time.Duration{30 * time.Second}, calls: 2, attempts: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &scripted{outcomes: tt.outcomes}
			s := &sleeps{}
			resp, err := Retry(m, policy(s)).Complete(context.Background(), UserText("t", "", "hi"))
			if !reflect.DeepEqual(s.waits, tt.waits) {
				t.Errorf("waits = %v; want %v", s.waits, tt.waits)
			}
			if m.calls != tt.calls {
				t.Errorf("%d calls; want %d", m.calls, tt.calls)
			}
			if tt.kind == "" {
				if err != nil {
					t.Fatal(err)
				}
				if resp.Attempts != tt.attempts {
					t.Errorf("Attempts = %d; want %d", resp.Attempts, tt.attempts)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error = %v; want *Error", err)
			}
			if e.Kind != tt.kind || e.Status != tt.status || !strings.Contains(e.Message, tt.message) {
				t.Errorf("error = {%s %d %q}; want {%s %d ...%q...}", e.Kind, e.Status, e.Message, tt.kind, tt.status, tt.message)
			}
		})
	}
}

func TestRetryReturnsNonRetryableErrorUnchanged(t *testing.T) {
	plain := errors.New("not a model error")
	for _, want := range []error{badRequest, plain} {
		m := &scripted{outcomes: []func(context.Context) (*Response, error){
			func(context.Context) (*Response, error) { return nil, want }}}
		_, err := Retry(m, policy(&sleeps{})).Complete(context.Background(), UserText("t", "", "hi"))
		if err != want || m.calls != 1 {
			t.Errorf("Complete = %v after %d calls; want %v after 1", err, m.calls, want)
		}
	}
}

func TestRetryExhaustedWrapsLastError(t *testing.T) {
	last := &Error{Kind: KindUnavailable, Status: 503, Provider: "openai", Message: "third"}
	m := &scripted{outcomes: []func(context.Context) (*Response, error){fail(overloaded), fail(overloaded), fail(last)}}
	_, err := Retry(m, policy(&sleeps{})).Complete(context.Background(), UserText("t", "", "hi"))
	var e *Error
	if !errors.As(err, &e) || e.Provider != "openai" || e.Status != 503 || !errors.Is(err, last) {
		t.Errorf("Complete = %#v; want an openai 503 error wrapping the last attempt's", err)
	}
}

func TestRetryPerAttemptTimeout(t *testing.T) {
	m := &scripted{outcomes: []func(context.Context) (*Response, error){waitForDeadline, waitForDeadline, succeed("late but fine")}}
	s := &sleeps{}
	p := policy(s)
	p.Timeout = time.Millisecond
	resp, err := Retry(m, p).Complete(context.Background(), UserText("t", "", "hi"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Attempts != 3 || !reflect.DeepEqual(s.waits, []time.Duration{time.Second, 2 * time.Second}) {
		t.Errorf("Attempts = %d, waits = %v; want 3 and [1s 2s]: a timed-out attempt is retried", resp.Attempts, s.waits)
	}

	m = &scripted{outcomes: []func(context.Context) (*Response, error){waitForDeadline, waitForDeadline, waitForDeadline}}
	_, err = Retry(m, p).Complete(context.Background(), UserText("t", "", "hi"))
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindUnavailable || e.Status != 0 || !strings.Contains(e.Message, "no reply within 1ms") {
		t.Errorf("Complete with every attempt timing out = %v; want %s, status 0, naming the timeout", err, KindUnavailable)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v does not wrap context.DeadlineExceeded", err)
	}
}

func TestRetryContextCanceled(t *testing.T) {
	t.Run("during the wait", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		m := &scripted{outcomes: []func(context.Context) (*Response, error){fail(overloaded), succeed("never")}}
		p := DefaultRetryPolicy()
		p.Sleep = func(ctx context.Context, d time.Duration) error {
			cancel()
			return ctx.Err()
		}
		_, err := Retry(m, p).Complete(ctx, UserText("t", "", "hi"))
		if !errors.Is(err, context.Canceled) || m.calls != 1 {
			t.Errorf("Complete = %v after %d calls; want context.Canceled after 1", err, m.calls)
		}
	})
	t.Run("during the call", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		m := &scripted{outcomes: []func(context.Context) (*Response, error){func(ctx context.Context) (*Response, error) {
			cancel()
			return nil, unreachable
		}}}
		s := &sleeps{}
		_, err := Retry(m, policy(s)).Complete(ctx, UserText("t", "", "hi"))
		if err != context.Canceled || m.calls != 1 || len(s.waits) != 0 {
			t.Errorf("Complete = %v after %d calls, %d waits; want context.Canceled after 1 call and no wait", err, m.calls, len(s.waits))
		}
	})
	t.Run("real timer", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
			t.Errorf("sleep with a canceled context = %v; want context.Canceled", err)
		}
	})
}

func TestRetryPolicyDefaults(t *testing.T) {
	m := &scripted{outcomes: []func(context.Context) (*Response, error){fail(overloaded), succeed("never")}}
	r := Retry(m, RetryPolicy{Sleep: (&sleeps{}).sleep})
	_, err := r.Complete(context.Background(), UserText("t", "", "hi"))
	if ErrorKind(err) != KindUnavailable || m.calls != 1 {
		t.Errorf("zero policy: %v after %d calls; want one attempt", err, m.calls)
	}
	if r.Name() != "test/scripted" {
		t.Errorf("Name() = %q; want the wrapped model's", r.Name())
	}
	s := &sleeps{}
	m = &scripted{outcomes: []func(context.Context) (*Response, error){fail(overloaded), fail(overloaded), succeed("a")}}
	if _, err := Retry(m, RetryPolicy{Attempts: 3, InitialDelay: time.Second, Sleep: s.sleep}).Complete(context.Background(), UserText("t", "", "hi")); err != nil {
		t.Fatal(err)
	}
	if want := []time.Duration{time.Second, 2 * time.Second}; !reflect.DeepEqual(s.waits, want) {
		t.Errorf("waits with no multiplier = %v; want %v (it defaults to 2)", s.waits, want)
	}
}

func TestRetryable(t *testing.T) {
	tests := []struct {
		e    *Error
		want bool
	}{
		{rateLimited(0), true},
		{overloaded, true},
		{&Error{Kind: KindUnavailable, Status: 500}, true},
		{unreachable, true},
		{&Error{Kind: KindUnauthorized, Status: 401}, false},
		{badRequest, false},
		{&Error{Kind: KindMalformed, Status: 200}, false},
		{&Error{Kind: KindMalformed}, false},
		{&Error{Kind: KindInvalid}, false},
	}
	for _, tt := range tests {
		if got := tt.e.Retryable(); got != tt.want {
			t.Errorf("%+v.Retryable() = %v; want %v", tt.e, got, tt.want)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"none", nil, 0},
		{"milliseconds", map[string]string{"Retry-After-Ms": "1500"}, 1500 * time.Millisecond},
		{"fractional milliseconds", map[string]string{"Retry-After-Ms": "0.5"}, 500 * time.Microsecond},
		{"milliseconds before seconds", map[string]string{"Retry-After-Ms": "250", "Retry-After": "9"}, 250 * time.Millisecond},
		{"bad milliseconds fall back to seconds", map[string]string{"Retry-After-Ms": "soon", "Retry-After": "9"}, 9 * time.Second},
		{"zero milliseconds fall back", map[string]string{"Retry-After-Ms": "0", "Retry-After": "2"}, 2 * time.Second},
		{"seconds", map[string]string{"Retry-After": "3"}, 3 * time.Second},
		{"fractional seconds", map[string]string{"Retry-After": "2.5"}, 2500 * time.Millisecond},
		{"zero seconds", map[string]string{"Retry-After": "0"}, 0},
		{"negative seconds", map[string]string{"Retry-After": "-4"}, 0},
		{"http date", map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second},
		{"http date in the past", map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0},
		{"http date now", map[string]string{"Retry-After": now.Format(http.TimeFormat)}, 0},
		{"garbage", map[string]string{"Retry-After": "in a while"}, 0},
		{"empty", map[string]string{"Retry-After": ""}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			if got := RetryAfter(h, now); got != tt.want {
				t.Errorf("RetryAfter(%v) = %v; want %v", tt.header, got, tt.want)
			}
		})
	}
}

// TestRetryMaxAttempts: a request's MaxAttempts caps the policy's
// attempts, and the call says how many it made, answered or failed.
func TestRetryMaxAttempts(t *testing.T) {
	tests := []struct {
		name         string
		max          int
		outcomes     []func(context.Context) (*Response, error)
		wantCalls    int
		wantAttempts int
		wantErr      bool
	}{
		{"down, one retry", 2, []func(context.Context) (*Response, error){fail(overloaded), fail(overloaded), fail(overloaded)}, 2, 2, true},
		{"down, the policy's", 0, []func(context.Context) (*Response, error){fail(overloaded), fail(overloaded), fail(overloaded)}, 3, 3, true},
		{"answers on the retry", 2, []func(context.Context) (*Response, error){fail(overloaded), succeed("ok")}, 2, 2, false},
		{"answers at once", 2, []func(context.Context) (*Response, error){succeed("ok")}, 1, 1, false},
		{"refused on the retry", 2, []func(context.Context) (*Response, error){fail(overloaded), fail(badRequest)}, 2, 2, true},
		{"refused at once", 2, []func(context.Context) (*Response, error){fail(badRequest)}, 1, 1, true},
		{"above the policy's", 9, []func(context.Context) (*Response, error){fail(overloaded), fail(overloaded), fail(overloaded), succeed("ok")}, 3, 3, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &scripted{outcomes: tc.outcomes}
			req := UserText("t", "", "hi")
			req.MaxAttempts = tc.max
			resp, err := Retry(m, policy(&sleeps{})).Complete(context.Background(), req)
			got := 0
			if err != nil {
				got = Attempts(err)
			} else {
				got = resp.Attempts
			}
			if m.calls != tc.wantCalls || got != tc.wantAttempts || (err != nil) != tc.wantErr {
				t.Errorf("Complete = %v, %v after %d calls, %d attempts said; want error %v after %d calls, %d said",
					resp, err, m.calls, got, tc.wantErr, tc.wantCalls, tc.wantAttempts)
			}
		})
	}
	if n := Attempts(errors.New("not a model error")); n != 1 {
		t.Errorf("Attempts(a plain error) = %d; want 1", n)
	}
}
