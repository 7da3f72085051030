package duckdb

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry"
)

// A table without a date but with a year and a month column (the Bureau
// of Labor Statistics' exports: year, period, value) is monthly data. Read
// by its year alone, every month of a year falls on January 1st and the
// month column becomes a dimension; read by both, the months are the
// time, as they are.

// monthWords name a month column; the values must agree.
var monthWords = map[string]bool{"month": true, "mon": true, "mo": true, "mm": true, "period": true}

// monthNameExpr reads a month name or its abbreviation ("January",
// "Jan") as its number, NULL for anything else.
const monthNameExpr = "month(coalesce(try_strptime(trim(%[1]s), '%%B'), try_strptime(trim(%[1]s), '%%b')))"

// monthBeside returns the DATE expression of year and the month column
// beside it in t, when t has one: a column named as a month whose every
// value is a month number (1-12) or a month's name. ok is false when
// there is none, and the year is used alone.
func (e *Engine) monthBeside(ctx context.Context, ref tableRef, t *table, year column) (string, bool, error) {
	for _, c := range t.Columns {
		named := false
		for _, w := range nameWords(c.Name) {
			named = named || monthWords[strings.ToLower(w)]
		}
		if !named || c.Name == year.Name {
			continue
		}
		q := quoteIdent(ref.ref()) + "." + quoteIdent(c.Name)
		var month string
		switch dataType(c.Type) {
		case quarry.TypeInteger:
			month = "CAST(" + q + " AS INTEGER)"
		case quarry.TypeString:
			month = fmt.Sprintf(monthNameExpr, q)
		default:
			continue
		}
		var values, months int64
		col := quoteIdent(c.Name)
		probe := strings.ReplaceAll(month, quoteIdent(ref.ref())+".", "")
		err := e.db.QueryRowContext(ctx, fmt.Sprintf("SELECT count(%s), count(*) FILTER (WHERE %s BETWEEN 1 AND 12) FROM %s", col, probe, quoteIdent(t.Name))).Scan(&values, &months)
		if err != nil {
			return "", false, fmt.Errorf("duckdb: months of %s.%s: %w", t.Name, c.Name, err)
		}
		if values > 0 && months == values {
			y := quoteIdent(ref.ref()) + "." + quoteIdent(year.Name)
			return fmt.Sprintf("make_date(CAST(%s AS INTEGER), %s, 1)", y, month), true, nil
		}
	}
	return "", false, nil
}
