package postgres

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

const (
	// exactCount is the most rows Tables counts; a bigger table's count is
	// the planner's estimate (reltuples).
	exactCount = 1_000_000
)

// relation is a table or view a query can name without its schema.
type relation struct {
	schema, name string
	reltuples    float64
}

func (r relation) ident() string { return quoteIdent(r.schema) + "." + quoteIdent(r.name) }

// Tables implements analysis.Source: the tables, views and materialized
// views of the schemas on the connection's search_path that the user may
// read (pg_catalog and information_schema left out; a name shadowed by an
// earlier schema of the path left out too, as a query could not reach it),
// each with its columns in quarry's types, its row count (counted up to a
// million rows, estimated beyond), the values of its low-cardinality text
// columns (sorted) and the range of its date and timestamp columns.
func (s *Source) Tables(ctx context.Context) ([]analysis.SourceTable, error) {
	var out []analysis.SourceTable
	err := s.readOnly(ctx, func(ctx context.Context, tx pgx.Tx) error {
		rels, err := relations(ctx, tx)
		if err != nil {
			return err
		}
		for _, r := range rels {
			t, err := describe(ctx, tx, r)
			if err != nil {
				return err
			}
			out = append(out, t)
		}
		return nil
	})
	if err != nil {
		return nil, s.queryError(ctx, err)
	}
	return out, nil
}

func relations(ctx context.Context, tx pgx.Tx) ([]relation, error) {
	rows, err := tx.Query(ctx, `
		SELECT n.nspname, c.relname, c.reltuples::float8
		FROM pg_catalog.pg_class c
		JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
		JOIN unnest(current_schemas(false)) WITH ORDINALITY AS p(schema, pos) ON p.schema = n.nspname
		WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
			AND n.nspname NOT IN ('pg_catalog', 'information_schema')
			AND has_table_privilege(c.oid, 'SELECT')
		ORDER BY c.relname, p.pos`)
	if err != nil {
		return nil, err
	}
	var out []relation
	for rows.Next() {
		var r relation
		if err := rows.Scan(&r.schema, &r.name, &r.reltuples); err != nil {
			rows.Close()
			return nil, err
		}
		if len(out) > 0 && out[len(out)-1].name == r.name {
			continue // shadowed by an earlier schema of the path
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func describe(ctx context.Context, tx pgx.Tx, r relation) (analysis.SourceTable, error) {
	t := analysis.SourceTable{Name: r.name}
	rows, err := tx.Query(ctx, `
		SELECT a.attname, coalesce(b.typname, t.typname)::text
		FROM pg_catalog.pg_attribute a
		JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
		LEFT JOIN pg_catalog.pg_type b ON t.typtype = 'd' AND b.oid = t.typbasetype
		WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped
		ORDER BY a.attnum`, r.ident())
	if err != nil {
		return t, err
	}
	for rows.Next() {
		var c analysis.SourceColumn
		var typ string
		if err := rows.Scan(&c.Name, &typ); err != nil {
			rows.Close()
			return t, err
		}
		c.Type = columnType(typ)
		t.Columns = append(t.Columns, c)
	}
	if err := rows.Err(); err != nil {
		return t, err
	}
	// What follows is best effort: a count, a range or a list of values
	// that fails (a view that errors, a statement timeout) is left out.
	t.Rows = int64(max(r.reltuples, 0))
	if r.reltuples <= exactCount {
		var n int64
		err := try(ctx, tx, func(sp pgx.Tx) error {
			return sp.QueryRow(ctx, fmt.Sprintf("SELECT count(*) FROM (SELECT 1 FROM %s LIMIT %d) AS r", r.ident(), exactCount+1)).Scan(&n)
		})
		if ctx.Err() != nil {
			return t, ctx.Err()
		}
		if err == nil {
			t.Rows = max(n, t.Rows)
		}
	}
	if err := dateRanges(ctx, tx, r, t.Columns); err != nil && ctx.Err() != nil {
		return t, ctx.Err()
	}
	many := manyDistinct(ctx, tx, r, t.Rows)
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.Type != quarry.TypeString || many[c.Name] {
			continue
		}
		var vals []string
		err := try(ctx, tx, func(sp pgx.Tx) error {
			q := quoteIdent(c.Name)
			rows, err := sp.Query(ctx, fmt.Sprintf("SELECT DISTINCT %s::text FROM %s WHERE %s IS NOT NULL LIMIT %d", q, r.ident(), q, analysis.MaxValues+1))
			if err != nil {
				return err
			}
			vals, err = pgx.CollectRows(rows, pgx.RowTo[string])
			return err
		})
		if ctx.Err() != nil {
			return t, ctx.Err()
		}
		if err == nil && len(vals) <= analysis.MaxValues {
			sort.Strings(vals)
			c.Values = vals
		}
	}
	analysis.QualifyLabels(ctx, &t, r.ident(), quoteIdent, func(ctx context.Context, q string) (int64, error) {
		var n int64
		err := try(ctx, tx, func(sp pgx.Tx) error { return sp.QueryRow(ctx, q).Scan(&n) })
		return n, err
	})
	return t, ctx.Err()
}

// dateRanges sets Min and Max (YYYY-MM-DD) of the date and timestamp
// columns, in one scan.
func dateRanges(ctx context.Context, tx pgx.Tx, r relation, cols []analysis.SourceColumn) error {
	var sel []string
	var idx []int
	for i, c := range cols {
		if c.Type == quarry.TypeDate || c.Type == "timestamp" {
			q := quoteIdent(c.Name)
			sel = append(sel, fmt.Sprintf("to_char(min(%s), 'YYYY-MM-DD'), to_char(max(%s), 'YYYY-MM-DD')", q, q))
			idx = append(idx, i)
		}
	}
	if len(sel) == 0 {
		return nil
	}
	vals := make([]*string, 2*len(idx))
	dest := make([]any, len(vals))
	for i := range vals {
		dest[i] = &vals[i]
	}
	err := try(ctx, tx, func(sp pgx.Tx) error {
		return sp.QueryRow(ctx, "SELECT "+strings.Join(sel, ", ")+" FROM "+r.ident()).Scan(dest...)
	})
	if err != nil {
		return err
	}
	for k, i := range idx {
		if vals[2*k] != nil && vals[2*k+1] != nil {
			cols[i].Min, cols[i].Max = *vals[2*k], *vals[2*k+1]
		}
	}
	return nil
}

// manyDistinct names the columns whose statistics (pg_stats, when the
// table was analyzed) promise many more distinct values than Tables
// reports, so that they are not read in vain.
func manyDistinct(ctx context.Context, tx pgx.Tx, r relation, rows int64) map[string]bool {
	out := map[string]bool{}
	err := try(ctx, tx, func(sp pgx.Tx) error {
		res, err := sp.Query(ctx, "SELECT attname::text, n_distinct::float8 FROM pg_catalog.pg_stats WHERE schemaname = $1 AND tablename = $2", r.schema, r.name)
		if err != nil {
			return err
		}
		for res.Next() {
			var name string
			var nd float64
			if err := res.Scan(&name, &nd); err != nil {
				res.Close()
				return err
			}
			if nd < 0 { // a fraction of the rows
				nd = -nd * float64(rows)
			}
			if nd > 2*analysis.MaxValues {
				out[name] = true
			}
		}
		return res.Err()
	})
	if err != nil {
		return map[string]bool{}
	}
	return out
}

// try runs fn under a savepoint, so that its failure does not end the
// transaction.
func try(ctx context.Context, tx pgx.Tx, fn func(sp pgx.Tx) error) error {
	sp, err := tx.Begin(ctx)
	if err != nil {
		return err
	}
	if err := fn(sp); err != nil {
		sp.Rollback(ctx)
		return err
	}
	return sp.Commit(ctx)
}

// columnType maps a PostgreSQL type (a domain's base type) to quarry's.
func columnType(typname string) string {
	switch typname {
	case "int2", "int4", "int8":
		return quarry.TypeInteger
	case "float4", "float8", "numeric":
		return quarry.TypeFloat
	case "bool":
		return quarry.TypeBoolean
	case "date":
		return quarry.TypeDate
	case "timestamp", "timestamptz":
		return "timestamp"
	}
	return quarry.TypeString
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
