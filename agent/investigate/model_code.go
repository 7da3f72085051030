package investigate

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/quarry-dev/quarry/investigation"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/llm"
)

// CodeRunner runs Python that the model writes in an external sandbox,
// such as an MCP code-execution server. It is optional: without one the
// model writes SQL only.
type CodeRunner interface {
	// Upload makes a local file available to the code and returns the path
	// the code should open it by.
	Upload(ctx context.Context, name, path string) (string, error)
	// RunPython runs code and returns its output. ok is false when the code
	// failed; the output then holds the error. err is for the sandbox
	// itself failing (UNAVAILABLE).
	RunPython(ctx context.Context, code string) (output string, ok bool, err error)
}

// SQL error categories the model is told when its query fails.
const (
	catSyntax        = "syntax"
	catMissingColumn = "missing column"
	catMissingTable  = "missing table"
	catTypeMismatch  = "type mismatch"
	catResourceLimit = "resource limit"
	catForbidden     = "forbidden by the sandbox"
	catOther         = "other"
)

// sqlCategory classifies a failed query by what the author must change.
func sqlCategory(err error) string {
	if quarry.ErrorCode(err) == quarry.ECodeForbidden {
		return catForbidden
	}
	msg := strings.ToLower(quarry.ErrorMessage(err))
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(msg, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("does not parse", "parser error", "syntax error"):
		return catSyntax
	case has("referenced column", "column", "not found in from clause") && has("not found", "does not exist", "does not have a column"):
		return catMissingColumn
	case has("table with name", "catalog error"):
		return catMissingTable
	case has("conversion error", "no function matches", "cannot compare", "could not convert", "mismatch", "cannot be cast", "implicit cast"):
		return catTypeMismatch
	case has("did not finish within", "rows", "memory", "out of memory"):
		return catResourceLimit
	}
	return catOther
}

// runModelCode runs the SQL or Python of a decision and adds what it got to
// res. A failing query goes back to the model with its error category for
// up to maxRepairs corrections; every attempt is in the audit log, and an
// attempt the sandbox forbids is also logged as a denied policy decision.
func (r *run) runModelCode(ctx context.Context, iter int, d *decision, res *stepResult) error {
	if strings.TrimSpace(d.SQL) != "" {
		return r.modelQuery(ctx, iter, d, res)
	}
	return r.modelPython(ctx, iter, d, res)
}

func (r *run) modelQuery(ctx context.Context, iter int, d *decision, res *stepResult) error {
	sql := strings.TrimRight(strings.TrimSpace(d.SQL), "; \n\t")
	for attempt := 1; ; attempt++ {
		out, rec, err := r.rec.query(ctx, "model: "+truncate(d.Reasoning, 200), limitRows(sql))
		if err != nil && quarry.ErrorCode(err) == quarry.ECodeInvalid && strings.Contains(quarry.ErrorMessage(err), "does not parse") {
			// Wrapping in a LIMIT can turn a forbidden statement into a
			// parse error; the statement alone gets the sandbox's verdict.
			out, rec, err = r.rec.query(ctx, "model: "+truncate(d.Reasoning, 200), sql)
		}
		if err == nil {
			note := ""
			if len(out.Rows) > investigation.ModelMaxRows {
				out.Rows = out.Rows[:investigation.ModelMaxRows]
				note = fmt.Sprintf("(first %d rows shown)\n", investigation.ModelMaxRows)
			}
			r.ai.ev.AddResult(out)
			res.addQuery("model query: "+truncate(d.Reasoning, 200), rec, note+resultTable(out))
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if quarry.ErrorCode(err) == "" {
			return err
		}
		cat := sqlCategory(err)
		fmt.Fprintf(&res.raw, "-- model query failed (%s, audit entry %d): %s\n%s;\n\n", cat, rec.Sequence, quarry.ErrorMessage(err), sql)
		res.sqls = append(res.sqls, "-- failed ("+cat+")\n"+sql)
		if cat == catForbidden {
			if err := r.policy("sandbox", "denied", map[string]any{"sql": truncate(sql, 2000), "reason": quarry.ErrorMessage(err), "iteration": iter}); err != nil {
				return err
			}
		}
		if attempt > maxRepairs {
			return nil
		}
		fixed, ferr := r.repair(ctx, iter, attempt, "sql", sql, cat, quarry.ErrorMessage(err))
		if ferr != nil || fixed == "" {
			return ferr
		}
		sql = strings.TrimRight(strings.TrimSpace(fixed), "; \n\t")
	}
}

// limitRows caps a model query's result without touching its text.
func limitRows(sql string) string {
	return fmt.Sprintf("SELECT * FROM (\n%s\n) AS model_query LIMIT %d", sql, investigation.ModelMaxRows+1)
}

const repairSchema = `{"type":"object","additionalProperties":false,"properties":{"code":{"type":"string"},"reasoning":{"type":"string"}},"required":["code","reasoning"]}`

// repair asks the model to correct failed code; "" means it gave up.
func (r *run) repair(ctx context.Context, iter, attempt int, lang, code, category, message string) (string, error) {
	data := struct {
		Category, Message, Code, Tables string
		Attempt, Max                    int
		Python                          bool
		Files                           []string
	}{category, truncate(message, 1500), code, r.tableListing(2), attempt, maxRepairs, lang == "python", r.codeFiles}
	var out struct {
		Code string `json:"code"`
	}
	req := &llm.Request{Purpose: "repair", System: r.system(), Messages: []llm.Message{{Role: llm.RoleUser, Content: prompt("repair", data)}},
		Output: schemaOf("repair_"+lang, repairSchema)}
	if ok, err := r.askJSON(ctx, req, iter, &out); !ok {
		return "", err
	}
	return out.Code, nil
}

// modelPython sends the decision's Python to the code runner.
func (r *run) modelPython(ctx context.Context, iter int, d *decision, res *stepResult) error {
	code := d.Python
	for attempt := 1; ; attempt++ {
		r.rec.calls++
		id := fmt.Sprintf("py_%04d", r.rec.calls)
		if _, err := r.inv.Audit.Append(quarry.EventToolCalled, "actor", map[string]any{
			"call_id": id, "tool_name": "python", "arguments": map[string]any{"code": code, "purpose": truncate(d.Reasoning, 200)},
		}); err != nil {
			return err
		}
		start := time.Now()
		out, ok, err := r.inv.Code.RunPython(ctx, code)
		obs := map[string]any{"call_id": id, "success": err == nil && ok, "elapsed_ms": time.Since(start).Milliseconds(), "output_bytes": len(out)}
		if err != nil {
			obs["error"], obs["error_code"] = quarry.ErrorMessage(err), quarry.ErrorCode(err)
		}
		e, aerr := r.inv.Audit.Append(quarry.EventObservationRecorded, "actor", obs)
		if aerr != nil {
			return aerr
		}
		res.sqls = append(res.sqls, "# python\n"+code)
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return ctx.Err()
			}
			fmt.Fprintf(&res.raw, "-- python sandbox unavailable (audit entry %d): %s\n\n", e.SequenceNumber, quarry.ErrorMessage(err))
			return nil
		case ok:
			r.ai.ev.AddText(out)
			fmt.Fprintf(&res.raw, "-- python (audit entry %d)\n%s\n\n%s\n", e.SequenceNumber, code, truncate(out, 16000))
			return nil
		}
		fmt.Fprintf(&res.raw, "-- python failed (audit entry %d)\n%s\n\n%s\n", e.SequenceNumber, code, truncate(out, 4000))
		if attempt > maxRepairs {
			return nil
		}
		fixed, ferr := r.repair(ctx, iter, attempt, "python", code, "python error", out)
		if ferr != nil || fixed == "" {
			return ferr
		}
		code = fixed
	}
}

// resultTable formats a query result as a plain text table.
func resultTable(q *quarry.QueryResult) string {
	var b strings.Builder
	b.WriteString(strings.Join(q.Columns, " | "))
	b.WriteByte('\n')
	for _, row := range q.Rows {
		for i, v := range row {
			if i > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(quarry.AsText(v))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
