package intent

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// How a request says the order of its rows: "longest first", "in
// descending order", "from highest to lowest", "rank the islands by beak
// length". An order applies to a ranking (a top N) or, with none, ranks
// every group of the request's one grouping.

// sortVerbs, first in a request, ask for its groups in order.
var sortVerbs = setOf("rank", "sort", "order")

// orderWord says, for a word that ends a "... first" or starts a "from
// ... to ...", whether it puts the largest first.
func orderWord(w string) (desc, ok bool) {
	switch w {
	case "high", "large", "big", "many", "more", "newest", "latest", "recent", "most recent":
		return true, true
	case "low", "small", "few", "less", "fewer", "earliest":
		return false, true
	}
	if d, ok := superlatives[w]; ok {
		return d, true
	}
	if d, ok := topWords[w]; ok {
		return d, true
	}
	return false, false
}

// orderAt reads an order phrase at i: how it sorts and how many tokens
// it takes.
func (p *parser) orderAt(i int) (desc bool, n int, ok bool) {
	w := p.low(i)
	switch w {
	case "descending", "desc", "decreasing":
		return true, 1, true
	case "ascending", "asc", "increasing":
		return false, 1, true
	case "in":
		if d, m, ok := p.orderAt(i + 1); ok && m == 1 && p.low(i+2) == "order" && !isSuperlative(p.low(i+1)) {
			return d, 3, true // "in descending order"
		}
		return false, 0, false
	case "from":
		if d, m, ok := p.orderAt(i + 1); ok && m == 3 {
			return d, 4, true // "from highest to lowest"
		}
		return false, 0, false
	}
	d, ok := orderWord(w)
	if !ok {
		return false, 0, false
	}
	if p.low(i+1) == "first" {
		return d, 2, true // "longest first"
	}
	if p.low(i+1) == "to" {
		if d2, ok := orderWord(p.low(i + 2)); ok && d2 != d {
			return d, 3, true // "highest to lowest"
		}
	}
	return false, 0, false
}

// orderWords reads the order phrases of the request and the verb that
// asks for an order ("rank the years by rainfall"). A period unit after
// the verb ("rank the years") groups by that period of the date.
func (p *parser) orderWords() error {
	for i := 0; i < len(p.toks); i++ {
		if !p.free(i) {
			continue
		}
		if sortVerbs[p.low(i)] && p.skip(0, "please", "can", "could", "you", "now") == i {
			p.sortVerb = i
			if p.low(i+1) == "by" && !p.measureNamedAt(i+2) {
				// "order by month ...", "sort by country": the order of
				// the grouping itself, not a ranking by the measure
				p.sortByGroup = true
				p.use(i, i+1)
				continue
			}
			if p.in.Top == nil {
				// "rank the countries by population": every country,
				// ranked, as "top N" reads it
				if err := p.ranked(i, i+1, 0, true, true, false); err != nil {
					return err
				}
				p.sortTop = p.in.Top != nil
			}
			continue
		}
		desc, n, ok := p.orderAt(i)
		if !ok {
			continue
		}
		for k := i; k < i+n; k++ {
			if !p.free(k) {
				ok = false
			}
		}
		if !ok {
			continue
		}
		if _, isAdj := rankAdjectives[p.low(i)]; isAdj && p.rankBy == "" {
			p.rankBy = p.low(i) // "wettest first" also says by what
			p.topPos = i
		}
		p.order = &orderNote{pos: i, src: p.src(i, i+n), desc: desc, time: slices.ContainsFunc(p.toks[i:i+n], func(t token) bool { return timeOrders[t.low] })}
		p.use(i, i+n)
	}
	return nil
}

// orderNote is an order phrase read: where, its words, and whether the
// largest comes first.
type orderNote struct {
	pos  int
	src  string
	desc bool
	time bool // "latest first": an order in time, not by a measure
}

// timeOrders are the order words that speak of time: "latest first" puts
// the latest period first, not the largest value.
var timeOrders = setOf("newest", "latest", "recent", "most recent", "earliest", "oldest")

// applyOrder gives the ranking the order asked for; with no ranking, it
// ranks the groups of the request's one grouping, all of them. An order
// that contradicts the ranking ("top 5 ..., lowest first") or has nothing
// to order is reported, not applied.
func (p *parser) applyOrder() error {
	o := p.order
	if o == nil && p.sortVerb < 0 {
		return nil
	}
	desc := true
	if o != nil {
		desc = o.desc
	}
	if p.sortByGroup {
		if slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return g.Grain != "" }) && (o == nil || !o.desc) && p.in.Top == nil {
			p.understood(p.sortVerb, p.low(p.sortVerb)+" by -> in time order", p.low(p.sortVerb))
			return nil // periods come in time order
		}
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: p.src(p.sortVerb, p.sortVerb+2), Reason: "an order by the grouping itself; groups are ranked only by a measure"})
		return nil
	}
	if o != nil && o.time && (p.low(o.pos) != "oldest" || p.periodGrouping()) {
		// "total rainfall by month, latest first": ranking by the
		// measure would put the wettest month first
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: o.src, Reason: "an order in time, not by the measure; rows are ranked only by a measure"})
		return nil
	}
	switch {
	case p.sortTop:
		p.in.Top.Desc = desc
	case p.in.Top != nil && (o == nil || p.in.Top.Desc == desc):
	case p.in.Top != nil:
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: o.src, Reason: "this order contradicts the ranking asked for"})
		return nil
	case len(p.in.GroupBy) == 1 && len(p.in.Measures) > 0:
		g := p.in.GroupBy[0]
		p.in.Top = &TopN{N: 0, Column: g.Column, Desc: desc}
		order := "highest first"
		if !desc {
			order = "lowest first"
		}
		pos, src := p.sortVerb, p.low(max(p.sortVerb, 0))
		if o != nil {
			pos, src = o.pos, o.src
		}
		p.understood(pos, fmt.Sprintf("%s -> every %s, ranked by the first measure, %s", src, g.Column, order), src)
		return nil
	case o != nil:
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: o.src, Reason: "there is no one grouping to put in this order"})
		return nil
	default:
		return nil
	}
	if o != nil {
		p.understood(o.pos, fmt.Sprintf("%s -> in that order", o.src), o.src)
	}
	return nil
}

// sideBySide reports whether the request already puts what it compares
// side by side: two periods, or values kept and grouped by their column.
func (p *parser) sideBySide() bool {
	if p.in.Compare != nil {
		return true
	}
	return slices.ContainsFunc(p.in.Filters, func(f Filter) bool {
		return f.Op == "in" && len(f.Values) >= 2 && slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return g.Column == f.Column })
	})
}

// listedApart keeps the values a request lists apart when it also asks
// for a breakdown: "life expectancy of China and India for each year" is
// each country's, year by year, not their average; only for measures that
// do not add up (an average of two countries' life expectancies is no
// one's), and not when the values are alternatives ("China or India").
// "Compare A and B" keeps them apart whatever the measure.
func (p *parser) listedApart() error {
	cmp := slices.IndexFunc(p.toks, func(t token) bool {
		return !t.used && (t.low == "compare" || t.low == "comparing" || t.low == "compared")
	})
	if cmp >= 0 && p.sideBySide() {
		p.toks[cmp].used = true // "compare ... married vs never married": the two are grouped already
		return nil
	}
	if p.in.Top != nil || len(p.in.Measures) == 0 || len(p.in.GroupBy) > 1 || cmp < 0 && len(p.in.GroupBy) == 0 {
		return nil
	}
	for _, m := range p.in.Measures {
		if cmp < 0 && (m.Agg == "sum" || m.Agg == "count" || m.Agg == "count_distinct") {
			return nil
		}
	}
	if slices.ContainsFunc(p.toks, func(t token) bool { return t.low == "or" || t.low == "combined" || t.low == "together" }) {
		return nil
	}
	for _, f := range p.in.Filters {
		if f.Op != "in" || len(f.Values) < 2 || slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return g.Column == f.Column }) {
			continue
		}
		p.in.GroupBy = append([]Group{{Column: f.Column}}, p.in.GroupBy...)
		p.understood(0, fmt.Sprintf("%s -> each of them apart, by %s", strings.Join(f.Values, " and "), f.Column), f.Column)
		if cmp >= 0 {
			p.toks[cmp].used = true // "compare A and B": side by side
		}
		return nil
	}
	return nil
}

// adjectiveOfRows reads a superlative that names its measure before the
// table's own noun, with no ranking: "the longest strike" is the longest
// duration, "the oldest patient" the highest age.
func (p *parser) adjectiveOfRows() error {
	if p.t == nil || p.in.Top != nil || len(p.in.Measures) > 1 {
		return nil
	}
	for i := 0; i+1 < len(p.toks); i++ {
		a, ok := rankAdjectives[p.low(i)]
		if !ok || a.words == nil || !p.free(i) {
			continue
		}
		k := i + 1
		if !(p.toks[k].kind == kWord && (tableWord(p.t, p.toks[k].low) || isCountNoun(p.toks[k].low) ||
			isEntityNoun(p.toks[k].low) && p.free(k) || p.isValue(k))) {
			continue // "the oldest patient", "the highest-paid manager" (a title): a row
		}
		c := p.adjectiveColumn(p.low(i))
		if len(p.in.Measures) == 1 {
			// "the southernmost airport (by latitude)": the measure named
			// is the one the superlative ranks by
			m := p.in.Measures[0]
			if m.Column == "" || m.Times != "" || m.Per != "" || !slices.ContainsFunc(a.words, func(w string) bool { return nameSays(m.Column, w) }) {
				continue
			}
			c = p.columnByName(m.Column)
		}
		if c == nil {
			continue
		}
		// the row that has it, shown with its name: "the cheapest car"
		// is a car and its price, not the price alone
		p.in.Top = &TopN{N: 1, Desc: a.desc}
		p.topPos, p.topSrc, p.rankBy = i, p.src(i, i+1), p.low(i)
		if len(p.in.Measures) == 1 {
			p.in.Measures[0].Agg = "avg" // of one row, its value
		}
		p.addMeasure(i, p.src(i, i+1), Measure{Column: c.Name, Agg: "avg"}, "")
		p.named = true
		if p.isValue(k) {
			p.use(i, k) // the value is read as the filter it is
		} else {
			p.understood(k, fmt.Sprintf("%s -> the rows of %s", p.toks[k].raw, p.t.Name), p.toks[k].raw)
			p.use(i, k+1)
		}
		p.howLong(c)
		return nil
	}
	return nil
}

// extremeRow reads a plain superlative of the one measure said of the
// table's rows ("the highest-elevation large airport", "the airport with
// the highest elevation") as the row ranked first by that measure, shown
// with its name: not the extreme value alone.
func (p *parser) extremeRow() error {
	if p.t == nil || p.in.Top != nil || len(p.in.Measures) != 1 || len(p.in.GroupBy) > 0 || len(p.in.Analyses) > 0 || !p.rowsAreEntities() {
		return nil
	}
	m := &p.in.Measures[0]
	if m.Column == "" || m.Times != "" || m.Per != "" || m.Since != "" || m.Agg != "max" && m.Agg != "min" {
		return nil
	}
	for i, t := range p.toks {
		desc, ok := superlatives[t.low] // read already, into the maximum
		if !ok || !plainSuperlatives[t.low] && t.low != "lowest" {
			continue
		}
		k := i + 1
		if p.hyphenAt(k) {
			k++
		}
		c, n, _ := p.colAtAny(k)
		if c == nil || c.Name != m.Column {
			continue
		}
		row := -1
		for e := k + n; e < len(p.toks) && e <= k+n+2 && row < 0 && !stopwords[p.toks[e].low]; e++ {
			if p.rowNounAt(e) {
				row = e // "the highest-elevation (large) airport", not "the highest elevation of airports"
			}
		}
		if b := p.skipBack(i, "the") - 1; row < 0 && b > 0 && (p.toks[b].low == "with" || p.toks[b].low == "having") && p.rowNounAt(b-1) {
			row = b - 1 // "the airport with the highest elevation"
		}
		if row < 0 || p.ranksBefore(min(row, i)) {
			continue // "which country has the airport with the highest elevation": the country's, by its highest
		}
		p.dropNotes(" -> " + aggWords[m.Agg] + " of " + m.Column)
		p.in.Top = &TopN{N: 1, Desc: desc}
		m.Agg = "avg"                                          // of one row, its value
		p.topPos, p.topSrc, p.rankBy = i, p.src(i, k+n), t.low // noted once the groupings are known
		p.use(i, k+n)
		return nil
	}
	return nil
}

// rowNounAt reports whether the word at i, read or not, names the
// table's rows.
func (p *parser) rowNounAt(i int) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == kWord && (tableWord(p.t, p.toks[i].low) || isEntityNoun(p.toks[i].low))
}

// howLong reads "how long did it last" over a measure of time as that
// measure asked for: "how long" and the verb "last" (not a period: no
// number or unit follows).
func (p *parser) howLong(c *Column) {
	if !slices.ContainsFunc(nameWords(c.Name), func(w string) bool {
		return w == "duration" || w == "length" || w == "days" || w == "time" || w == "hours" || w == "minutes"
	}) {
		return
	}
	for i := 0; i+1 < len(p.toks); i++ {
		if p.low(i) == "how" && p.low(i+1) == "long" {
			p.use(i, i+2)
		}
		if p.low(i) == "last" && p.low(i+1) != "" && p.toks[i+1].kind == kWord && (units[p.low(i+1)] != "" || isDigits(p.low(i+1))) {
			continue
		}
		if p.low(i) == "last" || p.low(i) == "lasted" {
			p.use(i, i+1)
		}
	}
}

// periodGrouping reports whether the request groups or ranks by a period
// of a date or by a year column.
func (p *parser) periodGrouping() bool {
	period := func(name, grain string) bool {
		for ci := range p.t.Columns {
			if c := &p.t.Columns[ci]; c.Name == name {
				return grain != "" || isDate(c) || p.isYearColumn(c)
			}
		}
		return false
	}
	if t := p.in.Top; t != nil && period(t.Column, "") {
		return true
	}
	return slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return period(g.Column, g.Grain) })
}

// measureNamedAt reports whether a numeric column that is no year is
// named at i, past an article: "sort by the total sales".
func (p *parser) measureNamedAt(i int) bool {
	i = p.skip(i, "the", "a", "their", "its", "total", "average", "mean")
	if c, _, _ := p.colAt(i, prefNum); c != nil && !isIDLike(c) && !p.isYearColumn(c) {
		return true
	}
	return moneyWords[p.low(i)] || quantityWords[p.low(i)] || isCountNoun(p.low(i))
}

// nonAdditive reports whether a column's name says it does not add up
// over rows: a price, a rate, a score, an age.
func nonAdditive(c *Column) bool {
	return slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return avgWords[w] || avgWords[norm(w)] })
}

// ratios reads a ratio of two columns said with a slash or as a ratio:
// "freight_usd / wt_kg", "ratio of freight to weight", "the freight to
// weight ratio". Like "per", it divides the total of the first by the
// total of the second, group by group. The second must add up.
func (p *parser) ratios() error {
	if p.t == nil || p.ratio != nil {
		return nil
	}
	num := func(i int) (*Column, int) {
		// "total weight", "the sum of weight": a total, as a ratio's
		// parts are
		k := p.skip(i, "the", "total", "sum", "overall", "of")
		c, n, st := p.colAt(k, prefNum)
		if c == nil || st < mPart || isIDLike(c) || p.isYearColumn(c) {
			return nil, 0
		}
		return c, k - i + n
	}
	// numBefore returns the column named right before i and where it
	// starts; nil after "by" or "per", where a slash parts groupings
	// ("avg price by cylinders/doors")
	numBefore := func(i int) (*Column, int) {
		for k := max(i-3, 0); k < i; k++ {
			if c, n := num(k); c != nil && k+n == i {
				if b := p.toks[max(k-1, 0)].low; k > 0 && (b == "by" || b == "per" || b == "each") {
					return nil, 0
				}
				return c, k
			}
		}
		return nil, 0
	}
	endsColumn := func(i int) bool {
		c, _ := numBefore(i)
		return c != nil
	}
	for i := 0; i < len(p.toks); i++ {
		if !p.free(i) {
			continue
		}
		switch w := p.low(i); {
		case w == "/" && endsColumn(i):
			// "freight_usd / wt_kg"
			x, _ := numBefore(i)
			if c, n := num(i + 1); c != nil && !nonAdditive(c) {
				p.ratio = &ratioReq{pos: i, src: p.src(i, i+1+n), col: c.Name, num: x.Name}
				p.use(i, i+1+n)
				return nil
			} else if c != nil && p.aggregateBefore(i) {
				// "avg shot put / discus": each row's ratio, averaged
				p.ratio = &ratioReq{pos: i, src: p.src(i, i+1+n), col: c.Name, row: true, num: x.Name}
				p.use(i, i+1+n)
				return nil
			} else if c != nil {
				p.in.Unknown = append(p.in.Unknown, Unknown{Word: p.src(i, i+1+n),
					Reason: c.Name + " does not add up: a ratio of each row, or of totals? Not said", Nearest: []string{c.Name}})
				p.use(i, i+1)
				return nil
			}
		case w == "ratio" && (p.low(i+1) == "of" || p.low(i+1) == "between"):
			// "ratio of freight to weight"
			if x, n := num(i + 2); x != nil {
				j := i + 2 + n
				if k := p.low(j); k == "to" || k == "and" || k == "over" || k == "vs" {
					if y, m := num(j + 1); y != nil && y != x && (!nonAdditive(y) || p.aggregateBefore(i)) {
						// "the average ratio of perimeter to radius": an
						// average of ratios is of each row's
						p.ratio = &ratioReq{pos: i, src: p.src(i, j+1+m), col: y.Name, row: p.aggregateBefore(i), num: x.Name}
						p.use(i, i+2)
						p.use(j, j+1+m)
						return nil
					}
				}
			}
		case w == "over" && endsColumn(i) && (p.low(p.skip(i+1, "the")) == "total" || p.low(p.skip(i+1, "the")) == "sum"):
			// "total cost over total weight": a ratio of totals, said as
			// one; "avg res_hrs over csat" is not
			if c, n := num(i + 1); c != nil && !nonAdditive(c) {
				p.ratio = &ratioReq{pos: i, src: p.src(i, i+1+n), col: c.Name}
				p.use(i, i+1+n)
				return nil
			}
		case w == "to" && endsColumn(i) && p.low(i+2) == "ratio":
			// "the freight to weight ratio"
			x, _ := numBefore(i)
			if y, m := num(i + 1); y != nil && m == 1 && (!nonAdditive(y) || p.aggregateBefore(i)) {
				p.ratio = &ratioReq{pos: i, src: p.src(i, i+3), col: y.Name, row: p.aggregateBefore(i), num: x.Name}
				p.use(i, i+3)
				return nil
			}
		case w == "-" && p.low(i+1) == "to" && p.low(i+2) == "-" && endsColumn(i):
			// "the price-to-hp ratio"
			x, _ := numBefore(i)
			if y, m := num(i + 3); y != nil && p.low(i+3+m) == "ratio" && (!nonAdditive(y) || p.aggregateBefore(i)) {
				p.ratio = &ratioReq{pos: i, src: p.src(i, i+4+m), col: y.Name, row: p.aggregateBefore(i), num: x.Name}
				p.use(i, i+4+m)
				return nil
			}
		}
	}
	for i := range p.toks {
		if p.low(i) == "/" && endsColumn(i) && p.toks[i].start > 0 {
			// a slash after a column that divides by nothing read: not
			// dropped as punctuation
			p.in.Unknown = append(p.in.Unknown, Unknown{Word: p.src(i, min(i+3, len(p.toks))), Reason: "a division I could not read"})
			p.use(i, i+1)
		}
	}
	return nil
}

// ratioReq is a "per <numeric column>" read: where, its words, and the
// column.
type ratioReq struct {
	pos      int
	src, col string
	// row marks a ratio said of each row ("the average of shot put /
	// discus"), whose divisor need not add up.
	row bool
	// many is how many of col the ratio is for ("per 1,000 people"), 0
	// for one.
	many float64
	// num is the column divided, when the ratio names it ("wins /
	// losses"); "" when the measure before "per" is.
	num string
}

// applyRatio divides the first measure by the total of the column after
// "per": "GDP per capita" over (gdp, pop) is sum(gdp) / sum(pop), a ratio
// of totals in each group. With no measure to divide, or one that is a
// count of distinct things, it is reported.
// oneRow reports whether the filters pick one row: an equality on a
// column with a value a row, and no grouping.
func (p *parser) oneRow() bool {
	if len(p.in.GroupBy) > 0 || p.in.Top != nil || p.t == nil || p.t.Rows <= 0 {
		return false
	}
	for _, f := range p.in.Filters {
		c := p.columnByName(f.Column)
		if f.Op == "=" && len(f.Values) == 1 && c != nil && isText(c) && int64(len(c.Values)) == p.t.Rows {
			return true
		}
	}
	return false
}

func (p *parser) applyRatio() error {
	if w := p.ratioOfWhich; w != nil {
		if p.oneRow() {
			p.ratio = w // "GDP per capita for Brazil": one row's ratio is the ratio of its totals
		} else if p.eachRowsRatio(w) {
			p.ratio = w // "the average price per square foot" of homes: each home's, averaged
		} else {
			p.in.Unknown = append(p.in.Unknown, Unknown{Word: w.src,
				Reason: "a measure per " + w.col + ": whether of each row's ratio or of the totals is not said", Nearest: []string{w.col}})
		}
	}
	r := p.ratio
	if r == nil {
		return nil
	}
	if len(p.in.Measures) == 0 || p.in.Measures[0].Agg == "count_distinct" || p.in.Measures[0].Column == r.col {
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: r.src, Reason: "there is no measure to divide by " + r.col})
		return nil
	}
	m := &p.in.Measures[0]
	if r.num != "" && m.Column != r.num || (r.row || p.eachRowsRatio(r)) && len(p.in.Measures) != 1 {
		// "average attendance and wins-to-losses ratio": the aggregate
		// is another measure's, or the measure divided is not the one
		// the ratio names
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: r.src, Reason: "a ratio of each row beside another measure, or of a column not the one measured, is not read"})
		return nil
	}
	if r.row || p.eachRowsRatio(r) {
		// "the median GDP per capita", "the average price per horsepower":
		// each row's ratio, then its aggregate
		p.dropNotes(" of " + m.Column)
		m.Over = r.col
		times := ""
		if r.many > 1 {
			m.PerHowMany = r.many
			times = ", times " + strconv.FormatFloat(r.many, 'f', -1, 64)
		}
		p.understood(r.pos, fmt.Sprintf("%s -> %s of each row's %s divided by its %s%s", r.src, aggWords[m.Agg], m.Column, r.col, times), r.src)
		return nil
	}
	if m.Agg != "sum" && m.Agg != "avg" && m.Agg != "count" {
		// "the median GDP per capita": of each row's ratio, not a ratio of totals
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: r.src, Reason: fmt.Sprintf("a %s of %s per %s is of each row's ratio, not a ratio of totals", aggWords[m.Agg], m.Column, r.col)})
		return nil
	}
	if i := slices.IndexFunc(p.t.Columns, func(c Column) bool { return c.Name == m.Column }); i >= 0 && m.Times == "" && nonAdditive(&p.t.Columns[i]) {
		// "price per unit": a price is already per unit; its total is no one's
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: r.src, Reason: m.Column + " does not add up: a ratio of its total to the total of " + r.col + " means nothing"})
		return nil
	}
	if m.Column != "" {
		p.dropNotes(" of " + m.Column) // read alone as an average or a total: it is the ratio's
		m.Agg = "sum"
	}
	m.Per = r.col
	if r.many > 1 {
		m.PerHowMany = r.many
	}
	if f := p.unitOf[m.Column]; f > 1 && m.Scale == 0 {
		// "GDP per capita (gdp is in $ millions)": dollars a person
		m.DataScale = f
		p.understood(r.pos, fmt.Sprintf("%s in ones: the ratio times %g", m.Column, f), "")
	}
	what := "the count of rows"
	if m.Column != "" {
		what = "the total of " + m.Column
		if m.Times != "" {
			what += " × " + m.Times
		}
	}
	if r.many > 1 {
		p.understood(r.pos, fmt.Sprintf("%s -> %s divided by the total of %s, times %s", r.src, what, r.col, strconv.FormatFloat(r.many, 'f', -1, 64)), r.src)
		return nil
	}
	p.understood(r.pos, fmt.Sprintf("%s -> %s divided by the total of %s", r.src, what, r.col), r.src)
	return nil
}

// averageBefore reports whether an average word comes before i.
func (p *parser) averageBefore(i int) bool {
	return slices.ContainsFunc(p.toks[:i], func(t token) bool { return averageWords[t.low] })
}

// applyPerEach divides the first measure's total among the distinct
// values of the column after "per": "average cost per patient" is the
// total cost over the number of patients, "average orders per customer"
// the rows over the customers. A measure that does not add up is
// reported: its total is no one's.
func (p *parser) applyPerEach() error {
	r := p.perEach
	if r == nil {
		return nil
	}
	if len(p.in.Measures) == 0 {
		p.in.Measures = append(p.in.Measures, Measure{Agg: "count"})
	}
	m := &p.in.Measures[0]
	if m.Agg != "sum" && m.Agg != "avg" && m.Agg != "count" || m.Per != "" || m.Column == r.col {
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: r.src, Reason: fmt.Sprintf("a %s shared among each %s is not computed", aggWords[m.Agg], r.col)})
		return nil
	}
	if i := slices.IndexFunc(p.t.Columns, func(c Column) bool { return c.Name == m.Column }); i >= 0 && m.Times == "" && nonAdditive(&p.t.Columns[i]) {
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: r.src, Reason: m.Column + " does not add up: its total shared among each " + r.col + " means nothing"})
		return nil
	}
	what := "the count of rows"
	if m.Column != "" {
		p.dropNotes(" of " + m.Column)
		m.Agg = "sum"
		what = "the total of " + m.Column
	}
	m.PerEach = r.col
	for k := 0; k < r.pos; k++ {
		if averageWords[p.low(k)] {
			p.use(k, k+1) // "average number of orders per customer": the division is the average
		}
	}
	p.understood(r.pos, fmt.Sprintf("%s -> %s divided by the number of distinct %s", r.src, what, r.col), r.src)
	return nil
}

// eachRowsRatio reports whether a ratio r of the first measure is of each
// row: its aggregate is one no ratio of totals has (a median, a minimum),
// or an average is said of a measure that does not add up ("the average
// price per horsepower") and the divisor is no count of the units it is a
// price of.
func (p *parser) eachRowsRatio(r *ratioReq) bool {
	if len(p.in.Measures) == 0 || p.t == nil {
		return false
	}
	m := p.in.Measures[0]
	c := p.columnByName(m.Column)
	if c == nil || m.Times != "" || m.Per != "" || m.PerEach != "" || m.Since != "" || m.PerPeriod != "" || m.Column == r.col {
		return false
	}
	switch m.Agg {
	case "median", "min", "max":
		return true
	case "avg":
		// "average price per unit" is the price: a unit's already
		return p.averageBefore(r.pos+1) && nonAdditive(c) && !slices.ContainsFunc(nameWords(r.col), func(w string) bool { return quantityWords[w] })
	}
	return false
}

// aggregateBefore reports whether an average, a median, a minimum or a
// maximum is said before i.
func (p *parser) aggregateBefore(i int) bool {
	return slices.ContainsFunc(p.toks[:i], func(t token) bool {
		return averageWords[t.low] || t.low == "median" || t.low == "minimum" || t.low == "maximum" || t.low == "min" || t.low == "max"
	})
}

// priceOfAmount reads "price" or "cost" right before a "per" of a
// column of litres, kilos or units, in a table with no price but an amount paid, as that
// amount: "average price per litre" over (litres, amt_eur) is the total
// paid over the total litres.
func (p *parser) priceOfAmount() error {
	r := p.ratio
	if r == nil || r.row || len(p.in.Measures) > 0 || p.t == nil {
		return nil
	}
	per := p.columnByName(r.col)
	if per == nil || !slices.ContainsFunc(nameWords(per.Name), func(w string) bool {
		u := unitSpellings[w]
		return quantityWords[w] || u == "liters" || u == "kilograms" || u == "pounds" || u == "grams"
	}) {
		return nil // "price per km" over an odometer: no total of it
	}
	k := r.pos - 1
	if k < 0 || !p.free(k) || p.low(k) != "price" && p.low(k) != "cost" {
		return nil
	}
	c := p.moneyColumn()
	if c == nil || nonAdditive(c) || c.Name == r.col || slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return w == "price" || w == "cost" }) {
		return nil
	}
	p.in.Measures = append(p.in.Measures, Measure{Column: c.Name, Agg: "sum"})
	from := k
	if averageWords[p.low(k-1)] {
		from = k - 1
	}
	p.use(from, k+1)
	p.understood(from, fmt.Sprintf("%s -> the amount paid, %s", p.src(from, k+1), c.Name), p.src(from, k+1))
	return nil
}
