package analyze

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry"
	agentrt "github.com/quarry-dev/quarry/agent/runtime"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/intent"
	"github.com/quarry-dev/quarry/llm"
)

// clarify returns how a request was read and a NEEDS_CLARIFICATION error
// when it has words that would change the answer and could not be
// applied; nil, nil when everything was understood. Such a request is not
// answered: an answer to the words understood would answer a different
// question.
func clarify(in *intent.Intent) (*analysis.Clarification, error) {
	if len(in.Unknown) == 0 {
		return nil, nil
	}
	c := &analysis.Clarification{Understood: append([]string{}, in.Understood...)}
	var parts []string
	for _, u := range in.Unknown {
		c.NotUnderstood = append(c.NotUnderstood, analysis.UnknownWord{Word: u.Word, Reason: u.Reason, Nearest: u.Nearest})
		s := fmt.Sprintf("%q (%s", u.Word, u.Reason)
		if len(u.Nearest) > 0 {
			s += "; nearest: " + strings.Join(u.Nearest, ", ")
		}
		parts = append(parts, s+")")
	}
	err := quarry.Errorf(quarry.ECodeNeedsClarification, "I could not answer this as asked: I could not apply %s", strings.Join(parts, ", "))
	hint := "say it with the data's column names or values (a quoted column name is read as is)"
	if len(in.Understood) > 0 {
		hint = "I understood: " + strings.Join(in.Understood, "; ") + ". " + strings.ToUpper(hint[:1]) + hint[1:]
	}
	return c, err.WithHint(hint)
}

// unclear reports whether a request could not be read as asked: the
// parser found words it could not apply, or needs clarifying.
func unclear(in *intent.Intent, perr error) bool {
	return quarry.ErrorCode(perr) == quarry.ECodeNeedsClarification || perr == nil && in != nil && len(in.Unknown) > 0
}

// resolveSchema is what the model answers when asked to restate a
// request in the data's terms.
var resolveSchema = json.RawMessage(`{
  "type": "object",
  "additionalProperties": false,
  "required": ["restated", "unclear"],
  "properties": {
    "restated": {"type": "string"},
    "unclear": {"type": "array", "items": {"type": "string"}}
  }
}`)

const resolveSystem = `You help a data analysis tool read a request. Some words of it could not be matched to the data. Restate the request in plain words using the exact column names and values listed, keeping every condition, grouping, measure, period and ranking it asks for, adding none. If a word cannot be expressed with these columns and values, do not guess: leave "restated" empty and list the word in "unclear". Answer with JSON only.`

// resolve asks the model to restate a request whose words the parser
// could not apply in the data's terms, and reads the restatement with the
// same parser. It returns the restated text with what the parser made of
// it, or "" when the model did not restate it (unclear, or its call
// failed): the model's words are never used without the parser's reading.
func (r *run) resolve(ctx context.Context, in *intent.Intent, perr error) (string, *intent.Intent, error) {
	opt := agentrt.Options{Actor: actorPlanner, Job: "analysis"}
	if r.a.Audit != nil {
		opt.Audit = requestLog{r.a.Audit, r.req.RequestID}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Request: %s\n\n", r.req.Intent)
	if in != nil {
		for _, u := range in.Unknown {
			fmt.Fprintf(&b, "Not understood: %q (%s)\n", u.Word, u.Reason)
		}
		if len(in.Understood) > 0 {
			fmt.Fprintf(&b, "Understood: %s\n", strings.Join(in.Understood, "; "))
		}
	} else if perr != nil {
		fmt.Fprintf(&b, "The tool said: %s\n", quarry.ErrorMessage(perr))
	}
	b.WriteString("\n" + tablesPrompt(r.req, r.tables))
	resp, err := agentrt.New(r.a.Model, opt).Call(ctx, &llm.Request{Purpose: "analysis_resolve", System: resolveSystem,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: b.String()}}, Output: &llm.Schema{Name: "restatement", Schema: resolveSchema}, MaxTokens: 512})
	if err != nil {
		return "", nil, nil
	}
	var out struct {
		Restated string   `json:"restated"`
		Unclear  []string `json:"unclear"`
	}
	if err := agentrt.DecodeJSON(resp.Text, &out); err != nil || strings.TrimSpace(out.Restated) == "" || len(out.Unclear) > 0 {
		return "", nil, nil
	}
	text := strings.TrimSpace(out.Restated)
	rin, rerr := parseIntent(text, r.tables, r.a.Now())
	if rin != nil {
		rin.Understood = append([]string{fmt.Sprintf("restated by the model as %q", text)}, rin.Understood...)
	}
	r.progress(analysis.Event{Step: "plan", Message: fmt.Sprintf("the model restated the request as %q", text)})
	return text, rin, rerr
}
