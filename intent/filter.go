package intent

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// negations before values exclude them: "excluding Texas".
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
			neg, j = true, p.skip(i+n, ".", "-", "the", "for") // "excl. NA"
		}
		refs, n := p.valueHere(j, fuzzy)
		if n == 0 {
			continue
		}
		col, why := p.pickColumn(refs, j, j+n)
		if col == nil {
			if cols := refCols(refs); len(cols) > 1 {
				// Reported, and read by nothing else, even when its
				// words are stop words too ("IN").
				p.undecided = append(p.undecided, undecidedValue{j, j + n, cols})
				p.use(j, j+n)
				i = j + n - 1
			}
			continue
		}
		if n == 1 && !strings.EqualFold(p.src(j, j+n), valueIn(refs, col)) && tableWord(p.t, p.low(j)) && p.low(j) != norm(p.low(j)) {
			// "countries" over ne_countries with a type 'Country': the
			// table's rows, said in the plural, not the rows of that type
			continue
		}
		if p.countedNoun(j, n) && !strings.EqualFold(p.src(j, j+n), valueIn(refs, col)) &&
			(tableWord(p.t, p.low(j+n-1)) || p.countColumn() != nil || p.namesColumnBesides(col, j, j+n)) {
			// "number of deaths by race" over a table of deaths with a
			// type 'Death': the rows counted, or that type? Not said.
			// Nor is it said by "how many deaths of each type". Over a
			// table of a game's events, "number of fouls" are the events
			// of type 'foul'.
			continue
		}
		vals := []string{valueIn(refs, col)}
		end := j + n
		versus := false
		for {
			k := p.skip(end, "and", "or", ",", "&", "/", "nor", "+")
			if _, m := p.anyPhrase(end, versusWords); m > 0 && !neg {
				k, versus = end+m, true
			} else if _, m := p.anyPhrase(end+1, versusWords); m > 0 && !neg && p.rowNoun(end) {
				k, versus = end+1+m, true // "rainy days vs sunny days"
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
			if versus && p.rowNoun(end) {
				end++ // "... vs sunny days"
			}
		}
		start := j
		if neg {
			start = i
		}
		if len(vals) == 2 && !neg && p.low(j-1) == "between" && (len(col.Values) == 2 || p.asksToCompare()) {
			// "compare … between male and female patients": side by side;
			// "priority between Low and High" may be a range of an order
			// the data does not say, and is left to be reported
			start, versus = j-1, true
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

// asksToCompare reports whether the request asks for a comparison in so
// many words: "compare", "difference", "versus".
func (p *parser) asksToCompare() bool {
	for _, t := range p.toks {
		switch t.low {
		case "compare", "compared", "comparing", "comparison", "difference", "differences", "differ", "vs", "versus", "gap", "gaps":
			return true
		}
	}
	return false
}

// namesOverCodes drops, from refs naming a country both in a column of
// names and in a column of its ISO codes ("Swiss": Switzerland and CHE),
// the code: the two pick the same rows, and the name reads as written.
func (p *parser) namesOverCodes(refs []valRef) []valRef {
	named := slices.ContainsFunc(refs, func(r valRef) bool { return !p.countryCodes(r.col) })
	if !named {
		return refs
	}
	kept := slices.DeleteFunc(slices.Clone(refs), func(r valRef) bool { return r.alias && p.countryCodes(r.col) })
	if len(kept) == 0 {
		return refs
	}
	return kept
}

// undecidedValue is a value of several columns (role twins, or columns
// with as many values) whose column the request does not say: not
// applied, and reported.
type undecidedValue struct {
	i, j int
	cols []*Column
}

// refCols returns the distinct columns of refs.
func refCols(refs []valRef) []*Column {
	var cols []*Column
	for _, r := range refs {
		if !slices.Contains(cols, r.col) {
			cols = append(cols, r.col)
		}
	}
	return cols
}

// versusWords between values set them side by side: "Texas vs California".
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
	if refs, n := p.beforeColumn(j); n > 0 {
		return refs, n
	}
	if fuzzy {
		if refs, n := p.fuzzyAt(j); n > 0 {
			return refs, n
		}
		return p.partialAt(j)
	}
	if refs, n := p.partialAt(j); n >= 2 {
		// a name of two words or more, before any word of it is read as
		// a column ("League" as the division)
		return refs, n
	}
	return nil, 0
}

// partialAt reads a name in capitals at j that is part of exactly one
// value of the table ("Premier League" for "English Premier League"): two
// words or more, or one of six letters or more. Part of several values is
// not read, nor is part of the name: "the English League" is not the
// "English Premier League" ("League" is no part of it there).
func (p *parser) partialAt(j int) ([]valRef, int) {
	var words []string
	for k := j; k < len(p.toks); k++ {
		t := p.toks[k]
		if t.kind != kWord || t.raw == "" || !unicode.IsUpper([]rune(t.raw)[0]) || stopwords[t.low] {
			break
		}
		if !p.free(k) {
			return nil, 0 // a word of the name was read as something else
		}
		words = append(words, t.low)
	}
	if len(words) > 4 {
		return nil, 0
	}
	for n := len(words); n == len(words) && n >= 1; n-- {
		if n == 1 && utf8.RuneCountInString(words[0]) < 6 {
			break
		}
		var found []valRef
		for ci := range p.t.Columns {
			c := &p.t.Columns[ci]
			if !isText(c) {
				continue
			}
			for _, v := range c.Values {
				if vw := valueWords(v); len(vw) > n && containsRun(vw, words[:n]) {
					found = append(found, valRef{col: c, value: v})
				}
			}
		}
		switch {
		case len(found) == 1 && n == 1 && p.namesColumn(j+1, found[0].col):
			// "the Scottish council districts": a word of one district's
			// name describing them all, not that district
			return nil, 0
		case len(found) == 1:
			return found, n
		case len(found) > 1:
			return nil, 0
		}
	}
	return nil, 0
}

// namesColumn reports whether the words at k name column c, read as it
// already or not.
func (p *parser) namesColumn(k int, c *Column) bool {
	if k < len(p.toks) && strings.EqualFold(p.toks[k].low, c.Name) {
		return true
	}
	got, _, st := p.colAt(k, prefDim)
	return got == c && st >= mEntity
}

// containsRun reports whether run is a contiguous part of words.
func containsRun(words, run []string) bool {
	for i := 0; i+len(run) <= len(words); i++ {
		if slices.Equal(words[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

// beforeColumn reads a weak value right before a word of its column's
// name, or that word as a verb: "R rated" (MPAA Rating), "grade A
// students" is afterColumn's.
func (p *parser) beforeColumn(j int) ([]valRef, int) {
	refs, m := p.valueAt(p.vals, p.maxVW, j)
	k := j + m
	if m == 0 || !p.free(k) || p.toks[k].kind != kWord {
		return nil, 0
	}
	w := p.toks[k].low
	for _, r := range refs {
		if slices.ContainsFunc(nameWords(r.col.Name), func(cw string) bool { return sameWord(w, cw) || edForm(w, cw) }) {
			return []valRef{r}, m + 1
		}
	}
	return nil, 0
}

// edForm reports whether w is the past participle of the verb the noun
// cw names: "rated" of rating, "scored" of score.
func edForm(w, cw string) bool {
	root, ok := strings.CutSuffix(w, "ed")
	return ok && len(root) >= 2 && (root+"ing" == cw || root+"e" == cw || root == cw)
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

// namesColumnBesides reports whether the request groups by column c or a
// word of it outside i..j-1 names c.
func (p *parser) namesColumnBesides(c *Column, i, j int) bool {
	if slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return g.Column == c.Name }) {
		return true
	}
	for k := range p.toks {
		if k >= i && k < j {
			continue
		}
		if found, _, st := p.colAt(k, prefAny); found == c && st >= mWords {
			return true
		}
	}
	return false
}

// countedNoun reports whether tokens j..j+n-1 are the noun a count
// counts: right after "how many", "number of" or "count of", and not
// followed by another word of the noun ("how many sunny days").
func (p *parser) countedNoun(j, n int) bool {
	k := j - 1
	if p.low(k) == "the" {
		k--
	}
	if k < 1 || !(p.toks[k].low == "many" && p.toks[k-1].low == "how" ||
		p.toks[k].low == "of" && (p.toks[k-1].low == "number" || p.toks[k-1].low == "count")) {
		return false
	}
	next := j + n
	return next >= len(p.toks) || p.toks[next].kind != kWord || clauseWords[p.toks[next].low]
}

// clauseWords end a noun phrase: "deaths by race", "deaths in 1992".
var clauseWords = setOf("by", "per", "in", "of", "for", "with", "were", "was", "are", "is", "did", "do", "does", "have",
	"has", "had", "there", "at", "on", "from", "during", "since", "and", "or", "across", "among", "between", "each")

// pickColumn chooses the column of a value found in several: the one named
// near it, else the one with fewer distinct values.
func (p *parser) pickColumn(refs []valRef, i, j int) (*Column, string) {
	refs = p.namesOverCodes(refs)
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
			if n == 0 || k+n > i && k < j || k > 0 && (p.toks[k-1].low == "by" || p.toks[k-1].low == "per") {
				continue // "in IT by country": a grouping, not the value's column
			}
			if d := min(abs(i-(k+n)), abs(k-j)); d < bestD {
				bestD, named = d, c
			}
		}
	}
	if c := p.byEnd(cols, i); c != nil {
		return pick(c, "the end of the journey its preposition says")
	}
	if named != nil {
		if roleTwins(cols) {
			p.useRoleWords(named)
		}
		return pick(named, "named nearby")
	}
	if c := p.notGrouped(cols); c != nil {
		return pick(c, "the other is grouped by")
	}
	if c, ok := p.byRole(cols); ok {
		return pick(c, "the role the request names")
	} else if roleTwins(cols) {
		return nil, "" // "Texas" in origin_state and dest_state: which one is not said
	}
	best, tie := cols[0], false
	for _, c := range cols[1:] {
		switch {
		case len(c.Values) < len(best.Values):
			best, tie = c, false
		case len(c.Values) == len(best.Values):
			tie = true
		}
	}
	if tie {
		return nil, "" // "IT" in dept and country, as many values each: which one is not said
	}
	return pick(best, "the column with fewer distinct values")
}

// roles are the synonym sets whose words say which end of a journey or
// transaction a column is about.
var roles = setOf("orig", "dest", "home", "away")

// roleOf returns the role a column's name says (its first word's synonym
// set among roles), "" if none.
func roleOf(c *Column) string {
	ws := nameWords(c.Name)
	if len(ws) == 0 {
		return ""
	}
	if r := synonymOf(ws[0]); roles[r] {
		return r
	}
	return ""
}

// roleTwins reports whether cols are columns of one thing in different
// roles (origin_state, dest_state).
func roleTwins(cols []*Column) bool {
	for _, c := range cols {
		if roleOf(c) == "" {
			return false
		}
	}
	return true
}

// saidRole returns among role twins the one whose role a word of the
// request says ("at home", "departing"), nil when none or several are
// said. Unlike byRole it marks nothing.
func (p *parser) saidRole(cols []*Column) *Column {
	if len(cols) < 2 || !roleTwins(cols) {
		return nil
	}
	var found *Column
	for _, c := range cols {
		r := roleOf(c)
		if !slices.ContainsFunc(p.toks, func(t token) bool { return t.kind == kWord && synonymOf(t.low) == r }) {
			continue
		}
		if found != nil {
			return nil
		}
		found = c
	}
	return found
}

// byRole picks among role twins the one whose role a word of the request
// says ("departing", "landed at"): exactly one must be said.
func (p *parser) byRole(cols []*Column) (*Column, bool) {
	if !roleTwins(cols) {
		return nil, false
	}
	said := map[string][]int{}
	for i, t := range p.toks {
		if r := synonymOf(t.low); t.kind == kWord && roles[r] {
			said[r] = append(said[r], i)
		}
	}
	var found *Column
	for _, c := range cols {
		if len(said[roleOf(c)]) > 0 {
			if found != nil {
				return nil, false
			}
			found = c
		}
	}
	if found == nil {
		return nil, false
	}
	p.useRoleWords(found)
	return found, true
}

// useRoleWords marks the free words that say c's role as read: "departing"
// or "home" is the role of the value's column, not a column of its own to
// group by or a measure.
func (p *parser) useRoleWords(c *Column) {
	r := roleOf(c)
	for i, t := range p.toks {
		if r != "" && t.kind == kWord && synonymOf(t.low) == r && p.free(i) && !p.namedGroup(i) {
			p.toks[i].used = true
		}
	}
}

// byEnd picks between an origin and a destination column the one a
// preposition before the value at i says: "from Texas" and "from airports
// in Texas" the origin, "to Texas" the destination, whatever role word
// the request has elsewhere ("arriving in Texas from California").
func (p *parser) byEnd(cols []*Column, i int) *Column {
	if !roleTwins(cols) {
		return nil
	}
	word := func(k int) string {
		if k < 0 || k >= len(p.toks) || p.toks[k].kind != kWord {
			return ""
		}
		return p.toks[k].low
	}
	k := i - 1
	if word(k) == "the" {
		k--
	}
	if (word(k) == "in" || word(k) == "at") && word(k-1) != "" {
		k -= 2 // "from airports in Texas"
		if word(k) == "the" {
			k--
		}
	}
	end := ""
	switch word(k) {
	case "from":
		end = "orig"
	case "to", "into":
		end = "dest"
	default:
		return nil
	}
	var found *Column
	for _, c := range cols {
		if roleOf(c) == end {
			if found != nil {
				return nil
			}
			found = c
		}
	}
	return found
}

// namedGroup reports whether token i follows a grouping word ("by
// origin").
func (p *parser) namedGroup(i int) bool {
	k := i - 1
	for k >= 0 && (p.low(k) == "the" || p.low(k) == "each") {
		k--
	}
	return k >= 0 && (p.toks[k].low == "by" || p.toks[k].low == "per")
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
	if len(cw) >= 2 && (qualifiers[cw[len(cw)-1]] || tailWords[cw[len(cw)-1]] || cw[len(cw)-1] == "size" || cw[len(cw)-1] == "status") {
		try = append(try, cw[:len(cw)-1]) // "large wildlife" for Wildlife Size = 'Large'
	}
	if len(cw) == 2 && !generic[norm(cw[0])] && !stopwords[cw[0]] {
		try = append(try, cw[:1]) // "gram-negative" for Gram_Staining = 'negative'
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
		case "=", "is", ":", "of", "the", "in", "equals", "==", "for", "-":
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
	p.filterRead(c.Name, i)
	if p.valueEnd == nil {
		p.valueEnd = map[int]bool{}
	}
	p.valueEnd[j] = true
	if p.valueStart == nil {
		p.valueStart = map[int]bool{}
	}
	p.valueStart[i] = true
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

// filterRead notes that a filter on column col was read at token i.
func (p *parser) filterRead(col string, i int) {
	if p.filterAt == nil {
		p.filterAt = map[string]int{}
	}
	if k, ok := p.filterAt[col]; !ok || i < k {
		p.filterAt[col] = i
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// notGrouped returns the one column of cols that the request does not
// group by, when the others are all grouped by: a filter on a grouping
// would leave it one group.
func (p *parser) notGrouped(cols []*Column) *Column {
	var free *Column
	for _, c := range cols {
		if slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return g.Column == c.Name }) {
			continue
		}
		if free != nil {
			return nil
		}
		free = c
	}
	if free == nil || len(p.in.GroupBy) == 0 {
		return nil
	}
	return free
}

// rowNoun reports whether the word at i names the rows of the table, as
// rowsNoun says, or its days.
func (p *parser) rowNoun(i int) bool {
	w := p.low(i)
	return p.rowsNoun(i) || (w == "days" || w == "day") && p.date != nil && p.toks[i].kind == kWord
}
