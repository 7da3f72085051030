package investigate

import (
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// Dim is a dimension the investigation can slice by: a column of a table in
// the metric's FROM clause, or of a table reached through a many-to-one
// relationship.
type Dim struct {
	Name        string // what people read: "platform" or "customers.segment"
	Table       string
	Column      string
	Expr        string // SQL expression in the scope's FROM clause
	Cardinality int64
	Via         *investigation.Relationship // set when the dimension comes through a join
}

// scope builds the SQL of an investigation: the metric's FROM clause with
// the joins its dimensions need, and the conditions that place rows in the
// baseline and the comparison period.
type scope struct {
	m        *investigation.Metric
	timeExpr string // qualified time column
	base     quarry.DateRange
	cmp      quarry.DateRange
	joins    []string
}

func (s *scope) day() string { return "CAST(" + s.timeExpr + " AS DATE)" }

func (s *scope) in(r quarry.DateRange) string {
	return fmt.Sprintf("%s BETWEEN DATE '%s' AND DATE '%s'", s.day(), r.Start, r.End)
}

// overlap reports whether the periods share days; a row may then belong to
// both, and period-split queries use two branches instead of one CASE.
func (s *scope) overlap() bool {
	return !s.cmp.Start.Time().After(s.base.End.Time()) && !s.base.Start.Time().After(s.cmp.End.Time())
}

func (s *scope) from() string {
	if len(s.joins) == 0 {
		return s.m.From
	}
	return s.m.From + "\n  " + strings.Join(s.joins, "\n  ")
}

func (s *scope) where(periodCond string) string {
	w := "(" + periodCond + ")"
	if s.m.Where != "" {
		w += " AND (" + s.m.Where + ")"
	}
	return w
}

// den is the denominator aggregate, or a constant for additive metrics.
func (s *scope) den() string {
	if s.m.Denominator == "" {
		return "0"
	}
	return s.m.Denominator
}

// measures is the aggregate select list shared by every grouped query.
func (s *scope) measures() string {
	return fmt.Sprintf("%s AS num, %s AS den, COUNT(*) AS n", s.m.Numerator, s.den())
}

// byPeriod returns a query selecting cols (non-aggregate expressions, may be
// empty), a period column (0 baseline, 1 comparison) and the measures,
// grouped by cols and period.
func (s *scope) byPeriod(cols []string, extraWhere string) string {
	return s.byPeriodAgg(cols, s.measures(), extraWhere)
}

// byPeriodAgg is byPeriod with a custom aggregate select list.
func (s *scope) byPeriodAgg(cols []string, aggs string, extraWhere string) string {
	return s.periods(cols, aggs, extraWhere, "\nGROUP BY ALL")
}

// byPeriodRows is byPeriodAgg with a select list of row expressions: a
// row of the result for each row of the periods, without a GROUP BY.
func (s *scope) byPeriodRows(cols []string, exprs string) string {
	return s.periods(cols, exprs, "", "")
}

// periods selects cols, the period and exprs from the rows of both
// periods, each branch ending with tail.
func (s *scope) periods(cols []string, exprs, extraWhere, tail string) string {
	sel := ""
	if len(cols) > 0 {
		sel = strings.Join(cols, ", ") + ", "
	}
	cond := func(p string) string {
		if extraWhere == "" {
			return s.where(p)
		}
		return s.where(p) + " AND (" + extraWhere + ")"
	}
	if !s.overlap() {
		return fmt.Sprintf("SELECT %sCASE WHEN %s THEN 1 ELSE 0 END AS period, %s\nFROM %s\nWHERE %s%s",
			sel, s.in(s.cmp), exprs, s.from(), cond(s.in(s.base)+" OR "+s.in(s.cmp)), tail)
	}
	branch := func(p int, r quarry.DateRange) string {
		return fmt.Sprintf("SELECT %s%d AS period, %s\nFROM %s\nWHERE %s%s", sel, p, exprs, s.from(), cond(s.in(r)), tail)
	}
	return branch(0, s.base) + "\nUNION ALL\n" + branch(1, s.cmp)
}

// byLeaf returns a query of the leaves of exprs (non-aggregate
// expressions, selected as d0, d1, ...): one row per leaf, where byPeriod
// has one per leaf and period, with the measures of each period side by
// side (num0, num1, and den0, den1 for a ratio; NULL where the leaf has
// no row in the period). The sum of a row expression is taken in each
// period by a FILTER; other measures are grouped by period first, then
// set side by side, each leaf and period's value unchanged.
func (s *scope) byLeaf(exprs []string, extraWhere string) string {
	cols := make([]string, len(exprs))
	names := make([]string, len(exprs))
	for i, e := range exprs {
		names[i] = fmt.Sprintf("d%d", i)
		cols[i] = e + " AS " + names[i]
	}
	if s.m.RowValue != "" && s.m.Denominator == "" {
		sum := func(r quarry.DateRange) string {
			return fmt.Sprintf("sum(%s) FILTER (WHERE %s)", s.m.RowValue, s.in(r))
		}
		w := s.where(s.in(s.base) + " OR " + s.in(s.cmp))
		if extraWhere != "" {
			w += " AND (" + extraWhere + ")"
		}
		return fmt.Sprintf("SELECT %s, %s AS num0, %s AS num1\nFROM %s\nWHERE %s\nGROUP BY ALL",
			strings.Join(cols, ", "), sum(s.base), sum(s.cmp), s.from(), w)
	}
	aggs := "sum(num) FILTER (WHERE period = 0) AS num0, sum(num) FILTER (WHERE period = 1) AS num1"
	if s.m.Denominator != "" {
		aggs += ", sum(den) FILTER (WHERE period = 0) AS den0, sum(den) FILTER (WHERE period = 1) AS den1"
	}
	return fmt.Sprintf("SELECT %s, %s\nFROM (%s)\nGROUP BY ALL", strings.Join(names, ", "), aggs, s.byPeriod(cols, extraWhere))
}

// daily returns a query of the measures per day over both periods, with
// optional extra grouping columns.
func (s *scope) daily(cols []string, extraWhere string) string {
	sel := ""
	if len(cols) > 0 {
		sel = strings.Join(cols, ", ") + ", "
	}
	w := s.where(s.in(s.base) + " OR " + s.in(s.cmp))
	if extraWhere != "" {
		w += " AND (" + extraWhere + ")"
	}
	return fmt.Sprintf("SELECT %s%s AS day, %s\nFROM %s\nWHERE %s\nGROUP BY ALL\nORDER BY ALL", sel, s.day(), s.measures(), s.from(), w)
}

// dailySets returns one query of what daily gives for each of exprs
// grouped with the day (selected as value), in one scan of the rows: a
// grouping set of (v<i>, day) per expression. Column i holds expression
// i's values in the rows of its set and NULL in the others; g, the
// GROUPING bits of the columns, tells the sets apart (see dailySet).
func (s *scope) dailySets(exprs []string) string {
	// The sets name the expressions, not their aliases: GROUP BY reads
	// a name as a column of the tables first (a column called day).
	cols := make([]string, len(exprs))
	sets := make([]string, len(exprs))
	for i, e := range exprs {
		cols[i] = fmt.Sprintf("%s AS v%d", e, i)
		sets[i] = "(" + e + ", " + s.day() + ")"
	}
	w := s.where(s.in(s.base) + " OR " + s.in(s.cmp))
	return fmt.Sprintf("SELECT %s, GROUPING(%s) AS g, %s AS day, %s\nFROM %s\nWHERE %s\nGROUP BY GROUPING SETS (%s)\nORDER BY ALL",
		strings.Join(cols, ", "), strings.Join(exprs, ", "), s.day(), s.measures(), s.from(), w, strings.Join(sets, ", "))
}

// dailySet is the index of the expression whose grouping set a row of
// dailySets over n expressions belongs to, from its GROUPING bits g (a
// bit per column, the first the highest, set where the column is not
// grouped); -1 if none.
func dailySet(g int64, n int) int {
	for i := range n {
		if g == (int64(1)<<n-1)^(int64(1)<<(n-1-i)) {
			return i
		}
	}
	return -1
}

// segmentCond renders a segment as an SQL condition over dims.
func segmentCond(seg []dimValue) string {
	parts := make([]string, len(seg))
	for i, v := range seg {
		if v.Null {
			parts[i] = v.Dim.Expr + " IS NULL"
		} else {
			parts[i] = fmt.Sprintf("CAST(%s AS VARCHAR) = %s", v.Dim.Expr, quoteString(v.Value))
		}
	}
	return strings.Join(parts, " AND ")
}

// dimValue is one dimension=value condition.
type dimValue struct {
	Dim   *Dim
	Value string
	Null  bool
}

func toSegment(seg []dimValue) investigation.Segment {
	out := make(investigation.Segment, len(seg))
	for i, v := range seg {
		out[i] = investigation.SegmentValue{Column: v.Dim.Name, Value: v.Value}
	}
	return out
}

// nullLabel is how a NULL dimension value is shown.
const nullLabel = "(null)"

// label renders a dimension value read back from a query.
func label(v any) (string, bool) {
	if v == nil {
		return nullLabel, true
	}
	return quarry.AsText(v), false
}

// rowsByPeriod returns a query of the non-aggregated cols of every row of
// both periods with its period (0 baseline, 1 comparison); a row in both
// periods appears twice.
func (s *scope) rowsByPeriod(cols []string) string {
	sel := strings.Join(cols, ", ")
	if !s.overlap() {
		return fmt.Sprintf("SELECT %s, CASE WHEN %s THEN 1 ELSE 0 END AS period FROM %s WHERE %s",
			sel, s.in(s.cmp), s.from(), s.where(s.in(s.base)+" OR "+s.in(s.cmp)))
	}
	branch := func(p int, r quarry.DateRange) string {
		return fmt.Sprintf("SELECT %s, %d AS period FROM %s WHERE %s", sel, p, s.from(), s.where(s.in(r)))
	}
	return branch(0, s.base) + " UNION ALL " + branch(1, s.cmp)
}

// distinctParts returns a query counting, per part and period, the entities
// of a distinct-count metric seen only in that part (part is NULL for the
// entities seen in several parts, the overlap).
func (s *scope) distinctParts(partExpr string) string {
	inner := s.rowsByPeriod([]string{s.m.DistinctExpr + " AS entity", "COALESCE(CAST(" + partExpr + " AS VARCHAR), '" + nullLabel + "') AS part"})
	return fmt.Sprintf(`SELECT CASE WHEN nparts = 1 THEN part END AS part, period, COUNT(*) AS entities
FROM (SELECT entity, period, MIN(part) AS part, COUNT(DISTINCT part) AS nparts
      FROM (%s) WHERE entity IS NOT NULL GROUP BY entity, period)
GROUP BY ALL`, inner)
}
