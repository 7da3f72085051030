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
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry/llm"
	rs "github.com/quarry-dev/quarry/research"
)

// assist is one run's use of the model. Its zero model means offline:
// every method then does nothing, and the offline steps run as they
// would without it.
type assist struct {
	r     *Researcher
	model llm.Model
	// off is set after a call fails in a way the next call would too
	// (the provider is down, the key is wrong, the request was stopped):
	// the rest of the run is offline rather than waiting on the same
	// failure again.
	off bool
	// planned are the sub-questions the model wrote.
	planned map[string]bool
	// notes are the limitations the report gains from the model's
	// rejected output.
	notes []string
	calls int
	usage llm.Usage
	facts factTally
}

func (r *Researcher) assist() *assist {
	return &assist{r: r, model: r.Model, planned: map[string]bool{}}
}

// on reports whether the model may be asked.
func (a *assist) on() bool { return a.model != nil && !a.off }

// rejection is model output that failed a check, with the check's
// reason.
type rejection struct{ reason string }

func (e *rejection) Error() string { return e.reason }

func rejectf(format string, args ...any) error {
	return &rejection{fmt.Sprintf(format, args...)}
}

// askJSON asks the model for one JSON object matching schema and
// decodes it into out. Errors are a *rejection for a reply that is not
// the asked-for JSON, or the call's; after a call's error other than a
// refused request (INVALID) the model is off for the rest of the run.
func (a *assist) askJSON(ctx context.Context, purpose, system, user string, schema *llm.Schema, maxTokens int, out any) error {
	a.calls++
	resp, err := a.model.Complete(ctx, &llm.Request{Purpose: purpose, System: system, Output: schema, MaxTokens: maxTokens,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: user}}})
	if err != nil {
		// A provider that is down or refuses the key fails the same way
		// next time; a refused request or an unreadable reply may not.
		switch llm.ErrorKind(err) {
		case llm.KindMalformed:
			return rejectf("the model's reply is not the JSON asked for")
		case llm.KindInvalid:
		default:
			a.off = true
		}
		return err
	}
	if resp == nil {
		return rejectf("the model's reply was empty")
	}
	a.usage = a.usage.Add(resp.Usage)
	if err := json.Unmarshal([]byte(jsonObject(resp.Text)), out); err != nil {
		return rejectf("the model's reply is not the JSON asked for")
	}
	return nil
}

// jsonObject trims what models wrap JSON in: blanks and a Markdown code
// fence.
func jsonObject(s string) string {
	start, end := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}')
	if start < 0 || end < start {
		return s
	}
	return s[start : end+1]
}

// why says for a person why the model's step was not used: the call's
// failure or the check its output failed.
func (a *assist) why(err error) string {
	var rej *rejection
	if errors.As(err, &rej) {
		return rej.reason
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
	if a.off {
		rest = "; the rest of the research runs offline"
	}
	a.r.report(stage, "model %s: %s; %s%s", a.model.Name(), a.why(err), instead, rest)
	var rej *rejection
	if errors.As(err, &rej) {
		a.note("The model's %s was rejected (%s); %s.", what, rej.reason, instead)
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
	a.r.report(stage, "model %s: %d calls, %d tokens", a.model.Name(), a.calls, a.usage.Total())
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
