package investigate

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/llm"
)

const summarySchema = `{"type":"object","additionalProperties":false,"properties":{"summary":{"type":"string"}},"required":["summary"]}`

// condense asks the model to condense an iteration into 2-3 sentences for
// the ledger. The measured summary stays in the raw output; the model's
// text replaces it in the ledger only after its numbers were checked, each
// one no evidence contains marked unverified.
func (r *run) condense(ctx context.Context, iter int, h *investigation.Hypothesis, why string, res *stepResult) error {
	if r.ai == nil || r.ai.off {
		return nil
	}
	hyp := "none"
	if h != nil {
		hyp = h.HypothesisID + " " + h.Title
	}
	data := struct{ Hypothesis, Why, Measured, Output string }{hyp, why, res.summary, truncate(res.raw.String(), 12000)}
	var out struct {
		Summary string `json:"summary"`
	}
	req := &llm.Request{Purpose: "condense", System: r.system(), Messages: []llm.Message{{Role: llm.RoleUser, Content: prompt("condense", data)}},
		Output: schemaOf("finding", summarySchema)}
	ok, err := r.askJSON(ctx, req, iter, &out)
	if !ok || strings.TrimSpace(out.Summary) == "" {
		return err
	}
	text, err := r.check("condense", strings.TrimSpace(out.Summary))
	if err != nil {
		return err
	}
	if res.summary != "" {
		fmt.Fprintf(&res.raw, "-- measured summary\n%s\n", res.summary)
	}
	res.summary = text
	return nil
}

// summarize asks the model for the report's executive summary, written
// from the ranked explanations, and checks its numbers.
func (r *run) summarize(ctx context.Context) error {
	if r.ai == nil || r.ai.off {
		return nil
	}
	for _, e := range r.expls {
		r.ai.ev.AddText(e.Reasoning)
		for _, ev := range e.Evidence {
			r.ai.ev.AddText(ev.Description)
			for _, v := range ev.Values {
				r.ai.ev.AddValue(v)
			}
		}
		r.ai.ev.AddValue(e.Change)
		r.ai.ev.AddValue(e.ShareOfChange)
	}
	data := struct {
		MetricSQL, Periods, Change, BusinessContext, Prompt, WhyNone string
		Explanations, Hypotheses                                     []string
	}{
		MetricSQL: r.in.Context.MetricSQL, Periods: r.in.Context.Describe(), Change: r.changeSentence(),
		BusinessContext: r.in.Context.BusinessContext, Prompt: r.in.Context.InvestigationPrompt, WhyNone: r.whyNone,
	}
	for i, e := range r.expls {
		data.Explanations = append(data.Explanations, fmt.Sprintf("%d. %s: %s", i+1, e.Title, e.Reasoning))
	}
	for _, h := range r.hyps {
		data.Hypotheses = append(data.Hypotheses, fmt.Sprintf("%s [%s] %s %s", h.HypothesisID, h.Status, h.Title, h.Verdict))
	}
	var out struct {
		Summary string `json:"summary"`
	}
	req := &llm.Request{Purpose: "report", System: r.system(), Messages: []llm.Message{{Role: llm.RoleUser, Content: prompt("report", data)}},
		Output: schemaOf("summary", summarySchema), MaxTokens: 1024}
	ok, err := r.askJSON(ctx, req, 0, &out)
	if !ok || strings.TrimSpace(out.Summary) == "" {
		return err
	}
	r.summary, err = r.check("report", strings.TrimSpace(out.Summary))
	return err
}

// learn adds what an offline step measured to the evidence numbers.
func (r *run) learn(res *stepResult) {
	if r.ai != nil {
		r.ai.ev.AddText(res.raw.String())
		r.ai.ev.AddText(res.summary)
		r.ai.ev.AddText(res.reason)
	}
}

// usageRecord is analysis/llm_usage.json: the model's tokens over the
// whole investigation, per step.
type usageRecord struct {
	Model     string                              `json:"model"`
	Total     investigation.TokenUsage            `json:"total"`
	ByPurpose map[string]investigation.TokenUsage `json:"by_purpose"`
}

// writeUsage writes the token accounting of a run that used a model.
func (r *run) writeUsage(ctx context.Context) error {
	if r.ai == nil {
		return nil
	}
	return r.artifact("analysis/llm_usage.json", usageRecord{Model: r.ai.model.Name(), Total: r.ai.usage, ByPurpose: r.ai.byPurpose})
}

// uploadForCode makes the uploaded files available to the Python sandbox.
// A sandbox that cannot take them leaves the model with SQL only.
func (r *run) uploadForCode(ctx context.Context) error {
	if r.ai == nil || r.inv.Code == nil {
		return nil
	}
	for _, f := range r.in.Files {
		p, err := r.inv.Code.Upload(ctx, f.TableName+".csv", filepath.Join(r.inv.Out.Dir(), filepath.FromSlash(f.Path)))
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			r.codeFiles = nil
			return r.policy("code_sandbox", "unavailable", map[string]any{"reason": quarry.ErrorMessage(err)})
		}
		r.codeFiles = append(r.codeFiles, p)
	}
	return nil
}
