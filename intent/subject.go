package intent

import (
	"fmt"
	"slices"
	"strings"
)

// The words of a request that name no column but are still understood:
// the subject of the table ("Seattle" in a table seattle_weather, "strikes"
// in birdstrikes), words that only say how a number is written ("in
// pounds", "as a percentage"), descriptive nouns after a column ("fertility
// rate"), and filler that never changes an answer.

// tableWord reports whether w names the subject of table t: a word of its
// name or of a table joined to it, the same or a synonym, or a part of a
// compound name of four letters or more ("strikes" in birdstrikes).
func tableWord(t *Table, w string) bool {
	if t == nil || len(w) < 2 {
		return false
	}
	for _, name := range slices.Concat([]string{t.Name}, t.Aliases, t.Joined) {
		for _, nw := range nameWords(name) {
			if sameWord(w, nw) {
				return true
			}
			s := singular(w)
			if len(s) >= 4 && len(nw) > len(s) && (strings.HasPrefix(nw, s) || strings.HasSuffix(nw, s) || strings.HasSuffix(nw, w) || strings.HasSuffix(nw, s+"s")) {
				return true
			}
			if len(nw) >= 3 && (abbreviates(s, nw) || abbreviates(nounRoot(w), nw)) {
				return true // "benchmark" over bench, "brewed" over brw_batches
			}
		}
	}
	return false
}

// rootOfTable reports whether w shares its root with a word of the
// table's name ("shipping" cost over shipments) when the request says no
// period: with one, "shipping" may say which date (ship_date) it is on,
// and is left to be reported.
func (p *parser) rootOfTable(w string) bool {
	if p.in.Time != nil || p.t == nil {
		return false
	}
	r := nounRoot(w)
	return len(r) >= 4 && slices.ContainsFunc(nameWords(p.t.Name), func(nw string) bool { return nounRoot(nw) == r })
}

// nounRoot returns w without the endings that make a verb or a noun of
// the same thing ("shipping", "shipments", "shipped": ship), and without
// a consonant doubled before them.
func nounRoot(w string) string {
	for _, end := range []string{"ments", "ment", "ings", "ing", "ed", "s"} {
		if r, ok := strings.CutSuffix(w, end); ok && len(r) >= 3 {
			if u := undoubled(r); u != "" {
				return u
			}
			return r
		}
	}
	return w
}

// countColumns are the names of a column that says how many things a row
// stands for, in a table of counts (origin, destination, count).
var countColumns = setOf("count", "cnt", "n", "freq", "frequency", "num", "number", "total", "counts", "people",
	"persons", "headcount")

// countColumn returns the chosen table's column of counts, nil if none.
func (p *parser) countColumn() *Column {
	if p.t == nil {
		return nil
	}
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if c.Type == "integer" && countColumns[strings.ToLower(c.Name)] {
			return c
		}
	}
	return nil
}

// subjects reads the words left that name the table's subject. A count of
// rows whose noun is the table's subject, over a table of counts, is the
// sum of its count column: in flights(origin, destination, count) "how
// many flights" is sum(count), not the number of routes.
func (p *parser) subjects() error {
	p.spelledTableName()
	first := -1
	for i := range p.toks {
		t := p.toks[i]
		if t.used || t.kind != kWord || stopwords[t.low] || !tableWord(p.t, t.low) && !p.rootOfTable(t.low) {
			continue
		}
		if p.tableNamed(t.raw) >= 0 && !p.countsHere(i) {
			continue // the table's whole name: noted as the table
		}
		if first < 0 {
			first = i
		}
		p.toks[i].used = true
		p.subjectAt = append(p.subjectAt, i)
		p.understood(i, fmt.Sprintf("%s -> the rows of %s", t.raw, p.t.Name), t.raw+" ("+p.t.Name+")")
		cc := p.countColumn()
		if cc == nil || len(p.in.Measures) != 1 || p.in.Measures[0] != (Measure{Agg: "count"}) || !p.countsHere(i) {
			continue
		}
		p.in.Measures[0] = Measure{Column: cc.Name, Agg: "sum"}
		p.understood(i, fmt.Sprintf("%s -> sum of %s (each row of %s counts %s)", t.raw, cc.Name, p.t.Name, cc.Name), t.raw+" (sum of "+cc.Name+")")
	}
	if k := p.rowNouns(); first < 0 && k >= 0 && p.rowsAreEntities() {
		first = k // "which religion has the most respondents"
	}
	if first < 0 && p.countColumn() != nil {
		for i, t := range p.toks {
			if t.kind == kWord && p.tableNamed(t.raw) == p.tix {
				first = i // "population by age" over population(age, people)
				break
			}
		}
	}
	if first >= 0 && len(p.in.Measures) == 0 && len(p.in.Analyses) == 0 && (len(p.in.GroupBy) > 0 || p.in.Top != nil) {
		// "strikes by time of day": the table's rows, counted per group.
		m, how := Measure{Agg: "count"}, "count of rows"
		if cc := p.countColumn(); cc != nil {
			m, how = Measure{Column: cc.Name, Agg: "sum"}, "sum of "+cc.Name
		}
		p.in.Measures = append(p.in.Measures, m)
		p.understood(first, fmt.Sprintf("%s -> %s (the table's rows, per group)", p.toks[first].raw, how), p.toks[first].raw+" ("+how+")")
	}
	p.totalOfCounts()
	p.periodWords()
	p.countsOfCounts()
	return nil
}

// totalOfCounts reads "the total population" over a table of counts named
// for what it counts (population(year, age, sex, people)) as the sum of
// its count column.
func (p *parser) totalOfCounts() {
	cc := p.countColumn()
	if cc == nil || len(p.in.Measures) > 0 {
		return
	}
	for i := 0; i+1 < len(p.toks); i++ {
		w := p.low(i)
		if w != "total" && w != "sum" {
			continue
		}
		k := p.skip(i+1, "of", "the")
		if k >= len(p.toks) || p.toks[k].kind != kWord || !(tableWord(p.t, p.toks[k].low) || p.tableNamed(p.toks[k].raw) == p.tix) {
			continue
		}
		p.addMeasure(i, p.src(i, k+1), Measure{Column: cc.Name, Agg: "sum"}, fmt.Sprintf(" (each row of %s counts %s)", p.t.Name, cc.Name))
		p.use(i, k+1)
		return
	}
}

// countsOfCounts reads a count of rows over a table of counts ("the
// number of male farmers" over jobs(job, sex, year, count)) as the sum of
// its count column: each row stands for that many. Not when the request
// asks for rows or records by that name.
func (p *parser) countsOfCounts() {
	cc := p.countColumn()
	if cc == nil || slices.ContainsFunc(p.toks, func(t token) bool {
		return t.low == "rows" || t.low == "records" || t.low == "entries" || t.low == "lines"
	}) {
		return
	}
	for k, m := range p.in.Measures {
		if m != (Measure{Agg: "count"}) {
			continue
		}
		p.in.Measures[k] = Measure{Column: cc.Name, Agg: "sum"}
		for n := range p.notes {
			if src, ok := strings.CutSuffix(p.notes[n].text, " -> count of rows"); ok {
				p.notes[n].text = fmt.Sprintf("%s -> sum of %s (each row of %s counts %s)", src, cc.Name, p.t.Name, cc.Name)
				p.notes[n].short = src + " (sum of " + cc.Name + ")"
			}
		}
	}
}

// spelledTableName reads the table's name written in several tokens, its
// letters and digits the same: "S&P 500" for sp500.
func (p *parser) spelledTableName() {
	if p.t == nil {
		return
	}
	compact := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, strings.ToLower(s))
	}
	name := compact(p.t.Name)
	if len(name) < 3 {
		return
	}
	for i := range p.toks {
		got := ""
		for k := i; k < len(p.toks) && k < i+5 && p.free(k) && p.toks[k].kind != kQuoted; k++ {
			got += compact(p.toks[k].low)
			if k > i && got == name {
				p.use(i, k+1)
				p.understood(i, fmt.Sprintf("%s -> the rows of %s", p.src(i, k+1), p.t.Name), p.src(i, k+1)+" ("+p.t.Name+")")
				return
			}
			if !strings.HasPrefix(name, got) {
				break
			}
		}
	}
}

// periodWords reads the words that name the column a period is applied
// to, said as a verb ("films released in 2005" with the period on
// "Release Date", "founded before 1900" on founded_year): the period
// already says which rows they mean.
func (p *parser) periodWords() {
	var col string
	switch {
	case p.in.Time != nil && p.in.Time.Column != "":
		col = p.in.Time.Column
	case p.date != nil && slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return g.Column == p.date.Name && g.Grain != "" }):
		col = p.date.Name // "tickets created each month"
	case p.yearColumn() != nil && slices.ContainsFunc(p.in.Filters, func(f Filter) bool { return f.Column == p.yearColumn().Name }):
		col = p.yearColumn().Name
	default:
		return
	}
	for _, c := range p.t.Columns {
		if i, n := p.verbNames(&c); c.Name == col && (n == 2 || n == 1 && !p.toks[i].used) {
			// "signed up in March": the period is on signup_dt
			p.use(i, i+n)
			p.understood(i, fmt.Sprintf("%s -> the period's column %s", p.src(i, i+n), col), p.src(i, i+n)+" ("+col+")")
		}
	}
	words := nameWords(col)
	for i, t := range p.toks {
		if t.used || t.kind != kWord || stopwords[t.low] || len(t.low) < 4 {
			continue
		}
		if slices.ContainsFunc(words, func(cw string) bool { return sameWord(t.low, cw) && synonymOf(cw) != "yr" && synonymOf(cw) != "dt" }) {
			p.toks[i].used = true
			p.understood(i, fmt.Sprintf("%s -> the period's column %s", t.raw, col), t.raw+" ("+col+")")
		}
	}
}

// countsHere reports whether token i is the noun of a count phrase ("how
// many flights", "number of flights", "total departing flights").
func (p *parser) countsHere(i int) bool {
	for k := i - 1; k >= 0 && k >= i-4; k-- {
		w := p.toks[k].low
		if w == "many" || w == "number" || w == "count" || w == "total" || w == "of" && k > 0 && p.toks[k-1].low == "number" {
			return true
		}
	}
	return false
}

// tailWords follow a column's name in speech without changing what it
// names: "fertility rate", "weather type", "size category".
var tailWords = setOf("rate", "rates", "level", "levels", "figure", "figures", "value", "values", "amount",
	"amounts", "numbers", "type", "types", "category", "categories", "kind", "kinds", "group", "groups", "class",
	"series", "data", "column", "field", "variable", "measure", "metric", "reading", "readings", "speed", "speeds",
	"price", "prices", "score", "scores", "index", "status", "code", "codes", "stage", "stages", "grade", "grades",
	"band", "bands", "tier", "tiers", "bracket", "brackets", "cover", "concentration", "concentrations")

// frequencyWords after "most" rank by how often a value occurs.
var frequencyWords = setOf("common", "frequent", "popular", "prevalent", "usual")

// valueNouns after a column say what it holds; unlike tailWords they may
// still abbreviate a column of their own ("rating" for perf_rt).
var valueNouns = setOf("model", "models", "name", "names", "label", "labels", "rating", "ratings")

// numericColumnWord reports whether w is a word of a numeric column's name:
// "fertility" of fert_rate, after which "rate" changes nothing. After a
// word of a text column ("status rate") a rate is a share, left to be
// reported.
func (p *parser) numericColumnWord(w string) bool {
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if isNumeric(c) && slices.ContainsFunc(nameWords(c.Name), func(cw string) bool { return sameWord(w, cw) || abbreviates(w, cw) }) {
			return true
		}
	}
	return false
}

// payPeriodSaid reports whether the free word at i is a period adverb
// ("hourly", "annual") before a word of pay read as the one measure, whose
// column's name says no period; no other column says one either.
func (p *parser) payPeriodSaid(i int) bool {
	if i+1 >= len(p.toks) {
		return false
	}
	w := strings.ToLower(p.toks[i+1].raw) // as written: a word read into a measure may be blanked
	if unitAdverbs[p.low(i)] == "" || !payWords[w] || !p.toks[i+1].used || len(p.in.Measures) != 1 {
		return false
	}
	m := p.in.Measures[0]
	c := p.columnByName(m.Column)
	if c == nil || m.Times != "" || m.Per != "" || !nameSays(m.Column, w) {
		return false
	}
	// its values must be of such a pay: a salary of 30,000 to 250,000 is
	// no hourly, nor monthly, wage
	lo, hi, ok := numRange(c)
	most := mostPaid[unitAdverbs[p.low(i)]]
	if !ok || most > 0 && hi > most || unitAdverbs[p.low(i)] == "year" && lo < 1000 {
		return false
	}
	return !slices.ContainsFunc(p.t.Columns, func(c Column) bool {
		return isNumeric(&c) && slices.ContainsFunc(nameWords(c.Name), func(w string) bool {
			return unitAdverbs[w] != "" || units[w] != "" || w == "hr" || w == "ph" || w == "pa"
		})
	})
}

// measureWordAt reports whether the word at i, read already, names the
// column of one of the measures.
func (p *parser) measureWordAt(i int) bool {
	if i < 0 || i >= len(p.toks) || !p.toks[i].used {
		return false
	}
	c, _, _ := p.colAtAny(i)
	return c != nil && slices.ContainsFunc(p.in.Measures, func(m Measure) bool { return m.Column == c.Name })
}

// mostPaid is the most a pay for a period may be: an "hourly" wage above
// 1,000 is a longer period's.
var mostPaid = map[string]float64{"hours": 1000, "day": 10000, "week": 50000, "month": 100000}

// unitOfColumn reads a unit at i followed by "of" and a numeric column:
// "years of education", "hours of overtime". It returns the column and
// the tokens read, nil if there is none.
func (p *parser) unitOfColumn(i int) (*Column, int) {
	if !measureUnits[p.low(i)] && units[p.low(i)] == "" || p.low(i+1) != "of" {
		return nil, 0
	}
	if i+2 >= len(p.toks) {
		return nil, 0
	}
	c, n, st := p.colAtAny(i + 2)
	if c == nil || st < mPart || !isNumeric(c) || isIDLike(c) || p.isYearColumn(c) || p.moneyLike(c) || !unitAgrees(c.Name, p.low(i)) {
		return nil, 0 // "hours of labor" over labor_cost, "hours of downtime" over downtime_min: another unit
	}
	return c, n + 2
}

// unitAgrees reports whether a column's name says no unit, or says the
// unit u in one of its spellings.
func unitAgrees(name, u string) bool {
	said := false
	for _, w := range nameWords(name) {
		if unitSpellings[w] == "" && units[w] == "" && !measureUnits[w] && !currencySigns[w] && !moneyWords[w] {
			continue
		}
		said = true
		if w == u || unitSpellings[w] != "" && unitSpellings[w] == unitSpellings[u] || units[w] != "" && units[w] == units[u] {
			return true
		}
	}
	return !said
}

// unitOfColumnAt reports whether the free word at i is a unit said of
// the measure after it ("avg years of experience"), not a span of time
// ("2 years of sales").
func (p *parser) unitOfColumnAt(i int) bool {
	c, n := p.unitOfColumn(i)
	return c != nil && p.free(i) && (i == 0 || p.toks[i-1].kind == kWord) && p.toks[i+n-1].used
}

// colName returns the name of the column at i, "" if none.
func (p *parser) colName(i int) string {
	if c, _, _ := p.colAtAny(i); c != nil {
		return c.Name
	}
	return ""
}

// ratePeriods are the periods an amount is said per: "40,000 a year",
// "$10/hr".
var ratePeriods = setOf("year", "annum", "month", "week", "day", "hour", "yr", "mo", "wk", "hr")

// amountRate reports whether the period at i says what an amount before
// it is per ("more than 40,000 a year", "per annum"), over a table with no
// date or year to apply a period to.
func (p *parser) amountRate(i int) bool {
	if i < 2 || p.date != nil || p.yearColumn() != nil {
		return false
	}
	if a := p.toks[i-1].low; a != "a" && a != "per" && a != "an" && a != "/" || p.toks[i-1].used {
		return false
	}
	n := p.toks[i-2]
	return n.used && n.kind == kWord && (isNumber(n.low) || scaleWords[n.low])
}

// accrualVerbs say how a measure accrued or rows came to be, after the
// measure or the rows are named: "points scored", "DVDs owned", "charges
// incurred", "babies born". None of them picks rows: "won", "made" and
// "missed" do ("shots made") and are not here.
var accrualVerbs = setOf("scored", "owned", "earned", "paid", "spent", "incurred", "received", "collected",
	"accumulated", "grabbed", "born", "committed", "recorded", "logged", "registered", "reported", "produced",
	"generated", "consumed", "used", "held", "kept", "carried", "hauled", "shipped", "delivered", "raised", "donated",
	"operate", "operated", "published", "authored", "written", "won", "played", "attended")

// pronouns open a clause of how a measure came about: "the price we
// paid".
var pronouns = setOf("we", "they", "you", "i")

// pooling go before "both years", "all months": every period at once;
// "ordered in both years" is in each of them, not pooled.
var pooling = setOf("across", "over")

// afterRead reports whether the word at i follows a word read as a column,
// a measure or the rows, with only a form of "be" between them.
func (p *parser) afterRead(i int) bool {
	k := i - 1
	for k >= 0 && (p.toks[k].low == "were" || p.toks[k].low == "was" || p.toks[k].low == "is" || p.toks[k].low == "are" ||
		p.toks[k].low == "been") {
		k--
	}
	return k >= 0 && p.toks[k].used && p.toks[k].kind == kWord
}

// scaleWords say the scale numbers are written in.
var scaleWords = setOf("thousands", "millions", "billions", "thousand", "million", "billion", "000s", "k")

// comparesGroups reports whether the comparison word at i sets the
// request's groups side by side: "compared across hotels", "compare adr
// by region", "how do hotels compare on adr", a gap "between" the values.
// "Compared with women", "compared to the west" say what with, which no
// grouping answers.
func (p *parser) comparesGroups(i int) bool {
	next := ""
	if i+1 < len(p.toks) {
		next = p.toks[i+1].low
	}
	if p.toks[i].low == "gap" || p.toks[i].low == "gaps" {
		return next == "between"
	}
	switch next {
	case "across", "by", "among", "amongst", "between", "per", "on", "over":
		return true
	}
	return i == 0 || p.toks[i-1].kind == kPunct // "compare adr across meal types"
}

// compareWords ask to set groups side by side.
var compareWords = setOf("compare", "compared", "comparing", "comparison", "contrast", "contrasted", "gap", "gaps")

// correlationWords say how a correlation is asked for or shown.
var correlationWords = setOf("strongly", "strong", "strength", "closely", "coefficient", "coefficients", "pearson", "r")

// wordOfNamed reports whether the word at i, right after words read, is
// a word of the name of a column the request uses already: "est" after
// "GDP" read as gdp_md_est.
func (p *parser) wordOfNamed(i int) bool {
	if i == 0 || !p.toks[i-1].used || p.toks[i-1].kind != kWord || len(p.toks[i].low) < 2 {
		return false
	}
	w := p.toks[i].low
	var cols []string
	for _, m := range p.in.Measures {
		cols = append(cols, m.Column)
	}
	for _, g := range p.in.GroupBy {
		cols = append(cols, g.Column)
	}
	for _, f := range p.in.Filters {
		cols = append(cols, f.Column)
	}
	for _, c := range cols {
		ws := nameWords(c)
		if len(ws) > 1 && slices.Contains(ws, w) && slices.ContainsFunc(ws, func(cw string) bool { return sameWord(p.toks[i-1].low, cw) }) {
			return true
		}
	}
	return false
}

// fillers are words that never change an answer.
var fillers = setOf("simple", "simply", "plain", "unweighted", "just", "logged", "recorded", "reported", "happened",
	"occurred", "reached", "give", "break", "show", "figure", "figures", "series", "inclusive", "onward",
	"onwards", "overall", "altogether", "actually", "exactly", "roughly", "approximately", "about", "around",
	"exist", "exists", "existed", "appear", "appears", "listed", "observed", "seen", "data", "dataset", "rows", "known",
	"covered", "represented", "survey", "surveys", "surveyed",
	"record", "records", "entries", "table", "file", "sheet", "spreadsheet", "please", "quickly", "briefly",
	"precisely", "respectively", "separately", "individually", "ones", "single", "value", "values", "number",
	"numbers", "result", "results", "answer", "summary", "stat", "stats", "incurred", "accumulated", "racked",
	"amassed", "tallied", "counted", "live", "lives", "living", "located", "reside", "resides", "involved", "involving", "featured", "featuring", "got", "gotten", "brought", "bring", "brings", "trading", "traded", "still", "currently", "took", "take", "takes", "taking",
	// how the rows came to be: "penguins measured on Biscoe"
	"measured", "sampled", "surveyed", "captured", "collected", "registered", "tracked", "monitored", "studied",
	// what a measure of time was spent on: "weeks worked"
	"worked")

// kindNouns name the kind of thing a value before them is: "Dairy
// products", "email campaigns", "Ford vehicles".
var kindNouns = setOf("products", "items", "goods", "articles", "brands", "models", "lines", "campaigns", "accounts",
	"projects", "events", "tickets", "incidents", "cases", "vehicles", "cars", "trips", "programs", "courses", "stores",
	"shops", "branches", "sites", "teams", "devices", "services", "plans", "policies", "loans", "titles", "films", "books")

// valueFrom returns where the value that ends before token i starts.
func (p *parser) valueFrom(i int) int {
	k := i - 1
	for k > 0 && !p.valueStart[k] && p.toks[k-1].used {
		k--
	}
	return k
}

// toolWords name how a number is computed or written, not what it is:
// the libraries and functions an analyst mentions, rounding, the answer's
// format. They never change which number is asked for.
var toolWords = setOf("python", "pythons", "pandas", "numpy", "scipy", "sklearn", "scikit", "statsmodels", "excel",
	"sql", "module", "modules", "library", "libraries", "package", "packages", "function", "functions", "method",
	"methods", "built", "builtin", "implementation", "implement", "apply", "applying", "perform", "performing", "use",
	"using", "utilize", "utilizing", "employ", "round", "rounded", "rounding", "decimal", "decimals", "places",
	"place", "digits", "digit", "significant", "answer", "answers", "output", "outputs", "format", "formatted",
	"report", "return", "print", "column", "columns", "field", "fields", "dataframe", "dataset", "algorithm",
	"approach", "technique", "procedure", "calculation", "calculations", "computation", "off", "nearest", "whole")

// asides reads the words left over that change nothing: a unit a number
// is to be written in ("in pounds", "as a percentage" when a share is
// asked for), a descriptive noun after a column's name, filler words, and
// "each"/"every" in a request that groups.
func (p *parser) asides() error {
	p.beforeDiscounts()
	defer p.grossOrNet()
	share := slices.ContainsFunc(p.in.Analyses, func(a string) bool { return a == AnalysisShare || a == AnalysisGrowth })
	for i := range p.toks {
		t := p.toks[i]
		if t.used || t.kind != kWord {
			continue
		}
		w := t.low
		switch {
		case (w == "percent" || w == "percentage" || w == "pct" || w == "%") && share:
		case p.valueEnd[i] && kindNouns[w]:
			// "Dairy products", "email campaigns": what the value names,
			// the rows it picks
			p.understood(i, fmt.Sprintf("%s -> what %s names", t.raw, p.src(p.valueFrom(i), i)), t.raw)
		case p.payPeriodSaid(i):
			// "avg hourly wage" over wage: the period it is paid for,
			// which the column's name leaves unsaid
			p.understood(i, fmt.Sprintf("%s -> the period %s is paid for (its name says none; read as the column)", t.raw, p.in.Measures[0].Column), t.raw)
		case p.unitOfColumnAt(i):
			// "avg years of experience": the unit the column counts
			p.understood(i, fmt.Sprintf("%s -> the unit of %s", p.src(i, i+2), p.colName(i+2)), p.src(i, i+2))
			p.use(i, i+2)
			continue
		case measureUnits[w] && (i > 0 && (p.toks[i-1].low == "in" || p.toks[i-1].low == "as" || p.toks[i-1].low == "(" && p.measureEnd == i-1) ||
			p.measureEnd == i && w != "in"):
			// "weight in kg", "city mpg", "weight (kg)": the unit the measure is in
			p.unitSaid(i)
		case ratePeriods[w] && p.amountRate(i):
			// "earn more than 40,000 a year" over a table with no dates:
			// the amount is a yearly one, as the column is
			p.understood(i-1, fmt.Sprintf("%s -> the period of the amount (the table has no dates)", p.src(i-1, i+1)), p.src(i-1, i+1))
			p.toks[i-1].used = true
		case p.scaleSaid(i):
			// "in $k", "(millions)": the unit the measure is to be shown in
		case (w == "rate" || w == "rates") && i > 0 && p.countColumnNamed(p.toks[i-1].low):
			// "bounce rate" over a column of bounces: a rate is not the
			// count it is a rate of; left to be reported
			continue
		case tailWords[w] && i > 0 && p.toks[i-1].used && p.toks[i-1].kind == kWord &&
			!(p.valueEnd[i] && (w == "rate" || w == "rates")) && (w != "rate" && w != "rates" || p.numericColumnWord(p.toks[i-1].low)):
			// "fertility rate": the column; not "return rate" after a
			// value, a share of the rows that have it, left to be reported
		case valueNouns[w] && i > 0 && p.toks[i-1].used && p.toks[i-1].kind == kWord:
			// "CPU models", "star rating": what the column before holds
		case accrualVerbs[w] && i > 0 && p.free(i-1) && pronouns[p.low(i-1)] && len(p.in.Measures) > 0:
			// "the price per litre we paid": how the measure came about
			p.use(i-1, i)
			p.understood(i-1, fmt.Sprintf("%s -> how the measure came about", p.src(i-1, i+1)), p.src(i-1, i+1))
		case accrualVerbs[w] && p.afterRead(i):
			// "points scored", "DVDs owned", "babies were born": how the
			// measure or the rows came to be
		case (w == "each" || w == "every" || w == "all") && len(p.in.GroupBy) > 0:
		case frequencyWords[w] && p.in.Top != nil && (len(p.in.Measures) == 0 || len(p.in.Measures) == 1 && p.in.Measures[0] == Measure{Agg: "count"}) && i > 0 && (p.toks[i-1].low == "most" || p.toks[i-1].low == "least") &&
			!p.free(i-1) && p.countColumn() == nil:
			// "which age band is most common": ranked by how many rows
			// have it
			p.understood(i, fmt.Sprintf("%s -> ranked by the count of rows", t.raw), t.raw)
		case w == "ever" && (p.in.Top != nil || slices.ContainsFunc(p.in.Measures, func(m Measure) bool { return m.Agg == "max" || m.Agg == "min" })):
			// "the strongest wind ever recorded": of all the rows
		case (w == "different" || w == "various" || w == "respective" || w == "individual") && i+1 < len(p.toks) && p.toks[i+1].used &&
			i > 0 && (p.toks[i-1].low == "the" || p.toks[i-1].low == "for" || p.toks[i-1].low == "across" || p.toks[i-1].low == "among") &&
			slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return nameSays(g.Column, singular(p.toks[i+1].low)) || p.colName(i+1) == g.Column }):
			// "avg precip for the different cities": the cities grouped
		case (w == "differ" || w == "differs" || w == "vary" || w == "varies") && len(p.in.GroupBy) > 0 && len(p.in.Measures) > 0:
			// "how does avg price differ between Ford and Kia": the groups
			// side by side
		case (w == "combination" || w == "combinations") && len(p.in.GroupBy) > 1 && p.in.Top == nil && p.rankBy == "" &&
			!slices.ContainsFunc(p.toks, func(t token) bool { _, ok := superlatives[t.low]; return ok }):
			// "each combination of land use and rock type": the groups of
			// both
		case units[strings.ToLower(t.raw)] != "" && strings.HasSuffix(strings.ToLower(t.raw), "s") && i >= 1 &&
			(p.toks[i-1].low == "both" || p.toks[i-1].low == "all") && (i < 2 || pooling[p.low(i-2)] || p.toks[i-2].kind == kPunct) &&
			!slices.ContainsFunc(p.toks, func(t token) bool { return t.low == "compare" || t.low == "vs" || t.low == "versus" }) &&
			p.in.Time == nil && p.in.Compare == nil && !slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return g.Grain != "" }):
			// "top trucks across both years", "avg yield, both yrs": every
			// period's rows, pooled
			from := i - 1
			if from > 0 && pooling[p.low(from-1)] {
				from--
			}
			p.understood(from, fmt.Sprintf("%s -> every row, the %s pooled", p.src(from, i+1), t.raw), p.src(from, i+1))
			p.use(from, i+1)
			continue
		case fillers[w] && !weighty[w]:
		case p.low(i+1) == "as" && p.valueStart[p.skip(i+2, "a", "an", "the")] && asVerb(w):
			// "worked as nurses", "classified as rain": the value says it
		case (w == "log" || w == "logs" || w == "register") && i > 0 && tableWord(p.t, p.toks[i-1].low):
			// "the Seattle weather log": the table itself
		case w == "gross" && moneyWords[p.next(i)] && p.grossMeasure():
			// "gross sales" over price times quantity: before discounts
			p.gross = true
		case roles[synonymOf(w)] && i > 0 && p.toks[i-1].low == "at" && p.roleApplied(synonymOf(w)):
			// "at home": the role of the columns read
		case w == "average" && i > 0 && p.toks[i-1].low == "on" && len(p.in.Measures) > 0 &&
			!slices.ContainsFunc(p.in.Measures, func(m Measure) bool { return m.Agg != "avg" }):
			// "the heaviest penguins on average": the average is the measure's
		case (w == "names" || w == "name") && p.namesShown():
			// "show their names": the ranking is of names already
		case w == "among" || w == "amongst":
		case compareWords[w] && len(p.in.GroupBy) > 0 && p.in.Compare == nil && p.comparesGroups(i):
			// "avg adr compared across hotels": the groups side by side
		case correlationWords[w] && slices.Contains(p.in.Analyses, AnalysisCorrelation):
			// "how strongly", "give me the coefficient": of the correlation
		case (w == "vs" || w == "versus" || w == "against") && slices.Contains(p.in.Analyses, AnalysisCorrelation) &&
			len(p.in.Measures) == 2 && p.measureWordAt(i-1) && p.measureWordAt(p.skip(i+1, ".")):
			// "corr ozone vs surftemp": the two measures correlated
			p.use(i, p.skip(i+1, "."))
			continue
		case w == "one" && i > 0 && p.toks[i-1].low == "which" && p.in.Top != nil:
			// "heaviest shipment - which one?": the row ranked
		case p.wordOfNamed(i):
			// "median GDP est" over gdp_md_est: the rest of the name read
		case toolWords[w] && !(i+1 < len(p.toks) && (p.toks[i+1].low == "rate" || p.toks[i+1].low == "rates")):
			// "return the result", not "return rate": a rate of returns
		case numberWords[w] != 0 || isDigits(w):
			// "to two decimal places", "3 decimals": how it is written
			if !p.decimalsAt(i) {
				continue
			}
		case isSuperlative(w) && i > 0 && (p.toks[i-1].low == "from" || p.toks[i-1].low == "to") && len(p.in.GroupBy) > 0 && len(p.in.Measures) > 0:
			// "from heaviest to lightest": the order of the groups, which
			// every ranking shows
		case (w == "share" || w == "shares" || w == "stock") && (p.next(i) == "price" || p.next(i) == "prices") ||
			w == "stock" && p.next(i) == "share":
		case w == "many" && (p.next(i) == "percent" || p.next(i) == "percentage"):
		case (w == "over" || w == "across" || w == "for" || w == "in") && p.wholeData(i+1) > i+1:
			// "over the whole dataset", "across all hours": everything,
			// which an answer without a filter already covers.
			end := p.wholeData(i + 1)
			p.use(i, end)
			continue
		default:
			continue
		}
		p.toks[i].used = true
	}
	return nil
}

// grossMeasure reports whether the request measures a price times a
// quantity, which is gross: before any discount, tax or fee.
func (p *parser) grossMeasure() bool {
	return slices.ContainsFunc(p.in.Measures, func(m Measure) bool { return m.Times != "" })
}

// beforeDiscounts reads "before (any) discounts", "ignoring discounts",
// "excluding discount" over a gross measure (price times quantity): what
// the measure is already.
func (p *parser) beforeDiscounts() {
	if !p.grossMeasure() {
		return
	}
	for i := range p.toks {
		switch p.low(i) {
		case "before", "ignore", "ignoring", "excluding", "excl", "without", "pre":
		default:
			continue
		}
		k := i + 1
		for k < len(p.toks) && slices.Contains([]string{"any", "the", "all", "-"}, p.toks[k].low) {
			k++
		}
		if k < len(p.toks) && (p.toks[k].low == "discount" || p.toks[k].low == "discounts") {
			if p.toks[k].used {
				// read as a measure of the discount column: it is not one
				raw := p.toks[k].raw
				if c, _, _ := p.colAtAny(k); c != nil {
					p.in.Measures = slices.DeleteFunc(p.in.Measures, func(m Measure) bool { return m.Column == c.Name && m.Times == "" })
					p.notes = slices.DeleteFunc(p.notes, func(n note) bool { return n.pos == k && strings.HasPrefix(n.text, raw+" -> ") })
				}
			}
			p.understood(i, p.src(i, k+1)+" -> price times quantity is before discounts", p.src(i, k+1))
			p.use(i, k+1)
			p.gross = true
		}
	}
}

// grossOrNet lifts the doubt a money word read as price times quantity
// has over a table that also has a discount (moneyMeasure) when the
// request says which: "gross sales", "before discounts".
func (p *parser) grossOrNet() {
	if !p.gross {
		return
	}
	p.in.Unknown = slices.DeleteFunc(p.in.Unknown, func(u Unknown) bool { return strings.HasSuffix(u.Reason, adjustDoubt) })
}

// wholeWords say "all of it": "the whole dataset", "the entire period",
// "all hours", "all years".
var (
	wholeWords = setOf("whole", "entire", "full", "all")
	wholeNouns = setOf("dataset", "data", "table", "file", "sample", "period", "record", "records", "history",
		"time", "rows", "observations", "entries")
)

// wholeData returns the index after "the whole dataset" or "all hours" at
// i, i when there is none. A unit of time after "all" counts only when
// no period is asked for.
func (p *parser) wholeData(i int) int {
	k := p.skip(i, "the")
	if !wholeWords[p.low(k)] {
		return i
	}
	k = p.skip(k+1, "the", "of")
	w := p.low(k)
	_, unit := units[w]
	if unit {
		unit = p.in.Time == nil && len(p.in.GroupBy) == 0
	}
	if !wholeNouns[w] && !unit && !(w == "hours" || w == "hour") && !tableWord(p.t, w) {
		return i
	}
	return k + 1
}

// rankAdjectives are superlatives that say both the direction of a ranking
// and what it ranks by: "the 5 wettest days" ranks by precipitation,
// "deadliest years" by deaths. Words are compared with a column's name
// words, the same or synonyms, in the order given.
var rankAdjectives = map[string]struct {
	desc  bool
	words []string
}{
	"wettest": {true, []string{"precipitation", "rain", "rainfall"}}, "driest": {false, []string{"precipitation", "rain", "rainfall"}},
	"rainiest": {true, []string{"precipitation", "rain", "rainfall"}}, "snowiest": {true, []string{"snow", "snowfall"}},
	"hottest": {true, []string{"max", "temperature"}}, "warmest": {true, []string{"max", "temperature"}},
	"coldest": {false, []string{"min", "temperature"}}, "coolest": {false, []string{"min", "temperature"}},
	"windiest": {true, []string{"wind"}}, "deadliest": {true, []string{"deaths", "fatalities", "killed"}},
	"heaviest": {true, []string{"weight", "mass"}}, "lightest": {false, []string{"weight", "mass"}},
	"oldest": {true, []string{"age"}}, "youngest": {false, []string{"age"}},
	"tallest": {true, []string{"height"}}, "shortest": {false, []string{"height", "length", "duration", "distance"}},
	"longest": {true, []string{"length", "duration", "expectancy", "distance"}}, "fastest": {true, []string{"speed", "acceleration"}},
	"slowest": {false, []string{"speed"}}, "cheapest": {false, []string{"price", "cost"}},
	"costliest": {true, []string{"cost", "price"}}, "priciest": {true, []string{"price", "cost"}},
	"richest": {true, []string{"income", "gdp", "wealth"}}, "poorest": {false, []string{"income", "gdp", "wealth"}},
	"busiest": {true, nil}, "loudest": {true, []string{"noise", "volume"}},
	"strongest": {true, []string{"wind", "strength", "force", "magnitude", "gust", "speed"}},
	"weakest":   {false, []string{"wind", "strength", "force", "magnitude", "gust", "speed"}},
	"deepest":   {true, []string{"depth"}}, "shallowest": {false, []string{"depth"}},
	"most-populous": {true, []string{"population"}}, "least-populous": {false, []string{"population"}},
	"most-powerful": {true, []string{"horsepower", "power", "kw", "watts"}}, "least-powerful": {false, []string{"horsepower", "power", "kw", "watts"}},
	"most-efficient": {true, []string{"mpg", "efficiency"}}, "least-efficient": {false, []string{"mpg", "efficiency"}},
	"northernmost": {true, []string{"latitude"}}, "southernmost": {false, []string{"latitude"}},
	"easternmost": {true, []string{"longitude"}}, "westernmost": {false, []string{"longitude"}},
	"highest-paid": {true, []string{"salary", "pay", "wage", "wages", "income"}},
	"lowest-paid":  {false, []string{"salary", "pay", "wage", "wages", "income"}},
}

func init() {
	for w, a := range rankAdjectives {
		if _, ok := topWords[w]; !ok {
			topWords[w] = a.desc
		}
		if _, ok := superlatives[w]; !ok {
			superlatives[w] = a.desc
		}
	}
}

// impliedMeasure gives a ranking by a superlative that names its measure
// ("wettest") that measure, when the request names none.
func (p *parser) impliedMeasure() error {
	if p.rankBy == "" || len(p.in.Measures) > 0 || p.t == nil {
		return nil
	}
	adj, ok := rankAdjectives[p.rankBy]
	if !ok && plainSuperlatives[p.rankBy] && p.in.Top != nil && p.in.Top.Column == "" {
		// "the lowest airport in Brazil" over airports(elevation_ft): the
		// rows ranked by the one measure they have
		if c := p.onlyMeasure(); c != nil {
			p.in.Measures = append(p.in.Measures, Measure{Column: c.Name, Agg: defaultAgg(c)})
			p.named = true
			p.understood(p.topPos, fmt.Sprintf("%s -> ranked by %s, the table's one measure", p.rankBy, c.Name), p.rankBy+" ("+c.Name+")")
		}
		return nil
	}
	if ok && adj.words == nil {
		// "busiest": the most rows
		p.in.Measures = append(p.in.Measures, Measure{Agg: "count"})
		p.understood(p.topPos, fmt.Sprintf("%s -> ranked by the count of rows", p.rankBy), p.rankBy+" (count of rows)")
		return nil
	}
	for _, want := range adj.words {
		for ci := range p.t.Columns {
			c := &p.t.Columns[ci]
			if !isNumeric(c) || isIDLike(c) {
				continue
			}
			if slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return sameWord(want, w) }) {
				m := Measure{Column: c.Name, Agg: defaultAgg(c)}
				p.in.Measures = append(p.in.Measures, m)
				p.named = true
				p.understood(p.topPos, fmt.Sprintf("%s -> ranked by %s of %s", p.rankBy, aggWords[m.Agg], c.Name), p.rankBy+" ("+c.Name+")")
				return nil
			}
		}
	}
	return nil
}

// plainSuperlatives rank by a measure they do not name.
var plainSuperlatives = setOf("highest", "lowest", "largest", "smallest", "biggest", "greatest")

// onlyMeasure returns the chosen table's one numeric column that measures
// something (not an id, a year or a code), nil if it has none or several.
func (p *parser) onlyMeasure() *Column {
	var found *Column
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if !isNumeric(c) || isIDLike(c) || p.isYearColumn(c) || isFlag(c) {
			continue
		}
		if found != nil {
			return nil
		}
		found = c
	}
	return found
}

// extremeOfOneRow reads a ranking of groups by a superlative said of one
// row ("which city had the most expensive home sale", "which station had
// the wettest day") as a ranking by each group's extreme row: the city of
// the one dearest sale, not of the most sales in all.
func (p *parser) extremeOfOneRow() error {
	if p.in.Top == nil || p.in.Top.Column == "" || len(p.in.Measures) != 1 {
		return nil
	}
	m := &p.in.Measures[0]
	if m.Column == "" || m.Times != "" || m.Per != "" || m.PerEach != "" || m.Agg != "sum" && m.Agg != "avg" {
		return nil
	}
	said, desc := p.rankBy, p.in.Top.Desc
	if adj, ok := rankAdjectives[p.rankBy]; !p.singleSaid() {
		// "the most expensive sale": the adjective names the measure
		if !ok || adj.words == nil || !p.singleRowAfter(p.rankBy) || !slices.ContainsFunc(adj.words, func(w string) bool {
			return slices.ContainsFunc(nameWords(m.Column), func(cw string) bool { return sameWord(w, cw) })
		}) {
			return nil
		}
		desc = adj.desc
		for k := 1; k < len(p.toks); k++ {
			if p.toks[k-1].low == "on" && p.free(k-1) && p.free(k) && averageWords[p.toks[k].low] {
				// "which species has the heaviest fish on average": each
				// species's average weight, not its one heaviest fish
				m.Agg = "avg"
				p.use(k-1, k+1)
				p.understood(k-1, fmt.Sprintf("%s %s -> ranked by each %s's average %s", p.rankBy, p.src(k-1, k+1), p.in.Top.Column, m.Column), p.src(k-1, k+1))
				return nil
			}
		}
	} else {
		said = "single " + p.rankBy // "which site had the single lowest yield"
	}
	old := aggWords[m.Agg] + " of " + m.Column
	p.notes = slices.DeleteFunc(p.notes, func(n note) bool { return strings.HasSuffix(n.text, old) })
	m.Agg = "min"
	if desc {
		m.Agg = "max"
	}
	p.understood(p.topPos, fmt.Sprintf("%s -> ranked by each %s's %s %s", said, p.in.Top.Column, aggWords[m.Agg], m.Column), said)
	return nil
}

// whenOfAnExtreme reads "when was the highest tmax" and "max precip and
// the date it happened" over dated rows: the row with the extreme, which
// carries its date, not only the extreme's value.
func (p *parser) whenOfAnExtreme() error {
	if p.t == nil || p.date == nil || p.in.Top != nil || len(p.in.GroupBy) > 0 || len(p.in.Measures) != 1 || len(p.in.Analyses) > 0 {
		return nil
	}
	m := p.in.Measures[0]
	if m.Column == "" || m.Times != "" || m.Per != "" || m.PerEach != "" || m.Agg != "max" && m.Agg != "min" {
		return nil
	}
	at := -1
	for i, t := range p.toks {
		if t.kind == kWord && (t.low == "when" || (t.low == "date" || t.low == "day") && !t.used) {
			at = i
			break
		}
	}
	if at < 0 {
		return nil
	}
	p.in.Top = &TopN{N: 1, Desc: m.Agg == "max"}
	p.toks[at].used = true
	p.understood(at, fmt.Sprintf("%s -> the row with the %s %s, and its %s", p.toks[at].raw, aggWords[m.Agg], m.Column, p.date.Name), p.toks[at].raw)
	return nil
}

// flagPercent shows the average of a 0/1 column asked for as a
// percentage ("% remote by dept") in percent: the average is the share of
// rows that have it, a fraction.
func (p *parser) flagPercent() error {
	share := slices.Contains(p.in.Analyses, AnalysisShare)
	if p.t == nil || len(p.in.Measures) != 1 || share && (len(p.in.Analyses) != 1 || len(p.in.GroupBy) > 0 || len(p.in.Filters) > 0) {
		return nil
	}
	m := &p.in.Measures[0]
	c := p.columnByName(m.Column)
	if c == nil || m.Agg != "avg" || m.Scale != 0 || m.Per != "" || c.Type != "integer" || !isFlag(c) {
		return nil
	}
	if share {
		// "% of workers married": the share of the rows where it is 1,
		// the flag's average
		p.in.Analyses = nil
		p.dropNotes("-> share")
	}
	for i, t := range p.toks {
		switch t.low {
		case "%", "percent", "percentage", "pct":
			m.Scale = 0.01
			p.toks[i].used = true
			p.understood(i, fmt.Sprintf("%s -> the share of rows where %s is 1, in percent", t.raw, c.Name), t.raw)
			return nil
		}
	}
	if share {
		p.understood(0, fmt.Sprintf("share -> the share of rows where %s is 1 (its average)", c.Name), "share")
	}
	return nil
}

// shareOfATotal reads a share of a measure named without an aggregate
// ("what fraction of all logged hours were non-billable") as a share of
// its total: an average has no share.
func (p *parser) shareOfATotal() error {
	if p.t == nil || len(p.in.Measures) != 1 || !slices.Contains(p.in.Analyses, AnalysisShare) {
		return nil
	}
	m := &p.in.Measures[0]
	c := p.columnByName(m.Column)
	if c == nil || m.Agg != "avg" || m.Times != "" || m.Per != "" || m.PerEach != "" || m.Since != "" || isFlag(c) || nonAdditive(c) {
		return nil
	}
	src, unsaid := p.aggUnsaid(*m)
	if !unsaid {
		return nil
	}
	for i := 0; i+1 < len(p.toks); i++ {
		if strings.EqualFold(p.toks[i].raw, c.Name) && (personNouns[p.toks[i+1].low] || p.rowsWord(i+1)) {
			// "what share of the PhD students are married": students, which
			// "PhD" describes; a share of them, not of a total of phd
			p.in.Measures = nil
			p.dropNotes(" -> average of " + c.Name)
			p.understood(i, fmt.Sprintf("%s -> the rows of %s, which %s describes", p.src(i, i+2), p.t.Name, p.toks[i].raw), p.src(i, i+2))
			p.use(i, i+2)
			return nil
		}
	}
	m.Agg = "sum"
	p.dropNotes(" -> average of " + c.Name)
	p.understood(0, fmt.Sprintf("%s -> sum of %s (a share is of a total)", src, c.Name), src)
	return nil
}

// singleSaid reports whether the ranking's superlative comes right after
// "single" or "individual": the extreme of one row.
func (p *parser) singleSaid() bool {
	for i, t := range p.toks {
		if i > 0 && t.low == p.rankBy && (p.toks[i-1].low == "single" || p.toks[i-1].low == "individual") {
			return true
		}
	}
	return false
}

// singleRowAfter reports whether the superlative adj is said of one row:
// followed, within two words, by a noun of the rows in the singular ("the
// most expensive home sale", "the wettest day").
func (p *parser) singleRowAfter(adj string) bool {
	for i, t := range p.toks {
		if t.low != adj {
			continue
		}
		for k := i + 1; k < len(p.toks) && k <= i+2; k++ {
			w := p.toks[k].low
			if w != singular(w) {
				return false
			}
			if tableWord(p.t, w) || isCountNoun(w) || isEntityNoun(w) || w == "sale" || w == "day" || w == "transaction" {
				return true
			}
		}
	}
	return false
}

// evaluative superlatives say a ranking is wanted but not by what.
var evaluative = setOf("best", "worst", "greatest", "leading", "weakest", "poorest", "strongest", "top", "bottom")

// acrossOver reads "the average across countries for each year" as an
// average over the countries per year: with another grouping, "across X"
// says what is aggregated over, not a grouping of its own.
func (p *parser) acrossOver() error {
	// "the coldest month across all years": the years pooled, when it is
	// years a ranking of another thing is said across
	years := func(g Group) bool { yc := p.yearColumn(); return g.Grain == "year" || yc != nil && g.Column == yc.Name }
	ranksOther := p.in.Top != nil && p.in.Top.Column != "" && len(p.across) > 0 && slices.IndexFunc(p.across, years) >= 0 &&
		!slices.ContainsFunc(p.across, func(g Group) bool { return g.Column == p.in.Top.Column })
	if len(p.across) == 0 || len(p.in.GroupBy) <= len(p.across) && !ranksOther {
		return nil
	}
	for _, g := range p.across {
		p.in.GroupBy = slices.DeleteFunc(p.in.GroupBy, func(x Group) bool { return x == g })
		what := g.Column
		if g.Grain != "" {
			what = g.Grain + " of " + g.Column
		}
		p.notes = slices.DeleteFunc(p.notes, func(n note) bool { return strings.HasSuffix(n.text, "-> group by "+what) })
		p.understood(0, fmt.Sprintf("across %s -> over every %s (another grouping or ranking is asked for)", what, what), "across "+what)
	}
	return nil
}

// growthBetweenYears reads a change from one year to another on an
// integer year column ("grow from 1955 to 2005") as the two years side by
// side with the change between them, not a total over the years between.
func (p *parser) growthBetweenYears() error {
	yc := p.yearColumn()
	if yc == nil || !slices.Contains(p.in.Analyses, AnalysisGrowth) || len(p.in.GroupBy) > 0 {
		return nil
	}
	var lo, hi string
	var rest []Filter
	for _, f := range p.in.Filters {
		switch {
		case f.Column == yc.Name && f.Op == ">=" && len(f.Values) == 1:
			lo = f.Values[0]
		case f.Column == yc.Name && f.Op == "<=" && len(f.Values) == 1:
			hi = f.Values[0]
		default:
			rest = append(rest, f)
		}
	}
	if lo == "" || hi == "" {
		return nil
	}
	p.in.Filters = append(rest, Filter{Column: yc.Name, Op: "in", Values: []string{lo, hi}})
	p.in.GroupBy = append(p.in.GroupBy, Group{Column: yc.Name})
	p.understood(0, fmt.Sprintf("from %s to %s -> %s %s against %s, and the change", lo, hi, yc.Name, hi, lo), lo+" to "+hi)
	return nil
}

// rankAll reads "rank all the X" as a ranking with no cut.
func (p *parser) rankAll() error {
	if p.in.Top == nil {
		return nil
	}
	for i := range p.toks {
		w := p.toks[i].low
		if (w == "rank" || w == "ranking" || w == "list" || w == "order") && i+1 < len(p.toks) && p.toks[i+1].low == "all" {
			p.in.Top.N = 0
			p.toks[i].used, p.toks[i+1].used = true, true
			p.understood(i, p.src(i, i+2)+" -> every one, ranked", p.src(i, i+2))
			return nil
		}
	}
	return nil
}

// next returns the lower-case text of the token after i, used or not.
func (p *parser) next(i int) string {
	if i+1 < len(p.toks) {
		return p.toks[i+1].low
	}
	return ""
}

// isSuperlative reports whether w says an order: "highest", "heaviest".
func isSuperlative(w string) bool {
	_, a := superlatives[w]
	_, b := topWords[w]
	return a || b
}

func isDigits(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return w != ""
}

// decimalsAt reports whether the number at i says how many decimals or
// digits to write ("two decimal places", "3 decimals").
func (p *parser) decimalsAt(i int) bool {
	n := p.next(i)
	return n == "decimal" || n == "decimals" || n == "digits" || n == "significant" || n == "dp"
}

// asVerb reports whether w is a verb that puts a row in the class named
// after "as": "worked as", "classified as", "listed as".
func asVerb(w string) bool {
	switch w {
	case "work", "works", "serve", "serves", "count", "counts", "appear", "appears", "show", "shows":
		return true
	}
	return strings.HasSuffix(w, "ed") && len(w) >= 5
}

// colAtAny is colAt for a token read already: the numeric column it names.
func (p *parser) colAtAny(k int) (*Column, int, int) {
	if k < 0 || k >= len(p.toks) {
		return nil, 0, 0 // "art highest": nothing after the superlative
	}
	used := p.toks[k].used
	p.toks[k].used = false
	defer func() { p.toks[k].used = used }()
	return p.colAt(k, prefNum)
}

// roleApplied reports whether a column of role r was read as a measure,
// a grouping or a ranking.
func (p *parser) roleApplied(r string) bool {
	if p.t == nil {
		return false
	}
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if roleOf(c) != r {
			continue
		}
		if slices.ContainsFunc(p.in.Measures, func(m Measure) bool { return m.Column == c.Name }) ||
			slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return g.Column == c.Name }) ||
			p.in.Top != nil && p.in.Top.Column == c.Name {
			return true
		}
	}
	return false
}

// namesShown reports whether the ranking or a grouping is of a column of
// names ("CustomerName"), which "show their names" asks for.
func (p *parser) namesShown() bool {
	isName := func(col string) bool {
		ws := nameWords(col)
		return len(ws) > 0 && ws[len(ws)-1] == "name"
	}
	if p.in.Top != nil && isName(p.in.Top.Column) {
		return true
	}
	return slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return isName(g.Column) })
}

// countColumnNamed reports whether w, singular or plural, is the whole
// name of an integer column called by a plural noun: a number of things
// ("bounces", "births"), of which "w rate" is not the column.
func (p *parser) countColumnNamed(w string) bool {
	return p.t != nil && p.countColumnOf(w) != nil
}

// tableCalled reads the words before "table" (or "dataset") that spell
// parts of the chosen table's name as the table named: "the UN 1986
// table" over un86, "the risk table" over perisk; a year among them is
// the name's, not a period.
func (p *parser) tableCalled() error {
	if p.t == nil {
		return nil
	}
	name := strings.ToLower(p.t.Name)
	for e := 1; e < len(p.toks); e++ {
		if w := p.low(e); w != "table" && w != "dataset" {
			continue
		}
		k := e
		for k > 0 && e-k < 3 && p.free(k-1) {
			w := p.low(k - 1)
			switch {
			case isDigits(w) && len(w) == 4 && (strings.Contains(name, w) || strings.Contains(name, w[2:])):
			case isLetters(w) && len(w) >= 2 && strings.Contains(name, w):
			default:
				w = ""
			}
			if w == "" {
				break
			}
			k--
		}
		if k == e || k > 0 && p.toks[k-1].kind != kPunct && !stopwords[p.toks[k-1].low] {
			continue // "the 2024 sales table" over sales_2023: a word of another name before
		}
		p.use(k, e+1)
		p.understood(k, fmt.Sprintf("%s -> table %s", p.src(k, e+1), p.t.Name), p.src(k, e+1))
	}
	return nil
}

// joinVerbs say how two tables are put together: "joined on country".
var joinVerbs = setOf("joined", "join", "joining", "matched", "merged", "linked", "combined")

// joinSaid reads "joined on country" over a table joined to another as
// the join the sources already have, when country is what the two share:
// not a grouping by country.
func (p *parser) joinSaid() error {
	if p.t == nil || len(p.t.Joined) == 0 {
		return nil
	}
	for i := 0; i+2 < len(p.toks); i++ {
		if !joinVerbs[p.low(i)] || !slices.Contains([]string{"on", "via", "using", "through"}, p.low(i+1)) {
			// not "by": "customers joined by region" signed up, per region
			continue
		}
		c, n, st := p.colAt(i+2, prefAny)
		if c == nil || st < mWords || c.Via != "" || !p.sharedWithJoined(c.Name) {
			continue
		}
		p.use(i, i+2+n)
		p.understood(i, fmt.Sprintf("%s -> the tables' join on %s", p.src(i, i+2+n), c.Name), p.src(i, i+2+n))
	}
	return nil
}

// sharedWithJoined reports whether a table the chosen one joins has a
// column of this name of its own.
func (p *parser) sharedWithJoined(name string) bool {
	for _, j := range p.t.Joined {
		if k := p.tableNamed(j); k >= 0 && k != p.tix && p.ownColumn(k, name) {
			return true
		}
	}
	return false
}
