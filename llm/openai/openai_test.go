package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/quarry-dev/quarry/internal/apitest"
	"github.com/quarry-dev/quarry/llm"
)

const testKey = "sk-proj-test-key-do-not-print"

// local is a client for an OpenAI-compatible server at srv, as Ollama is
// configured: a /v1 base URL and no key.
func local(srv *apitest.Server, model string) *Client {
	return New(Options{Model: model, EmbeddingModel: "nomic-embed-text", BaseURL: srv.URL + "/v1", Now: apitest.Clock})
}

// toOpenAI is a client for api.openai.com whose requests reach srv.
func toOpenAI(srv *apitest.Server) *Client {
	return New(Options{APIKey: testKey, Model: "gpt-4.1-mini", HTTPClient: srv.Client()})
}

func TestCompleteSendsConversation(t *testing.T) {
	srv := apitest.New(t, apitest.File(t, "testdata/text.response.json"))
	resp, err := toOpenAI(srv).Complete(context.Background(), apitest.Conversation())
	if err != nil {
		t.Fatal(err)
	}
	r := srv.Last()
	if r.Method != http.MethodPost || r.Host != "api.openai.com" || r.Path != "/v1/chat/completions" {
		t.Errorf("request = %s %s%s; want POST api.openai.com/v1/chat/completions", r.Method, r.Host, r.Path)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("Authorization = %q; want the bearer key", got)
	}
	// api.openai.com gets max_completion_tokens, which its reasoning
	// models require.
	apitest.EqualJSON(t, r.Body, "testdata/conversation.request.json")
	apitest.EqualResponse(t, resp, &llm.Response{Text: "Revenue fell 12% because of the EU region.", Usage: llm.Usage{InputTokens: 412, OutputTokens: 27}, StopReason: "end"})
}

func TestCompleteToolCalls(t *testing.T) {
	srv := apitest.New(t, apitest.File(t, "testdata/tool_calls.response.json"))
	resp, err := toOpenAI(srv).Complete(context.Background(), apitest.Conversation())
	if err != nil {
		t.Fatal(err)
	}
	apitest.EqualResponse(t, resp, &llm.Response{
		ToolCalls: []llm.ToolCall{
			{ID: "call_Qf4pZ8wCvJ2w3b", Name: "run_sql", Arguments: json.RawMessage(`{"sql":"SELECT region, SUM(revenue) FROM orders GROUP BY 1"}`)},
			{ID: "call_9xLm2", Name: "list_tables", Arguments: json.RawMessage(`{}`)},
		},
		Usage:      llm.Usage{InputTokens: 1000, OutputTokens: 85},
		StopReason: "tool_use",
	})
}

func TestCompleteStructuredOutputOnALocalServer(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-environment")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("OPENAI_ORG_ID", "org-from-environment")
	t.Setenv("OPENAI_PROJECT_ID", "proj-from-environment")
	srv := apitest.New(t, apitest.File(t, "testdata/ollama_structured.response.json"))
	resp, err := local(srv, "llama3.2").Complete(context.Background(), apitest.Verdict())
	if err != nil {
		t.Fatal(err)
	}
	r := srv.Last()
	if r.Path != "/v1/chat/completions" {
		t.Errorf("path = %s; want /v1/chat/completions under the base URL", r.Path)
	}
	// No key configured: nothing from the environment either.
	for _, h := range []string{"Authorization", "OpenAI-Organization", "OpenAI-Project"} {
		if v := r.Header.Get(h); v != "" {
			t.Errorf("header %s = %q; want none", h, v)
		}
	}
	// Other servers get max_tokens, which they all read.
	apitest.EqualJSON(t, r.Body, "testdata/structured.request.json")
	apitest.EqualResponse(t, resp, &llm.Response{Text: `{"supported": true, "confidence": 0.8, "reason": "EU orders fell 30%"}`,
		Usage: llm.Usage{InputTokens: 640, OutputTokens: 41}, StopReason: "end"})
}

func TestMalformedReplies(t *testing.T) {
	choice := func(message, finish string) apitest.Reply {
		return apitest.OK(fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion","created":1741570400,"model":"llama3.2",
			"choices":[{"index":0,"message":%s,"finish_reason":%q}],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}`, message, finish))
	}
	tests := []struct {
		name    string
		reply   apitest.Reply
		req     *llm.Request
		message string
	}{
		{"server ignored response_format", apitest.File(t, "testdata/ollama_prose.response.json"), apitest.Verdict(),
			`structured output is not JSON (finish reason "stop"): "Sure! Here is the verdict:\n`},
		{"refusal instead of structured output", choice(`{"role":"assistant","content":null,"refusal":"I can't help with that."}`, "stop"), apitest.Verdict(),
			`structured output is not JSON`},
		{"tool arguments not JSON", choice(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"run_sql","arguments":"{\"sql\": SELECT"}}]}`, "tool_calls"),
			apitest.Conversation(), "tool call call_1 (run_sql) has arguments that are not JSON"},
		{"no choices", apitest.OK(`{"id":"chatcmpl-1","object":"chat.completion","created":1741570400,"model":"llama3.2","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":0,"total_tokens":5}}`),
			apitest.Conversation(), "reply has no choices"},
		{"empty reply", choice(`{"role":"assistant","content":""}`, "length"), apitest.Conversation(),
			`reply has no text and no tool call (finish reason "length")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := apitest.New(t, tt.reply)
			_, err := local(srv, "llama3.2").Complete(context.Background(), tt.req)
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.KindMalformed || !bytes.HasPrefix([]byte(e.Message), []byte(tt.message)) {
				t.Errorf("Complete = %v; want %s starting %q", err, llm.KindMalformed, tt.message)
			}
		})
	}
}

func TestRefusal(t *testing.T) {
	srv := apitest.New(t, apitest.OK(`{"id":"chatcmpl-1","object":"chat.completion","created":1741570400,"model":"gpt-4.1-mini",
		"choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}],
		"usage":{"prompt_tokens":5,"completion_tokens":7,"total_tokens":12}}`))
	resp, err := toOpenAI(srv).Complete(context.Background(), llm.UserText("t", "", "hi"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "I can't help with that." || resp.StopReason != "refusal" {
		t.Errorf("Text, StopReason = %q, %q; want the refusal", resp.Text, resp.StopReason)
	}
}

func TestName(t *testing.T) {
	if got := New(Options{Model: "llama3.2"}).Name(); got != "openai/llama3.2" {
		t.Errorf("Name() = %q; want openai/llama3.2", got)
	}
}

func TestInvalidRequestsAreNotSent(t *testing.T) {
	tests := map[string]*llm.Request{
		"tool message without a result": {Messages: []llm.Message{{Role: llm.RoleTool, Content: "x"}}},
		"unknown role":                  {Messages: []llm.Message{{Role: "system", Content: "x"}}},
		"tool parameters not JSON": {Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}},
			Tools: []llm.Tool{{Name: "t", Parameters: json.RawMessage(`{"type":`)}}},
	}
	for name, req := range tests {
		srv := apitest.New(t)
		_, err := local(srv, "llama3.2").Complete(context.Background(), req)
		if k := llm.ErrorKind(err); k != llm.KindInvalid {
			t.Errorf("%s: kind %q (%v); want %s", name, k, err, llm.KindInvalid)
		}
		if n := len(srv.Requests()); n != 0 {
			t.Errorf("%s: %d requests sent; want 0", name, n)
		}
	}
}

func jsonError(status int, typ, msg string) apitest.Reply {
	return apitest.Reply{Status: status, Header: map[string]string{"Content-Type": "application/json"},
		Body: fmt.Sprintf(`{"error":{"message":%q,"type":%q,"param":null,"code":null}}`, msg, typ)}
}

func TestSuite(t *testing.T) {
	apitest.Suite{
		Provider: "openai",
		New: func(url string) llm.Model {
			return New(Options{APIKey: testKey, Model: "gpt-4.1-mini", BaseURL: url + "/v1", Now: apitest.Clock})
		},
		Key:        testKey,
		OK:         apitest.File(t, "testdata/text.response.json"),
		Error:      jsonError,
		Overloaded: 503,
	}.Run(t)
}

func TestEmbed(t *testing.T) {
	srv := apitest.New(t, apitest.File(t, "testdata/embeddings.response.json"))
	got, err := local(srv, "llama3.2").Embed(context.Background(), []string{"revenue by region", "orders by week"})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.Last()
	if r.Method != http.MethodPost || r.Path != "/v1/embeddings" {
		t.Errorf("request = %s %s; want POST /v1/embeddings", r.Method, r.Path)
	}
	apitest.EqualJSON(t, r.Body, "testdata/embeddings.request.json")
	// The reply lists index 1 first; vectors come back in text order.
	want := [][]float32{{0.0023064255, -0.009327292, 0.015797347}, {0.25, -0.5, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Embed = %v; want %v", got, want)
	}
}

func TestEmbedErrors(t *testing.T) {
	data := func(items string) apitest.Reply {
		return apitest.OK(`{"object":"list","data":[` + items + `],"model":"nomic-embed-text","usage":{"prompt_tokens":8,"total_tokens":8}}`)
	}
	tests := []struct {
		name    string
		reply   apitest.Reply
		kind    llm.Kind
		message string
	}{
		{"too few", data(`{"object":"embedding","index":0,"embedding":[1,2]}`), llm.KindMalformed, "1 embeddings for 2 texts"},
		{"repeated index", data(`{"object":"embedding","index":0,"embedding":[1,2]},{"object":"embedding","index":0,"embedding":[3,4]}`),
			llm.KindMalformed, "embedding index 0 out of range or repeated"},
		{"index out of range", data(`{"object":"embedding","index":0,"embedding":[1,2]},{"object":"embedding","index":2,"embedding":[3,4]}`),
			llm.KindMalformed, "embedding index 2 out of range or repeated"},
		{"dimensions differ", data(`{"object":"embedding","index":0,"embedding":[1,2]},{"object":"embedding","index":1,"embedding":[3]}`),
			llm.KindMalformed, "embedding 1 has 1 dimensions, embedding 0 has 2"},
		{"empty vector", data(`{"object":"embedding","index":0,"embedding":[]},{"object":"embedding","index":1,"embedding":[]}`),
			llm.KindMalformed, "embedding 0 has 0 dimensions"},
		{"unknown model", jsonError(404, "invalid_request_error", `model "nomic-embed-text" not found, try pulling it first`),
			llm.KindInvalid, `invalid_request_error: model "nomic-embed-text" not found`},
		{"rate limited", apitest.Reply{Status: 429, Header: map[string]string{"Retry-After": "2"}, Body: `{"error":{"message":"slow down"}}`},
			llm.KindRateLimited, "slow down"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := apitest.New(t, tt.reply)
			_, err := local(srv, "llama3.2").Embed(context.Background(), []string{"a", "b"})
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != tt.kind || !bytes.HasPrefix([]byte(e.Message), []byte(tt.message)) {
				t.Errorf("Embed = %v; want %s starting %q", err, tt.kind, tt.message)
			}
		})
	}
}

func TestEmbedSendsNothingWithoutWork(t *testing.T) {
	srv := apitest.New(t)
	got, err := local(srv, "llama3.2").Embed(context.Background(), nil)
	if got != nil || err != nil {
		t.Errorf("Embed(nil) = %v, %v; want nil, nil", got, err)
	}
	_, err = New(Options{Model: "llama3.2", BaseURL: srv.URL + "/v1"}).Embed(context.Background(), []string{"a"})
	if k := llm.ErrorKind(err); k != llm.KindInvalid {
		t.Errorf("Embed with no embedding model: kind %q (%v); want %s", k, err, llm.KindInvalid)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent; want 0", n)
	}
}
