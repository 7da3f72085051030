package duckdb

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
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
// one the metric uses and the column must be a DATE or TIMESTAMP, text of
// which at least 95% of the non-null values read as dates in one layout, or
// integers that are years or epoch seconds or milliseconds. Without a hint
// the column is the date or timestamp column of the metric's first table;
// when it has several, names that read as the event's own time
// (order_date, created_at, event_time) win over others (updated_at,
// ship_date). A table without one may be dated by an integer column named
// as a year (year, fiscal_year) or an instant (epoch, ts, created_at)
// whose values fit; a year with a month column beside it (month numbers
// or names, see monthBeside) is read as that month's first day.
//
// format, when not empty, is how the column reads (see
// quarry.InvestigationContext.TimeFormat): a strptime layout for text, %Y,
// %s or %ms for integers, or the day-first twin of the month-first layout
// an ambiguous column was read with at load (which swaps day and month).
//
// Errors: INVALID_TIME_COLUMN, with a hint to pass --time-column when the
// choice is missing or ambiguous; INVALID when m.From does not parse.
func (e *Engine) TimeColumn(ctx context.Context, m *investigation.Metric, hint, format string) (string, error) {
	refs, err := e.metricRefs(ctx, m)
	if err != nil {
		return "", err
	}
	format = strings.TrimSpace(format)
	// The layout becomes literal text of the expression returned, so it is
	// held to what a user may type: no NUL or other control characters.
	if err := quarry.CheckText("time format", format, quarry.MaxTimeFormatLen, quarry.ECodeInvalidTimeColumn); err != nil {
		return "", err
	}
	if strings.TrimSpace(hint) != "" {
		return e.hintedTimeColumn(ctx, refs, hint, format)
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
		// No dates: a year column, or epoch seconds, named as such.
		for _, c := range t.Columns {
			if n := numericTimeKind(c.Name); n != "" && dataType(c.Type) == quarry.TypeInteger {
				if kind, err := e.numericTime(ctx, t.Name, c.Name); err != nil {
					return "", err
				} else if kind == n || n == "epoch" && (kind == epochSeconds || kind == epochMillis) {
					if kind == yearNumbers {
						if expr, ok, err := e.monthBeside(ctx, ref, t, c); err != nil || ok {
							return expr, err
						}
					}
					return numericDateExpr(ref, c, kind), nil
				}
			}
		}
		return "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "table %s has no date or timestamp column", t.Name).
			WithHint(timeColumnHint)
	}
	score := func(c column) int { return timeNameScore(t.Name, c.Name) }
	sort.SliceStable(cands, func(i, j int) bool { return score(cands[i]) > score(cands[j]) })
	best := cands[0]
	if len(cands) > 1 && score(cands[0]) == score(cands[1]) {
		c, ok, err := e.finest(ctx, t.Name, tied(cands, score))
		if err != nil {
			return "", err
		}
		if !ok {
			names := make([]string, len(cands))
			for i, c := range cands {
				names[i] = t.Name + "." + c.Name
			}
			return "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "table %s has several date columns (%s) and none stands out",
				t.Name, strings.Join(names, ", ")).WithHint(timeColumnHint)
		}
		best = c
	}
	if format != "" {
		return e.timeColumnAs(ctx, ref, t, best, format)
	}
	return dateExpr(ref, best), nil
}

// tied returns the candidates that share the first one's score.
func tied(cands []column, score func(column) int) []column {
	var out []column
	for _, c := range cands {
		if score(c) == score(cands[0]) {
			out = append(out, c)
		}
	}
	return out
}

// finest returns the one date column of cands that every other restates
// at a coarser grain (a quarter column, "2021-Q1", read as dates beside
// the day of each row): each other column's value is fixed by its date,
// and it has fewer of them. The reading is on the data, row by row.
func (e *Engine) finest(ctx context.Context, tableName string, cands []column) (column, bool, error) {
	ref := tableRef{table: tableName}
	for _, a := range cands {
		coarser := true
		for _, b := range cands {
			if a.Name == b.Name {
				continue
			}
			x, y := dateExpr(ref, a), dateExpr(ref, b)
			var na, nb, pairs int64
			q := fmt.Sprintf("SELECT count(DISTINCT %s), count(DISTINCT %s), count(DISTINCT (%s, %s)) FROM %s WHERE %s IS NOT NULL AND %s IS NOT NULL",
				x, y, x, y, quoteIdent(tableName), x, y)
			if err := e.db.QueryRowContext(ctx, q).Scan(&na, &nb, &pairs); err != nil {
				return column{}, false, fmt.Errorf("duckdb: comparing %s and %s: %w", a.Name, b.Name, err)
			}
			if nb >= na || pairs != na {
				coarser = false
				break
			}
		}
		if coarser {
			return a, true, nil
		}
	}
	return column{}, false, nil
}

// metricRefs returns the tables of the metric's FROM clause.
func (e *Engine) metricRefs(ctx context.Context, m *investigation.Metric) ([]tableRef, error) {
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

func (e *Engine) hintedTimeColumn(ctx context.Context, refs []tableRef, hint, format string) (string, error) {
	tname, cname, err := e.splitTimeHint(refs, hint)
	if err != nil {
		return "", err
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
	if format != "" {
		return e.timeColumnAs(ctx, *ref, t, col, format)
	}
	switch dataType(col.Type) {
	case quarry.TypeDate, quarry.TypeDatetime:
		return dateExpr(*ref, col), nil
	case quarry.TypeInteger:
		kind, err := e.numericTime(ctx, t.Name, col.Name)
		if err != nil {
			return "", err
		}
		if kind != "" {
			return numericDateExpr(*ref, col, kind), nil
		}
		return "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "column %s.%s is a number but neither years (1800-2200) nor epoch seconds or milliseconds", t.Name, col.Name).
			WithHint("give its layout with --time-format: %Y for years, %s for epoch seconds, %ms for milliseconds")
	case quarry.TypeString:
		// Some values are not dates (N/A, blanks typed as text), so the
		// load left it as text: take the first layout that reads most of it.
		layout, err := e.mostlyDates(ctx, t.Name, col.Name)
		if err != nil {
			return "", err
		}
		if layout != "" {
			return textDateExpr(*ref, col, layout), nil
		}
	}
	return "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "column %s.%s is not a date", t.Name, col.Name).
		WithHint("give its layout with --time-format, for example %d/%m/%Y")
}

// splitTimeHint reads a time-column hint as TABLE.COLUMN, or as a bare
// COLUMN of exactly one of the metric's tables (a name with a dot in it
// is first looked up as a column). Errors: INVALID_TIME_COLUMN naming the
// columns when no table or several have the column.
func (e *Engine) splitTimeHint(refs []tableRef, hint string) (string, string, error) {
	hint = strings.TrimSpace(hint)
	var found, all []string
	for _, r := range refs {
		t, _ := e.lookup(r.table)
		for _, c := range t.Columns {
			if strings.EqualFold(c.Name, unquote(hint)) {
				found = append(found, t.Name)
			}
			all = append(all, t.Name+"."+c.Name)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], unquote(hint), nil
	case len(found) > 1:
		return "", "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "tables %s all have a column %s", strings.Join(found, ", "), hint).
			WithHint("name the time column as TABLE.COLUMN")
	}
	tname, cname, ok := strings.Cut(hint, ".")
	tname, cname = unquote(tname), unquote(cname)
	if !ok || tname == "" || cname == "" {
		return "", "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "no column %s in the metric's tables; their columns are %s",
			hint, strings.Join(all, ", ")).WithHint("name the time column as COLUMN or TABLE.COLUMN")
	}
	return tname, cname, nil
}

// timeColumnAs reads col as dates in the layout the user gave.
func (e *Engine) timeColumnAs(ctx context.Context, ref tableRef, t *table, col column, format string) (string, error) {
	name := t.Name + "." + col.Name
	switch dataType(col.Type) {
	case quarry.TypeInteger:
		kind, err := e.numericTime(ctx, t.Name, col.Name)
		if err != nil {
			return "", err
		}
		want := map[string]string{"%Y": yearNumbers, "%s": epochSeconds, "%ms": epochMillis}[format]
		if want == "" || kind != want {
			return "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "column %s holds numbers that do not read as %s", name, format).
				WithHint("for a column of numbers use %Y (years 1800-2200), %s (epoch seconds) or %ms (epoch milliseconds)")
		}
		return numericDateExpr(ref, col, kind), nil
	case quarry.TypeDate, quarry.TypeDatetime:
		if col.Read == nil || col.Read.Format == format {
			return dateExpr(ref, col), nil
		}
		if col.Read.Swap != format {
			return "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "column %s was read from the file as %s, and %s does not read all of its values", name, col.Read.Format, format)
		}
		if err := e.swapDayMonth(ctx, t, col); err != nil {
			return "", err
		}
		return dateExpr(ref, col), nil
	case quarry.TypeString:
		var nonNull, dates int64
		x := readingExpr(textReading{Type: "TIMESTAMP", Format: format}, quoteIdent(col.Name))
		err := e.db.QueryRowContext(ctx, fmt.Sprintf("SELECT count(nullif(trim(%s), '')), count(*) FILTER (WHERE year(%s) BETWEEN 1800 AND 2200) FROM %s",
			quoteIdent(col.Name), x, quoteIdent(t.Name))).Scan(&nonNull, &dates)
		if err != nil {
			return "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "time format %q is not a strptime layout: %s", format, firstLine(duckMessage(err))).
				WithHint("use strptime codes, for example %d/%m/%Y or %b %d, %Y")
		}
		if nonNull > 0 && float64(dates) >= minDateShare*float64(nonNull) {
			return textDateExpr(ref, col, format), nil
		}
		return "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "only %d of the %d values of %s read as %s", dates, nonNull, name, format)
	}
	return "", quarry.Errorf(quarry.ECodeInvalidTimeColumn, "column %s is not a date", name)
}

// swapDayMonth re-reads a column that was read month-first as day-first
// (or the reverse): both readings fitted every value, so no day is above
// 12 and exchanging the two is exact.
func (e *Engine) swapDayMonth(ctx context.Context, t *table, col column) error {
	q := quoteIdent(col.Name)
	x := fmt.Sprintf("strptime(strftime(%s, '%%Y-%%d-%%m %%H:%%M:%%S'), '%%Y-%%m-%%d %%H:%%M:%%S')", q)
	if dataType(col.Type) == quarry.TypeDate {
		x = "CAST(" + x + " AS DATE)"
	}
	if _, err := e.db.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET %s = %s", quoteIdent(t.Name), q, x)); err != nil {
		return fmt.Errorf("duckdb: swap day and month of %s.%s: %w", t.Name, col.Name, err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for i := range t.Columns {
		if c := &t.Columns[i]; c.Name == col.Name && c.Read != nil {
			r := *c.Read
			r.Format, r.Swap = r.Swap, r.Format
			c.Read = &r
		}
	}
	return nil
}

// mostlyDates returns the first layout that reads at least 95% of a text
// column's non-empty values as dates, or "".
func (e *Engine) mostlyDates(ctx context.Context, tableName, col string) (string, error) {
	formats := append([]string{isoFormat}, strptimeLayouts...)
	q := quoteIdent(col)
	sel := []string{"count(nullif(trim(" + q + "), ''))"}
	for _, f := range formats {
		sel = append(sel, fmt.Sprintf("count(*) FILTER (WHERE year(%s) BETWEEN 1800 AND 2200)", readingExpr(textReading{Type: "TIMESTAMP", Format: f}, q)))
	}
	counts := make([]int64, len(sel))
	dest := make([]any, len(sel))
	for i := range counts {
		dest[i] = &counts[i]
	}
	if err := e.db.QueryRowContext(ctx, "SELECT "+strings.Join(sel, ", ")+" FROM "+quoteIdent(tableName)).Scan(dest...); err != nil {
		return "", fmt.Errorf("duckdb: check time column: %w", err)
	}
	for i, f := range formats {
		if counts[0] > 0 && float64(counts[i+1]) >= minDateShare*float64(counts[0]) {
			return f, nil
		}
	}
	return "", nil
}

// textDateExpr returns a DATE-valued expression reading a text column of
// ref in layout; values that do not read are NULL and fall outside every
// period.
func textDateExpr(ref tableRef, c column, layout string) string {
	q := quoteIdent(ref.ref()) + "." + quoteIdent(c.Name)
	return "CAST(" + readingExpr(textReading{Type: "TIMESTAMP", Format: layout}, q) + " AS DATE)"
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
