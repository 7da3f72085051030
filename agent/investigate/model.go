package investigate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/evidence"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/llm"
)

// maxUnavailable is how many UNAVAILABLE answers in a row make the rest of
// the run offline: each one already cost the retry policy's three attempts.
const maxUnavailable = 2

// analyst is the model's side of a run. A nil *analyst (no model
// configured) makes every model step a no-op, so the offline path is the
// only path; a failed call makes that one step offline.
type analyst struct {
	model llm.Model
	calls int
	usage investigation.TokenUsage
	// iter is the usage of the current memory-loop iteration.
	iter        investigation.TokenUsage
	byPurpose   map[string]investigation.TokenUsage
	unavailable int  // UNAVAILABLE answers in a row
	off         bool // the model stopped answering; the rest is offline
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

// ask sends req to the model, records the call in the audit log and as an
// artifact, and counts its tokens. A nil response means the model did not
// answer (none configured, or it failed in any way): the caller does the
// step offline. The error is for what must stop the run: the audit log or
// the artifacts could not be written, or ctx ended.
func (r *run) ask(ctx context.Context, req *llm.Request, iter int) (*llm.Response, error) {
	a := r.ai
	if a == nil || a.off {
		return nil, nil
	}
	a.calls++
	id := fmt.Sprintf("llm_%04d", a.calls)
	prompt, _ := json.Marshal(req)
	sum := sha256.Sum256(prompt)
	if _, err := r.inv.Audit.Append(quarry.EventToolCalled, "analyst", map[string]any{
		"call_id":   id,
		"tool_name": "llm",
		"arguments": map[string]any{"purpose": req.Purpose, "model": a.model.Name(), "iteration": iter, "prompt_sha256": hex.EncodeToString(sum[:])},
	}); err != nil {
		return nil, err
	}
	start := time.Now()
	resp, err := a.model.Complete(ctx, req)
	elapsed := time.Since(start)
	rec := callRecord{Call: a.calls, Purpose: req.Purpose, Iteration: iter, Model: a.model.Name(), Request: req, Response: resp, DurationMS: elapsed.Milliseconds()}
	obs := map[string]any{"call_id": id, "success": err == nil, "elapsed_ms": elapsed.Milliseconds()}
	if err != nil {
		rec.Error, rec.ErrorKind = err.Error(), string(llm.ErrorKind(err))
		obs["error"], obs["error_code"] = err.Error(), string(llm.ErrorKind(err))
		if llm.ErrorKind(err) == llm.KindUnavailable {
			a.unavailable++
			if a.unavailable >= maxUnavailable {
				a.off = true
				obs["policy"] = "the model is unavailable; the rest of the investigation runs offline"
			}
		}
	} else {
		a.unavailable = 0
		a.usage.Add(resp.Usage.InputTokens, resp.Usage.OutputTokens)
		a.iter.Add(resp.Usage.InputTokens, resp.Usage.OutputTokens)
		if a.byPurpose == nil {
			a.byPurpose = map[string]investigation.TokenUsage{}
		}
		p := a.byPurpose[req.Purpose]
		p.Add(resp.Usage.InputTokens, resp.Usage.OutputTokens)
		a.byPurpose[req.Purpose] = p
		obs["input_tokens"], obs["output_tokens"], obs["attempts"] = resp.Usage.InputTokens, resp.Usage.OutputTokens, resp.Attempts
	}
	if _, aerr := r.inv.Audit.Append(quarry.EventObservationRecorded, "analyst", obs); aerr != nil {
		return nil, aerr
	}
	if werr := r.inv.Out.WriteJSON(fmt.Sprintf("analysis/llm/call_%03d.json", a.calls), rec); werr != nil {
		return nil, werr
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		rest := "this step runs offline"
		if a.off {
			rest = "this step and the rest of the investigation run offline"
		}
		r.progress(investigation.Event{Step: req.Purpose, Message: fmt.Sprintf("model %s did not answer (%s); %s", a.model.Name(), llm.ErrorKind(err), rest)})
		return nil, nil
	}
	return resp, nil
}

// askJSON asks for structured output and decodes it into out. It reports
// whether out was filled; a reply that is not the asked-for JSON counts as
// no answer and is logged as rejected. The error is as ask's.
func (r *run) askJSON(ctx context.Context, req *llm.Request, iter int, out any) (bool, error) {
	resp, err := r.ask(ctx, req, iter)
	if resp == nil || err != nil {
		return false, err
	}
	if jerr := json.Unmarshal([]byte(jsonObject(resp.Text)), out); jerr != nil {
		r.progress(investigation.Event{Step: req.Purpose, Message: "the model's answer was not valid JSON; this step runs offline"})
		return false, r.policy("model_output", "rejected", map[string]any{"purpose": req.Purpose, "reason": "invalid JSON: " + jerr.Error()})
	}
	return true, nil
}

// policy records a decision Quarry made about the model's output or
// actions in the audit log.
func (r *run) policy(policy, decision string, data map[string]any) error {
	data["policy"], data["decision"] = policy, decision
	_, err := r.inv.Audit.Append(quarry.EventPolicyDecision, "analyst", data)
	return err
}

// jsonObject trims what models like to wrap JSON in: whitespace and a
// Markdown code fence.
func jsonObject(s string) string {
	start, end := -1, -1
	for i := 0; i < len(s); i++ {
		if s[i] == '{' {
			start = i
			break
		}
	}
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '}' {
			end = i
			break
		}
	}
	if start < 0 || end < start {
		return s
	}
	return s[start : end+1]
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
