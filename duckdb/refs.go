package duckdb

import (
	"context"
	"database/sql"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// References parses one SELECT with DuckDB's own parser and returns what
// it reaches (analysis.SQLRefs), for the analyses' column policy: the
// parser's tree, not a pattern over the text, so aliases, subqueries,
// CTEs and function arguments are all seen. Errors: as Query's checks.
func (e *Engine) References(ctx context.Context, query string) (*analysis.SQLRefs, error) {
	if err := e.checkSelect(ctx, query); err != nil {
		return nil, err
	}
	p, err := e.serialize(ctx, query)
	if err != nil {
		return nil, err
	}
	refs := &analysis.SQLRefs{}
	for _, st := range p.Statements {
		walkRefs(st, refs)
	}
	return refs, nil
}

func walkRefs(v any, r *analysis.SQLRefs) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			walkRefs(e, r)
		}
	case map[string]any:
		switch x["class"] {
		case "COLUMN_REF":
			var parts []string
			for _, n := range asList(x["column_names"]) {
				if s, ok := n.(string); ok {
					parts = append(parts, s)
				}
			}
			r.Columns = append(r.Columns, parts)
		case "STAR":
			r.Star = true
		}
		if alias, ok := x["alias"].(string); ok && alias != "" {
			r.Defined = append(r.Defined, alias)
		}
		for _, k := range []string{"aliases", "column_name_alias"} {
			for _, n := range asList(x[k]) {
				if s, ok := n.(string); ok {
					r.Defined = append(r.Defined, s)
				}
			}
		}
		if x["type"] == "BASE_TABLE" {
			if t, ok := x["table_name"].(string); ok {
				r.Tables = append(r.Tables, t)
			}
		}
		for _, c := range x {
			walkRefs(c, r)
		}
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// MaskMatches replaces, in the text columns of table name, every match of
// patterns (RE2 regular expressions) with "[masked]", and returns how many
// values of each column it changed. It works on step results (temporary
// tables), after Lock.
func (e *Engine) MaskMatches(ctx context.Context, name string, patterns []string) (map[string]int64, error) {
	if !plainIdent(name) || len(patterns) == 0 {
		return nil, nil
	}
	cols, err := e.catalogColumns(ctx, name)
	if err != nil {
		return nil, err
	}
	alt := "(" + strings.Join(patterns, ")|(") + ")"
	masked := map[string]int64{}
	var replace []string
	for _, c := range cols {
		if dataType(c.Type) != quarry.TypeString {
			continue
		}
		q := quoteIdent(c.Name)
		var n int64
		if err := e.db.QueryRowContext(ctx, "SELECT count(*) FROM "+quoteIdent(name)+" WHERE regexp_matches("+q+", ?)", alt).Scan(&n); err != nil {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "blocked pattern: %s", firstLine(duckMessage(err)))
		}
		if n > 0 {
			masked[c.Name] = n
			replace = append(replace, "regexp_replace("+q+", $pattern, '[masked]', 'g') AS "+q)
		}
	}
	if len(replace) == 0 {
		return masked, nil
	}
	q := "CREATE OR REPLACE TEMP TABLE " + quoteIdent(name) + " AS SELECT * REPLACE (" + strings.Join(replace, ", ") + ") FROM " + quoteIdent(name)
	if _, err := e.db.ExecContext(ctx, q, sql.Named("pattern", alt)); err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "mask %s: %s", name, firstLine(duckMessage(err)))
	}
	return masked, nil
}
