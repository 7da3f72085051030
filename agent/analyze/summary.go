package analyze

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/intent"
)

// A finding is one sentence of the summary, with the step whose
// observation holds every number in it.
type finding struct {
	TaskID string
	Text   string
}

// maxSummaryRows is the most rows of a step's table the summary reads.
const maxSummaryRows = 1000

// findings reads the results of the steps the plan delivers into plain
// sentences. Each number is printed from the step's recorded table, never
// computed here beyond a difference or a share of two recorded values.
func (r *run) findings(ctx context.Context) []finding {
	var out []finding
	for _, t := range r.plan.Subtasks {
		o := r.outputs[t.TaskID]
		if t.Status != analysis.TaskSucceeded || o == nil || t.Deliverable != analysis.DeliverTables {
			continue
		}
		if t.ToolName == analysis.ToolProfile {
			fs := profileFindings(t, o)
			if o.cut != nil {
				for i := range fs {
					fs[i].Text += " " + o.cut.sentence()
				}
			}
			out = append(out, fs...)
			continue
		}
		res, err := r.ws.Query(ctx, fmt.Sprintf("SELECT * FROM %s LIMIT %d", quoteIdent(o.table), maxSummaryRows))
		if err != nil {
			continue
		}
		lead, ranked := orderedBy(t, res.Columns), true
		if lead < 0 {
			lead, ranked = measureColumn(t, res.Columns, res.Rows), false
		}
		if text := describeResult(t.Description, res.Columns, res.Rows, o.rows, lead, ranked); text != "" {
			if o.cut != nil {
				text += " " + o.cut.sentence()
			}
			out = append(out, finding{TaskID: t.TaskID, Text: text})
		}
	}
	return append(out, r.notRun()...)
}

// notRun says which steps did not run to the end, and why: skipped after
// a step they need, timed out, stopped at a limit, or failed.
func (r *run) notRun() []finding {
	var out []finding
	for _, t := range r.plan.Subtasks {
		var why string
		switch t.Status {
		case analysis.TaskSucceeded:
			continue
		case analysis.TaskSkipped:
			why = "it was skipped because a step it needs did not succeed"
		default:
			why = "it did not run"
			r.mu.Lock()
			for _, o := range r.res.Observations {
				if o.TaskID != t.TaskID {
					continue
				}
				switch o.Status {
				case analysis.ObsTimeout:
					why = "it timed out"
				case analysis.ObsResourceLimit:
					why = "it stopped at a resource limit"
				case analysis.ObsError:
					why = "it failed"
					if o.ErrorMessage != nil {
						why += ": " + strings.TrimSuffix(clip(*o.ErrorMessage, 200), ".")
					}
				}
			}
			r.mu.Unlock()
		}
		out = append(out, finding{TaskID: t.TaskID, Text: fmt.Sprintf("%s did not run to the end: %s; its result is not shown.", t.Description, why)})
	}
	return out
}

// clip cuts s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	s = oneLine(s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// describeResult says what a result table shows, by its shape: one row of
// numbers; a series over periods (first, last, change, peak); or a ranking
// of categories (the first, its share).
// The column a ranking is ordered by (lead, -1 if none) is the one it
// speaks of, and its first row leads (ranked), whichever way it is
// ordered; otherwise the last column of numbers, led by its highest.
func describeResult(what string, cols []string, rows [][]any, total int64, lead int, ranked bool) string {
	if len(rows) == 0 || len(cols) == 0 {
		return fmt.Sprintf("%s: no rows.", what)
	}
	num := -1
	for j := len(cols) - 1; j >= 0; j-- {
		if _, ok := number(rows[0][j]); ok {
			num = j
			break
		}
	}
	if lead > 0 && lead < len(cols) {
		if _, ok := number(rows[0][lead]); ok {
			num = lead
		}
	}
	if num < 0 {
		return ""
	}
	if len(rows) == 1 {
		var parts []string
		for j, c := range cols {
			if v, ok := number(rows[0][j]); ok {
				parts = append(parts, fmt.Sprintf("%s %s", c, formatNumber(v)))
			} else if rows[0][j] != nil {
				parts = append(parts, fmt.Sprintf("%s %s", c, quarry.AsText(rows[0][j])))
			}
		}
		return fmt.Sprintf("%s: %s.", what, strings.Join(parts, ", "))
	}
	if num == 0 {
		return ""
	}
	label := func(i int) string {
		// the columns before the number name the row together: "Adams
		// County (OH)", "East (Widget)"
		var with []string
		for j := 1; j < num; j++ {
			if _, ok := number(rows[i][j]); !ok && rows[i][j] != nil {
				with = append(with, quarry.AsText(rows[i][j]))
			}
		}
		if len(with) == 0 {
			return quarry.AsText(rows[i][0])
		}
		return quarry.AsText(rows[i][0]) + " (" + strings.Join(with, ", ") + ")"
	}
	if cols[0] == "period" && len(rows) == 2 {
		return comparison(what, cols, rows)
	}
	if num >= 2 && (periodLike(rows[0][0]) || intent.IsYearColumn(cols[0], "integer")) {
		// a period beside a second grouping: text, or numbers that repeat
		// period after period (a cluster code)
		if _, ok := number(rows[0][1]); !ok || len(rows) > 1 && quarry.AsText(rows[0][0]) == quarry.AsText(rows[1][0]) {
			return seriesSentence(what, cols, rows, num)
		}
	}
	first, _ := number(rows[0][num])
	last, _ := number(rows[len(rows)-1][num])
	peak := 0
	for i := range rows {
		if v, ok := number(rows[i][num]); ok {
			if p, _ := number(rows[peak][num]); v > p {
				peak = i
			}
		}
	}
	peakV, _ := number(rows[peak][num])
	if periodLike(rows[0][0]) || intent.IsYearColumn(cols[0], "integer") {
		s := fmt.Sprintf("%s: %s went from %s in %s to %s in %s", what, cols[num], formatNumber(first), label(0), formatNumber(last), label(len(rows)-1))
		s += movement(first, last)
		if total > int64(len(rows)) {
			return s + fmt.Sprintf(", over the first %d of %d periods; the highest was %s in %s.", len(rows), total, formatNumber(peakV), label(peak))
		}
		return s + fmt.Sprintf("; the highest was %s in %s.", formatNumber(peakV), label(peak))
	}
	var sum float64
	for i := range rows {
		v, _ := number(rows[i][num])
		sum += v
	}
	if ranked && num == lead {
		peak = 0 // a ranking's first row leads, lowest first or highest
		peakV, _ = number(rows[0][num])
	}
	s := fmt.Sprintf("%s: %s leads with %s %s", what, label(peak), cols[num], formatNumber(peakV))
	if sum > 0 && total == int64(len(rows)) && addsUp(cols[num]) {
		s += fmt.Sprintf(" (%.1f%% of the %d listed)", 100*peakV/sum, len(rows))
	}
	return s + "."
}

// addsUp reports whether a result column, by the name the planner gave it,
// is a total or a count, whose parts make a whole: not an average, an
// extreme, a median, a spread or a ratio, of which a share means nothing.
func addsUp(col string) bool {
	for agg := range aggWords {
		if agg != "count" && strings.HasPrefix(col, agg+"_") {
			return false // every aggregate but a count: an average, a range, ...
		}
	}
	return !strings.Contains(col, "_per_") && col != "change" && col != "change_pct" && col != "share" && col != "share_pct" && col != "rate_pct"
}

// movement says in words how a value moved from a to b: ", up 12 (5.0%)",
// ", down 318.87 (14.3%)": the direction in a word and the amounts as
// positive numbers, so that "how much did it fall" is answered as asked.
func movement(a, b float64) string {
	d := b - a
	if d == 0 {
		return ", no change"
	}
	dir := "up"
	if d < 0 {
		dir = "down"
	}
	s := fmt.Sprintf(", %s %s", dir, formatNumber(math.Abs(d)))
	if a != 0 {
		s += fmt.Sprintf(" (%.1f%%)", 100*math.Abs(d)/math.Abs(a))
	}
	return s
}

// comparison says how each measure moved between the two periods of a
// totals table (the period compared with first).
func comparison(what string, cols []string, rows [][]any) string {
	var parts []string
	for j := 1; j < len(cols); j++ {
		a, ok1 := number(rows[0][j])
		b, ok2 := number(rows[1][j])
		if !ok1 || !ok2 {
			continue
		}
		p := fmt.Sprintf("%s %s in %s against %s in %s", cols[j], formatNumber(b), quarry.AsText(rows[1][0]), formatNumber(a), quarry.AsText(rows[0][0]))
		p += movement(a, b)
		parts = append(parts, p)
	}
	return fmt.Sprintf("%s: %s.", what, strings.Join(parts, "; "))
}

// seriesSentence says, for a series per group over periods, which group
// led in the last period and how the groups' total moved.
func seriesSentence(what string, cols []string, rows [][]any, num int) string {
	first, last := quarry.AsText(rows[0][0]), quarry.AsText(rows[len(rows)-1][0])
	var firstSum, lastSum, best float64
	leader := ""
	for _, row := range rows {
		v, _ := number(row[num])
		switch quarry.AsText(row[0]) {
		case first:
			firstSum += v
		}
		if quarry.AsText(row[0]) == last {
			lastSum += v
			if leader == "" || v > best {
				leader, best = quarry.AsText(row[1]), v
			}
		}
	}
	if _, err := strconv.ParseFloat(leader, 64); err == nil {
		leader = cols[1] + " " + leader // "cluster 4", not "4"
	}
	s := fmt.Sprintf("%s: together %s went from %s in %s to %s in %s", what, cols[num], formatNumber(firstSum), first, formatNumber(lastSum), last)
	s += movement(firstSum, lastSum)
	return s + fmt.Sprintf("; in %s %s led with %s.", last, leader, formatNumber(best))
}

// profileFindings are the profile's notable facts: per numeric column its
// mean and median, and outliers, missing values and normality where they
// matter; the strongest correlation.
func profileFindings(t analysis.Subtask, out *output) []finding {
	data, _ := out.data.(map[string]any)
	profiles, _ := data["profile"].([]ColumnProfile)
	corrs, _ := data["correlations"].([]Correlation)
	var fs []finding
	for _, p := range profiles {
		var parts []string
		if p.Mean != nil && p.Median != nil {
			parts = append(parts, fmt.Sprintf("mean %s, median %s", formatNumber(*p.Mean), formatNumber(*p.Median)))
			if p.Std != nil {
				parts = append(parts, "standard deviation "+formatNumber(*p.Std))
			}
		}
		if p.Missing > 0 {
			parts = append(parts, fmt.Sprintf("%d missing of %d", p.Missing, p.Missing+p.Count))
		}
		if p.Outliers != nil && *p.Outliers > 0 {
			parts = append(parts, fmt.Sprintf("%d outliers beyond 1.5 IQR", *p.Outliers))
		}
		if p.Normal != nil {
			if *p.Normal {
				parts = append(parts, "consistent with a normal distribution (Jarque-Bera, 5%)")
			} else {
				parts = append(parts, "not normally distributed (Jarque-Bera, 5%)")
			}
		}
		if len(parts) > 0 {
			fs = append(fs, finding{TaskID: t.TaskID, Text: fmt.Sprintf("%s: %s.", p.Column, strings.Join(parts, "; "))})
		}
	}
	best := -1
	for i, c := range corrs {
		if best < 0 || math.Abs(c.R) > math.Abs(corrs[best].R) {
			best = i
		}
	}
	if best >= 0 {
		c := corrs[best]
		fs = append(fs, finding{TaskID: t.TaskID, Text: fmt.Sprintf("The strongest correlation is between %s and %s: r = %s over %d rows.", c.A, c.B, strconv.FormatFloat(c.R, 'f', 3, 64), c.N)})
	}
	return fs
}

// summaryText joins the findings as a bulleted list citing their steps.
func summaryText(fs []finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "- %s [%s]\n", f.Text, f.TaskID)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x)
	}
	return 0, false
}

// periodLike reports whether a value is a date, or text that reads as a
// period ("2021-03", "2021 Q1").
func periodLike(v any) bool {
	switch x := v.(type) {
	case string:
		_, err := quarry.ParseDate(x)
		if err == nil {
			return true
		}
		return len(x) >= 4 && x[0] >= '1' && x[0] <= '2' && strings.ContainsAny(x, "-Q")
	case int64, float64, nil:
		return false
	}
	return quarry.AsText(v) != "" && strings.Count(quarry.AsText(v), "-") == 2
}

// formatNumber prints a number as people read it: thousands grouped, two
// decimals for amounts, four significant digits for small values.
func formatNumber(v float64) string {
	switch {
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return group(strconv.FormatFloat(v, 'f', 0, 64))
	case math.Abs(v) >= 1:
		return group(strconv.FormatFloat(v, 'f', 2, 64))
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// group inserts thousands separators into a plain decimal.
func group(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		return sign + b.String() + "." + frac
	}
	return sign + b.String()
}

// orderedBy returns the position of the column a query step's rows are
// ranked by, when its query orders by a column's position and a
// direction ("ORDER BY 2 DESC NULLS LAST, 1"), -1 otherwise.
func orderedBy(t analysis.Subtask, cols []string) int {
	q, _ := t.Arguments["query"].(string)
	if m := orderByName.FindStringSubmatch(q); m != nil {
		return slices.Index(cols, strings.ReplaceAll(m[1], `""`, `"`))
	}
	m := orderByPosition.FindStringSubmatch(q)
	if m == nil {
		return -1
	}
	k, err := strconv.Atoi(m[1])
	if err != nil {
		return -1
	}
	return k - 1
}

// measureColumn returns the position of the column a step without a
// ranking is about, -1 if it does not say: the column a transform works
// on ("columns": the one whose change it computes), or the first measure
// of a series over periods, which every measure of the request is a
// column of.
func measureColumn(t analysis.Subtask, cols []string, rows [][]any) int {
	if on, ok := t.Arguments["columns"].([]any); ok && len(on) == 1 {
		if name, ok := on[0].(string); ok {
			return slices.Index(cols, name)
		}
	}
	if len(cols) == 0 || cols[0] != "period" || len(rows) == 0 {
		return -1
	}
	for j := 1; j < len(cols); j++ {
		if _, ok := number(rows[0][j]); ok {
			return j
		}
	}
	return -1
}

// orderByPosition matches the last ORDER BY of a query when it names a
// column's position and a direction.
var orderByPosition = regexp.MustCompile(`(?i)ORDER BY (\d+) (?:ASC|DESC)[^()]*$`)

// orderByName matches the last ORDER BY of a query when it names a
// column by its quoted name and a direction: the ranking of rows.
var orderByName = regexp.MustCompile(`(?i)ORDER BY "((?:[^"]|"")+)" (?:ASC|DESC)[^()"]*$`)
