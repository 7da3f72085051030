package intent

import (
	"slices"
	"strings"
	"time"
)

// vocabularyWords are the words the parser reads by themselves: analyses
// ("distribution" is no dist column), grains ("monthly" no mon),
// superlatives, comparisons, units, money and quantity words, numbers,
// months. None of them is read as an abbreviation.
var vocabularyWords = func() map[string]bool {
	m := map[string]bool{}
	words := func(phrases ...string) {
		for _, ph := range phrases {
			for _, w := range strings.Fields(ph) {
				m[w] = true
			}
		}
	}
	for _, phs := range analysisPhrases {
		words(phs...)
	}
	for _, set := range []map[string]bool{averageWords, vocabulary, topWords, superlatives, orderVerbs, sortVerbs,
		timeOrders, changeWords, measureUnits, weighty, notGrouping, moneyWords, quantityWords, countNouns, avgWords,
		additiveWords, fillers, toolWords, tailWords, scaleWords, evaluative, priceAdjustments, categoryNouns, placeNouns} {
		for w := range set {
			words(w)
		}
	}
	// how a count is said: "distinct customers" is no disc column
	words("distinct", "unique", "different", "separate", "individual", "single")
	for _, keys := range [][]string{keys(comparators), keys(grainAdverbs), keys(units), keys(unsupported), keys(months),
		keys(numberWords), keys(ordinals), keys(lengthComparisons), keys(xoxPhrases), keys(rankAdjectives)} {
		words(keys...)
	}
	return m
}()

// Exports name columns in abbreviations nobody says aloud: "cty" and "hwy"
// for city and highway mileage, "Solar.R" for solar radiation, "hrs_worked",
// "mgr", "bldg". A request says the words. readAbbreviations lets a word
// that names nothing else in the chosen table stand for the one word of a
// column's name that abbreviates it, so the passes that follow read the
// request as if it had been written in the table's own words.

// readAbbreviations rewrites each free word of the request that names no
// column, value or table of the chosen table, and that abbreviates exactly
// one word of its columns' names, to that word.
func (p *parser) readAbbreviations() error {
	if p.t == nil {
		return nil
	}
	for i := 1; i < len(p.toks); i++ {
		if p.toks[i].low == "#" && p.toks[i-1].kind == kWord && !stopwords[p.toks[i-1].low] && !aggWord(p.toks[i-1].low) {
			// "store #", "invoice #": the thing's number, as store_no
			// names it, not a count
			p.toks[i].low, p.toks[i].kind = "no", kWord
		}
	}
	p.readElements()
	p.readHighLow()
	p.readYearColumns()
	p.readWeekdays()
	p.readUnitNames()
	p.readPerUnit()
	p.readPerCapita()
	p.readPerNames()
	p.readRuns()
	p.readAcronyms()
	defer p.readNone()
	for i := range p.toks {
		w := p.toks[i].low
		if p.free(i) && p.toks[i].kind == kWord && personNouns[w] && !p.namesData(w) {
			// "distinct employees" over emp: people name a column of
			// people, never a number ("workers" is no wks)
			if cw := p.abbreviationOf(i); cw != "" && p.onlyText(cw) {
				p.toks[i].low = cw
			}
			continue
		}
		if p.free(i) && p.toks[i].kind == kWord && placeNouns[w] && !p.namesData(w) {
			// "by location" over loc: a place names a column of places,
			// never a number
			if cw := p.abbreviationOf(i); cw != "" && p.onlyText(cw) {
				p.toks[i].low = cw
			}
			continue
		}
		if cw := p.abbreviationBeside(i); cw != "" && p.free(i) && stopwords[w] {
			p.toks[i].low = cw // "check-in" for chk_in_dt: a common verb, but the next word is the name's next
			continue
		}
		if !p.free(i) || p.toks[i].kind != kWord || !(p.unexplained(w) || p.idleUnit(w) || p.measureNoun(w) || p.tableWordAlone(i)) ||
			p.misspells(w) || p.elementAlone(w) || accrualVerbs[w] && len(w) >= 3*len(p.abbreviationOf(i)) {
			// "published" is no phd: a verb of how a measure came about
			// stands for no short column by a few of its letters
			continue
		}
		if cw := p.abbreviationOf(i); cw != "" {
			p.toks[i].low = cw
		} else if long := chatShorthand[w]; long != "" {
			p.toks[i].low = long
		}
	}
	return nil
}

// onlyText reports whether every column of the chosen table with the word
// cw in its name is a text column of names, not a yes/no flag.
func (p *parser) onlyText(cw string) bool {
	found := false
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if slices.Contains(nameWords(c.Name), cw) {
			if !isText(c) || yesNo(c) != nil {
				return false // "union members" over union_mbr: yes or no, the flagged rows
			}
			found = true
		}
	}
	return found
}

// chatShorthand are the nouns of rows people shorten in chat, read as the
// word when no column's name abbreviates them otherwise: "pts" are the
// patients of a trial unless a column says points.
var chatShorthand = map[string]string{"pts": "patients", "pt": "patient", "ppl": "people", "custs": "customers",
	"accts": "accounts", "acct": "account",
	"emps": "employees", "mgrs": "managers", "yrs": "years", "excl": "excluding", "incl": "including", "rev": "revenue"}

// measureNouns are words the parser reads for itself (a discount is taken
// off a price, a temperature is averaged, a region is a place) that
// exports abbreviate in a column's name: disc_pct, unit_prc, hrly_rt, rgn,
// cat.
var measureNouns = setOf("discount", "discounts", "price", "prices", "rate", "rates", "temperature", "weight",
	"height", "speed", "duration", "tenure", "latitude", "longitude", "margin", "rating", "score", "grade",
	"probability", "satisfaction", "rebate", "tax", "region", "regions", "category", "categories", "department",
	"departments", "country", "countries", "state", "states", "city", "cities", "product", "products", "store",
	"stores", "brand", "brands", "segment", "segments", "channel", "channels", "district", "county", "territory",
	"group", "groups", "type", "types", "yield", "yields", "income", "output", "production", "volume", "capacity",
	"area", "energy", "salary", "revenue", "expense", "expenses", "payment", "balance", "quantity", "distance",
	"length", "depth", "elevation", "population", "deaths", "births", "cases")

// measureNoun reports whether w is a measure noun that names no column,
// value or table of the chosen table as it is written: then it may be the
// abbreviated word of one column's name.
func (p *parser) measureNoun(w string) bool {
	if !measureNouns[w] || p.namesData(w) {
		return false
	}
	_, ok := p.vals["~"+norm(w)]
	return !ok
}

// tableWordAlone reports whether the word at i names nothing of the chosen
// table but a word of its name, said apart from the name's other words:
// "% in agriculture" over eu_agriculture(pct_agri) may be the column it
// abbreviates; "eu agriculture" is the table.
func (p *parser) tableWordAlone(i int) bool {
	w := p.toks[i].low
	if len(w) < 5 || !isLetters(w) || !tableWord(p.t, w) || isCountNoun(w) || isEntityNoun(w) || personNouns[w] || p.namesColumnOrValue(w) {
		return false
	}
	near := func(k int) bool {
		return k >= 0 && k < len(p.toks) && p.toks[k].kind == kWord && tableWord(p.t, p.toks[k].low)
	}
	return !near(i-1) && !near(i+1)
}

// idleUnit reports whether w is a unit of time ("weeks", "hours") that
// the chosen table has no date to apply to and no column of its own
// name: "weeks worked" over wks names the column.
func (p *parser) idleUnit(w string) bool {
	return units[w] != "" && p.date == nil && len(w) >= 4 && !p.namesData(w)
}

// unexplained reports whether w is an ordinary word of the request that
// means nothing to the parser and the chosen table yet: not a grammar or
// aggregate word, not a word of a column's name, a value or the table's
// name.
func (p *parser) unexplained(w string) bool {
	if len(w) < 3 || !isLetters(w) || stopwords[w] || aggWord(w) || vocabularyWords[w] || personNouns[w] || p.namesData(w) {
		return false // people name rows, not columns: "workers" is no wks
	}
	_, ok := p.vals["~"+norm(w)]
	return !ok
}

// namesData reports whether w is a word of the chosen table's name, of a
// column's name or of a value.
func (p *parser) namesData(w string) bool {
	return tableWord(p.t, w) || p.namesColumnOrValue(w)
}

// namesColumnOrValue reports whether w is a column's name, a word of one,
// or a value of the chosen table.
func (p *parser) namesColumnOrValue(w string) bool {
	for ci := range p.t.Columns {
		if strings.EqualFold(p.t.Columns[ci].Name, w) {
			return true // "studyhrs" is StudyHrs, not an abbreviation of its study
		}
		for _, cw := range nameWords(p.t.Columns[ci].Name) {
			if sameWord(w, cw) {
				return true
			}
		}
	}
	_, ok := p.vals[w]
	return ok
}

// misspells reports whether w looks like a column's word of five letters
// or more written with a slip ("prodcts" for product), which is reported
// as such rather than read as an abbreviation of another ("pct").
func (p *parser) misspells(w string) bool {
	for ci := range p.t.Columns {
		for _, cw := range nameWords(p.t.Columns[ci].Name) {
			if len(cw) >= 5 && distance(w, cw) <= 2 {
				return true
			}
		}
	}
	return false
}

// abbreviationOf returns the one word of the chosen table's column names
// that the word at i abbreviates, "" if none or more than one. A name's
// one-letter word ("r" of Solar.R) is an initial only beside another word
// of the same name: "solar radiation".
func (p *parser) abbreviationOf(i int) string {
	w := p.toks[i].low
	found := ""
	for ci := range p.t.Columns {
		cws := nameWords(p.t.Columns[ci].Name)
		for k, cw := range cws {
			ok := abbreviates(w, cw) || measureNouns[w] && len(cw) >= 3 && strings.HasPrefix(w, cw) && isLetters(cw)
			if !ok && len(cw) <= 2 && len(cws) >= 2 && strings.HasPrefix(w, cw) {
				// "solar radiation" for Solar.R, "equivalised income" for
				// eqIncome: a short word of a name, beside its other word
				ok = k > 0 && p.wordIs(i-1, cws[k-1]) || k+1 < len(cws) && p.wordIs(i+1, cws[k+1])
			}
			switch {
			case !ok || cw == found:
			case found != "":
				return "" // "hwy" and "hw": not this pass's to choose
			default:
				found = cw
			}
		}
	}
	return found
}

// abbreviationBeside returns the one word of a column's name that the
// word at i abbreviates when the word after it (past a hyphen) is that
// name's next word: "check in" and "check-ins" for chk_in_dt; "" if none.
func (p *parser) abbreviationBeside(i int) string {
	w, next := p.toks[i].low, p.skip(i+1, "-")
	found := ""
	for ci := range p.t.Columns {
		cws := nameWords(p.t.Columns[ci].Name)
		for k := 0; k+1 < len(cws); k++ {
			if !abbreviates(w, cws[k]) || !p.wordIs(next, cws[k+1]) && !(next < len(p.toks) && singular(p.low(next)) == cws[k+1]) {
				continue
			}
			if found != "" && found != cws[k] {
				return ""
			}
			found = cws[k]
		}
	}
	return found
}

// wordIs reports whether the word token at i names the column word cw.
func (p *parser) wordIs(i int, cw string) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == kWord && (sameWord(p.toks[i].low, cw) || abbreviates(p.toks[i].low, cw))
}

// abbreviates reports whether cw, a word of a column's name, is written
// as people abbreviate w: its beginning ("precip" for precipitation,
// "displ" for displacement, "rel" for relative), or its first letters
// and then consonants only, ending as w ends ("cty" for city, "hwy" for
// highway, "mgr" for manager, "dept" for department, "hrs" for hours);
// two letters stand for a short word only, ending as it ends ("yr",
// "wt", "st" for state, "dt" for date; not "dt" for displacement, "co"
// for county).
// A word that only grows from cw ("country" from count, "agent" from age)
// is not an abbreviation of it.
func abbreviates(w, cw string) bool {
	if len(cw) < 2 || len(w) <= len(cw) || len(w) < 4 || w[0] != cw[0] || !isLetters(cw) || !isLetters(w) {
		return false // "pts" is shorthand itself, not a word "ps" abbreviates
	}
	if strings.HasPrefix(w, cw) && len(cw) > 2 {
		// "precip" for precipitation; "crim" for crime, a silent e left off
		return len(cw) >= 3 && len(w)-len(cw) >= 3 && !grownFrom(w, cw) || len(cw) >= 4 && w == cw+"e"
	}
	sw, scw := w, cw
	if !strings.HasSuffix(w, "s") || !strings.HasSuffix(cw, "s") {
		sw = singular(w) // "hrs" for hours, "cty" for cities, not "sys" for stay
	}
	if e, ok := strings.CutSuffix(sw, "e"); ok && len(scw) >= 2 && len(e) > len(scw) && scw[len(scw)-1] != 'e' {
		sw = e // "svc" for service, "st" for state, "rt" for rate: a silent e left off
	}
	if len(sw) <= len(scw) || len(scw) == 2 && len(sw) > 6 || sw[len(sw)-1] != scw[len(scw)-1] {
		return false
	}
	k := 0
	for k < len(scw) && scw[k] == sw[k] {
		k++
	}
	j := k
	for _, c := range []byte(scw[k:]) {
		if strings.IndexByte("aeiou", c) >= 0 {
			return false
		}
		for j < len(sw) && sw[j] != c {
			j++
		}
		if j == len(sw) {
			return false
		}
		j++
	}
	return true
}

// grownFrom reports whether w is cw with an ending that makes another
// word of it: "counter", "country", "rental", "shipping".
func grownFrom(w, cw string) bool {
	rest := w[len(cw):]
	if len(rest) > 1 && rest[0] == cw[len(cw)-1] {
		rest = rest[1:] // "shipping" from ship
	}
	switch rest {
	case "s", "es", "ed", "er", "ers", "or", "ors", "ing", "ings", "ly", "ry", "y", "ies", "al", "als",
		"ful", "ness", "ment", "ments", "ity", "ive", "ist", "ists", "ism", "ion", "ions", "nt", "nts", "ent",
		"ents", "ant", "ants", "age", "ages", "ance", "ence":
		return true
	}
	return false
}

// american spells a British word the American way, so that "colour" names
// a column "color" and "labour" one "labor": -our, -tre, -ise, -yse,
// -isation, -ogue, a doubled l before -ed and -ing.
func american(w string) string {
	for _, r := range [][2]string{
		{"isation", "ization"}, {"isations", "izations"}, {"ise", "ize"}, {"ised", "ized"}, {"ising", "izing"},
		{"yse", "yze"}, {"ysed", "yzed"}, {"tre", "ter"}, {"tres", "ters"}, {"ogue", "og"}, {"ogues", "ogs"},
		{"lled", "led"}, {"lling", "ling"}, {"ence", "ense"},
	} {
		if r0, ok := strings.CutSuffix(w, r[0]); ok && len(r0) >= 3 {
			return r0 + r[1]
		}
	}
	if i := strings.Index(w, "our"); i >= 2 && len(w) >= 6 {
		return w[:i] + "or" + w[i+3:] // "colour", "labourers", "harbours"
	}
	return w
}

// readAcronyms reads words whose initials spell the one column word
// written as their acronym: "length of stay" for LOS.days, "blood
// pressure" for Sys.BP, "return on investment" for roi. The phrase
// becomes one token spelled as that word. Its first and last words must
// mean nothing else to the parser; the words between may be small ones
// ("of", "on").
func (p *parser) readAcronyms() {
	for i := 0; i < len(p.toks); i++ {
		found, k := "", 0
		for ci := range p.t.Columns {
			ws := nameWords(p.t.Columns[ci].Name)
			for _, cw := range ws {
				// adr_usd is adr said in its unit: its whole name still
				whole := !slices.ContainsFunc(ws, func(w string) bool { return w != cw && !measureUnits[w] && unitSpellings[w] == "" })
				if n := len(cw); n < 2 || n > 5 || !isLetters(cw) || wordAliases[cw] != "" || !p.initials(i, cw, whole) || cw == found {
					continue
				}
				if found != "" {
					found = "-" // two columns' acronyms: not this pass's to choose
					continue
				}
				found, k = cw, len(cw)
			}
		}
		if found == "" || found == "-" {
			continue
		}
		if averageWords[p.toks[i].low] && k >= 3 {
			// "average daily rate" over adr_usd: the average of adr, the
			// average word left to say so
			p.join(i+1, i+k, found)
			continue
		}
		p.join(i, i+k, found)
	}
}

// initials reports whether the free words from i spell cw by their first
// letters, the first and the last unexplained; any word may come between.
// When cw is a column's whole name, its last word may be one the parser
// knows, as the noun of a measure is: "performance status" for ps,
// "testicular volume" for tv.
func (p *parser) initials(i int, cw string, whole bool) bool {
	if i+len(cw) > len(p.toks) {
		return false
	}
	for k := range len(cw) {
		t := p.toks[i+k]
		if !p.free(i+k) || t.kind != kWord || t.low == "" || t.low[0] != cw[k] {
			return false
		}
		// a stop word or a word of another column may come between
		// the first and the last: "gross state product" for gsp; an
		// acronym of three letters or more may be of words the parser
		// knows ("gross"), but not of words of the data
		inside := k > 0 && k < len(cw)-1
		known := len(cw) >= 3 || whole && k == len(cw)-1
		// "average daily rate" is adr itself: a whole name may start with
		// the average its initial stands for
		avgFirst := whole && k == 0 && len(cw) >= 3 && averageWords[t.low]
		ends := p.unexplained(t.low) || avgFirst ||
			known && isLetters(t.low) && !stopwords[t.low] && !p.namesData(t.low) && !aggWord(t.low) && !averageWords[t.low]
		if !ends && !(inside && isLetters(t.low)) {
			return false
		}
	}
	return true
}

// Exports also run a phrase's words together, each cut short: bluecol
// for blue collar, foodexp for food expenditure, lwage for log wage,
// ptratio for pupil-teacher ratio. readRuns reads two to four words in a
// row whose beginnings spell a column's whole name as that name.

// readRuns rewrites each run of two to four free words whose beginnings,
// in order, spell exactly one column word of the chosen table to that
// word, as readAcronyms does for initials.
func (p *parser) readRuns() {
	for i := 0; i < len(p.toks); i++ {
		found, end := "", 0
		for ci := range p.t.Columns {
			for _, cw := range nameWords(p.t.Columns[ci].Name) {
				if len(cw) < 4 || !isLetters(cw) || cw == found {
					continue
				}
				if e := p.runSpells(i, cw); e > 0 {
					if found != "" {
						found = "-" // two columns: not this pass's to choose
						continue
					}
					found, end = cw, e
				}
			}
		}
		if found == "" || found == "-" {
			continue
		}
		p.join(i, end, found)
	}
}

// join makes the tokens from i to end one word token, low: the words of
// a column's name run together, read as that name.
func (p *parser) join(i, end int, low string) {
	t := &p.toks[i]
	t.low, t.end = low, p.toks[end-1].end
	t.raw = p.text[t.start:t.end]
	cut := end - i - 1
	p.toks = slices.Delete(p.toks, i+1, end)
	shift := func(k int) int {
		if k > i {
			return k - cut
		}
		return k
	}
	qcols, qvals := map[int]colRef{}, map[int][]valRef{}
	for k, v := range p.qcols {
		qcols[shift(k)] = v
	}
	for k, v := range p.qvals {
		qvals[shift(k)] = v
	}
	p.qcols, p.qvals = qcols, qvals
}

// runSpells returns the index after the words from i whose beginnings
// spell cw, 0 if none: two to four free words, hyphens between them
// skipped, no stop word but one of three letters or more that ends cw
// whole, one of them at least three letters of cw, and no word that is
// already all of cw.
func (p *parser) runSpells(i int, cw string) int {
	var spell func(k, at, words int, long bool) int
	spell = func(k, at, words int, long bool) int {
		if at == len(cw) {
			if words >= 2 && long {
				return k
			}
			return 0
		}
		k = p.skip(k, "-")
		if words == 4 || k >= len(p.toks) || !p.free(k) || p.toks[k].kind != kWord || !isLetters(p.low(k)) ||
			vocabularyWords[p.low(k)] && words == 0 {
			return 0 // "distinct customers" is no disc column
		}
		w := p.low(k)
		if stopwords[w] && (words == 0 || len(w) < 3 || cw[at:] != w || listJoins[w] || at < 3) {
			// "land use" for landuse: a small word whole at the name's
			// end, after three letters of it at least; never the first,
			// nor a part of one, nor "and" ("b and" is no band)
			return 0
		}
		if sameWord(w, cw) {
			return 0 // the column named by its word: no run
		}
		for n := min(len(w), len(cw)-at); n >= 1; n-- {
			if w[:n] != cw[at:at+n] {
				continue
			}
			if e := spell(k+1, at+n, words+1, long || n >= 3); e > 0 {
				return e
			}
		}
		return 0
	}
	if p.toks[i].kind != kWord || p.low(i) == "-" {
		return 0
	}
	return spell(i, 0, 0, false)
}

// readUnitNames reads a unit spelled out ("kilos", "hours") as the unit
// word of the one numeric column whose name holds it short (yld_kg,
// hrs_to_res): "total kilos of tomato" is the total of yld_kg.
func (p *parser) readUnitNames() {
	for i := range p.toks {
		w := p.low(i)
		if unitSpellings[w] == "" || p.toks[i].kind != kWord || p.namesColumnOrValue(w) {
			continue
		}
		found := p.unitName(w, false)
		if found == "-" {
			// "litres brewed" over batches(vol_l) joined to tanks(cap_l):
			// the rows' own litres
			found = p.unitName(w, true)
		}
		if found != "" && found != "-" {
			p.toks[i].low = found
		}
	}
}

// unitName returns the name by which the unit w names a numeric column
// of the chosen table (the column's other word: "vol" for vol_l), "-"
// when it names two, "" when none; own keeps to the columns the table
// has of its own, not through a join.
func (p *parser) unitName(w string, own bool) string {
	found := ""
	for ci := range p.t.Columns {
		if c := &p.t.Columns[ci]; !isNumeric(c) || isIDLike(c) || own && p.joinedColumn(c) {
			continue
		}
		ws := nameWords(p.t.Columns[ci].Name)
		for k, cw := range ws {
			if cw == w || unitSpellings[cw] != unitSpellings[w] {
				continue
			}
			// the unit is no name of its own: the column's other word is
			name := cw
			if others := slices.Delete(slices.Clone(ws), k, k+1); len(others) == 1 {
				name = others[0]
			}
			if found != "" && found != name {
				found = "-" // two columns in that unit: not this pass's to choose
			} else if found == "" {
				found = name
			}
		}
	}
	return found
}

// joinedColumn reports whether c is a column the chosen table has through
// a join: marked so, or, unmarked, one of a table it joins has a column of
// that name.
func (p *parser) joinedColumn(c *Column) bool {
	return c.Via != "" || p.sharedWithJoined(c.Name)
}

// unitAdverbs say a measure is per a unit of time: "hourly wage" over
// wage_hr, "annual income" over inc_yr.
var unitAdverbs = map[string]string{"hourly": "hours", "daily": "day", "weekly": "week", "monthly": "month",
	"yearly": "year", "annual": "year", "annually": "year"}

// payWords are amounts paid for a time worked or used.
var payWords = setOf("pay", "wage", "wages", "salary", "earnings", "cost", "costs", "fee", "fees", "rent", "charge", "charges")

// readPerUnit reads an adverb of a unit of time before a word of a column
// whose name ends in that unit ("hourly wage" over wage_hr) as that
// column's unit word, so that the two words name the column and no grain
// of the dates is asked for.
func (p *parser) readPerUnit() {
	for i := 0; i+1 < len(p.toks); i++ {
		unit := unitAdverbs[p.low(i)]
		if w := p.low(i + 1); unit == "" || p.toks[i+1].kind != kWord || !moneyWords[w] && !avgWords[w] && !measureNouns[w] && !payWords[w] {
			continue // "hourly wage" is per hour; "hourly trips" a count of trips each hour
		}
		found := ""
		for ci := range p.t.Columns {
			ws := nameWords(p.t.Columns[ci].Name)
			if !isNumeric(&p.t.Columns[ci]) || len(ws) < 2 || !slices.ContainsFunc(ws, func(cw string) bool { return p.wordIs(i+1, cw) }) {
				continue
			}
			for _, cw := range ws {
				if (units[cw] == unit || unitSpellings[cw] != "" && unitSpellings[cw] == unitSpellings[unit]) && cw != found {
					if found != "" {
						found = "-" // two columns: not this pass's to choose
						break
					}
					found = cw
				}
			}
		}
		if found != "" && found != "-" {
			p.toks[i].low = found
		}
	}
}

// readPerNames reads "price per room" as the column avg_price_per_room
// whose name says it: the words around "per" are that name's, not a ratio
// to compute.
func (p *parser) readPerNames() {
	for i := 1; i+1 < len(p.toks); i++ {
		if p.low(i) != "per" || !p.free(i-1) || !p.free(i+1) {
			continue
		}
		found := ""
		for ci := range p.t.Columns {
			ws := nameWords(p.t.Columns[ci].Name)
			for k := 1; k+1 < len(ws); k++ {
				if ws[k] == "per" && p.wordIs(i-1, ws[k-1]) && p.wordIs(i+1, ws[k+1]) {
					if found != "" && found != strings.ToLower(p.t.Columns[ci].Name) {
						found = "-" // two such columns: not this pass's to choose
					} else if found == "" {
						found = strings.ToLower(p.t.Columns[ci].Name)
					}
				}
			}
		}
		if found != "" && found != "-" {
			p.join(i-1, i+2, found)
		}
	}
}

// perCapitaEnds end the names of columns that are per person already:
// gdp_pc, gdpPercap.
var perCapitaEnds = setOf("pc", "percap", "percapita", "pcap")

// perCapitaStem returns the words of a column's name before its ending
// per person, nil if it has none: [gdp] for gdp_pc and gdpPercap.
func perCapitaStem(cw []string) []string {
	n := len(cw)
	switch {
	case n >= 2 && perCapitaEnds[cw[n-1]]:
		return cw[:n-1]
	case n >= 3 && cw[n-2] == "per" && cw[n-1] == "cap":
		return cw[:n-2]
	}
	return nil
}

// readPerCapita reads "GDP per capita" as the column gdp_pc (or gdpPercap)
// when the table has one: a measure per person already is not divided by
// the population again.
func (p *parser) readPerCapita() {
	for i := 1; i+1 < len(p.toks); i++ {
		if p.low(i) != "per" || p.low(i+1) != "capita" {
			continue
		}
		for ci := range p.t.Columns {
			stem := perCapitaStem(nameWords(p.t.Columns[ci].Name))
			if stem == nil {
				continue
			}
			for k := i - 1; k >= max(0, i-len(stem)); k-- {
				if n, ok := p.wordsAt(k, stem); ok && k+n == i {
					p.join(k, i+2, strings.ToLower(p.t.Columns[ci].Name))
					i = k
					break
				}
			}
			if p.low(i) != "per" {
				break
			}
		}
	}
}

// weekdayOf returns the day of the week a value or word names in full or by
// its first three letters or more ("Sun", "Thur"), "" if none.
func weekdayOf(w string) string {
	w = strings.ToLower(w)
	for wd := range time.Weekday(7) {
		if d := strings.ToLower(wd.String()); len(w) >= 3 && strings.HasPrefix(d, w) {
			return d
		}
	}
	return ""
}

// weekdayColumn returns the chosen table's one text column whose values
// are all days of the week ("Thur", "Fri", "Sat", "Sun"), nil if none.
func (p *parser) weekdayColumn() *Column {
	var found *Column
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if !isText(c) || len(c.Values) < 2 || slices.ContainsFunc(c.Values, func(v string) bool { return weekdayOf(v) == "" }) {
			continue
		}
		if found != nil {
			return nil
		}
		found = c
	}
	return found
}

// readWeekdays reads, over a table with a column of days of the week and
// no date to take them from, "day of the week" as that column and
// "Sundays" as its value "Sun".
func (p *parser) readWeekdays() {
	if p.date != nil {
		return
	}
	c := p.weekdayColumn()
	if c == nil {
		return
	}
	for i := 0; i < len(p.toks); i++ {
		if !p.free(i) || p.toks[i].kind != kWord {
			continue
		}
		if ph, n := p.anyPhrase(i, []string{"day of the week", "day of week", "days of the week", "weekday", "weekdays"}); n > 0 && ph != "" {
			p.join(i, i+n, strings.ToLower(c.Name))
			continue
		}
		w := p.toks[i].low
		d := weekdayOf(singular(w))
		if d == "" || len(w) < 6 || p.namesColumnOrValue(w) {
			continue // "sun" itself is the value already; "mon" may be a month
		}
		for _, v := range c.Values {
			if weekdayOf(v) == d {
				p.toks[i].low = strings.ToLower(v)
				break
			}
		}
	}
}

// readNone reads "no" or "zero" before the name of a column that counts
// things as the number 0: "students who published no articles" are those
// whose art is 0. A column the word is part of ("no_show") keeps it.
func (p *parser) readNone() {
	for i := 0; i+1 < len(p.toks); i++ {
		if w := p.low(i); w != "no" && w != "zero" || p.toks[i].kind != kWord || p.namesColumnOrValue(w) || p.toks[i+1].kind != kWord {
			continue
		}
		c, k, _ := p.colAt(i+1, prefNum)
		if c == nil || k != 1 || c.Type != "integer" || isIDLike(c) || p.isYearColumn(c) || !inRange(c, "0") {
			continue // "no rating" over ratings of 1 to 5: unrated, not 0
		}
		p.toks[i].low = "0"
	}
}

// highLow are the adjectives people say for the max and min of a pair of
// columns: a day's high and low temperature are its max_temp and
// min_temp.
var highLow = map[string]string{"high": "max", "hi": "max", "low": "min", "lo": "min"}

// readHighLow rewrites "high" or "low" before the other word of a column
// named max or min with it ("low temperature" over min_temp_f) to that
// max or min, when the table names the pair.
func (p *parser) readHighLow() {
	for i := 0; i+1 < len(p.toks); i++ {
		ext, ok := highLow[p.low(i)]
		if !ok || p.toks[i].kind != kWord || p.isValue(i) || p.inValue(p.low(i)) {
			continue
		}
		if b := p.toks[max(i-1, 0)].low; i > 0 && (b == "a" || b == "an") {
			continue // "days with a high temperature": hot days, no column
		}
		next := p.low(i + 1)
		var pair [2]*Column
		var found [2]int
		for k, e := range []string{"max", "min"} {
			for ci := range p.t.Columns {
				c := &p.t.Columns[ci]
				ws := nameWords(c.Name)
				if isNumeric(c) && slices.Contains(ws, e) && slices.ContainsFunc(ws, func(w string) bool {
					return w != e && (sameWord(next, w) || abbreviates(next, w) || abbreviates(w, next))
				}) {
					pair[k] = c
					found[k]++
				}
			}
		}
		if found[0] != 1 || found[1] != 1 {
			continue // none, or two pairs (°F and °C): which is not said
		}
		c := pair[0]
		if ext == "min" {
			c = pair[1]
		}
		// the two words are the column's name, as if quoted
		p.join(i, i+2, strings.ToLower(c.Name))
		p.toks[i].kind = kQuoted
		p.qcols[i] = colRef{p.tix, c}
	}
}
