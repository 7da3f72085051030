// Package anthropic is the llm.Model for Anthropic's Claude models, built
// on the official SDK's Messages API.
//
// The client makes exactly one HTTP attempt per call: llm.Retry is Quarry's
// only retry policy, so the SDK's own retries are off. Structured output
// (llm.Request.Output) is a forced call of a tool whose input schema is the
// asked-for schema, which every Claude model supports; the tool's input is
// the reply's Text. The SDK reads nothing from the environment: the key and
// base URL come from Options only.
package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/anthropics/anthropic-sdk-go/packages/param"

	"github.com/quarry-dev/quarry/llm"
)

// Options configure a Client.
type Options struct {
	APIKey string
	// Model is the model name, for example "claude-sonnet-4-5".
	Model string
	// BaseURL overrides https://api.anthropic.com/ (tests, proxies).
	BaseURL string
	// HTTPClient sends the requests; nil means the SDK's default.
	HTTPClient *http.Client
	// Now is the clock for HTTP-date retry-after hints; nil means time.Now.
	Now func() time.Time
}

// Client is an llm.Model backed by the Anthropic Messages API. It is safe
// for concurrent use.
type Client struct {
	messages anthropic.MessageService
	model    string
	key      string
	now      func() time.Time
}

var _ llm.Model = (*Client)(nil)

// provider names Anthropic in errors.
const provider = llm.ProviderAnthropic

// New returns a client for o.Model.
func New(o Options) *Client {
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithoutOpenTelemetry(),
		option.WithMaxRetries(0),
	}
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
	c := anthropic.NewClient(opts...)
	return &Client{messages: c.Messages, model: o.Model, key: o.APIKey, now: now}
}

// Name returns "anthropic/<model>".
func (c *Client) Name() string { return provider + "/" + c.model }

// Complete sends req to the Messages API. Errors are *llm.Error or ctx's
// error.
func (c *Client) Complete(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	params, err := c.params(req)
	if err != nil {
		return nil, err
	}
	var httpResp *http.Response
	msg, err := c.messages.New(ctx, params, option.WithResponseInto(&httpResp))
	if err != nil {
		return nil, llm.CallError(ctx, provider, c.key, httpResp, err, c.now())
	}
	return response(msg, req.Output)
}

// params maps req to the SDK's request.
func (c *Client) params(req *llm.Request) (anthropic.MessageNewParams, error) {
	p := anthropic.MessageNewParams{
		Model:     anthropic.Model(c.model),
		MaxTokens: int64(req.MaxTokens),
	}
	if p.MaxTokens <= 0 {
		p.MaxTokens = llm.DefaultMaxTokens
	}
	if req.System != "" {
		p.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	msgs, err := messages(req.Messages)
	if err != nil {
		return p, err
	}
	p.Messages = msgs
	for _, t := range req.Tools {
		p.Tools = append(p.Tools, tool(t.Name, t.Description, t.Parameters))
	}
	if out := req.Output; out != nil {
		p.Tools = append(p.Tools, tool(out.Name, "Give the answer as this tool's input.", out.Schema))
		p.ToolChoice = anthropic.ToolChoiceParamOfTool(out.Name)
	}
	return p, nil
}

// messages maps the conversation, merging consecutive messages of one role
// into one turn: the API wants the results of all of an assistant turn's
// tool calls in the single user turn that follows it.
func messages(in []llm.Message) ([]anthropic.MessageParam, error) {
	var out []anthropic.MessageParam
	for i, m := range in {
		role, blocks, err := blocks(m)
		if err != nil {
			return nil, &llm.Error{Kind: llm.KindInvalid, Provider: provider, Message: fmt.Sprintf("message %d: %v", i, err)}
		}
		if len(blocks) == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Content = append(out[n-1].Content, blocks...)
			continue
		}
		out = append(out, anthropic.MessageParam{Role: role, Content: blocks})
	}
	return out, nil
}

func blocks(m llm.Message) (anthropic.MessageParamRole, []anthropic.ContentBlockParamUnion, error) {
	var b []anthropic.ContentBlockParamUnion
	switch m.Role {
	case llm.RoleUser:
		if m.Content != "" {
			b = append(b, anthropic.NewTextBlock(m.Content))
		}
		return anthropic.MessageParamRoleUser, b, nil
	case llm.RoleAssistant:
		if m.Content != "" {
			b = append(b, anthropic.NewTextBlock(m.Content))
		}
		for _, tc := range m.ToolCalls {
			b = append(b, anthropic.NewToolUseBlock(tc.ID, arguments(tc.Arguments), tc.Name))
		}
		return anthropic.MessageParamRoleAssistant, b, nil
	case llm.RoleTool:
		r := m.ToolResult
		if r == nil {
			return "", nil, fmt.Errorf("tool message without a tool result")
		}
		return anthropic.MessageParamRoleUser, append(b, anthropic.NewToolResultBlock(r.CallID, r.Content, r.IsError)), nil
	}
	return "", nil, fmt.Errorf("unknown role %q", m.Role)
}

// arguments is a tool call's input as JSON, {} when the call had none.
func arguments(a json.RawMessage) json.RawMessage {
	if len(strings.TrimSpace(string(a))) == 0 {
		return json.RawMessage(`{}`)
	}
	return a
}

// noParameters is the input schema of a tool that takes no arguments.
const noParameters = `{"type":"object","properties":{}}`

// tool is a custom tool whose input schema is sent exactly as given.
func tool(name, description string, schema json.RawMessage) anthropic.ToolUnionParam {
	if len(strings.TrimSpace(string(schema))) == 0 {
		schema = json.RawMessage(noParameters)
	}
	t := anthropic.ToolParam{
		Name:        name,
		InputSchema: param.Override[anthropic.ToolInputSchemaParam](schema),
	}
	if description != "" {
		t.Description = anthropic.String(description)
	}
	return anthropic.ToolUnionParam{OfTool: &t}
}

// response maps the API's reply. With structured output the forced tool's
// input becomes Text and the stop reason "end".
func response(msg *anthropic.Message, out *llm.Schema) (*llm.Response, error) {
	u := msg.Usage
	resp := &llm.Response{
		Usage: llm.Usage{
			// Cached prompt tokens are input tokens too.
			InputTokens:  int(u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens),
			OutputTokens: int(u.OutputTokens),
		},
		StopReason: stopReason(msg.StopReason),
	}
	var text strings.Builder
	structured := false
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			if out != nil && b.Name == out.Name && !structured {
				structured = true
				resp.Text = string(b.Input)
				continue
			}
			resp.ToolCalls = append(resp.ToolCalls, llm.ToolCall{ID: b.ID, Name: b.Name, Arguments: arguments(b.Input)})
		}
	}
	switch {
	case out != nil && !structured:
		return nil, malformed("no call of the structured output tool %q (stop reason %q)", out.Name, msg.StopReason)
	case out != nil:
		if !json.Valid([]byte(resp.Text)) {
			return nil, malformed("structured output is not JSON")
		}
		if len(resp.ToolCalls) == 0 && resp.StopReason == "tool_use" {
			resp.StopReason = "end"
		}
	default:
		resp.Text = text.String()
		if resp.Text == "" && len(resp.ToolCalls) == 0 {
			return nil, malformed("reply has no text and no tool call (stop reason %q)", msg.StopReason)
		}
	}
	return resp, nil
}

func stopReason(r anthropic.StopReason) string {
	switch r {
	case anthropic.StopReasonEndTurn:
		return "end"
	case anthropic.StopReasonToolUse:
		return "tool_use"
	case anthropic.StopReasonMaxTokens:
		return "max_tokens"
	}
	return string(r)
}

func malformed(format string, args ...any) *llm.Error {
	return &llm.Error{Kind: llm.KindMalformed, Status: http.StatusOK, Provider: provider, Message: fmt.Sprintf(format, args...)}
}
