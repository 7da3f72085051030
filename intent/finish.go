package intent

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry"
)

func (p *parser) exactValues() error { p.values(false); return nil }
func (p *parser) typoValues() error  { p.values(true); return nil }

// bareColumns reads the columns named outside any other phrase: a text
// column becomes a grouping ("sales of products" -> by product); an
// entity with an id column is counted when nothing else is measured
// ("customers by state"); a date column or an id is noted.
func (p *parser) bareColumns() error {
	for i := 0; i < len(p.toks); i++ {
		c, n, st := p.colAt(i, prefDim)
		if c == nil || st < mEntity {
			continue
		}
		src := p.src(i, i+n)
		switch {
		case n == 1 && roles[synonymOf(p.low(i))] && p.low(i) != strings.ToLower(c.Name):
			// "departing flights": a role the rows have, not a grouping.
			p.understood(i, fmt.Sprintf("%s -> the rows' %s", src, c.Name), src)
		case isText(c) && yesNo(c) != nil && !p.namedGroup(i) && p.low(i-1) != "by" && p.low(i-1) != "per":
			// "female smokers": the rows where Smoker is yes; "non-smokers":
			// where it is no
			start, v := i, yesNo(c)[0]
			if k := p.skipBack(i, "-"); k > 0 && p.free(k-1) && (p.low(k-1) == "not" || p.low(k-1) == "non") {
				start, v = k-1, yesNo(c)[1]
			}
			p.addFilter(start, i+n, c, []string{v}, false, "")
			continue
		case isText(c) && p.valueEnd[i] ||
			st == mEntity && (p.valueEnd[i] || p.free(i-1) && p.toks[i-1].kind == kWord && !stopwords[p.low(i-1)] && !isNumber(p.low(i-1))):
			// "Canadian customers": the rows the word before describes,
			// not a grouping.
			p.understood(i, fmt.Sprintf("%s -> the rows of %s the word before describes", src, c.Name), src)
		case (c.Type == "boolean" || c.Type == "integer" && isFlag(c)) && !p.namedGroup(i) && p.low(i-1) != "by" && p.low(i-1) != "per":
			// "remote employees": the rows where remote is true; "not
			// remote", "non-remote": false
			start, v := i, "true"
			if c.Type == "integer" {
				v = "1"
			}
			if k := p.skipBack(i, "-"); k > 0 && p.free(k-1) && (p.low(k-1) == "not" || p.low(k-1) == "non") {
				start, v = k-1, "false"
				if c.Type == "integer" {
					v = "0"
				}
			}
			p.addFilter(start, i+n, c, []string{v}, false, "")
			continue
		case isDate(c):
			p.understood(i, fmt.Sprintf("%s -> date column %s", src, c.Name), src)
		case isText(c) && len(p.in.GroupBy) > 0 && plural(p.toks[i+n-1]) && i > 0 &&
			(p.toks[i-1].low == "the" || p.toks[i-1].low == "all" || p.toks[i-1].low == "for" || p.toks[i-1].low == "among"):
			// "total population of the countries, by year": every
			// country, summed; the grouping is the one asked for.
			p.understood(i, fmt.Sprintf("%s -> all the rows' %s", src, c.Name), src)
		case isText(c) && !isIDLike(c) && c.Values == nil && p.modifiesMeasure(i+n):
			// "average customer age": the customers' age, one number, not
			// an age per customer
			p.understood(i, fmt.Sprintf("%s -> the rows' %s, whose %s is measured", src, c.Name, p.toks[i+n].raw), src)
		case isText(c) && !isIDLike(c) && len(p.in.Measures) == 0 && p.shareOf(i) && p.toks[i+n-1].low != singular(p.toks[i+n-1].low):
			// "what fraction of states are in region 5": of the distinct
			// states, not of each state's rows
			p.addMeasure(i, src, Measure{Column: c.Name, Agg: "count_distinct"}, "")
			p.named = true
		case isText(c) && !isIDLike(c) && len(p.in.Measures) == 0 && n == 1 && p.toks[i].low != singular(p.toks[i].low) &&
			(singular(p.toks[i].low) == strings.ToLower(c.Name) || st == mEntity) && i+1 < len(p.toks) &&
			(p.toks[i+1].low == "per" || p.toks[i+1].low == "by"):
			// "customers per segment" over rows of invoices: how many
			// distinct customers each segment has
			p.addMeasure(i, src, Measure{Column: c.Name, Agg: "count_distinct"}, "")
			p.named = true
		case isText(c) && len(p.in.Measures) == 0 && p.in.Top != nil && countRank[p.rankBy] && p.in.Top.Column != c.Name &&
			p.toks[i+n-1].low != singular(p.toks[i+n-1].low):
			// "which basin has the most lakes": how many distinct lakes
			// each basin has, not a grouping by lake
			p.addMeasure(i, src, Measure{Column: c.Name, Agg: "count_distinct"}, "")
			p.named = true
		case isText(c) && len(p.in.Measures) > 0 && p.keyOfRows(c) && p.toks[i+n-1].low != singular(p.toks[i+n-1].low) &&
			rowsOf[p.toks[max(p.skipBackToks(i, "the", "all")-1, 0)].low] && i > 0:
			// "avg density for countries with pop > 100" over a table of one
			// row a country: the countries are the rows averaged over, not
			// a grouping of one row each
			p.understood(i, fmt.Sprintf("%s -> the rows of %s (each row is one %s)", src, p.t.Name, c.Name), src)
		case isText(c) && p.toks[i+n-1].low != singular(p.toks[i+n-1].low) && i+n < len(p.toks) && p.toks[i+n].cond == 2 &&
			strings.HasSuffix(p.toks[i+n].low, "ed"):
			// "batches brewed in tanks installed before 2016": the tanks
			// the condition after them picks, not a grouping by tank
			p.understood(i, fmt.Sprintf("%s -> the rows' %s, which the condition after it picks", src, c.Name), src)
		case i > 0 && (p.toks[i-1].low == "its" || p.toks[i-1].low == "their") && p.in.Top != nil && p.in.Top.Column == "" && len(p.in.GroupBy) == 0:
			// "the cheapest car and its make": a column of the row ranked,
			// shown with it, not a grouping by make
			p.understood(i-1, fmt.Sprintf("%s -> shown with the rows ranked", p.src(i-1, i+n)), p.src(i-1, i+n))
			p.toks[i-1].used = true
		case isText(c) && !isIDLike(c):
			p.addGroup(i, src, c.Name, "")
		case isText(c) && len(p.in.Measures) == 0 && st == mEntity:
			// "customers by state": how many of them
			p.addMeasure(i, src, Measure{Column: c.Name, Agg: "count_distinct"}, "")
			p.named = true
		default:
			p.named = true
			p.understood(i, fmt.Sprintf("%s -> column %s", src, c.Name), src)
		}
		p.use(i, i+n)
		i += n - 1
	}
	return nil
}

// keyOfRows reports whether the text column c holds a different value on
// every row of the chosen table, all of them known.
func (p *parser) keyOfRows(c *Column) bool {
	return len(c.Values) > 0 && int64(len(c.Values)) == p.t.Rows
}

// plural reports whether a word is written in the plural, whatever it
// was read as ("stations" read as stn).
func plural(t token) bool {
	r := strings.ToLower(t.raw)
	return r != singular(r)
}

// rowsOf go before the rows a measure is over: "for countries", "of all
// the countries".
var rowsOf = setOf("for", "of", "among", "across")

// skipBackToks is skipBack over the words as written, read or not.
func (p *parser) skipBackToks(i int, filler ...string) int {
	for i > 0 && slices.Contains(filler, p.toks[i-1].low) {
		i--
	}
	return i
}

// skipBack returns the index of the first token before i, going back over
// the filler tokens: i itself when the one before is not one.
func (p *parser) skipBack(i int, filler ...string) int {
	for i > 0 && slices.Contains(filler, p.low(i-1)) {
		i--
	}
	return i
}

// verbStops are the verbs the parser passes over as saying nothing, with
// their other forms: a table may hold one as a value (a shot 'made', a
// house 'sold').
var verbStops = map[string][]string{
	"make": {"made"}, "makes": {"made"}, "made": {"made", "make"}, "sell": {"sold"}, "sells": {"sold"},
	"selling": {"sold"}, "sold": {"sold"}, "placed": {"placed"}, "happened": {"happened"}, "performed": {"performed"},
	"done": {"done"}, "came": {"came"}, "went": {"went"}, "bought": {"bought", "buy"}, "purchased": {"purchased", "purchase"},
	"ordered": {"ordered"},
}

// verbValue returns the column of the chosen table that has a form of the
// verb w as a value, "" if none.
func (p *parser) verbValue(w string) string {
	for _, form := range verbStops[w] {
		if refs, ok := p.vals[form]; ok && len(refs) > 0 {
			return refs[0].col.Name
		}
	}
	return ""
}

// leftovers notes table names and collects the words nothing understood.
// A word right after an aggregation that is a small typo away from a
// column ("average quantiy") is an error naming the column.
func (p *parser) leftovers() error {
	seen := map[string]bool{}
	for i := range p.toks {
		t := p.toks[i]
		if t.used || t.kind == kPunct {
			continue
		}
		if ti := p.tableNamed(t.raw); ti >= 0 && (t.kind == kQuoted || !stopwords[t.low]) {
			p.understood(i, fmt.Sprintf("%s -> table %s", t.raw, p.s.Tables[ti].Name), "table "+p.s.Tables[ti].Name)
			p.toks[i].used = true
			continue
		}
		if col := p.verbValue(t.low); col != "" && t.kind == kWord {
			// "how many shots did he make" over a result of 'made' and
			// 'missed': the verb may pick the rows, and that is not said
			p.in.Unknown = append(p.in.Unknown, Unknown{Word: t.raw,
				Reason: "a value of " + col + " is a form of this word; I could not tell whether it picks the rows", Nearest: []string{col}})
			continue
		}
		if t.kind == kWord && (stopwords[t.low] || isCountNoun(t.low)) {
			continue // a noun of the rows that named nothing else ("shipments cost")
		}
		if i > 0 && aggWord(p.toks[i-1].low) || i > 1 && p.toks[i-1].low == "of" && aggWord(p.toks[i-2].low) {
			if err := p.misspelt(i); err != nil {
				return err
			}
		}
		if !seen[t.raw] {
			seen[t.raw] = true
			p.in.Unparsed = append(p.in.Unparsed, t.raw)
		}
	}
	return nil
}

// rankedMeasureFirst puts first, for a ranking, the measure said right
// after its superlative: "which service line generated the most net
// revenue" ranks by net revenue, not by the count of rows its "line" read.
func (p *parser) rankedMeasureFirst() {
	if p.in.Top == nil || len(p.in.Measures) < 2 || p.rankBy == "" {
		return
	}
	sup := -1
	for k := p.topPos; k < len(p.toks); k++ {
		if p.toks[k].low == p.rankBy {
			sup = k
			break
		}
	}
	if sup < 0 {
		return
	}
	best, at := -1, len(p.toks)
	for mi, m := range p.in.Measures {
		if mi == 0 || m.Column == "" {
			continue
		}
		for _, n := range p.notes {
			if n.pos > sup && n.pos <= sup+5 && n.pos < at && strings.HasSuffix(n.text, " of "+m.Column) {
				best, at = mi, n.pos
			}
		}
	}
	if best <= 0 || p.in.Measures[0].Column != "" {
		return // only a count of rows read from a noun gives way
	}
	m := p.in.Measures[best]
	if (p.singleSaid() || p.toks[min(sup+1, len(p.toks)-1)].low == "single") && m.Agg == "sum" {
		// "the largest single invoice (net)": each group's extreme row
		m.Agg = "min"
		if p.in.Top.Desc {
			m.Agg = "max"
		}
		p.dropNotes(" -> sum of " + m.Column)
		p.understood(sup, fmt.Sprintf("single %s -> the %s of %s, row by row", p.rankBy, aggWords[m.Agg], m.Column), "single "+p.rankBy)
	}
	p.in.Measures = slices.Delete(p.in.Measures, best, best+1)
	p.in.Measures = slices.Insert(p.in.Measures, 0, m)
}

// defaults fills in what the request implies: the dimension of a bare
// "top 5" (what it groups by), and the grain of a trend without one
// (month when the period spans more than 62 days, day otherwise).
func (p *parser) defaults() error {
	if t := p.in.Top; t != nil && t.Column == "" && p.topSrc != "" {
		for _, g := range p.in.GroupBy {
			if g.Grain == "" {
				t.Column = g.Column
				break
			}
		}
		p.noteTop()
	}
	p.rankedFall()
	p.rankedMeasureFirst()
	p.byANumber()
	if !slices.Contains(p.in.Analyses, AnalysisTrend) || p.date == nil {
		return nil
	}
	for _, g := range p.in.GroupBy {
		if g.Grain != "" {
			return nil
		}
	}
	start, end := p.dateMin, p.anchor.AddDate(0, 0, 1)
	why := "the data spans"
	if p.in.Time != nil {
		start, _ = day(p.in.Time.Start)
		end, _ = day(p.in.Time.End)
		why = "the period spans"
	}
	grain := "month"
	days := 0
	if !start.IsZero() {
		days = int(end.Sub(start).Hours()/24 + 0.5)
		if days <= 62 {
			grain = "day"
		}
		why = fmt.Sprintf("%s %d days", why, days)
	} else {
		why = "the data's first date is unknown"
	}
	p.in.GroupBy = append(p.in.GroupBy, Group{Column: p.date.Name, Grain: grain})
	pos := 0
	src := "trend"
	for _, n := range p.notes {
		if strings.HasSuffix(n.text, " -> "+AnalysisTrend) {
			pos, src = n.pos, strings.TrimSuffix(n.text, " -> "+AnalysisTrend)
		}
	}
	p.understood(pos, fmt.Sprintf("%s -> by %s of %s (%s)", src, grain, p.date.Name, why), src)
	return nil
}

// computable returns the error for a request that names nothing to
// compute: no measure, no analysis, no column.
func (p *parser) computable() error {
	if len(p.in.Measures) > 0 || len(p.in.Analyses) > 0 || p.named {
		return nil
	}
	var got []string
	for _, n := range p.notes {
		if n.pos >= 0 && n.short != "" {
			got = append(got, n.short) // a greeting has no short form
		}
	}
	msg := "I understood nothing I can compute"
	if len(got) > 0 {
		msg = "I understood: " + strings.Join(got, ", ")
	}
	var nums []string
	if p.t != nil {
		for _, c := range p.t.Columns {
			if isNumeric(&c) && !isIDLike(&c) {
				nums = append(nums, c.Name)
			}
		}
	}
	switch len(nums) {
	case 0:
		msg += ". I need a measure: a word such as count"
	default:
		msg += ". I need a measure: one of the numeric columns " + strings.Join(nums, ", ") + ", or a word such as count"
	}
	if len(p.in.Unparsed) > 0 {
		msg += fmt.Sprintf(" (I did not understand: %s)", strings.Join(p.in.Unparsed, ", "))
	}
	if p.t == nil {
		return quarry.Errorf(quarry.ECodeInvalid, "%s", msg).WithHint("load a table first")
	}
	p.in.Unknown = append(p.in.Unknown, Unknown{Word: "what to compute", Reason: "the request names no measure, count or kind of analysis", Nearest: nums})
	return quarry.Errorf(quarry.ECodeNeedsClarification, "%s", msg).
		WithHint(`say what to compute ("total amount", "number of orders") or what to look at ("trend", "summary", "distribution of amount")`)
}

// howMuchOfTheOnlyMeasure reads "how much" that names no column, over a
// table with one measure ("how much electricity did Iowa generate" over
// (year, source, net_generation)), as that measure: the only amount the
// table has; so does a share of the table's subject said as a mass noun
// ("what share of the electricity"). Not with two measures or none, not
// over a measure that does not add up (an age, a rate), and not "how many".
func (p *parser) howMuchOfTheOnlyMeasure() error {
	share := slices.Contains(p.in.Analyses, AnalysisShare)
	if p.t == nil || len(p.in.Measures) > 0 || len(p.in.Analyses) > 0 && !share || p.named {
		return nil
	}
	at, n := -1, 0
	for i := 0; i+1 < len(p.toks); i++ {
		if p.toks[i].low == "how" && p.toks[i+1].low == "much" {
			at, n = i, 2
			break
		}
	}
	if share && at < 0 {
		// "what share of Iowa's electricity came from renewables": a
		// share of the subject said as a mass noun is a share of the
		// table's amount; "what share of strikes" counts rows.
		for _, i := range p.subjectAt {
			if w := p.toks[i].low; singular(w) == w && !strings.HasSuffix(w, "s") && !isCountNoun(w) {
				at, n = i, 1
				break
			}
		}
	}
	if cc := p.countColumn(); share && at < 0 && cc != nil {
		// "share of Fraud in 2022" over (year, type, count): the share of
		// the things counted, not of the rows that count them
		p.addMeasure(p.shareAt(), "share", Measure{Column: cc.Name, Agg: "sum"}, " (each row of "+p.t.Name+" counts "+cc.Name+")")
		return nil
	}
	if at < 0 {
		return nil
	}
	var only *Column
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if !isNumeric(c) || isIDLike(c) || p.isYearColumn(c) {
			continue
		}
		if only != nil {
			return nil
		}
		only = c
	}
	if only == nil || defaultAgg(only) != "sum" {
		return nil // "how much do employees make" over (name, age): an age is no amount
	}
	p.addMeasure(at, p.src(at, at+n), Measure{Column: only.Name, Agg: defaultAgg(only)}, " (the table's only measure)")
	p.use(at, at+n)
	return nil
}

// yesNo returns the values of a text column of yes and no ("yes"/"no",
// "Y"/"N", "true"/"false"), the yes first; nil for any other column.
func yesNo(c *Column) []string {
	if len(c.Values) != 2 {
		return nil
	}
	pairs := [][2]string{{"yes", "no"}, {"y", "n"}, {"true", "false"}, {"t", "f"}}
	a, b := strings.ToLower(c.Values[0]), strings.ToLower(c.Values[1])
	for _, pr := range pairs {
		switch {
		case a == pr[0] && b == pr[1]:
			return []string{c.Values[0], c.Values[1]}
		case b == pr[0] && a == pr[1]:
			return []string{c.Values[1], c.Values[0]}
		}
	}
	return nil
}

// modifiesMeasure reports whether the token at k is a word of a measure's
// column read already: the text column named right before it describes
// the measure ("customer age").
func (p *parser) modifiesMeasure(k int) bool {
	if k >= len(p.toks) || !p.toks[k].used || p.toks[k].kind != kWord {
		return false
	}
	w := p.toks[k].low
	return slices.ContainsFunc(p.in.Measures, func(m Measure) bool {
		return m.Column != "" && slices.ContainsFunc(nameWords(m.Column), func(cw string) bool { return sameWord(w, cw) })
	})
}

// fallWords and riseWords say which way a change goes.
var (
	fallWords = setOf("decline", "declines", "declined", "declining", "decrease", "decreases", "decreased", "decreasing",
		"drop", "drops", "dropped", "fell", "fall", "falls")
	riseWords = setOf("increase", "increases", "increased", "increasing", "rise", "rises", "rose", "rising", "gain",
		"gains", "gained", "improvement", "improved", "grew", "grow", "growing")
)

// rankedFall turns a ranking by a change asked as a fall ("the biggest
// decline", "fell the most") the other way: the largest fall is the
// lowest change. A ranking of periods is not a ranking by a change.
func (p *parser) rankedFall() {
	t := p.in.Top
	if t == nil || t.Column == "" || !slices.Contains(p.in.Analyses, AnalysisGrowth) {
		return
	}
	if p.t == nil || slices.ContainsFunc(p.t.Columns, func(c Column) bool { return c.Name == t.Column && (isDate(&c) || p.isYearColumn(&c)) }) {
		return
	}
	fall, rise := -1, false
	for i, k := range p.akind {
		switch w := p.toks[i].low; {
		case k != AnalysisGrowth:
		case fallWords[w]:
			fall = i
		case riseWords[w]:
			rise = true
		}
	}
	switch {
	case fall < 0:
		return
	case rise:
		// "rose or fell the most": the size of the change either way
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: p.toks[fall].raw,
			Reason: "a ranking by the size of a rise or a fall (the change either way) is not computed; ask for the biggest rise or the biggest fall"})
		return
	}
	t.Desc = !t.Desc
	p.understood(fall, fmt.Sprintf("%s -> the change ranked from its lowest (a fall is a negative change)", p.toks[fall].raw), p.toks[fall].raw)
}

// orderVerbs say that what follows "by" is an order ("sorted by sales").
var orderVerbs = setOf("sort", "sorted", "sorting", "order", "ordered", "ordering", "rank", "ranked", "ranking", "list", "listed")

// byANumber reports a number after "by" read as what to rank by when
// nothing is ranked by it: "number of cities by population" asks for the
// cities per size, not the count and the population side by side.
func (p *parser) byANumber() {
	if p.in.Top != nil {
		return
	}
	for _, j := range p.byNumber {
		c, _, _ := p.colAtAny(j)
		k := j - 1
		for k > 0 && (p.toks[k].low == "the" || p.toks[k].low == "a" || p.toks[k].low == "an") {
			k--
		}
		if c != nil && k > 0 && orderVerbs[p.toks[k-1].low] {
			p.sortedBy(k-1, j, c)
			continue
		}
		if c == nil || !slices.ContainsFunc(p.in.Measures, func(m Measure) bool { return m.Column != c.Name }) {
			continue
		}
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: p.toks[k].raw + " " + p.toks[j].raw,
			Reason:  fmt.Sprintf("%s is a number: a breakdown by it needs ranges of it, and a ranking by it a thing to rank (top 10 products by %s)", c.Name, c.Name),
			Nearest: []string{c.Name}})
	}
}

// sortedBy reads "sorted by sales" (the order verb at v, the measure's
// column c named at j) beside other measures: the groups, all of them,
// ranked by that measure, which comes first. With no one grouping to put
// in that order, or a ranking already asked for, it is reported.
func (p *parser) sortedBy(v, j int, c *Column) {
	src := p.src(v, j+1)
	mi := slices.IndexFunc(p.in.Measures, func(m Measure) bool { return m.Column == c.Name })
	var dims []Group
	for _, g := range p.in.GroupBy {
		if g.Grain == "" {
			dims = append(dims, g)
		}
	}
	switch {
	case mi < 0:
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: src, Reason: c.Name + " is not among the measures computed", Nearest: []string{c.Name}})
		return
	case p.in.Top != nil || len(dims) != 1 || len(p.in.GroupBy) != 1:
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: src, Reason: "there is no one grouping to put in this order"})
		return
	}
	m := p.in.Measures[mi]
	p.in.Measures = append([]Measure{m}, slices.Delete(slices.Clone(p.in.Measures), mi, mi+1)...)
	p.in.Top = &TopN{N: 0, Column: dims[0].Column, Desc: true}
	p.sortTop = true // "sorted by sales, lowest first" sets the direction
	p.toks[v].used = true
	p.understood(v, fmt.Sprintf("%s -> every %s, ranked by %s of %s, highest first unless an order is said", src, dims[0].Column, aggWords[m.Agg], m.Column), src)
}

// shareWords ask what part of a whole something is.
var shareWords = setOf("share", "fraction", "percentage", "percent", "proportion", "%", "portion", "pct")

// shareOf reports whether the word at i follows a share word and "of":
// "the share of states", "what fraction of the countries".
func (p *parser) shareOf(i int) bool {
	w := func(k int) string { return p.toks[k].low } // read already or not
	k := i - 1
	for k >= 0 && (w(k) == "the" || w(k) == "all" || w(k) == "our") {
		k--
	}
	return k >= 1 && w(k) == "of" && shareWords[w(k-1)]
}

// shareAt returns the position of the request's share words, 0 if none.
func (p *parser) shareAt() int {
	for pos, kind := range p.akind {
		if kind == AnalysisShare {
			return pos
		}
	}
	return 0
}
