package duckdb

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	duckdbdriver "github.com/duckdb/duckdb-go/v2"
	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// What a query reads, from DuckDB's bound plan. json_serialize_plan plans
// the query without optimizing it (its optimize argument is false by
// default), so the plan is the binder's own resolution of every name: each
// LOGICAL_GET of a table lists, in column_indexes, the columns the query
// binds, whether the text named them, reached them through an alias that
// shadows another, a view, USING, or the whole row (to_json(t),
// t::VARCHAR, (t).x, struct_extract(t, ...), t.*, COLUMNS(*)), which binds
// every column. The optimizer only ever drops columns and scans from that
// plan (and an optimized plan may even replace a scan by its statistics'
// verdict), so the unoptimized plan is the one to judge: it reads at least
// what the query will.

// plainTableFunctions are the table functions that read no stored data:
// a query may use them under a column policy. Every other table function
// (duckdb_tables, pragma_storage_info with its column statistics,
// json_execute_serialized_sql, which runs SQL the plan does not show) is
// reported for the policy to refuse.
var plainTableFunctions = map[string]bool{"seq_scan": true, "range": true, "generate_series": true, "unnest": true}

// Scans returns what query reads from the workspace's loaded tables, from
// DuckDB's bound plan: each table scan with the columns the binder resolved
// for it, and each table function other than range, generate_series and
// unnest. Scans of the analysis's own step results (temporary tables,
// made from queries already checked) are left out. Errors: as Query's
// checks; INVALID, with DuckDB's first line, for a query that does not
// bind; FORBIDDEN for a query whose plan cannot be read (PIVOT, which
// plans as several statements, or an operator DuckDB cannot serialize),
// since what it reads cannot be known.
func (e *Engine) Scans(ctx context.Context, query string) ([]analysis.Scan, error) {
	if err := e.checkSelect(ctx, query); err != nil {
		return nil, err
	}
	return planScans(ctx, e.db, query, func(err error) error { return e.outOfMemory("planning the query") })
}

// Scans is Engine.Scans for a DuckDB database file: every table and view
// of the file counts (a view resolves to the columns of its tables).
func (s *FileSource) Scans(ctx context.Context, query string) ([]analysis.Scan, error) {
	if err := checkSQLLen(query); err != nil {
		return nil, err
	}
	if err := analysis.OneStatement(query); err != nil {
		return nil, err
	}
	return planScans(ctx, s.db, query, func(error) error {
		return quarry.Errorf(quarry.ECodeResourceLimit, "planning the query needed more memory than the engine's limit")
	})
}

// boundPlan is the answer of json_serialize_plan.
type boundPlan struct {
	Error        bool   `json:"error"`
	ErrorType    string `json:"error_type"`
	ErrorMessage string `json:"error_message"`
	Plans        []any  `json:"plans"`
}

func planScans(ctx context.Context, db *sql.DB, query string, oom func(error) error) ([]analysis.Scan, error) {
	var text string
	if err := db.QueryRowContext(ctx, "SELECT json_serialize_plan(?::VARCHAR)::VARCHAR", query).Scan(&text); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if duckType(err) == duckdbdriver.ErrorTypeOutOfMemory {
			return nil, oom(err)
		}
		return nil, fmt.Errorf("duckdb: json_serialize_plan: %w", err)
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber() // column indexes reach 2^64-1 (the row id)
	var p boundPlan
	if err := dec.Decode(&p); err != nil {
		return nil, quarry.Errorf(quarry.ECodeForbidden, "the query's plan could not be read: %v", err)
	}
	if p.Error {
		msg := firstLine(p.ErrorMessage)
		switch p.ErrorType {
		case "parser", "binder", "catalog", "conversion", "invalid type", "mismatch type":
			return nil, quarry.Errorf(quarry.ECodeInvalid, "%s", msg)
		}
		return nil, quarry.Errorf(quarry.ECodeForbidden, "the query's plan could not be read, so what it reads cannot be checked: %s", msg).
			WithHint("write it as a plain SELECT (PIVOT as GROUP BY with FILTER)")
	}
	var scans []analysis.Scan
	walk(p.Plans, func(n node) {
		if str(n, "type") != "LOGICAL_GET" {
			return
		}
		fn := str(n, "name")
		if !plainTableFunctions[fn] {
			scans = append(scans, analysis.Scan{Opaque: "the table function " + fn})
			return
		}
		if fn != "seq_scan" {
			return
		}
		fd := obj(n, "function_data")
		if str(fd, "catalog") == "temp" {
			return
		}
		var names []string
		for _, v := range asList(n["names"]) {
			s, _ := v.(string)
			names = append(names, s)
		}
		s := analysis.Scan{Table: str(fd, "table"), Columns: []string{}}
		if _, ok := n["column_indexes"].([]any); !ok {
			// A plan that does not list the columns: judge it as reading
			// every one.
			s.Columns = names
		}
		for _, ci := range list(n, "column_indexes") {
			i, err := strconv.ParseUint(fmt.Sprint(ci["index"]), 10, 64)
			if err != nil {
				// A column the plan does not say: judge it as every column.
				s.Columns = append(s.Columns[:0], names...)
				break
			}
			// Indexes past the table's columns are virtual (the row id),
			// which hold no data of the table.
			if i < uint64(len(names)) && !slices.Contains(s.Columns, names[i]) {
				s.Columns = append(s.Columns, names[i])
			}
		}
		scans = append(scans, s)
	})
	return scans, nil
}
