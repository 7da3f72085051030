package duckdb

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry"
)

// minDateShare is the share of non-null text values that must read as
// dates for a text column to serve as the time column.
const minDateShare = 0.95

// timeColumnHint is the hint of INVALID_TIME_COLUMN errors.
const timeColumnHint = "name the time column with --time-column TABLE.COLUMN"

// TimeColumn picks the column that places the metric's rows in time and
// returns a DATE-valued SQL expression for it, qualified so that it can be
// used against m.From: "orders.order_date" or "o.order_date" when the FROM
// clause aliases orders as o. A TIMESTAMP column comes back as
// "CAST(o.created_at AS DATE)" and a text column of dates as
// "CAST(TRY_CAST(o.day AS TIMESTAMP) AS DATE)", so that inclusive date
// ranges compare correctly whatever the column type. m is not modified.
//
// hint, when not empty, names the column as TABLE.COLUMN; the table must be
// one the metric uses and the column must be a DATE or TIMESTAMP, or text
// of which at least 95% of the non-null values read as dates. Without a
// hint the column is the date or timestamp column of the metric's first
// table; when it has several, names that read as the event's own time
// (order_date, created_at, event_time) win over others (updated_at,
// ship_date).
//
// Errors: INVALID_TIME_COLUMN, with a hint to pass --time-column when the
// choice is missing or ambiguous; INVALID when m.From does not parse.
func (e *Engine) TimeColumn(ctx context.Context, m *quarry.Metric, hint string) (string, error) {
	refs, err := e.metricRefs(ctx, m)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(hint) != "" {
		return e.hintedTimeColumn(ctx, refs, hint)
	}
	ref := refs[0]
	t, _ := e.lookup(ref.table)
	var cands []column
	for _, c := range t.Columns {
		if dt := dataType(c.Type); dt == quarry.TypeDate || dt == quarry.TypeDatetime {
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		return "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "table %s has no date or timestamp column", t.Name).
			WithHint(timeColumnHint)
	}
	score := func(c column) int { return timeNameScore(t.Name, c.Name) }
	sort.SliceStable(cands, func(i, j int) bool { return score(cands[i]) > score(cands[j]) })
	if len(cands) > 1 && score(cands[0]) == score(cands[1]) {
		names := make([]string, len(cands))
		for i, c := range cands {
			names[i] = t.Name + "." + c.Name
		}
		return "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "table %s has several date columns (%s) and none stands out",
			t.Name, strings.Join(names, ", ")).WithHint(timeColumnHint)
	}
	return dateExpr(ref, cands[0]), nil
}

// metricRefs returns the tables of the metric's FROM clause.
func (e *Engine) metricRefs(ctx context.Context, m *quarry.Metric) ([]tableRef, error) {
	if m == nil || strings.TrimSpace(m.From) == "" {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the metric has no FROM clause")
	}
	p, err := e.serialize(ctx, "SELECT 1 FROM "+m.From)
	if err != nil {
		return nil, err
	}
	if p.Error || len(p.Statements) != 1 {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the metric's FROM clause does not parse: %s", m.From)
	}
	refs, err := e.fromTables(obj(obj(p.Statements[0], "node"), "from_table"))
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the metric's FROM clause is not usable: %s", quarry.ErrorMessage(err))
	}
	return refs, nil
}

func (e *Engine) hintedTimeColumn(ctx context.Context, refs []tableRef, hint string) (string, error) {
	tname, cname, ok := strings.Cut(strings.TrimSpace(hint), ".")
	tname, cname = unquote(tname), unquote(cname)
	if !ok || tname == "" || cname == "" {
		return "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "time column %q is not of the form TABLE.COLUMN", hint)
	}
	var ref *tableRef
	var used []string
	for i, r := range refs {
		used = append(used, r.table)
		if strings.EqualFold(r.table, tname) || r.alias != "" && strings.EqualFold(r.alias, tname) {
			ref = &refs[i]
			break
		}
	}
	if ref == nil {
		return "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "table %s is not used by the metric, which reads %s",
			tname, strings.Join(used, ", ")).WithHint(timeColumnHint)
	}
	t, _ := e.lookup(ref.table)
	col, ok := t.column(cname)
	if !ok {
		return "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "column %s does not exist in %s; its columns are %s",
			cname, t.Name, strings.Join(t.columnNames(), ", "))
	}
	switch dataType(col.Type) {
	case quarry.TypeDate, quarry.TypeDatetime:
		return dateExpr(*ref, col), nil
	case quarry.TypeString:
		q := quoteIdent(col.Name)
		var nonNull, dates int64
		err := e.db.QueryRowContext(ctx, fmt.Sprintf("SELECT count(%s), count(TRY_CAST(%s AS TIMESTAMP)) FROM %s", q, q, quoteIdent(t.Name))).
			Scan(&nonNull, &dates)
		if err != nil {
			return "", fmt.Errorf("duckdb: check time column: %w", err)
		}
		if nonNull > 0 && float64(dates) >= minDateShare*float64(nonNull) {
			return dateExpr(*ref, col), nil
		}
	}
	return "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "column %s.%s is not a date", t.Name, col.Name)
}

// dateExpr returns a DATE-valued expression for a column of ref.
func dateExpr(ref tableRef, c column) string {
	q := quoteIdent(ref.ref()) + "." + quoteIdent(c.Name)
	switch dataType(c.Type) {
	case quarry.TypeDate:
		return q
	case quarry.TypeDatetime:
		return "CAST(" + q + " AS DATE)"
	}
	return "CAST(TRY_CAST(" + q + " AS TIMESTAMP) AS DATE)"
}

// timeNameScore rates how much a column name reads as the time the
// table's event happened rather than some later bookkeeping time. A name
// that repeats the table's own noun (shipments.ship_date) scores extra.
func timeNameScore(tableName, name string) int {
	n := strings.ToLower(name)
	score := 0
	for _, w := range nameWords(name) {
		if len(w) >= 4 && strings.HasPrefix(strings.ToLower(tableName), w) {
			score += 2
			break
		}
	}
	for _, w := range []string{"date", "time", "day", "_at", "_on", "_ts"} {
		if strings.Contains(n, w) {
			score++
			break
		}
	}
	for _, w := range []string{"created", "order", "event", "transaction", "txn", "purchase", "booked", "placed", "start"} {
		if strings.Contains(n, w) {
			score += 3
			break
		}
	}
	switch n {
	case "date", "day", "time", "timestamp", "ts", "datetime":
		score += 3
	}
	for _, w := range []string{"updated", "modified", "deleted", "ship", "deliver", "end", "expir", "birth", "last",
		"cancel", "refund", "due", "closed", "first"} {
		if strings.Contains(n, w) {
			score -= 3
			break
		}
	}
	return score
}

// unquote strips double quotes from an identifier typed by a user.
func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	}
	return s
}
