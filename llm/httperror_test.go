package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestHTTPError(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	long := strings.Repeat("é", 400)
	tests := []struct {
		name    string
		status  int
		header  map[string]string
		body    string
		kind    Kind
		after   time.Duration
		message string
	}{
		{"anthropic", 529, nil, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			KindUnavailable, 0, "overloaded_error: Overloaded"},
		{"openai", 429, map[string]string{"Retry-After": "20"}, `{"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}`,
			KindRateLimited, 20 * time.Second, "requests: Rate limit reached"},
		{"openai without a type", 404, nil, `{"error":{"message":"The model 'x' does not exist"}}`,
			KindInvalid, 0, "The model 'x' does not exist"},
		{"ollama", 404, nil, `{"error":"model \"llama9\" not found, try pulling it first"}`,
			KindInvalid, 0, `model "llama9" not found, try pulling it first`},
		{"top-level message", 401, nil, `{"message":"Unauthorized"}`,
			KindUnauthorized, 0, "Unauthorized"},
		{"json without a message", 500, nil, `{"detail":"x"}`,
			KindUnavailable, 0, `Internal Server Error: {"detail":"x"}`},
		{"plain text", 503, map[string]string{"Retry-After-Ms": "1200"}, "upstream connect error\n  or disconnect",
			KindUnavailable, 1200 * time.Millisecond, "Service Unavailable: upstream connect error or disconnect"},
		{"html", 502, nil, "\n<html><body>Bad gateway</body></html>", KindUnavailable, 0, "Bad Gateway (an HTML page, not an API answer)"},
		{"empty", 403, nil, "", KindUnauthorized, 0, "Forbidden"},
		{"unknown status", 599, nil, "", KindUnavailable, 0, "status 599"},
		{"long message cut on a rune", 400, nil, `{"error":{"message":"` + long + `"}}`, KindInvalid, 0, strings.Repeat("é", 150) + "..."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			e := HTTPError("p", tt.status, h, []byte(tt.body), now)
			if e.Kind != tt.kind || e.Status != tt.status || e.RetryAfter != tt.after || e.Provider != "p" || e.Message != tt.message {
				t.Errorf("HTTPError = {%s %d %s %s %q}; want {%s %d %s p %q}", e.Kind, e.Status, e.RetryAfter, e.Provider, e.Message, tt.kind, tt.status, tt.after, tt.message)
			}
		})
	}
}

func TestCallError(t *testing.T) {
	const key = "sk-secret"
	refused := &url.Error{Op: "Post", URL: "http://localhost:11434/v1/chat/completions", Err: syscall.ECONNREFUSED}
	resp := func(status int, body string) *http.Response {
		return &http.Response{StatusCode: status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(body))}
	}
	tests := []struct {
		name    string
		resp    *http.Response
		err     error
		kind    Kind
		status  int
		message string
	}{
		{"error status", resp(401, `{"error":{"message":"Incorrect API key provided: sk-secret"}}`), errors.New("sdk"),
			KindUnauthorized, 401, "Incorrect API key provided: [redacted]"},
		{"error status without a body", &http.Response{StatusCode: 500}, errors.New("sdk"), KindUnavailable, 500, "Internal Server Error"},
		{"unreadable success", resp(200, ""), errors.New("error parsing response json: unexpected EOF"),
			KindMalformed, 200, "unreadable reply: error parsing response json: unexpected EOF"},
		{"no answer", nil, refused, KindUnavailable, 0, "no answer: Post"},
		{"not sent", nil, errors.New("requestoption: WithBaseURL failed to parse url"), KindInvalid, 0, "request not sent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CallError(context.Background(), "openai", key, tt.resp, tt.err, time.Time{})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("CallError = %v; want *Error", err)
			}
			if e.Kind != tt.kind || e.Status != tt.status || e.Provider != "openai" || !strings.Contains(e.Message, tt.message) {
				t.Errorf("CallError = {%s %d %s %q}; want {%s %d openai ...%q...}", e.Kind, e.Status, e.Provider, e.Message, tt.kind, tt.status, tt.message)
			}
			if strings.Contains(err.Error(), key) {
				t.Errorf("%q contains the key", err)
			}
		})
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := CallError(ctx, "openai", key, nil, refused, time.Time{}); err != context.Canceled {
		t.Errorf("CallError with an ended context = %v; want context.Canceled", err)
	}
}
