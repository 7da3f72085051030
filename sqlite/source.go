package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// Source is a SQLite database file an analysis queries in place
// (analysis.Source): opened read-only, one statement at a time, each
// bounded by its context, and no more than the row limit coming back.
type Source struct {
	db   *sql.DB
	name string
}

var _ analysis.Source = (*Source)(nil)

// OpenSource opens the SQLite file at path read-only. Errors: NOT_FOUND
// when there is no such file, INVALID when it is not a SQLite database.
func OpenSource(ctx context.Context, path string) (*Source, error) {
	name := filepath.Base(path)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "%s does not exist", name)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Add("_pragma", "query_only(1)")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeoutMS))
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(2)
	s := &Source{db: db, name: name}
	// Reading the catalog proves it is a database.
	if _, err := s.tableNames(ctx); err != nil {
		db.Close()
		return nil, quarry.Errorf(quarry.ECodeInvalid, "%s is not a readable SQLite database: %w", name, err)
	}
	return s, nil
}

// Dialect implements analysis.Source.
func (s *Source) Dialect() string { return "sqlite" }

// Close implements analysis.Source.
func (s *Source) Close() error { return s.db.Close() }

func (s *Source) tableNames(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	return names, rows.Err()
}

// Tables implements analysis.Source: each table's columns with their
// declared types in quarry's words, its row count, the values of its
// low-cardinality text columns and the range of its date columns.
func (s *Source) Tables(ctx context.Context) ([]analysis.SourceTable, error) {
	names, err := s.tableNames(ctx)
	if err != nil {
		return nil, err
	}
	var out []analysis.SourceTable
	for _, n := range names {
		t := analysis.SourceTable{Name: n}
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM "+quoteIdent(n)).Scan(&t.Rows); err != nil {
			return nil, fmt.Errorf("count %s: %w", n, err)
		}
		rows, err := s.db.QueryContext(ctx, "SELECT name, type FROM pragma_table_info(?)", n)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var c analysis.SourceColumn
			var decl string
			if err := rows.Scan(&c.Name, &decl); err != nil {
				rows.Close()
				return nil, err
			}
			c.Type = affinity(decl, c.Name)
			t.Columns = append(t.Columns, c)
		}
		rows.Close()
		analysis.DescribeColumns(ctx, &t, func(ctx context.Context, col string, limit int) ([]string, error) {
			q := quoteIdent(col)
			return analysis.QueryStrings(ctx, s.db, fmt.Sprintf("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL LIMIT %d", q, quoteIdent(n), q, limit))
		}, func(ctx context.Context, col string) (string, string, error) {
			// SQLite keeps dates as text: the first ten characters are the day.
			q := quoteIdent(col)
			var lo, hi sql.NullString
			err := s.db.QueryRowContext(ctx, fmt.Sprintf("SELECT substr(min(%s), 1, 10), substr(max(%s), 1, 10) FROM %s", q, q, quoteIdent(n))).Scan(&lo, &hi)
			return lo.String, hi.String, err
		})
		analysis.QualifyLabels(ctx, &t, quoteIdent(n), quoteIdent, func(ctx context.Context, q string) (int64, error) {
			var c int64
			return c, s.db.QueryRowContext(ctx, q).Scan(&c)
		})
		out = append(out, t)
	}
	return out, nil
}

// affinity maps a declared type to quarry's: SQLite keeps dates as text,
// so a column declared DATE or TIMESTAMP, or named like one, is a date.
func affinity(decl, name string) string {
	d := strings.ToUpper(decl)
	n := strings.ToLower(name)
	switch {
	case strings.Contains(d, "DATETIME") || strings.Contains(d, "TIMESTAMP"):
		return "timestamp"
	case strings.Contains(d, "DATE"):
		return quarry.TypeDate
	case strings.Contains(d, "INT"):
		return quarry.TypeInteger
	case strings.Contains(d, "REAL") || strings.Contains(d, "FLOA") || strings.Contains(d, "DOUB") || strings.Contains(d, "NUMERIC") || strings.Contains(d, "DECIMAL"):
		return quarry.TypeFloat
	case strings.Contains(d, "BOOL"):
		return quarry.TypeBoolean
	case n == "date" || strings.HasSuffix(n, "_date") || strings.HasSuffix(n, "_day"):
		return quarry.TypeDate
	}
	return quarry.TypeString
}

// Query implements analysis.Source: one read-only statement (the
// connection is query_only, so writes fail), at most limit rows; more is
// an error rather than a silently cut result.
func (s *Source) Query(ctx context.Context, q string, limit int) (*quarry.QueryResult, error) {
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
		vals := make([]any, len(cols))
		dest := make([]any, len(cols))
		for i := range vals {
			dest[i] = &vals[i]
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, s.queryError(ctx, err)
		}
		for i, v := range vals {
			switch x := v.(type) {
			case []byte:
				vals[i] = string(x)
			case int:
				vals[i] = int64(x)
			case time.Time:
				vals[i] = x.UTC()
			}
		}
		res.Rows = append(res.Rows, vals)
	}
	if err := rows.Err(); err != nil {
		return nil, s.queryError(ctx, err)
	}
	return res, nil
}

// queryError keeps SQLite's words ("no such column: amont"), which the
// analysis classifies and repairs by.
func (s *Source) queryError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	msg := err.Error()
	if strings.Contains(msg, "readonly") || strings.Contains(msg, "read-only") || strings.Contains(msg, "query_only") {
		return quarry.Errorf(quarry.ECodeForbidden, "%s: only read-only queries are allowed", s.name)
	}
	return quarry.Errorf(quarry.ECodeInvalid, "%s: %s", s.name, strings.TrimPrefix(msg, "SQL logic error: "))
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
