package investigate

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
)

// recorder runs SQL and records every statement and a summary of its result
// in the audit log, so every number an investigation shows can be traced to
// the query that produced it.
type recorder struct {
	eng   Engine
	audit Auditor
	calls int
}

// record is one executed statement.
type record struct {
	SQL      string
	Sequence int // audit sequence number of the observation
	Rows     int
}

func (r *recorder) called(purpose, sql string) (string, error) {
	r.calls++
	id := fmt.Sprintf("sql_%04d", r.calls)
	_, err := r.audit.Append(quarry.EventToolCalled, "actor", map[string]any{
		"call_id":   id,
		"tool_name": "sql",
		"arguments": map[string]any{"sql": sql, "purpose": purpose},
	})
	return id, err
}

func (r *recorder) observed(id string, rows int, cols []string, preview [][]any, elapsed time.Duration, qerr error) (int, error) {
	data := map[string]any{
		"call_id":    id,
		"success":    qerr == nil,
		"row_count":  rows,
		"columns":    cols,
		"elapsed_ms": elapsed.Milliseconds(),
	}
	if len(preview) > 0 {
		data["preview"] = quarry.JSONRows(preview)
	}
	if qerr != nil {
		data["error"] = quarry.ErrorMessage(qerr)
		data["error_code"] = quarry.ErrorCode(qerr)
	}
	e, err := r.audit.Append(quarry.EventObservationRecorded, "actor", data)
	return e.SequenceNumber, err
}

// query runs sql, records it, and returns the result with its record.
func (r *recorder) query(ctx context.Context, purpose, sql string) (*quarry.QueryResult, record, error) {
	id, err := r.called(purpose, sql)
	if err != nil {
		return nil, record{}, err
	}
	start := time.Now()
	res, qerr := r.eng.Query(ctx, sql)
	rec := record{SQL: sql}
	var cols []string
	var preview [][]any
	if res != nil {
		rec.Rows = len(res.Rows)
		cols = res.Columns
		preview = res.Rows[:min(len(res.Rows), 5)]
	}
	rec.Sequence, err = r.observed(id, rec.Rows, cols, preview, time.Since(start), qerr)
	if qerr != nil {
		return nil, rec, qerr
	}
	return res, rec, err
}

// scan runs sql, reading each row into the destinations dest returns
// (see Engine.QueryScan), passes it to fn, and records it.
func (r *recorder) scan(ctx context.Context, purpose, sql string, dest func(types []string) []any, fn func() error) (record, error) {
	id, err := r.called(purpose, sql)
	if err != nil {
		return record{}, err
	}
	start := time.Now()
	rec := record{SQL: sql}
	qerr := r.eng.QueryScan(ctx, sql, dest, func() error {
		rec.Rows++
		return fn()
	})
	rec.Sequence, err = r.observed(id, rec.Rows, nil, nil, time.Since(start), qerr)
	if qerr != nil {
		return rec, qerr
	}
	return rec, err
}

// quoteIdent quotes an SQL identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// quoteString quotes an SQL string literal.
func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
