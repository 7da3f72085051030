package duckdb

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// supportedMetrics is the hint attached to UNSUPPORTED_METRIC errors.
const supportedMetrics = "write one aggregate over the tables: SUM(x), COUNT(*), COUNT(x), COUNT(DISTINCT x), AVG(x), " +
	"or a ratio of SUM/COUNT aggregates such as SUM(a) / SUM(b), each optionally with FILTER (WHERE ...), " +
	"CASE inside the aggregate, a constant factor, and WHERE and JOIN clauses"

// ParseMetric parses a metric definition: a SELECT of one aggregate
// expression over the loaded tables, optionally with JOINs and a WHERE
// clause. It checks the SQL against the tables (binding, not running it)
// and splits the expression into Scale * Numerator / Denominator, where
// Numerator and Denominator are SUM/COUNT aggregates that add up over
// disjoint groups (see quarry.Metric). The forms and their kinds:
//
//	SUM(x), SUM(CASE ...), SUM(x) FILTER (WHERE ...)   sum
//	COUNT(*), COUNT(x), with FILTER                    count
//	SUM(a) + SUM(b), SUM(a) - COUNT(*)                 sum (count if all are counts)
//	COUNT(DISTINCT x)                                  count_distinct
//	AVG(x)                                             average: SUM(x) / COUNT(x)
//	A / B with A, B of the forms above                 ratio
//
// Constant factors anywhere on the path to the aggregates (100.0 * ...,
// ... * 1.0, ... / 1000, unary minus) multiply into Scale; CAST, NULLIF(x,
// c) and COALESCE(x, c) around aggregates are dropped because they change
// no value the metric is computed from. TimeColumn is left empty.
//
// Errors:
//   - METRIC_SQL_REQUIRED: empty text
//   - INVALID_METRIC_SQL: text longer than quarry.MaxMetricSQLLen, SQL that
//     does not parse, or that names a table or column that does not exist
//     (the message lists the tables, or the table's columns)
//   - UNSUPPORTED_METRIC: valid SQL of another shape: not a SELECT, several
//     statements or select items, GROUP BY, HAVING, DISTINCT, ORDER BY,
//     LIMIT, CTEs, set operations, subqueries, window functions, table
//     functions, parameters, and aggregates that do not add up across
//     segments (MIN, MAX, MEDIAN, quantiles, SUM(DISTINCT ...), ...)
func (e *Engine) ParseMetric(ctx context.Context, sqlText string) (*investigation.Metric, error) {
	sqlText = strings.TrimSpace(sqlText)
	if sqlText == "" {
		return nil, quarry.Errorf(quarry.ECodeMetricSQLRequired, "a metric definition is required").
			WithHint("give the metric as SQL, for example SELECT SUM(amount) FROM orders")
	}
	if err := quarry.CheckText("metric SQL", sqlText, quarry.MaxMetricSQLLen, quarry.ECodeInvalidMetricSQL); err != nil {
		return nil, err
	}
	sel, err := e.parseSelect(ctx, sqlText)
	if err != nil {
		return nil, err
	}
	refs, err := e.fromTables(obj(sel, "from_table"))
	if err != nil {
		return nil, err
	}
	if err := e.bind(ctx, sqlText, refs); err != nil {
		return nil, err
	}
	d, err := decompose(list(sel, "select_list")[0])
	if err != nil {
		return nil, err
	}
	m := &investigation.Metric{SQL: sqlText, Kind: d.kind, Scale: d.scale, TableRefs: map[string]string{}}
	for _, r := range refs {
		if !containsFold(m.Tables, r.table) {
			m.Tables = append(m.Tables, r.table)
			m.TableRefs[strings.ToLower(r.table)] = r.ref()
		}
	}
	if err := e.render(ctx, sel, d, m); err != nil {
		return nil, err
	}
	return m, nil
}

// parseSelect parses sqlText and checks the statement's shape, returning
// its SELECT node.
func (e *Engine) parseSelect(ctx context.Context, sqlText string) (node, error) {
	p, err := e.serialize(ctx, sqlText)
	if quarry.ErrorCode(err) == quarry.ECodeInvalid {
		return nil, quarry.Errorf(quarry.ECodeInvalidMetricSQL, "%s", quarry.ErrorMessage(err))
	}
	if err != nil {
		return nil, err
	}
	if p.Error {
		if p.ErrorType == "parser" {
			return nil, e.withQuoteHint(quarry.Errorf(quarry.ECodeInvalidMetricSQL, "metric SQL does not parse: %s", p.ErrorMessage), sqlText)
		}
		return nil, unsupported("the metric must be a SELECT statement")
	}
	switch len(p.Statements) {
	case 0:
		return nil, quarry.Errorf(quarry.ECodeMetricSQLRequired, "the metric SQL holds no statement")
	case 1:
	default:
		return nil, unsupported("the metric must be one SELECT statement, not %d", len(p.Statements))
	}
	sel := obj(p.Statements[0], "node")
	switch t := str(sel, "type"); t {
	case "SELECT_NODE":
	case "SET_OPERATION_NODE":
		return nil, unsupported("UNION, INTERSECT and EXCEPT are not supported in a metric")
	default:
		return nil, unsupported("the metric must be a plain SELECT, not %s", t)
	}
	if len(list(obj(sel, "cte_map"), "map")) > 0 {
		return nil, unsupported("WITH clauses are not supported in a metric")
	}
	for _, mod := range list(sel, "modifiers") {
		switch str(mod, "type") {
		case "DISTINCT_MODIFIER":
			return nil, unsupported("SELECT DISTINCT is not supported in a metric; COUNT(DISTINCT x) is")
		default:
			return nil, unsupported("ORDER BY and LIMIT are not supported in a metric")
		}
	}
	if len(list(sel, "group_expressions")) > 0 || str(sel, "aggregate_handling") != "STANDARD_HANDLING" {
		return nil, unsupported("GROUP BY is not supported: the metric must be a single number, and Quarry does the grouping")
	}
	if obj(sel, "having") != nil || obj(sel, "qualify") != nil || obj(sel, "sample") != nil {
		return nil, unsupported("HAVING, QUALIFY and USING SAMPLE are not supported in a metric")
	}
	if n := len(list(sel, "select_list")); n != 1 {
		return nil, unsupported("the metric must select exactly one expression, not %d", n)
	}
	var bad string
	walk(sel, func(n node) {
		switch str(n, "class") {
		case "WINDOW":
			bad = "window functions are not supported in a metric"
		case "SUBQUERY":
			bad = "subqueries are not supported in a metric"
		case "PARAMETER":
			bad = "parameters ($1, ?) are not supported in a metric"
		}
	})
	if bad != "" {
		return nil, unsupported("%s", bad)
	}
	if from := obj(sel, "from_table"); from == nil || str(from, "type") == "EMPTY" {
		return nil, unsupported("the metric needs a FROM clause naming a loaded table")
	}
	return sel, nil
}

func unsupported(format string, args ...any) *quarry.Error {
	return quarry.Errorf(quarry.ECodeUnsupportedMetric, format, args...).WithHint(supportedMetrics)
}

// tableRef is one table of a FROM clause and the name SQL uses for it.
type tableRef struct {
	table string // loaded table name
	alias string // alias, or "" when the table is not aliased
}

// ref returns the name to qualify the table's columns with.
func (r tableRef) ref() string {
	if r.alias != "" {
		return r.alias
	}
	return r.table
}

// fromTables lists the tables of a FROM clause, left to right, and checks
// that each is loaded. Errors: UNSUPPORTED_METRIC for anything but tables
// and joins, INVALID_METRIC_SQL for a table that is not loaded.
func (e *Engine) fromTables(from node) ([]tableRef, error) {
	switch str(from, "type") {
	case "BASE_TABLE":
		name := str(from, "table_name")
		if s := str(from, "schema_name"); s != "" && !strings.EqualFold(s, "main") || str(from, "catalog_name") != "" {
			return nil, unsupported("only the loaded tables can be used in a metric")
		}
		t, ok := e.lookup(name)
		if !ok {
			return nil, quarry.Errorf(quarry.ECodeInvalidMetricSQL, "table %s does not exist; the loaded tables are %s",
				name, listOrNone(e.tableNames())).WithHint(tableNameHint)
		}
		return []tableRef{{table: t.Name, alias: str(from, "alias")}}, nil
	case "JOIN":
		left, err := e.fromTables(obj(from, "left"))
		if err != nil {
			return nil, err
		}
		right, err := e.fromTables(obj(from, "right"))
		if err != nil {
			return nil, err
		}
		return append(left, right...), nil
	}
	return nil, unsupported("the FROM clause may only name loaded tables and join them; %s is not supported",
		strings.ToLower(strings.ReplaceAll(str(from, "type"), "_", " ")))
}

// DuckDB's two wordings for an unknown column.
var (
	missingColumnRE  = regexp.MustCompile(`Referenced column "?([^"!]+)"? not found`)
	missingQualColRE = regexp.MustCompile(`Table "[^"]+" does not have a column named "([^"]+)"`)
)

// bind prepares the metric without running it, which makes DuckDB resolve
// every column and function. Errors: INVALID_METRIC_SQL.
func (e *Engine) bind(ctx context.Context, sqlText string, refs []tableRef) error {
	stmt, err := e.db.PrepareContext(ctx, sqlText)
	if err == nil {
		return stmt.Close()
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	msg := firstLine(duckMessage(err))
	m := missingColumnRE.FindStringSubmatch(msg)
	if m == nil {
		m = missingQualColRE.FindStringSubmatch(msg)
	}
	if m != nil {
		var cols []string
		for _, r := range refs {
			if t, ok := e.lookup(r.table); ok {
				cols = append(cols, fmt.Sprintf("%s has %s", r.table, strings.Join(t.columnNames(), ", ")))
			}
		}
		return quarry.Errorf(quarry.ECodeInvalidMetricSQL, "column %s does not exist; %s", m[1], strings.Join(cols, "; "))
	}
	return quarry.Errorf(quarry.ECodeInvalidMetricSQL, "metric SQL is not valid: %s", msg)
}

// render prints the decomposed parts back as SQL and checks that they run
// together as "SELECT num, den FROM from WHERE where".
func (e *Engine) render(ctx context.Context, sel node, d *decomposed, m *investigation.Metric) error {
	one := node{"class": "CONSTANT", "type": "VALUE_CONSTANT", "alias": "", "query_location": 0,
		"value": node{"type": node{"id": "INTEGER", "type_info": nil}, "is_null": false, "value": 1}}
	trees := []any{statement(sel, obj(sel, "from_table"), nil, one), statement(sel, nil, nil, unaliased(d.num))}
	if where := obj(sel, "where_clause"); where != nil {
		trees = append(trees, statement(sel, nil, nil, where))
	}
	if d.den != nil {
		trees = append(trees, statement(sel, nil, nil, unaliased(d.den)))
	}
	if d.distinct != nil {
		trees = append(trees, statement(sel, nil, nil, unaliased(d.distinct)))
		if d.filter != nil {
			trees = append(trees, statement(sel, nil, nil, d.filter))
		}
	}
	if d.row != nil {
		trees = append(trees, statement(sel, nil, nil, unaliased(d.row)))
	}
	texts, err := e.deserialize(ctx, trees...)
	if err != nil {
		return err
	}
	next := func() string {
		t := strings.TrimPrefix(texts[0], "SELECT ")
		texts = texts[1:]
		return t
	}
	m.From = strings.TrimPrefix(next(), "1 FROM ")
	m.Numerator = next()
	if obj(sel, "where_clause") != nil {
		m.Where = next()
	}
	if d.den != nil {
		m.Denominator = next()
	}
	if d.distinct != nil {
		m.DistinctExpr = next()
		if d.filter != nil {
			m.DistinctExpr = "CASE WHEN " + next() + " THEN " + m.DistinctExpr + " END"
		}
	}
	if d.row != nil {
		m.RowValue = next()
	}
	check := "SELECT " + m.Numerator
	if m.Denominator != "" {
		check += ", " + m.Denominator
	}
	if m.DistinctExpr != "" {
		check += ", count(DISTINCT " + m.DistinctExpr + ")"
	}
	if m.RowValue != "" {
		check += ", sum(" + m.RowValue + ")"
	}
	check += " FROM " + m.From
	if m.Where != "" {
		check += " WHERE " + m.Where
	}
	stmt, err := e.db.PrepareContext(ctx, check)
	if err != nil {
		return fmt.Errorf("duckdb: metric parts do not bind: %s: %w", check, err)
	}
	return stmt.Close()
}

// statement returns a copy of the parsed statement around sel with a new
// select list, FROM and WHERE, ready for deserialize.
func statement(sel node, from, where any, exprs ...any) node {
	s := clone(sel).(node)
	s["select_list"] = exprs
	if from == nil {
		from = node{"type": "EMPTY", "alias": "", "sample": nil, "query_location": 0}
	}
	s["from_table"] = from
	s["where_clause"] = where
	return node{"error": false, "statements": []any{node{"node": s, "named_param_map": []any{}}}}
}

// unaliased returns a copy of x without its AS alias.
func unaliased(x node) node {
	c := clone(x).(node)
	c["alias"] = ""
	return c
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none (no files are loaded)"
	}
	return strings.Join(names, ", ")
}
