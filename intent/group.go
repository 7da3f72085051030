package intent

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

var groupTriggers = []string{"by", "per", "for each", "for every", "in each", "within each", "across", "across all",
	"across the", "each", "every", "grouped by", "group by", "groupby", "broken down by", "breakdown by",
	"break down by", "split by", "segmented by", "segment by", "sliced by", "slice by", "aggregated by", "by each",
	"per each", "by the", "for all", "among", "between the", "broken out by", "bucketed by"}

// grainAdverbs group by a date grain wherever they appear.
var grainAdverbs = map[string]string{"daily": "day", "weekly": "week", "monthly": "month", "quarterly": "quarter",
	"yearly": "year", "annually": "year", "annual": "year", "day by day": "day", "week by week": "week",
	"month by month": "month", "year by year": "year", "quarter by quarter": "quarter"}

// averageWords ask for an average.
var averageWords = setOf("average", "avg", "mean", "typical")

// periodAverage is an average per period ("average daily volume"): the
// mean over the periods of the grain of each period's measure.
type periodAverage struct {
	pos   int
	src   string
	grain string
}

// groups reads the groupings: "by month", "per region", "by state and
// product", "for each category", "breakdown by channel", "weekly". A word
// after "by" that is close to a column's name but names nothing is an
// error naming the column.
func (p *parser) groups() error {
	for i := 0; i < len(p.toks); i++ {
		if ph, n := p.anyPhrase(i, keys(grainAdverbs)); n > 0 && i > 0 && (averageWords[p.low(i-1)] || p.low(i-1) == "median") && p.readingAfter(i+n) {
			// "average daily wind speed": the average of the readings,
			// each a day's; a speed has no day's total
			p.understood(i, fmt.Sprintf("%s -> each row's reading (a %s's; it does not add up)", p.src(i, i+n), grainAdverbs[ph]), p.src(i, i+n))
			p.use(i, i+n)
			i += n - 1
			continue
		}
		if ph, n := p.anyPhrase(i, keys(grainAdverbs)); n > 0 && i > 0 && (averageWords[p.low(i-1)] || p.low(i-1) == "median") {
			// "average daily volume": an average of each day's volume,
			// not a grouping by day.
			p.perPeriod = &periodAverage{pos: i, src: p.src(i-1, i+n), grain: grainAdverbs[ph]}
			p.use(i, i+n)
			i += n - 1
			continue
		}
		if ph, n := p.anyPhrase(i, keys(grainAdverbs)); n > 0 && p.extremeOfReadings(i, n) {
			// "the strongest daily wind speed": the highest of the
			// readings, each of a day; a speed does not add up to a day's
			p.understood(i, fmt.Sprintf("%s -> each row's reading (a %s's; it does not add up)", p.src(i, i+n), grainAdverbs[ph]), p.src(i, i+n))
			p.use(i, i+n)
			i += n - 1
			continue
		}
		if ph, n := p.anyPhrase(i, keys(grainAdverbs)); n > 0 && p.date != nil {
			p.addGroup(i, p.src(i, i+n), p.date.Name, grainAdverbs[ph])
			p.use(i, i+n)
			i += n - 1
			continue
		} else if n > 0 && grainAdverbs[ph] == "year" && p.yearColumn() != nil {
			p.addGroup(i, p.src(i, i+n), p.yearColumn().Name, "")
			p.use(i, i+n)
			i += n - 1
			continue
		}
		trig, n := p.anyPhrase(i, groupTriggers)
		if n == 0 {
			continue
		}
		j := p.skip(i+n, "the", "a", "an")
		if trig == "per" && p.ratio == nil {
			c, n, st := p.colAt(j, prefNum)
			counts := p.countsOf(j)
			if counts != nil {
				c, n, st = counts, 1, mWords
			}
			if u := p.unitColumn(j); c == nil && u != nil {
				c, n, st = u, 1, mWords // "freight per kg": per the column in kg
			}
			if c != nil && st >= mWords && !isIDLike(c) && !p.isYearColumn(c) && (defaultAgg(c) == "sum" || c == counts || !nonAdditive(c) && wideNumbers(c)) {
				// "deaths per capita", "cost per mile", "revenue per
				// order" with a column of orders: divided by its total
				p.ratio = &ratioReq{pos: i, src: p.src(i, j+n), col: c.Name}
				p.use(i, j+n)
				i = j + n - 1
				continue
			}
			if c != nil && st >= mPart && !isIDLike(c) && !p.isYearColumn(c) && wideNumbers(c) {
				// "price per square foot": no grouping by each of a
				// thousand areas; a ratio, of each row or of the totals?
				// Decided once the filters are read: of one row, the two
				// are one number.
				p.ratioOfWhich = &ratioReq{pos: i, src: p.src(i, j+n), col: c.Name}
				p.use(i, j+n)
				i = j + n - 1
				continue
			}
		}
		if c, n, st := p.colAt(j, prefDim); trig == "per" && c != nil && st >= mEntity && isIDLike(c) && p.averageBefore(i) {
			// "average cost per patient" over a patient id: the total
			// shared among the patients, not a table of one row each
			p.perEach = &ratioReq{pos: i, src: p.src(i, j+n), col: c.Name}
			p.use(i, j+n)
			i = j + n - 1
			continue
		}
		if g := units[p.low(j)]; trig == "per" && p.date == nil && g != "" && p.low(j) == singular(p.low(j)) && p.onePerPeriod(g) {
			// "avg births per day" over a table of one row a day (its
			// date in year, month and day columns): a value per row
			p.perRow = true
			p.understood(i, p.src(i, j+1)+" -> a value per row (one row a "+g+")", p.src(i, j+1))
			p.use(i, j+1)
			continue
		}
		if g := units[p.low(j)]; trig == "per" && g != "" && g != "year" && p.date == nil && p.yearColumn() == nil && !p.hasTimeParts() &&
			p.low(j) == singular(p.low(j)) && j == i+1 && p.countBefore(i) {
			// "avg study hours per week" over a table with no dates: the
			// period the column is counted over, which nothing here can
			// group or divide by
			p.understood(i, fmt.Sprintf("%s -> the period the column before is counted over (the table has no dates)", p.src(i, j+1)), p.src(i, j+1))
			p.use(i, j+1)
			continue
		}
		if trig == "per" && isCountNoun(p.low(j)) && p.low(j) == singular(p.low(j)) {
			// "revenue per order" with no column of orders: an average
			// over rows, not a grouping.
			p.perRow = true
			p.understood(i, p.src(i, j+1)+" -> a value per row", p.src(i, j+1))
			p.use(i, j+1)
			continue
		}
		before := len(p.in.GroupBy)
		end, err := p.groupList(i, j, trig)
		if err != nil {
			return err
		}
		if trig == "across" || trig == "across all" || trig == "across the" {
			for k := before; k < len(p.in.GroupBy); k++ {
				p.across = append(p.across, p.in.GroupBy[k])
			}
		}
		if end > j {
			p.use(i, end)
			i = end - 1
		}
	}
	return nil
}

// wideNumbers reports whether numeric column c holds measurements, not
// codes to group by: fractions, or a range of more than a hundred.
func wideNumbers(c *Column) bool {
	lo, err1 := strconv.ParseFloat(c.Min, 64)
	hi, err2 := strconv.ParseFloat(c.Max, 64)
	return c.Type == "float" || err1 == nil && err2 == nil && hi-lo > 100
}

// countsOf returns the integer column that counts the thing the noun
// at j names, by its plural ("orders" for "per order", "calls" for "per
// call"), nil if none: a count adds up, whatever its name.
func (p *parser) countsOf(j int) *Column {
	w := p.low(j)
	if p.t == nil || !p.free(j) || !isCountNoun(w) || singular(w) != w {
		return nil
	}
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if cw := nameWords(c.Name); c.Type == "integer" && len(cw) == 1 && cw[0] != w && singular(cw[0]) == w && !isIDLike(c) {
			return c
		}
	}
	return nil
}

// groupList reads dimensions joined by "and", "," or "&" from j, after the
// trigger at i, and returns the index after the last one read.
func (p *parser) groupList(i, j int, trig string) (int, error) {
	end := j
	for {
		k, ok, err := p.dimension(j, trig)
		if err != nil || !ok {
			return end, err
		}
		if end == j {
			p.addGroup(i, p.src(i, k), p.pending.col, p.pending.grain)
		} else {
			p.addGroup(j, p.src(j, k), p.pending.col, p.pending.grain)
		}
		end = k
		next := p.skip(k, "and", ",", "&", "then", "/", "+", "x", "×") // "by hotel x meal"
		if next == k {
			return end, nil
		}
		j = p.skip(next, "the", "by", "per")
	}
}

// pendingGroup is the last dimension dimension() read.
type pendingGroup struct {
	col, grain string
}

// dimension reads one grouping dimension at j: a date grain, a text or
// date column, or a small-integer column.
func (p *parser) dimension(j int, trig string) (int, bool, error) {
	p.pending = pendingGroup{}
	if !p.free(j) {
		return j, false, nil
	}
	if p.low(j) == "number" && p.low(j+1) == "of" {
		if c, _, s := p.colAt(j+2, prefDim); c != nil && s >= mEntity && c.Type == "integer" {
			j += 2 // "by number of cylinders": the column holds the number
		}
	}
	if p.low(j) == "calendar" && units[p.low(j+1)] != "" {
		p.use(j, j+1) // "per calendar year": a year
		j++
	}
	w := p.low(j)
	if c, _, st := p.colAt(j+1, prefNum); trig == "by" && c != nil && st >= mWords && p.free(j) && p.toks[j].kind == kWord &&
		(tableWord(p.t, w) || isEntityNoun(w)) && !p.modifierOfDimension(j, trig) {
		// "bookings by hotel adr_usd": a number whose rows the word names,
		// no grouping; reported once nothing ranks by it
		p.byNumber = append(p.byNumber, j+1)
		return j, false, nil
	}
	if c, _, _ := p.colAt(j, prefAny); c == nil && p.modifierOfDimension(j, trig) {
		// "by office location": the location, which "office" describes
		c, n, _ := p.colAt(j+1, prefDim)
		p.understood(j, fmt.Sprintf("%s -> %s (%s describes it)", p.src(j, j+1+n), c.Name, p.toks[j].raw), p.src(j, j+1+n))
		p.use(j, j+1)
		j++
	}
	if c, n, s := p.colAt(j, prefDim); c != nil && s >= mEntity {
		if c2, n2, s2 := p.colAt(j+n, prefDim); c2 != nil && c2 != c && s2 >= mWords && isText(c2) && !isDate(c) {
			// "by customer segment", "per product category": the
			// segment of the customer, the category of the product.
			c, n = c2, n+n2
		}
		switch {
		case isDate(c):
			grain := "day"
			if g, ok := units[p.low(j+n)]; ok {
				grain, n = g, n+1
			} else if ws := nameWords(c.Name); len(ws) == 1 && units[ws[0]] != "" {
				grain = units[ws[0]] // a date column called "year" holds years
			}
			p.pending = pendingGroup{c.Name, grain}
			return j + n, true, nil
		case isNumeric(c) && (c.Type == "float" || p.moneyLike(c) || p.quantityLike(c)):
			p.byNumber = append(p.byNumber, j)
			return j, false, nil // "by revenue": what to rank by, not a grouping
		case isNumeric(c) && trig == "by" && p.in.Top != nil && !p.isYearColumn(c) && !isIDLike(c):
			// "top 5 countries by population", "top 5 cars by
			// horsepower": what to rank by
			return j, false, nil
		case isNumeric(c) && !p.isYearColumn(c) && !isIDLike(c) && defaultAgg(c) == "sum" && (!fewLevels(c) || p.orderedBy(j)):
			p.byNumber = append(p.byNumber, j)
			return j, false, nil // "by population": an amount to rank by, not a grouping
		}
		if lc := strings.ToLower(c.Name); trig == "per" && isNumeric(c) && n == 1 && lc != w && singular(lc) == w {
			// "fees per chair" over chairs: a rate per chair, not a
			// grouping by how many chairs
			return j, false, nil
		}
		p.pending = pendingGroup{c.Name, ""}
		return j + n, true, nil
	}
	if g, ok := units[w]; ok || w == "date" || w == "dates" {
		if !ok {
			g = "day"
		}
		if p.date == nil {
			return j, false, nil
		}
		p.pending = pendingGroup{p.date.Name, g}
		return j + 1, true, nil
	}
	if c, k := p.categoryDimension(j); c != nil {
		p.pending = pendingGroup{c.Name, ""}
		return k, true, nil
	}
	if c := p.sexColumn(j); c != nil {
		p.pending = pendingGroup{c.Name, ""}
		return j + 1, true, nil
	}
	if trig == "per" || trig == "by" || strings.HasSuffix(trig, " by") || trig == "for each" || trig == "groupby" {
		if err := p.misspelt(j); err != nil {
			return j, false, err
		}
	}
	return j, false, nil
}

// categoryNouns name a grouping without naming a column: "by type", "per
// industry", "for each category".
var categoryNouns = setOf("type", "types", "kind", "kinds", "category", "categories", "class", "classes", "group",
	"groups", "sector", "sectors", "industry", "industries", "segment", "segments", "genre", "genres", "division",
	"divisions", "classification", "variety", "varieties", "sort", "sorts")

// categoryDimension reads a grouping said with a category noun at j:
// "region of origin" (the noun, "of" and a column: that column), or
// "by industry" and "type of disaster" (the noun alone, or "of" and the
// table's subject) over a table with exactly one category column: that
// column, and Understood says it was the only one. It returns the column,
// nil if none, and the index after the words read.
func (p *parser) categoryDimension(j int) (*Column, int) {
	w := p.low(j)
	if !categoryNouns[w] && !placeNouns[w] {
		return nil, j
	}
	end := j + 1
	if p.low(j+1) == "of" {
		k := p.skip(j+2, "the", "a", "an")
		if c, n, s := p.colAt(k, prefDim); c != nil && s >= mWords && isText(c) {
			return c, k + n
		}
		if !p.free(k) || p.toks[k].kind != kWord || !tableWord(p.t, p.toks[k].low) {
			return nil, j
		}
		end = k + 1
	}
	if !categoryNouns[w] {
		return nil, j
	}
	c := p.onlyCategory()
	if c == nil {
		return nil, j
	}
	p.understood(j, fmt.Sprintf("%s -> %s (the only category column of %s)", p.src(j, end), c.Name, p.t.Name), p.src(j, end)+" ("+c.Name+")")
	return c, end
}

// placeNouns say a place: they find a column only through "of" ("region of
// origin").
var placeNouns = setOf("region", "regions", "area", "areas", "place", "places", "location", "locations")

// onlyCategory returns the chosen table's one text column of categories:
// few distinct values against its rows, not a name, id or free text, and
// not already filtered or grouped on. Nil when there are none or several.
func (p *parser) onlyCategory() *Column {
	if p.t == nil {
		return nil
	}
	var found *Column
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		ws := nameWords(c.Name)
		last := ""
		if len(ws) > 0 {
			last = ws[len(ws)-1]
		}
		if c.Type != "string" || len(c.Values) < 2 || isIDLike(c) || p.t.Rows > 0 && int64(len(c.Values))*2 > p.t.Rows ||
			nameEnds[last] || last == "description" || last == "comment" || last == "notes" {
			continue
		}
		if found != nil {
			return nil
		}
		found = c
	}
	if found == nil || slices.ContainsFunc(p.in.Filters, func(f Filter) bool { return f.Column == found.Name }) ||
		slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return g.Column == found.Name }) {
		return nil
	}
	return found
}

// misspelt returns an error naming the closest column when the word at j
// names nothing the parser knows but is a small typo away from a column.
func (p *parser) misspelt(j int) error {
	if !p.free(j) || p.toks[j].kind != kWord {
		return nil
	}
	w := p.toks[j].low
	if len(w) < 4 || p.known(w) {
		return nil
	}
	if vs, n := p.valueAt(p.vals, p.maxVW, j); n > 0 && len(vs) > 0 {
		return nil
	}
	best, d := p.closestColumn(w)
	if best == "" || d == 0 || d > 2 || len(w) <= 5 && d > 1 && !transposed(w, best) || slices.Contains(nameWords(best), w) {
		return nil // a word of the column's name says part of it, not a typo: "by unemp rate" for unemp_rt
	}
	return p.noColumn(w, best)
}

// transposed reports whether a and b differ by one swap of neighbours.
func transposed(a, b string) bool {
	return len(a) == len(b) && distance(strings.ToLower(a), strings.ToLower(b)) == 1
}

// known reports whether w is a word of the parser's vocabulary.
func (p *parser) known(w string) bool {
	if stopwords[w] || aggWord(w) || moneyWords[w] || quantityWords[w] || isCountNoun(w) || numberWords[w] != 0 {
		return true
	}
	if _, ok := units[w]; ok {
		return true
	}
	if _, ok := months[w]; ok {
		return true
	}
	if _, ok := grainAdverbs[w]; ok {
		return true
	}
	for _, phrases := range analysisPhrases {
		for _, ph := range phrases {
			if ph == w {
				return true
			}
		}
	}
	return vocabulary[w]
}

// vocabulary holds the other words the passes read.
var vocabulary = setOf("last", "past", "previous", "prior", "trailing", "recent", "this", "current", "since",
	"before", "after", "until", "till", "thru", "from", "between", "excluding", "except", "exclude", "without",
	"not", "only", "unique", "distinct", "top", "bottom", "best", "worst", "largest", "smallest", "biggest",
	"highest", "lowest", "most", "least", "fewest", "which", "ytd", "mtd", "qtd", "ltm", "ttm", "quarter", "half",
	"fiscal", "above", "below", "over", "under", "more", "less", "fewer", "greater", "exceeding", "customers",
	"customer", "products", "product", "performing", "selling", "yoy", "mom", "qoq", "wow")

// addGroup adds a grouping once.
func (p *parser) addGroup(pos int, src, col, grain string) {
	for _, g := range p.in.GroupBy {
		if g.Column == col && g.Grain == grain {
			return
		}
	}
	p.in.GroupBy = append(p.in.GroupBy, Group{Column: col, Grain: grain})
	p.named = true
	what := col
	if grain != "" {
		what = grain + " of " + col
	}
	p.understood(pos, src+" -> group by "+what, src+" (group by "+what+")")
}

var topWords = map[string]bool{"top": true, "best": true, "highest": true, "largest": true, "biggest": true,
	"leading": true, "greatest": true, "most": true, "bottom": false, "worst": false, "lowest": false, "smallest": false,
	"weakest": false, "poorest": false, "least": false}

var superlatives = map[string]bool{"highest": true, "most": true, "largest": true, "biggest": true, "best": true,
	"top": true, "greatest": true, "lowest": false, "least": false, "fewest": false, "smallest": false, "worst": false}

// topN reads a ranking: "top 10 products", "best 5 regions", "worst 3
// stores", "bottom 5", "5 best products", "which state had the highest
// sales".
func (p *parser) topN() error {
	for i := 0; i < len(p.toks) && p.in.Top == nil; i++ {
		w := p.low(i)
		desc, isTop := topWords[w]
		prefix := ""
		if !isTop {
			// "top5", "top-5" read as one word
			for word, d := range topWords {
				if strings.HasPrefix(w, word) {
					if _, ok := count(w[len(word):]); ok {
						prefix, desc, isTop = word, d, true
					}
				}
			}
		}
		if (w == "least" || w == "most") && i > 0 && p.toks[i-1].low == "at" {
			continue // "at least 10 employees": a condition, not the bottom 10
		}
		switch {
		case isTop:
			j := p.skip(i+1, "-")
			n, hasN := count(p.low(j))
			if prefix != "" {
				n, hasN, j = mustCount(w[len(prefix):]), true, i
			}
			if hasN {
				j++
			}
			if err := p.ranked(i, j, n, hasN, desc, w == "top" || w == "bottom" || prefix != ""); err != nil {
				return err
			}
		case w != "":
			if n, ok := count(w); ok {
				if d, ok := topWords[p.low(i+1)]; ok && p.low(i+1) != "least" {
					if err := p.ranked(i, i+2, n, true, d, false); err != nil {
						return err
					}
				}
			}
			if w == "which" || w == "what" {
				p.which(i)
			} else if w == "who" {
				p.who(i)
			} else if p.leadsRanking(i, i) {
				p.whichFrom(i, i, 0, false) // "the channel with the highest sessions"
			} else if n, ok := count(p.low(i + 1)); ok && p.leadsRanking(i, i+2) && p.low(i) == "the" {
				p.whichFrom(i, i+2, n, true) // "the 5 SKUs with the fewest units"
			}
		}
	}
	return nil
}

func mustCount(w string) int { n, _ := count(w); return n }

var rankFillers = []string{"-", "performing", "selling", "rated", "earning", "grossing", "ranked", "ranking",
	"most", "the", "of", "our", "all", "time", "popular", "profitable", "valuable", "active", "frequent", "common",
	"successful", "important", "sold", "purchased", "ordered", "bought"}

// ranked finishes a ranking whose words run from i to j: the dimension
// ranked follows. Without a dimension, a bare "top"/"bottom" with a number
// ranks what the request groups by.
func (p *parser) ranked(i, j, n int, hasN, desc, bare bool) error {
	k := p.skip(j, rankFillers...)
	c, m, s := p.colAt(k, prefDim)
	if c != nil && s >= mEntity && (!isNumeric(c) || p.isYearColumn(c) || periodPart(c) && p.partOfAnyYear() || isIDLike(c) && p.repeats(c)) && !isDate(c) {
		// "top 3 stations" over trips' station_id 1..50: the stations,
		// each a group of trips
		if !hasN {
			n = 10
			if last := p.toks[k+m-1].low; last == singular(last) {
				n = 1
			}
		}
		p.setTop(i, k+m, n, c.Name, desc)
		return nil
	}
	if g := units[p.low(k)]; (c == nil || periodPart(c)) && g != "" && g != "week" && p.date != nil && (hasN || !bare) {
		// "top 3 years by volume", "the busiest month": periods of the
		// date column
		if !hasN {
			n = 1
			if last := p.toks[k].low; last != singular(last) {
				n = 10
			}
		}
		p.setTop(i, k+1, n, p.date.Name, desc)
		p.addGroup(k, p.src(k, k+1), p.date.Name, g)
		return nil
	}
	if c, e := p.categoryDimension(k); c != nil {
		if !hasN {
			n = 10
			if last := p.toks[e-1].low; last == singular(last) {
				n = 1
			}
		}
		p.setTop(i, e, n, c.Name, desc)
		return nil
	}
	if (isCountNoun(p.low(k)) || p.low(k) == "days" && p.date != nil || tableWord(p.t, p.low(k))) && hasN {
		p.setTop(i, k+1, n, "", desc) // "top 10 orders": rows
		p.toks[k].used = false        // the noun still says what to count
		return nil
	}
	if hasN && bare {
		if err := p.misspelt(k); err != nil {
			return err
		}
		p.setTop(i, j, n, "", desc)
	}
	return nil
}

// rankLinks join a ranking's dimension to its superlative: "with the
// highest", "that had the lowest".
var rankLinks = setOf("with", "the", "that", "which", "who", "had", "have", "has", "having", "show", "showed", "shows")

func (p *parser) setTop(i, j, n int, col string, desc bool) {
	p.in.Top = &TopN{N: n, Column: col, Desc: desc}
	for k := i; k < j; k++ {
		if _, ok := superlatives[p.toks[k].low]; ok {
			p.rankBy = p.toks[k].low
		}
	}
	// "top 3 industries with the highest average rate": the superlative
	// is the ranking's, not a maximum to compute.
	for k := j; col != "" && k < len(p.toks) && k <= j+4; k++ {
		if desc, ok := superlatives[p.low(k)]; ok && k > j && (p.low(k-1) == "the" || p.low(k-1) == "with") {
			p.in.Top.Desc, p.rankBy = desc, p.low(k)
			p.use(k, k+1)
			break
		}
		if !p.free(k) || !rankLinks[p.low(k)] {
			break
		}
	}
	p.topPos, p.topSrc = i, p.src(i, j)
	p.use(i, j)
	if col != "" {
		p.named = true
		p.noteTop()
	}
}

func (p *parser) noteTop() {
	t := p.in.Top
	order, dir := "highest first", "top"
	if !t.Desc {
		order, dir = "lowest first", "bottom"
	}
	what := t.Column
	if what == "" {
		what = "rows"
	}
	if t.N == 0 {
		p.understood(p.topPos, fmt.Sprintf("%s -> every %s, ranked by the first measure", p.topSrc, what), p.topSrc)
		return
	}
	p.understood(p.topPos, fmt.Sprintf("%s -> %s %d %s by the first measure, %s", p.topSrc, dir, t.N, what, order), p.topSrc)
}

// which reads "which state had the highest sales": the top 1 of the
// dimension after "which", by the measure after the superlative. "Which 5
// cars" (the table's own rows, with a number) ranks rows.
func (p *parser) which(i int) {
	j := i + 1
	n, hasN := count(p.low(j))
	if hasN {
		j++ // "which 5 airports"
	}
	if k := p.antecedent(i); k >= 0 && !hasN {
		p.whichFrom(i, k, 1, false) // "Among the low-income countries, which had the highest rgdpe"
		return
	}
	if _, v := p.valueHere(j, false); v > 0 && p.rankedNoun(j+v) {
		// "which low-income country had the highest": the value is a
		// filter, read later; the noun after it is ranked
		p.whichValue = [2]int{j, j + v}
		defer func() { p.whichValue = [2]int{} }()
		j += v
	} else if refs, v := p.valueHere(j, false); v > 1 && p.namesTheRows(j+v-1) {
		// "which large airport" over a type large_airport: the value is a
		// filter, and its last word names the rows, which are ranked
		if col, why := p.pickColumn(refs, j, j+v); col != nil {
			p.addFilter(j, j+v, col, []string{valueIn(refs, col)}, false, why)
			p.toks[j+v-1].used = false
			j += v - 1
		}
	}
	p.whichFrom(i, j, n, hasN)
	if p.in.Top == nil && !hasN {
		p.whichAfterSuperlative(i, j)
	}
}

// whichAfterSuperlative reads "lowest average temperature: which month?"
// at i, the dimension at j: the superlative said before "which" ranks
// the dimension, one of it.
func (p *parser) whichAfterSuperlative(i, j int) {
	s := -1
	for k := i - 1; k >= 0 && k >= i-8; k-- {
		if _, ok := superlatives[p.low(k)]; ok && p.low(k) != "top" {
			s = k
			break
		}
	}
	if s < 0 {
		return
	}
	c, m, st := p.colAt(j, prefDim)
	if c == nil || st < mEntity || isDate(c) || isNumeric(c) && !p.isYearColumn(c) && !periodPart(c) {
		return
	}
	p.in.Top = &TopN{N: 1, Column: c.Name, Desc: superlatives[p.low(s)]}
	p.topPos, p.topSrc, p.rankBy = s, p.src(s, s+1)+" ... "+p.src(i, j+m), p.low(s)
	p.use(s, s+1)
	p.useRanked(i, j+m)
	p.named = true
	p.noteTop()
}

// personColumnWords name a column of people.
var personColumnWords = setOf("emp", "employee", "agent", "rep", "user", "customer", "cust", "driver", "player",
	"worker", "staff", "author", "manager", "mgr", "person", "owner", "seller", "buyer", "member", "student",
	"patient", "doctor", "nurse", "teacher", "client", "salesperson", "athlete", "candidate", "artist")

// who reads "who worked the most hours" that opens a request as "which
// <the one column of people> worked the most hours": a superlative and
// what it measures follow, no number of them. "Customers who bought the
// most" is a clause of its noun, left to the other passes.
func (p *parser) who(i int) {
	if i > 0 && p.toks[i-1].kind == kWord && !leadWords[p.toks[i-1].low] {
		return
	}
	s := -1
	for k := i + 1; k < len(p.toks) && k <= i+5; k++ {
		if _, isN := count(p.low(k)); isN || p.low(k) == "top" || p.low(k) == "bottom" {
			return // "who are the top 5 reps": the ranking says its own
		}
		if _, ok := superlatives[p.low(k)]; ok {
			s = k
			break
		}
	}
	if s < 0 || !p.measureFollows(s+1) && !slices.ContainsFunc(p.toks[s+1:min(s+4, len(p.toks))], func(t token) bool {
		return isCountNoun(t.low) || moneyWords[t.low] || quantityWords[t.low]
	}) {
		return // "who sold the least": the least of what is not said
	}
	var found *Column
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		ws := nameWords(c.Name)
		last := ws[len(ws)-1]
		person := isText(c) && (personColumnWords[last] || (last == "name" || idEnds[last]) && slices.ContainsFunc(ws[:len(ws)-1], func(w string) bool { return personColumnWords[w] }))
		if !person {
			continue
		}
		if found != nil || isIDLike(c) {
			return // two columns of people, or their ids: which is not said
		}
		found = c
	}
	if found == nil {
		return
	}
	low := p.toks[i].low
	p.toks[i].low = strings.ToLower(found.Name)
	p.whichFrom(i, i, 1, false)
	if !p.toks[i].used {
		p.toks[i].low = low
	}
}

// orderedBy reports whether the "by" before j follows a verb of order:
// "products ranked by quantity" ranks, whatever the quantity's range.
func (p *parser) orderedBy(j int) bool {
	k := j - 1
	for k > 0 && p.toks[k].low != "by" {
		k--
	}
	return k > 0 && orderVerbs[p.toks[k-1].low]
}

// fewLevels reports whether c is an integer column of at most eleven
// possible values ("stars" 3 to 5, a grade 1 to 6): levels to group by,
// not an amount to rank by.
func fewLevels(c *Column) bool {
	lo, hi, ok := numRange(c)
	return c.Type == "integer" && ok && hi > lo && hi-lo <= 10
}

// repeats reports whether the integer column c has fewer possible values
// than the table has rows: an id of things the rows are many to each.
func (p *parser) repeats(c *Column) bool {
	lo, hi, ok := numRange(c)
	return c.Type == "integer" && ok && p.t.Rows > 0 && hi-lo+1 < float64(p.t.Rows)/2
}

// partOfAnyYear reports whether a ranking of a part of the year (a
// month 1–12) may pool the years: the data has no years, the request
// keeps one, or says the parts of every year ("on average", "across all
// years", "of the year"). Otherwise "the best month" of four years is a
// month of one of them.
func (p *parser) partOfAnyYear() bool {
	yc := p.yearColumn()
	if yc == nil && p.date == nil {
		return true
	}
	if yc != nil && slices.ContainsFunc(p.in.Filters, func(f Filter) bool { return f.Column == yc.Name && f.Op == "=" }) {
		return true
	}
	if tr := p.in.Time; tr != nil && len(tr.Start) >= 4 && len(tr.End) >= 4 && wholeOneYear(tr) {
		return true
	}
	for i, t := range p.toks {
		switch t.low {
		case "across", "average", "avg", "mean", "typical", "typically", "usually", "every", "each":
			return true
		case "of":
			if k := i + 1; k < len(p.toks) && units[p.toks[k].low] == "year" || k+1 < len(p.toks) && p.toks[k].low == "the" && units[p.toks[k+1].low] == "year" {
				return true
			}
		}
	}
	return false
}

// wholeOneYear reports whether a period is one calendar year at most.
func wholeOneYear(tr *TimeRange) bool {
	s, err1 := time.Parse("2006-01-02", tr.Start)
	e, err2 := time.Parse("2006-01-02", tr.End)
	return err1 == nil && err2 == nil && !e.After(s.AddDate(1, 0, 0))
}

// partOf returns the period a part column's numbers run through: a
// quarter (1–4) or a month (1–12) the year's, a weekday (1–7) the week's,
// an hour (0–23) the day's, a day (1–31) the month's, a week (1–53) the
// year's; "" when its range says none.
func partOf(c *Column) string {
	_, hi, ok := numRange(c)
	switch {
	case !ok:
		return ""
	case hi <= 4, hi == 12, hi >= 52 && hi <= 53:
		return "year"
	case hi == 7:
		return "week"
	case hi >= 23 && hi <= 24:
		return "day"
	case hi >= 28 && hi <= 31:
		return "month"
	}
	return ""
}

// calendarPart reports whether c numbers the months of a year (1–12) or
// its quarters (1–4) by name: never a measure, where "hr" 0–49 may be
// home runs and "overtime_hr" hours.
func calendarPart(c *Column) bool {
	lo, hi, ok := numRange(c)
	return ok && lo >= 1 && (partColumn(c, monthWords, 1, 12) && hi == 12 || partColumn(c, quarterWords, 1, 4) && hi == 4)
}

// periodPart reports whether c is an integer column numbering a part of
// a period: a month 1–12, a quarter 1–4, a week, a day of the week or of
// the month, an hour.
func periodPart(c *Column) bool {
	return partColumn(c, periodPartWords, 0, 53)
}

// Words naming a part of a period in a column's name.
var (
	monthWords      = []string{"month", "mon", "mo", "mth", "mnth"}
	quarterWords    = []string{"quarter", "qtr", "q", "quart"}
	periodPartWords = slices.Concat(monthWords, quarterWords, []string{"week", "wk", "weekday", "dow", "day", "hour", "hr", "period", "season"})
)

// partColumn reports whether c is an integer column from at least lo to at
// most hi whose name has one of words.
func partColumn(c *Column, words []string, lo, hi float64) bool {
	min, max, ok := numRange(c)
	return c.Type == "integer" && ok && min >= lo && max <= hi &&
		slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return slices.Contains(words, w) })
}

// rankedNoun reports whether the word at j names a dimension to rank or
// the table's rows.
func (p *parser) rankedNoun(j int) bool {
	c, _, s := p.colAt(j, prefDim)
	return c != nil && s >= mEntity && (!isNumeric(c) || periodPart(c)) && !isDate(c) || p.namesTheRows(j)
}

// useRanked marks the words from i to j as read, but for the value
// between "which" and its noun, which is a filter of its own.
func (p *parser) useRanked(i, j int) {
	if v := p.whichValue; v[1] > v[0] && v[0] >= i && v[1] <= j {
		p.use(i, v[0])
		p.use(v[1], j)
		return
	}
	p.use(i, j)
}

// antecedent returns the index of the noun that "which" at i refers back
// to, -1 if none: in "Among the low-income countries, which had the
// highest", which is followed by a verb and the noun ends the phrase
// opened by "among" or "of" just before it.
func (p *parser) antecedent(i int) int {
	v := p.low(i + 1)
	if !linkVerbs[v] && !copulas[v] {
		return -1
	}
	k := i - 1
	if p.low(k) == "," {
		k--
	}
	if !p.free(k) || p.toks[k].kind != kWord || stopwords[p.low(k)] {
		return -1
	}
	for b := k - 1; b >= 0 && b >= k-5; b-- {
		if w := p.toks[b].low; w == "among" || w == "amongst" || w == "of" {
			return k
		}
	}
	return -1
}

// copulas link a subject to what is said of it.
var copulas = setOf("is", "was", "are", "were", "has", "had", "have")

// linkVerbs link a ranked dimension to its superlative without saying
// which rows count: "which agent handled the most tickets", "which rep
// sold the most units". A verb that may pick rows ("cancelled",
// "escalated") is not one of them.
var linkVerbs = setOf("handled", "processed", "served", "received", "had", "got", "took", "did", "made", "sold",
	"managed", "fielded", "logged", "recorded", "booked", "generated", "brought", "contains", "contain", "contained",
	"includes", "include", "included", "holds", "hosts", "hosted", "saw", "posted")

// linkingVerb reads the one verb between a ranked dimension (ending at
// from) and its superlative (at to) as linking them, when it names
// nothing of the data: "which agent handled the most tickets" ranks the
// agents by their tickets.
func (p *parser) linkingVerb(from, to int) {
	k := -1
	for i := from; i < to; i++ {
		switch {
		case !p.free(i) || p.low(i) == "the" || p.low(i) == "a":
		case k >= 0:
			return // two words: not one verb
		default:
			k = i
		}
	}
	if k < 0 || p.toks[k].kind != kWord {
		return
	}
	w := p.low(k)
	if !isLetters(w) || p.namesData(w) || p.inValue(w) || !linkVerbs[w] {
		return
	}
	p.understood(k, fmt.Sprintf("%s -> what links the ranked to the measure", p.toks[k].raw), "")
	p.use(k, k+1)
}

// leadWords may come before a dimension that leads a ranking.
var leadWords = setOf("the", "find", "show", "name", "list", "get", "give", "me", "tell", "what", "is", "was", "are", "were")

// leadsRanking reports whether the request opens, after leadWords (up to
// start), with a text column's name at i followed by "with the" or "that had the" and a
// superlative: "the channel with the highest sessions" asks which
// channel, as "which channel had the highest sessions" does.
func (p *parser) leadsRanking(start, i int) bool {
	for k := 0; k < start; k++ {
		if !leadWords[p.toks[k].low] {
			return false
		}
	}
	c, m, s := p.colAt(i, prefDim)
	if c == nil && p.namesTheRows(i) {
		c, m, s = &Column{}, 1, mEntity // "country with the largest area", each row a country
	}
	if c == nil || s < mEntity || isNumeric(c) || isDate(c) || !rankLinks[p.low(i+m)] || p.low(i+m) == "the" {
		return false
	}
	for k := i + m + 1; k < len(p.toks) && k <= i+m+3; k++ {
		if _, ok := superlatives[p.low(k)]; ok { // "with (the) highest"
			return true
		}
		if !rankLinks[p.low(k)] {
			return false
		}
	}
	return false
}

// modifiesColumn reports whether the word at j goes before a word that
// names a column: "production" in "which production line" says which
// line, it names no rows.
func (p *parser) modifiesColumn(j int) bool {
	c, _, st := p.colAt(j+1, prefDim)
	return c != nil && st >= mEntity
}

// comparatives rank as superlatives do after "which", when nothing
// follows to compare with: "which of the two schools scored higher".
var comparatives = map[string]bool{"higher": true, "larger": true, "bigger": true, "greater": true, "more": true,
	"lower": false, "smaller": false, "fewer": false, "less": false}

// namesTheRows reports whether the word at j names the rows of the chosen
// table, each row one of them: "city" over a table of cities.
func (p *parser) namesTheRows(j int) bool {
	return p.free(j) && p.toks[j].kind == kWord && (tableWord(p.t, p.low(j)) || isEntityNoun(p.low(j))) &&
		p.rowsAreEntities() && !p.tableNamesOtherRows(p.low(j))
}

// whichFrom reads a ranking that starts at i, its dimension at j.
func (p *parser) whichFrom(i, j, n int, hasN bool) {
	back := j < i // the dimension was said before "which"
	col := ""
	c, m, s := p.colAt(j, prefDim)
	if c == nil && !back && p.free(j) && p.toks[j].kind == kWord && tableWord(p.t, p.low(j)) && p.modifiesColumn(j) {
		// "which production line" over prod_runs(line): which line; the
		// table's word says whose
		p.understood(j, fmt.Sprintf("%s -> the rows of %s", p.toks[j].raw, p.t.Name), p.toks[j].raw)
		p.use(j, j+1)
		j++
		c, m, s = p.colAt(j, prefDim)
	}
	if c == nil || s < mEntity {
		if cc, e := p.categoryDimension(j); cc != nil {
			c, m, s = cc, e-j, mWords
		}
	}
	grain := ""
	switch {
	case c != nil && s >= mEntity && (!isNumeric(c) || p.isYearColumn(c) || s >= mWords && p.codeColumn(c) || periodPart(c)) && !isDate(c):
		col = c.Name // "which month" over a month column of 1 to 12: each month
	case c == nil && p.date != nil && units[p.low(j)] != "" && units[p.low(j)] != "week":
		col, grain, m = p.date.Name, units[p.low(j)], 1 // "which 3 years": periods of the date
	case c == nil && p.date == nil && units[p.low(j)] == "year" && p.yearColumn() != nil:
		col, m = p.yearColumn().Name, 1
	case c == nil && p.free(j) && p.toks[j].kind == kWord && (tableWord(p.t, p.low(j)) || isCountNoun(p.low(j))) && !p.modifiesColumn(j):
		m = 1 // rows: "which 5 cars", "which shipment was the heaviest"
	case c == nil && p.namesTheRows(j):
		m = 1 // "which city has the largest population", each row a city: the row
	default:
		if w := p.low(j); w != "" && p.toks[j].kind == kWord && !stopwords[w] && !isCountNoun(w) {
			for k := j + 1; k < len(p.toks) && k <= j+4; k++ {
				if _, ok := superlatives[p.low(k)]; ok {
					// "which stock had the highest price" with no column of
					// stocks: the answer is a thing, which nothing names
					p.unnamedWhich = append(p.unnamedWhich, j)
					break
				}
			}
		}
		return
	}
	after := j + m
	if back {
		after = i + 1
	}
	if k := p.skip(after+1, "the", "a"); c != nil && periodPart(c) && p.low(after) == "of" && units[p.low(k)] != "" {
		if units[p.low(k)] != partOf(c) {
			// "which day of the year" over a day of the month 1–31
			p.in.Unknown = append(p.in.Unknown, Unknown{Word: p.src(j, k+1),
				Reason: fmt.Sprintf("%s numbers the parts of a %s, not of a %s", c.Name, cmp.Or(partOf(c), "period it does not say"), units[p.low(k)])})
			p.use(j, k+1)
			return
		}
		// "which quarter of the year": the part, of whatever year
		p.use(after, k+1)
		after = k + 1
	}
	for k := after; k < len(p.toks) && k <= after+4; k++ {
		desc, ok := superlatives[p.low(k)]
		if d, cmp := comparatives[p.low(k)]; cmp && !hasN && p.free(k) && len(p.compares) == 0 && !slices.ContainsFunc(p.toks[k+1:], func(t token) bool {
			return t.low == "than" || t.low == "vs" || t.low == "versus" || t.low == "compared" || t.low == "against"
		}) {
			desc, ok = d, true // "which school has the higher average": of the two, the one ranked first
		}
		if !ok {
			continue
		}
		if !hasN {
			n = 1
			if last := p.toks[j+m-1].low; last != singular(last) && !back {
				n = 10
			}
		}
		p.in.Top = &TopN{N: n, Column: col, Desc: desc}
		p.topPos, p.topSrc, p.rankBy = i, p.src(i, k+1), p.low(k)
		p.use(k, k+1)
		p.linkingVerb(after, k)
		if a := rankAdjectives[p.low(k)]; a.words != nil && !p.startsMeasure(k+1) {
			if c := p.adjectiveColumn(p.low(k)); c != nil {
				// "which shipment was the heaviest": the adjective names
				// the measure
				p.addMeasure(k, p.src(k, k+1), Measure{Column: c.Name, Agg: "avg"}, "")
				p.named = true
			}
		}
		if back {
			p.use(i, i+1)
			i = j // what follows reads the ranking from the noun
		}
		if col == "" {
			p.useRanked(i, j)
			if isCountNoun(p.low(j)) || tableWord(p.t, p.low(j)) {
				// "which shipment": the rows ranked, not a count of them
				p.understood(j, fmt.Sprintf("%s -> the rows of %s", p.toks[j].raw, p.t.Name), p.toks[j].raw)
				p.use(j, j+1)
			}
			return
		}
		p.useRanked(i, j+m)
		p.named = true
		p.noteTop()
		if grain != "" {
			p.addGroup(j, p.src(j, j+m), col, grain)
		}
		return
	}
}

// modifierOfDimension reports whether the word at j, after "by", is a
// noun that names nothing of the data and describes the text column
// named right after it ("by office location", "per sales region"): not a
// value, a number, a stop word or a word of any column.
func (p *parser) modifierOfDimension(j int, trig string) bool {
	if trig != "by" && trig != "per" && trig != "for each" || !p.free(j) || p.toks[j].kind != kWord {
		return false
	}
	w := p.low(j)
	if stopwords[w] || weighty[w] || isNumber(w) || aggWord(w) || units[w] != "" || p.known(w) || p.startsValue(j) {
		return false
	}
	c, _, s := p.colAt(j+1, prefDim)
	return c != nil && s >= mWords && (isText(c) || fewLevels(c) || p.isYearColumn(c) || periodPart(c)) && !isIDLike(c)
}

// sexWords are the values of a column of sexes.
var sexWords = setOf("male", "female", "m", "f", "men", "women", "man", "woman", "boy", "boys", "girl", "girls",
	"males", "females")

// sexColumn returns the one text column whose values are sexes when the
// word at j is "gender" or "sex" and names no column itself ("by gender"
// over fem: Men, Women), nil otherwise.
func (p *parser) sexColumn(j int) *Column {
	if w := p.low(j); !p.free(j) || w != "gender" && w != "sex" && w != "genders" && w != "sexes" || p.t == nil {
		return nil
	}
	var found *Column
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if !isText(c) || len(c.Values) < 2 || !slices.ContainsFunc(c.Values, func(v string) bool { return sexWords[strings.ToLower(v)] }) {
			continue
		}
		others := slices.DeleteFunc(slices.Clone(c.Values), func(v string) bool { return sexWords[strings.ToLower(v)] })
		if len(others) > 1 { // an unknown or other besides is still a sex column
			continue
		}
		if found != nil {
			return nil
		}
		found = c
	}
	return found
}

// codeColumn reports whether an integer column, named in full after
// "which", numbers things rather than measures them ("which firm" over
// firm 1 to 10): not money, a quantity, a count, an average-like measure
// (an age, a score) or a level.
func (p *parser) codeColumn(c *Column) bool {
	return c.Type == "integer" && !p.moneyLike(c) && !p.quantityLike(c) && !countsThings(c) && !nonAdditive(c) &&
		!isLevel(c) && defaultAgg(c) != "sum"
}

// unitColumn returns the one numeric column whose name says it is in the
// unit at i ("kg" for wt_kg, "days" for dlv_days, "years" for yrs_svc),
// nil if none or several. A column of calendar years is in no unit.
// unitSpellings are the ways one unit is written, in words and in short:
// "8 hours" is a number of hrs_to_res, "20 kilos" of wt_kg.
var unitSpellings = func() map[string]string {
	m := map[string]string{}
	for _, group := range [][]string{{"hours", "hour", "hrs", "hr", "h"}, {"minutes", "minute", "mins", "min"},
		{"seconds", "second", "secs", "sec"}, {"kilograms", "kilogram", "kilos", "kilo", "kg", "kgs"},
		{"kilometers", "kilometres", "kilometer", "kilometre", "km", "kms"}, {"miles", "mile", "mi"},
		{"pounds", "pound", "lbs", "lb"}, {"meters", "metres", "meter", "metre", "m"}, {"grams", "gram", "g"},
		{"liters", "litres", "liter", "litre", "l"}, {"dollars", "dollar", "usd"}, {"euros", "euro", "eur"},
		{"knots", "knot", "kn", "kt", "kts"}, {"millimeters", "millimetres", "millimeter", "millimetre", "mm"},
		{"centimeters", "centimetres", "centimeter", "centimetre", "cm"}, {"degrees", "degree", "deg"}} {
		for _, w := range group {
			m[w] = group[0]
		}
	}
	return m
}()

func (p *parser) unitColumn(i int) *Column {
	w := p.low(i)
	if !unitWords[w] && units[w] == "" && !measureUnits[w] || !p.free(i) {
		return nil
	}
	var found *Column
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if isNumeric(c) && !isIDLike(c) && !p.isYearColumn(c) && slices.ContainsFunc(nameWords(c.Name), func(cw string) bool {
			return cw == w || units[w] != "" && units[w] == units[cw] || unitWords[w] && sameWord(w, cw) ||
				unitSpellings[w] != "" && unitSpellings[w] == unitSpellings[cw]
		}) {
			if found != nil {
				return nil
			}
			found = c
		}
	}
	return found
}

// extremeOfReadings reports whether the period adverb of n words at i
// stands between an extreme and a measure that does not add up ("highest
// daily temperature", "max daily wind speed"): the extreme of the rows,
// each a reading, not a grouping by the period.
func (p *parser) extremeOfReadings(i, n int) bool {
	if i == 0 || p.t == nil {
		return false
	}
	before := p.toks[i-1].low
	if _, ok := superlatives[before]; !ok && before != "max" && before != "maximum" && before != "min" && before != "minimum" && before != "peak" {
		return false
	}
	return p.readingAfter(i + n)
}

// readingAfter reports whether the first numeric column named within
// three words from i does not add up: a reading (a speed, a temperature),
// whose period's total means nothing; not after another aggregate ("daily
// maximum"), nor over rows finer than a day.
func (p *parser) readingAfter(i int) bool {
	if w := p.low(i); aggWord(w) || highLow[w] != "" || p.date != nil && p.date.Type != "date" {
		// "the lowest daily maximum", "average daily high": each day's own
		// aggregate first; over timestamps the rows are finer than a day
		return false
	}
	for k := i; k < min(i+3, len(p.toks)); k++ {
		if c, _, st := p.colAt(k, prefNum); c != nil && st >= mPart {
			return nonAdditive(c)
		}
	}
	return false
}

// countBefore reports whether the words before i name a numeric column
// that counts time or things ("hours" of StudyHrs, PartyNum), which may
// be counted per a period: not a grade or a price.
func (p *parser) countBefore(i int) bool {
	for s := max(i-3, 0); s < i; s++ {
		c, n, st := p.colAtAny(s)
		if r, ok := p.qcols[s]; ok && s+1 == i {
			c, n, st = r.col, 1, mWords
		}
		if c == nil || s+n != i || !isNumeric(c) || st < mPart || isIDLike(c) {
			continue
		}
		return slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return units[w] != "" || unitSpellings[w] != "" || countColumns[w] })
	}
	return false
}

// hasTimeParts reports whether the chosen table has a column of a part of
// a date (a month, a week, a day of the month).
func (p *parser) hasTimeParts() bool {
	return slices.ContainsFunc(p.t.Columns, func(c Column) bool { return calendarPart(&c) })
}

// perPeople reads each "per 1,000 people" before the numbers are read
// as conditions ("1000 people" is no population of 1000).
func (p *parser) perPeople() error {
	if p.t == nil {
		return nil
	}
	for i := 0; i+1 < len(p.toks); i++ {
		if p.low(i) != "per" || p.ratio != nil {
			continue
		}
		if r := p.perHowManyPeople(i, i+1); r != nil {
			p.ratio = r // "doctors per 1,000 people": a ratio to the population, times 1000
		}
	}
	return nil
}

// perHowManyPeople reads "per 1,000 people", "per 100k", "per 100,000
// residents" at j, after the "per" at i: a ratio to the table's
// population column, for that many people. It marks the words used; nil
// if they are not such a phrase or the table has no population.
func (p *parser) perHowManyPeople(i, j int) *ratioReq {
	v, n, kind := p.number(j)
	if n == 0 || kind != "" && kind != "scaled" {
		return nil
	}
	many, err := strconv.ParseFloat(v, 64)
	if err != nil || many < 10 {
		return nil
	}
	end := j + n
	if w := p.low(end); populationNouns[w] || w == "population" || w == "pop" || w == "capita" {
		end++
	} else if kind != "scaled" {
		return nil // "per 1000" alone may be of anything; "per 100k" is of people
	}
	c := p.adjectiveColumn("most-populous")
	if c == nil {
		return nil
	}
	p.use(i, end)
	return &ratioReq{pos: i, src: p.src(i, end), col: c.Name, many: many}
}
