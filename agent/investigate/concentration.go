package investigate

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// One bird strike of $3,367,644 is 89% of a year's rise in damage cost.
// No segment carries that (Wildlife Size=Large holds the row and a
// hundred others), and the day-to-day test calls the whole change noise;
// the analyst's answer is the row itself. So the largest rows are read
// directly: when at most maxConcentratedRows rows of the period the
// change went to carry concentrationShare of it, each is larger than any
// row of the other period and at least twice the next largest row, they
// are the top business explanation, named by their date and identifying
// columns.

const (
	maxConcentratedRows = 5
	concentrationShare  = 0.5
	// minConcentrationRows is the fewest rows a period must have: in a
	// table of a dozen rows, every row is a large part of the total.
	minConcentrationRows = 20
	// maxRowColumns is how many identifying columns name a row.
	maxRowColumns = 3
	// rowGap: the largest row not named is at most this fraction of the
	// smallest named one.
	rowGap = 0.5
)

// bigRow is one row of the period the change went to.
type bigRow struct {
	id    int64
	value float64 // its contribution to the metric, scale applied
	day   string
	cols  []dimValue // its identifying columns, most identifying first
}

// concentration returns the explanation of a change carried by a few
// rows, or nil. It applies to sums over one table (the rows are that
// table's); ratios, averages, distinct and plain counts have no row that
// can carry a change alone.
func (r *run) concentration(ctx context.Context) (*investigation.Explanation, error) {
	o := r.overall.change
	if r.metric.Kind != investigation.MetricSum || len(r.metric.Tables) != 1 || o.Change == 0 || math.IsNaN(o.Change) {
		return nil, nil
	}
	period := 1 // a rise: the comparison's largest rows
	if o.Change < 0 {
		period = 0 // a fall: the baseline's largest rows, not repeated
	}
	rows, otherMax, n, rec, err := r.largestRows(ctx, period)
	if err != nil || n < minConcentrationRows {
		return nil, err
	}
	var picked []bigRow
	sum := 0.0
	for _, row := range rows[:min(len(rows), maxConcentratedRows)] {
		if row.value <= otherMax || row.value <= 0 {
			break // as large rows happen in the other period too
		}
		picked = append(picked, row)
		sum += row.value
		if sum >= concentrationShare*math.Abs(o.Change) {
			break
		}
	}
	if len(picked) == 0 || sum < concentrationShare*math.Abs(o.Change) {
		return nil, nil
	}
	if k := len(picked); k < len(rows) && rows[k].value > rowGap*picked[k-1].value {
		// The next row is about as large: the named rows are the top of
		// a segment that moved (every row of it), not a few events.
		return nil, nil
	}
	if err := r.describeRows(ctx, picked); err != nil {
		return nil, err
	}
	e := r.concentrationExplanation(picked, sum, period, otherMax, rec)
	return &e, nil
}

// largestRows returns the maxConcentratedRows+1 largest rows of period by
// the metric's numerator, the largest row of the other period and the
// rows of period, from one recorded query.
func (r *run) largestRows(ctx context.Context, period int) ([]bigRow, float64, int, record, error) {
	rowid := r.rowidExpr()
	cols := []string{rowid + " AS row_id", r.scope.day() + " AS day"}
	rows := r.scope.byPeriodAgg(cols, r.metric.Numerator+" AS num", "")
	if r.metric.RowValue != "" {
		// A SUM's value on one row is its argument: no group per row.
		rows = r.scope.byPeriodRows(cols, r.metric.RowValue+" AS num")
	}
	sql := fmt.Sprintf(`WITH r AS (%s)
SELECT row_id, day, num,
  (SELECT max(num) FROM r WHERE period = %d) AS other_max,
  (SELECT count(*) FROM r WHERE period = %d) AS n
FROM r WHERE period = %d AND num IS NOT NULL
ORDER BY num DESC, row_id
LIMIT %d`, rows, 1-period, period, period, maxConcentratedRows+1)
	res, rec, err := r.rec.query(ctx, "the largest rows of the "+[2]string{"baseline", "comparison"}[period], sql)
	if err != nil || len(res.Rows) == 0 {
		return nil, 0, 0, rec, err
	}
	scale := r.metric.Scale
	if scale == 0 {
		scale = 1
	}
	var out []bigRow
	for i, row := range res.Rows {
		day, err := asDate(row[1])
		if err != nil {
			return nil, 0, 0, rec, err
		}
		out = append(out, bigRow{id: int64(res.Float(i, 0)), day: day.String(), value: scale * res.Float(i, 2)})
	}
	otherMax := math.Inf(-1)
	if res.Rows[0][3] != nil {
		otherMax = scale * res.Float(0, 3)
	}
	return out, otherMax, int(res.Float(0, 4)), rec, nil
}

// rowidExpr is the row id of the metric's one table, as its FROM clause
// names the table.
func (r *run) rowidExpr() string {
	t := r.metric.Tables[0]
	ref := r.refs[strings.ToLower(t)]
	if ref == "" {
		ref = t
	}
	return quoteIdent(ref) + ".rowid"
}

// describeRows reads the identifying columns of the rows: the dimensions
// with the most values first (an airport and a species name a strike
// better than its size class).
func (r *run) describeRows(ctx context.Context, rows []bigRow) error {
	var dims []*Dim
	for _, d := range r.dims {
		if d.Via == nil {
			dims = append(dims, d)
		}
	}
	sort.SliceStable(dims, func(i, j int) bool { return dims[i].Cardinality > dims[j].Cardinality })
	dims = dims[:min(len(dims), maxRowColumns)]
	if len(dims) == 0 {
		return nil
	}
	rowid := r.rowidExpr()
	ids := make([]string, len(rows))
	sel := []string{rowid + " AS row_id"}
	for i, row := range rows {
		ids[i] = fmt.Sprint(row.id)
	}
	for _, d := range dims {
		sel = append(sel, d.Expr)
	}
	sql := fmt.Sprintf("SELECT %s\nFROM %s\nWHERE %s IN (%s)", strings.Join(sel, ", "), r.metric.From, rowid, strings.Join(ids, ", "))
	res, _, err := r.rec.query(ctx, "the columns of the largest rows", sql)
	if err != nil {
		return err
	}
	for i, row := range res.Rows {
		id := int64(res.Float(i, 0))
		for k := range rows {
			if rows[k].id != id {
				continue
			}
			for j, d := range dims {
				v, null := label(row[1+j])
				rows[k].cols = append(rows[k].cols, dimValue{Dim: d, Value: v, Null: null})
			}
		}
	}
	return nil
}

// concentrationExplanation says which rows carry the change and how
// much of it, with the query that found them.
func (r *run) concentrationExplanation(rows []bigRow, sum float64, period int, otherMax float64, rec record) investigation.Explanation {
	o := r.overall.change
	change := sum
	if period == 0 {
		change = -sum
	}
	share := safeShare(change, o.Change)
	direction := map[bool]string{true: "rise", false: "fall"}[o.Change > 0]
	var names []string
	values := map[string]float64{"rows": float64(len(rows)), "sum": sum, "share_of_change": share, "change": o.Change}
	for i, row := range rows {
		names = append(names, r.rowText(row))
		values[fmt.Sprintf("row_%d", i+1)] = row.value
	}
	who := "One row"
	if len(rows) > 1 {
		who = fmt.Sprintf("%d rows", len(rows))
	}
	title := fmt.Sprintf("%s %s %s of the %s: %s", who, map[bool]string{true: "is", false: "are"}[len(rows) == 1], pctOf(math.Abs(share)), direction, r.rowValues(rows[0]))
	if len(rows) > 1 {
		title = fmt.Sprintf("%s are %s of the %s; the largest: %s", who, pctOf(math.Abs(share)), direction, r.rowValues(rows[0]))
	}
	where := [2]string{"baseline", "comparison"}[period]
	story := fmt.Sprintf("%s of the %s (%s) carry %s of the %s: %s. Without them the metric would have moved %s instead of %s.",
		strings.ToLower(who[:1])+who[1:], where, r.fmtChange(change), pctOf(math.Abs(share)), direction, strings.Join(names, "; "),
		r.fmtChange(o.Change-change), r.fmtChange(o.Change))
	reasoning := fmt.Sprintf("The %d largest rows of the %s hold %s, %s of the change, and each is larger than any row of the other period (largest %s). A change this concentrated is a few events, not a trend: check each row before reading any segment.",
		len(rows), where, r.fmtChange(change), sharePct(share), r.fmtValue(otherMax))
	return investigation.Explanation{
		Title: truncate(title, quarry.MaxExplanationTitleLen),
		Evidence: []investigation.Evidence{{
			Description: fmt.Sprintf("the largest rows of the %s: %s", where, strings.Join(names, "; ")),
			SQL:         rec.SQL, AuditSequence: rec.Sequence, Values: values,
		}},
		Reasoning:     reasoning,
		CausalStory:   truncate(story, quarry.MaxCausalStoryLen),
		Kind:          investigation.KindConcentration,
		Segment:       investigation.Segment{},
		ShareOfChange: share,
		Change:        change,
		Significant:   true,
	}
}

// rowValues names a row by its values alone, for a title: "2000-02-22,
// PHILADELPHIA INTL, US AIRWAYS*, Canada goose, 3,367,644".
func (r *run) rowValues(row bigRow) string {
	parts := []string{row.day}
	for _, c := range row.cols {
		parts = append(parts, c.Value)
	}
	return strings.Join(append(parts, r.fmtValue(row.value)), ", ")
}

// rowText names a row: "2000-02-22, Airport Name=PHILADELPHIA INTL,
// Wildlife Species=Canada goose, Cost Total $ 3,367,644".
func (r *run) rowText(row bigRow) string {
	parts := []string{row.day}
	for _, c := range row.cols {
		parts = append(parts, c.Dim.Name+"="+c.Value)
	}
	return strings.Join(append(parts, fmt.Sprintf("%s %s", words2(r.metric.Numerator), r.fmtValue(row.value))), ", ")
}
