package duckdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// FileSource is a DuckDB database file an analysis queries in place
// (analysis.Source): opened read-only, with external access off, so a
// query reads the file's tables and nothing else.
type FileSource struct {
	db   *sql.DB
	name string
}

var _ analysis.Source = (*FileSource)(nil)

// OpenFileSource opens the DuckDB database at path read-only. Errors:
// NOT_FOUND when there is no such file, INVALID when it is not a DuckDB
// database.
func OpenFileSource(ctx context.Context, path string) (*FileSource, error) {
	name := filepath.Base(path)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "%s does not exist", name)
	}
	q := url.Values{}
	q.Set("access_mode", "READ_ONLY")
	q.Set("enable_external_access", "false")
	q.Set("autoinstall_known_extensions", "false")
	q.Set("autoload_known_extensions", "false")
	db, err := sql.Open("duckdb", path+"?"+q.Encode())
	if err == nil {
		err = db.PingContext(ctx)
	}
	if err != nil {
		if db != nil {
			db.Close()
		}
		return nil, quarry.Errorf(quarry.ECodeInvalid, "%s is not a readable DuckDB database: %s", name, readMessage(err, path, name))
	}
	db.SetMaxOpenConns(1)
	return &FileSource{db: db, name: name}, nil
}

// Dialect implements analysis.Source.
func (s *FileSource) Dialect() string { return "duckdb" }

// Close implements analysis.Source.
func (s *FileSource) Close() error { return s.db.Close() }

// Tables implements analysis.Source: the file's tables and views of its
// main schema, with their columns in quarry's words, the values of text
// columns with few of them and the range of date columns.
func (s *FileSource) Tables(ctx context.Context) ([]analysis.SourceTable, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT table_name, column_name, data_type FROM duckdb_columns()
		WHERE schema_name = 'main' AND NOT internal ORDER BY table_name, column_index`)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", s.name, duckMessage(err))
	}
	var out []analysis.SourceTable
	for rows.Next() {
		var t, c, typ string
		if err := rows.Scan(&t, &c, &typ); err != nil {
			rows.Close()
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].Name != t {
			out = append(out, analysis.SourceTable{Name: t})
		}
		col := analysis.SourceColumn{Name: c, Type: dataType(typ)}
		if col.Type == quarry.TypeDatetime {
			col.Type = "timestamp"
		}
		out[len(out)-1].Columns = append(out[len(out)-1].Columns, col)
	}
	rows.Close()
	for i := range out {
		t := &out[i]
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM "+quoteIdent(t.Name)).Scan(&t.Rows); err != nil {
			return nil, fmt.Errorf("%s: count %s: %s", s.name, t.Name, duckMessage(err))
		}
		analysis.DescribeColumns(ctx, t, func(ctx context.Context, col string, limit int) ([]string, error) {
			q := quoteIdent(col)
			return analysis.QueryStrings(ctx, s.db, fmt.Sprintf("SELECT DISTINCT %s::VARCHAR FROM %s WHERE %s IS NOT NULL LIMIT %d", q, quoteIdent(t.Name), q, limit))
		}, func(ctx context.Context, col string) (string, string, error) {
			q := quoteIdent(col)
			var lo, hi sql.NullString
			err := s.db.QueryRowContext(ctx, fmt.Sprintf("SELECT min(%s)::DATE::VARCHAR, max(%s)::DATE::VARCHAR FROM %s", q, q, quoteIdent(t.Name))).Scan(&lo, &hi)
			return lo.String, hi.String, err
		})
		analysis.QualifyLabels(ctx, t, quoteIdent(t.Name), quoteIdent, func(ctx context.Context, q string) (int64, error) {
			var c int64
			return c, s.db.QueryRowContext(ctx, q).Scan(&c)
		})
	}
	return out, nil
}

// Query implements analysis.Source: one read-only statement (the file is
// opened read-only, so writes fail), at most limit rows; more is an error
// rather than a silently cut result. Errors keep DuckDB's words.
func (s *FileSource) Query(ctx context.Context, q string, limit int) (*quarry.QueryResult, error) {
	if err := checkSQLLen(q); err != nil {
		return nil, err
	}
	if err := analysis.OneStatement(q); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, q)
	if err != nil {
		return nil, s.queryError(ctx, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, s.queryError(ctx, err)
	}
	res := &quarry.QueryResult{Columns: cols, Rows: [][]any{}}
	for rows.Next() {
		if len(res.Rows) >= limit {
			return nil, analysis.RowLimitError(limit)
		}
		row, err := scanRow(rows, len(cols))
		if err != nil {
			return nil, s.queryError(ctx, err)
		}
		res.Rows = append(res.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return nil, s.queryError(ctx, err)
	}
	return res, nil
}

func (s *FileSource) queryError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	msg := firstLine(duckMessage(err))
	if strings.Contains(msg, "read-only") || strings.Contains(msg, "read only") {
		return quarry.Errorf(quarry.ECodeForbidden, "%s: only read-only queries are allowed", s.name)
	}
	return quarry.Errorf(quarry.ECodeInvalid, "%s: %s", s.name, msg)
}
