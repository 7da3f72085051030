package intent

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// measures reads what to compute: aggregation words bound to the measure
// they precede ("total sales", "average and median amount"), counts ("how
// many customers", "number of orders"), money and quantity words matched
// to the best column ("revenue" -> amount), and numeric columns by name.
// The nouns of numeric conditions ("orders" in "orders over 100") are read
// only when nothing else names a measure.
func (p *parser) measures() error {
	p.measureScan()
	// "percent of cars with 8 cylinders": a share of rows; the condition's
	// column is not what is measured.
	share := slices.Contains(p.in.Analyses, AnalysisShare) && len(p.in.Filters) > 0
	for level := 1; level <= 2 && len(p.in.Measures) == 0 && !share; level++ {
		var freed []int
		for k := range p.toks {
			if p.toks[k].cond == level && p.toks[k].used {
				p.toks[k].used = false
				freed = append(freed, k)
			}
		}
		p.measureScan()
		for _, k := range freed {
			p.toks[k].used = true
		}
	}
	p.unboundAggs()
	return nil
}

var countAggs = func() []string {
	var out []string
	for ph, a := range aggs {
		if a == "count" || a == "count_distinct" {
			out = append(out, ph)
		}
	}
	return out
}()

var valueAggs = func() []string {
	var out []string
	for ph, a := range aggs {
		if a != "count" && a != "count_distinct" {
			out = append(out, ph)
		}
	}
	return out
}()

var orderValue = []string{"average order value", "avg order value", "order value", "aov", "basket value",
	"average basket", "basket size", "average ticket", "ticket size", "average transaction value", "transaction value"}

func (p *parser) measureScan() {
	for i := 0; i < len(p.toks); i++ {
		if !p.free(i) {
			continue
		}
		if c, _, st := p.colAt(i, prefNum); c != nil && st == mExact && i > 0 && aggWord(p.low(i-1)) {
			// "total count" over a column named count: the column
		} else if ph, n := p.anyPhrase(i, countAggs); n > 0 {
			if end := p.countAt(i, aggs[ph], n); end > i {
				i = end - 1
				continue
			}
		}
		if end := p.measureAt(i); end > i {
			i = end - 1
		}
	}
}

// countAt reads a count at i: "how many customers" (count_distinct),
// "number of orders" (count), "how many units" (sum of quantity), "count".
func (p *parser) countAt(i int, agg string, n int) int {
	if i > 0 && (p.toks[i-1].low == "by" || p.toks[i-1].low == "per") && p.in.Top == nil && !totalWords[p.toks[i].low] {
		// not "top 2 trucks by total number of orders": what to rank by
		if k := p.skip(i+n, "of"); p.countedBy(k) != nil {
			// "avg salary by # competencies" over n_comps: grouped by the
			// count, not a total of it
			c := p.countedBy(k)
			p.addGroup(i-1, p.src(i-1, k+1), c.Name, "")
			p.use(i-1, k+1)
			return k + 1
		}
	}
	if ph := p.src(i, i+n); strings.EqualFold(ph, "headcount") || strings.EqualFold(ph, "head count") {
		if cc := p.countColumn(); cc != nil {
			// a table of counts of people: the headcount is their sum
			p.addMeasure(i, ph, Measure{Column: cc.Name, Agg: "sum"}, "")
			p.use(i, i+n)
			return i + n
		}
	}
	j := p.skip(i+n, "the", "all", "our", "of")
	if w := p.low(j); w == "distinct" || w == "unique" || w == "different" {
		agg, j = "count_distinct", j+1 // "how many distinct customers"
	}
	for p.described[j] || fillers[p.low(j)] && !weighty[p.low(j)] && p.free(j+1) && p.toks[j+1].kind == kWord || p.subjectBefore(j) {
		j++ // "how many returned orders", "how many trading days": the orders, the days; "how many barley varieties" over barley
	}
	switch p.low(j) {
	case "percent", "percentage", "percentages", "times", "fold":
		return i // "how many percent": a change asked for as a percentage
	case "points":
		if c, _, st := p.colAt(j, prefNum); c == nil || st < mWords || slices.Contains(p.in.Analyses, AnalysisGrowth) {
			return i // "how many points did it rise": a change in points
		}
	}
	if w := p.low(j); slices.Contains(p.in.Analyses, AnalysisGrowth) && agg == "count" && p.low(i) == "how" &&
		(units[w] != "" || measureUnits[w]) && p.measureFollows(j+1) {
		// "how many years did life expectancy increase": the change, in
		// the measure's unit, not a count
		p.understood(i, fmt.Sprintf("%s -> the change, in %s", p.src(i, j+1), w), p.src(i, j+1))
		p.use(i, j+1)
		return j + 1
	}
	src := func(end int) string { return p.src(i, end) }
	if c, m, st := p.colAt(j, prefNum); agg == "count" && c != nil && st >= mWords && countsThings(c) && len(nameWords(c.Name)) >= 2 {
		// "the total number of stable isotopes" over n_stable_isotopes:
		// the numbers the column holds, added up
		p.addMeasure(i, src(j+m), Measure{Column: c.Name, Agg: "sum"}, "")
		p.use(i, j+m)
		return j + m
	}
	if refs, v := p.valueHere(j, false); agg == "count" && v > 1 && p.rowWord(j+v-1) {
		// "how many large airports" over a type large_airport: the rows
		// of that value, whose last word names them
		if col, why := p.pickColumn(refs, j, j+v); col != nil {
			p.addFilter(j, j+v, col, []string{valueIn(refs, col)}, false, why)
			p.addMeasure(i, src(j), Measure{Agg: "count"}, "")
			p.use(i, j)
			return j + v
		}
	}
	if k := p.pastValues(j); agg == "count" && k > j && p.free(k) {
		if c, m, st := p.colAt(k, prefCount); c != nil && m == 1 && st >= mEntity && isIDLike(c) {
			// "how many home games" over a table of plays: the distinct
			// games the value describes, not the plays; the value is
			// left for the filters
			p.addMeasure(i, src(j)+" "+p.src(k, k+1), Measure{Column: c.Name, Agg: "count_distinct"}, "")
			p.use(i, j)
			p.use(k, k+1)
			return k + 1
		}
	}
	w := p.low(j)
	switch {
	case agg == "count" && p.low(i) == "how" && p.saidUnit(j) != nil:
		// "how many litres" over vol_l: the litres the rows hold, added up
		p.addMeasure(i, src(j+1), Measure{Column: p.saidUnit(j).Name, Agg: "sum"}, "")
		p.use(i, j+1)
		return j + 1
	case units[w] != "" && agg == "count":
		return p.countPeriods(i, j, units[w])
	case quantityWords[w] && agg == "count":
		if c := p.quantityColumn(); c != nil {
			p.addMeasure(i, src(j+1), Measure{Column: c.Name, Agg: "sum"}, "")
			p.use(i, j+1)
			return j + 1
		}
	case agg == "count" && p.countedBy(j) != nil:
		// "how many calls" over a column of calls: each row counts that
		// many, so the answer is their sum, not the number of rows
		c := p.countedBy(j)
		p.addMeasure(i, src(j+1), Measure{Column: c.Name, Agg: "sum"}, " (each row counts "+c.Name+")")
		p.use(i, j+1)
		return j + 1
	case isCountNoun(w) || moneyWords[w]:
		m := p.countNoun(j)
		if agg == "count_distinct" && m.Agg == "count" {
			return i // "unique orders" without an order id: nothing distinct to count
		}
		p.addMeasure(i, src(j+1), m, "")
		p.use(i, j+1)
		return j + 1
	}
	if c, m, st := p.colAt(j, prefCount); c != nil && st >= mEntity && !isDate(c) &&
		!(isNumeric(c) && !isIDLike(c) && !p.codeNamed(j, c) && !p.toks[j].glossed && agg == "count") {
		// "how many households (db030)": the households the column
		// numbers, which the words glossed said are things
		if h := j + m; m == 1 && p.free(h) && p.toks[h].kind == kWord && !stopwords[p.low(h)] && (tableWord(p.t, p.low(h)) || isCountNoun(p.low(h))) {
			// "number of patient visits": the visits, which "patient"
			// describes; the head of a compound is its last noun
			p.addMeasure(i, src(h+1), p.countNoun(h), "")
			p.use(i, h+1)
			return h + 1
		}
		if yn := yesNo(c); yn != nil && isText(c) && m == 1 && p.toks[j].low != singular(p.toks[j].low) {
			// "how many smokers": the rows where smoker is yes, not the
			// two values of smoker
			p.addMeasure(i, src(j), Measure{Agg: "count"}, "")
			p.use(i, j)
			p.addFilter(j, j+1, c, []string{yn[0]}, false, "")
			return j + 1
		}
		p.addMeasure(i, src(j+m), Measure{Column: c.Name, Agg: "count_distinct"}, "")
		p.named = true
		p.use(i, j+m)
		return j + m
	}
	if agg == "count" && (p.low(i) != "number" || p.valueBefore(p.skip(j+1, "-")) && isCountNoun(p.low(p.skip(j+1, "-"))) || p.startsValue(j) ||
		j < len(p.toks) && p.toks[j].kind == kWord && (tableWord(p.t, p.low(j)) || p.rowsNamedAsEntities(j))) { // "number of cars": the rows
		p.addMeasure(i, src(i+n), Measure{Column: "", Agg: "count"}, "")
		p.use(i, i+n)
		return i + n
	}
	return i
}

// pastValues returns the index after the values of text columns that
// start at i, one after another ("home", "home playoff"): i if none.
func (p *parser) pastValues(i int) int {
	for {
		_, n := p.valueAt(p.vals, p.maxVW, i, true)
		if n == 0 || !p.free(i) {
			return i
		}
		i += n
	}
}

// startsValue reports whether a value of a text column starts at i
// ("number of sunny days").
func (p *parser) startsValue(i int) bool {
	_, n := p.valueAt(p.vals, p.maxVW, i, true)
	return n > 0
}

// startsMeasure reports whether a money or quantity word or a numeric
// column starts at i.
func (p *parser) startsMeasure(i int) bool {
	w := p.low(i)
	if moneyWords[w] || quantityWords[w] {
		return true
	}
	c, _, st := p.colAt(i, prefNum)
	return c != nil && st >= mPart
}

// valueBefore reports whether a value of a text column ends right before
// token i ("female passengers").
func (p *parser) valueBefore(i int) bool {
	for s := max(i-p.maxVW, 0); s < i; s++ {
		if _, n := p.valueAt(p.vals, p.maxVW, s, true); n > 0 && s+n == i {
			return true
		}
	}
	return false
}

// numberEndsAt reports whether a number, with its scale word, ends right
// before i: "2 million", "1,000,000", "5k".
func (p *parser) numberEndsAt(i int) bool {
	for s := max(i-2, 0); s < i; s++ {
		if _, n, _ := p.number(s); n > 0 && s+n == i {
			return true
		}
	}
	return false
}

// describes reports whether token i follows a summary or missing-values
// phrase ("summary of shipments"): it names what to describe.
func (p *parser) describes(i int) bool {
	k := i - 1
	for k >= 0 && slices.Contains([]string{"the", "of", "on", "for", "in", "all", "our", "my"}, p.toks[k].low) {
		k--
	}
	return k >= 0 && (p.akind[k] == AnalysisSummary || p.akind[k] == AnalysisMissing)
}

// countNoun reads a noun that names the rows ("orders") as a count: of
// distinct ids when the table has an id column for it (order_id), of rows
// otherwise.
func (p *parser) countNoun(j int) Measure {
	if c, _, st := p.colAt(j, prefCount); c != nil && st >= mEntity && isIDLike(c) {
		return Measure{Column: c.Name, Agg: "count_distinct"}
	}
	if c := p.countedBy(j); c != nil {
		return Measure{Column: c.Name, Agg: "sum"} // "orders" over n_ord: the orders each row counts
	}
	return Measure{Column: "", Agg: "count"}
}

// flagAdjective reports whether the k words at i name a 0/1 column c as
// what the rows are, not as a measure: after another measure ("how many
// babies were born preterm", "average weight of preterm babies") or
// before a noun of the rows, and not after an aggregate ("the average
// preterm" is a rate).
func (p *parser) flagAdjective(i, k int, c *Column) bool {
	if c.Type != "integer" || !isFlag(c) {
		return false
	}
	b := i - 1
	for b >= 0 && (p.toks[b].low == "non" || p.toks[b].low == "not" || p.toks[b].low == "-") {
		b--
	}
	if b >= 0 && (aggWord(p.toks[b].low) || p.toks[b].low == "of" && b > 0 && aggWord(p.toks[b-1].low)) {
		return false
	}
	copula := b >= 0 && (p.toks[b].low == "are" || p.toks[b].low == "is" || p.toks[b].low == "were" || p.toks[b].low == "was")
	return len(p.in.Measures) > 0 || p.rowsNoun(i+k) || isEntityNoun(p.low(i+k)) ||
		copula && slices.Contains(p.in.Analyses, AnalysisShare) // "what percentage of employees are remote"
}

// orderIDColumn returns the chosen table's id of orders (order_id,
// InvoiceNo), nil if none.
func (p *parser) orderIDColumn() *Column {
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if isIDLike(c) && slices.ContainsFunc(nameWords(c.Name), func(w string) bool {
			return w == "order" || w == "invoice" || w == "transaction" || w == "basket" || w == "txn"
		}) {
			return c
		}
	}
	return nil
}

// measureAt reads a measure at i and returns the index after it, or i.
func (p *parser) measureAt(i int) int {
	w := p.low(i)
	if p.low(i-1) == "both" || p.low(i-1) == "all" {
		// "both sexes combined", "all regions together": over every
		// value of the column, not a measure of it
		if c, n, _ := p.colAt(i, prefDim); c != nil && (p.low(i+n) == "combined" || p.low(i+n) == "together") {
			p.use(i-1, i+n+1)
			p.understood(i-1, fmt.Sprintf("%s -> over every %s", p.src(i-1, i+n+1), c.Name), p.src(i-1, i+n+1))
			return i + n + 1
		}
	}
	if c, k, st := p.colAt(i, prefDim); c != nil && k >= 2 && st >= mWords && !isNumeric(c) {
		return i // "billing state": a longer column's name
	}
	if roles[synonymOf(w)] && p.low(i-1) == "at" {
		return i // "at home": a role, not a measure
	}
	var m Measure
	n, byName := 0, false
	if ph, k := p.anyPhrase(i, orderValue); k > 0 {
		c := p.moneyColumn()
		if strings.Contains(ph, "basket size") {
			c = p.quantityColumn()
		}
		if c == nil {
			return i
		}
		m, n = Measure{Column: c.Name, Agg: "avg"}, k
		if !strings.Contains(ph, "basket size") {
			// an order's value over a unit price is the price times the
			// quantity, with the same doubts as revenue's
			mm, doubt, ok := p.moneyMeasure()
			if !ok {
				return i
			}
			m = Measure{Column: mm.Column, Agg: "avg", Times: mm.Times}
			if id := p.orderIDColumn(); id != nil {
				// the value of an order, whatever its lines: the total
				// shared among the orders
				m = Measure{Column: mm.Column, Agg: "sum", Times: mm.Times, PerEach: id.Name}
			}
			if doubt != "" {
				p.in.Unknown = append(p.in.Unknown, Unknown{Word: p.src(i, i+k), Reason: doubt, Nearest: p.numericColumns()})
			}
		}
	} else if c, k, st := p.colAt(i, prefNum); c != nil && st >= mPart && !isIDLike(c) {
		if (calendarPart(c) || p.isYearColumn(c)) && !aggWord(p.low(i-1)) {
			return i // "the coldest month" over a month 1–12, "quarter of the year": the period, not a measure of its number
		}
		if p.flagAdjective(i, k, c) {
			return i // "how many babies were born preterm": the rows where it is 1
		}
		if k == 1 && roles[synonymOf(w)] && len(nameWords(c.Name)) > 1 && p.free(i+1) && p.toks[i+1].kind == kWord && !stopwords[p.low(i+1)] {
			return i // "home games", "away wins": the role of what follows, not home_score
		}
		m, n, byName = Measure{Column: c.Name, Agg: defaultAgg(c)}, k, true
		if c2, k2 := p.timesAt(i + k); c2 != nil {
			// "quantity times unit price": a product, summed
			m, n = Measure{Column: c.Name, Agg: "sum", Times: c2.Name}, k+k2
		}
	} else if moneyWords[w] && p.isValue(i) && (p.moneyColumn() == nil || p.toks[i].raw != w && (p.low(i-1) == "in" || p.low(i-1) == "for" || p.low(i-1) == "from")) {
		return i // "women in Sales": a department, not a measure
	} else if moneyWords[w] && measureUnits[w] && p.low(i-1) == "in" && p.measureEnd == i-1 {
		return i // "price in dollars": the unit of the measure before
	} else if moneyWords[w] && p.moneyColumn() == nil && (!countedSales[w] || p.namesData(w)) {
		return i // "income" with no money column: a word of income_grp, or nothing this table has
	} else if (w == "bookings" || w == "booking") && len(p.in.Measures) > 0 && !listJoins[p.low(i-1)] {
		// "median amt_usd for hot desk bookings": the rows the measure is
		// of; "amt_usd and bookings" lists a second measure
		return i
	} else if (w == "bookings" || w == "booking") && p.rowsNamed(w) && !p.startsMeasure(i+1) {
		// "share of bookings through OTA" over a table of bookings: the
		// bookings counted, or their money, which a table with money does
		// not tell (a hotel counts bookings, a sales team sums them)
		m, n = Measure{Column: "", Agg: "count"}, 1
		if c := p.moneyColumn(); c != nil && !slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return w == "rate" || w == "adr" }) {
			// a rate (adr_usd, the room's price a night) adds up to no
			// booking's value: the bookings are counted
			p.in.Unknown = append(p.in.Unknown, Unknown{Word: p.toks[i].raw,
				Reason:  "the number of " + p.t.Name + " rows, or the total of " + c.Name + "? Say \"number of bookings\" or \"total " + c.Name + "\"",
				Nearest: []string{c.Name}})
		}
	} else if moneyWords[w] {
		m, n = Measure{Column: "", Agg: "count"}, 1
		if mm, doubt, ok := p.moneyMeasure(); ok {
			m = mm
			if doubt != "" {
				p.in.Unknown = append(p.in.Unknown, Unknown{Word: p.toks[i].raw, Reason: doubt, Nearest: p.numericColumns()})
			}
		}
	} else if quantityWords[w] && w != "sold" {
		c := p.quantityColumn()
		if c == nil {
			return i
		}
		m, n = Measure{Column: c.Name, Agg: "sum"}, 1
	} else if p.toks[i].cond == 1 && p.dayRows(i) {
		m, n = Measure{Column: "", Agg: "count"}, 1 // "days with a high above 30"
	} else if isCountNoun(w) {
		if p.startsMeasure(i+1) || p.valueBefore(i) || p.describes(i) {
			return i // "shipments cost", "female passengers", "summary of shipments": not a count
		}
		if populationNouns[w] && p.numberEndsAt(i) && p.adjectiveColumn("most-populous") != nil {
			return i // "2 million people": a population, compared
		}
		if a, ok := rankAdjectives[p.toks[max(i-1, 0)].low]; ok && i > 0 && a.words != nil && p.adjectiveColumn(p.toks[i-1].low) != nil {
			return i // "the costliest visit": the visit, ranked by its cost
		}
		if k := p.skipBack(i, "the", "all", "our", "my") - 1; k > 0 && p.low(k) == "of" && p.measureEnd == k {
			// "total units of orders": the rows the measure is over, not
			// a count beside it
			p.use(k, i+1)
			p.understood(k, fmt.Sprintf("%s -> the rows of %s", p.src(k, i+1), p.t.Name), p.src(k, i+1))
			return i + 1
		}
		m, n = p.countNoun(i), 1
		if p.low(i+1) == "count" || p.low(i+1) == "counts" || p.low(i+1) == "volume" {
			n++
		}
	} else if c, k, st := p.colAt(i, prefCount); c != nil && st >= mEntity && (p.low(i+k) == "count" || p.low(i+k) == "counts") {
		m, n = Measure{Column: c.Name, Agg: "count_distinct"}, k+1
		p.named = true
	} else {
		return i
	}
	end := i + n
	found := m.Agg != "count" && m.Agg != "count_distinct"
	start, bound := i, []string(nil)
	if found {
		start, bound = p.aggsBefore(i)
		if len(bound) == 0 {
			// "sales total", "amount average"
			if ph, k := p.anyPhrase(end, valueAggs); k > 0 && k == 1 && p.low(end) != "least" {
				bound, end = []string{aggs[ph]}, end+k
			}
		}
	}
	if found && len(bound) == 0 && p.in.Top == nil {
		// "the hottest daily high", "the strongest wind": a superlative
		// that names the measure's kind says its maximum or minimum
		if k, agg := p.adjectiveAgg(start, m.Column); agg != "" {
			start, bound = k, []string{agg}
		}
	}
	if byName {
		p.named = true
	}
	note := ""
	switch {
	case m.Column == "" && (w == "bookings" || w == "booking") && p.rowsNamed(w):
		note = " (each row of " + p.t.Name + " is one)"
	case m.Column == "" && moneyWords[w]:
		note = " (no money-like column)"
	}
	if len(bound) == 0 {
		if p.perRow && found {
			m.Agg = "avg"
		}
		if byName && m.Agg == "avg" && p.in.Top != nil && countRank[p.rankBy] && p.countNounIn(start, end) {
			// "the most goals": a count of things, added up, though the
			// column (a score) is averaged by default
			avg := m
			m.Agg = "sum"
			note = " (\"" + p.rankBy + "\" of a count: its total)"
			if k := slices.Index(p.in.Measures, avg); k >= 0 {
				// "scored the most goals": the verb named the column first
				p.in.Measures[k] = m
				p.dropNotes("-> average of " + m.Column)
				p.understood(start, fmt.Sprintf("%s -> sum of %s%s", p.src(start, end), m.Column, note), p.src(start, end))
			}
		}
		p.addMeasure(start, p.src(start, end), m, note)
	}
	for _, a := range bound {
		if p.perRow && found && !perRowStat[a] && !p.perRowReported {
			// "total sales per order": a total is not per order
			p.perRowReported = true
			p.in.Unknown = append(p.in.Unknown, Unknown{Word: "per row", Reason: "a " + aggWords[a] + " of " + m.Column + " is not a value per row; say average, or group by the rows' id"})
		}
		p.addMeasure(start, p.src(start, end), Measure{Column: m.Column, Agg: a, Times: m.Times}, note)
	}
	p.use(start, end)
	if found {
		p.measureEnd = end
	}
	return end
}

// perRowStat are the statistics of a value per row: "median units per
// order" is the median of the rows' units, as the average is their mean;
// a total or a count per order is not a row's.
var perRowStat = setOf("avg", "median", "min", "max", "std")

// isValue reports whether the free word at i is, as written, a value of a
// text column of the chosen table ("Sales" in a department column).
func (p *parser) isValue(i int) bool {
	refs, n := p.valueAt(p.vals, p.maxVW, i)
	return n == 1 && slices.ContainsFunc(refs, func(r valRef) bool { return !r.alias && strings.EqualFold(r.value, p.toks[i].raw) })
}

// aggsBefore returns the aggregations written before a measure at i
// ("average and median amount", "the total of sales") and where they
// start; none when the measure has none.
func (p *parser) aggsBefore(i int) (int, []string) {
	var found []string
	var at []int // the token after each of found
	start := i
	k := i - 1
	for k >= 0 && k >= i-8 {
		best, m := "", 0
		for _, ph := range valueAggs {
			l := len(strings.Fields(ph))
			if l > m && k-l+1 >= 0 && p.phrase(k-l+1, ph) > 0 && p.phrase(k-l+1, ph) == k-(k-l+1)+1 {
				best, m = ph, l
			}
		}
		if m > 0 {
			found = append(found, aggs[best])
			at = append(at, k+1)
			k -= m
			start = k + 1
			continue
		}
		switch p.low(k) {
		case "the", "of", "and", "or", ",", "&", "/", "a", "an", "our":
			if len(found) == 0 && p.low(k) != "the" && p.low(k) != "of" && p.low(k) != "our" {
				return i, nil
			}
			k--
			continue
		}
		if k >= 0 && p.toks[k].used && grainAdverbs[p.toks[k].low] != "" || k >= 0 && p.free(k) && fillers[p.low(k)] && !weighty[p.low(k)] ||
			k >= 0 && p.free(k) && p.toks[k].kind == kWord && tableWord(p.t, p.low(k)) && len(found) == 0 ||
			k >= 0 && len(found) == 0 && p.toks[k].used && p.valueStart[k] && p.valueEnd[k+1] {
			k-- // "average monthly sales": the grouping was read already; "average trading volume"; "total shipped revenue"
			continue
		}
		break
	}
	slices.Reverse(found)
	slices.Reverse(at)
	if len(found) >= 2 && (found[0] == "max" || found[0] == "min") && found[1] != "max" && found[1] != "min" &&
		!slices.Contains([]string{"and", "or", ",", "&"}, p.low(at[0])) {
		// "the highest total spend": the total, ranked; not its maximum too
		found = found[1:]
	}
	var out []string
	for _, a := range found {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return start, out
}

// unboundAggs applies aggregation words that precede no measure ("sales:
// total, average and max") to the first measure.
func (p *parser) unboundAggs() {
	if len(p.in.Measures) == 0 || p.in.Measures[0].Column == "" {
		return
	}
	first := p.in.Measures[0]
	for i := 0; i < len(p.toks); i++ {
		ph, n := p.anyPhrase(i, valueAggs)
		if n == 0 || ph == "least" || ph == "typical" || ph == "peak" || ph == "combined" || ph == "cumulative" {
			continue
		}
		if said, ok := p.aggUnsaid(first); len(p.in.Measures) == 1 && ok {
			// "which firm invested the most in total": the total of
			// what was named without saying how, not a second measure
			p.dropNotes(" of " + first.Column)
			p.in.Measures = nil
			p.addMeasure(i, said+" ... "+p.src(i, i+n), Measure{Column: first.Column, Agg: aggs[ph], Times: first.Times, Since: first.Since}, "")
			p.use(i, i+n)
			i += n - 1
			continue
		}
		p.addMeasure(i, p.src(i, i+n), Measure{Column: first.Column, Agg: aggs[ph], Times: first.Times, Since: first.Since}, "")
		p.use(i, i+n)
		i += n - 1
	}
}

// aggUnsaid reports whether measure m's aggregate is its column's default,
// the request naming the column without an aggregate word ("invested"
// for inv, averaged because nothing said how), and returns those words.
func (p *parser) aggUnsaid(m Measure) (string, bool) {
	ci := slices.IndexFunc(p.t.Columns, func(c Column) bool { return c.Name == m.Column })
	if ci < 0 || m.Times != "" || m.Per != "" || m.PerEach != "" || m.Agg != defaultAgg(&p.t.Columns[ci]) {
		return "", false
	}
	for _, n := range p.notes {
		src, ok := strings.CutSuffix(n.text, " -> "+aggWords[m.Agg]+" of "+m.Column)
		if !ok {
			continue
		}
		for _, w := range strings.Fields(strings.ToLower(src)) {
			if _, agg := aggs[w]; agg {
				return "", false
			}
		}
		return src, true
	}
	return "", false
}

var aggWords = map[string]string{"sum": "sum", "avg": "average", "count": "count", "count_distinct": "count of distinct",
	"min": "minimum", "max": "maximum", "median": "median", "std": "standard deviation", "range": "range (maximum - minimum)"}

// addMeasure adds a measure once.
func (p *parser) addMeasure(pos int, src string, m Measure, note string) {
	if slices.Contains(p.in.Measures, m) || m.Times != "" && slices.Contains(p.in.Measures, Measure{Column: m.Times, Agg: m.Agg, Times: m.Column}) {
		return // "quantity times price" is "price times quantity"
	}
	if p.restOfName(pos, m.Column) {
		p.understood(pos, fmt.Sprintf("%s -> the rest of %s's name", src, m.Column), src)
		return
	}
	p.in.Measures = append(p.in.Measures, m)
	what := aggWords[m.Agg] + " of " + m.Column
	if m.Times != "" {
		what += " × " + m.Times
	}
	if m.Since != "" {
		what = aggWords[m.Agg] + " of the days from " + m.Since + " to " + m.Column
	}
	switch {
	case m.Column == "":
		what = "count of rows"
	case m.Agg == "count_distinct":
		what = "count of distinct " + m.Column
	}
	if m.PerEach != "" {
		what += " per distinct " + m.PerEach
	}
	p.understood(pos, fmt.Sprintf("%s -> %s%s", src, what, note), fmt.Sprintf("%s (%s)", src, what))
}

// restOfName reports whether the word at pos goes on naming col, which
// the word before it named and a measure already measures: "gdp est"
// over gdp_md_est is one column said in two words, not two measures.
func (p *parser) restOfName(pos int, col string) bool {
	if col == "" || pos <= 0 || pos >= len(p.toks) || !slices.ContainsFunc(p.in.Measures, func(m Measure) bool { return m.Column == col }) {
		return false
	}
	ws := nameWords(col)
	in := func(w string) bool { return slices.ContainsFunc(ws, func(cw string) bool { return sameWord(w, cw) }) }
	return len(ws) > 1 && in(p.toks[pos].low) && in(p.toks[pos-1].low)
}

// defaultAgg is how a column named alone is aggregated. Rates,
// percentages, scores, ages and prices are averaged. Amounts that add up
// (money, quantities, counts, populations, totals) are summed. Any other
// measurement (a temperature, a life expectancy, a body mass, a speed) is
// averaged: adding it up over rows means nothing.
func defaultAgg(c *Column) string {
	words := nameWords(c.Name)
	for _, w := range words {
		if avgWords[w] || avgWords[norm(w)] {
			return "avg"
		}
	}
	if perTime(words) {
		return "avg" // wage_hr, pay_daily: an amount per hour or day is a rate
	}
	if countsThings(c) {
		return "sum" // calls, visits, trips: a number of events adds up
	}
	for _, w := range words {
		if additiveWords[w] || additiveWords[norm(w)] || rank(c, moneyColumns) >= 0 || rank(c, quantityColumns) >= 0 {
			return "sum"
		}
	}
	return "avg"
}

// perTime reports whether a column's words say an amount paid per unit
// of time: a word of pay and an hour, a day, "hourly", "daily".
func perTime(words []string) bool {
	pay, per := false, false
	for _, w := range words {
		pay = pay || payWords[w] // not sales or revenue: weekly_sales is a week's total
		per = per || unitAdverbs[w] != "" || w == "hr" || w == "ph" || w == "pd" || w == "perhour" || w == "perday"
	}
	return pay && per
}

// additiveWords in a column's name make it an amount that adds up over
// rows.
var additiveWords = setOf("total", "tot", "sum", "amount", "count", "number", "num", "cnt", "population", "pop", "sales",
	"revenue", "cost", "costs", "gross", "profit", "loss", "spend", "budget", "precipitation", "precip", "rainfall",
	"snowfall", "generation", "production", "output", "consumption", "emission", "emissions", "death", "deaths",
	"injury", "injuries", "case", "cases", "vote", "votes", "unit", "units", "flight", "flights", "passenger",
	"passengers", "visitor", "visitors", "job", "jobs", "employed", "unemployed", "birth", "births", "fatality",
	"fatalities", "arrest", "arrests", "incident", "incidents", "sold", "volume", "quantity", "qty", "value",
	"shipment", "shipments", "order", "orders", "tax", "fee", "fees", "paid", "payment", "income", "expense",
	"expenses", "debt", "asset", "assets", "capacity", "area", "energy", "hours", "minutes", "members", "people",
	"students", "employees", "customers", "users", "downloads", "views", "clicks", "sessions", "stars", "forks",
	"commits", "issues", "gallons", "barrels", "tons", "tonnes", "acres", "yield", "harvest", "crimes",
	// their shorthand in column names: lab_hrs, yld_kg
	"hrs", "yld")

// moneyColumn returns the numeric column of the chosen table most like an
// amount of money, nil if none.
func (p *parser) moneyColumn() *Column {
	return p.bestNumeric(moneyColumns, setOf("discount", "tax", "shipping", "fee", "pct", "%", "rate", "ratio",
		"unit", "id", "count", "quantity", "qty"))
}

// quantityColumn returns the numeric column most like a quantity.
func (p *parser) quantityColumn() *Column {
	return p.bestNumeric(quantityColumns, setOf("pct", "%", "rate", "ratio", "id", "price", "amount"))
}

func (p *parser) moneyLike(c *Column) bool    { return rank(c, moneyColumns) >= 0 }
func (p *parser) quantityLike(c *Column) bool { return rank(c, quantityColumns) >= 0 }

// rank returns the best position in ranked of a word of c's name, -1 if
// none.
func rank(c *Column, ranked []string) int {
	best := -1
	for _, w := range nameWords(c.Name) {
		for r, x := range ranked {
			if (w == x || norm(w) == norm(x)) && (best < 0 || r < best) {
				best = r
			}
		}
	}
	return best
}

func (p *parser) bestNumeric(ranked []string, penalty map[string]bool) *Column {
	if p.t == nil {
		return nil
	}
	var best *Column
	bestScore := 0
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if !isNumeric(c) || isIDLike(c) {
			continue
		}
		r := rank(c, ranked)
		if r < 0 {
			continue
		}
		words := nameWords(c.Name)
		score := r*10 + len(words)
		for _, w := range words {
			if penalty[w] || penalty[norm(w)] {
				score += 1000
			}
		}
		if best == nil || score < bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// adjectiveAgg reads a superlative of rankAdjectives right before a
// measure at i ("hottest" before temp_max, over a used grain word such as
// "daily" or the table's own noun, "longest flight distance"): "max" when it puts the largest first, "min" otherwise, and
// where it starts. None when the adjective names another kind of column.
func (p *parser) adjectiveAgg(i int, col string) (int, string) {
	k := i - 1
	for k >= 0 && (p.toks[k].used && grainAdverbs[p.toks[k].low] != "" || p.free(k) && p.toks[k].kind == kWord && tableWord(p.t, p.toks[k].low)) {
		k-- // "the longest flight distance": the table's noun between
	}
	if !p.free(k) || col == "" {
		return i, ""
	}
	a, ok := rankAdjectives[p.low(k)]
	if !ok || !slices.ContainsFunc(a.words, func(w string) bool {
		return slices.ContainsFunc(nameWords(col), func(cw string) bool { return sameWord(w, cw) })
	}) {
		return i, ""
	}
	if a.desc {
		return k, "max"
	}
	return k, "min"
}

// moneyMeasure is the measure a money word ("revenue", "sales") names:
// the sum of the most money-like column; when that column is a price per
// unit ("UnitPrice"), the sum of the price times the table's one sold
// quantity, since adding up prices is no revenue. A doubt says why that
// measure may not be the amount asked for: a price that may be per unit
// or per line ("price" beside "quantity"), several prices or quantities to
// choose from, none to multiply by, or a discount the product leaves out.
func (p *parser) moneyMeasure() (m Measure, doubt string, ok bool) {
	c := p.moneyColumn()
	if c == nil {
		return Measure{}, "", false
	}
	m = Measure{Column: c.Name, Agg: "sum"}
	if !unitPrice(c) {
		if pricePerWhat(c) && p.soldQuantities() != nil {
			doubt = c.Name + " may be a price per unit or per line; say whether to multiply it by the quantity"
		}
		return m, doubt, true
	}
	var prices, adjust []string
	for ci := range p.t.Columns {
		oc := &p.t.Columns[ci]
		if !isNumeric(oc) || isIDLike(oc) {
			continue
		}
		if unitPrice(oc) || pricePerWhat(oc) {
			prices = append(prices, oc.Name)
		}
		if slices.ContainsFunc(nameWords(oc.Name), func(w string) bool { return priceAdjustments[norm(w)] }) {
			adjust = append(adjust, oc.Name)
		}
	}
	qty := p.soldQuantities()
	switch {
	case len(prices) > 1:
		doubt = "the table has several prices per unit (" + strings.Join(prices, ", ") + "): say which one times which quantity"
	case len(qty) != 1:
		doubt = c.Name + " is a price per unit, and the table has no one quantity sold to multiply it by: say how to compute it"
	case len(adjust) > 0:
		m.Times = qty[0].Name
		doubt = "the table also has " + strings.Join(adjust, ", ") + adjustDoubt
	default:
		m.Times = qty[0].Name
	}
	return m, doubt, true
}

// adjustDoubt ends the doubt of a price times a quantity beside a
// discount or tax; "gross" and "before discounts" lift it.
const adjustDoubt = ": say whether it is before or after that"

// priceAdjustments are the words of columns that change what a line's
// price times its quantity comes to.
var priceAdjustments = setOf("discount", "discounts", "rebate", "markdown", "coupon", "tax", "vat")

// notSold are the words of quantity columns that count something other
// than what was sold: units in stock, a reorder level, a capacity.
var notSold = setOf("stock", "instock", "inventory", "hand", "onhand", "available", "reorder", "capacity", "min",
	"max", "minimum", "maximum", "target", "backorder", "backordered", "returned", "pack", "case", "per", "limit")

// soldQuantities are the numeric columns of the table that may be the
// quantity of a line sold.
func (p *parser) soldQuantities() []*Column {
	var out []*Column
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if !isNumeric(c) || isIDLike(c) || p.moneyLike(c) || !p.quantityLike(c) ||
			slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return notSold[norm(w)] }) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// unitPrice reports whether c is a price per unit: its name says a price
// and a unit ("UnitPrice", "price_each", "hourly_rate"), and no word of a
// total.
func unitPrice(c *Column) bool {
	price, unit := false, false
	for _, w := range nameWords(c.Name) {
		switch norm(w) {
		case "unitprice":
			price, unit = true, true
		case "price", "rate":
			price = true
		case "unit", "each", "per", "hourly", "daily":
			unit = true
		case "total", "amount", "revenue", "sales", "sale", "subtotal", "value", "turnover", "line", "extended":
			return false
		}
	}
	return price && unit
}

// pricePerWhat reports whether c is a price that does not say whether it
// is per unit or per line: "price", "list_price".
func pricePerWhat(c *Column) bool {
	if unitPrice(c) {
		return false
	}
	price := false
	for _, w := range nameWords(c.Name) {
		switch norm(w) {
		case "price":
			price = true
		case "total", "amount", "revenue", "sales", "sale", "subtotal", "value", "turnover", "line", "extended":
			return false
		}
	}
	return price
}

// timesWords join two columns multiplied: "quantity times unit price".
var timesWords = []string{"times", "x", "*", "×", "multiplied by"}

// timesAt reads "times <numeric column>" at i: the column and the tokens
// taken.
func (p *parser) timesAt(i int) (*Column, int) {
	ph, n := p.anyPhrase(i, timesWords)
	if n == 0 || ph == "" {
		return nil, 0
	}
	k := p.skip(i+n, "the")
	c, m, st := p.colAt(k, prefNum)
	if c == nil || st < mPart || isIDLike(c) {
		return nil, 0
	}
	return c, k + m - i
}

// measureFollows reports whether a numeric column is named within the few
// words after i ("did life expectancy increase").
func (p *parser) measureFollows(i int) bool {
	for k := i; k < len(p.toks) && k <= i+3; k++ {
		if c, _, st := p.colAt(k, prefNum); c != nil && st >= mWords && !isIDLike(c) && !p.isYearColumn(c) {
			return true
		}
	}
	return false
}

// countRank are the superlatives that rank by how many: "the most goals",
// "the fewest points".
var countRank = setOf("most", "fewest", "least")

// dropNotes forgets what was understood whose words end in suffix.
func (p *parser) dropNotes(suffix string) {
	p.notes = slices.DeleteFunc(p.notes, func(n note) bool { return strings.HasSuffix(n.text, suffix) })
}

// rowsNamed reports whether the chosen table's name names its rows w, in
// full or in shorthand: "bookings" of hotel_bkgs.
func (p *parser) rowsNamed(w string) bool {
	return tableWord(p.t, w) || slices.ContainsFunc(nameWords(p.t.Name), func(nw string) bool { return abbreviates(w, nw) }) ||
		slices.ContainsFunc(p.t.Columns, func(c Column) bool {
			// booking_id: the table's rows are bookings, whatever its name
			ws := nameWords(c.Name)
			return len(ws) == 2 && idEnds[ws[1]] && isIDLike(&c) && (sameWord(w, ws[0]) || singular(w) == ws[0])
		})
}

// countNounIn reports whether the words start..end-1 that name a measure
// hold a plural noun ("goals", "goals away") and no word of an average.
// The plural name of an integer column is a count even when its singular
// names a rate ("conversions").
func (p *parser) countNounIn(start, end int) bool {
	plural := false
	for _, t := range p.toks[start:end] {
		if avgWords[t.low] || avgWords[norm(t.low)] && !(t.low != singular(t.low) && p.countColumnNamed(t.low)) {
			return false
		}
		plural = plural || t.kind == kWord && t.low != singular(t.low)
	}
	return plural
}

// countsThings reports whether c is a count of events by its name alone:
// an integer column called by a plural noun of things that happen
// ("calls", "visits", "trips").
func countsThings(c *Column) bool {
	words := nameWords(c.Name)
	if c.Type == "integer" && len(words) >= 2 && words[0] == "n" && !isIDLike(c) {
		return true // n_isotopes: the number of them
	}
	return c.Type == "integer" && len(words) == 1 && isCountNoun(words[0]) && singular(words[0]) != words[0] && !isIDLike(c)
}

// subjectBefore reports whether the word at j is the table's subject
// before the plural name of one of its text columns: "barley" in "how
// many barley varieties" over barley(variety).
func (p *parser) subjectBefore(j int) bool {
	w, next := p.low(j), p.low(j+1)
	if w == "" || p.toks[j].kind != kWord || !tableWord(p.t, w) || isCountNoun(w) || next == singular(next) {
		return false
	}
	c, _, st := p.colAt(j+1, prefCount)
	return c != nil && st >= mEntity && isText(c)
}

// countedBy returns the integer column whose whole name is the plural
// noun at j ("how many goals" over a goals column), or its singular ("how
// many alarms" over an alarm column of 0s and 1s), nil if none. A unit of
// time ("how many days" over a day of the month) is not counted by it.
func (p *parser) countedBy(j int) *Column {
	w := p.low(j)
	if p.t == nil || w == "" || singular(w) == w || units[w] != "" {
		return nil
	}
	var counts *Column
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		n := nameWords(c.Name)
		if c.Type != "integer" || isIDLike(c) || p.isYearColumn(c) {
			continue
		}
		if slices.Equal(n, []string{w}) || slices.Equal(n, []string{singular(w)}) && !numbersThings(c) {
			return c
		}
		if len(n) == 2 && (countPrefixes[n[0]] && countOf(w, n[1]) || countPrefixes[n[1]] && countOf(w, n[0])) {
			if counts != nil {
				return nil // two counts of it: not this pass's to choose
			}
			counts = c // "orders" over n_ord, order_cnt
		}
	}
	return counts
}

// countPrefixes say a column counts what its other word names: n_ord,
// order_cnt. "num", "no" and "nbr" number things as often (invoice_num):
// not read as counts.
var countPrefixes = setOf("n", "cnt", "count")

// countOf reports whether the column's word cw names the plural noun w:
// the same word or its abbreviation ("ord" for orders).
func countOf(w, cw string) bool {
	return cw == w || cw == singular(w) || len(cw) >= 3 && (strings.HasPrefix(singular(w), cw) || abbreviates(w, cw) || abbreviates(singular(w), cw))
}

// numbersThings reports whether an integer column named in the singular
// numbers things rather than counts them: its values start at 1 or more
// ("firm" 1 to 10), where a count of alarms has days of none.
func numbersThings(c *Column) bool {
	lo, err := strconv.ParseFloat(c.Min, 64)
	return err == nil && lo >= 1
}

// codeNamed reports whether the plural word at j names, in the singular,
// an integer column that numbers things: "how many firms" over firm 1 to
// 10 is how many distinct firms.
func (p *parser) codeNamed(j int, c *Column) bool {
	w := p.low(j)
	return c.Type == "integer" && singular(w) != w && slices.Equal(nameWords(c.Name), []string{singular(w)}) && numbersThings(c)
}

// countPeriods reads "how many days" at i, the unit at j: the rows over a
// table of one row a day, the distinct dates of a date column otherwise.
// Weeks, months and years of several rows each, days of a timestamp and
// periods of a table with no date are reported, not counted as rows.
func (p *parser) countPeriods(i, j int, grain string) int {
	src := p.src(i, j+1)
	p.use(i, j+1)
	switch {
	case p.date == nil && !p.onePerPeriod(grain):
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: src, Reason: "the table has no date column to count " + grain + "s by"})
	case p.onePerPeriod(grain):
		p.addMeasure(i, src, Measure{Agg: "count"}, " (one row a "+grain+")")
	case grain == "day" && p.date.Type == "date" && slices.ContainsFunc(p.in.Filters, threshold):
		// "days with sales above 100": each row's, or the day's total?
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: src,
			Reason: "a day has several rows: say whether the condition is on each row or on the day's total"})
	case grain == "day" && p.date.Type == "date":
		p.addMeasure(i, src, Measure{Column: p.date.Name, Agg: "count_distinct"}, "")
	default:
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: src,
			Reason: fmt.Sprintf("the rows are not one a %s, and %ss of %s are not counted apart", grain, grain, p.date.Name)})
	}
	return j + 1
}

// threshold reports whether f compares a number other than zero: "above
// 100", not the presence "had a discount".
func threshold(f Filter) bool {
	switch f.Op {
	case ">", ">=", "<", "<=":
		return len(f.Values) != 1 || f.Values[0] != "0"
	}
	return false
}

// saidUnit returns the numeric column the word at j names by the unit it
// is in, other than a unit of time ("litres" over vol_l, which
// readUnitNames read as the column's other word), or nil.
func (p *parser) saidUnit(j int) *Column {
	if j < 0 || j >= len(p.toks) {
		return nil
	}
	u := strings.ToLower(p.toks[j].raw)
	if unitSpellings[u] == "" || units[u] != "" || !p.free(j) || p.toks[j].kind != kWord || p.toks[j].low == u {
		return nil
	}
	if slices.ContainsFunc(p.toks, func(t token) bool { return averageWords[t.low] || t.low == "median" || t.low == "per" }) {
		return nil // "how many kilograms does the average shipment weigh": not the total
	}
	if c, m, _ := p.colAt(j, prefNum); c != nil && m == 1 && isNumeric(c) && !isIDLike(c) {
		return c
	}
	return nil
}

// listJoins join the items of a list: after one, a word starts the next.
var listJoins = setOf("and", "&", ",", "plus", "+", "with", "vs", "versus", "or", "then", "also")

// rowsNamedAsEntities reports whether the word at j names the chosen
// table's rows as the things they are ("number of students" over a table
// of one student a row): a unit of observation no column or value is
// called, over rows that are each one thing.
func (p *parser) rowsNamedAsEntities(j int) bool {
	w := p.low(j)
	return isEntityNoun(w) && !p.namesData(w) && !p.isValue(j) && p.rowsAreEntities() && !p.idNamesOtherRows(w) && !p.tableNamesOtherRows(w)
}

// amountParticiples reads each participle of an amount said of the rows
// (amountParticiple) before the groupings and measures are read:
// "discounted only" is neither a grouping nor a measure.
func (p *parser) amountParticiples() error {
	if p.t == nil {
		return nil
	}
	for i := 0; i < len(p.toks); i++ {
		if !p.free(i) || p.toks[i].kind != kWord {
			continue
		}
		if c, k, st := p.colAt(i, prefNum); c != nil && st >= mPart && !isIDLike(c) {
			i = max(i, p.amountParticiple(i, k, c)-1)
		}
	}
	return nil
}

// amountParticiple reads the word at i, the participle of a numeric
// column's name that is never below 0 ("discounted" of discount_pct,
// "delayed" of delay_min), said of the rows rather than measured: before
// a noun of the rows or "only", or after "were" ("avg price of
// discounted cars", "avg price, discounted only"). The rows kept are
// those where the column is above 0. It returns the index after the
// words read, or i.
func (p *parser) amountParticiple(i, k int, c *Column) int {
	w := p.low(i)
	if k != 1 || !strings.HasSuffix(w, "ed") || c.Min == "" || !isNumeric(c) {
		return i
	}
	if lo, err := strconv.ParseFloat(c.Min, 64); err != nil || lo < 0 {
		return i
	}
	root := nounRoot(w)
	if !slices.ContainsFunc(nameWords(c.Name), func(cw string) bool { return cw != w && nounRoot(cw) == root }) ||
		slices.ContainsFunc(nameWords(c.Name), func(cw string) bool { return countColumns[cw] }) {
		// "the pipits counted" over counts: how they were measured, not
		// the rows with some
		return i
	}
	b := p.toks[max(i-1, 0)].low
	copula := i > 0 && (b == "are" || b == "is" || b == "were" || b == "was") ||
		i > 0 && (p.rowsWord(i-1) || isEntityNoun(p.toks[i-1].low)) && (i+1 == len(p.toks) || p.toks[i+1].kind == kPunct) // "% of cars discounted"
	next := p.low(i + 1)
	if p.startsMeasure(i + 1) {
		// "discounted price": a measure after the discount, which no
		// column holds
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: p.src(i, i+2),
			Reason: "a measure with " + c.Name + " taken into it is not computed", Nearest: []string{c.Name}})
		p.use(i, i+1)
		return i + 1
	}
	if !copula && next != "only" && !p.rowsNoun(i+1) && !isEntityNoun(next) {
		return i
	}
	p.in.Filters = append(p.in.Filters, Filter{Column: c.Name, Op: ">", Values: []string{"0"}})
	p.filterRead(c.Name, i)
	end := i + 1
	if next == "only" {
		end++
	}
	p.use(i, end)
	p.understood(i, fmt.Sprintf("%s -> %s > 0 (the rows it is said of)", p.src(i, end), c.Name), p.src(i, end))
	return end
}
