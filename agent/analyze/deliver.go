package analyze

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"maps"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// artifact writes one artifact, records it with its SHA-256 and size, and
// logs it (artifact_generated, with the path relative to the data dir that
// quarry audit verify checks).
func (r *run) artifact(kind, taskID, rel string, data []byte, meta map[string]any) (analysis.Artifact, error) {
	ref, err := r.a.Store.WriteArtifact(rel, data)
	if err != nil {
		return analysis.Artifact{}, quarry.StorageError(err)
	}
	art := analysis.Artifact{ArtifactID: quarry.NewID(), RequestID: r.req.RequestID, ArtifactType: kind, TaskID: taskID, ContentRef: ref,
		ContentHash: quarry.SHA256Hex(data), Metadata: meta, SizeBytes: int64(len(data)), CreatedAt: r.now()}
	if _, err := r.audit(quarry.EventArtifactGenerated, actorSystem, map[string]any{"artifact_id": art.ArtifactID, "artifact_type": kind,
		"task_id": taskID, "path": rel, "sha256": art.ContentHash, "size_bytes": art.SizeBytes, "metadata": meta}); err != nil {
		return art, err
	}
	r.mu.Lock()
	r.res.Artifacts = append(r.res.Artifacts, art)
	r.mu.Unlock()
	r.progress(analysis.Event{Step: "artifact", TaskID: taskID, Message: kind + " " + path.Base(rel)})
	return art, nil
}

// deliver writes the requested deliverables: each result table the plan
// marked as one (CSV), the summary and the report (Markdown).
func (r *run) deliver(ctx context.Context) error {
	if r.req.Wants(analysis.DeliverTables) {
		for _, t := range r.plan.Subtasks {
			out := r.outputs[t.TaskID]
			if t.Deliverable != analysis.DeliverTables || t.Status != analysis.TaskSucceeded || out == nil || out.table == "" {
				continue
			}
			res, err := r.ws.Query(ctx, fmt.Sprintf("SELECT * FROM %s LIMIT %d", quoteIdent(out.table), r.req.Constraints.RowLimit))
			if err != nil {
				return err
			}
			data, err := tableCSV(res)
			if err != nil {
				return err
			}
			rel := path.Join("artifacts", "tables", r.req.RequestID, fileName(t.TaskID)+".csv")
			meta := map[string]any{"row_count": len(res.Rows), "column_names": res.Columns, "title": t.Description}
			maps.Copy(meta, r.cutMeta(t.TaskID)) // truncated, row_limit, ... when its rows were cut
			if _, err := r.artifact(analysis.ArtifactTable, t.TaskID, rel, data, meta); err != nil {
				return err
			}
		}
	}
	facts := r.findings(ctx)
	summary := summaryText(facts)
	r.res.Summary = summary
	if r.req.Wants(analysis.DeliverSummary) && summary != "" {
		rel := path.Join("artifacts", "reports", r.req.RequestID, "summary.md")
		if _, err := r.artifact(analysis.ArtifactSummary, "", rel, []byte(summary+"\n"), map[string]any{"format": "markdown", "sentences": len(facts)}); err != nil {
			return err
		}
	}
	if r.req.Wants(analysis.DeliverReports) {
		md := r.reportMarkdown(ctx, summary)
		rel := path.Join("artifacts", "reports", r.req.RequestID, "report.md")
		if _, err := r.artifact(analysis.ArtifactReport, "", rel, []byte(md), map[string]any{"format": "markdown", "section_count": strings.Count(md, "\n## ")}); err != nil {
			return err
		}
	}
	return nil
}

// tableCSV writes a result as CSV, values as quarry.AsText prints them.
func tableCSV(res *quarry.QueryResult) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(res.Columns)
	rec := make([]string, len(res.Columns))
	for i := range res.Rows {
		for j := range rec {
			if f, ok := res.Rows[i][j].(float64); ok {
				rec[j] = stableFloat(f)
				continue
			}
			rec[j] = res.String(i, j)
		}
		w.Write(rec)
	}
	w.Flush()
	return b.Bytes(), w.Error()
}

// stableFloat prints f to 12 significant digits: enough for any figure a
// person reads, and blind to the last bits a parallel sum may add in
// another order, so a replay writes the same table.
func stableFloat(f float64) string {
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return quarry.AsText(f)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 12, 64), 64)
	return quarry.AsText(r)
}

// reportMarkdown is the report, the answer first: the summary, or what
// could not be answered; then the results (each step's chart and first
// rows), then the plan with each step and its query, and where the audit
// trail is.
func (r *run) reportMarkdown(ctx context.Context, summary string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Analysis: %s\n\n", oneLine(r.req.Intent))
	var sources []string
	for _, ds := range r.req.DataSources {
		sources = append(sources, "`"+ds.Name+"`")
	}
	// Nothing run-specific (request id, time) goes into the report, so a
	// replay over the same data writes the same bytes; the folder names
	// the request.
	fmt.Fprintf(&b, "Over %s.\n\n", strings.Join(sources, ", "))
	b.WriteString(answerMarkdown(r.plan, r.res, summary))
	var results strings.Builder
	for _, t := range r.plan.Subtasks {
		out := r.outputs[t.TaskID]
		if out == nil {
			continue
		}
		var part strings.Builder
		for _, a := range r.res.Artifacts {
			if a.TaskID == t.TaskID && a.ArtifactType == analysis.ArtifactChart {
				fmt.Fprintf(&part, "![%s](../../charts/%s/%s)\n\n", t.Description, r.req.RequestID, path.Base(a.ContentRef))
			}
		}
		if out.table != "" {
			res, err := r.ws.Query(ctx, fmt.Sprintf("SELECT * FROM %s LIMIT %d", quoteIdent(out.table), previewRows))
			if err == nil && len(res.Columns) > 0 {
				part.WriteString(markdownTable(res))
				if out.rows > int64(len(res.Rows)) {
					fmt.Fprintf(&part, "\nFirst %d of %d rows.\n", len(res.Rows), out.rows)
				}
				part.WriteString("\n")
			}
		}
		if out.cut != nil {
			fmt.Fprintf(&part, "%s\n\n", out.cut.sentence())
		}
		if part.Len() > 0 {
			fmt.Fprintf(&results, "### %s\n\n%s", oneLine(t.Description), part.String())
		}
	}
	if results.Len() > 0 {
		fmt.Fprintf(&b, "## Results\n\n%s", results.String())
	}
	fmt.Fprintf(&b, "## Plan\n\n%s\n\n", r.plan.Reasoning)
	for _, t := range r.plan.Subtasks {
		fmt.Fprintf(&b, "### Step %s: %s\n\n", t.TaskID, oneLine(t.Description))
		fmt.Fprintf(&b, "Tool `%s`, %s.\n\n", t.ToolName, t.Status)
		if q := r.ranQuery(t); q != "" { // as it ran, with a repair's LIMIT
			fmt.Fprintf(&b, "```sql\n%s\n```\n\n", q)
		}
	}
	b.WriteString("## Audit\n\nEvery query, observation and artifact of this request is in `logs/data_agent_runs.jsonl` under the request id this report's folder is named after; `quarry audit verify` checks the chain and each artifact's SHA-256.\n")
	return b.String()
}

// answerMarkdown is the report's first section: the summary when every
// step succeeded; otherwise, said first, that the request could not be
// answered (in full or at all) and why: the steps that did not succeed
// with their last error, and for a request that could not be read as
// asked, the words not understood with the nearest columns and values and
// what was understood; then what could be answered.
func answerMarkdown(plan *analysis.Plan, res *analysis.Result, summary string) string {
	var b strings.Builder
	b.WriteString("## Answer\n\n")
	var notRun []string
	succeeded := 0
	if plan != nil {
		for _, t := range plan.Subtasks {
			if t.Status == analysis.TaskSucceeded {
				succeeded++
				continue
			}
			line := fmt.Sprintf("Step `%s` (%s) %s", t.TaskID, oneLine(t.Description), t.Status)
			if msg := lastError(res, t.TaskID); msg != "" {
				line += ": " + oneLine(msg)
			}
			notRun = append(notRun, line)
		}
	}
	c := res.Clarification
	unclear := c != nil && len(c.NotUnderstood) > 0
	switch {
	case unclear:
		b.WriteString("I could not answer this as asked: some words of the request would change the answer and could not be applied.\n\n")
	case len(notRun) > 0 && succeeded == 0:
		b.WriteString("I could not answer this: no step of the plan succeeded.\n\n")
	case len(notRun) > 0:
		b.WriteString("I could answer only part of this: these steps did not succeed, and the figures below leave them out.\n\n")
	default:
		if summary == "" {
			summary = "The analysis found no figure to state; the results are below."
		}
		b.WriteString(summary + "\n\n")
		if c != nil && len(c.Understood) > 0 {
			b.WriteString(understoodMarkdown(c.Understood))
		}
		return b.String()
	}
	for _, l := range notRun {
		b.WriteString("- " + l + "\n")
	}
	if len(notRun) > 0 {
		b.WriteString("\n")
	}
	if c != nil {
		if len(c.NotUnderstood) > 0 {
			b.WriteString("Not understood:\n\n")
			for _, u := range c.NotUnderstood {
				line := fmt.Sprintf("- **%s**", mdEscape(u.Word))
				if u.Reason != "" {
					line += ": " + mdEscape(u.Reason)
				}
				if len(u.Nearest) > 0 {
					line += "; nearest in the data: `" + strings.Join(u.Nearest, "`, `") + "`"
				}
				b.WriteString(line + "\n")
			}
			b.WriteString("\n")
		}
		if len(c.Understood) > 0 {
			b.WriteString(understoodMarkdown(c.Understood))
		}
	}
	if summary != "" {
		fmt.Fprintf(&b, "What I could answer:\n\n%s\n\n", summary)
	}
	return b.String()
}

// understoodMarkdown lists the phrases of the request that were applied.
func understoodMarkdown(understood []string) string {
	var b strings.Builder
	b.WriteString("Understood:\n\n")
	for _, u := range understood {
		b.WriteString("- " + mdEscape(u) + "\n")
	}
	return b.String() + "\n"
}

// lastError is the error message of a step's last failed attempt, "" if
// none was recorded.
func lastError(res *analysis.Result, taskID string) string {
	msg := ""
	for _, o := range res.Observations {
		if o.TaskID == taskID && o.ErrorMessage != nil {
			msg = *o.ErrorMessage
		}
	}
	return msg
}

// mdEscape keeps text from a request from being read as Markdown.
func mdEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", `\<`, "|", `\|`).Replace(oneLine(s))
}

func markdownTable(res *quarry.QueryResult) string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(res.Columns, " | ") + " |\n|")
	b.WriteString(strings.Repeat(" --- |", len(res.Columns)) + "\n")
	for i := range res.Rows {
		cells := make([]string, len(res.Columns))
		for j := range cells {
			v := res.Rows[i][j]
			if f, ok := v.(float64); ok {
				cells[j] = formatNumber(f)
			} else {
				cells[j] = strings.ReplaceAll(res.String(i, j), "|", `\|`)
			}
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
