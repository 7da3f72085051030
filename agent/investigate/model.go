package investigate

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/evidence"
	agentrt "github.com/quarry-dev/quarry/agent/runtime"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/llm"
)

// analyst is the model's side of a run. A nil *analyst (no model
// configured) makes every model step a no-op, so the offline path is the
// only path; a failed call makes that one step offline, and the agent
// runtime's policy turns the model off for the rest of the run after
// repeated failures the next call would repeat.
type analyst struct {
	model llm.Model
	// c sends the calls: audited, counted, one failure policy (see
	// caller). It is made on the first call; nil before it.
	c *agentrt.Caller
	// iter is the usage of the current memory-loop iteration.
	iter investigation.TokenUsage
	// ev holds every number the recorded evidence contains; model-written
	// text is checked against it.
	ev evidence.Set
}

// callRecord is one model call as written to analysis/llm/call_NNN.json:
// what was sent, what came back, what it cost. The API key is never part
// of a request, so it never reaches these files.
type callRecord struct {
	Call       int           `json:"call"`
	Purpose    string        `json:"purpose"`
	Iteration  int           `json:"iteration,omitempty"`
	Model      string        `json:"model"`
	Request    *llm.Request  `json:"request"`
	Response   *llm.Response `json:"response,omitempty"`
	Error      string        `json:"error,omitempty"`
	ErrorKind  string        `json:"error_kind,omitempty"`
	DurationMS int64         `json:"duration_ms"`
}

// caller returns the run's Caller: every call is a tool_called and an
// observation_recorded entry of the analyst and an
// analysis/llm/call_NNN.json artifact, and a step the model did not
// answer says so in the progress.
func (r *run) caller() *agentrt.Caller {
	a := r.ai
	if a.c == nil {
		a.c = agentrt.New(a.model, agentrt.Options{
			Audit: r.inv.Audit,
			Actor: "analyst",
			Job:   "investigation",
			OnCall: func(c agentrt.Record) error {
				iter, _ := c.Args["iteration"].(int)
				rec := callRecord{Call: c.Call, Purpose: c.Purpose, Iteration: iter, Model: c.Model, Request: c.Request, Response: c.Response,
					DurationMS: c.Elapsed.Milliseconds()}
				if c.Response != nil {
					a.iter.Add(c.Response.Usage.InputTokens, c.Response.Usage.OutputTokens)
				}
				if c.Err != nil {
					rec.Error, rec.ErrorKind = c.Err.Error(), string(llm.ErrorKind(c.Err))
				}
				return r.inv.Out.WriteJSON(fmt.Sprintf("analysis/llm/call_%03d.json", c.Call), rec)
			},
			Progress: func(purpose, msg string) { r.progress(investigation.Event{Step: purpose, Message: msg}) },
		})
	}
	return a.c
}

// off reports whether the model was turned off for the rest of the run.
func (a *analyst) off() bool { return a.c.Off() }

// usage is the tokens of the run's answered calls.
func (a *analyst) usage() investigation.TokenUsage { return tokenUsage(a.c.Usage()) }

// byPurpose is usage by request purpose; nil before any call was
// answered.
func (a *analyst) byPurpose() map[string]investigation.TokenUsage {
	var out map[string]investigation.TokenUsage
	for p, u := range a.c.ByPurpose() {
		if out == nil {
			out = map[string]investigation.TokenUsage{}
		}
		out[p] = tokenUsage(u)
	}
	return out
}

func tokenUsage(u agentrt.Usage) investigation.TokenUsage {
	return investigation.TokenUsage{Calls: u.Calls, InputTokens: u.InputTokens, OutputTokens: u.OutputTokens}
}

// askJSON asks for structured output (see caller), with the loop's
// iteration in its audit entry and record, and decodes it into out. It
// reports whether out was filled: a model that did not answer (none
// configured, off, or failed in any way) or a reply that is not the
// asked-for JSON (logged as rejected) leaves the step offline. The error
// is for what must stop the run: the audit log or the artifacts could not
// be written, or ctx ended.
func (r *run) askJSON(ctx context.Context, req *llm.Request, iter int, out any) (bool, error) {
	if r.ai == nil {
		return false, nil
	}
	err := r.caller().With(map[string]any{"iteration": iter}).CallJSON(ctx, req, out)
	return err == nil, stopping(err)
}

// stopping returns err when it must stop the run, nil when it only means
// the step runs offline.
func stopping(err error) error {
	if agentrt.Fallback(err) {
		return nil
	}
	return err
}

// policy records a decision Quarry made about the model's output or
// actions in the audit log.
func (r *run) policy(policy, decision string, data map[string]any) error {
	data["policy"], data["decision"] = policy, decision
	_, err := r.inv.Audit.Append(quarry.EventPolicyDecision, "analyst", data)
	return err
}

// takeIterationUsage returns and resets the usage of the current
// iteration; nil when no model call was made.
func (a *analyst) takeIterationUsage() *investigation.TokenUsage {
	if a == nil || a.iter.Calls == 0 {
		return nil
	}
	u := a.iter
	a.iter = investigation.TokenUsage{}
	return &u
}

// check marks the numbers in model-written text that no recorded evidence
// contains, and logs what it marked.
func (r *run) check(purpose, text string) (string, error) {
	res := r.ai.ev.Check(text)
	if len(res.Unverified) > 0 {
		return res.Text, r.policy("number_check", "marked_unverified", map[string]any{"purpose": purpose, "numbers": res.Unverified})
	}
	return res.Text, nil
}

// schemaOf builds a structured-output request schema.
func schemaOf(name, schema string) *llm.Schema {
	return &llm.Schema{Name: name, Schema: json.RawMessage(schema)}
}
