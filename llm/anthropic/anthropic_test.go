package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/internal/apitest"
	"github.com/quarry-dev/quarry/llm"
)

const testKey = "sk-ant-api03-test-key-do-not-print"

var testNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func newClient(srv *apitest.Server, model string) *Client {
	return New(Options{APIKey: testKey, Model: model, BaseURL: srv.URL, Now: func() time.Time { return testNow }})
}

func conversation() *llm.Request {
	return &llm.Request{
		Purpose: "decide",
		System:  "You are Quarry, a data analyst.",
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "Why did revenue fall?"},
			{Role: llm.RoleAssistant, Content: "Let me look.", ToolCalls: []llm.ToolCall{
				{ID: "toolu_1", Name: "run_sql", Arguments: json.RawMessage(`{"sql": "SELECT 1"}`)},
				{ID: "toolu_2", Name: "list_tables"},
			}},
			{Role: llm.RoleTool, ToolResult: &llm.ToolResult{CallID: "toolu_1", Content: "1"}},
			{Role: llm.RoleTool, ToolResult: &llm.ToolResult{CallID: "toolu_2", Content: "no such table", IsError: true}},
			{Role: llm.RoleUser, Content: "Go on."},
		},
		Tools: []llm.Tool{
			{Name: "run_sql", Description: "Run one read-only SQL query.",
				Parameters: json.RawMessage(`{"type":"object","properties":{"sql":{"type":"string"}},"required":["sql"]}`)},
			{Name: "list_tables"},
		},
	}
}

func TestCompleteSendsConversation(t *testing.T) {
	srv := apitest.New(t, apitest.File(t, "testdata/text.response.json"))
	resp, err := newClient(srv, "claude-sonnet-4-5").Complete(context.Background(), conversation())
	if err != nil {
		t.Fatal(err)
	}
	r := srv.Last()
	if r.Method != http.MethodPost || r.Path != "/v1/messages" {
		t.Errorf("request = %s %s; want POST /v1/messages", r.Method, r.Path)
	}
	for h, want := range map[string]string{"X-Api-Key": testKey, "Anthropic-Version": "2023-06-01", "Authorization": "", "Content-Type": "application/json"} {
		if got := r.Header.Get(h); got != want {
			t.Errorf("header %s = %q; want %q", h, got, want)
		}
	}
	apitest.EqualJSON(t, r.Body, "testdata/conversation.request.json")
	want := &llm.Response{Text: "Revenue fell 12% because of the EU region.", Usage: llm.Usage{InputTokens: 412, OutputTokens: 27}, StopReason: "end"}
	if !reflect.DeepEqual(resp, want) {
		t.Errorf("Complete = %+v; want %+v", resp, want)
	}
}

func TestCompleteToolCalls(t *testing.T) {
	srv := apitest.New(t, apitest.File(t, "testdata/tool_use.response.json"))
	resp, err := newClient(srv, "claude-sonnet-4-5").Complete(context.Background(), conversation())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "I will split revenue by region." || resp.StopReason != "tool_use" {
		t.Errorf("Text, StopReason = %q, %q; want the text block and tool_use", resp.Text, resp.StopReason)
	}
	// Cached prompt tokens count as input: 1000 + 200 + 300.
	if want := (llm.Usage{InputTokens: 1500, OutputTokens: 85}); resp.Usage != want {
		t.Errorf("Usage = %+v; want %+v", resp.Usage, want)
	}
	want := []llm.ToolCall{
		{ID: "toolu_01A09q90qw90lq917835lq9", Name: "run_sql", Arguments: json.RawMessage(`{"sql":"SELECT region, SUM(revenue) FROM orders GROUP BY 1"}`)},
		{ID: "toolu_01B7x2", Name: "list_tables", Arguments: json.RawMessage(`{}`)},
	}
	if len(resp.ToolCalls) != len(want) {
		t.Fatalf("ToolCalls = %+v; want %+v", resp.ToolCalls, want)
	}
	for i, c := range resp.ToolCalls {
		if c.ID != want[i].ID || c.Name != want[i].Name || compact(t, c.Arguments) != string(want[i].Arguments) {
			t.Errorf("ToolCalls[%d] = %s %s %s; want %s %s %s", i, c.ID, c.Name, c.Arguments, want[i].ID, want[i].Name, want[i].Arguments)
		}
	}
}

func verdictRequest() *llm.Request {
	req := llm.UserText("verify", "", "Is the EU hypothesis supported?")
	req.MaxTokens = 500
	req.Output = &llm.Schema{Name: "verdict", Schema: json.RawMessage(`{"type":"object",
		"properties":{"supported":{"type":"boolean"},"confidence":{"type":"number"},"reason":{"type":"string"}},
		"required":["supported","confidence","reason"],"additionalProperties":false}`)}
	return req
}

func TestCompleteStructuredOutput(t *testing.T) {
	srv := apitest.New(t, apitest.File(t, "testdata/structured.response.json"))
	resp, err := newClient(srv, "claude-haiku-4-5").Complete(context.Background(), verdictRequest())
	if err != nil {
		t.Fatal(err)
	}
	apitest.EqualJSON(t, srv.Last().Body, "testdata/structured.request.json")
	if got, want := compact(t, json.RawMessage(resp.Text)), `{"supported":true,"confidence":0.8,"reason":"EU orders fell 30%"}`; got != want {
		t.Errorf("Text = %s; want %s", got, want)
	}
	if len(resp.ToolCalls) != 0 || resp.StopReason != "end" {
		t.Errorf("ToolCalls, StopReason = %+v, %q; want none and end: the output tool is not a tool call", resp.ToolCalls, resp.StopReason)
	}
	if want := (llm.Usage{InputTokens: 640, OutputTokens: 41}); resp.Usage != want {
		t.Errorf("Usage = %+v; want %+v", resp.Usage, want)
	}
}

func TestStructuredOutputWithoutTheToolIsMalformed(t *testing.T) {
	srv := apitest.New(t, apitest.File(t, "testdata/text.response.json"))
	_, err := newClient(srv, "claude-haiku-4-5").Complete(context.Background(), verdictRequest())
	if k := llm.ErrorKind(err); k != llm.KindMalformed {
		t.Errorf("Complete with a text reply to a structured request: kind %q (%v); want %s", k, err, llm.KindMalformed)
	}
}

// The SDK must not read ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL: Quarry's
// configuration is the only source, and a local proxy gets no key.
func TestNoKeyAndNoEnvironment(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-from-environment")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "token-from-environment")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	srv := apitest.New(t, apitest.File(t, "testdata/text.response.json"))
	c := New(Options{Model: "claude-sonnet-4-5", BaseURL: srv.URL})
	if _, err := c.Complete(context.Background(), llm.UserText("t", "", "hi")); err != nil {
		t.Fatal(err)
	}
	h := srv.Last().Header
	if h.Get("X-Api-Key") != "" || h.Get("Authorization") != "" {
		t.Errorf("x-api-key = %q, authorization = %q; want neither without a key", h.Get("X-Api-Key"), h.Get("Authorization"))
	}
}

func TestName(t *testing.T) {
	if got := New(Options{Model: "claude-sonnet-4-5"}).Name(); got != "anthropic/claude-sonnet-4-5" {
		t.Errorf("Name() = %q; want anthropic/claude-sonnet-4-5", got)
	}
}

func TestInvalidMessageIsNotSent(t *testing.T) {
	srv := apitest.New(t)
	req := &llm.Request{Messages: []llm.Message{{Role: llm.RoleTool, Content: "result without a call id"}}}
	_, err := newClient(srv, "claude-sonnet-4-5").Complete(context.Background(), req)
	if k := llm.ErrorKind(err); k != llm.KindInvalid {
		t.Errorf("tool message without ToolResult: kind %q (%v); want %s", k, err, llm.KindInvalid)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent; want 0", n)
	}
}

func errorBody(typ, msg string) string {
	return fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":%q},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}`, typ, msg)
}

func jsonError(status int, typ, msg string) apitest.Reply {
	return apitest.Reply{Status: status, Header: map[string]string{"Content-Type": "application/json"}, Body: errorBody(typ, msg)}
}

func TestErrors(t *testing.T) {
	html := apitest.Reply{Status: http.StatusBadGateway, Header: map[string]string{"Content-Type": "text/html"},
		Body: "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>"}
	tests := []struct {
		name       string
		reply      apitest.Reply
		kind       llm.Kind
		status     int
		retryAfter time.Duration
		message    string
	}{
		{"unauthorized", jsonError(401, "authentication_error", "invalid x-api-key"), llm.KindUnauthorized, 401, 0, "authentication_error: invalid x-api-key"},
		{"forbidden", jsonError(403, "permission_error", "no access to this model"), llm.KindUnauthorized, 403, 0, "permission_error"},
		{"unknown model", jsonError(404, "not_found_error", "model: claude-nope"), llm.KindInvalid, 404, 0, "not_found_error: model: claude-nope"},
		{"bad request", jsonError(400, "invalid_request_error", "max_tokens: must be positive"), llm.KindInvalid, 400, 0, "max_tokens"},
		{"rate limited", apitest.Reply{Status: 429, Header: map[string]string{"Retry-After": "7"}, Body: errorBody("rate_limit_error", "slow down")},
			llm.KindRateLimited, 429, 7 * time.Second, "rate_limit_error: slow down"},
		{"overloaded", jsonError(529, "overloaded_error", "Overloaded"), llm.KindUnavailable, 529, 0, "overloaded_error: Overloaded"},
		{"internal", jsonError(500, "api_error", "Internal server error"), llm.KindUnavailable, 500, 0, "api_error"},
		{"html 502", html, llm.KindUnavailable, 502, 0, "Bad Gateway (an HTML page, not an API answer)"},
		{"malformed json", apitest.OK(`{"id":"msg_1","type":"message","content":[{"type":"text","text":"hi"`), llm.KindMalformed, 200, 0, "unreadable reply"},
		{"html 200", apitest.Reply{Header: map[string]string{"Content-Type": "text/html"}, Body: "<html>captive portal</html>"}, llm.KindMalformed, 200, 0, "unreadable reply"},
		{"truncated body", apitest.Reply{Header: map[string]string{"Content-Type": "application/json", "Content-Length": "400"}, Body: `{"id":"msg_1"`},
			llm.KindMalformed, 200, 0, "unreadable reply"},
		{"no content", apitest.OK(`{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":0}}`),
			llm.KindMalformed, 200, 0, "no text and no tool call"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := apitest.New(t, tt.reply)
			_, err := newClient(srv, "claude-sonnet-4-5").Complete(context.Background(), llm.UserText("t", "", "hi"))
			var e *llm.Error
			if !errors.As(err, &e) {
				t.Fatalf("Complete error = %v; want *llm.Error", err)
			}
			if e.Kind != tt.kind || e.Status != tt.status || e.RetryAfter != tt.retryAfter || e.Provider != "anthropic" {
				t.Errorf("error = {%s %d %s %s}; want {%s %d %s anthropic}", e.Kind, e.Status, e.RetryAfter, e.Provider, tt.kind, tt.status, tt.retryAfter)
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

func TestConnectionRefusedIsUnavailable(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	ts.Close()
	_, err := New(Options{APIKey: testKey, Model: "claude-sonnet-4-5", BaseURL: ts.URL}).Complete(context.Background(), llm.UserText("t", "", "hi"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindUnavailable || e.Status != 0 || !e.Retryable() {
		t.Fatalf("Complete against a closed port = %#v; want retryable %s with status 0", err, llm.KindUnavailable)
	}
	if strings.Contains(err.Error(), testKey) {
		t.Errorf("error %q contains the API key", err)
	}
}

func TestCanceledContext(t *testing.T) {
	srv := apitest.New(t, apitest.File(t, "testdata/text.response.json"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := newClient(srv, "claude-sonnet-4-5").Complete(ctx, llm.UserText("t", "", "hi"))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Complete with a canceled context = %v; want context.Canceled", err)
	}
}

// A server or proxy that echoes the key must not put it in the error.
func TestKeyNotInErrors(t *testing.T) {
	srv := apitest.New(t, jsonError(401, "authentication_error", "invalid x-api-key: "+testKey))
	m := llm.Retry(newClient(srv, "claude-sonnet-4-5"), llm.RetryPolicy{Attempts: 3, Sleep: new(apitest.Sleeps).Sleep})
	_, err := m.Complete(context.Background(), llm.UserText("t", "", "hi"))
	if err == nil {
		t.Fatal("Complete succeeded; want 401")
	}
	for _, s := range []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)} {
		if strings.Contains(s, testKey) {
			t.Errorf("error text %q contains the API key", s)
		}
	}
	if !strings.Contains(err.Error(), "invalid x-api-key: [redacted]") {
		t.Errorf("error = %q; want the provider's message with the key cut out", err)
	}
}

func TestRetry(t *testing.T) {
	ok := apitest.File(t, "testdata/text.response.json")
	tests := []struct {
		name     string
		replies  []apitest.Reply
		waits    []time.Duration
		kind     llm.Kind // "" when the call succeeds
		status   int
		attempts int
	}{
		{"rate limited twice then success", []apitest.Reply{
			{Status: 429, Header: map[string]string{"Retry-After": testNow.Add(5 * time.Second).Format(http.TimeFormat)}, Body: errorBody("rate_limit_error", "slow down")},
			{Status: 429, Header: map[string]string{"Retry-After-Ms": "500"}, Body: errorBody("rate_limit_error", "slow down")},
			ok,
		}, []time.Duration{5 * time.Second, 2 * time.Second}, "", 0, 3},
		{"overloaded three times", []apitest.Reply{
			jsonError(529, "overloaded_error", "Overloaded"), jsonError(529, "overloaded_error", "Overloaded"), jsonError(529, "overloaded_error", "Overloaded"),
		}, []time.Duration{time.Second, 2 * time.Second}, llm.KindUnavailable, 529, 3},
		{"500 then success", []apitest.Reply{jsonError(500, "api_error", "Internal server error"), ok},
			[]time.Duration{time.Second}, "", 0, 2},
		{"unauthorized at once", []apitest.Reply{jsonError(401, "authentication_error", "invalid x-api-key")},
			nil, llm.KindUnauthorized, 401, 1},
		{"retry-after past the cap", []apitest.Reply{{Status: 429, Header: map[string]string{"Retry-After": "120"}, Body: errorBody("rate_limit_error", "slow down")}},
			nil, llm.KindUnavailable, 429, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := apitest.New(t, tt.replies...)
			sleeps := new(apitest.Sleeps)
			p := llm.DefaultRetryPolicy()
			p.Sleep = sleeps.Sleep
			resp, err := llm.Retry(newClient(srv, "claude-sonnet-4-5"), p).Complete(context.Background(), llm.UserText("t", "", "hi"))
			if got := sleeps.Waits(); !reflect.DeepEqual(got, tt.waits) {
				t.Errorf("waits = %v; want %v", got, tt.waits)
			}
			if n := len(srv.Requests()); n != tt.attempts {
				t.Errorf("%d requests; want %d", n, tt.attempts)
			}
			if tt.kind == "" {
				if err != nil {
					t.Fatal(err)
				}
				if resp.Attempts != tt.attempts || resp.Text == "" {
					t.Errorf("Attempts, Text = %d, %q; want %d and the reply", resp.Attempts, resp.Text, tt.attempts)
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

func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return b.String()
}
