package research

// A model, when the Researcher has one, plans (model_plan.go), reads the
// passages for facts (model_facts.go) and writes the report's prose
// (model_write.go). It makes a research smarter, never makes it work:
// each of its outputs is checked by the rules the offline step keeps, and
// a call that fails or an output that fails a check is replaced by the
// offline step's. The stage messages say what the model did and what was
// done offline instead; the report's limitations name the model output
// that was rejected.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	agentrt "github.com/quarry-dev/quarry/agent/runtime"
	"github.com/quarry-dev/quarry/llm"
	rs "github.com/quarry-dev/quarry/research"
)

// assist is one run's use of the model. Its zero model means offline:
// every method then does nothing, and the offline steps run as they
// would without it.
type assist struct {
	r     *Researcher
	model llm.Model
	// c sends the calls, with the agent runtime's one failure policy.
	c *agentrt.Caller
	// planned are the sub-questions the model wrote.
	planned map[string]bool
	// notes are the limitations the report gains from the model's
	// rejected output.
	notes []string
	facts factTally
}

// maxUnavailable is how many failed calls in a row that the next call
// would repeat turn the model off: one, where an investigation allows
// two. A research asks the model a handful of times (a plan, the facts of
// a few sub-questions, the prose) while a person waits for it, and each
// failed call already cost the retry policy's attempts and waits; an
// investigation's dozens of calls are worth one more try.
const maxUnavailable = 1

func (r *Researcher) assist() *assist {
	return &assist{r: r, model: r.Model, planned: map[string]bool{},
		c: agentrt.New(r.Model, agentrt.Options{Actor: "researcher", Job: "research", MaxUnavailable: maxUnavailable})}
}

// on reports whether the model may be asked.
func (a *assist) on() bool { return a.c.On() }

// off reports whether the model failed in a way the next call would too
// (the provider is down, the key is wrong) and is not asked again.
func (a *assist) off() bool { return a.c.Off() }

// rejectf is model output that failed a check, with the check's reason.
func rejectf(format string, args ...any) error {
	return &agentrt.Rejection{Reason: fmt.Sprintf(format, args...)}
}

// askJSON asks the model for one JSON object matching schema and
// decodes it into out. Errors are a *agentrt.Rejection for a reply that
// is not the asked-for JSON, or the call's (agentrt.Caller.CallJSON).
func (a *assist) askJSON(ctx context.Context, purpose, system, user string, schema *llm.Schema, maxTokens int, out any) error {
	return a.c.CallJSON(ctx, &llm.Request{Purpose: purpose, System: system, Output: schema, MaxTokens: maxTokens,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: user}}}, out)
}

// why says for a person why the model's step was not used: the call's
// failure or the check its output failed.
func (a *assist) why(err error) string {
	var rej *agentrt.Rejection
	if errors.As(err, &rej) {
		return rej.Reason
	}
	if k := llm.ErrorKind(err); k != "" {
		return fmt.Sprintf("the model did not answer (%s)", k)
	}
	return fmt.Sprintf("the model did not answer (%v)", err)
}

// fellBack tells, at stage, that the model's what was not used and
// instead what was done, and why; a rejected output is also a limitation
// of the report.
func (a *assist) fellBack(stage rs.Status, what, instead string, err error) {
	rest := ""
	if a.off() {
		rest = "; the rest of the research runs offline"
	}
	a.r.report(stage, "model %s: %s; %s%s", a.model.Name(), a.why(err), instead, rest)
	var rej *agentrt.Rejection
	if errors.As(err, &rej) {
		a.note("The model's %s was rejected (%s); %s.", what, rej.Reason, instead)
	}
}

// note adds a limitation to the report.
func (a *assist) note(format string, args ...any) {
	a.notes = append(a.notes, fmt.Sprintf(format, args...))
}

// summary tells what the model was asked in all, at the end of the run.
func (a *assist) summary(stage rs.Status) {
	if a.model == nil {
		return
	}
	a.r.report(stage, "model %s: %d calls, %d tokens", a.model.Name(), a.c.Calls(), a.c.Usage().Total())
}

// clipRunes cuts s at a word boundary to at most n characters, with an
// ellipsis when cut.
func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return cut + " ..."
}
