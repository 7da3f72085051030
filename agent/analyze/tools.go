package analyze

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/report"
)

// maxDistinctValues is the most distinct values of a text column the
// planner is told about, for matching filters.
const maxDistinctValues = 1000

// describe reads a workspace table's columns, row count, the values of its
// low-cardinality text columns and the range of its date and numeric
// columns.
func describe(ctx context.Context, ws Workspace, table string) (analysis.SourceTable, error) {
	t := analysis.SourceTable{Name: table}
	cols, err := ws.Columns(ctx, table)
	if err != nil {
		return t, err
	}
	res, err := ws.Query(ctx, "SELECT count(*) FROM "+quoteIdent(table))
	if err != nil {
		return t, err
	}
	t.Rows = int64(res.Float(0, 0))
	for _, c := range cols {
		sc := analysis.SourceColumn{Name: c.Name, Type: c.DataType}
		q := quoteIdent(c.Name)
		switch c.DataType {
		case quarry.TypeDatetime:
			sc.Type = "timestamp"
			fallthrough
		case quarry.TypeDate:
			if res, err := ws.Query(ctx, fmt.Sprintf("SELECT min(%s)::DATE::VARCHAR, max(%s)::DATE::VARCHAR, count(*) - count(%s) FROM %s", q, q, q, quoteIdent(table))); err == nil && len(res.Rows) == 1 {
				sc.Min, sc.Max, sc.Blanks = res.String(0, 0), res.String(0, 1), int64(res.Float(0, 2))
			}
		case quarry.TypeString:
			res, err := ws.Query(ctx, fmt.Sprintf("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL LIMIT %d", q, quoteIdent(table), q, maxDistinctValues+1))
			if err == nil && len(res.Rows) <= maxDistinctValues {
				for i := range res.Rows {
					sc.Values = append(sc.Values, res.String(i, 0))
				}
				slices.Sort(sc.Values)
			}
		}
		t.Columns = append(t.Columns, sc)
	}
	numericRanges(ctx, ws, &t)
	analysis.QualifyLabels(ctx, &t, quoteIdent(table), quoteIdent, func(ctx context.Context, q string) (int64, error) {
		res, err := ws.Query(ctx, q)
		if err != nil || len(res.Rows) != 1 {
			return 0, fmt.Errorf("count: %v", err)
		}
		return int64(res.Float(0, 0)), nil
	})
	return t, nil
}

// numericRanges sets the lowest and highest value of each numeric column,
// in one scan: a percentage compared with a column of fractions is read
// against them. Unknown when the query fails.
func numericRanges(ctx context.Context, ws Workspace, t *analysis.SourceTable) {
	var sel []string
	var at []int
	for i, c := range t.Columns {
		if c.Type == quarry.TypeInteger || c.Type == quarry.TypeFloat {
			q := quoteIdent(c.Name)
			sel = append(sel, fmt.Sprintf("min(%s)::VARCHAR, max(%s)::VARCHAR", q, q))
			at = append(at, i)
		}
	}
	if len(sel) == 0 {
		return
	}
	res, err := ws.Query(ctx, "SELECT "+strings.Join(sel, ", ")+" FROM "+quoteIdent(t.Name))
	if err != nil || len(res.Rows) != 1 {
		return
	}
	for k, i := range at {
		t.Columns[i].Min, t.Columns[i].Max = res.String(0, 2*k), res.String(0, 2*k+1)
	}
}

// runTask runs one step: up to MaxAttempts tool calls, each recorded with
// its observation, the arguments repaired between attempts by the
// category of the failure.
func (r *run) runTask(ctx context.Context, t *analysis.Subtask) {
	r.setStatus(t, analysis.TaskRunning)
	args := t.Arguments
	// castRepair and overLimit say what the repair before this attempt
	// fixed: text cast to numbers, or too many rows.
	castRepair, overLimit := false, false
	var last error // the last attempt's error
	for attempt := 1; attempt <= analysis.MaxAttempts; attempt++ {
		call := analysis.ToolCall{CallID: quarry.NewID(), TaskID: t.TaskID, ToolName: t.ToolName, Arguments: args, Timestamp: r.now(), AttemptNumber: attempt}
		if _, err := r.audit(quarry.EventToolCalled, actorActor, map[string]any{"call_id": call.CallID, "task_id": t.TaskID, "tool_name": t.ToolName, "arguments": args, "attempt_number": attempt}); err != nil {
			r.fail(t, err)
			return
		}
		start := time.Now()
		out, err := r.call(ctx, t, args)
		if err == nil {
			err = r.checkResult(ctx, t, args, out, castRepair, overLimit)
		}
		obs := analysis.Observation{ObservationID: quarry.NewID(), CallID: call.CallID, TaskID: t.TaskID, Timestamp: r.now(),
			ExecutionTimeSeconds: math.Max(time.Since(start).Seconds(), 1e-6)}
		var category string
		if err == nil {
			obs.Status, obs.Data = analysis.ObsSuccess, out.data
			if out.table != "" {
				n := int(out.rows)
				obs.RowCount = &n
			}
		} else {
			category = Classify(err)
			obs.Status = analysis.ObsError
			switch {
			case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
				obs.Status = analysis.ObsTimeout
			case category == analysis.CategoryResourceExhausted:
				obs.Status = analysis.ObsResourceLimit
			}
			// The engine's own words say what to fix in the query (and
			// are what the repair reads); the server's paths are left out.
			msg := quarry.ErrorMessage(err)
			if quarry.ErrorCode(err) == quarry.ECodeInternal {
				msg = scrubPaths(err.Error())
			}
			obs.ErrorMessage, obs.ErrorCategory = &msg, &category
		}
		r.mu.Lock()
		r.res.Calls = append(r.res.Calls, call)
		r.res.Observations = append(r.res.Observations, obs)
		kept := len(r.res.Observations) - 1
		r.mu.Unlock()
		if _, aerr := r.audit(quarry.EventObservationRecorded, actorActor, map[string]any{"observation_id": obs.ObservationID, "call_id": call.CallID,
			"task_id": t.TaskID, "status": obs.Status, "error_category": obs.ErrorCategory, "error_message": obs.ErrorMessage,
			"row_count": obs.RowCount, "execution_time_seconds": obs.ExecutionTimeSeconds, "data": obs.Data}); aerr != nil {
			// Data the log could not take (a value JSON cannot hold) would
			// also keep the result from being saved: the step fails
			// without it.
			r.mu.Lock()
			r.res.Observations[kept].Data = nil
			r.mu.Unlock()
			r.fail(t, aerr)
			return
		}
		if err == nil {
			r.mu.Lock()
			r.outputs[t.TaskID] = out
			r.mu.Unlock()
			r.setStatus(t, analysis.TaskSucceeded)
			return
		}
		last = err
		if ctx.Err() != nil || attempt == analysis.MaxAttempts || quarry.ErrorCode(err) == quarry.ECodeForbidden {
			break // a refusal is not repaired
		}
		repaired, how := r.repair(ctx, t, args, category, err)
		if repaired == nil {
			break
		}
		r.progress(analysis.Event{Step: "task", TaskID: t.TaskID, Status: "retry", Message: fmt.Sprintf("%s: %s; retrying: %s", category, quarry.ErrorMessage(err), how)})
		args = repaired
		castRepair = category == analysis.CategoryTypeMismatch
		overLimit = category == analysis.CategoryResourceExhausted && strings.Contains(err.Error(), "more than the row limit")
	}
	r.keepError(t, last)
	r.setStatus(t, analysis.TaskFailed)
}

func (r *run) fail(t *analysis.Subtask, err error) {
	r.progress(analysis.Event{Step: "task", TaskID: t.TaskID, Status: analysis.TaskFailed, Message: quarry.ErrorMessage(err)})
	r.keepError(t, err)
	r.setStatus(t, analysis.TaskFailed)
}

// keepError keeps the error a step failed with, for the run's error when
// no step succeeds.
func (r *run) keepError(t *analysis.Subtask, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.errs == nil {
		r.errs = map[string]error{}
	}
	r.errs[t.TaskID] = err
}

// stepsFailed is the error of a run in which no step succeeded: the
// first failed step's, by its code, in words (an engine's own message
// stays in the step's observation).
func (r *run) stepsFailed() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range r.plan.Subtasks {
		err, ok := r.errs[t.TaskID]
		if !ok || err == nil {
			continue
		}
		var qe *quarry.Error
		if errors.As(err, &qe) {
			return quarry.Errorf(qe.Code, "no step succeeded; step %s (%s) failed: %s", t.TaskID, oneLine(t.Description), qe.Message).WithHint(qe.Hint)
		}
		return quarry.Errorf(quarry.ECodeInternal, "no step succeeded; step %s (%s) failed (%s)", t.TaskID, oneLine(t.Description), Classify(err))
	}
	return quarry.Errorf(quarry.ECodeInternal, "no step succeeded")
}

// call decodes the arguments by the tool's schema and runs the tool.
func (r *run) call(ctx context.Context, t *analysis.Subtask, args map[string]any) (*output, error) {
	tool, _ := analysis.Tools.Tool(t.ToolName)
	v, err := tool.Decode(args)
	if err != nil {
		return nil, err
	}
	switch a := v.(type) {
	case *analysis.SQLArgs:
		return r.runSQL(ctx, t, a)
	case *analysis.TransformArgs:
		return r.runTransform(ctx, t, a)
	case *analysis.PlotArgs:
		return r.runPlot(ctx, t, a)
	case *analysis.ProfileArgs:
		return r.runProfile(ctx, t, a)
	}
	return nil, quarry.Errorf(quarry.ECodeInvalid, "unknown tool %s", t.ToolName)
}

// rowLimit is the step's limit: its own, within the request's.
func (r *run) rowLimit(own int) int {
	if own > 0 && own < r.req.Constraints.RowLimit {
		return own
	}
	return r.req.Constraints.RowLimit
}

// runSQL runs the query where its source is and keeps the result as the
// step's table. More rows than the row limit is resource_exhausted, not a
// silently cut result.
func (r *run) runSQL(ctx context.Context, t *analysis.Subtask, a *analysis.SQLArgs) (*output, error) {
	if len(a.Params) > 0 {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "query parameters are not supported; write the values into the query")
	}
	if a.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(a.Timeout)*time.Second)
		defer cancel()
	}
	limit := r.rowLimit(a.RowLimit)
	table := analysis.StepTable(t.TaskID)
	var n int64
	if err := r.checkPolicy(ctx, t, a.Source, a.Query); err != nil {
		return nil, err
	}
	if a.Source != "" {
		src, ok := r.dbs[a.Source]
		if !ok {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "no database source %q", a.Source)
		}
		res, err := src.Query(ctx, a.Query, limit)
		if err != nil {
			return nil, err
		}
		if err := r.ws.Register(ctx, table, res); err != nil {
			return nil, err
		}
		n = int64(len(res.Rows))
	} else {
		var err error
		if n, err = r.ws.Materialize(ctx, table, a.Query); err != nil {
			return nil, err
		}
		if n > int64(limit) {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "the query returned %d rows, more than the row limit of %d", n, limit).
				WithHint("aggregate, filter or add a LIMIT")
		}
	}
	if err := r.mask(ctx, t, table); err != nil {
		return nil, err
	}
	return r.tableOutput(ctx, table, n)
}

// previewRows is how many rows of a step's table its observation carries.
const previewRows = 20

// tableOutput describes the step table of n rows for the next steps and
// the observation: its columns, row count and first rows.
func (r *run) tableOutput(ctx context.Context, table string, n int64) (*output, error) {
	cols, err := r.ws.Columns(ctx, table)
	if err != nil {
		return nil, err
	}
	head, err := r.ws.Query(ctx, fmt.Sprintf("SELECT * FROM %s LIMIT %d", quoteIdent(table), previewRows))
	if err != nil {
		return nil, err
	}
	// The rows go into the observation, the result and the audit log as
	// JSON, which has no NaN or Infinity: those read null there (the step's
	// table keeps them).
	return &output{table: table, columns: cols, rows: n, data: map[string]any{"table": table, "columns": head.Columns, "rows": quarry.JSONRows(head.Rows), "row_count": n}}, nil
}

// input returns the output of the step a tool reads, checking that each
// named column exists in it (missing_column, naming the closest).
func (r *run) input(id string, columns ...string) (*output, error) {
	r.mu.Lock()
	in := r.outputs[id]
	r.mu.Unlock()
	if in == nil || in.table == "" {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "step %s has no table to read", id)
	}
	names := make([]string, len(in.columns))
	for i, c := range in.columns {
		names[i] = c.Name
	}
	for _, c := range columns {
		if c != "" && !slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, c) }) {
			return nil, missingColumn(c, names, id)
		}
	}
	return in, nil
}

func missingColumn(col string, names []string, where string) error {
	e := quarry.Errorf(quarry.ECodeInvalid, "column %q does not exist in %s", col, where)
	if c := analysis.Closest(col, names); c != "" {
		return e.WithHint("did you mean " + c + "?")
	}
	return e.WithHint("the columns are " + strings.Join(names, ", "))
}

func (in *output) column(name string) (quarry.Column, bool) {
	for _, c := range in.columns {
		if strings.EqualFold(c.Name, name) {
			return c, true
		}
	}
	return quarry.Column{}, false
}

// runTransform compiles the operation to SQL over the input step's table.
func (r *run) runTransform(ctx context.Context, t *analysis.Subtask, a *analysis.TransformArgs) (*output, error) {
	if slices.Contains(analysis.StatOperations, a.Operation) {
		return r.runStats(ctx, t, a)
	}
	cols := slices.Concat(a.Columns, a.GroupBy, []string{a.Column})
	in, err := r.input(a.Input, cols...)
	if err != nil {
		return nil, err
	}
	from := quoteIdent(in.table)
	var q string
	switch a.Operation {
	case analysis.OpAggregate:
		var sel, group []string
		for _, g := range a.GroupBy {
			sel, group = append(sel, quoteIdent(g)), append(group, quoteIdent(g))
		}
		if len(a.Columns) == 0 {
			sel = append(sel, "count(*) AS count")
		}
		for _, c := range a.Columns {
			sel = append(sel, aggregate(a.Aggregation, quoteIdent(c))+" AS "+quoteIdent(c))
		}
		q = "SELECT " + strings.Join(sel, ", ") + " FROM " + from
		if len(group) > 0 {
			q += " GROUP BY " + strings.Join(group, ", ") + " ORDER BY " + strings.Join(group, ", ")
		}
	case analysis.OpFilter:
		q = fmt.Sprintf("SELECT * FROM %s WHERE %s %s %s", from, quoteIdent(a.Column), a.Op, sqlValue(a.Value))
	case analysis.OpSort:
		var keys []string
		for _, c := range a.Columns {
			k := quoteIdent(c)
			if a.Descending {
				k += " DESC"
			}
			keys = append(keys, k)
		}
		q = fmt.Sprintf("SELECT * FROM %s ORDER BY %s", from, strings.Join(keys, ", "))
	case analysis.OpShare:
		c := quoteIdent(a.Columns[0])
		q = fmt.Sprintf("SELECT *, %s / NULLIF(SUM(%s) OVER (), 0) AS share, 100.0 * %s / NULLIF(SUM(%s) OVER (), 0) AS share_pct FROM %s ORDER BY %s DESC", c, c, c, c, from, c)
	case analysis.OpGrowth:
		c, o := quoteIdent(a.Columns[0]), quoteIdent(a.GroupBy[0])
		// the change, in units, in percent and as a factor ("grew 1.4 times")
		lag := fmt.Sprintf("LAG(%s) OVER (ORDER BY %s)", c, o)
		q = fmt.Sprintf("SELECT *, %s - %s AS change, 100.0 * (%s - %s) / NULLIF(ABS(%s), 0) AS change_pct, %s / NULLIF(%s, 0) AS factor FROM %s ORDER BY %s",
			c, lag, c, lag, lag, c, lag, from, o)
	}
	if a.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", a.Limit)
	}
	table := analysis.StepTable(t.TaskID)
	n, err := r.ws.Materialize(ctx, table, q)
	if err != nil {
		return nil, err
	}
	return r.tableOutput(ctx, table, n)
}

// aggregate is the SQL of an aggregation over expr.
func aggregate(agg, expr string) string {
	switch agg {
	case "avg":
		return "avg(" + expr + ")"
	case "count":
		return "count(" + expr + ")"
	case "count_distinct":
		return "count(DISTINCT " + expr + ")"
	case "median":
		return "median(" + expr + ")"
	case "std":
		return "stddev_samp(" + expr + ")"
	case "min", "max", "sum":
		return agg + "(" + expr + ")"
	case "range":
		return "(max(" + expr + ") - min(" + expr + "))"
	}
	return "sum(" + expr + ")"
}

// sqlValue writes a filter value as an SQL literal.
func sqlValue(v any) string {
	switch x := v.(type) {
	case float64:
		return quarry.AsText(x)
	case bool:
		if x {
			return "TRUE"
		}
		return "FALSE"
	case nil:
		return "NULL"
	}
	return "'" + strings.ReplaceAll(fmt.Sprint(v), "'", "''") + "'"
}

// maxChartRows is the most rows a chart reads from its input.
const maxChartRows = 10_000

// runPlot draws the input step's table as a PNG and keeps it for the
// charts deliverable.
func (r *run) runPlot(ctx context.Context, t *analysis.Subtask, a *analysis.PlotArgs) (*output, error) {
	in, err := r.input(a.Input, a.XCol, a.YCol, a.SeriesCol)
	if err != nil {
		return nil, err
	}
	cols := []string{quoteIdent(a.XCol)}
	if a.YCol != "" {
		cols = append(cols, quoteIdent(a.YCol))
	}
	if a.SeriesCol != "" {
		cols = append(cols, quoteIdent(a.SeriesCol))
	}
	res, err := r.ws.Query(ctx, fmt.Sprintf("SELECT %s FROM %s LIMIT %d", strings.Join(cols, ", "), quoteIdent(in.table), maxChartRows))
	if err != nil {
		return nil, err
	}
	pl := &report.Plot{Type: a.Type, Title: a.Title, XLabel: a.XCol, YLabel: a.YCol}
	if a.Type == "line" || a.Type == "bar" {
		if c, ok := in.column(a.YCol); ok && c.DataType != quarry.TypeInteger && c.DataType != quarry.TypeFloat {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "column %s is %s; a %s chart needs numbers", a.YCol, c.DataType, a.Type)
		}
		index := map[string]int{}
		series := map[string]int{}
		for i := range res.Rows {
			x := res.String(i, 0)
			if _, ok := index[x]; !ok {
				index[x] = len(pl.Categories)
				pl.Categories = append(pl.Categories, x)
			}
			name := ""
			if a.SeriesCol != "" {
				name = res.String(i, 2)
			}
			if _, ok := series[name]; !ok {
				series[name] = len(pl.Series)
				pl.Series = append(pl.Series, report.PlotSeries{Name: name})
			}
		}
		for s := range pl.Series {
			pl.Series[s].Values = make([]float64, len(pl.Categories))
			for i := range pl.Series[s].Values {
				pl.Series[s].Values[i] = math.NaN()
			}
		}
		for i, row := range res.Rows {
			name := ""
			if a.SeriesCol != "" {
				name = res.String(i, 2)
			}
			if row[1] != nil {
				pl.Series[series[name]].Values[index[res.String(i, 0)]] = plotValue(res.Float(i, 1))
			}
		}
	} else {
		for i, row := range res.Rows {
			x := math.NaN()
			if row[0] != nil {
				x = plotValue(res.Float(i, 0))
			}
			pl.X = append(pl.X, x)
			if a.YCol != "" {
				y := math.NaN()
				if row[1] != nil {
					y = plotValue(res.Float(i, 1))
				}
				pl.Y = append(pl.Y, y)
			}
		}
	}
	var buf bytes.Buffer
	if err := pl.WritePNG(&buf); err != nil {
		return nil, err
	}
	name := fileName(t.TaskID) + ".png"
	if !r.req.Wants(analysis.DeliverCharts) && !r.req.Wants(analysis.DeliverReports) {
		return &output{data: map[string]any{"chart_type": a.Type, "points": len(res.Rows)}}, nil
	}
	meta := map[string]any{"chart_type": a.Type, "x_label": a.XCol, "y_label": a.YCol, "title": a.Title}
	if in.cut != nil { // drawn from rows cut at the row limit: its metadata says so
		c := *in.cut
		c.From = cmp.Or(c.From, a.Input)
		maps.Copy(meta, c.meta())
	}
	art, err := r.artifact(analysis.ArtifactChart, t.TaskID, path.Join("artifacts", "charts", r.req.RequestID, name), buf.Bytes(), meta)
	if err != nil {
		return nil, err
	}
	return &output{data: map[string]any{"chart": art.ContentRef, "chart_type": a.Type, "points": len(res.Rows)}}, nil
}

// plotValue is v as a chart draws it: an infinity, which has no place on
// an axis (the plotter refuses the whole chart for one), is a gap as a
// missing value is.
func plotValue(v float64) float64 {
	if math.IsInf(v, 0) {
		return math.NaN()
	}
	return v
}

// fileName makes a task id a file name.
func fileName(id string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, id)
}

// quoteIdent quotes an SQL identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
