// Package openai is the llm.Model and llm.Embedder for OpenAI and the
// servers that speak its Chat Completions and Embeddings APIs (Ollama at
// http://localhost:11434/v1, vLLM, llama.cpp, LM Studio), built on the
// official SDK.
//
// The client makes exactly one HTTP attempt per call: llm.Retry is Quarry's
// only retry policy, so the SDK's own retries are off. Structured output is
// response_format json_schema in strict mode; because some local servers
// ignore response_format, a reply that is not JSON fails with
// llm.KindMalformed. The SDK reads nothing from the environment: the key
// and base URL come from Options only, and with no key no Authorization
// header is sent.
package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/quarry-dev/quarry/llm"
)

// Options configure a Client.
type Options struct {
	// APIKey may be empty for local servers.
	APIKey string
	// Model is the chat model, for example "gpt-4.1-mini" or "llama3.2".
	Model string
	// EmbeddingModel is the model Embed uses, for example
	// "text-embedding-3-small" or "nomic-embed-text".
	EmbeddingModel string
	// BaseURL overrides https://api.openai.com/v1, for example
	// http://localhost:11434/v1 for Ollama.
	BaseURL string
	// HTTPClient sends the requests; nil means the SDK's default.
	HTTPClient *http.Client
	// Now is the clock for HTTP-date retry-after hints; nil means time.Now.
	Now func() time.Time
}

// Client is an llm.Model and llm.Embedder backed by an OpenAI-compatible
// server. It is safe for concurrent use.
type Client struct {
	chat       openai.ChatCompletionService
	embeddings openai.EmbeddingService
	model      string
	embedModel string
	key        string
	// official is true for api.openai.com, which wants
	// max_completion_tokens; other servers read max_tokens.
	official bool
	now      func() time.Time
}

var (
	_ llm.Model    = (*Client)(nil)
	_ llm.Embedder = (*Client)(nil)
)

// provider names OpenAI-compatible servers in errors.
const provider = llm.ProviderOpenAI

// New returns a client for o.Model.
func New(o Options) *Client {
	// The services are built directly rather than through openai.NewClient,
	// which would read OPENAI_API_KEY, OPENAI_BASE_URL and more from the
	// environment.
	opts := []option.RequestOption{option.WithEnvironmentProduction(), option.WithMaxRetries(0)}
	if o.APIKey != "" {
		opts = append(opts, option.WithAPIKey(o.APIKey))
	}
	if o.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(o.BaseURL))
	}
	if o.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(o.HTTPClient))
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	return &Client{
		chat:       openai.NewChatCompletionService(opts...),
		embeddings: openai.NewEmbeddingService(opts...),
		model:      o.Model,
		embedModel: o.EmbeddingModel,
		key:        o.APIKey,
		official:   official(o.BaseURL),
		now:        now,
	}
}

func official(baseURL string) bool {
	if baseURL == "" {
		return true
	}
	u, err := url.Parse(baseURL)
	return err == nil && u.Hostname() == "api.openai.com"
}

// Name returns "openai/<model>".
func (c *Client) Name() string { return provider + "/" + c.model }

// Complete sends req to the Chat Completions API. Errors are *llm.Error or
// ctx's error.
func (c *Client) Complete(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	params, err := c.params(req)
	if err != nil {
		return nil, err
	}
	var httpResp *http.Response
	cc, err := c.chat.New(ctx, params, option.WithResponseInto(&httpResp))
	if err != nil {
		return nil, llm.CallError(ctx, provider, c.key, httpResp, err, c.now())
	}
	return response(cc, req.Output != nil)
}

// params maps req to the SDK's request.
func (c *Client) params(req *llm.Request) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{Model: c.model}
	maxTokens := int64(req.MaxTokens)
	if maxTokens <= 0 {
		maxTokens = llm.DefaultMaxTokens
	}
	if c.official {
		p.MaxCompletionTokens = openai.Int(maxTokens)
	} else {
		p.MaxTokens = openai.Int(maxTokens)
	}
	if req.System != "" {
		p.Messages = append(p.Messages, openai.SystemMessage(req.System))
	}
	for i, m := range req.Messages {
		msg, ok, err := message(m)
		if err != nil {
			return p, &llm.Error{Kind: llm.KindInvalid, Provider: provider, Message: fmt.Sprintf("message %d: %v", i, err)}
		}
		if ok {
			p.Messages = append(p.Messages, msg)
		}
	}
	for _, t := range req.Tools {
		params, err := parameters(t.Parameters)
		if err != nil {
			return p, &llm.Error{Kind: llm.KindInvalid, Provider: provider, Message: fmt.Sprintf("tool %s: parameters: %v", t.Name, err)}
		}
		f := shared.FunctionDefinitionParam{Name: t.Name, Parameters: params}
		if t.Description != "" {
			f.Description = openai.String(t.Description)
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(f))
	}
	if out := req.Output; out != nil {
		p.ResponseFormat.OfJSONSchema = &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name:   out.Name,
				Schema: out.Schema,
				Strict: openai.Bool(true),
			},
		}
	}
	return p, nil
}

// message maps one message; ok is false for a message with nothing to say.
func message(m llm.Message) (msg openai.ChatCompletionMessageParamUnion, ok bool, err error) {
	switch m.Role {
	case llm.RoleUser:
		return openai.UserMessage(m.Content), m.Content != "", nil
	case llm.RoleAssistant:
		a := openai.ChatCompletionAssistantMessageParam{}
		if m.Content != "" {
			a.Content.OfString = openai.String(m.Content)
		}
		for _, tc := range m.ToolCalls {
			args := string(tc.Arguments)
			if strings.TrimSpace(args) == "" {
				args = "{}"
			}
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID:       tc.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: args},
				},
			})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}, m.Content != "" || len(a.ToolCalls) > 0, nil
	case llm.RoleTool:
		r := m.ToolResult
		if r == nil {
			return msg, false, fmt.Errorf("tool message without a tool result")
		}
		content := r.Content
		if r.IsError {
			// Tool messages have no error flag; say it in the text.
			content = "error: " + content
		}
		return openai.ToolMessage(content, r.CallID), true, nil
	}
	return msg, false, fmt.Errorf("unknown role %q", m.Role)
}

// parameters decodes a JSON Schema object for the SDK, keeping each
// property's JSON exactly as written; no schema means no parameters.
func parameters(schema json.RawMessage) (shared.FunctionParameters, error) {
	if len(strings.TrimSpace(string(schema))) == 0 {
		return nil, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(schema, &fields); err != nil {
		return nil, err
	}
	p := make(shared.FunctionParameters, len(fields))
	for k, v := range fields {
		p[k] = v
	}
	return p, nil
}

// response maps the API's reply; structured says the request asked for
// JSON, which the reply's text must then be.
func response(cc *openai.ChatCompletion, structured bool) (*llm.Response, error) {
	if len(cc.Choices) == 0 {
		return nil, malformed("reply has no choices")
	}
	choice := cc.Choices[0]
	resp := &llm.Response{
		Text:       choice.Message.Content,
		Usage:      llm.Usage{InputTokens: int(cc.Usage.PromptTokens), OutputTokens: int(cc.Usage.CompletionTokens)},
		StopReason: stopReason(choice.FinishReason),
	}
	if resp.Text == "" && choice.Message.Refusal != "" {
		resp.Text, resp.StopReason = choice.Message.Refusal, "refusal"
	}
	for _, tc := range choice.Message.ToolCalls {
		args := strings.TrimSpace(tc.Function.Arguments)
		if args == "" {
			args = "{}"
		}
		if !json.Valid([]byte(args)) {
			return nil, malformed("tool call %s (%s) has arguments that are not JSON", tc.ID, tc.Function.Name)
		}
		resp.ToolCalls = append(resp.ToolCalls, llm.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: json.RawMessage(args)})
	}
	switch {
	case structured && !json.Valid([]byte(resp.Text)):
		return nil, malformed("structured output is not JSON (finish reason %q): %.80q", choice.FinishReason, resp.Text)
	case resp.Text == "" && len(resp.ToolCalls) == 0:
		return nil, malformed("reply has no text and no tool call (finish reason %q)", choice.FinishReason)
	}
	return resp, nil
}

func stopReason(r string) string {
	switch r {
	case "stop":
		return "end"
	case "tool_calls", "function_call":
		return "tool_use"
	case "length":
		return "max_tokens"
	}
	return r
}

// Embed returns one vector per text from the embeddings endpoint, using
// Options.EmbeddingModel. Errors are *llm.Error or ctx's error.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	if c.embedModel == "" {
		return nil, &llm.Error{Kind: llm.KindInvalid, Provider: provider, Message: "no embedding model configured"}
	}
	var httpResp *http.Response
	res, err := c.embeddings.New(ctx, openai.EmbeddingNewParams{
		Model:          openai.EmbeddingModel(c.embedModel),
		Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: texts},
		EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
	}, option.WithResponseInto(&httpResp))
	if err != nil {
		return nil, llm.CallError(ctx, provider, c.key, httpResp, err, c.now())
	}
	return vectors(res.Data, len(texts))
}

// vectors orders the embeddings by their index and checks that there is
// exactly one per text, all of one dimension.
func vectors(data []openai.Embedding, n int) ([][]float32, error) {
	if len(data) != n {
		return nil, malformed("%d embeddings for %d texts", len(data), n)
	}
	out := make([][]float32, n)
	for _, d := range data {
		i := int(d.Index)
		if i < 0 || i >= n || out[i] != nil {
			return nil, malformed("embedding index %d out of range or repeated", d.Index)
		}
		v := make([]float32, len(d.Embedding))
		for j, x := range d.Embedding {
			v[j] = float32(x)
		}
		out[i] = v
	}
	for i := range out {
		if len(out[i]) == 0 || len(out[i]) != len(out[0]) {
			return nil, malformed("embedding %d has %d dimensions, embedding 0 has %d", i, len(out[i]), len(out[0]))
		}
	}
	return out, nil
}

func malformed(format string, args ...any) *llm.Error {
	return &llm.Error{Kind: llm.KindMalformed, Status: http.StatusOK, Provider: provider, Message: fmt.Sprintf(format, args...)}
}
