package duckdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	duckdbdriver "github.com/duckdb/duckdb-go/v2"
	"github.com/quarry-dev/quarry"
)

// maxErrorLen caps DuckDB error text passed on to callers (and models).
const maxErrorLen = 1500

// Query runs one read-only SELECT statement and returns its whole result,
// values normalised to nil, bool, int64, float64, string or time.Time
// (lists and structs as JSON text).
//
// Errors:
//   - RESOURCE_LIMIT: SQL text longer than MaxSQLLen, or a query that
//     needs more memory than Options.MemoryLimit
//   - FORBIDDEN: anything but a single SELECT (DDL, DML, COPY, ATTACH,
//     INSTALL, SET, PRAGMA, several statements), or a SELECT that touches
//     files or the network after Lock
//   - INVALID: SQL that does not parse or bind (DuckDB's message), a result
//     of more than Options.MaxRows rows (an error rather than silent
//     truncation, so no caller mistakes a partial result for the whole),
//     or a query that runs longer than Options.QueryTimeout
//   - ctx.Err() when ctx itself is cancelled
func (e *Engine) Query(ctx context.Context, query string) (*quarry.QueryResult, error) {
	res := &quarry.QueryResult{Rows: [][]any{}}
	err := e.run(ctx, query, func(cols []string) { res.Columns = cols }, func(row []any) error {
		if len(res.Rows) >= e.opt.MaxRows {
			return quarry.Errorf(quarry.ECodeInvalid, "query returned more than %d rows", e.opt.MaxRows).
				WithHint("aggregate with GROUP BY or add a LIMIT")
		}
		res.Rows = append(res.Rows, row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// QueryFunc runs one read-only SELECT statement like Query but streams the
// result: fn gets each row (a fresh slice it may keep) and an error from fn
// stops the query and is returned unchanged. There is no row limit; the
// timeout applies. fn must not call the Engine: the one connection is busy
// until QueryFunc returns. Errors: as Query, except for the row limit.
func (e *Engine) QueryFunc(ctx context.Context, query string, fn func(row []any) error) error {
	return e.run(ctx, query, nil, fn)
}

// QueryScan runs one read-only SELECT statement like QueryFunc but reads
// each row into typed destinations instead of a fresh []any: dest gets the
// result's DuckDB type names (VARCHAR, DOUBLE, ...) and returns one
// pointer per column, as database/sql's Rows.Scan takes them, reused for
// every row; fn is called once each row is in them. A *any destination
// holds the value as Query returns it. A text column scanned into a
// *sql.NullString costs no boxing beyond the driver's own, which is what
// a result of hundreds of thousands of rows needs. Errors: as QueryFunc,
// and the scan's error for a value its destination cannot hold.
func (e *Engine) QueryScan(ctx context.Context, query string, dest func(types []string) []any, fn func() error) error {
	var to []any
	head := func(rows *sql.Rows, cols []string) error {
		types, err := rows.ColumnTypes()
		if err != nil {
			return err
		}
		names := make([]string, len(types))
		for i, t := range types {
			names[i] = t.DatabaseTypeName()
		}
		to = dest(names)
		if len(to) != len(cols) {
			return fmt.Errorf("duckdb: %d destinations for %d columns", len(to), len(cols))
		}
		return nil
	}
	return e.query(ctx, query, head, func(rows *sql.Rows, _ int) error {
		if err := rows.Scan(to...); err != nil {
			return err
		}
		for _, d := range to {
			if p, ok := d.(*any); ok {
				*p = normalize(*p)
			}
		}
		return nil
	}, fn)
}

// run checks that query is a single SELECT, runs it under the query
// timeout and passes the column names to head and each row to fn.
func (e *Engine) run(ctx context.Context, query string, head func([]string), fn func([]any) error) error {
	var row []any
	return e.query(ctx, query, func(_ *sql.Rows, cols []string) error {
		if head != nil {
			head(cols)
		}
		return nil
	}, func(rows *sql.Rows, n int) (err error) {
		row, err = scanRow(rows, n)
		return err
	}, func() error { return fn(row) })
}

// query checks that query is a single SELECT and runs it under the query
// timeout: head sees the result's columns, scan reads each row and fn
// takes it. Errors of head and scan are the query's; fn's are returned
// unchanged.
func (e *Engine) query(ctx context.Context, query string, head func(*sql.Rows, []string) error, scan func(*sql.Rows, int) error, fn func() error) error {
	if err := e.checkSelect(ctx, query); err != nil {
		return err
	}
	qctx, cancel := context.WithTimeout(ctx, e.opt.QueryTimeout)
	defer cancel()
	rows, err := e.db.QueryContext(qctx, query)
	if err != nil {
		return e.queryError(ctx, qctx, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return e.queryError(ctx, qctx, err)
	}
	if err := head(rows, cols); err != nil {
		return e.queryError(ctx, qctx, err)
	}
	for rows.Next() {
		if err := scan(rows, len(cols)); err != nil {
			return e.queryError(ctx, qctx, err)
		}
		if err := fn(); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return e.queryError(ctx, qctx, err)
	}
	return nil
}

func scanRow(rows *sql.Rows, n int) ([]any, error) {
	vals := make([]any, n)
	dest := make([]any, n)
	for i := range vals {
		dest[i] = &vals[i]
	}
	if err := rows.Scan(dest...); err != nil {
		return nil, err
	}
	for i, v := range vals {
		vals[i] = normalize(v)
	}
	return vals, nil
}

// checkSelect accepts exactly one SELECT statement. DuckDB's
// json_serialize_sql serialises SELECT statements only, so its answer is
// the parser's own verdict rather than a keyword guess.
// Errors: INVALID for an empty or unparsable query, RESOURCE_LIMIT for
// one longer than MaxSQLLen, FORBIDDEN otherwise.
func (e *Engine) checkSelect(ctx context.Context, query string) error {
	if strings.TrimSpace(query) == "" {
		return quarry.Errorf(quarry.ECodeInvalid, "the query is empty")
	}
	ast, err := e.serialize(ctx, query)
	if err != nil {
		return err
	}
	if ast.Error {
		if ast.ErrorType == "parser" {
			return e.withQuoteHint(quarry.Errorf(quarry.ECodeInvalid, "the query does not parse: %s", ast.ErrorMessage), query)
		}
		return quarry.Errorf(quarry.ECodeForbidden, "only read-only SELECT statements are allowed")
	}
	switch len(ast.Statements) {
	case 0:
		return quarry.Errorf(quarry.ECodeInvalid, "the query is empty")
	case 1:
		return nil
	}
	return quarry.Errorf(quarry.ECodeForbidden, "only one statement per query is allowed; got %d", len(ast.Statements))
}

// queryError maps a failed query to the codes Query documents.
func (e *Engine) queryError(ctx, qctx context.Context, err error) error {
	if ctx.Err() != nil {
		// The reason the caller's work was ended (a RESOURCE_LIMIT from
		// the memory watchdog), or context.Canceled.
		return context.Cause(ctx)
	}
	if errors.Is(qctx.Err(), context.DeadlineExceeded) {
		return quarry.Errorf(quarry.ECodeInvalid, "query did not finish within %s", e.opt.QueryTimeout).
			WithHint("aggregate more, filter earlier or avoid large joins")
	}
	msg := duckMessage(err)
	if len(msg) > maxErrorLen {
		msg = msg[:maxErrorLen] + "..."
	}
	switch duckType(err) {
	case duckdbdriver.ErrorTypePermission:
		return quarry.Errorf(quarry.ECodeForbidden, "%s", msg)
	case duckdbdriver.ErrorTypeOutOfMemory:
		return e.outOfMemory("the query")
	case -1:
		return fmt.Errorf("duckdb: query: %w", err)
	}
	return quarry.Errorf(quarry.ECodeInvalid, "%s", msg)
}
