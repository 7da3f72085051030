package apitest

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/quarry-dev/quarry/llm"
)

// Conversation is a request that uses every part of a conversation: a
// system prompt, user text, an assistant turn with text and two tool calls
// (one without arguments), a tool result, a failed tool result, more user
// text, and two tools (one without parameters).
func Conversation() *llm.Request {
	return &llm.Request{
		Purpose: "decide",
		System:  "You are Quarry, a data analyst.",
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "Why did revenue fall?"},
			{Role: llm.RoleAssistant, Content: "Let me look.", ToolCalls: []llm.ToolCall{
				{ID: "call_1", Name: "run_sql", Arguments: json.RawMessage(`{"sql": "SELECT 1"}`)},
				{ID: "call_2", Name: "list_tables"},
			}},
			{Role: llm.RoleTool, ToolResult: &llm.ToolResult{CallID: "call_1", Content: "1"}},
			{Role: llm.RoleTool, ToolResult: &llm.ToolResult{CallID: "call_2", Content: "no such table", IsError: true}},
			{Role: llm.RoleUser, Content: "Go on."},
		},
		Tools: []llm.Tool{
			{Name: "run_sql", Description: "Run one read-only SQL query.",
				Parameters: json.RawMessage(`{"type":"object","properties":{"sql":{"type":"string","maxLength":10000}},"required":["sql"]}`)},
			{Name: "list_tables"},
		},
	}
}

// Verdict is a request for structured output: one object named "verdict"
// with a strict schema, and a reply cap of 500 tokens.
func Verdict() *llm.Request {
	req := llm.UserText("verify", "", "Is the EU hypothesis supported?")
	req.MaxTokens = 500
	req.Output = &llm.Schema{Name: "verdict", Schema: json.RawMessage(`{"type":"object",
		"properties":{"supported":{"type":"boolean"},"confidence":{"type":"number"},"reason":{"type":"string"}},
		"required":["supported","confidence","reason"],"additionalProperties":false}`)}
	return req
}

// EqualResponse fails the test unless got is want, comparing tool call
// arguments as JSON values rather than as text.
func EqualResponse(t testing.TB, got, want *llm.Response) {
	t.Helper()
	if got.Text != want.Text || got.StopReason != want.StopReason || got.Usage != want.Usage || got.Attempts != want.Attempts {
		t.Errorf("response = {Text:%q StopReason:%q Usage:%+v Attempts:%d}; want {Text:%q StopReason:%q Usage:%+v Attempts:%d}",
			got.Text, got.StopReason, got.Usage, got.Attempts, want.Text, want.StopReason, want.Usage, want.Attempts)
	}
	if len(got.ToolCalls) != len(want.ToolCalls) {
		t.Fatalf("tool calls = %+v; want %+v", got.ToolCalls, want.ToolCalls)
	}
	for i, g := range got.ToolCalls {
		w := want.ToolCalls[i]
		var ga, wa any
		gerr, werr := json.Unmarshal(g.Arguments, &ga), json.Unmarshal(w.Arguments, &wa)
		if g.ID != w.ID || g.Name != w.Name || gerr != nil || werr != nil || !reflect.DeepEqual(ga, wa) {
			t.Errorf("tool call %d = %s %s %s; want %s %s %s", i, g.ID, g.Name, g.Arguments, w.ID, w.Name, w.Arguments)
		}
	}
}
