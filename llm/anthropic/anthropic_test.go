package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/quarry-dev/quarry/internal/apitest"
	"github.com/quarry-dev/quarry/llm"
)

const testKey = "sk-ant-api03-test-key-do-not-print"

func newClient(srv *apitest.Server, model string) *Client {
	return New(Options{APIKey: testKey, Model: model, BaseURL: srv.URL, Now: apitest.Clock})
}

func TestCompleteSendsConversation(t *testing.T) {
	srv := apitest.New(t, apitest.File(t, "testdata/text.response.json"))
	resp, err := newClient(srv, "claude-sonnet-4-5").Complete(context.Background(), apitest.Conversation())
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
	apitest.EqualResponse(t, resp, &llm.Response{Text: "Revenue fell 12% because of the EU region.", Usage: llm.Usage{InputTokens: 412, OutputTokens: 27}, StopReason: "end"})
}

func TestCompleteToolCalls(t *testing.T) {
	srv := apitest.New(t, apitest.File(t, "testdata/tool_use.response.json"))
	resp, err := newClient(srv, "claude-sonnet-4-5").Complete(context.Background(), apitest.Conversation())
	if err != nil {
		t.Fatal(err)
	}
	// Cached prompt tokens count as input: 1000 + 200 + 300.
	apitest.EqualResponse(t, resp, &llm.Response{
		Text: "I will split revenue by region.",
		ToolCalls: []llm.ToolCall{
			{ID: "toolu_01A09q90qw90lq917835lq9", Name: "run_sql", Arguments: json.RawMessage(`{"sql":"SELECT region, SUM(revenue) FROM orders GROUP BY 1"}`)},
			{ID: "toolu_01B7x2", Name: "list_tables", Arguments: json.RawMessage(`{}`)},
		},
		Usage:      llm.Usage{InputTokens: 1500, OutputTokens: 85},
		StopReason: "tool_use",
	})
}

func TestCompleteStructuredOutput(t *testing.T) {
	srv := apitest.New(t, apitest.File(t, "testdata/structured.response.json"))
	resp, err := newClient(srv, "claude-haiku-4-5").Complete(context.Background(), apitest.Verdict())
	if err != nil {
		t.Fatal(err)
	}
	apitest.EqualJSON(t, srv.Last().Body, "testdata/structured.request.json")
	// The output tool's input is the text, not a tool call.
	apitest.EqualResponse(t, resp, &llm.Response{Text: `{"supported": true, "confidence": 0.8, "reason": "EU orders fell 30%"}`,
		Usage: llm.Usage{InputTokens: 640, OutputTokens: 41}, StopReason: "end"})
}

func TestStructuredOutputWithoutTheToolIsMalformed(t *testing.T) {
	srv := apitest.New(t, apitest.File(t, "testdata/text.response.json"))
	_, err := newClient(srv, "claude-haiku-4-5").Complete(context.Background(), apitest.Verdict())
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

func jsonError(status int, typ, msg string) apitest.Reply {
	return apitest.Reply{Status: status, Header: map[string]string{"Content-Type": "application/json"},
		Body: fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":%q},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}`, typ, msg)}
}

func TestSuite(t *testing.T) {
	apitest.Suite{
		Provider: "anthropic",
		New: func(url string) llm.Model {
			return New(Options{APIKey: testKey, Model: "claude-sonnet-4-5", BaseURL: url, Now: apitest.Clock})
		},
		Key:        testKey,
		OK:         apitest.File(t, "testdata/text.response.json"),
		Error:      jsonError,
		Overloaded: 529,
	}.Run(t)
}

func TestErrorMessages(t *testing.T) {
	tests := []struct {
		reply   apitest.Reply
		kind    llm.Kind
		message string
	}{
		{jsonError(529, "overloaded_error", "Overloaded"), llm.KindUnavailable, "overloaded_error: Overloaded"},
		{apitest.OK(`{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":0}}`),
			llm.KindMalformed, `reply has no text and no tool call (stop reason "end_turn")`},
		{apitest.OK(`{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"thinking","thinking":"hm","signature":"x"}],"stop_reason":"max_tokens","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":5}}`),
			llm.KindMalformed, `reply has no text and no tool call (stop reason "max_tokens")`},
	}
	for _, tt := range tests {
		srv := apitest.New(t, tt.reply)
		_, err := newClient(srv, "claude-sonnet-4-5").Complete(context.Background(), llm.UserText("t", "", "hi"))
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != tt.kind || e.Message != tt.message {
			t.Errorf("Complete = %v; want %s %q", err, tt.kind, tt.message)
		}
	}
}

func TestDefaultEndpoint(t *testing.T) {
	srv := apitest.New(t, apitest.File(t, "testdata/text.response.json"))
	c := New(Options{APIKey: testKey, Model: "claude-sonnet-4-5", HTTPClient: srv.Client()})
	if _, err := c.Complete(context.Background(), llm.UserText("t", "", "hi")); err != nil {
		t.Fatal(err)
	}
	if r := srv.Last(); r.Host != "api.anthropic.com" || r.Path != "/v1/messages" {
		t.Errorf("request went to %s%s; want api.anthropic.com/v1/messages", r.Host, r.Path)
	}
}
