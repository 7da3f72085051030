package duckdb

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarry-dev/quarry"
)

// The engine as an analysis workspace: JSON and Parquet files beside CSV,
// DuckDB database files attached read-only, and each step's result kept as
// a table the next steps query by name.

// LoadFile loads a JSON (an array of objects, or one object per line) or
// Parquet file as table name and profiles it, like LoadCSV does for CSV.
// Errors: INVALID_FILE_TYPE for another extension, NOT_FOUND, MALFORMED_CSV
// (the spec's code for a file that cannot be read) with DuckDB's reason,
// INVALID, CONFLICT, FORBIDDEN as LoadCSV.
func (e *Engine) LoadFile(ctx context.Context, name, path string) (*quarry.FileSchema, int64, error) {
	file := filepath.Base(path)
	var reader string
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return e.LoadCSV(ctx, name, path)
	case ".json", ".jsonl", ".ndjson":
		reader = "read_json_auto"
	case ".parquet":
		reader = "read_parquet"
	default:
		return nil, 0, quarry.Errorf(quarry.ECodeInvalidFileType, "%s is not a CSV, JSON or Parquet file", file)
	}
	if !plainIdent(name) {
		return nil, 0, quarry.Errorf(quarry.ECodeInvalid, "table name %q is not a plain lower-case identifier", name)
	}
	if st, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, 0, quarry.Errorf(quarry.ECodeNotFound, "%s does not exist", file)
	} else if err != nil {
		return nil, 0, err
	} else if st.Size() == 0 {
		return nil, 0, quarry.Errorf(quarry.ECodeEmptyFile, "%s is empty", file)
	}
	if err := e.reserve(name); err != nil {
		return nil, 0, err
	}
	q := fmt.Sprintf("CREATE TABLE %s AS SELECT * FROM %s(?)", quoteIdent(name), reader)
	if _, err := e.db.ExecContext(ctx, q, path); err != nil {
		e.dropTable(name)
		e.release(name)
		if ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
		return nil, 0, quarry.Errorf(quarry.ECodeMalformedCSV, "%s could not be read: %s", file, readMessage(err, path, file))
	}
	err := e.checkNames(ctx, name, file)
	var reads map[string]textReading
	var grouped map[string]textValues
	if err == nil {
		// JSON holds dates and decorated numbers as strings ("Jun 12
		// 1998", "$1,200"): read them as CSV's text columns are.
		reads, grouped, err = e.readTextColumns(ctx, name)
	}
	var t *table
	var schema *quarry.FileSchema
	if err == nil {
		t, schema, err = e.profile(ctx, name, grouped)
	}
	if err == nil {
		annotate(t, schema, reads, "")
		keepUndated(t, grouped)
	}
	if err != nil {
		e.dropTable(name)
		e.release(name)
		return nil, 0, err
	}
	e.loaded(name, t)
	return schema, t.Rows, nil
}

// checkNames refuses a loaded JSON or Parquet file whose columns could not
// be analysed: more than MaxColumns of them, or a name holding a NUL byte,
// which no SQL text can name. Errors: RESOURCE_LIMIT, MALFORMED_CSV.
func (e *Engine) checkNames(ctx context.Context, name, file string) error {
	cols, err := e.catalogColumns(ctx, name)
	if err != nil {
		return err
	}
	if len(cols) > MaxColumns {
		return quarry.Errorf(quarry.ECodeResourceLimit, "%s has %d columns; Quarry reads at most %d", file, len(cols), MaxColumns).
			WithHint("keep the columns the question needs, or reshape repeated columns into rows")
	}
	for i, c := range cols {
		if strings.IndexByte(c.Name, 0) >= 0 {
			return quarry.Errorf(quarry.ECodeMalformedCSV, "%s: the name of column %d holds a NUL byte", file, i+1).
				WithHint("rename the column")
		}
	}
	return nil
}

// Materialize runs one read-only SELECT and keeps its result as the
// temporary table name, replacing an earlier one of that name, and
// returns its row count. It works after Lock: the query is checked like
// Query's, and only the CREATE around it is Quarry's. Errors: as Query.
func (e *Engine) Materialize(ctx context.Context, name, query string) (int64, error) {
	if !plainIdent(name) {
		return 0, quarry.Errorf(quarry.ECodeInvalid, "table name %q is not a plain lower-case identifier", name)
	}
	if err := e.checkSelect(ctx, query); err != nil {
		return 0, err
	}
	qctx, cancel := context.WithTimeout(ctx, e.opt.QueryTimeout)
	defer cancel()
	create := fmt.Sprintf("CREATE OR REPLACE TEMP TABLE %s AS %s", quoteIdent(name), query)
	if _, err := e.db.ExecContext(qctx, create); err != nil {
		return 0, e.queryError(ctx, qctx, err)
	}
	var n int64
	if err := e.db.QueryRowContext(ctx, "SELECT count(*) FROM "+quoteIdent(name)).Scan(&n); err != nil {
		return 0, fmt.Errorf("duckdb: count %s: %w", name, err)
	}
	return n, nil
}

// Register keeps res as the temporary table name (replacing one of that
// name), so that the result of a query run elsewhere (a database source)
// can be transformed and charted here. Column types follow the values:
// BIGINT, DOUBLE, BOOLEAN, TIMESTAMP or VARCHAR.
func (e *Engine) Register(ctx context.Context, name string, res *quarry.QueryResult) error {
	if !plainIdent(name) {
		return quarry.Errorf(quarry.ECodeInvalid, "table name %q is not a plain lower-case identifier", name)
	}
	cols := make([]string, len(res.Columns))
	types := make([]string, len(res.Columns))
	for j, c := range res.Columns {
		types[j] = columnType(res.Rows, j)
		cols[j] = quoteIdent(c) + " " + types[j]
	}
	tx, err := e.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("CREATE OR REPLACE TEMP TABLE %s (%s)", quoteIdent(name), strings.Join(cols, ", "))); err != nil {
		return fmt.Errorf("duckdb: register %s: %s", name, duckMessage(err))
	}
	if len(res.Columns) > 0 && len(res.Rows) > 0 {
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(res.Columns)), ", ")
		stmt, err := tx.PrepareContext(ctx, fmt.Sprintf("INSERT INTO %s VALUES (%s)", quoteIdent(name), marks))
		if err != nil {
			return fmt.Errorf("duckdb: register %s: %s", name, duckMessage(err))
		}
		defer stmt.Close()
		args := make([]any, len(res.Columns))
		for _, row := range res.Rows {
			for j, v := range row {
				args[j] = cellFor(v, types[j])
			}
			if _, err := stmt.ExecContext(ctx, args...); err != nil {
				return fmt.Errorf("duckdb: register %s: %s", name, duckMessage(err))
			}
		}
	}
	return tx.Commit()
}

// columnType is the DuckDB type that holds every value of column j.
func columnType(rows [][]any, j int) string {
	kind := ""
	for _, r := range rows {
		var k string
		switch r[j].(type) {
		case nil:
			continue
		case int64:
			k = "BIGINT"
		case float64:
			k = "DOUBLE"
		case bool:
			k = "BOOLEAN"
		case interface{ IsZero() bool }: // time.Time
			k = "TIMESTAMP"
		default:
			k = "VARCHAR"
		}
		switch {
		case kind == "" || kind == k:
			kind = k
		case kind == "BIGINT" && k == "DOUBLE" || kind == "DOUBLE" && k == "BIGINT":
			kind = "DOUBLE"
		default:
			return "VARCHAR"
		}
	}
	if kind == "" {
		return "VARCHAR"
	}
	return kind
}

// cellFor converts a value to the column's type for insertion.
func cellFor(v any, typ string) any {
	if v == nil {
		return nil
	}
	if typ == "VARCHAR" {
		return quarry.AsText(v)
	}
	if typ == "DOUBLE" {
		return quarry.AsFloat(v)
	}
	return v
}

// Columns returns the columns of table name (a loaded file or a
// materialized result) with their types in quarry's words (integer, float,
// string, date, timestamp, boolean).
func (e *Engine) Columns(ctx context.Context, name string) ([]quarry.Column, error) {
	cols, err := e.catalogColumns(ctx, name)
	if err != nil {
		return nil, err
	}
	if len(cols) == 0 {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "no table %s", name)
	}
	out := make([]quarry.Column, len(cols))
	for i, c := range cols {
		out[i] = quarry.Column{Name: c.Name, DataType: dataType(c.Type)}
	}
	return out, nil
}
