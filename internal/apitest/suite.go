package apitest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/llm"
)

// Now is the fixed time of provider tests.
var Now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// Clock returns Now, for a client's Now option.
func Clock() time.Time { return Now }

// Suite is the behaviour every provider client shares: how it maps HTTP
// failures to llm errors, how it works under llm.Retry, and that its key
// stays out of errors. Run it once per provider.
type Suite struct {
	// Provider is the name errors carry, for example "anthropic".
	Provider string
	// New returns the client under test, sending to the server at url
	// with Key and reading the time from Clock.
	New func(url string) llm.Model
	Key string
	// OK is a successful reply with text.
	OK Reply
	// Error is the provider's JSON error reply.
	Error func(status int, typ, message string) Reply
	// Overloaded is the status the provider sends when it is busy: 529
	// for Anthropic, 503 for OpenAI.
	Overloaded int
}

// Run runs the suite.
func (s Suite) Run(t *testing.T) {
	t.Run("errors", s.testErrors)
	t.Run("retry", s.testRetry)
	t.Run("connection refused", s.testConnectionRefused)
	t.Run("canceled", s.testCanceled)
	t.Run("key not in errors", s.testKeyNotInErrors)
}

func (s Suite) complete(m llm.Model) (*llm.Response, error) {
	return m.Complete(context.Background(), llm.UserText("test", "", "hi"))
}

func (s Suite) withRetryAfter(status int, header map[string]string) Reply {
	r := s.Error(status, "rate_limit_error", "slow down")
	h := map[string]string{}
	for k, v := range r.Header {
		h[k] = v
	}
	for k, v := range header {
		h[k] = v
	}
	r.Header = h
	return r
}

func (s Suite) testErrors(t *testing.T) {
	tests := []struct {
		name       string
		reply      Reply
		kind       llm.Kind
		status     int
		retryAfter time.Duration
		message    string
	}{
		{"unauthorized", s.Error(401, "authentication_error", "invalid api key"), llm.KindUnauthorized, 401, 0, "invalid api key"},
		{"forbidden", s.Error(403, "permission_error", "no access to this model"), llm.KindUnauthorized, 403, 0, "no access to this model"},
		{"bad request", s.Error(400, "invalid_request_error", "max_tokens is too large"), llm.KindInvalid, 400, 0, "max_tokens is too large"},
		{"unknown model", s.Error(404, "not_found_error", "model not found"), llm.KindInvalid, 404, 0, "model not found"},
		{"rate limited", s.withRetryAfter(429, map[string]string{"Retry-After": "7"}), llm.KindRateLimited, 429, 7 * time.Second, "slow down"},
		{"rate limited in milliseconds", s.withRetryAfter(429, map[string]string{"Retry-After-Ms": "1500"}), llm.KindRateLimited, 429, 1500 * time.Millisecond, "slow down"},
		{"overloaded", s.Error(s.Overloaded, "overloaded_error", "Overloaded"), llm.KindUnavailable, s.Overloaded, 0, "Overloaded"},
		{"internal", s.Error(500, "api_error", "Internal server error"), llm.KindUnavailable, 500, 0, "Internal server error"},
		{"html 502", Reply{Status: http.StatusBadGateway, Header: map[string]string{"Content-Type": "text/html"},
			Body: "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>"},
			llm.KindUnavailable, 502, 0, "Bad Gateway (an HTML page, not an API answer)"},
		{"plain text 503", Reply{Status: 503, Header: map[string]string{"Content-Type": "text/plain"}, Body: "upstream connect error or disconnect/reset before headers"},
			llm.KindUnavailable, 503, 0, "Service Unavailable: upstream connect error"},
		{"malformed json", OK(`{"id":"x","content":[{"type":"text","text":"hi"`), llm.KindMalformed, 200, 0, "unreadable reply"},
		{"html 200", Reply{Header: map[string]string{"Content-Type": "text/html"}, Body: "<html>captive portal</html>"}, llm.KindMalformed, 200, 0, "unreadable reply"},
		{"truncated body", Reply{Header: map[string]string{"Content-Type": "application/json", "Content-Length": "400"}, Body: `{"id":"x"`},
			llm.KindMalformed, 200, 0, "unreadable reply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t, tt.reply)
			_, err := s.complete(s.New(srv.URL))
			var e *llm.Error
			if !errors.As(err, &e) {
				t.Fatalf("Complete error = %v; want *llm.Error", err)
			}
			if e.Kind != tt.kind || e.Status != tt.status || e.RetryAfter != tt.retryAfter || e.Provider != s.Provider {
				t.Errorf("error = {%s %d %s %s}; want {%s %d %s %s}", e.Kind, e.Status, e.RetryAfter, e.Provider, tt.kind, tt.status, tt.retryAfter, s.Provider)
			}
			if !strings.Contains(e.Message, tt.message) {
				t.Errorf("message = %q; want it to contain %q", e.Message, tt.message)
			}
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("%d requests; want exactly 1 (the SDK must not retry)", n)
			}
		})
	}
}

func (s Suite) testRetry(t *testing.T) {
	busy := s.Error(s.Overloaded, "overloaded_error", "Overloaded")
	tests := []struct {
		name     string
		replies  []Reply
		waits    []time.Duration
		kind     llm.Kind // "" when the call succeeds
		status   int
		requests int
	}{
		{"rate limited twice then success", []Reply{
			s.withRetryAfter(429, map[string]string{"Retry-After": Now.Add(5 * time.Second).Format(http.TimeFormat)}),
			s.withRetryAfter(429, map[string]string{"Retry-After-Ms": "500"}),
			s.OK,
		}, []time.Duration{5 * time.Second, 2 * time.Second}, "", 0, 3},
		{"overloaded three times", []Reply{busy, busy, busy},
			[]time.Duration{time.Second, 2 * time.Second}, llm.KindUnavailable, s.Overloaded, 3},
		{"500 then success", []Reply{s.Error(500, "api_error", "Internal server error"), s.OK},
			[]time.Duration{time.Second}, "", 0, 2},
		{"unauthorized at once", []Reply{s.Error(401, "authentication_error", "invalid api key")},
			nil, llm.KindUnauthorized, 401, 1},
		{"malformed at once", []Reply{OK(`{"id":`)},
			nil, llm.KindMalformed, 200, 1},
		{"retry-after past the cap", []Reply{s.withRetryAfter(429, map[string]string{"Retry-After": "120"})},
			nil, llm.KindUnavailable, 429, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t, tt.replies...)
			sleeps := new(Sleeps)
			p := llm.DefaultRetryPolicy()
			p.Sleep = sleeps.Sleep
			resp, err := s.complete(llm.Retry(s.New(srv.URL), p))
			if got := sleeps.Waits(); !reflect.DeepEqual(got, tt.waits) {
				t.Errorf("waits = %v; want %v", got, tt.waits)
			}
			if n := len(srv.Requests()); n != tt.requests {
				t.Errorf("%d requests; want %d", n, tt.requests)
			}
			if tt.kind == "" {
				if err != nil {
					t.Fatal(err)
				}
				if resp.Attempts != tt.requests || resp.Text == "" {
					t.Errorf("Attempts, Text = %d, %q; want %d and the reply", resp.Attempts, resp.Text, tt.requests)
				}
				return
			}
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != tt.kind || e.Status != tt.status {
				t.Errorf("error = %v; want kind %s, status %d", err, tt.kind, tt.status)
			}
		})
	}
}

func (s Suite) testConnectionRefused(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	ts.Close()
	_, err := s.complete(s.New(ts.URL))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindUnavailable || e.Status != 0 || !e.Retryable() || e.Provider != s.Provider {
		t.Fatalf("Complete against a closed port = %#v; want retryable %s with status 0", err, llm.KindUnavailable)
	}
	if strings.Contains(err.Error(), s.Key) {
		t.Errorf("error %q contains the API key", err)
	}
}

func (s Suite) testCanceled(t *testing.T) {
	srv := New(t, s.OK)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.New(srv.URL).Complete(ctx, llm.UserText("test", "", "hi"))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Complete with a canceled context = %v; want context.Canceled", err)
	}
}

// A server or proxy that echoes the key must not put it in the error.
func (s Suite) testKeyNotInErrors(t *testing.T) {
	srv := New(t, s.Error(401, "authentication_error", "invalid api key: "+s.Key))
	m := llm.Retry(s.New(srv.URL), llm.RetryPolicy{Attempts: 3, Sleep: new(Sleeps).Sleep})
	_, err := s.complete(m)
	if err == nil {
		t.Fatal("Complete succeeded; want 401")
	}
	for _, text := range []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)} {
		if strings.Contains(text, s.Key) {
			t.Errorf("error text %q contains the API key", text)
		}
	}
	if !strings.Contains(err.Error(), "invalid api key: [redacted]") {
		t.Errorf("error = %q; want the provider's message with the key cut out", err)
	}
}
