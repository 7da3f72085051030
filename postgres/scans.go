package postgres

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// What a query reads, for the analyses' column policy, from PostgreSQL's
// own analysis of it rather than from its text or its plan (EXPLAIN's
// scans list every column of a table whenever the planner hands a whole
// tuple up, as for count(*), and show columns used in conditions only
// inside expression text, with functions that may run SQL of their own).
// The query becomes the body of a temporary view, in a transaction that
// is always rolled back: PostgreSQL then records, in pg_depend, every
// column, relation, function and operator the analysed query refers to,
// after names, aliases, stars and USING are resolved; the view's stored
// query tree (pg_rewrite.ev_action) shows whole-row references (a Var of
// attribute 0: row_to_json(t), t::text, (t).x), which add no column of
// their own and so count as every column of each table the query names.
// Views the query reads are followed to their tables the same way.

// sqlFunctions are pg_catalog's functions that run SQL text, or read
// files, which no dependency shows: a query calling one is refused under
// a column policy.
var sqlFunctions = map[string]bool{
	"query_to_xml": true, "query_to_xmlschema": true, "query_to_xml_and_xmlschema": true,
	"table_to_xml": true, "table_to_xmlschema": true, "table_to_xml_and_xmlschema": true,
	"cursor_to_xml": true, "cursor_to_xmlschema": true,
	"schema_to_xml": true, "schema_to_xmlschema": true, "schema_to_xml_and_xmlschema": true,
	"database_to_xml": true, "database_to_xmlschema": true, "database_to_xml_and_xmlschema": true,
	"ts_stat": true, "ts_rewrite": true,
	"pg_read_file": true, "pg_read_binary_file": true, "pg_ls_dir": true, "pg_stat_file": true,
	"lo_get": true, "loread": true, "lo_export": true,
}

// scanView is the temporary view a query is analysed as.
const scanView = "pg_temp.quarry_scan"

// Scans says what q reads, table by table (analysis.Scan): the columns of
// each table on the search path it refers to, directly or through views;
// a table elsewhere (pg_catalog's, or one under a view from another
// schema), a function outside pg_catalog (it could read any table), one
// of pg_catalog's that runs SQL text, and an operator outside pg_catalog
// are reported as opaque, for the policy to refuse. Nothing of q runs.
// Errors: FORBIDDEN for more than one statement or a session command, or
// when the server cannot analyse the query (no TEMP privilege, a standby);
// INVALID with PostgreSQL's words for a query that does not analyse.
func (s *Source) Scans(ctx context.Context, q string) ([]analysis.Scan, error) {
	if err := checkStatement(q); err != nil {
		return nil, err
	}
	body := strings.TrimRight(strings.TrimSpace(q), "; \t\r\n")
	var scans []analysis.Scan
	err := s.analysing(ctx, func(ctx context.Context, tx pgx.Tx) error {
		rels, err := relations(ctx, tx)
		if err != nil {
			return err
		}
		// The query sits in a subquery, so that columns it names twice or
		// leaves unnamed do not stop the view; the newlines end a trailing
		// comment.
		if _, err := tx.Exec(ctx, "CREATE TEMP VIEW quarry_scan AS SELECT 1 FROM (\n"+body+"\n) AS quarry_q"); err != nil {
			return err
		}
		if scans, err = dependencies(ctx, tx, rels); err != nil {
			return err
		}
		more, err := systemReferences(ctx, tx, rels)
		scans = append(scans, more...)
		return err
	})
	if err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code != "42501" && (strings.HasPrefix(pe.Code, "42") || strings.HasPrefix(pe.Code, "22") || strings.HasPrefix(pe.Code, "0A")) {
			return nil, s.queryError(ctx, err)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var qe *quarry.Error
		if errors.As(err, &qe) {
			return nil, err
		}
		return nil, quarry.Errorf(quarry.ECodeForbidden, "%s could not analyse the query, so which columns it reads cannot be checked", s.name)
	}
	return scans, nil
}

// dependencies reads what the temporary view refers to.
func dependencies(ctx context.Context, tx pgx.Tx, rels []relation) ([]analysis.Scan, error) {
	rows, err := tx.Query(ctx, rulesCTE+`
		SELECT CASE d.refclassid
				WHEN 'pg_catalog.pg_class'::regclass THEN 'relation'
				WHEN 'pg_catalog.pg_proc'::regclass THEN 'function'
				WHEN 'pg_catalog.pg_operator'::regclass THEN 'operator'
				ELSE '' END,
			coalesce(cn.nspname, pn.nspname, opn.nspname, ''),
			coalesce(c.relname, p.proname, o.oprname, '')::text,
			coalesce(c.relkind::text, ''),
			coalesce(a.attname, '')::text,
			rules.whole,
			coalesce(ARRAY(SELECT x.attname::text FROM pg_catalog.pg_attribute x
				WHERE x.attrelid = c.oid AND x.attnum > 0 AND NOT x.attisdropped ORDER BY x.attnum), '{}')
		FROM rules
		JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_rewrite'::regclass AND d.objid = rules.oid AND d.deptype = 'n'
		LEFT JOIN pg_catalog.pg_class c ON d.refclassid = 'pg_catalog.pg_class'::regclass AND c.oid = d.refobjid
		LEFT JOIN pg_catalog.pg_namespace cn ON cn.oid = c.relnamespace
		LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND d.refobjsubid > 0 AND a.attnum = d.refobjsubid
		LEFT JOIN pg_catalog.pg_proc p ON d.refclassid = 'pg_catalog.pg_proc'::regclass AND p.oid = d.refobjid
		LEFT JOIN pg_catalog.pg_namespace pn ON pn.oid = p.pronamespace
		LEFT JOIN pg_catalog.pg_operator o ON d.refclassid = 'pg_catalog.pg_operator'::regclass AND o.oid = d.refobjid
		LEFT JOIN pg_catalog.pg_namespace opn ON opn.oid = o.oprnamespace
		WHERE NOT (d.refclassid = 'pg_catalog.pg_class'::regclass AND d.refobjid = '`+scanView+`'::regclass)`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var scans []analysis.Scan
	byTable := map[string]int{}
	for rows.Next() {
		var kind, schema, name, relkind, column string
		var whole bool
		var all []string
		if err := rows.Scan(&kind, &schema, &name, &relkind, &column, &whole, &all); err != nil {
			return nil, err
		}
		switch kind {
		case "function":
			if schema != "pg_catalog" || sqlFunctions[name] {
				scans = append(scans, analysis.Scan{Opaque: "the function " + schema + "." + name})
			}
		case "operator":
			if schema != "pg_catalog" {
				scans = append(scans, analysis.Scan{Opaque: "the operator " + schema + "." + name})
			}
		case "relation":
			if relkind == "v" {
				continue // followed to its tables through its rule
			}
			if !slices.ContainsFunc(rels, func(r relation) bool { return r.schema == schema && r.name == name }) {
				scans = append(scans, analysis.Scan{Opaque: "the table " + schema + "." + name})
				continue
			}
			i, ok := byTable[name]
			if !ok {
				i = len(scans)
				byTable[name] = i
				scans = append(scans, analysis.Scan{Table: name, Columns: []string{}})
			}
			add := []string{column}
			if whole {
				add = all
			}
			for _, c := range add {
				if c != "" && !slices.Contains(scans[i].Columns, c) {
					scans[i].Columns = append(scans[i].Columns, c)
				}
			}
		}
	}
	return scans, rows.Err()
}

// rulesCTE lists the rewrite rules of the temporary view and, through
// pg_depend, of every view it reads, with whether each tree holds a
// whole-row reference.
const rulesCTE = `
		WITH RECURSIVE rules(oid, whole) AS (
			SELECT r.oid, r.ev_action::text LIKE '%:varattno 0 %'
			FROM pg_catalog.pg_rewrite r WHERE r.ev_class = '` + scanView + `'::regclass
		  UNION
			SELECT r.oid, r.ev_action::text LIKE '%:varattno 0 %'
			FROM rules
			JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_rewrite'::regclass AND d.objid = rules.oid
				AND d.deptype = 'n' AND d.refclassid = 'pg_catalog.pg_class'::regclass
			JOIN pg_catalog.pg_rewrite r ON r.ev_class = d.refobjid AND r.rulename = '_RETURN'
		)`

// systemReferences finds what pg_depend leaves out: PostgreSQL records no
// dependency on its own (pinned) objects, so pg_catalog's functions
// (query_to_xml), relations and views (pg_stats) are read from the
// analysed trees themselves, by the object ids of their function calls,
// aggregates, window functions, operators and range table entries.
func systemReferences(ctx context.Context, tx pgx.Tx, rels []relation) ([]analysis.Scan, error) {
	rows, err := tx.Query(ctx, rulesCTE+`,
		refs AS (
			SELECT DISTINCT m[1] AS kind, m[2]::oid AS id
			FROM rules JOIN pg_catalog.pg_rewrite r ON r.oid = rules.oid,
				regexp_matches(r.ev_action::text, ':(funcid|aggfnoid|winfnoid|opno|relid) ([0-9]+)', 'g') AS m
		)
		SELECT refs.kind, coalesce(pn.nspname, opn.nspname, cn.nspname, ''),
			coalesce(p.proname, o.oprname, c.relname, '')::text
		FROM refs
		LEFT JOIN pg_catalog.pg_proc p ON refs.kind IN ('funcid', 'aggfnoid', 'winfnoid') AND p.oid = refs.id
		LEFT JOIN pg_catalog.pg_namespace pn ON pn.oid = p.pronamespace
		LEFT JOIN pg_catalog.pg_operator o ON refs.kind = 'opno' AND o.oid = refs.id
		LEFT JOIN pg_catalog.pg_namespace opn ON opn.oid = o.oprnamespace
		LEFT JOIN pg_catalog.pg_class c ON refs.kind = 'relid' AND c.oid = refs.id
		LEFT JOIN pg_catalog.pg_namespace cn ON cn.oid = c.relnamespace
		WHERE refs.id <> '`+scanView+`'::regclass`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var scans []analysis.Scan
	for rows.Next() {
		var kind, schema, name string
		if err := rows.Scan(&kind, &schema, &name); err != nil {
			return nil, err
		}
		switch {
		case kind == "opno":
			if schema != "pg_catalog" {
				scans = append(scans, analysis.Scan{Opaque: "the operator " + schema + "." + name})
			}
		case kind == "relid":
			if !slices.ContainsFunc(rels, func(r relation) bool { return r.schema == schema && r.name == name }) {
				scans = append(scans, analysis.Scan{Opaque: "the table " + schema + "." + name})
			}
		case schema != "pg_catalog" || sqlFunctions[name]:
			scans = append(scans, analysis.Scan{Opaque: "the function " + schema + "." + name})
		}
	}
	return scans, rows.Err()
}

// analysing runs fn in a transaction that may create the temporary view
// and is always rolled back, under the statement timeout.
func (s *Source) analysing(ctx context.Context, fn func(ctx context.Context, tx pgx.Tx) error) error {
	return s.rolledBack(ctx, pgx.ReadWrite, fn)
}
