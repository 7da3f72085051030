package intent

import (
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
	// alias marks a value found by another form of it ("sunny" for
	// sun, "California" for CA).
	alias bool
	// caps marks a form that matches only written in capitals ("US").
	caps bool
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
		codes, compass := countryCodeColumn(c), compassColumn(c)
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
			forms := valueForms(v)
			if codes {
				forms = append(forms, countryForms(v)...) // "Brazil" for BRA
			}
			if compass {
				forms = append(forms, compassCodes[strings.ToLower(v)]...) // "the west" for W
			}
			for _, f := range forms {
				fw := strings.Fields(f)
				most = max(most, len(fw))
				k := "~" + normKey(fw)
				idx[k] = append(idx[k], valRef{col: c, value: v, alias: true, caps: capsAlias(v, f)})
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
			// "sub_saharan_africa" is said "Sub-Saharan Africa".
			words = append(words, underscoreWords(t.low)...)
		case kQuoted:
			words = append(words, valueWords(t.raw)...)
		}
	}
	return words
}

// underscoreWords splits a word at its underscores.
// possessive strips the "'s" of a possessive ("IBM's").
func possessive(w string) string {
	for _, suf := range []string{"'s", "’s"} {
		if r, ok := strings.CutSuffix(w, suf); ok && r != "" {
			return r
		}
	}
	return w
}

func underscoreWords(w string) []string {
	return strings.FieldsFunc(w, func(r rune) bool { return r == '_' })
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
			case t.kind == kWord && k == i+n-1:
				// "IBM's price": the value, whose price
				words = append(words, underscoreWords(possessive(t.low))...)
			case t.kind == kWord:
				words = append(words, underscoreWords(t.low)...)
			case t.kind == kPunct && innerPunct[t.low]:
			default:
				ok = false
			}
		}
		if !ok || len(words) > most {
			continue
		}
		raw := possessive(p.src(i, i+n))
		refs := idx[strings.Join(words, " ")]
		if len(refs) == 0 {
			refs = idx["~"+normKey(words)]
		}
		if len(refs) == 0 {
			refs = idx[normKey(words)] // "comedies" for Comedy
		}
		refs = slices.DeleteFunc(slices.Clone(refs), func(r valRef) bool {
			// A weak value ("F") found by a form that is not ("female")
			// is as strong as that form; a code in capitals written as
			// the data spells it ("IT", "US", "OTAs" of OTA) is the code,
			// not the word.
			return shortCaps(r.value) && raw != r.value && raw != r.value+"s" && !r.alias || r.caps && raw != strings.ToUpper(raw) ||
				st && weak(r.value) && (!r.alias || weak(raw)) && !(raw == r.value && len(raw) >= 2 && shortCaps(raw))
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
