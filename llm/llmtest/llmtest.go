// Package llmtest provides a scripted model for tests: it answers each
// request with a function of the request, records every call, and writes
// the conversation as a transcript that golden tests compare.
package llmtest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/quarry-dev/quarry/llm"
)

// Reply answers one request.
type Reply func(req *llm.Request) (*llm.Response, error)

// Model is a scripted llm.Model. Its zero value answers every request with
// an error; set Reply or Purposes.
type Model struct {
	// ModelName is what Name returns; "scripted" when empty.
	ModelName string
	// Purposes answers requests by their Purpose; Reply answers the rest.
	Purposes map[string]Reply
	Reply    Reply

	mu    sync.Mutex
	calls []Call
}

// Call is one recorded request and its outcome.
type Call struct {
	Request  *llm.Request
	Response *llm.Response
	Err      error
}

var _ llm.Model = (*Model)(nil)

// Name returns ModelName.
func (m *Model) Name() string {
	if m.ModelName == "" {
		return "scripted"
	}
	return m.ModelName
}

// Complete answers req with the scripted reply and records the call. Usage
// is filled in from estimated token counts when the reply leaves it zero.
func (m *Model) Complete(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	reply := m.Reply
	if r, ok := m.Purposes[req.Purpose]; ok {
		reply = r
	}
	var resp *llm.Response
	var err error
	if reply == nil {
		err = &llm.Error{Kind: llm.KindInvalid, Provider: "scripted", Message: "no scripted reply for purpose " + req.Purpose}
	} else {
		resp, err = reply(req)
	}
	if resp != nil && resp.Usage == (llm.Usage{}) {
		resp.Usage = llm.Usage{InputTokens: promptTokens(req), OutputTokens: llm.EstimateTokens(resp.Text)}
	}
	m.mu.Lock()
	m.calls = append(m.calls, Call{Request: req, Response: resp, Err: err})
	m.mu.Unlock()
	return resp, err
}

// Calls returns the recorded calls in order.
func (m *Model) Calls() []Call {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Call(nil), m.calls...)
}

// CountByPurpose returns how many calls were made for each purpose.
func (m *Model) CountByPurpose() map[string]int {
	out := map[string]int{}
	for _, c := range m.Calls() {
		out[c.Request.Purpose]++
	}
	return out
}

func promptTokens(req *llm.Request) int {
	n := llm.EstimateTokens(req.System)
	for _, msg := range req.Messages {
		n += llm.EstimateTokens(msg.Content)
	}
	return n
}

// Text is a reply with text content.
func Text(s string) *llm.Response { return &llm.Response{Text: s, StopReason: "end"} }

// JSON is a reply whose text is v encoded as JSON, as structured output is.
func JSON(v any) *llm.Response {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llmtest.JSON: %v", err))
	}
	return Text(string(b))
}

// Fixed answers every request with resp (a fresh copy each time).
func Fixed(resp *llm.Response) Reply {
	return func(*llm.Request) (*llm.Response, error) {
		c := *resp
		return &c, nil
	}
}

// Fail answers every request with err.
func Fail(err error) Reply {
	return func(*llm.Request) (*llm.Response, error) { return nil, err }
}

// Transcript renders the calls as text for golden files: for each call its
// purpose, system prompt, messages and reply. Volatile parts of prompts
// should be kept out of them by the caller; the transcript is verbatim.
func (m *Model) Transcript() string {
	var b strings.Builder
	for i, c := range m.Calls() {
		fmt.Fprintf(&b, "=== call %d: %s\n", i+1, c.Request.Purpose)
		if c.Request.System != "" {
			fmt.Fprintf(&b, "--- system\n%s\n", strings.TrimSpace(c.Request.System))
		}
		for _, msg := range c.Request.Messages {
			fmt.Fprintf(&b, "--- %s\n%s\n", msg.Role, strings.TrimSpace(msg.Content))
		}
		if c.Request.Output != nil {
			fmt.Fprintf(&b, "--- output schema: %s\n", c.Request.Output.Name)
		}
		switch {
		case c.Err != nil:
			fmt.Fprintf(&b, "--- error\n%v\n", c.Err)
		case c.Response != nil:
			fmt.Fprintf(&b, "--- reply\n%s\n", strings.TrimSpace(c.Response.Text))
			for _, tc := range c.Response.ToolCalls {
				fmt.Fprintf(&b, "--- tool call %s %s\n", tc.Name, tc.Arguments)
			}
		}
	}
	return b.String()
}
