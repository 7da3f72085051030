package intent

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Unknown is a word or phrase of a request that would change the answer
// and that could not be applied: why, and the nearest columns and values
// the data has.
type Unknown struct {
	Word    string
	Reason  string
	Nearest []string
}

// magnitudes are superlatives of an amount: with nothing named to
// measure, "the highest single reading" is not the most rows.
var magnitudes = setOf("highest", "lowest", "largest", "smallest", "biggest")

// weighty are words the parser otherwise passes over as filler that do
// change the answer when they are meant: a ranking, a comparison, a
// negation, a period boundary, a grouping. Left unused, they are reported.
var weighty = setOf("top", "bottom", "best", "worst", "highest", "lowest", "most", "least", "fewest", "between",
	"over", "under", "above", "below", "per", "versus", "vs", "compare", "compared", "comparing", "comparison",
	"without", "except", "excluding", "exclude", "not", "first", "last", "before", "after", "since", "until",
	"each", "every", "unique", "distinct", "share", "percentage", "percent", "median", "average", "mean", "more",
	"less", "fewer", "greater", "smaller", "larger", "biggest", "largest", "smallest", "minimum", "maximum")

// nameSays reports whether a column's name says the word w: one of its
// words is w or abbreviates it ("temp" for temperature), or ends a run of
// letters with it ("surftemp", "maxtemp").
func nameSays(col, w string) bool {
	return slices.ContainsFunc(nameWords(col), func(cw string) bool {
		if sameWord(w, cw) || abbreviates(w, cw) {
			return true
		}
		for k := 3; len(cw)-k >= 4; k++ { // a word before it of three letters at least: not "train" for rain
			if s := cw[k:]; sameWord(w, s) || abbreviates(w, s) {
				return true
			}
		}
		return false
	})
}

// notGrouping are the words after "by" that do not start a grouping.
var notGrouping = setOf("how", "what", "which", "much", "many", "far", "percent", "percentage", "itself", "then",
	"now", "way", "contrast", "comparison", "default", "hand", "chance", "definition")

// unsupported are words asking for something no tool of an analysis can
// do, with why.
var unsupported = map[string]string{
	"forecast":      "no tool forecasts: an analysis measures the data it has",
	"forecasts":     "no tool forecasts: an analysis measures the data it has",
	"forecasting":   "no tool forecasts: an analysis measures the data it has",
	"forecasted":    "no tool forecasts: an analysis measures the data it has",
	"extrapolate":   "no tool extrapolates beyond the data: an analysis measures the data it has",
	"extrapolation": "no tool extrapolates beyond the data: an analysis measures the data it has",
	"why":           "an analysis measures what the data holds, not why; `quarry investigate` ranks explanations of a change between two periods",
	"cause":         "an analysis measures what the data holds, not what caused it; `quarry investigate` ranks explanations of a change between two periods",
	"caused":        "an analysis measures what the data holds, not what caused it; `quarry investigate` ranks explanations of a change between two periods",
	"causes":        "an analysis measures what the data holds, not what caused it; `quarry investigate` ranks explanations of a change between two periods",
	"explain":       "an analysis measures what the data holds, not why; `quarry investigate` ranks explanations of a change between two periods",
}

// unknowns lists what would change the answer and was not applied: the
// words not understood, weighty words left over, requests no tool can do,
// and a period the data has no date for.
func (p *parser) unknowns() {
	seen := map[string]bool{}
	add := func(u Unknown) {
		if seen[strings.ToLower(u.Word)] {
			return
		}
		seen[strings.ToLower(u.Word)] = true
		p.in.Unknown = append(p.in.Unknown, u)
	}
	if p.in.Top == nil {
		for _, j := range p.unnamedWhich {
			add(Unknown{Word: "which " + p.toks[j].raw, Reason: "no column names the " + p.toks[j].raw + " to rank"})
		}
	}
	for _, t := range p.toks {
		if why, ok := unsupported[t.low]; ok && t.kind == kWord {
			add(Unknown{Word: t.raw, Reason: why})
		}
	}
	if tr := p.in.Time; tr != nil && tr.Column == "" {
		add(Unknown{Word: tr.Label, Reason: "the data has no date column to apply this period to", Nearest: p.timeLikeColumns()})
	}
	if len(p.in.Measures) == 0 && (slices.Contains(p.in.Analyses, AnalysisTrend) || slices.Contains(p.in.Analyses, AnalysisGrowth)) && p.t != nil && p.periods("day") >= p.t.Rows {
		// "How much did the S&P 500 change": a series of one row a day
		// has nothing to count; its measure must be named.
		add(Unknown{Word: "what to compute", Reason: "the table has at most one row a day, so counting its rows measures nothing: name the column", Nearest: p.numericColumns()})
	}
	if pa := p.perPeriod; pa != nil {
		if p.onePerPeriod(pa.grain) {
			p.understood(pa.pos, fmt.Sprintf("%s -> over rows (at most one row per %s)", pa.src, pa.grain), pa.src)
		} else if slices.ContainsFunc(p.in.Measures, func(m Measure) bool { return m.PerPeriod == pa.grain }) {
			// read as each period's total, averaged (periodTotals)
		} else {
			what := "an average"
			if strings.HasPrefix(strings.ToLower(pa.src), "median") {
				what = "a median"
			}
			why := fmt.Sprintf("%s of each %s's total is not computed yet; the rows are finer than a %s", what, pa.grain, pa.grain)
			if what == "an average" && p.date != nil && p.entityPeriods(pa.grain) {
				why = fmt.Sprintf("the average row (each may be one thing's %s) or the average of each %s's total of all rows? Group by what a row is, or filter one", pa.grain, pa.grain)
			}
			add(Unknown{Word: pa.src, Reason: why})
		}
	}
	if tr := p.in.Compare; tr != nil && tr.Column == "" {
		add(Unknown{Word: tr.Label, Reason: "the data has no date column to compare this period on", Nearest: p.timeLikeColumns()})
	}
	if w, g, ok := p.averagePerPeriod(); ok {
		add(Unknown{Word: w, Reason: fmt.Sprintf("the average row, or the average of each %s's total? The rows are finer than a %s", g, g)})
	}
	if p.in.Top != nil && len(p.in.Measures) == 0 && (evaluative[p.rankBy] || magnitudes[p.rankBy] && !slices.Contains(p.in.Analyses, AnalysisShare)) && p.rankBy != "top" && p.rankBy != "bottom" {
		add(Unknown{Word: p.rankBy, Reason: "says to rank, but not by what measure", Nearest: p.numericColumns()})
	}
	if a, ok := rankAdjectives[p.rankBy]; ok && p.in.Top != nil && a.words != nil && len(p.in.Measures) > 0 {
		// "average wind by month, wettest first": the ranking is by the
		// first measure, and the superlative names another
		col := p.in.Measures[0].Column
		span := p.in.Measures[0].Since != "" && slices.Contains(a.words, "duration") // "the longest time between"
		if !span && !slices.ContainsFunc(a.words, func(w string) bool { return nameSays(col, w) }) {
			what := "the count of rows"
			if col != "" {
				what = col
			}
			add(Unknown{Word: p.rankBy, Reason: "ranks by " + strings.Join(a.words, " or ") + ", but the measure ranked is " + what, Nearest: p.numericColumns()})
		}
	}
	if t := p.in.Top; t != nil && t.Column != "" && slices.ContainsFunc(p.in.Filters, func(f Filter) bool {
		return f.Column == t.Column && (f.Op == "=" || f.Op == "in" && len(f.Values) == 1)
	}) {
		// "is Bug the most common category": the ranking of one value
		// always puts it first; whether it leads is not computed
		add(Unknown{Word: p.topSrc, Reason: "ranks " + t.Column + " with " + t.Column + " fixed to one value: whether that value leads is not computed", Nearest: []string{t.Column}})
	}
	if t := p.in.Top; t != nil && slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return g.Column == t.Column && g.Grain != "" }) {
		// "which 3 years had the highest sales": the periods are ranked
		// by the measure over all the rows the filters keep.
		switch {
		case slices.Contains(p.in.Analyses, AnalysisGrowth):
			add(Unknown{Word: p.topSrc, Reason: "periods are ranked by the measure itself, not by its growth"})
		case len(p.in.GroupBy) > 1:
			add(Unknown{Word: p.topSrc, Reason: "the top periods are ranked over all rows, not within each group"})
		case p.in.Compare != nil:
			add(Unknown{Word: p.topSrc, Reason: "periods are ranked by the measure itself, not by its change from another period"})
		}
	}
	for _, u := range p.levelsOverTime() {
		add(u)
	}
	for _, u := range p.undecided {
		var names []string
		for _, c := range u.cols {
			names = append(names, c.Name)
		}
		which := "which column it is in"
		if roleTwins(u.cols) {
			which = "which end it is"
		}
		add(Unknown{Word: p.src(u.i, u.j), Reason: "a value of " + strings.Join(names, " and ") + "; the request does not say " + which,
			Nearest: names})
	}
	for _, w := range p.in.Unparsed {
		u := Unknown{Word: w, Reason: "no column or value of " + p.in.Table + " is called that"}
		if _, err := strconv.ParseFloat(strings.ReplaceAll(w, ",", ""), 64); err == nil {
			u.Reason = "a number I could not attach to a column or a period"
		}
		u.Nearest = p.nearest(w)
		add(u)
	}
	for i, t := range p.toks {
		if !t.used && t.kind == kWord && weighty[t.low] {
			add(Unknown{Word: t.raw, Reason: "this word changes the answer, and I could not tell what it applies to"})
		}
		if !t.used && t.kind == kWord && (t.low == "by" || t.low == "per") {
			// "by time of day" with no column read: a grouping left out.
			k := p.skip(i+1, "the", "a", "an")
			if notGrouping[p.low(k)] || aggWord(p.low(k)) {
				continue // "by how many percent", "by far"
			}
			end := k
			for end < len(p.toks) && end < k+3 && p.free(end) && p.toks[end].kind == kWord && !isNumber(p.toks[end].low) {
				end++
			}
			if end > k {
				add(Unknown{Word: p.src(i, end), Reason: "a grouping I could not read", Nearest: p.nearest(p.toks[k].low)})
			}
		}
	}
}

// onePerPeriod reports whether the chosen table has about one row per
// period of grain: no more rows than periods between its first and last
// dates, and at least half as many. Then an average over the rows is the
// average per period.
func (p *parser) onePerPeriod(grain string) bool {
	periods := p.periods(grain)
	if p.date == nil {
		// a date in year, month and day columns: only as many rows as
		// days say one row a day; 5,000 accidents over 7,305 days are no
		// days
		return periods > 0 && p.t.Rows <= periods && p.t.Rows*100 >= periods*99
	}
	// Far fewer rows than periods are coarser rows (a row a week read
	// against "average daily"), or several series sampled now and then:
	// the average of rows is then not the average per period.
	return periods > 0 && p.t.Rows <= periods && p.t.Rows*2 >= periods
}

// periods returns how many periods of grain the chosen table's dates span,
// 0 when unknown.
func (p *parser) periods(grain string) int64 {
	if p.t == nil || p.t.Rows <= 0 {
		return 0
	}
	if p.date == nil {
		return p.periodsOfParts(grain)
	}
	first, ok1 := day(p.date.Min)
	last, ok2 := day(p.date.Max)
	if !ok1 || !ok2 {
		return 0
	}
	periods := int64(0)
	switch grain {
	case "day":
		periods = int64(last.Sub(first).Hours()/24) + 1
	case "week":
		periods = int64(last.Sub(first).Hours()/24/7) + 1
	case "month":
		periods = int64(monthsBetween(first, last)) + 1
	case "quarter":
		periods = int64(monthsBetween(first, last))/3 + 1
	case "year":
		periods = int64(last.Year()-first.Year()) + 1
	}
	return periods
}

// periodsOfParts returns how many periods of grain a table with no date
// column spans when its date is spread over integer columns: a year, and
// for months a month 1–12, for days a month and a day of the month 1–31.
// It is 0 when the table has no such columns.
func (p *parser) periodsOfParts(grain string) int64 {
	yc := p.yearColumn()
	if yc == nil {
		return 0
	}
	lo, hi, ok := numRange(yc)
	if !ok || hi < lo {
		return 0
	}
	years := int64(hi-lo) + 1
	has := func(words []string, lo, hi, most float64) bool {
		return slices.ContainsFunc(p.t.Columns, func(c Column) bool {
			_, max, _ := numRange(&c)
			return partColumn(&c, words, lo, hi) && max >= most
		})
	}
	months := has(monthWords, 1, 12, 12)
	switch {
	case grain == "year":
		return years
	case grain == "quarter" && (months || has(quarterWords, 1, 4, 4)):
		return years * 4
	case grain == "month" && months:
		return years * 12
	case grain == "day" && months && has(dayOfMonthWords, 1, 31, 28):
		return years*365 + years/4
	}
	return 0
}

// dayOfMonthWords name a day of the month in a column's name.
var dayOfMonthWords = []string{"day", "date", "dom", "mday", "dd"}

// nearest returns up to three column names and values of the chosen table
// closest to w: by spelling, by a shared start, or by a word of their name.
func (p *parser) nearest(w string) []string {
	if p.t == nil || len(w) < 2 {
		return nil
	}
	lw := strings.ToLower(w)
	type cand struct {
		name string
		d    int
	}
	var cands []cand
	score := func(name string) int {
		d := distance(lw, strings.ToLower(name))
		for _, part := range nameWords(name) {
			if len(part) < 2 {
				continue
			}
			pd := distance(lw, part) + 1
			if sameWord(lw, part) {
				pd = 1
			}
			if len(part) >= 4 && len(lw) >= 4 && (strings.HasPrefix(part, lw[:4]) || strings.HasPrefix(lw, part[:4])) {
				pd = min(pd, 2)
			}
			d = min(d, pd)
		}
		return d
	}
	limit := max(2, len(lw)/3)
	for _, c := range p.t.Columns {
		if d := score(c.Name); d <= limit {
			cands = append(cands, cand{c.Name, d})
		}
		for _, v := range c.Values {
			if d := score(v); d <= limit {
				cands = append(cands, cand{fmt.Sprintf("%s (a %s)", v, c.Name), d + 1})
			}
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(a.d, b.d) })
	var out []string
	for _, c := range cands {
		if !slices.Contains(out, c.name) {
			out = append(out, c.name)
		}
		if len(out) == 3 {
			break
		}
	}
	return out
}

// timeLikeColumns are the columns of the chosen table a period might be
// meant on: dates, and integer columns named like years or months.
func (p *parser) timeLikeColumns() []string {
	if p.t == nil {
		return nil
	}
	var out []string
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if isDate(c) || p.isYearColumn(c) || c.Type == "string" && slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return synonymOf(w) == "dt" || synonymOf(w) == "yr" }) {
			out = append(out, c.Name)
		}
	}
	return out
}

// isYearColumn reports whether c holds years as integers.
// isYearColumn reports whether c holds calendar years: named so, and, when
// its range is known, with numbers that can be years (a player's "years"
// of 1 to 24 count years, they name none).
func (p *parser) isYearColumn(c *Column) bool {
	if !IsYearColumn(c.Name, c.Type) {
		return false
	}
	lo, err1 := strconv.ParseFloat(c.Min, 64)
	hi, err2 := strconv.ParseFloat(c.Max, 64)
	return err1 != nil || err2 != nil || lo >= 1000 && hi <= 2200
}

// IsYearColumn reports whether a column of this name and type holds years
// as integers: an integer column named year (or yr, season), alone or
// with one other word ("model_year").
func IsYearColumn(name, typ string) bool {
	if typ != "integer" {
		return false
	}
	ws := nameWords(name)
	return len(ws) <= 2 && slices.ContainsFunc(ws, func(w string) bool { return synonymOf(w) == "yr" || w == "season" })
}

// yearColumn returns the chosen table's integer year column, nil if it has
// none or several.
func (p *parser) yearColumn() *Column {
	if p.t == nil {
		return nil
	}
	var found *Column
	for ci := range p.t.Columns {
		if c := &p.t.Columns[ci]; p.isYearColumn(c) {
			if found != nil {
				return nil
			}
			found = c
		}
	}
	return found
}

// yearColumnTimes applies a period of whole years to an integer year
// column when the table has no date column ("life expectancy in 2005"
// with a column year of 1955, 1960, ...): a filter on the year, and a
// comparison of two years as the two years side by side.
func (p *parser) yearColumnTimes() error {
	if p.date != nil || p.in.Time == nil {
		return nil
	}
	yc := p.yearColumn()
	if yc == nil {
		return nil
	}
	label := p.in.Time.Label
	if lo, hi, ok := p.openYears(p.in.Time); ok {
		p.dropNoDateNote()
		switch {
		case hi == 0:
			p.in.Filters = append(p.in.Filters, Filter{Column: yc.Name, Op: ">=", Values: []string{strconv.Itoa(lo)}})
			p.understood(0, fmt.Sprintf("%s -> %s >= %d", label, yc.Name, lo), label+" ("+yc.Name+")")
		default:
			p.in.Filters = append(p.in.Filters, Filter{Column: yc.Name, Op: "<=", Values: []string{strconv.Itoa(hi)}})
			p.understood(0, fmt.Sprintf("%s -> %s <= %d", label, yc.Name, hi), label+" ("+yc.Name+")")
		}
		p.in.Time = nil
		return nil
	}
	y1, y2, ok := wholeYears(p.in.Time)
	if !ok {
		return p.yearMonthColumns(yc)
	}
	p.dropNoDateNote()
	if c := p.in.Compare; c != nil {
		c1, c2, ok := wholeYears(c)
		if !ok || c2-c1 != 1 || y2-y1 != 1 {
			return nil
		}
		p.in.Filters = append(p.in.Filters, Filter{Column: yc.Name, Op: "in", Values: []string{strconv.Itoa(c1), strconv.Itoa(y1)}})
		p.addGroup(-1, c.Label+" and "+label, yc.Name, "")
		p.understood(0, fmt.Sprintf("%s against %s -> %s in (%d, %d)", label, c.Label, yc.Name, c1, y1), label+" ("+yc.Name+")")
		p.in.Time, p.in.Compare = nil, nil
		return nil
	}
	if y2-y1 == 1 {
		p.in.Filters = append(p.in.Filters, Filter{Column: yc.Name, Op: "=", Values: []string{strconv.Itoa(y1)}})
		p.understood(0, fmt.Sprintf("%s -> %s = %d", label, yc.Name, y1), label+" ("+yc.Name+")")
	} else {
		p.in.Filters = append(p.in.Filters, Filter{Column: yc.Name, Op: ">=", Values: []string{strconv.Itoa(y1)}},
			Filter{Column: yc.Name, Op: "<=", Values: []string{strconv.Itoa(y2 - 1)}})
		p.understood(0, fmt.Sprintf("%s -> %s from %d to %d", label, yc.Name, y1, y2-1), label+" ("+yc.Name+")")
	}
	p.in.Time = nil
	return nil
}

// yearMonthColumns reads one calendar month ("December 2000", "Feb
// 1996") or quarter ("Q3 2022") over a table with a year column and a
// month (1 to 12) or quarter (1 to 4) column of numbers as the two
// filters.
func (p *parser) yearMonthColumns(yc *Column) error {
	start, err1 := time.Parse("2006-01-02", p.in.Time.Start)
	end, err2 := time.Parse("2006-01-02", p.in.Time.End)
	if err1 != nil || err2 != nil || start.Day() != 1 || p.in.Compare != nil {
		return nil // "Q3 2022 vs Q3 2021": both periods, or neither
	}
	names, most, part := monthWords, 12.0, int(start.Month())
	switch {
	case end.Equal(start.AddDate(0, 1, 0)):
	case end.Equal(start.AddDate(0, 3, 0)) && (start.Month()-1)%3 == 0:
		names, most, part = quarterWords, 4, int(start.Month()-1)/3+1 // "Q3 2022" over yr and qtr
	default:
		return nil
	}
	var mc *Column
	for ci := range p.t.Columns {
		if c := &p.t.Columns[ci]; partColumn(c, names, 1, most) {
			if mc != nil {
				return nil // two month columns: which is not said
			}
			mc = c
		}
	}
	if mc == nil {
		return nil
	}
	p.dropNoDateNote()
	label := p.in.Time.Label
	y, m := strconv.Itoa(start.Year()), strconv.Itoa(part)
	p.in.Filters = append(p.in.Filters, Filter{Column: yc.Name, Op: "=", Values: []string{y}}, Filter{Column: mc.Name, Op: "=", Values: []string{m}})
	p.understood(0, fmt.Sprintf("%s -> %s = %s and %s = %s", label, yc.Name, y, mc.Name, m), label+" ("+yc.Name+", "+mc.Name+")")
	p.in.Time = nil
	return nil
}

// averagePerPeriod finds "average qty per day" over rows finer than a day
// where qty adds up: the average of the rows and the average of each day's
// total are different numbers, and which is meant is not said. It returns
// the words and the grain.
func (p *parser) averagePerPeriod() (string, string, bool) {
	if p.t == nil || len(p.in.GroupBy) != 1 || p.in.GroupBy[0].Grain == "" || len(p.in.Measures) != 1 || p.in.Measures[0].Agg != "avg" {
		return "", "", false
	}
	g := p.in.GroupBy[0].Grain
	c := p.columnByName(p.in.Measures[0].Column)
	if c == nil || defaultAgg(c) != "sum" || p.onePerPeriod(g) {
		return "", "", false
	}
	for i, t := range p.toks {
		if t.low == "per" && units[p.next(i)] == g {
			return p.src(i, i+2), g, true
		}
	}
	return "", "", false
}

// periodTotals reads "average daily revenue" over rows finer than a day
// as each day's total, averaged over the days that have rows.
func (p *parser) periodTotals() error {
	pa := p.perPeriod
	if pa == nil || p.onePerPeriod(pa.grain) {
		return nil
	}
	m := p.periodTotal(pa)
	if m == nil {
		return nil
	}
	m.Agg, m.PerPeriod = "avg", pa.grain
	what := "rows"
	if m.Column != "" {
		what = m.Column
	}
	p.notes = slices.DeleteFunc(p.notes, func(n note) bool {
		return strings.Contains(n.text, " -> sum of "+m.Column) || strings.Contains(n.text, " -> average of "+m.Column) || m.Column == "" && strings.HasSuffix(n.text, " -> count of rows")
	})
	if k := pa.pos - 1; k >= 0 && averageWords[p.toks[k].low] {
		p.use(k, k+1)
	}
	p.understood(pa.pos, fmt.Sprintf("%s -> the average of each %s's total %s, over the %ss that have rows", pa.src, pa.grain, what, pa.grain), pa.src)
	return nil
}

// periodTotal returns the one measure an "average daily" asks each
// period's total of: a count of rows or a column that adds up, over a
// date column; nil when there is none (a median of daily totals, an
// average daily temperature).
func (p *parser) periodTotal(pa *periodAverage) *Measure {
	if p.date == nil || len(p.in.Measures) != 1 || !averageWords[strings.ToLower(strings.Fields(pa.src)[0])] || p.t.Rows <= p.periods(pa.grain) {
		return nil // rows coarser than the period: no period's total to take
	}
	m := &p.in.Measures[0]
	if m.Per != "" || m.PerEach != "" || m.Since != "" || m.Times != "" || m.Scale != 0 || p.entityPeriods(pa.grain) {
		return nil
	}
	if m.Column == "" {
		if m.Agg != "count" {
			return nil
		}
		return m
	}
	if c := p.columnByName(m.Column); c == nil || defaultAgg(c) != "sum" || m.Agg != "avg" && m.Agg != "sum" {
		return nil
	}
	return m
}

// entityPeriods reports whether the rows may each be one thing's period
// (a truck's day, a store's month): a text column has as many values as
// there are rows a period, or too many to list, or a column numbers
// things, and the request neither picks one of them nor groups by it.
// "Average daily revenue" is then each truck's day or each day's total
// of all trucks, which the words do not say.
func (p *parser) entityPeriods(grain string) bool {
	n := p.periods(grain)
	if n <= 0 {
		return true
	}
	perPeriod := float64(p.t.Rows) / float64(n)
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		switch {
		case isText(c) && c.Values == nil: // too many values to list: customers, say
		case isText(c) && len(c.Values) >= 2 && float64(len(c.Values)) >= 0.9*perPeriod:
		case isNumeric(c) && isIDLike(c): // store_no, customer_id
		default:
			continue
		}
		one := slices.ContainsFunc(p.in.Filters, func(f Filter) bool { return f.Column == c.Name && f.Op == "=" })
		if !one && !slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return g.Column == c.Name }) {
			return true
		}
	}
	return false
}

// dropNoDateNote drops the period's note that it had no date column, once
// a year column applies it.
func (p *parser) dropNoDateNote() {
	p.notes = slices.DeleteFunc(p.notes, func(n note) bool { return strings.Contains(n.text, "(no date column)") })
}

// openYears reads a period open at one end on whole years: "since 1990"
// and "after 1990" (which run to today, as the table has no date column)
// give lo, the first year in it, and hi 0; "before 1950" and "until 1950"
// (which start at openStart) give hi, the last year in it, and lo 0.
func (p *parser) openYears(tr *TimeRange) (lo, hi int, ok bool) {
	s, err1 := time.Parse("2006-01-02", tr.Start)
	e, err2 := time.Parse("2006-01-02", tr.End)
	if err1 != nil || err2 != nil || p.in.Compare != nil {
		return 0, 0, false
	}
	switch {
	case s.Equal(openStart) && e.YearDay() == 1:
		return 0, e.Year() - 1, true
	case s.YearDay() == 1 && e.Equal(p.anchor.AddDate(0, 0, 1)) && !p.fromData &&
		(strings.HasPrefix(tr.Label, "since ") || strings.HasPrefix(tr.Label, "after ")):
		return s.Year(), 0, true
	}
	return 0, 0, false
}

// wholeYears returns the years a period spans, end exclusive, when it is
// whole years.
func wholeYears(tr *TimeRange) (int, int, bool) {
	s, err1 := time.Parse("2006-01-02", tr.Start)
	e, err2 := time.Parse("2006-01-02", tr.End)
	if err1 != nil || err2 != nil || s.YearDay() != 1 || e.YearDay() != 1 {
		return 0, 0, false
	}
	return s.Year(), e.Year(), true
}

// numericColumns are the chosen table's measures: numeric columns that are
// not ids.
func (p *parser) numericColumns() []string {
	if p.t == nil {
		return nil
	}
	var out []string
	for ci := range p.t.Columns {
		if c := &p.t.Columns[ci]; isNumeric(c) && !isIDLike(c) && len(out) < 5 {
			out = append(out, c.Name)
		}
	}
	return out
}
