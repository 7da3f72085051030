package intent

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// valRef is one value of a text column.
type valRef struct {
	table int
	col   *Column
	value string
}

// valueIndex indexes the values of t's text columns by their words in lower
// case ("new york"), and again with each word normalised ("~new york"). It
// returns the index and the most words a value has.
func valueIndex(t *Table) (map[string][]valRef, int) {
	idx := map[string][]valRef{}
	most := 0
	for ci := range t.Columns {
		c := &t.Columns[ci]
		if !isText(c) {
			continue
		}
		for _, v := range c.Values {
			words := valueWords(v)
			if len(words) == 0 || len(words) > 8 {
				continue
			}
			most = max(most, len(words))
			key := strings.Join(words, " ")
			r := valRef{col: c, value: v}
			idx[key] = append(idx[key], r)
			if nk := normKey(words); nk != key {
				idx["~"+nk] = append(idx["~"+nk], r)
			}
		}
	}
	return idx, most
}

func valueWords(v string) []string {
	simple := true
	for k := 0; k < len(v) && simple; k++ {
		c := v[k]
		simple = c == ' ' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	if simple {
		return strings.Fields(strings.ToLower(v))
	}
	var words []string
	for _, t := range tokenize(v) {
		switch t.kind {
		case kWord:
			words = append(words, t.low)
		case kQuoted:
			words = append(words, valueWords(t.raw)...)
		}
	}
	return words
}

func normKey(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = singular(w)
	}
	return strings.Join(out, " ")
}

// innerPunct may stand between the words of a value: "E-commerce", "Food
// & Beverage", "St. Louis".
var innerPunct = setOf("-", "&", ".", "/", "+", "'")

// valueAt returns the values of idx named by the longest run of free tokens
// at i, and its length. Values written in short capitals ("AZ", "IN") match
// only as written. With strict, weak values (one letter, numbers, common
// words) are left out: they need their column named next to them.
func (p *parser) valueAt(idx map[string][]valRef, most, i int, strict ...bool) ([]valRef, int) {
	st := len(strict) > 0 && strict[0]
	if !p.free(i) {
		return nil, 0
	}
	if p.toks[i].kind == kQuoted {
		var out []valRef
		for _, r := range p.qvals[i] {
			for _, q := range idx[strings.Join(valueWords(r.value), " ")] {
				if q.value == r.value && q.col == r.col {
					out = append(out, r)
				}
			}
		}
		return out, len(out)
	}
	if p.toks[i].kind != kWord {
		return nil, 0
	}
	for n := min(most*2, len(p.toks)-i); n >= 1; n-- {
		last := p.toks[i+n-1]
		if last.kind != kWord {
			continue
		}
		var words []string
		ok := true
		for k := i; k < i+n && ok; k++ {
			t := p.toks[k]
			switch {
			case t.used:
				ok = false
			case t.kind == kWord:
				words = append(words, t.low)
			case t.kind == kPunct && innerPunct[t.low]:
			default:
				ok = false
			}
		}
		if !ok || len(words) > most {
			continue
		}
		raw := p.src(i, i+n)
		refs := idx[strings.Join(words, " ")]
		if len(refs) == 0 {
			refs = idx["~"+normKey(words)]
		}
		refs = slices.DeleteFunc(slices.Clone(refs), func(r valRef) bool {
			return shortCaps(r.value) && raw != r.value || st && weak(r.value)
		})
		if len(refs) > 0 {
			return refs, n
		}
	}
	return nil, 0
}

// shortCaps reports whether v is a short code in capitals ("AZ", "IN").
func shortCaps(v string) bool {
	if len(v) > 3 {
		return false
	}
	for _, r := range v {
		if !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// weak reports whether a value is too common a word to be read as a
// filter unless its column is named next to it.
func weak(v string) bool {
	l := strings.ToLower(strings.TrimSpace(v))
	if utf8.RuneCountInString(l) <= 1 || stopwords[l] || aggWord(l) || vocabulary[l] {
		return true
	}
	if _, err := strconv.ParseFloat(l, 64); err == nil {
		return true
	}
	switch l {
	case "true", "false", "yes", "no", "none", "null", "n/a", "na", "unknown", "other", "others", "all":
		return true
	}
	return false
}

var negations = []string{"excluding", "exclude", "excludes", "excluded", "except", "except for", "not", "without",
	"other than", "but not", "apart from", "ignoring", "ignore", "outside", "outside of", "non", "minus",
	"leaving out", "not including", "aside from", "excl", "w / o"}

// values reads filters from the values of the chosen table's text columns:
// "Arizona", "New York", "Arizona and Nevada" (in), "excluding Texas"
// (!=), "state = 'Arizona'". With fuzzy, a value written with a small typo
// ("Arizna") matches when only one value is that close.
func (p *parser) values(fuzzy bool) {
	if p.t == nil {
		return
	}
	for i := 0; i < len(p.toks); i++ {
		if !p.free(i) {
			continue
		}
		neg, j := false, i
		if _, n := p.anyPhrase(i, negations); n > 0 {
			neg, j = true, p.skip(i+n, "-", "the", "for")
		}
		refs, n := p.valueHere(j, fuzzy)
		if n == 0 {
			continue
		}
		col, why := p.pickColumn(refs, j, j+n)
		if col == nil {
			continue
		}
		vals := []string{valueIn(refs, col)}
		end := j + n
		versus := false
		for {
			k := p.skip(end, "and", "or", ",", "&", "/", "nor", "+")
			if _, m := p.anyPhrase(end, versusWords); m > 0 && !neg {
				k, versus = end+m, true
			}
			if k == end {
				break
			}
			if p.low(k) == "not" {
				if !neg {
					break
				}
				k++
			}
			more, m := p.valueHere(k, fuzzy)
			v := valueIn(more, col)
			if m == 0 || v == "" {
				break
			}
			if !slices.Contains(vals, v) {
				vals = append(vals, v)
			}
			end = k + m
		}
		start := j
		if neg {
			start = i
		}
		start = p.columnBefore(start, col)
		end = p.columnAfter(end, col)
		p.addFilter(start, end, col, vals, neg, why)
		if versus {
			// "Texas vs California": the values side by side.
			p.addGroup(start, p.src(start, end), col.Name, "")
		}
		i = end - 1
	}
}

var versusWords = []string{"vs", "versus", "v", "against", "compared to", "compared with", "vs ."}

// valueHere returns the values at j: exact ones (strict unless the column
// is named before them, "state = AZ"), then with fuzzy those within a small
// typo.
func (p *parser) valueHere(j int, fuzzy bool) ([]valRef, int) {
	if refs, n := p.valueAt(p.vals, p.maxVW, j, true); n > 0 {
		return refs, n
	}
	if refs, n := p.afterColumn(j); n > 0 {
		return refs, n
	}
	if fuzzy {
		return p.fuzzyAt(j)
	}
	return nil, 0
}

// afterColumn reads a weak value right after its column's name: "class 1",
// "sex = M", "status is Other".
func (p *parser) afterColumn(j int) ([]valRef, int) {
	for back := 1; back <= 4; back++ {
		s := j - back
		c, n, st := p.colAt(s, prefAny)
		if c == nil || st < mEntity || !isText(c) {
			continue
		}
		if k := p.skip(s+n, "=", "is", ":", "of", "equals", "equal", "to", "was"); k != j {
			continue
		}
		refs, m := p.valueAt(p.vals, p.maxVW, j)
		refs = slices.DeleteFunc(refs, func(r valRef) bool { return r.col != c })
		if len(refs) > 0 {
			return refs, m
		}
	}
	return nil, 0
}

// fuzzyAt returns the one value within a small typo of the free words at
// j (same first letter; one edit under eight letters, two from eight).
func (p *parser) fuzzyAt(j int) ([]valRef, int) {
	for n := min(3, p.maxVW); n >= 1; n-- {
		var words []string
		for k := j; k < j+n; k++ {
			if !p.free(k) || p.toks[k].kind != kWord || p.known(p.toks[k].low) || isNumber(p.toks[k].low) {
				words = nil
				break
			}
			words = append(words, p.toks[k].low)
		}
		key := strings.Join(words, " ")
		if len(words) == 0 || utf8.RuneCountInString(key) < 4 {
			continue
		}
		limit := 1
		if utf8.RuneCountInString(key) >= 8 {
			limit = 2
		}
		var best []valRef
		bestD, bestV := limit+1, ""
		for _, f := range p.fuzzyValues() {
			if f.words != n || f.key[0] != key[0] || abs(len(f.key)-len(key)) > limit {
				continue
			}
			d := distance(key, f.key)
			switch {
			case d < bestD:
				best, bestD, bestV = []valRef{f.ref}, d, f.key
			case d == bestD && f.key == bestV:
				best = append(best, f.ref)
			case d == bestD:
				bestV = "\x00" // two different values as close: ambiguous
			}
		}
		if len(best) > 0 && bestV != "\x00" && bestD > 0 {
			return best, n
		}
	}
	return nil, 0
}

// fuzzyVal is a value that may be matched despite a typo.
type fuzzyVal struct {
	key   string // its words in lower case
	words int
	ref   valRef
}

// fuzzyValues returns the chosen table's values that may be matched
// despite a typo: not weak, not short codes. It reads them once a Parse.
func (p *parser) fuzzyValues() []fuzzyVal {
	if p.fuzzy != nil {
		return p.fuzzy
	}
	p.fuzzy = []fuzzyVal{}
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if !isText(c) {
			continue
		}
		for _, v := range c.Values {
			vw := valueWords(v)
			if len(vw) == 0 || weak(v) || shortCaps(v) {
				continue
			}
			p.fuzzy = append(p.fuzzy, fuzzyVal{strings.Join(vw, " "), len(vw), valRef{col: c, value: v}})
		}
	}
	return p.fuzzy
}

func isNumber(w string) bool {
	_, err := strconv.ParseFloat(w, 64)
	return err == nil
}

// valueIn returns the value of refs in column c, "" if none.
func valueIn(refs []valRef, c *Column) string {
	for _, r := range refs {
		if r.col == c {
			return r.value
		}
	}
	return ""
}

// pickColumn chooses the column of a value found in several: the one named
// near it, else the one with fewer distinct values.
func (p *parser) pickColumn(refs []valRef, i, j int) (*Column, string) {
	var cols []*Column
	for _, r := range refs {
		if !slices.Contains(cols, r.col) {
			cols = append(cols, r.col)
		}
	}
	if len(cols) <= 1 {
		if len(cols) == 0 {
			return nil, ""
		}
		return cols[0], ""
	}
	var others []string
	pick := func(c *Column, how string) (*Column, string) {
		for _, o := range cols {
			if o != c {
				others = append(others, o.Name)
			}
		}
		return c, fmt.Sprintf(" (also a value of %s; chose %s, %s)", strings.Join(others, ", "), c.Name, how)
	}
	bestD, named := 1<<30, (*Column)(nil)
	for k := max(i-5, 0); k < min(j+3, len(p.toks)); k++ {
		for _, c := range cols {
			n := p.namesAt(k, c)
			if n == 0 || k+n > i && k < j {
				continue
			}
			if d := min(abs(i-(k+n)), abs(k-j)); d < bestD {
				bestD, named = d, c
			}
		}
	}
	if named != nil {
		return pick(named, "named nearby")
	}
	best := cols[0]
	for _, c := range cols[1:] {
		if len(c.Values) < len(best.Values) {
			best = c
		}
	}
	return pick(best, "the column with fewer distinct values")
}

// namesAt returns how many tokens at k (used or not) spell column c: its
// name, its words, or its words without a qualifier; 0 if they do not.
func (p *parser) namesAt(k int, c *Column) int {
	if k < 0 || k >= len(p.toks) || p.toks[k].kind == kPunct {
		return 0
	}
	t := p.toks[k]
	if strings.EqualFold(t.raw, c.Name) || t.kind == kQuoted && p.qcols[k].col == c {
		return 1
	}
	cw := nameWords(c.Name)
	try := [][]string{cw}
	if len(cw) >= 2 && qualifiers[cw[len(cw)-1]] {
		try = append(try, cw[:len(cw)-1])
	}
	for _, ws := range try {
		if n, ok := p.spells(k, ws, true); ok && !(n == 1 && stopwords[t.low]) {
			return n
		}
	}
	return 0
}

// columnBefore returns where a filter starts when its column is named just
// before its values ("state Arizona", "the state of Arizona", "billing
// state = 'Arizona'"): at the column's first token. Otherwise i.
func (p *parser) columnBefore(i int, c *Column) int {
	for k := i - 1; k >= 0 && k >= i-4; k-- {
		for s := max(k-2, 0); s <= k; s++ {
			if n := p.namesAt(s, c); n == k-s+1 && p.allFree(s, k+1) {
				return s
			}
		}
		switch p.low(k) {
		case "=", "is", ":", "of", "the", "in", "equals", "==", "for":
			continue
		}
		break
	}
	return i
}

func (p *parser) allFree(i, j int) bool {
	for k := i; k < j; k++ {
		if !p.free(k) {
			return false
		}
	}
	return true
}

// columnAfter returns where a filter ends when its column follows its
// values ("Arizona state", "Arizona stores").
func (p *parser) columnAfter(j int, c *Column) int {
	if n := p.namesAt(j, c); n > 0 && p.allFree(j, j+n) {
		return j + n
	}
	return j
}

// addFilter records a filter read from tokens i..j-1.
func (p *parser) addFilter(i, j int, c *Column, vals []string, neg bool, why string) {
	src := p.src(i, j)
	p.use(i, j)
	quotedVals := make([]string, len(vals))
	for k, v := range vals {
		quotedVals[k] = "'" + strings.ReplaceAll(v, "'", "''") + "'"
	}
	var words string
	switch {
	case neg:
		for _, v := range vals {
			p.in.Filters = append(p.in.Filters, Filter{Column: c.Name, Op: "!=", Values: []string{v}})
		}
		words = fmt.Sprintf("%s != %s", c.Name, strings.Join(quotedVals, fmt.Sprintf(" and %s != ", c.Name)))
	default:
		merged := false
		for k := range p.in.Filters {
			f := &p.in.Filters[k]
			if f.Column == c.Name && (f.Op == "=" || f.Op == "in") {
				for _, v := range vals {
					if !slices.Contains(f.Values, v) {
						f.Values = append(f.Values, v)
					}
				}
				if len(f.Values) > 1 {
					f.Op = "in"
				}
				merged = true
			}
		}
		if !merged {
			op := "="
			if len(vals) > 1 {
				op = "in"
			}
			p.in.Filters = append(p.in.Filters, Filter{Column: c.Name, Op: op, Values: slices.Clone(vals)})
		}
		if len(vals) == 1 {
			words = fmt.Sprintf("%s = %s", c.Name, quotedVals[0])
		} else {
			words = fmt.Sprintf("%s in (%s)", c.Name, strings.Join(quotedVals, ", "))
		}
	}
	p.understood(i, src+" -> "+words+why, fmt.Sprintf("%s (%s)", src, words))
}

var comparators = map[string]string{
	">": ">", ">=": ">=", "<": "<", "<=": "<=", "=": "=", "!=": "!=",
	"over": ">", "above": ">", "exceeding": ">", "exceeds": ">", "exceed": ">", "more than": ">", "greater than": ">",
	"higher than": ">", "larger than": ">", "bigger than": ">", "in excess of": ">", "north of": ">",
	"at least": ">=", "no less than": ">=", "not less than": ">=", "minimum of": ">=", "min of": ">=",
	"greater than or equal to": ">=", "more than or equal to": ">=",
	"under": "<", "below": "<", "less than": "<", "fewer than": "<", "lower than": "<", "smaller than": "<",
	"at most": "<=", "no more than": "<=", "not more than": "<=", "up to": "<=", "maximum of": "<=", "max of": "<=",
	"less than or equal to": "<=", "equal to": "=", "equals": "=", "exactly": "=", "equalling": "=",
}

var postfix = map[string]string{"or more": ">=", "or above": ">=", "or higher": ">=", "+": ">=",
	"or less": "<=", "or fewer": "<=", "or below": "<=", "or lower": "<="}

// number reads an amount at i: "100", "$1,000", "2.5k", "10%". It returns
// the number as text, the tokens read, and "money" or "pct" when the
// writing says so.
func (p *parser) number(i int) (string, int, string) {
	j, kind := i, ""
	switch p.low(j) {
	case "$", "€", "£":
		j, kind = j+1, "money"
	}
	w := p.low(j)
	if w == "" || p.toks[j].kind != kWord {
		return "", 0, ""
	}
	mult := 1.0
	switch {
	case strings.HasSuffix(w, "k"):
		w, mult = w[:len(w)-1], 1e3
	case strings.HasSuffix(w, "m") || strings.HasSuffix(w, "mm"):
		w, mult = strings.TrimRight(w, "m"), 1e6
	case strings.HasSuffix(w, "bn") || strings.HasSuffix(w, "b"):
		w, mult = strings.TrimSuffix(strings.TrimSuffix(w, "n"), "b"), 1e9
	}
	v, err := strconv.ParseFloat(w, 64)
	if err != nil || strings.ContainsAny(w, "-/") {
		if n, ok := numberWords[w]; ok && mult == 1 {
			v, err = float64(n), nil
		} else {
			return "", 0, ""
		}
	}
	j++
	switch p.low(j) {
	case "%", "percent", "pct", "percentage":
		j, kind = j+1, "pct"
	case "k", "thousand":
		v, j = v*1e3, j+1
	case "m", "million", "mn":
		v, j = v*1e6, j+1
	case "dollars", "usd", "eur", "euros", "bucks":
		kind = "money"
	}
	return strconv.FormatFloat(v*mult, 'f', -1, 64), j - i, kind
}

// conditions reads numeric conditions: "orders over 100", "amount > 100",
// "at least 5 units", "discount above 10%", "quantity between 2 and 5".
func (p *parser) conditions() error {
	if p.t == nil {
		return nil
	}
	for i := 0; i < len(p.toks); i++ {
		if !p.free(i) {
			continue
		}
		if p.low(i) == "between" {
			p.between(i)
			continue
		}
		ph, n := p.anyPhrase(i, keys(comparators))
		if n == 0 {
			continue
		}
		op := comparators[ph]
		num, m, kind := p.number(i + n)
		if m == 0 {
			continue
		}
		end := i + n + m
		c, from, to := p.conditionColumn(i, end, kind)
		if c == nil {
			continue
		}
		start := min(i, from)
		end = max(end, to)
		p.addCondition(start, end, from, to, c, op, num)
		i = end - 1
	}
	// "5 or more units", "100 or less"
	for i := 0; i < len(p.toks); i++ {
		num, m, kind := p.number(i)
		if m == 0 || !p.free(i) {
			continue
		}
		ph, n := p.anyPhrase(i+m, keys(postfix))
		if n == 0 {
			continue
		}
		end := i + m + n
		c, from, to := p.conditionColumn(i, end, kind)
		if c == nil {
			continue
		}
		p.addCondition(min(i, from), max(end, to), from, to, c, postfix[ph], num)
	}
	return nil
}

// between reads "between 2 and 5 units" as two conditions.
func (p *parser) between(i int) {
	lo, m1, kind := p.number(i + 1)
	if m1 == 0 || p.low(i+1+m1) != "and" {
		return
	}
	hi, m2, kind2 := p.number(i + 2 + m1)
	if m2 == 0 {
		return
	}
	end := i + 2 + m1 + m2
	c, from, to := p.conditionColumn(i, end, kind+kind2)
	if c == nil {
		return
	}
	start := min(i, from)
	end = max(end, to)
	src := p.src(start, end)
	p.useCond(start, end, from, to)
	p.in.Filters = append(p.in.Filters, Filter{Column: c.Name, Op: ">=", Values: []string{lo}},
		Filter{Column: c.Name, Op: "<=", Values: []string{hi}})
	w := fmt.Sprintf("%s >= %s and %s <= %s", c.Name, lo, c.Name, hi)
	p.understood(start, src+" -> "+w, src+" ("+w+")")
}

func (p *parser) addCondition(start, end, from, to int, c *Column, op, num string) {
	src := p.src(start, end)
	p.useCond(start, end, from, to)
	p.in.Filters = append(p.in.Filters, Filter{Column: c.Name, Op: op, Values: []string{num}})
	w := fmt.Sprintf("%s %s %s", c.Name, op, num)
	p.understood(start, src+" -> "+w, src+" ("+w+")")
}

// useCond marks a condition's tokens used; those that name its column
// (from..to-1) may still name the measure.
func (p *parser) useCond(start, end, from, to int) {
	p.use(start, end)
	for k := from; k < to; k++ {
		p.toks[k].cond = 2
	}
	if s := p.subject; s >= 0 && (p.free(s) || s >= from && s < to) {
		p.toks[s].used, p.toks[s].cond = true, 1
	}
}

var condFillers = []string{"is", "was", "are", "were", "of", "with", "where", "that", "have", "has", "had", "whose",
	"having", "a", "an", "the", "value", "values", "worth", "each", "total", "in"}

// conditionColumn finds the numeric column a condition at i..end-1 is
// about: named before the comparator ("amount > 100", "orders over 100":
// an order's amount), or as the unit after the number ("5 units", "$100").
// It returns the column and the tokens that name it.
func (p *parser) conditionColumn(i, end int, kind string) (*Column, int, int) {
	b := i - 1
	for b >= 0 && p.free(b) && slices.Contains(condFillers, p.low(b)) {
		b--
	}
	p.subject = -1
	if isCountNoun(p.low(b)) {
		p.subject = b // "orders with at least 5 units": the orders are the rows
	}
	// a numeric column named before: "amount > 100"
	for s := b; s >= 0 && s >= b-2; s-- {
		if c, n, st := p.colAt(s, prefNum); c != nil && s+n == b+1 && st >= mPart && !isIDLike(c) {
			return c, s, b + 1
		}
	}
	// the unit after the number: "5 units", "100 dollars", "3 quantity"
	if c, n, st := p.colAt(end, prefNum); c != nil && st >= mPart && !isIDLike(c) {
		return c, end, end + n
	}
	if w := p.low(end); w != "" && !isCountNoun(w) {
		if c := p.wordColumn(w); c != nil {
			return c, end, end + 1
		}
	}
	// a measure word or a thing sold before: "sales over 1000", "orders over 100"
	if w := p.low(b); w != "" {
		if c := p.wordColumn(w); c != nil {
			return c, b, b + 1
		}
	}
	if strings.Contains(kind, "money") {
		if c := p.moneyColumn(); c != nil {
			return c, i, i
		}
	}
	return nil, 0, 0
}

// isIDLike reports whether a column's name ends in an identifier word.
func isIDLike(c *Column) bool { return fit(c, prefCount) == 0 }

// wordColumn returns the column a measure word names in a condition:
// money words and the things sold ("orders", "transactions": their
// amount) a money-like column, unit words a quantity-like one.
func (p *parser) wordColumn(w string) *Column {
	switch {
	case moneyWords[w] || isCountNoun(w) || amountUnit(w) == "money":
		return p.moneyColumn()
	case quantityWords[w] || amountUnit(w) == "quantity":
		return p.quantityColumn()
	}
	return nil
}

// quotedValues returns the values of any table spelled like a quoted text,
// ignoring case.
func (p *parser) quotedValues(raw string) []valRef {
	var out []valRef
	for ti := range p.s.Tables {
		for ci := range p.s.Tables[ti].Columns {
			c := &p.s.Tables[ti].Columns[ci]
			if !isText(c) {
				continue
			}
			for _, v := range c.Values {
				if strings.EqualFold(strings.TrimSpace(v), raw) {
					out = append(out, valRef{table: ti, col: c, value: v})
				}
			}
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
