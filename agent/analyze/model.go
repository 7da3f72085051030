package analyze

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry"
	agentrt "github.com/quarry-dev/quarry/agent/runtime"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/llm"
)

// maxPlanRepairs is how many times an invalid plan goes back to the model
// with its errors before the offline planner takes over.
const maxPlanRepairs = 2

// planSchema is the structured output a model's plan must have; the same
// rules as the offline planner's plans check it afterwards.
var planSchema = json.RawMessage(`{
  "type": "object",
  "additionalProperties": false,
  "required": ["reasoning", "subtasks"],
  "properties": {
    "reasoning": {"type": "string"},
    "subtasks": {"type": "array", "minItems": 1, "maxItems": 20, "items": {
      "type": "object",
      "additionalProperties": false,
      "required": ["task_id", "description", "tool_name", "dependencies", "arguments", "estimated_cost_seconds", "deliverable"],
      "properties": {
        "task_id": {"type": "string"},
        "description": {"type": "string"},
        "tool_name": {"type": "string", "enum": ["sql.run", "df.transform", "plot.render", "profiler.analyze"]},
        "dependencies": {"type": "array", "items": {"type": "string"}},
        "arguments": {"type": "object"},
        "estimated_cost_seconds": {"type": "number"},
        "deliverable": {"type": "string", "enum": ["", "tables", "charts"]}
      }
    }}
  }
}`)

const plannerSystem = `You plan data analyses for Quarry. Answer with one JSON plan: a DAG of steps, each one tool call.

Tools and their arguments (unknown fields are refused):
- sql.run {query, row_limit?, source?}: one read-only SELECT in DuckDB SQL over the tables below (a table with "source" runs in that database: give its source and write its dialect). Each step's result is kept as the table step_<task_id>, which later steps may query (and must depend on).
- df.transform {input, operation, columns?, aggregation?, group_by?, column?, op?, value?, descending?, limit?}: operation aggregate (group_by + columns with aggregation sum|avg|count|count_distinct|min|max|median|std), filter (column op value), sort (columns, descending, limit), share (one column as a share of its total), growth (one column's change, ordered by group_by[0]). Statistical operations: ttest (column + group_by[0] of two groups, or two columns; method student|welch|paired|one_sample, one_sample with value), anova (column + group_by[0]), chisquare (two columns), correlate (two columns; method pearson|spearman), normality (column; method shapiro|normaltest), outliers (column; method iqr|zscore, threshold; keeps the outlier rows), regress (column is y, columns the predictors; a row per term), impute (columns; method mean|median|mode), feature (name, expression of numeric columns, numbers, + - * / and parentheses).
- plot.render {input, type: line|bar|histogram|scatter, x_col, y_col?, series_col?, title}.
- profiler.analyze {input | table, columns?}: summary statistics, outliers, normality, correlations.

Rules: task ids are letters, digits and _; every step that reads another's output ("input", or step_<id> in SQL) depends on it; mark result tables the user should get with deliverable "tables" and charts with "charts"; estimate seconds so the total stays within the timeout; filter before aggregating; aggregate in SQL rather than returning raw rows; use only the columns listed.`

// ModelPlanner returns a planner (Analyzer.Planner) that asks m to write
// the plan. Each plan is validated by the same rules as the offline
// planner's; an invalid one goes back with its errors, twice at most, and
// then the offline planner takes over. Every call is in the audit log
// (agent/runtime), as the planner's. A call the model does not answer
// ends the planning there: the offline planner plans, without waiting for
// the model again.
func ModelPlanner(m llm.Model, audit Auditor) func(ctx context.Context, req *analysis.Request, tables []analysis.SourceTable) (*analysis.Plan, error) {
	return func(ctx context.Context, req *analysis.Request, tables []analysis.SourceTable) (*analysis.Plan, error) {
		opt := agentrt.Options{Actor: actorPlanner, Job: "analysis"}
		if audit != nil {
			opt.Audit = requestLog{audit, req.RequestID}
		}
		c := agentrt.New(m, opt)
		msgs := []llm.Message{{Role: llm.RoleUser, Content: plannerPrompt(req, tables)}}
		var lastErr error
		// Unlike a step of the other agents, a plan that is not valid is
		// not simply dropped: it goes back with its errors, as an
		// investigation's failed SQL does, because the errors say exactly
		// what to fix.
		for attempt := 0; attempt <= maxPlanRepairs; attempt++ {
			resp, err := c.With(map[string]any{"attempt_number": attempt + 1}).Call(ctx, &llm.Request{Purpose: "analysis_plan", System: plannerSystem, Messages: msgs,
				Output: &llm.Schema{Name: "plan", Schema: planSchema}, MaxTokens: 4096})
			if err != nil {
				return nil, err
			}
			var p analysis.Plan
			if err := agentrt.DecodeJSON(resp.Text, &p); err != nil {
				lastErr = quarry.Errorf(quarry.ECodeInvalid, "the plan is not the JSON asked for: %w", err)
			} else {
				p.Status = analysis.PlanDraft
				if lastErr = p.Validate(analysis.Tools, req.Constraints.TimeoutSeconds); lastErr == nil {
					p.Reasoning = strings.TrimSpace(p.Reasoning)
					return &p, nil
				}
			}
			msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Content: resp.Text},
				llm.Message{Role: llm.RoleUser, Content: "That plan is not valid: " + quarry.ErrorMessage(lastErr) + hintOf(lastErr) + ". Answer with the whole plan again, fixed."})
		}
		return nil, lastErr
	}
}

// requestLog is the analyses' shared log as the agent runtime writes it:
// every entry of one request.
type requestLog struct {
	audit     Auditor
	requestID string
}

func (l requestLog) Append(eventType, actor string, data map[string]any) (quarry.AuditEntry, error) {
	return l.audit.AppendFor(l.requestID, eventType, actor, data)
}

func hintOf(err error) string {
	if qe, ok := err.(*quarry.Error); ok && qe.Hint != "" {
		return " (" + qe.Hint + ")"
	}
	return ""
}

// plannerPrompt says what the model needs: the request, its limits and
// the tables with their columns. Under allowed_columns it lists only the
// allowed columns, with their values and ranges; a forbidden column is
// neither named nor sampled, so neither its data nor its existence leaves
// the machine (and a table with no allowed column is left out).
func plannerPrompt(req *analysis.Request, tables []analysis.SourceTable) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Request: %s\n\nDeliverables: %s. Row limit per query: %d. Timeout: %d s.\n",
		req.Intent, strings.Join(req.Deliverables, ", "), req.Constraints.RowLimit, req.Constraints.TimeoutSeconds)
	b.WriteString(tablesPrompt(req, tables))
	return b.String()
}

// tablesPrompt lists the tables a model may read: under allowed_columns
// only the allowed columns, with their values and ranges.
func tablesPrompt(req *analysis.Request, tables []analysis.SourceTable) string {
	var b strings.Builder
	pol := req.Policy
	if len(pol.AllowedColumns) > 0 {
		b.WriteString("Only the columns listed below may be read, each by name: a whole row (t.*, *, to_json(t), t::VARCHAR), a table function or any other column is refused.\n")
	}
	b.WriteString("\nTables:\n")
	for _, t := range tables {
		var cols []analysis.SourceColumn
		for _, c := range t.Columns {
			if pol.Allows(t.Name, c.Name) {
				cols = append(cols, c)
			}
		}
		if len(cols) == 0 {
			continue
		}
		src := ""
		if t.Source != "" {
			src = fmt.Sprintf(" (in database source %q)", t.Source)
		}
		fmt.Fprintf(&b, "- %s%s, %d rows:\n", t.Name, src, t.Rows)
		if t.From != "" {
			fmt.Fprintf(&b, "  (joined to %s by its keys: read it as FROM %s)\n", strings.Join(t.Joined, ", "), t.From)
		}
		for _, c := range cols {
			extra := ""
			switch {
			case c.Min != "":
				extra = fmt.Sprintf(", %s to %s", c.Min, c.Max)
			case len(c.Values) > 0 && len(c.Values) <= 20:
				extra = ", values: " + strings.Join(c.Values, ", ")
			case len(c.Values) > 20:
				extra = fmt.Sprintf(", %d values such as %s", len(c.Values), strings.Join(c.Values[:5], ", "))
			}
			fmt.Fprintf(&b, "  - %s (%s%s)\n", c.Name, c.Type, extra)
		}
	}
	return b.String()
}
