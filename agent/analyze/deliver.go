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

// reportMarkdown is the report: the request, the summary, each step with
// its query and result (the first rows), the charts, and where the audit
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
	if summary != "" {
		fmt.Fprintf(&b, "## Summary\n\n%s\n\n", summary)
	}
	fmt.Fprintf(&b, "## Plan\n\n%s\n\n", r.plan.Reasoning)
	for _, t := range r.plan.Subtasks {
		fmt.Fprintf(&b, "## %s\n\n", oneLine(t.Description))
		fmt.Fprintf(&b, "Step `%s`, tool `%s`, %s.\n\n", t.TaskID, t.ToolName, t.Status)
		if q := r.ranQuery(t); q != "" { // as it ran, with a repair's LIMIT
			fmt.Fprintf(&b, "```sql\n%s\n```\n\n", q)
		}
		out := r.outputs[t.TaskID]
		if out == nil {
			continue
		}
		for _, a := range r.res.Artifacts {
			if a.TaskID == t.TaskID && a.ArtifactType == analysis.ArtifactChart {
				fmt.Fprintf(&b, "![%s](../../charts/%s/%s)\n\n", t.Description, r.req.RequestID, path.Base(a.ContentRef))
			}
		}
		if out.table == "" {
			continue
		}
		res, err := r.ws.Query(ctx, fmt.Sprintf("SELECT * FROM %s LIMIT %d", quoteIdent(out.table), previewRows))
		if err != nil || len(res.Columns) == 0 {
			continue
		}
		b.WriteString(markdownTable(res))
		if out.rows > int64(len(res.Rows)) {
			fmt.Fprintf(&b, "\nFirst %d of %d rows.\n", len(res.Rows), out.rows)
		}
		if out.cut != nil {
			fmt.Fprintf(&b, "\n%s\n", out.cut.sentence())
		}
		b.WriteString("\n")
	}
	b.WriteString("## Audit\n\nEvery query, observation and artifact of this request is in `logs/data_agent_runs.jsonl` under the request id this report's folder is named after; `quarry audit verify` checks the chain and each artifact's SHA-256.\n")
	return b.String()
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
