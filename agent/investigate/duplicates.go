package investigate

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// locateDuplicates says where the exact duplicate rows sit: on which days
// and, when one value of a dimension holds nearly all of them, in which
// segment ("all 212 extra rows are on 2024-03-20, in region=west"). A
// problem that names its place can be fixed; one that gives a percentage
// sends people searching. cols are the table's qualified columns.
func (r *run) locateDuplicates(ctx context.Context, cols []string) (string, record, error) {
	sel := []string{r.scope.day() + " AS day"}
	group := append([]string(nil), cols...)
	for i, d := range r.dims {
		sel = append(sel, fmt.Sprintf("CAST(%s AS VARCHAR) AS d%d", d.Expr, i))
	}
	cond := r.scope.in(r.scope.base) + " OR " + r.scope.in(r.scope.cmp)
	sql := fmt.Sprintf("SELECT %s, count(*) - 1 AS extra FROM %s WHERE %s GROUP BY %s HAVING count(*) > 1",
		strings.Join(sel, ", "), r.scope.from(), r.scope.where("("+cond+")"), strings.Join(group, ", "))
	res, rec, err := r.rec.query(ctx, "where the duplicate rows are", sql)
	if err != nil {
		return "", rec, err
	}
	byDay := map[string]float64{}
	byValue := make([]map[string]float64, len(r.dims))
	for i := range byValue {
		byValue[i] = map[string]float64{}
	}
	var total float64
	for i, row := range res.Rows {
		extra := res.Float(i, len(row)-1)
		total += extra
		if day, err := asDate(row[0]); err == nil {
			byDay[day.String()] += extra
		}
		for k := range r.dims {
			v, _ := label(row[1+k])
			byValue[k][v] += extra
		}
	}
	if total == 0 {
		return "", rec, nil
	}
	days := make([]string, 0, len(byDay))
	for d := range byDay {
		days = append(days, d)
	}
	sort.Slice(days, func(i, j int) bool {
		if byDay[days[i]] != byDay[days[j]] {
			return byDay[days[i]] > byDay[days[j]]
		}
		return days[i] < days[j]
	})
	var where string
	switch {
	case len(days) == 1:
		where = fmt.Sprintf("all %s extra rows are on %s", num(total), days[0])
	case len(days) <= 3:
		where = fmt.Sprintf("the %s extra rows are on %s", num(total), strings.Join(days, ", "))
	default:
		var top []string
		for _, d := range days[:3] {
			top = append(top, fmt.Sprintf("%s (%s)", d, num(byDay[d])))
		}
		where = fmt.Sprintf("the %s extra rows are spread over %d days, most on %s", num(total), len(days), strings.Join(top, ", "))
	}
	var segs []string
	for k, d := range r.dims {
		for v, n := range byValue[k] {
			if n >= 0.9*total && len(byValue[k]) > 0 && d.Cardinality > 1 {
				segs = append(segs, d.Name+"="+v)
			}
		}
	}
	sort.Strings(segs)
	if len(segs) > 0 {
		where += ", in " + strings.Join(segs[:min(len(segs), 3)], " AND ")
	}
	return where, rec, nil
}
