package intent

import (
	"fmt"
	"slices"
	"strings"
)

// A numeric column said as something a row has or is ("orders that had a
// discount", "how many orders were returned", "days with rain", "returned
// orders") picks the rows where it is above zero: a discount of 0 is no
// discount, a 0 in a 0/1 column is a no. Said with a negation ("without a
// discount", "were not returned") it picks the rest. Read as a measure
// instead, the request would count every row beside an average nobody
// asked for.

// hasWords are the words that say a row has what follows when an article
// follows them ("had a discount", "with any returns"); beWords say a row
// is what follows when it is a participle ("were returned", "was not
// cancelled"). Without those, "has revenue grown" and "is amount normal"
// ask about a measure.
var (
	hasWords    = setOf("with", "had", "have", "has", "having", "received", "included", "includes", "got", "get", "gets", "getting")
	beWords     = setOf("were", "was", "is", "are", "been", "got")
	notHasWords = setOf("without", "hadnt", "havent", "hasnt", "didnt", "excluding", "excludes", "except") // the tokens drop apostrophes
	notBeWords  = setOf("werent", "wasnt", "isnt", "arent")
)

// negations turn a has-word around: "with no", "were not", "had never".
var turnArounds = setOf("no", "not", "never")

// relating words ask how two measures go together ("sales with
// discount", "units against price"): the second is then a measure, and
// a share or rate has its own reading of what rows have.
var relating = []string{"correlation", "corr", "correl", "correlate", "correlates", "correlated", "relationship", "relation",
	"related", "relate", "associated", "association", "regress", "regression", "versus", "vs", "against",
	"ratio", "rate", "compare", "compared"}

// presence reads those rows as conditions on their column, after the
// numeric conditions ("a discount above 10%") have taken theirs.
func (p *parser) presence() error {
	if p.t == nil || slices.ContainsFunc(p.toks, func(t token) bool { return slices.Contains(relating, t.low) }) {
		return nil
	}
	for i := 0; i < len(p.toks); i++ {
		if !p.free(i) {
			continue
		}
		if w := p.low(i); w == "including" || w == "incl" || w == "inclusive" {
			// "total units including returned orders": every row, the
			// returned ones too; no filter
			k := p.skip(i+1, "the", "a", "an", "any", "all")
			c := p.participleColumn(k)
			if c == nil {
				if cc, _, st := p.colAt(k, prefNum); cc != nil && st >= mPart && p.countable(cc) {
					c = cc
				}
			}
			if c != nil {
				end := k + 1
				if p.rowsNoun(end) {
					end++
				}
				p.understood(i, fmt.Sprintf("%s -> every row, whatever its %s", p.src(i, end), c.Name), p.src(i, end))
				p.use(i, end)
				i = end - 1
				continue
			}
		}
		if from, end, c, neg := p.hasColumn(i); c != nil {
			p.presenceOf(i, from, end, c, neg)
			i = end - 1
		} else if end := p.hasText(i); end > i {
			i = end - 1
		} else if c, end, neg := p.dateSaid(i); c != nil {
			// "unpaid invoices" over paid_dt: the rows with no paid date
			op, what := "is not null", "is not empty"
			if neg {
				op, what = "is null", "is empty"
			}
			src := p.src(i, end)
			p.in.Filters = append(p.in.Filters, Filter{Column: c.Name, Op: op})
			p.filterRead(c.Name, i)
			p.understood(i, fmt.Sprintf("%s -> %s %s", src, c.Name, what), src+" ("+c.Name+" "+what+")")
			p.use(i, end)
			i = end - 1
		} else if c := p.participleColumn(i); c != nil {
			p.presenceOf(i, i, i+1, c, false)
			if p.described == nil {
				p.described = map[int]bool{}
			}
			p.described[i] = true
		}
	}
	return nil
}

// hasColumn reads "had a discount", "were not returned", "without any
// returns" at i: where the column's name starts and the phrase ends, the
// numeric column and whether it is negated. After "with" a bare column is the measure it goes with
// ("sales with discount"): an article must say it is had.
func (p *parser) hasColumn(i int) (int, int, *Column, bool) {
	w := p.low(i)
	has, be := hasWords[w] || notHasWords[w], beWords[w] || notBeWords[w]
	if !has && !be {
		return 0, 0, nil, false
	}
	neg := notHasWords[w] || notBeWords[w]
	j := i + 1
	if turnArounds[p.low(j)] && !neg {
		neg, j = true, j+1
	}
	k := p.skip(j, "a", "an", "any", "some")
	if has && be && k != j {
		be = false // "got a discount": had, not "got returned"
	}
	if be && k == j && p.rowsNoun(k) && participle(p.low(k+1)) {
		k++ // "were orders returned"
	}
	if has && k == j && !neg && !(w == "with" && p.rowsBefore(i)) || be && (k != j && !p.rowsNoun(k-1) || !participle(p.low(k))) {
		return 0, 0, nil, false
	}
	c, n, st := p.colAt(k, prefNum)
	if c == nil || st < mPart || !p.countable(c) || p.followedByAmount(k+n) {
		return 0, 0, nil, false
	}
	return k, k + n, c, neg
}

// afterHad may follow what a row has: "with an IATA code in Canada".
var afterHad = setOf("in", "for", "and", "or", "during", "from", "at", "on", "of", "by", "per", "since", "before", "after", "as")

// hasText reads "with an IATA code", "that have a phone number" at i over
// a text column as the rows where that column is not empty, and returns
// the index after the phrase (i if there is none). The article says a
// thing is had: "with region" is a grouping's or a measure's.
func (p *parser) hasText(i int) int {
	if w := p.low(i); !hasWords[w] || w == "received" {
		return i
	}
	k := p.skip(i+1, "a", "an", "any", "some")
	if k == i+1 {
		return i
	}
	c, n, st := p.colAt(k, prefDim)
	if c == nil || st < mEntity || !isText(c) || !p.free(k) || yesNo(c) != nil {
		return i
	}
	if e := k + n; e < len(p.toks) && p.toks[e].kind == kWord && !afterHad[p.toks[e].low] {
		return i // "with a region breakdown": the noun after says what is had
	}
	src := p.src(i, k+n)
	p.in.Filters = append(p.in.Filters, Filter{Column: c.Name, Op: "is not null"})
	p.filterRead(c.Name, i)
	p.understood(i, fmt.Sprintf("%s -> %s is not empty", src, c.Name), src+" ("+c.Name+" is not empty)")
	p.use(i, k+n)
	return k + n
}

// rowsBefore reports whether the word before i names the rows, read or
// not: "days with precipitation" are days that had some, where "sales
// with discount" relates two measures.
func (p *parser) rowsBefore(i int) bool {
	if i < 1 || p.toks[i-1].kind != kWord {
		return false
	}
	w := p.toks[i-1].low
	return w == "days" || w == "rows" || w == "records" || isCountNoun(w) || isEntityNoun(w) || personNouns[w] || tableWord(p.t, w)
}

// participle reports whether w reads as a past participle: "returned".
// "Sold" and "spent" say what is measured, not which rows.
func participle(w string) bool {
	return len(w) >= 5 && strings.HasSuffix(w, "ed") && !quantityWords[w] && !moneyWords[w]
}

// participleColumn returns the numeric column an -ed word at i names
// before a noun of the table's rows: "returned orders", "discounted sales".
func (p *parser) participleColumn(i int) *Column {
	if !participle(p.low(i)) || !p.free(i+1) || p.toks[i+1].kind != kWord {
		return nil
	}
	if !p.rowsNoun(i + 1) {
		return nil
	}
	c, n, st := p.colAt(i, prefNum)
	if c == nil || n != 1 || st < mPart || !p.countable(c) {
		return nil
	}
	return c
}

// dateSaid reads at i a verb that names a date column, said of the rows
// with no period after it, as the rows where that date is set ("paid
// invoices", "invoices that were paid") or, negated, where it is not
// ("unpaid invoices", "orders not shipped"): the date column, the end of
// the phrase and whether it is negated.
func (p *parser) dateSaid(i int) (*Column, int, bool) {
	w, neg := p.low(i), false
	if b := p.skipBackToks(i, "that", "which", "who") - 1; beWords[w] && b >= 0 && p.rowsWord(b) {
		i++ // "invoices that were paid"
		if p.low(i) == "not" || p.low(i) == "never" {
			neg, i = true, i+1
		}
		w = p.low(i)
		if e := p.low(i + 1); e != "" && e != "and" && e != "," && e != "?" && e != "." {
			return nil, 0, false // "paid in 2023", "paid late": said of the date's value
		}
	} else {
		if w == "not" || w == "never" {
			neg, i = true, i+1
			w = p.low(i)
		}
		if !p.rowsNoun(i + 1) {
			return nil, 0, false
		}
	}
	if _, ok := p.vals[w]; ok || p.isValue(min(i, len(p.toks)-1)) {
		return nil, 0, false // "unpaid" is a status's value: the value says it
	}
	if r, ok := strings.CutPrefix(w, "un"); ok && !neg && p.dateNamed(w) == nil {
		neg, w = true, r // "unpaid", "unshipped"
	}
	c := p.dateNamed(w)
	if c == nil || !p.free(i) {
		return nil, 0, false
	}
	if c.Blanks == 0 {
		// a date every row has (or that may be a deadline) says nothing of
		// which rows are "expired" or "closed": reported, not absorbed
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: p.toks[i].raw,
			Reason: fmt.Sprintf("every row has a %s, so it does not say which rows are %s", c.Name, p.toks[i].raw), Nearest: []string{c.Name}})
		p.use(i, i+1)
		return nil, 0, false
	}
	end := i + 1
	if p.free(end) && p.rowsNoun(end) {
		end++ // "paid invoices": the invoices are the rows, no count of them
	}
	return c, end, neg
}

// dateNamed returns the one date column whose name's word (other than
// "date" or "dt") is the verb w: paid_dt for "paid", ship_date for
// "shipped".
func (p *parser) dateNamed(w string) *Column {
	if len(w) < 4 || !isLetters(w) || !(len(w) >= 5 && strings.HasSuffix(w, "ed") || irregularParticiples[w]) {
		return nil // "open tickets", "active customers": adjectives, not what happened
	}
	var found *Column
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if !isDate(c) {
			continue
		}
		if slices.ContainsFunc(nameWords(c.Name), func(cw string) bool {
			return cw != "date" && cw != "dt" && len(cw) >= 3 && (cw == w || sameWord(w, cw) || nounRoot(w) == cw)
		}) {
			if found != nil {
				return nil
			}
			found = c
		}
	}
	return found
}

// countable reports whether rows can have or lack c: a numeric column
// that is no identifier and no year.
func (p *parser) countable(c *Column) bool {
	return isNumeric(c) && !isIDLike(c) && !p.isYearColumn(c)
}

// followedByAmount reports whether a number or a comparator follows at i:
// "a discount of 10%" is a numeric condition, not a presence.
func (p *parser) followedByAmount(i int) bool {
	k := p.skip(i, "of", "is", "was")
	if _, m, _ := p.number(k); m > 0 {
		return true
	}
	_, n := p.anyPhrase(k, keys(comparators))
	return n > 0
}

// presenceOf adds c > 0 (c <= 0 when negated) for tokens i..end-1, of
// which from..end-1 name c.
func (p *parser) presenceOf(i, from, end int, c *Column, neg bool) {
	op := ">"
	if neg {
		op = "<="
	}
	p.addCondition(i, end, from, end, c, op, "0")
}

// rowsNoun reports whether the free word at i names the table's rows:
// "orders", "sales", "rows".
func (p *parser) rowsNoun(i int) bool {
	return p.low(i) != "" && p.rowsWord(i)
}

// rowsWord reports whether the word at i, read or not, names the table's
// rows.
func (p *parser) rowsWord(i int) bool {
	w := p.toks[i].low
	return p.toks[i].kind == kWord && (isCountNoun(w) || personNouns[w] || tableWord(p.t, w) || w == "rows" || w == "records")
}

// versusNot reads "smokers vs non-smokers", "married vs unmarried",
// "married vs not" and "union members compared with non-members" over a
// yes/no column (text or 0/1) named by the noun: the two groups side by
// side, a grouping by it.
func (p *parser) versusNot() error {
	if p.t == nil {
		return nil
	}
	for i := 1; i < len(p.toks); i++ {
		_, m := p.anyPhrase(i, versusWords)
		if m == 0 || !p.free(i-1) {
			continue
		}
		start, left := i-1, p.low(i-1)
		if armWords[left] && i >= 3 && p.free(i-2) {
			start, left = i-2, p.low(i-2) // "the treatment group vs the control group"
		}
		c := p.flagAt(start)
		if c == nil && i >= 2 && p.free(i-2) && p.rowsNoun(i-1) && !p.isValue(i-1) && !sexWords[left] {
			// "union members vs non-members": the flag before the rows
			start--
			c = p.flagAt(start)
		}
		if c == nil {
			continue
		}
		end := p.negationOf(p.skip(i+m, "the"), left)
		if end < 0 {
			continue
		}
		if armWords[p.low(end)] && p.free(end) {
			end++
		}
		p.addGroup(start, p.src(start, end), c.Name, "")
		p.use(start, end)
	}
	return nil
}

// versusConditions reads two values of one column said on either side of
// "vs" ("4-star vs 5-star", "grade 3 vs grade 4") as the two side by side:
// the rows of either, grouped by the column, where each alone would leave
// no row.
func (p *parser) versusConditions() error {
	for i := 1; i+1 < len(p.toks); i++ {
		_, m := p.anyPhrase(i, versusWords)
		if m == 0 || !p.free(i) || i+m >= len(p.toks) || !p.toks[i-1].used || !p.toks[i+m].used {
			continue
		}
		var eqs []int
		for k, f := range p.in.Filters {
			if f.Op == "=" && len(f.Values) == 1 {
				eqs = append(eqs, k)
			}
		}
		if len(eqs) != 2 {
			return nil
		}
		a, b := p.in.Filters[eqs[0]], p.in.Filters[eqs[1]]
		if a.Column != b.Column || a.Values[0] == b.Values[0] {
			return nil
		}
		p.in.Filters[eqs[0]] = Filter{Column: a.Column, Op: "in", Values: []string{a.Values[0], b.Values[0]}}
		p.in.Filters = slices.Delete(p.in.Filters, eqs[1], eqs[1]+1)
		p.addGroup(i, p.src(i, i+m), a.Column, "")
		p.use(i, i+m)
		return nil
	}
	return nil
}

// flagAt returns the yes/no column the free word at i names, nil if none.
func (p *parser) flagAt(i int) *Column {
	if c, n, st := p.colAt(i, prefDim); c != nil && n == 1 && st >= mEntity && isFlag(c) {
		return c
	}
	c, _ := p.flagNamed(i) // "canceled vs non-canceled" over is_canceled: the flag's word
	return c
}

// negationOf reads the other side of "X vs" at k: "non-X", "non X",
// "nonX", "unX" or a "not" that ends the phrase. It returns the end of
// what it read, -1 if k does not negate the word left.
func (p *parser) negationOf(k int, left string) int {
	w := p.low(k)
	if !p.free(k) {
		return -1
	}
	if w == "non" || w == "not" {
		e := p.skip(k+1, "-")
		if e < len(p.toks) && p.free(e) && sameWord(p.low(e), left) {
			return e + 1
		}
		if w == "not" && (e >= len(p.toks) || p.toks[e].kind != kWord) {
			return k + 1 // "married vs not"
		}
		return -1
	}
	for _, pre := range []string{"non", "un"} {
		if rest, ok := strings.CutPrefix(w, pre); ok && rest != "" && sameWord(rest, left) {
			return k + 1
		}
	}
	if (w == "control" || w == "controls") && treatWords[left] && !p.namesColumnOrValue(w) {
		return k + 1 // "treated vs control": the untreated, as a trial names them
	}
	return -1
}

// treatWords name a trial's treated rows, whose other side is its control.
var treatWords = setOf("treat", "treated", "treatment", "treatments", "exposed", "intervention")

// armWords follow a side of a trial: "the treatment group", "the control arm".
var armWords = setOf("group", "groups", "arm", "arms", "cohort")

// isFlag reports whether a column holds yes or no: a boolean, two text
// values of yes and no, or the integers 0 and 1.
func isFlag(c *Column) bool {
	return c.Type == "boolean" || yesNo(c) != nil || c.Type == "integer" && c.Min == "0" && c.Max == "1"
}

// leaveOut and missingNouns say missing values are left out: "excl.
// blanks", "ignoring nulls".
var (
	leaveOut     = setOf("excl", "excluding", "exclude", "ignoring", "ignore", "without", "skipping", "dropping", "drop", "omitting", "minus")
	missingNouns = setOf("blanks", "blank", "nulls", "null", "nans", "nan", "na", "nas", "missing", "empties", "empty")
)

// missingValues reads "missing a sex", "with no email" and "without a
// phone number" over a column that is not a number as the rows where that
// column is empty: a filter "is null". Said of a numeric column, "without"
// is presence's (no discount is a discount of 0).
func (p *parser) missingValues() error {
	if p.t == nil {
		return nil
	}
	for i := 0; i+1 < len(p.toks); i++ {
		w := p.low(i)
		k := i + 1
		if leaveOut[w] && p.free(i) {
			if b := p.skip(i+1, ".", "the", "any"); missingNouns[p.low(b)] && !p.startsValue(b) { // "excl. NA" of North America is a value
				if c, n, st := p.colAt(b+1, prefAny); c != nil && st >= mEntity && p.free(b+1) {
					// "excluding missing income": the rows where it is not empty
					src := p.src(i, b+1+n)
					p.in.Filters = append(p.in.Filters, Filter{Column: c.Name, Op: "is not null"})
					p.understood(i, fmt.Sprintf("%s -> %s is not empty", src, c.Name), src)
					p.use(i, b+1+n)
					i = b + n
					continue
				}
				// "excluding empty containers" is of a flag or a value
				if e := b + 1; e >= len(p.toks) || p.toks[e].kind != kWord || afterHad[p.low(e)] || stopwords[p.low(e)] {
					// "avg csat (excl. blanks)": missing values, which a
					// measure of a column leaves out anyway (a count of rows
					// does not: checked once the measures are read)
					p.blanksAt, p.blanksSaid = i, true
					p.understood(i, fmt.Sprintf("%s -> missing values left out, as every measure of a column leaves them out", p.src(i, b+1)), p.src(i, b+1))
					p.use(i, b+1)
					i = b
					continue
				}
			}
		}
		switch {
		case w == "missing" || w == "lacking" || w == "without":
		case w == "with" && p.low(i+1) == "no":
			k = i + 2
		default:
			continue
		}
		if !p.free(i) {
			continue
		}
		k = p.skip(k, "a", "an", "any", "the", "their", "its", "his", "her")
		c, n, st := p.colAt(k, prefDim)
		if c == nil || st < mEntity || !p.free(k) || w != "missing" && isNumeric(c) {
			continue
		}
		src := p.src(i, k+n)
		p.in.Filters = append(p.in.Filters, Filter{Column: c.Name, Op: "is null"})
		p.understood(i, fmt.Sprintf("%s -> %s is empty", src, c.Name), src+" ("+c.Name+" is empty)")
		p.use(i, k+n)
		i = k + n - 1
	}
	return nil
}

// weekends reads "weekends vs weekdays" (or "weekdays and weekends",
// "weekend or weekday") as the dates grouped into the two: a grain
// "daytype" of the date column. "By weekday" alone stays the day of the
// week.
func (p *parser) weekends() error {
	if p.date == nil {
		return nil
	}
	isWeekend := func(w string) bool { return w == "weekend" || w == "weekends" }
	isWeekday := func(w string) bool { return w == "weekday" || w == "weekdays" || w == "workdays" }
	for i := 0; i < len(p.toks); i++ {
		a := p.low(i)
		if !isWeekend(a) && !isWeekday(a) {
			continue
		}
		k := i + 1
		if _, m := p.anyPhrase(k, versusWords); m > 0 {
			k += m
		} else if w := p.low(k); w == "and" || w == "or" || w == "/" {
			k++
		} else {
			continue
		}
		k = p.skip(k, "on", "the")
		if b := p.low(k); isWeekend(a) && isWeekday(b) || isWeekday(a) && isWeekend(b) {
			p.addGroup(i, p.src(i, k+1), p.date.Name, "daytype")
			p.use(i, k+1)
			i = k
		}
	}
	return nil
}
