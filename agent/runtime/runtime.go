// Package runtime is the agents' one way to call a model: every agent
// (investigate, analyze, research, chat, ask) sends its requests through a
// Caller, so that every model call is audited the same way, counts its
// tokens the same way, fails the same way and has its JSON read the same
// way.
//
// A model makes a job smarter, never makes it work: a nil Caller or a nil
// model is offline, and every error a Caller returns for a model that did
// not help (ErrOffline, a *Failure, a *Rejection; see Fallback) means "do
// this step offline". The one failure policy:
//
//   - a provider that does not answer (UNAVAILABLE, RATE_LIMITED past the
//     retry policy, UNAUTHORIZED, or an error with no kind) fails this
//     step; Options.MaxUnavailable such failures in a row turn the model
//     off for the rest of the run, recorded as a policy decision;
//   - a refused request (INVALID) or a reply that cannot be read
//     (MALFORMED, or not the JSON asked for) fails this step only: the
//     next request may well be answered;
//   - the context ending is returned as it is: the caller stops.
//
// Other errors (the audit log or a call's record could not be written)
// must stop the caller too: a run must not go on unaudited.
//
// Agents import it as agentrt, so that it never hides the standard
// library's runtime.
package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/llm"
)

// DefaultMaxUnavailable is how many failed calls in a row, of the kinds
// the next call would fail the same way, turn the model off: each one has
// already cost the retry policy's attempts.
const DefaultMaxUnavailable = 2

// Auditor appends entries to a hash-chained audit log. It has the shape
// of the investigation's log; a job whose log takes more (a request id)
// passes an adapter.
type Auditor interface {
	Append(eventType, actor string, data map[string]any) (quarry.AuditEntry, error)
}

// Options configure a Caller. Every field is optional.
type Options struct {
	// Audit, when set, receives a tool_called and an
	// observation_recorded entry for every call and a policy_decision
	// entry for every rejected reply and for turning the model off.
	Audit Auditor
	// Actor names who calls in the audit log ("analyst", "planner").
	Actor string
	// Job names the run in what people read: "the rest of the
	// investigation runs offline". "run" when empty.
	Job string
	// MaxUnavailable is how many calls in a row that the next call would
	// fail the same way turn the model off for the rest of the run;
	// DefaultMaxUnavailable when < 1.
	MaxUnavailable int
	// OnCall, when set, receives every call once it is over, answered or
	// not, after its audit entries: the investigation writes it as an
	// artifact. Its error stops the caller.
	OnCall func(Record) error
	// Progress, when set, tells people that a step runs offline and why.
	Progress func(purpose, message string)
	// Now is the clock calls are timed with; time.Now when nil.
	Now func() time.Time
}

// Record is one model call as OnCall receives it.
type Record struct {
	// Call numbers the Caller's calls from 1; ID is "llm_" and Call in
	// four digits, the call_id of its audit entries.
	Call     int
	ID       string
	Purpose  string
	Model    string
	Args     map[string]any // what With added
	Request  *llm.Request
	Response *llm.Response // nil when the call failed
	Err      error         // the model's error, or nil
	Elapsed  time.Duration
}

// Usage is the tokens of the calls that were answered.
type Usage struct {
	Calls        int `json:"calls"`
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

func (u *Usage) add(v llm.Usage) {
	u.Calls++
	u.InputTokens += v.InputTokens
	u.OutputTokens += v.OutputTokens
}

// Total is input plus output tokens.
func (u Usage) Total() int { return u.InputTokens + u.OutputTokens }

// ErrOffline is what a Caller returns when it does not ask the model:
// none is configured, or the model was turned off earlier in the run.
var ErrOffline = errors.New("no model: the step runs offline")

// Failure is a call the model did not answer. Err is the model's error (an
// *llm.Error, or whatever the model returned), so llm.ErrorKind reads it.
type Failure struct {
	Purpose string
	Err     error
	// Off is whether this failure turned the model off for the rest of
	// the run.
	Off bool
}

func (f *Failure) Error() string { return f.Err.Error() }
func (f *Failure) Unwrap() error { return f.Err }

// Kind is the model error's kind; UNAVAILABLE for an error that has none
// (a model that is not one of Quarry's providers, a broken connection).
func (f *Failure) Kind() llm.Kind {
	if k := llm.ErrorKind(f.Err); k != "" {
		return k
	}
	return llm.KindUnavailable
}

// Rejection is a reply that failed a check: not the JSON asked for, or
// any check a caller makes of it (Reject). Reason is for people.
type Rejection struct {
	Purpose string
	Reason  string
}

func (r *Rejection) Error() string { return r.Reason }

// Fallback reports whether err, from a Caller, means "do this step
// offline": the model was not asked, did not answer, or its reply was
// rejected. Any other error (nil excepted) should stop the caller.
func Fallback(err error) bool {
	var f *Failure
	var r *Rejection
	return errors.Is(err, ErrOffline) || errors.As(err, &f) || errors.As(err, &r)
}

// Caller sends a run's requests to its model. Callers made by With share
// their parent's counts, usage and policy. A Caller is safe for
// concurrent use; a nil Caller is offline.
type Caller struct {
	s    *state
	args map[string]any
}

// state is what a Caller and those made from it by With share.
type state struct {
	model llm.Model
	opt   Options

	mu          sync.Mutex
	calls       int
	usage       Usage
	byPurpose   map[string]Usage
	unavailable int  // failures in a row the next call would repeat
	off         bool // the model is off for the rest of the run
}

// New returns a Caller of m. A nil m makes every call return ErrOffline.
func New(m llm.Model, opt Options) *Caller {
	if opt.MaxUnavailable < 1 {
		opt.MaxUnavailable = DefaultMaxUnavailable
	}
	if opt.Job == "" {
		opt.Job = "run"
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return &Caller{s: &state{model: m, opt: opt, byPurpose: map[string]Usage{}}}
}

// With returns a Caller that adds args to the arguments of its calls'
// tool_called entries and to their Records: the investigation adds the
// loop's iteration. It shares c's state.
func (c *Caller) With(args map[string]any) *Caller {
	if c == nil {
		return nil
	}
	merged := make(map[string]any, len(c.args)+len(args))
	for k, v := range c.args {
		merged[k] = v
	}
	for k, v := range args {
		merged[k] = v
	}
	return &Caller{s: c.s, args: merged}
}

// On reports whether the next call will ask the model.
func (c *Caller) On() bool {
	if c == nil || c.s.model == nil {
		return false
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return !c.s.off
}

// Off reports whether the model was turned off by failures during the
// run; false for a Caller that never had a model.
func (c *Caller) Off() bool {
	if c == nil {
		return false
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return c.s.off
}

// Model returns the model; nil offline.
func (c *Caller) Model() llm.Model {
	if c == nil {
		return nil
	}
	return c.s.model
}

// Name returns the model's name; "" offline.
func (c *Caller) Name() string {
	if c == nil || c.s.model == nil {
		return ""
	}
	return c.s.model.Name()
}

// Calls returns how many calls were sent, answered or not.
func (c *Caller) Calls() int {
	if c == nil {
		return 0
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return c.s.calls
}

// Usage returns the tokens of the answered calls.
func (c *Caller) Usage() Usage {
	if c == nil {
		return Usage{}
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return c.s.usage
}

// ByPurpose returns the tokens of the answered calls by request Purpose.
func (c *Caller) ByPurpose() map[string]Usage {
	out := map[string]Usage{}
	if c == nil {
		return out
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	for k, v := range c.s.byPurpose {
		out[k] = v
	}
	return out
}

// Call sends req to the model: one audited call (a tool_called entry with
// the purpose, the model, the prompt's SHA-256 and With's arguments
// before it; an observation_recorded entry with the outcome, the time it
// took, the tokens or the error's kind after it), given to OnCall. It
// returns the reply, or ErrOffline when the model is not asked, or a
// *Failure when it did not answer (see the package comment for when that
// turns it off), or the context's error, or the error of writing the
// audit log or OnCall's.
func (c *Caller) Call(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	if !c.On() {
		return nil, ErrOffline
	}
	s := c.s
	s.mu.Lock()
	s.calls++
	n := s.calls
	s.mu.Unlock()
	id := fmt.Sprintf("llm_%04d", n)
	args := map[string]any{"purpose": req.Purpose, "model": s.model.Name(), "prompt_sha256": promptHash(req)}
	for k, v := range c.args {
		args[k] = v
	}
	if err := s.audit(quarry.EventToolCalled, map[string]any{"call_id": id, "tool_name": "llm", "arguments": args}); err != nil {
		return nil, err
	}

	start := s.opt.Now()
	resp, err := s.model.Complete(ctx, req)
	elapsed := s.opt.Now().Sub(start)
	if err == nil && resp == nil {
		err = &llm.Error{Kind: llm.KindMalformed, Provider: s.model.Name(), Message: "the reply was empty"}
	}

	obs := map[string]any{"call_id": id, "success": err == nil, "elapsed_ms": elapsed.Milliseconds()}
	var fail *Failure
	s.mu.Lock()
	if err != nil && ctx.Err() == nil {
		fail = &Failure{Purpose: req.Purpose, Err: err}
		obs["error"], obs["error_code"] = err.Error(), string(llm.ErrorKind(err))
		if repeats(fail.Kind()) {
			s.unavailable++
			if s.unavailable >= s.opt.MaxUnavailable {
				s.off, fail.Off = true, true
				obs["policy"] = offReason(fail.Kind(), s.opt.Job)
			}
		}
	} else if err != nil {
		obs["error"], obs["error_code"] = err.Error(), string(llm.ErrorKind(err))
	} else {
		s.unavailable = 0
		s.usage.add(resp.Usage)
		p := s.byPurpose[req.Purpose]
		p.add(resp.Usage)
		s.byPurpose[req.Purpose] = p
		obs["input_tokens"], obs["output_tokens"], obs["attempts"] = resp.Usage.InputTokens, resp.Usage.OutputTokens, resp.Attempts
	}
	s.mu.Unlock()
	if aerr := s.audit(quarry.EventObservationRecorded, obs); aerr != nil {
		return nil, aerr
	}
	if fail != nil && fail.Off {
		if aerr := s.decide("model", "offline", map[string]any{"purpose": req.Purpose, "error_code": string(fail.Kind()), "reason": obs["policy"]}); aerr != nil {
			return nil, aerr
		}
	}
	if s.opt.OnCall != nil {
		rec := Record{Call: n, ID: id, Purpose: req.Purpose, Model: s.model.Name(), Args: c.args, Request: req, Response: resp, Err: err, Elapsed: elapsed}
		if err != nil {
			rec.Response = nil
		}
		if werr := s.opt.OnCall(rec); werr != nil {
			return nil, werr
		}
	}
	if err != nil {
		if fail == nil {
			return nil, ctx.Err()
		}
		rest := "this step runs offline"
		if fail.Off {
			rest = "this step and the rest of the " + s.opt.Job + " run offline"
		}
		s.progress(req.Purpose, fmt.Sprintf("model %s did not answer (%s); %s", s.model.Name(), fail.Kind(), rest))
		return nil, fail
	}
	return resp, nil
}

// CallJSON asks for one JSON object and decodes it into out: Call, then
// the reply's text without what models wrap JSON in (DecodeJSON). A reply
// that cannot be read (MALFORMED) or decoded is a *Rejection, recorded as
// a policy decision (model_output, rejected); the model stays on. Other
// errors are Call's.
func (c *Caller) CallJSON(ctx context.Context, req *llm.Request, out any) error {
	resp, err := c.Call(ctx, req)
	var f *Failure
	if errors.As(err, &f) && f.Kind() == llm.KindMalformed {
		return c.reject(req.Purpose, notJSON, "malformed reply: "+f.Err.Error(), notJSONProgress)
	}
	if err != nil {
		return err
	}
	if jerr := DecodeJSON(resp.Text, out); jerr != nil {
		return c.reject(req.Purpose, notJSON, "invalid JSON: "+jerr.Error(), notJSONProgress)
	}
	return nil
}

// Reject records that the reply to a request of purpose failed a check
// the caller made, for reason (for people), as a policy decision
// (model_output, rejected), and returns it as a *Rejection; or the audit
// log's error.
func (c *Caller) Reject(purpose, reason string) error {
	return c.reject(purpose, reason, reason, "the model's answer was rejected ("+reason+"); this step runs offline")
}

// What a reply that is not the asked-for JSON is rejected with.
const (
	notJSON         = "the model's reply is not the JSON asked for"
	notJSONProgress = "the model's answer was not valid JSON; this step runs offline"
)

// reject records a rejection: reason for people, logged in the audit log,
// said in the progress.
func (c *Caller) reject(purpose, reason, logged, said string) error {
	if c != nil {
		if err := c.s.decide("model_output", "rejected", map[string]any{"purpose": purpose, "reason": logged}); err != nil {
			return err
		}
		c.s.progress(purpose, said)
	}
	return &Rejection{Purpose: purpose, Reason: reason}
}

// repeats reports whether the next call would likely fail as one that
// failed with kind k did: the provider is down, keeps rate-limiting past
// the retry policy, or refuses the key. A refused request (INVALID) or an
// unreadable reply (MALFORMED) is about that request only.
func repeats(k llm.Kind) bool {
	return k != llm.KindInvalid && k != llm.KindMalformed
}

// offReason says why the model was turned off, for the audit log.
func offReason(k llm.Kind, job string) string {
	why := "the model is unavailable"
	switch k {
	case llm.KindUnauthorized:
		why = "the model refuses the key"
	case llm.KindRateLimited:
		why = "the model keeps refusing for its rate limit"
	}
	return why + "; the rest of the " + job + " runs offline"
}

func (s *state) audit(event string, data map[string]any) error {
	if s.opt.Audit == nil {
		return nil
	}
	_, err := s.opt.Audit.Append(event, s.opt.Actor, data)
	return err
}

// decide records a policy decision.
func (s *state) decide(policy, decision string, data map[string]any) error {
	data["policy"], data["decision"] = policy, decision
	return s.audit(quarry.EventPolicyDecision, data)
}

func (s *state) progress(purpose, msg string) {
	if s.opt.Progress != nil {
		s.opt.Progress(purpose, msg)
	}
}

// promptHash is the SHA-256 of the request as JSON: the audit log names
// the prompt without holding it (the call's record may).
func promptHash(req *llm.Request) string {
	b, _ := json.Marshal(req)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
