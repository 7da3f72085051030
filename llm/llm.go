// Package llm is the contract between Quarry and language models: a Model
// completes a conversation (messages, tool definitions, tool calls,
// structured JSON output) and reports its token usage; an Embedder turns
// text into vectors.
//
// The package imports only the standard library. Providers live in
// subpackages (llm/anthropic, llm/openai) so that their SDKs compile once and
// stay out of the packages that only need the contract; llm/llmtest holds
// the scripted fake model that agent tests drive.
//
// Quarry never needs a model to work: every caller has an offline path and
// treats an error from a Model, whatever its kind, as "do this step
// offline".
package llm

import (
	"context"
	"encoding/json"
)

// Model completes conversations. Implementations are safe for concurrent
// use.
type Model interface {
	// Complete sends req and returns the model's reply. Errors are *Error
	// (see Kind) or the context's error.
	Complete(ctx context.Context, req *Request) (*Response, error)
	// Name identifies the provider and model, for example
	// "anthropic/claude-sonnet-4-5"; it is recorded with every call.
	Name() string
}

// Embedder turns texts into vectors of one fixed dimension.
type Embedder interface {
	// Embed returns one vector per text, in order. Errors are *Error.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Role is who wrote a message.
type Role string

// Message roles. System text goes in Request.System, not in a message.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool carries the result of a tool call back to the model.
	RoleTool Role = "tool"
)

// Message is one turn of the conversation.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content,omitempty"`
	// ToolCalls are the calls an assistant message made.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolResult answers one call; set on RoleTool messages only.
	ToolResult *ToolResult `json:"tool_result,omitempty"`
}

// Tool is a function the model may call.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Parameters is the JSON Schema of the arguments object.
	Parameters json.RawMessage `json:"parameters"`
}

// ToolCall is one call the model asked for.
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ToolResult is the outcome of a tool call.
type ToolResult struct {
	CallID  string `json:"call_id"`
	Content string `json:"content"`
	IsError bool   `json:"is_error,omitempty"`
}

// Schema asks for a reply that is one JSON object matching a JSON Schema.
// Providers use their native structured output where they have one; the
// reply's Text is then the JSON object.
type Schema struct {
	Name   string          `json:"name"`
	Schema json.RawMessage `json:"schema"`
}

// Request is one completion request.
type Request struct {
	// Purpose names the step asking, for example "hypotheses" or
	// "decide"; it is recorded with the call's usage and never sent.
	Purpose  string    `json:"purpose"`
	System   string    `json:"system,omitempty"`
	Messages []Message `json:"messages"`
	Tools    []Tool    `json:"tools,omitempty"`
	// Output, when set, asks for structured JSON output.
	Output *Schema `json:"output,omitempty"`
	// MaxTokens caps the reply; zero means DefaultMaxTokens.
	MaxTokens int `json:"max_tokens,omitempty"`
	// MaxAttempts, when above 0, caps the attempts Retry makes of this
	// call below its policy's: a job whose specification allows fewer
	// retries (the data rooms' one) says so here. It is never sent.
	MaxAttempts int `json:"-"`
}

// DefaultMaxTokens is the reply cap when a request does not set one.
const DefaultMaxTokens = 2048

// Response is the model's reply.
type Response struct {
	Text      string     `json:"text,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	Usage     Usage      `json:"usage"`
	// StopReason is the provider's reason, normalised to "end", "tool_use",
	// "max_tokens" or the provider's own word.
	StopReason string `json:"stop_reason,omitempty"`
	// Attempts is how many HTTP attempts the call took (set by Retry).
	Attempts int `json:"attempts,omitempty"`
}

// Usage is the tokens one call consumed, as the provider counted them.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Add returns the sum of two usages.
func (u Usage) Add(v Usage) Usage {
	return Usage{InputTokens: u.InputTokens + v.InputTokens, OutputTokens: u.OutputTokens + v.OutputTokens}
}

// Total is input plus output tokens.
func (u Usage) Total() int { return u.InputTokens + u.OutputTokens }

// UserText is a request with one user message, the common case.
func UserText(purpose, system, text string) *Request {
	return &Request{Purpose: purpose, System: system, Messages: []Message{{Role: RoleUser, Content: text}}}
}

// EstimateTokens approximates how many tokens text takes: about four bytes
// per token for English and SQL, which is what the working-memory budget
// needs (an order of magnitude, not a bill).
func EstimateTokens(text string) int {
	return (len(text) + 3) / 4
}
