package investigate

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/llm"
)

const (
	// workingMemoryBudget is the specification's ~6000-token budget for
	// what the model sees when it decides an iteration.
	workingMemoryBudget = 6000
	// maxRepairs is how many times a failed query goes back to the model.
	maxRepairs = 3
	// maxFindingsInMemory is how many condensed findings working memory
	// keeps (the most recent).
	maxFindingsInMemory = 10
)

// decision is the model's choice for one iteration.
type decision struct {
	Decision          string         `json:"decision"`
	HypothesisID      string         `json:"hypothesis_id"`
	Reasoning         string         `json:"reasoning"`
	SQL               string         `json:"sql"`
	Python            string         `json:"python"`
	HypothesisUpdates []statusUpdate `json:"hypothesis_updates"`
}

type statusUpdate struct {
	HypothesisID string `json:"hypothesis_id"`
	Status       string `json:"status"`
}

func (d *decision) hasCode() bool {
	return d != nil && d.Decision != investigation.DecisionConclude && (strings.TrimSpace(d.SQL) != "" || strings.TrimSpace(d.Python) != "")
}

const decisionSchema = `{"type":"object","additionalProperties":false,"properties":{
"decision":{"type":"string","enum":["ANALYZE","DRILL_DOWN","PIVOT","CONCLUDE"]},
"hypothesis_id":{"type":"string"},"reasoning":{"type":"string"},"sql":{"type":"string"},"python":{"type":"string"},
"hypothesis_updates":{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{"hypothesis_id":{"type":"string"},"status":{"type":"string","enum":["PENDING","INVESTIGATING","CONFIRMED","RULED_OUT"]}},"required":["hypothesis_id","status"]}}},
"required":["decision","hypothesis_id","reasoning","sql","python","hypothesis_updates"]}`

// decide builds the working memory and asks the model for the next step.
// It returns nil when the model did not give a usable decision, and the
// working memory's estimated size in tokens.
func (r *run) decide(ctx context.Context, iter int, agenda []step) (*decision, int, error) {
	if r.ai == nil || r.ai.off {
		return nil, 0, nil
	}
	mem := r.workingMemory(agenda)
	tokens := llm.EstimateTokens(mem)
	data := struct {
		Memory         string
		Iteration, Max int
		Python         bool
		Files          []string
	}{mem, iter, quarry.MaxLoopIterations, r.inv.Code != nil && len(r.codeFiles) > 0, r.codeFiles}
	var d decision
	req := &llm.Request{Purpose: "decide", System: r.system(), Messages: []llm.Message{{Role: llm.RoleUser, Content: prompt("decide", data)}},
		Output: schemaOf("decision", decisionSchema)}
	ok, err := r.askJSON(ctx, req, iter, &d)
	if !ok {
		return nil, tokens, err
	}
	d.Decision = strings.ToUpper(strings.TrimSpace(d.Decision))
	switch d.Decision {
	case investigation.DecisionAnalyze, investigation.DecisionDrillDown, investigation.DecisionPivot, investigation.DecisionConclude:
	default:
		return nil, tokens, r.policy("model_output", "rejected", map[string]any{"purpose": "decide", "reason": "unknown decision " + truncate(d.Decision, 40)})
	}
	if d.HypothesisID != "" && r.findHyp(d.HypothesisID) == nil {
		d.HypothesisID = ""
	}
	if d.Python != "" && r.inv.Code == nil {
		d.Python = ""
	}
	return &d, tokens, nil
}

func (r *run) findHyp(id string) *investigation.Hypothesis {
	for _, h := range r.hyps {
		if h.HypothesisID == id {
			return h
		}
	}
	return nil
}

// workingMemory is what the model knows when it decides: the objective,
// the tables, every hypothesis with its status, the last 10 condensed
// findings, the checks still planned and the last result. It stays within
// the budget by cutting the last result first, then the table listing.
func (r *run) workingMemory(agenda []step) string {
	var head strings.Builder
	fmt.Fprintf(&head, "# Objective\nExplain why %s moved %s.\n", r.in.Context.MetricSQL, r.changeSentence())
	if c := strings.TrimSpace(r.in.Context.BusinessContext); c != "" {
		fmt.Fprintf(&head, "Business context: %s\n", truncate(c, 1500))
	}
	if p := strings.TrimSpace(r.in.Context.InvestigationPrompt); p != "" {
		fmt.Fprintf(&head, "The user asks: %s\n", truncate(p, 1000))
	}
	fmt.Fprintf(&head, "Periods: %s. Time column: %s.\n", r.in.Context.Describe(), r.metric.TimeColumn)
	head.WriteString("\n# Hypotheses\n")
	for _, h := range r.hyps {
		fmt.Fprintf(&head, "- %s [%s] %s", h.HypothesisID, h.Status, h.Title)
		if h.Verdict != "" {
			fmt.Fprintf(&head, ": %s", h.Verdict)
		}
		head.WriteByte('\n')
	}
	head.WriteString("\n# Findings so far\n")
	fs := r.ledger.Findings
	if len(fs) > maxFindingsInMemory {
		fs = fs[len(fs)-maxFindingsInMemory:]
	}
	if len(fs) == 0 {
		head.WriteString("none yet\n")
	}
	for _, f := range fs {
		fmt.Fprintf(&head, "- %s (iteration %d, %s): %s\n", f.FindingID, f.Iteration, f.HypothesisAffected, f.Summary)
	}
	head.WriteString("\n# Checks Quarry still runs\n")
	if len(agenda) == 0 {
		head.WriteString("none: every planned check has run\n")
	}
	for i, st := range agenda {
		if i == 5 {
			fmt.Fprintf(&head, "- and %d more\n", len(agenda)-5)
			break
		}
		fmt.Fprintf(&head, "- %s (%s): %s\n", st.decision, st.hyp, st.why)
	}
	tables := "\n# Tables (SQL names)\n" + r.tableListing(4)
	last := "\n# Last result\nnone yet\n"
	if n := len(r.iterations); n > 0 {
		last = "\n# Last result (iteration " + fmt.Sprint(r.iterations[n-1].Iteration) + ")\n" + r.iterations[n-1].RawOutput
	}
	used := llm.EstimateTokens(head.String())
	if used+llm.EstimateTokens(tables) > workingMemoryBudget*2/3 {
		tables = "\n# Tables (SQL names)\n" + r.tableListing(2)
	}
	used += llm.EstimateTokens(tables)
	room := max(workingMemoryBudget-used, 200) * 4 // bytes
	if len(last) > room {
		last = truncate(last, room-40) + "\n[cut to fit the working memory]\n"
	}
	return head.String() + tables + last
}

// tableListing lists each table's columns with their types, and up to
// samples example values of each dimension column.
func (r *run) tableListing(samples int) string {
	var b strings.Builder
	for _, t := range r.model.Tables {
		ref := t.Name
		if v := r.refs[strings.ToLower(t.Name)]; v != "" {
			ref = v
		}
		fmt.Fprintf(&b, "- %s (%d rows):", ref, t.RowCount)
		for i, c := range t.Columns {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %s %s", quoteIdent(c.Name), c.DataType)
			if c.InferredType == quarry.RoleDimension && len(c.SampleValues) > 0 {
				fmt.Fprintf(&b, " (e.g. %s)", strings.Join(c.SampleValues[:min(len(c.SampleValues), samples)], ", "))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
