package investigate

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/drill"
	"github.com/quarry-dev/quarry/investigation"
)

// maxQualityCardinality bounds the dimensions checked value by value for
// missing days and vanished categories.
const maxQualityCardinality = 200

// qualityIssue is a data-quality problem with its estimated effect on the
// metric and the query that showed it.
type qualityIssue struct {
	drill.Issue
	seg []dimValue // the segment affected; nil for the whole table
	// totals are the rows that hold the total of the others (IssueSumRows),
	// which the segment search leaves out: counted twice, they would stand
	// out as a segment that moved exactly as everything else did.
	totals []dimValue
	impact float64 // estimated effect on the metric's change (metric units)
	rec    record
}

// checkQuality is the memory-loop step of the data-quality hypothesis. It
// looks for missing days per segment, a partial last day, duplicate rows
// and keys, null spikes and categories that appear or vanish.
func (r *run) checkQuality(ctx context.Context) (stepResult, error) {
	var res stepResult
	baseDates, cmpDates := r.dates(r.scope.base), r.dates(r.scope.cmp)
	var issues []qualityIssue

	// Whole table: missing and partial days, from the overall daily query.
	var base, cmp []drill.DayCount
	for _, d := range r.overall.dayRows {
		if r.scope.base.Contains(d.day) && d.rows > 0 {
			base = append(base, drill.DayCount{Date: d.day.String(), Rows: d.rows})
		}
		if r.scope.cmp.Contains(d.day) && d.rows > 0 {
			cmp = append(cmp, drill.DayCount{Date: d.day.String(), Rows: d.rows})
		}
	}
	gaps, quiet, err := r.wholeGaps(ctx, baseDates, cmpDates)
	if err != nil {
		return res, err
	}
	issues = append(issues, gaps...)
	for _, is := range drill.PartialLast(base, cmp, r.grain.noun()) {
		if !drill.UnlikelyFew(is.Values["rows"], is.Values["normal_rows"]) {
			continue // sparse events: a quiet last day is chance
		}
		issues = append(issues, qualityIssue{Issue: is, rec: r.overall.rec, impact: r.partialImpact(is)})
	}
	res.addQuery("overall metric per day", r.overall.rec, fmt.Sprintf("%d baseline days and %d comparison days with rows", len(base), len(cmp)))

	// Per dimension: missing days and vanished or new categories.
	var checked []*Dim
	for _, d := range r.dims {
		if d.Cardinality <= maxQualityCardinality {
			checked = append(checked, d)
		}
	}
	for _, batch := range r.dayBatches(checked) {
		days, err := r.valueDays(ctx, batch, &res)
		if err != nil {
			return res, err
		}
		for i, d := range batch {
			found, err := r.dimensionDays(d, days[i], baseDates, cmpDates)
			if err != nil {
				return res, err
			}
			issues = append(issues, found...)
		}
	}
	// Per table of the metric: nulls and duplicates.
	for _, t := range r.metric.Tables {
		found, err := r.tableQuality(ctx, t, &res)
		if err != nil {
			return res, err
		}
		issues = append(issues, found...)
	}
	// A boundary of the data is named first: it explains the empty
	// dates before anything inside the data is blamed.
	sort.SliceStable(issues, func(i, j int) bool {
		bi, bj := issues[i].Kind == drill.IssueDataBoundary, issues[j].Kind == drill.IssueDataBoundary
		if bi != bj {
			return bi
		}
		return math.Abs(issues[i].impact) > math.Abs(issues[j].impact)
	})
	r.stats.quality = issues

	material := 0
	var lines []string
	for _, is := range issues {
		lines = append(lines, is.Detail)
		if r.materialIssue(is) {
			material++
		}
	}
	switch {
	case len(issues) == 0:
		res.summary = fmt.Sprintf("No missing %ss, partial %ss, duplicate rows, null spikes or vanished categories were found in either period.", r.grain.noun(), r.grain.noun())
		res.verdict, res.reason = investigation.HypRuledOut, "the data of both periods passed every data-quality check"
	case material == 0:
		res.summary = fmt.Sprintf("%d data-quality warning(s), none large enough to explain the change: %s.", len(issues), strings.Join(lines[:min(len(lines), 2)], "; "))
		res.verdict, res.reason = investigation.HypRuledOut, "data-quality warnings exist but each moves the metric by less than 10% of the change"
	default:
		// The problem named is the first that explains the change (in
		// its direction), the one the explanations rank first too.
		top := r.firstMaterial(issues)
		res.summary = fmt.Sprintf("Data problem: %s. Estimated from the missing or extra rows alone (at their usual value), it moves the metric by about %s; fix the data before reading business causes.",
			top.Detail, r.contribution(top.impact, safeShare(top.impact, r.overall.change.Change)))
		if top.candidate() {
			// Its number is the one its explanation will give: measured
			// with the other candidates, as a part that adds up with them.
			res.summary = fmt.Sprintf("Data problem: %s. The segment is measured with the other candidate segments, as a part of the change that adds up with theirs; fix the data before reading business causes.", top.Detail)
		}
		res.verdict, res.reason = investigation.HypConfirmed, top.Detail
	}
	res.summary += quiet
	return res, nil
}

// candidate reports whether the issue is a segment's missing periods,
// which becomes a candidate segment measured in the partition (and an
// explanation with that number), rather than an explanation of its own.
func (is qualityIssue) candidate() bool {
	return len(is.seg) > 0 && is.Kind == drill.IssueMissingDays
}

// firstMaterial returns the first issue that moves the metric by a tenth
// of the change in its direction; issues holds at least one.
func (r *run) firstMaterial(issues []qualityIssue) qualityIssue {
	for _, is := range issues {
		if r.materialIssue(is) {
			return is
		}
	}
	return issues[0]
}

// materialIssue reports whether an issue explains at least 10% of the change
// in its direction.
func (r *run) materialIssue(is qualityIssue) bool {
	return safeShare(is.impact, r.overall.change.Change) >= 0.1
}

// maxValueDays bounds the rows valueDays expects of one query: the
// dimensions' values (at most maxQualityCardinality each) times the
// days of both periods, added up over the dimensions it reads together.
const maxValueDays = 200_000

// dayBatches splits dims into the groups valueDays reads with one query
// each: in order, as many as the estimated rows allow (one at least).
func (r *run) dayBatches(dims []*Dim) [][]*Dim {
	days := int64(r.scope.base.Days() + r.scope.cmp.Days())
	var out [][]*Dim
	var rows int64
	for _, d := range dims {
		n := (d.Cardinality + 1) * days
		if len(out) == 0 || rows+n > maxValueDays {
			out, rows = append(out, nil), 0
		}
		out[len(out)-1] = append(out[len(out)-1], d)
		rows += n
	}
	return out
}

// valueDayRows are one dimension's rows of the measures per value and
// day (value, day, num, den, n), and the query they came from.
type valueDayRows struct {
	q   *quarry.QueryResult
	rec record
}

// valueDays reads the measures per value and day of each of dims: one
// dimension with a query of its own; several in one scan, a grouping
// set each (scope.dailySets), whose rows are each dimension's rows as
// its own query would have returned them, in the same order.
func (r *run) valueDays(ctx context.Context, dims []*Dim, res *stepResult) ([]valueDayRows, error) {
	names := make([]string, len(dims))
	exprs := make([]string, len(dims))
	for i, d := range dims {
		names[i], exprs[i] = d.Name, d.Expr
	}
	purpose := "days with rows per value of " + strings.Join(names, ", ")
	if len(dims) == 1 {
		q, rec, err := r.rec.query(ctx, purpose, r.scope.daily([]string{dims[0].Expr + " AS value"}, ""))
		if err != nil {
			return nil, err
		}
		res.addQuery(purpose, rec, fmt.Sprintf("%d value-days", len(q.Rows)))
		return []valueDayRows{{q: q, rec: rec}}, nil
	}
	q, rec, err := r.rec.query(ctx, purpose, r.scope.dailySets(exprs))
	if err != nil {
		return nil, err
	}
	out := make([]valueDayRows, len(dims))
	for i := range out {
		out[i] = valueDayRows{q: &quarry.QueryResult{Columns: []string{"value", "day", "num", "den", "n"}, Rows: [][]any{}}, rec: rec}
	}
	n := len(dims)
	for _, row := range q.Rows {
		g, _ := row[n].(int64)
		i := dailySet(g, n)
		if i < 0 {
			return nil, fmt.Errorf("investigate: a row of %s in no grouping set (%v)", purpose, row[n])
		}
		out[i].q.Rows = append(out[i].q.Rows, []any{row[i], row[n+1], row[n+2], row[n+3], row[n+4]})
	}
	counts := make([]string, n)
	for i, d := range dims {
		counts[i] = fmt.Sprintf("%d of %s", len(out[i].q.Rows), d.Name)
	}
	res.addQuery(purpose, rec, "value-days: "+strings.Join(counts, ", "))
	return out, nil
}

// dimensionDays checks one dimension's values for missing days and for
// categories that appear or vanish, from its rows of valueDays.
func (r *run) dimensionDays(d *Dim, days valueDayRows, baseDates, cmpDates []string) ([]qualityIssue, error) {
	q, rec := days.q, days.rec
	segs := map[string]*drill.SegmentDays{}
	cats := map[string]*drill.CategoryCount{}
	perDay := map[string]map[string]float64{} // segment -> day -> numerator
	vals := map[string]dimValue{}
	rowsOf := map[string]map[string]float64{} // segment -> day -> rows
	tableRows := map[string]float64{}         // day -> rows of every segment
	var order []string
	scale := r.metric.Scale
	if scale == 0 {
		scale = 1
	}
	// The change by d is these days' sums added up per period, which
	// byDimension takes instead of grouping the rows again.
	byPeriod := &dimResult{dim: d, rec: rec}
	part := map[string]int{}
	var nulls [2]float64 // rows where d is NULL, per period
	for i, row := range q.Rows {
		v, null := label(row[0])
		day, err := asDate(row[1])
		if err != nil {
			return nil, err
		}
		key := d.Name + "=" + v
		if segs[key] == nil {
			segs[key] = &drill.SegmentDays{Segment: key}
			cats[key] = &drill.CategoryCount{Value: v}
			perDay[key] = map[string]float64{}
			vals[key] = dimValue{Dim: d, Value: v, Null: null}
			order = append(order, key)
		}
		n, num := q.Float(i, 4), q.Float(i, 2)
		perDay[key][day.String()] = num
		if rowsOf[key] == nil {
			rowsOf[key] = map[string]float64{}
		}
		rowsOf[key][day.String()] = n
		tableRows[day.String()] += n
		k := byPeriod.partOf(part, v)
		p, den := &byPeriod.parts[k], q.Float(i, 3)
		if r.scope.base.Contains(day) {
			segs[key].Base = append(segs[key].Base, day.String())
			cats[key].Rows0 += n
			cats[key].Volume0 += num
			p.Num0 += num
			p.Den0 += den
			byPeriod.n[k][0] += n
			if row[0] == nil {
				nulls[0] += n
			}
		}
		if r.scope.cmp.Contains(day) {
			segs[key].Cmp = append(segs[key].Cmp, day.String())
			cats[key].Rows1 += n
			cats[key].Volume1 += num
			p.Num1 += num
			p.Den1 += den
			byPeriod.n[k][1] += n
			if row[0] == nil {
				nulls[1] += n
			}
		}
	}
	if r.metric.Kind != investigation.MetricDistinct {
		if r.stats.daily == nil {
			r.stats.daily = map[string]*dimResult{}
		}
		r.stats.daily[d.Name] = byPeriod
	}
	if r.stats.nulls == nil {
		r.stats.nulls = map[string][2]float64{}
	}
	r.stats.nulls[d.Expr] = nulls
	var list []drill.SegmentDays
	var counts []drill.CategoryCount
	for _, k := range order {
		list = append(list, *segs[k])
		counts = append(counts, *cats[k])
	}
	var out []qualityIssue
	for _, is := range drill.MissingPeriods(list, baseDates, cmpDates, r.grain.noun()) {
		if !r.segmentGapsMissing(&is, rowsOf[is.Segment], tableRows, baseDates, cmpDates) {
			continue
		}
		qi := qualityIssue{Issue: is, rec: rec, seg: []dimValue{vals[is.Segment]}}
		// The effect of the gap: the segment's usual daily value on the
		// other period's days, times the days it is missing.
		usual := mean(perDay[is.Segment], baseDates)
		sign := -1.0
		if is.Values["comparison"] == 0 {
			usual, sign = mean(perDay[is.Segment], cmpDates), 1
		}
		if !r.metric.Ratio() {
			qi.impact = sign * scale * usual * is.Values["missing_days"]
		}
		out = append(out, qi)
	}
	for _, is := range drill.Categories(d.Name, counts) {
		out = append(out, qualityIssue{Issue: is, rec: rec})
	}
	for _, is := range drill.SumRows(d.Name, perDay) {
		qi := qualityIssue{Issue: is, rec: rec, totals: []dimValue{vals[is.Segment]}}
		c := cats[is.Segment]
		is.Values["baseline"], is.Values["comparison"] = scale*c.Volume0, scale*c.Volume1
		if !r.metric.Ratio() {
			// Counted twice, the totals add their own change once more.
			qi.impact = scale * (c.Volume1 - c.Volume0)
			qi.Detail += fmt.Sprintf(" (%s in the baseline, %s in the comparison)", r.fmtValue(scale*c.Volume0), r.fmtValue(scale*c.Volume1))
		}
		out = append(out, qi)
	}
	return out, nil
}

// segmentGapsMissing keeps, of a segment's missing-days issue, the days
// its own rate does not explain (drill.ClassifyGaps, the rate fitted on
// the other period's days, where the segment is present): a segment of
// two rows a day is absent on some days by chance. It rewrites the issue
// with the days kept and reports whether any are.
func (r *run) segmentGapsMissing(is *drill.Issue, rows, tableRows map[string]float64, baseDates, cmpDates []string) bool {
	gapDates, otherDates, name := baseDates, cmpDates, "baseline"
	if is.Values["comparison"] == 1 {
		gapDates, otherDates, name = cmpDates, baseDates, "comparison"
	}
	var model []float64
	var open []string
	for _, d := range otherDates {
		if tableRows[d] > 0 {
			model = append(model, rows[d])
		}
	}
	for _, d := range gapDates {
		if tableRows[d] > 0 {
			open = append(open, d)
		}
	}
	g := drill.ClassifyGaps(open, rows, "", "", model)
	if len(g.Missing) == 0 {
		return false
	}
	if float64(len(g.Missing)) < is.Values["missing_days"] {
		is.Values["missing_days"] = float64(len(g.Missing))
		is.Severity = float64(len(g.Missing)) / float64(len(gapDates))
		is.Detail = fmt.Sprintf("%s has no rows on %d of the %s period's %d %ss (%s), more than its rate of %s rows a %s explains",
			is.Segment, len(g.Missing), name, len(gapDates), r.grain.noun(), drill.ListDates(g.Missing, 5), num(g.Rate), r.grain.noun())
	}
	return true
}

// tableQuality checks one table for null spikes and duplicates.
func (r *run) tableQuality(ctx context.Context, table string, res *stepResult) ([]qualityIssue, error) {
	f := r.tables[table]
	if f == nil || f.Schema == nil || len(r.metric.Tables) != 1 {
		// With joins, a row of the FROM clause is not a row of one table.
		return nil, nil
	}
	ref := r.refs[strings.ToLower(table)]
	if ref == "" {
		ref = table
	}
	var aggs, cols []string
	key := ""
	// The nulls of a dimension whose days the check read per value are
	// known (its NULL value's rows); the other columns are counted.
	counted := make([]int, len(f.Schema.Columns)) // index among the counts, or -1
	for j, c := range f.Schema.Columns {
		col := quoteIdent(ref) + "." + quoteIdent(c.Name)
		cols = append(cols, col)
		counted[j] = -1
		if _, ok := r.stats.nulls[col]; !ok {
			counted[j] = len(aggs)
			aggs = append(aggs, fmt.Sprintf("COUNT(%s)", col))
		}
		if key == "" && c.InferredType == quarry.RoleID && float64(c.Cardinality) >= 0.9*float64(f.RowCount) {
			key = c.Name
		}
	}
	keyAgg := "0"
	if key != "" {
		keyAgg = r.distinctKeys(table, ref, key)
	}
	var p [2][]float64
	var rec record
	if key != "" {
		// A key distinct on every row of both periods makes every row
		// distinct: the count of distinct whole rows, most of the
		// check's cost, is then known without hashing them.
		keyed := fmt.Sprintf("COUNT(*) AS n, %s AS keys%s", keyAgg, listTail(aggs))
		var q *quarry.QueryResult
		var err error
		q, rec, err = r.rec.query(ctx, "nulls and duplicates of "+table, r.scope.byPeriodAgg(nil, keyed, ""))
		if err != nil {
			return nil, err
		}
		p = periodRows(q)
		if p[0] == nil || p[1] == nil {
			res.addQuery("nulls and duplicates of "+table, rec, fmt.Sprintf("%d period rows", len(q.Rows)))
			return nil, nil
		}
		if p[0][1] == p[0][0] && p[1][1] == p[1][0] {
			res.addQuery("nulls and duplicates of "+table, rec, fmt.Sprintf("%d period rows", len(q.Rows)))
			for i := range p {
				p[i] = append([]float64{p[i][0], p[i][0]}, p[i][1:]...)
			}
		} else {
			p = [2][]float64{}
		}
	}
	if p[0] == nil {
		all := fmt.Sprintf("COUNT(*) AS n, COUNT(DISTINCT ROW(%s)) AS distinct_rows, %s AS keys%s", strings.Join(cols, ", "), keyAgg, listTail(aggs))
		q, qrec, err := r.rec.query(ctx, "nulls and duplicates of "+table, r.scope.byPeriodAgg(nil, all, ""))
		if err != nil {
			return nil, err
		}
		rec = qrec
		res.addQuery("nulls and duplicates of "+table, rec, fmt.Sprintf("%d period rows", len(q.Rows)))
		p = periodRows(q)
		if p[0] == nil || p[1] == nil {
			return nil, nil
		}
	}
	var out []qualityIssue
	dup := drill.DupCounts{Key: key, Rows0: p[0][0], Distinct0: p[0][1], Keys0: p[0][2], Rows1: p[1][0], Distinct1: p[1][1], Keys1: p[1][2]}
	for _, is := range drill.Duplicates(dup) {
		qi := qualityIssue{Issue: is, rec: rec}
		if is.Kind == drill.IssueDuplicateRows {
			where, _, err := r.locateDuplicates(ctx, cols)
			if err != nil {
				return nil, err
			}
			if where != "" {
				qi.Detail += ": " + where
			}
		}
		// Duplicated rows inflate an additive metric by their share.
		if !r.metric.Ratio() && p[1][0] > 0 {
			extra := (p[1][0]-p[1][1])/p[1][0] - (p[0][0]-p[0][1])/math.Max(p[0][0], 1)
			qi.impact = extra * r.overall.change.ComparisonValue
		}
		out = append(out, qi)
	}
	var nulls []drill.NullCounts
	for j, c := range f.Schema.Columns {
		n := r.stats.nulls[cols[j]]
		if k := counted[j]; k >= 0 {
			n = [2]float64{p[0][0] - p[0][3+k], p[1][0] - p[1][3+k]}
		}
		nulls = append(nulls, drill.NullCounts{Column: c.Name, Nulls0: n[0], Rows0: p[0][0], Nulls1: n[1], Rows1: p[1][0]})
	}
	for _, is := range drill.NullSpike(nulls) {
		out = append(out, qualityIssue{Issue: is, rec: rec})
	}
	return out, nil
}

// listTail is items as the end of a select list: ", a, b", or "".
func listTail(items []string) string {
	if len(items) == 0 {
		return ""
	}
	return ", " + strings.Join(items, ", ")
}

// maxKeyRange is the widest range of an integer key whose distinct values
// are counted as bits: 8 MB a period at most.
const maxKeyRange = 1 << 26

// distinctKeys is the aggregate that counts the distinct values of the
// key column of table (ref in the FROM clause). An integer key of a known
// range is counted as the bits set in a bitmap of that range, which is
// exact and, at 5M rows, costs a tenth of COUNT(DISTINCT)'s hash table.
func (r *run) distinctKeys(table, ref, key string) string {
	col := quoteIdent(ref) + "." + quoteIdent(key)
	if lo, hi, ok := r.rec.eng.IntegerRange(table, key); ok && hi-lo < maxKeyRange {
		return fmt.Sprintf("coalesce(bit_count(bitstring_agg(%s, %d, %d)), 0)", col, lo, hi)
	}
	return fmt.Sprintf("COUNT(DISTINCT %s)", col)
}

// periodRows returns each period's row of a byPeriodAgg result as
// numbers, without the period; a period without rows is nil.
func periodRows(q *quarry.QueryResult) [2][]float64 {
	var p [2][]float64
	for i := range q.Rows {
		per := int(q.Float(i, 0))
		row := make([]float64, len(q.Rows[i])-1)
		for j := range row {
			row[j] = q.Float(i, j+1)
		}
		p[per] = row
	}
	return p
}

// wholeDayImpact estimates the effect of days with no rows at all.
func (r *run) wholeDayImpact(is drill.Issue) float64 {
	if r.metric.Ratio() {
		return 0
	}
	o := r.overall
	days := float64(len(o.cmp))
	sign := -1.0
	if is.Values["comparison"] == 0 {
		days, sign = float64(len(o.base)), 1
	}
	total := o.change.ComparisonValue
	if sign > 0 {
		total = o.change.BaselineValue
	}
	present := days - is.Values["missing_days"]
	if present <= 0 {
		return 0
	}
	return sign * total / present * is.Values["missing_days"]
}

// partialImpact estimates the metric lost on a partial last day.
func (r *run) partialImpact(is drill.Issue) float64 {
	if r.metric.Ratio() || is.Values["normal_rows"] == 0 {
		return 0
	}
	o := r.overall.change
	days := r.overall.cmp
	total := o.ComparisonValue
	sign := -1.0
	if is.Values["comparison"] == 0 {
		days, total, sign = r.overall.base, o.BaselineValue, 1
	}
	if len(days) == 0 {
		return 0
	}
	perRow := total / sumRows(r.overall.dayRows, days)
	return sign * (is.Values["normal_rows"] - is.Values["rows"]) * perRow
}

func sumRows(rows []dayRows, days []drill.Day) float64 {
	in := map[string]bool{}
	for _, d := range days {
		in[d.Date] = true
	}
	var s float64
	for _, r := range rows {
		if in[r.day.String()] {
			s += r.rows
		}
	}
	return math.Max(s, 1)
}

// dates lists the days of a range.
func (r *run) dates(rg quarry.DateRange) []string {
	var out []string
	for _, d := range r.grain.periods(rg) {
		out = append(out, d.String())
	}
	return out
}

// mean is the mean of m over the given days (missing days count as 0).
func mean(m map[string]float64, days []string) float64 {
	if len(days) == 0 {
		return 0
	}
	var s float64
	for _, d := range days {
		s += m[d]
	}
	return s / float64(len(days))
}
