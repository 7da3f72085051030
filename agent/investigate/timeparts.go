package investigate

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// A year or month column beside the date is in most real exports. Sliced
// as a dimension, year=2009 "has no rows" on every baseline month and
// becomes the answer to a year-over-year question. So columns are checked
// against the time column row by row: a column that restates a part of
// the date on (nearly) every row is time, never a segment. The check reads
// values, not names: a column called "year" holding store numbers stays a
// dimension, and one called "period" holding "2021-Q1" is time.

// partForm is one way of writing a part of the date: cond is true on a
// row whose column value (normalised as v, read as the integer n) writes
// that part of the row's date. The date's parts come from partColumns.
type partForm struct {
	part string
	cond string
}

// partColumns are the parts of the date d, computed once per row.
const partColumns = `year(d) AS y, CAST(year(d) AS VARCHAR) AS ys, quarter(d) AS q, CAST(quarter(d) AS VARCHAR) AS qs,
  month(d) AS mo, upper(monthname(d)) AS mn, upper(strftime(d, '%b')) AS ma, strftime(d, '%Y%m') AS ym, strftime(d, '%m%Y') AS my,
  weekofyear(d) AS w, lpad(CAST(weekofyear(d) AS VARCHAR), 2, '0') AS ws, CAST(isoyear(d) AS VARCHAR) AS iy,
  isodow(d) AS idw, dayofweek(d) AS dw, upper(dayname(d)) AS dn, upper(strftime(d, '%a')) AS da, day(d) AS dm, dayofyear(d) AS dy`

// partForms are the ways of writing a part of a date that are checked,
// in order: the first form that fits a column names its part.
var partForms = []partForm{
	{"year", "{n} = y"},
	{"quarter", "{n} = q OR {v} = 'Q' || qs"},
	{"quarter", "{v} = ys || 'Q' || qs OR {v} = 'Q' || qs || ys"},
	{"month", "{n} = mo OR {v} = mn OR {v} = ma"},
	{"month", "{v} = ym OR {v} = my OR {v} = ma || ys OR {v} = mn || ys OR {v} = ys || ma OR {v} = ys || mn"},
	{"week", "{n} = w OR {v} = 'W' || ws OR {v} = iy || 'W' || ws"},
	{"day of the week", "{n} = idw OR {v} = dn OR {v} = da"},
	{"day of the week", "{n} = dw"},
	{"day of the month", "{n} = dm"},
	{"day of the year", "{n} = dy"},
}

// dateForms are the parts a second date column may hold ({c} is its
// value as a date): the same day, or the first day of the week, month,
// quarter or year (a "2021-Q1" column is read as that quarter's first
// day), or the month's last.
var dateForms = []partForm{
	{"date", "{c} = d"},
	{"week", "{c} = date_trunc('week', d)"},
	{"month", "{c} = date_trunc('month', d) OR {c} = last_day(d)"},
	{"quarter", "{c} = date_trunc('quarter', d)"},
	{"year", "{c} = date_trunc('year', d)"},
}

// maxPartRows bounds the rows checked: a column that restates the date
// does so on the first half million rows as on all of them, and a
// two-million-row export should not pay for a second full scan.
const maxPartRows = 500_000

// partRows returns the SQL that bounds the rows the time-part checks
// read to maxPartRows, or "" when the metric reads one table of no more
// rows than that, which it would read whole anyway. A LIMIT keeps DuckDB
// from sharing the scan between its threads (it keeps the rows' order):
// at 500,000 rows the check took two to four times as long with it.
func (r *run) partRows() string {
	limit := fmt.Sprintf(" LIMIT %d", maxPartRows)
	if len(r.metric.Tables) != 1 {
		return limit
	}
	t := r.metric.Tables[0]
	f := r.tables[t]
	from := strings.TrimSpace(r.metric.From)
	if f == nil || f.RowCount > maxPartRows || !strings.EqualFold(from, t) && from != quoteIdent(t) {
		return limit
	}
	return ""
}

// partTolerance is the share of a column's non-null rows that may
// disagree with its part of the date (typos in a real export).
const partTolerance = 0.005

// timePart is a column found to restate part of the time column.
type timePart struct {
	ref    investigation.ColumnRef
	part   string
	reason string
}

// partCandidate is a column checked against the time column.
type partCandidate struct {
	ref  investigation.ColumnRef
	expr string
	// bucket: the column may also be a period label ("FY2021 Q1") that
	// changes only with the date, checked by bucketed.
	bucket bool
	// date: the column holds dates, checked against dateForms.
	date bool
}

func (c partCandidate) forms() []partForm {
	if c.date {
		return dateForms
	}
	return partForms
}

// findTimeParts checks the columns of the metric's tables, other than
// the time column and the ignored ones, against the time column. The
// check is one query over the metric's rows, plus one per column that
// may be a period label; text columns the load's counts already show
// to restate no part of the date are left out of it (dropUndated).
func (r *run) findTimeParts(ctx context.Context, ignored map[investigation.ColumnRef]bool) (map[investigation.ColumnRef]timePart, error) {
	cands := r.dropUndated(r.partCandidates(ignored))
	found := map[investigation.ColumnRef]timePart{}
	if len(cands) == 0 {
		return found, nil
	}
	res, _, err := r.rec.query(ctx, "columns that restate part of the date", r.partsSQL(cands))
	if err != nil {
		return nil, err
	}
	row := res.Rows[0]
	at := 0
	for _, c := range cands {
		forms := c.forms()
		counts := make([]float64, len(forms)+3)
		for k := range counts {
			counts[k] = res.Float(0, at+k)
		}
		label := row[at+len(forms)+1] != nil
		at += len(counts)
		if counts[0] == 0 {
			continue
		}
		if k := fittingForm(counts[0], counts[1:1+len(forms)]); k >= 0 {
			found[c.ref] = timePart{ref: c.ref, part: forms[k].part,
				reason: fmt.Sprintf("restates the %s of %s on every row", forms[k].part, r.timeName())}
			continue
		}
		// A period label: one value per date, each value a run of at
		// least two dates on average.
		pairs, dates := counts[len(forms)+1], counts[len(forms)+2]
		if !label || pairs != dates {
			continue
		}
		ok, values, err := r.bucketed(ctx, c.expr)
		if err != nil {
			return nil, err
		}
		if ok && values >= 2 && dates >= 2*float64(values) {
			found[c.ref] = timePart{ref: c.ref, part: "period",
				reason: fmt.Sprintf("changes only with %s: each of its %d values is one unbroken run of dates", r.timeName(), values)}
		}
	}
	return found, nil
}

// fittingForm returns the first form that all but partTolerance of a
// column's nonNull rows fit (matches[k] rows fit form k), or -1.
func fittingForm(nonNull float64, matches []float64) int {
	for k, m := range matches {
		if m >= nonNull*(1-partTolerance) {
			return k
		}
	}
	return -1
}

// dropUndated leaves out of cands the text columns that the load's
// counts already show restate no part of the date: more than
// partTolerance of their rows hold a value that writes no part of any
// date (a word without digits that is no month or weekday name), where
// every form needs a digit or such a name, so no form could fit them.
// The counts are of the whole table, which the check reads only when
// the metric reads one table whole (partRows) and its time column is a
// date or timestamp column that is NULL only where it is empty, whose
// empty rows the check leaves out. A column of words that restates no
// part of the date is then not grouped by date again (on 500,000 rows,
// five columns of words cost the check four fifths of its time). Period
// labels (bucket) need the check's pairs, so they stay.
func (r *run) dropUndated(cands []partCandidate) []partCandidate {
	if len(cands) == 0 || r.partRows() != "" {
		return cands
	}
	t := r.metric.Tables[0]
	nullDays, ok := r.timeNulls()
	if !ok {
		return cands
	}
	var cols map[string]quarry.Column
	out := cands[:0:0]
	for _, c := range cands {
		if c.bucket || c.date || c.ref.Table != t {
			out = append(out, c)
			continue
		}
		if cols == nil {
			cols = map[string]quarry.Column{}
			for _, col := range r.tables[t].Schema.Columns {
				cols[col.Name] = col
			}
		}
		col, found := cols[c.ref.Column]
		undated, known := r.rec.eng.UndatedRows(t, c.ref.Column)
		if !found || !known || col.DataType != quarry.TypeString {
			out = append(out, c)
			continue
		}
		// The check counts the rows with a value and a date: at least
		// undated-nullDays of them write no part of it, of at most
		// nonNull.
		nonNull := r.tables[t].RowCount - col.NullCount
		if float64(undated-nullDays) > partTolerance*float64(nonNull) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// timeNulls returns the rows of the metric's table without a date, when
// the time column is a date or timestamp column read as it is (a
// timestamp's date is NULL only where the timestamp is).
func (r *run) timeNulls() (int64, bool) {
	ref, ok := r.timeRef()
	if !ok || len(r.metric.Tables) != 1 || ref.Table != r.metric.Tables[0] {
		return 0, false
	}
	col := r.columnExpr(ref.Table, ref.Column)
	plain := strings.ReplaceAll(r.metric.TimeColumn, `"`, "")
	bare := strings.ReplaceAll(col, `"`, "")
	if !strings.EqualFold(plain, bare) && !strings.EqualFold(plain, "CAST("+bare+" AS DATE)") {
		return 0, false
	}
	for _, c := range r.tables[ref.Table].Schema.Columns {
		if c.Name == ref.Column && (c.DataType == quarry.TypeDate || c.DataType == quarry.TypeDatetime) {
			return c.NullCount, true
		}
	}
	return 0, false
}

// partCandidates lists the integer and text columns of the metric's
// tables that could restate part of the date.
func (r *run) partCandidates(ignored map[investigation.ColumnRef]bool) []partCandidate {
	timeCol := strings.ToLower(r.metric.TimeColumn)
	var out []partCandidate
	for _, t := range r.metric.Tables {
		f := r.tables[t]
		if f == nil || f.Schema == nil {
			continue
		}
		for _, c := range f.Schema.Columns {
			expr := r.columnExpr(t, c.Name)
			cr := investigation.ColumnRef{Table: t, Column: c.Name}
			if ignored[cr] || readsColumn(timeCol, expr) || c.Cardinality < 2 || c.Cardinality > maxDimCardinality {
				continue
			}
			switch c.DataType {
			case quarry.TypeInteger, quarry.TypeString:
				if isFlag(c) {
					continue // 0/1 agrees with "the first of the month" on monthly data
				}
				out = append(out, partCandidate{ref: cr, expr: expr, bucket: c.InferredType == quarry.RoleDimension && hasDigit(c.SampleValues)})
			case quarry.TypeDate, quarry.TypeDatetime:
				out = append(out, partCandidate{ref: cr, expr: expr, date: true})
			}
		}
	}
	return out
}

// isFlag reports whether c holds only 0 and 1.
func isFlag(c quarry.Column) bool {
	if c.Cardinality > 2 || len(c.SampleValues) == 0 {
		return false
	}
	for _, v := range c.SampleValues {
		if v != "0" && v != "1" {
			return false
		}
	}
	return true
}

func hasDigit(values []string) bool {
	for _, v := range values {
		if strings.ContainsAny(v, "0123456789") {
			return true
		}
	}
	return false
}

// partsSQL counts, per candidate column, its non-null rows, the rows
// that fit each form, and (for period labels) its distinct (date, value)
// pairs and its distinct dates. Every form depends on the date and the
// value alone, so the rows are first counted per distinct pair of each
// column (one scan, a grouping set per column), and the forms are
// checked on those few pairs, weighted by their rows, rather than on
// every row: on 500,000 rows it had been a fifth of an investigation.
func (r *run) partsSQL(cands []partCandidate) string {
	inner := []string{r.scope.day() + " AS d"}
	cols := make([]string, len(cands))
	sets := make([]string, len(cands))
	grouping := make([]string, len(cands))
	norm := []string{"*"}
	ints := []string{"*"}
	var aggs []string
	for i, c := range cands {
		inner = append(inner, fmt.Sprintf("%s AS c%d", c.expr, i))
		cols[i] = fmt.Sprintf("c%d", i)
		sets[i] = fmt.Sprintf("(d, c%d)", i)
		grouping[i] = fmt.Sprintf("grouping(c%d) AS g%d", i, i)
		norm = append(norm, fmt.Sprintf("regexp_replace(upper(CAST(c%d AS VARCHAR)), '[^A-Z0-9]', '', 'g') AS v%d", i, i))
		ints = append(ints, fmt.Sprintf("TRY_CAST(v%d AS BIGINT) AS n%d", i, i))
		v := fmt.Sprintf("v%d", i)
		n := fmt.Sprintf("n%d", i)
		cd := fmt.Sprintf("CAST(c%d AS DATE)", i)
		// A CASE rather than a FILTER: the same sums, but DuckDB runs
		// this query a fifth faster with some eighty CASEs than with
		// as many FILTERs.
		rows := func(cond string) string {
			return fmt.Sprintf("coalesce(sum(CASE WHEN g%d = 0 AND (%s) THEN n END), 0)::BIGINT", i, cond)
		}
		aggs = append(aggs, rows(fmt.Sprintf("c%d IS NOT NULL", i)))
		for _, f := range c.forms() {
			aggs = append(aggs, rows(strings.NewReplacer("{v}", v, "{n}", n, "{c}", cd).Replace(f.cond)))
		}
		if c.bucket {
			aggs = append(aggs, fmt.Sprintf("count(DISTINCT CAST(d AS VARCHAR) || chr(31) || %s) FILTER (WHERE g%d = 0)", v, i),
				fmt.Sprintf("count(DISTINCT d) FILTER (WHERE g%d = 0 AND %s IS NOT NULL)", i, v))
		} else {
			aggs = append(aggs, "NULL", "NULL")
		}
	}
	pairs := fmt.Sprintf("SELECT d, %s, %s, count(*) AS n\n  FROM (SELECT %s FROM %s%s) WHERE d IS NOT NULL\n  GROUP BY GROUPING SETS (%s)",
		strings.Join(cols, ", "), strings.Join(grouping, ", "), strings.Join(inner, ", "), r.metric.From, r.partRows(), strings.Join(sets, ", "))
	// Each value is read as an integer once, not in every form.
	return fmt.Sprintf("SELECT %s\nFROM (SELECT %s FROM (SELECT %s, %s\n  FROM (%s)))",
		strings.Join(aggs, ", "), strings.Join(ints, ", "), strings.Join(norm, ", "), partColumns, pairs)
}

// bucketed reports whether the dates of each value of expr form one run
// that no other value's dates fall inside, and how many values it has.
func (r *run) bucketed(ctx context.Context, expr string) (bool, int, error) {
	sql := fmt.Sprintf(`SELECT coalesce(bool_and(next_lo IS NULL OR hi < next_lo), false), count(*)
FROM (SELECT max(d) AS hi, lead(min(d)) OVER (ORDER BY min(d)) AS next_lo
  FROM (SELECT %s AS d, %s AS c FROM %s%s) WHERE d IS NOT NULL AND c IS NOT NULL GROUP BY c)`, r.scope.day(), expr, r.metric.From, r.partRows())
	res, _, err := r.rec.query(ctx, "whether "+expr+" is a period label", sql)
	if err != nil {
		return false, 0, err
	}
	ok, _ := res.Rows[0][0].(bool)
	return ok, int(res.Float(0, 1)), nil
}

// timeName is the time column as people read it: its column name.
func (r *run) timeName() string {
	if ref, ok := r.timeRef(); ok {
		return ref.Column
	}
	return r.metric.TimeColumn
}

// timeRef returns the column of the metric's tables that the time
// column reads.
func (r *run) timeRef() (investigation.ColumnRef, bool) {
	timeCol := strings.ToLower(r.metric.TimeColumn)
	for _, t := range r.metric.Tables {
		f := r.tables[t]
		if f == nil || f.Schema == nil {
			continue
		}
		for _, c := range f.Schema.Columns {
			if readsColumn(timeCol, r.columnExpr(t, c.Name)) {
				return investigation.ColumnRef{Table: t, Column: c.Name}, true
			}
		}
	}
	return investigation.ColumnRef{}, false
}

// columnExpr is a column of a metric's table as the FROM clause names it.
func (r *run) columnExpr(table, column string) string {
	ref := r.refs[strings.ToLower(table)]
	if ref == "" {
		ref = table
	}
	return quoteIdent(ref) + "." + quoteIdent(column)
}
