package intent

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
)

func isNumeric(c *Column) bool { return c.Type == "integer" || c.Type == "float" }
func isDate(c *Column) bool    { return c.Type == "date" || c.Type == "timestamp" }
func isText(c *Column) bool    { return c.Type == "string" || c.Type == "boolean" }

// qualifiers are the last words of a column name that say how an entity is
// written down: "customer_id", "product_name". "customers" names them.
var qualifiers = setOf("id", "name", "code", "key", "number", "nr", "ref", "uuid", "label", "title", "no", "cd", "nm", "fips")

// nameEnds end the name of a column of names ("dept_nm"); idWords the
// name of one of identifiers ("emp_no", "county_fips"), which are counted,
// never summed; codeWords one of codes ("dept_cd").
var (
	nameEnds = setOf("name", "title", "label", "nm")
	idEnds   = setOf("id", "key", "uuid", "number", "nr", "no", "fips")
	codeEnds = setOf("code", "cd")
)

// generic words name too many columns to pick one by themselves.
var generic = setOf("id", "name", "code", "key", "number", "date", "time", "day", "pct", "%", "total",
	"count", "average", "sum", "min", "max", "mean", "unit", "is", "of", "per", "type", "flag", "value", "num")

// Match strengths, strongest last.
const (
	mPart   = iota // one word of a numeric or date column's name: "discount" -> discount_pct
	mEntity        // the name without its qualifier: "customers" -> customer_id
	mWords         // every word of the name: "order date" -> order_date
	mExact         // the exact name, or a quoted name
)

type colMatch struct {
	col      *Column
	n        int // tokens that name it
	strength int
}

// colsAt returns the columns of table ti named by the free tokens at i.
func (p *parser) colsAt(ti, i int) []colMatch {
	if !p.free(i) {
		return nil
	}
	t := &p.s.Tables[ti]
	tok := p.toks[i]
	var out []colMatch
	if tok.kind == kQuoted {
		if r, ok := p.qcols[i]; ok && r.table == ti {
			out = append(out, colMatch{r.col, 1, mExact})
		}
		return out
	}
	if tok.kind != kWord {
		return nil
	}
	stop := stopwords[tok.low]
	for ci := range t.Columns {
		c := &t.Columns[ci]
		if strings.ToLower(c.Name) == tok.low || strings.ReplaceAll(strings.ToLower(c.Name), " ", "_") == tok.low {
			out = append(out, colMatch{c, 1, mExact})
			continue
		}
		cw := nameWords(c.Name)
		if stop {
			// A stop word starts a column's name only with the rest
			// of it: "time of day", not "time"; "total cost", not
			// "total".
			if n, ok := p.wordsAt(i, cw); ok && n >= 2 {
				out = append(out, colMatch{c, n, mWords})
			} else if n, ok := p.wordsAnyOrder(i, cw); ok && n >= 2 {
				out = append(out, colMatch{c, n, mWords}) // "total cost" for "Cost Total $"
			}
			continue
		}
		if n, ok := p.wordsAt(i, cw); ok {
			out = append(out, colMatch{c, n, mWords})
			continue
		}
		if raw := rawNameWords(c.Name); len(tok.low) >= 4 && raw[0] == tok.low && !slices.Contains(cw, tok.low) &&
			!slices.ContainsFunc(raw[1:], func(w string) bool { _, unit := unitOf[w]; return !unit && !unitWords[w] }) {
			// "tmin" for tmin_f, whose name is read as temp min f: the
			// run as written
			out = append(out, colMatch{c, 1, mWords})
			continue
		}
		if len(cw) >= 2 && cw[0] == "n" && !stop {
			// n_isotopes, n_stable_isotopes: the number of what the rest
			// of the name says
			if n, ok := p.wordsAt(i, cw[1:]); ok {
				out = append(out, colMatch{c, n, mWords})
				continue
			}
		}
		if len(cw) == 1 && p.runOfTwo(i, cw[0]) {
			out = append(out, colMatch{c, 2, mWords}) // "low cloud" for cloudlow, "herd size" for herdsz
			continue
		}
		if len(cw) >= 2 {
			if n, ok := p.ofPhrase(i, cw); ok {
				out = append(out, colMatch{c, n, mWords})
				continue
			}
			if n, ok := p.wordsAnyOrder(i, cw); ok {
				out = append(out, colMatch{c, n, mWords})
				continue
			}
		}
		if len(cw) >= 2 && isDate(c) && (synonymOf(cw[len(cw)-1]) == "dt" || cw[len(cw)-1] == "date") {
			// "by check-in month" for chk_in_dt: the date's name before
			// the grain it is read by
			if n, ok := p.wordsAt(i, cw[:len(cw)-1]); ok && units[p.low(i+n)] != "" && singular(p.low(i+n)) == p.low(i+n) { // not "delivery days", a span
				out = append(out, colMatch{c, n, mWords})
				continue
			}
		}
		if len(cw) >= 2 && qualifiers[cw[len(cw)-1]] {
			if n, ok := p.wordsAt(i, cw[:len(cw)-1]); ok {
				out = append(out, colMatch{c, n, mEntity})
				continue
			}
		}
		if len(cw) >= 2 && isText(c) && !generic[norm(cw[len(cw)-1])] {
			// "states" for Origin State, the table's only state column;
			// "airline operators" for Aircraft Airline Operator. The
			// words are matched first: onlyHead reads every column.
			n, ok := p.wordsAt(i, cw[len(cw)-1:])
			if !ok && len(cw) >= 3 {
				n, ok = p.wordsAt(i, cw[len(cw)-2:])
			}
			if ok && p.onlyHead(t, cw[len(cw)-1]) {
				out = append(out, colMatch{c, n, mEntity})
				continue
			}
			if ok && p.saidRole(p.headColumns(t, cw[len(cw)-1])) == c {
				// "teams ... at home": home_team of home_team and away_team
				out = append(out, colMatch{c, n, mEntity})
				continue
			}
		}
		if ew := essentialWords(cw); len(cw) >= 2 && len(ew) >= 1 && (isNumeric(c) || isDate(c)) {
			w := norm(tok.low)
			for _, part := range []string{ew[0], ew[len(ew)-1]} {
				if !generic[norm(part)] && !generic[part] && (norm(part) == w || sameWord(tok.low, part)) && !aggWord(tok.low) {
					out = append(out, colMatch{c, 1, mPart})
					break
				}
			}
			if len(out) == 0 && p.extremeNoun(t, i, c) {
				out = append(out, colMatch{c, 1, mPart})
			}
		}
	}
	return out
}

// extremeNouns are the words that name a day's extreme as a noun: "the
// daily high", "a low below zero".
var extremeNouns = setOf("high", "low", "highs", "lows")

// extremeNoun reports whether the word at i is an extreme said as a noun
// ("the high", "daily low") that names column c: c is the one numeric
// column of t with a word of the same meaning ("max" in temp_max), and no
// word of another column follows ("high temperature" is read whole).
func (p *parser) extremeNoun(t *Table, i int, c *Column) bool {
	w := p.toks[i].low
	if !extremeNouns[w] || !slices.ContainsFunc(nameWords(c.Name), func(cw string) bool { return sameWord(singular(w), cw) }) {
		return false
	}
	before := ""
	if i > 0 {
		before = p.toks[i-1].low // used or not: "daily" may be read as a grain
	}
	switch before {
	case "the", "a", "daily", "day's", "its", "monthly", "average", "mean", "median", "record":
	default:
		if _, adj := rankAdjectives[before]; !adj {
			return false
		}
	}
	if next := p.low(i + 1); next != "" && !stopwords[next] {
		for ci := range t.Columns {
			if slices.ContainsFunc(nameWords(t.Columns[ci].Name), func(cw string) bool { return sameWord(next, cw) }) {
				return false
			}
		}
	}
	n := 0
	for ci := range t.Columns {
		oc := &t.Columns[ci]
		if isNumeric(oc) && slices.ContainsFunc(nameWords(oc.Name), func(cw string) bool { return sameWord(singular(w), cw) }) {
			n++
		}
	}
	return n == 1
}

// headColumns returns the columns of t that end in the word head.
func (p *parser) headColumns(t *Table, head string) []*Column {
	var out []*Column
	for ci := range t.Columns {
		if ws := nameWords(t.Columns[ci].Name); len(ws) > 0 && sameWord(head, ws[len(ws)-1]) {
			out = append(out, &t.Columns[ci])
		}
	}
	return out
}

// onlyHead reports whether exactly one column of t ends in the word head
// or is called it.
func (p *parser) onlyHead(t *Table, head string) bool {
	n := 0
	for ci := range t.Columns {
		if ws := nameWords(t.Columns[ci].Name); len(ws) > 0 && sameWord(head, ws[len(ws)-1]) {
			n++
		}
	}
	return n == 1
}

// wordsAt reports whether the free word tokens at i spell words (compared
// singular and with abbreviations spelled out), ending at a token boundary,
// and how many tokens they take.
func (p *parser) wordsAt(i int, words []string) (int, bool) {
	return p.spells(i, words, false)
}

// spells is wordsAt over tokens used or not when anyUse is set.
func (p *parser) spells(i int, words []string, anyUse bool) (int, bool) {
	if len(words) == 0 {
		return 0, false
	}
	k, j := 0, i
	for k < len(words) {
		if k > 0 && p.hyphenAt(j) {
			j++ // "check-in" for chk_in_dt: the words of a name joined by a hyphen
		}
		if j < 0 || j >= len(p.toks) || !anyUse && p.toks[j].used || p.toks[j].kind != kWord {
			return 0, false
		}
		tw := tokenWords(p.toks[j].low)
		if m := runOf(tw, words[k:]); m > 0 && k > 0 {
			// "building sqft" for bldg_sqft, split [bldg sq ft]: a token
			// that runs the rest of the name's words together
			k += m
			j++
			continue
		}
		if len(tw) == 0 || k+len(tw) > len(words) {
			// A token longer than the name: "orderdate" for order_date.
			if len(tw) == 1 && k == 0 && tw[0] == strings.Join(words, "") {
				return 1, true
			}
			return 0, false
		}
		for _, w := range tw {
			if !sameWord(w, words[k]) {
				if k == 0 && len(tw) == 1 && tw[0] == strings.Join(words, "") {
					return 1, true
				}
				return 0, false
			}
			k++
		}
		j++
	}
	return j - i, true
}

// runOfTwo reports whether the free words at i and i+1, in either order,
// spell the run of letters name in two pieces, each the word or its
// shorthand: "low cloud" for cloudlow, "herd size" for herdsz.
func (p *parser) runOfTwo(i int, name string) bool {
	if len(name) < 6 || !isLetters(name) || i+1 >= len(p.toks) || !p.free(i+1) || p.toks[i+1].kind != kWord {
		return false
	}
	a, b := p.toks[i].low, p.toks[i+1].low
	if stopwords[a] || stopwords[b] || aggWord(a) || aggWord(b) {
		return false
	}
	piece := func(w, part string) bool { return w == part || sameWord(w, part) || abbreviates(w, part) }
	for k := 3; k+2 <= len(name); k++ {
		x, y := name[:k], name[k:]
		if piece(a, x) && piece(b, y) || piece(a, y) && piece(b, x) {
			return true
		}
	}
	return false
}

// hyphenAt reports whether the token at j is a hyphen written between two
// words, with no space either side.
func (p *parser) hyphenAt(j int) bool {
	return j > 0 && j+1 < len(p.toks) && p.toks[j].low == "-" && p.toks[j-1].end == p.toks[j].start && p.toks[j].end == p.toks[j+1].start
}

// runOf returns how many of words, two or more from the first, a token of
// one word runs together ("sqft" for sq ft), 0 if none.
func runOf(tw, words []string) int {
	if len(tw) != 1 {
		return 0
	}
	run := ""
	for m, w := range words {
		run += w
		if m >= 1 && run == tw[0] {
			return m + 1
		}
		if len(run) >= len(tw[0]) {
			break
		}
	}
	return 0
}

// Preferences for choosing among columns a phrase names.
const (
	prefAny   = iota
	prefDim   // a dimension: text first, names before codes before ids
	prefNum   // a numeric column only
	prefCount // an id first, for counting distinct
	prefDate  // a date column only
)

// colAt returns the column of the chosen table best named by the tokens
// at i for the purpose pref, with the number of tokens and the strength of
// the match; nil if none.
func (p *parser) colAt(i, pref int) (*Column, int, int) {
	if p.t == nil {
		return nil, 0, 0
	}
	ms := p.colsAt(p.tix, i)
	ms = slices.DeleteFunc(ms, func(m colMatch) bool {
		return pref == prefNum && !isNumeric(m.col) || pref == prefDate && !isDate(m.col)
	})
	if len(ms) == 0 {
		return nil, 0, 0
	}
	slices.SortStableFunc(ms, func(a, b colMatch) int {
		if a.n != b.n && a.strength >= mWords && b.strength >= mWords {
			return b.n - a.n // "origin city" for origin_city, not "origin" for origin
		}
		if a.strength != b.strength {
			return b.strength - a.strength
		}
		if a.n != b.n {
			return b.n - a.n
		}
		return fit(a.col, pref) - fit(b.col, pref)
	})
	best := ms[0]
	if best.strength == mPart && len(ms) > 1 && ms[1].strength == mPart && fit(ms[1].col, pref) == fit(best.col, pref) {
		var cols []*Column
		for _, m := range ms {
			if m.strength == mPart {
				cols = append(cols, m.col)
			}
		}
		if c := p.saidRole(cols); c != nil {
			return c, 1, mPart // "goals at home": home_score
		}
		return nil, 0, 0 // "date" with two date columns: not this pass's to choose
	}
	return best.col, best.n, best.strength
}

// fit ranks a column for a purpose, lower first.
func fit(c *Column, pref int) int {
	last := ""
	if w := nameWords(c.Name); len(w) > 0 {
		last = w[len(w)-1]
	}
	switch pref {
	case prefDim:
		switch {
		case isText(c) && nameEnds[last]:
			return 0
		case isText(c) && last != "id" && last != "key" && last != "uuid":
			return 1
		case isText(c):
			return 2
		case isDate(c):
			return 4
		}
		return 3
	case prefCount:
		switch {
		case idEnds[last]:
			return 0
		case codeEnds[last]:
			return 1
		}
		return 2
	}
	return 0
}

// setOf returns a set of words.
func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// resolveQuoted reads each quoted token as a column, a table or a value,
// in that order. A quoted single word that is none of them is an error
// naming the closest column; quoted words that are none of them are read
// as if unquoted.
func (p *parser) resolveQuoted() error {
	p.qcols, p.qvals = map[int]colRef{}, map[int][]valRef{}
	p.toks = p.readGlosses(p.glueWrittenNames(p.toks))
	var out []token
	for _, tok := range p.toks {
		if tok.kind != kQuoted {
			out = append(out, tok)
			continue
		}
		if r, ok := p.quotedColumn(tok.raw); ok {
			p.qcols[len(out)] = r
			out = append(out, tok)
			continue
		}
		if p.tableNamed(tok.raw) >= 0 {
			out = append(out, tok)
			continue
		}
		if vs := p.quotedValues(tok.raw); len(vs) > 0 {
			p.qvals[len(out)] = vs
			out = append(out, tok)
			continue
		}
		best, d := p.closestColumn(tok.raw)
		if !strings.ContainsAny(tok.raw, " \t") || best != "" && d <= 2 {
			return p.noColumn(tok.raw, best)
		}
		// Quoted prose: read the words inside.
		off := tok.start + strings.Index(p.text[tok.start:tok.end], tok.raw)
		for _, in := range tokenize(tok.raw) {
			in.start += off
			in.end += off
			out = append(out, in)
		}
	}
	p.toks = out
	p.noteGlosses()
	return nil
}

// glueWrittenNames reads a column's name written as it is in the data,
// with dots or hyphens between its words and no space ("fu.stat",
// "age.ord", "vanilla.ice.cream"), as that column quoted: the tokenizer
// cuts words at those marks, and the pieces would each be matched alone.
func (p *parser) glueWrittenNames(toks []token) []token {
	var out []token
	for i := 0; i < len(toks); i++ {
		j := i
		for j+2 < len(toks) && toks[j].kind == kWord && (toks[j+1].low == "." || toks[j+1].low == "-") &&
			toks[j+2].kind == kWord && toks[j].end == toks[j+1].start && toks[j+1].end == toks[j+2].start {
			j += 2
		}
		if j == i {
			out = append(out, toks[i])
			continue
		}
		// the longest glued run that is a column's name
		for ; j > i; j -= 2 {
			name := p.text[toks[i].start:toks[j].end]
			if p.anyColumnNamed(name) {
				out = append(out, token{raw: name, low: strings.ToLower(name), start: toks[i].start, end: toks[j].end, kind: kQuoted})
				break
			}
		}
		if j == i {
			out = append(out, toks[i])
			continue
		}
		i = j
	}
	return out
}

// anyColumnNamed reports whether a column of any table is called name,
// ignoring case.
func (p *parser) anyColumnNamed(name string) bool {
	for _, t := range p.s.Tables {
		for _, c := range t.Columns {
			if strings.EqualFold(c.Name, name) {
				return true
			}
		}
	}
	return false
}

// quotedColumn finds the column a quoted name refers to: exactly, then
// ignoring case, then by its words.
func (p *parser) quotedColumn(name string) (colRef, bool) {
	for _, same := range []func(c *Column) bool{
		func(c *Column) bool { return c.Name == name },
		func(c *Column) bool { return strings.EqualFold(c.Name, name) },
		func(c *Column) bool { return wordsKey(nameWords(c.Name)) == wordsKey(nameWords(name)) },
	} {
		for ti := range p.s.Tables {
			for ci := range p.s.Tables[ti].Columns {
				if c := &p.s.Tables[ti].Columns[ci]; same(c) {
					return colRef{ti, c}, true
				}
			}
		}
	}
	return colRef{}, false
}

func wordsKey(ws []string) string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = norm(w)
	}
	return strings.Join(out, " ")
}

// tableNamed returns the index of the table named name, or -1.
func (p *parser) tableNamed(name string) int {
	for ti, t := range p.s.Tables {
		if strings.EqualFold(t.Name, name) || wordsKey(nameWords(t.Name)) == wordsKey(nameWords(name)) {
			return ti
		}
	}
	return -1
}

// closestColumn returns the column name of any table closest to word by
// edit distance (over the whole name and each of its words), and the
// distance.
func (p *parser) closestColumn(word string) (string, int) {
	w := strings.ToLower(word)
	best, bd := "", 1<<30
	consider := func(ti int) {
		for _, c := range p.s.Tables[ti].Columns {
			d := distance(w, strings.ToLower(c.Name))
			if ws := nameWords(c.Name); len(ws) > 1 {
				for _, part := range ws {
					if len(part) >= 3 && !generic[part] {
						d = min(d, distance(w, part)+1)
					}
				}
			}
			d = min(d, distance(norm(w), norm(strings.ToLower(c.Name))))
			if d < bd {
				best, bd = c.Name, d
			}
		}
	}
	if p.t != nil {
		consider(p.tix)
	}
	for ti := range p.s.Tables {
		if p.t == nil || ti != p.tix {
			consider(ti)
		}
	}
	return best, bd
}

// noColumn is the error for a column name the data does not have.
func (p *parser) noColumn(word, closest string) error {
	if closest == "" {
		return quarry.Errorf(quarry.ECodeInvalid, "no column %s: the data has no columns", word).
			WithHint("load a file with a header row")
	}
	p.in.Unknown = append(p.in.Unknown, Unknown{Word: word, Reason: "no column is called that", Nearest: []string{closest}})
	return quarry.Errorf(quarry.ECodeNeedsClarification, "no column %s; did you mean %s?", word, closest).
		WithHint("the columns are " + p.columnList())
}

// columnList names the columns of the chosen table, or of every table.
func (p *parser) columnList() string {
	var names []string
	for ti, t := range p.s.Tables {
		if p.t != nil && ti != p.tix {
			continue
		}
		for _, c := range t.Columns {
			names = append(names, c.Name)
		}
	}
	return strings.Join(names, ", ")
}

// chooseTable picks the table the request is about: the one whose columns,
// values and name it names most; on a tie the larger, then the first.
func (p *parser) chooseTable() error {
	if len(p.s.Tables) == 0 {
		return nil
	}
	scores := make([]float64, len(p.s.Tables))
	var why []string
	type index struct {
		vals map[string][]valRef
		most int
	}
	idx := make([]index, len(p.s.Tables))
	for ti, t := range p.s.Tables {
		vals, maxVW := valueIndex(&p.s.Tables[ti])
		idx[ti] = index{vals, maxVW}
		for i := 0; i < len(p.toks); i++ {
			if r, ok := p.qcols[i]; ok && r.table == ti {
				scores[ti] += 3
				continue
			}
			if p.toks[i].kind == kQuoted && p.tableNamed(p.toks[i].raw) == ti {
				scores[ti] += 3
				continue
			}
			if p.toks[i].kind == kWord && !stopwords[p.toks[i].low] {
				for _, name := range append([]string{t.Name}, t.Joined...) {
					if norm(p.toks[i].low) == norm(name) || strings.EqualFold(p.toks[i].low, name) {
						scores[ti] += 2
						break
					}
				}
			}
			if w, name := p.toks[i].low, strings.ToLower(t.Name); p.toks[i].kind == kWord && len(w) >= 5 && strings.HasSuffix(w, "ed") &&
				(isLetters(name) && (sameWord(w, singular(name)) || abbreviates(w, name)) || slices.ContainsFunc(nameWords(t.Name), func(nw string) bool {
					r := nounRoot(w) // "brewed" over brw_batches: its letters, not "completed" over emp_comp
					return len(nw) >= 3 && abbreviates(r, nw) && !strings.HasPrefix(r, nw)
				})) {
				scores[ti] += 2 // "customers who ordered": the orders table (ord), as if named; "brewed": brw_batches
			} else if p.toks[i].kind == kWord && len(w) >= 5 && !stopwords[w] && !p.namesAColumn(singular(w)) && !p.namesAColumn(w) && slices.ContainsFunc(nameWords(t.Name), func(name string) bool {
				return len(name) >= 3 && name != w && abbreviates(w, name)
			}) {
				scores[ti]++ // "bookings" over bkgs: the table, nearly as if named
			}
			if ms := p.colsAt(ti, i); len(ms) > 0 {
				best := 0
				for _, m := range ms {
					best = max(best, m.strength)
				}
				if best >= mEntity {
					scores[ti]++
				} else {
					scores[ti] += 0.25
				}
				if slices.ContainsFunc(ms, func(m colMatch) bool { return m.strength == best && p.ownColumn(ti, m.col.Name) }) {
					// "average gdpw2" over un86 and perisk joined one to one:
					// perisk's own gdpw2, not un86's rows that meet it
					scores[ti] += 0.01
				}
				continue
			}
			if vs, n := p.valueAt(vals, maxVW, i); n > 0 && len(vs) > 0 {
				scores[ti] += 0.75
				i += n - 1
			}
		}
	}
	best := 0
	joins := func(a, b int) bool {
		return slices.ContainsFunc(p.s.Tables[a].Joined, func(n string) bool { return strings.EqualFold(n, p.s.Tables[b].Name) })
	}
	for ti := range p.s.Tables {
		// On a tie, a table that joins the other holds it; then the larger.
		if scores[ti] > scores[best] || scores[ti] == scores[best] && !joins(best, ti) &&
			(joins(ti, best) || p.s.Tables[ti].Rows > p.s.Tables[best].Rows) {
			best = ti
		}
	}
	// Still a tie with a table it joins: when the request names only what
	// that table has ("average list price by category" over orders and
	// products), the table's own rows are the ones to count, not the
	// rows of every order it is joined to.
	for ti := range p.s.Tables {
		if ti != best && scores[ti] == scores[best] && scores[ti] > 0 && joins(best, ti) && !p.namesFacts(ti) && !p.abbreviatesOnlyIn(best, ti) {
			best = ti
			break
		}
	}
	p.t, p.tix = &p.s.Tables[best], best
	p.in.Table = p.t.Name
	p.vals, p.maxVW = idx[best].vals, idx[best].most
	if len(p.s.Tables) > 1 {
		if scores[best] > 0 {
			why = append(why, "it holds the most of the columns and values named")
		} else {
			why = append(why, "nothing named another table's columns; it is the largest")
		}
		p.understood(-2, fmt.Sprintf("table %s (%s)", p.t.Name, strings.Join(why, "")), "table "+p.t.Name)
	}
	return nil
}

// ownColumn reports whether table ti has the column name of its own, not
// through a table it joins.
func (p *parser) ownColumn(ti int, name string) bool {
	return slices.ContainsFunc(p.s.Tables[ti].Columns, func(c Column) bool { return c.Via == "" && strings.EqualFold(c.Name, name) })
}

// namesFacts reports whether the request has a word of money or quantity
// ("sales", "units") that no column of table ti is named by: a measure of
// the table that joins ti, not of ti itself.
func (p *parser) namesFacts(ti int) bool {
	for i, t := range p.toks {
		if t.kind == kWord && (moneyWords[t.low] || quantityWords[t.low]) && len(p.colsAt(ti, i)) == 0 {
			return true
		}
	}
	return false
}

// abbreviatesOnlyIn reports whether a word of the request abbreviates a
// word of a column of table a that table b has no column of ("salary" for
// sal_k of staff, joined to depts): table a's rows are the ones asked
// about.
func (p *parser) abbreviatesOnlyIn(a, b int) bool {
	own := map[string]bool{}
	for _, c := range p.s.Tables[b].Columns {
		own[strings.ToLower(c.Name)] = true
	}
	for _, t := range p.toks {
		if t.kind != kWord || len(t.low) < 3 || stopwords[t.low] || aggWord(t.low) || vocabularyWords[t.low] {
			continue
		}
		for _, c := range p.s.Tables[a].Columns {
			if own[strings.ToLower(c.Name)] {
				continue
			}
			if slices.ContainsFunc(nameWords(c.Name), func(cw string) bool { return abbreviates(t.low, cw) }) {
				return true
			}
		}
	}
	return false
}

// particles end a phrasal verb that names a date column as one word:
// "signed up" for signup_dt, "checked in" for checkin_date.
var particles = setOf("up", "in", "out", "off", "on", "over", "down")

// verbNames returns where the request says date column c's event as a
// verb in the past ("hired" for hire_dt, "signed up" for signup_dt) and
// how many tokens it takes; 0 if it does not.
func (p *parser) verbNames(c *Column) (int, int) {
	for _, cw := range nameWords(c.Name) {
		cw = norm(cw) // "dx" is diagnosis
		if synonymOf(cw) == "yr" || synonymOf(cw) == "dt" || cw == "date" || len(cw) < 4 {
			continue
		}
		for i, t := range p.toks {
			if irregularParticiples[t.low] && t.low == cw && !t.used {
				return i, 1 // "invoices paid in 2023": paid_dt
			}
			if t.used || t.kind != kWord || stopwords[t.low] || len(t.low) < 5 || !strings.HasSuffix(t.low, "ed") {
				continue // "shipped", "signed up"; not "shipping cost", a noun
			}
			if sameWord(t.low, cw) || len(stem(t.low)) >= 6 && strings.HasPrefix(cw, stem(t.low)) {
				return i, 1 // "diagnosed" for diagnosis
			}
			if b := p.low(i + 1); particles[b] && p.free(i+1) && strings.HasSuffix(cw, b) && len(cw) > len(b)+2 && sameWord(t.low, cw[:len(cw)-len(b)]) {
				return i, 2
			}
		}
	}
	return 0, 0
}

// irregularParticiples say what happened to a row without -ed: "paid",
// "sold", "sent".
var irregularParticiples = setOf("paid", "sold", "sent", "built", "bought", "won", "lost", "spent", "born", "made", "held", "begun", "shown", "taken", "given")

// dateHints are words in the name of the date column that says when a
// sale happened.
var dateHints = []string{"order", "sale", "sales", "transaction", "purchase", "invoice", "booking", "payment", "txn"}

// birthDate reports whether c is a date of birth: a fact about a person,
// not when the row's event happened.
func birthDate(c *Column) bool {
	return slices.ContainsFunc(nameWords(c.Name), func(w string) bool {
		return w == "birth" || w == "dob" || w == "born" || w == "bday" || w == "birthday" || w == "birthdate"
	})
}

// chooseDateColumn picks the chosen table's date column: the only one, the
// one the request names, or the one whose name says order, sale or
// transaction date; and sets the anchor of relative periods.
func (p *parser) chooseDateColumn() error {
	if p.t == nil {
		p.anchor = p.now
		return nil
	}
	var dates []*Column
	for ci := range p.t.Columns {
		if isDate(&p.t.Columns[ci]) {
			dates = append(dates, &p.t.Columns[ci])
		}
	}
	why := ""
	switch {
	case len(dates) == 1:
		p.date = dates[0]
	case len(dates) > 1:
		for i := range p.toks {
			if c, _, s := p.colAt(i, prefDate); c != nil && s >= mWords {
				p.date, why = c, "named in the request"
				break
			}
		}
		for _, c := range dates {
			if _, n := p.verbNames(c); p.date == nil && n > 0 {
				p.date, why = c, "the request says it as a verb" // "customers who signed up in 2021": signup_dt
			}
		}
		for _, h := range dateHints {
			for _, c := range dates {
				if p.date == nil && slices.Contains(nameWords(c.Name), h) {
					p.date, why = c, "its name says "+h
				}
			}
		}
		if p.date == nil {
			p.date, why = dates[0], "the first of "+fmt.Sprint(len(dates))
			if k := slices.IndexFunc(dates, func(c *Column) bool { return !birthDate(c) }); k > 0 {
				p.date, why = dates[k], "the first that is not a birth date"
			}
		}
		p.in.DateColumn = p.date.Name
		p.understood(-1, fmt.Sprintf("date column %s (%s)", p.date.Name, why), "date column "+p.date.Name)
	}
	p.anchor = p.now
	if p.date != nil {
		if d, ok := day(p.date.Max); ok {
			p.anchor, p.fromData = d, true
		}
		if d, ok := day(p.date.Min); ok {
			p.dateMin = d
		}
	}
	return nil
}

// day reads the date at the start of s ("2021-12-30", "2021-12-30 10:00:00").
func day(s string) (time.Time, bool) {
	if len(s) < 10 {
		return time.Time{}, false
	}
	d, err := time.Parse("2006-01-02", s[:10])
	return d, err == nil
}

// dateName is the date column's name, "" without one.
func (p *parser) dateName() string {
	if p.date == nil {
		return ""
	}
	return p.date.Name
}
