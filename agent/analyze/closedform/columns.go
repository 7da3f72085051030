package closedform

import (
	"sort"
	"strings"
	"unicode"
)

// token is one word of a text with its byte span.
type token struct {
	start, end int
	raw        string // as written
	low        string
	stem       string
}

// tokenize splits text into runs of letters and digits.
func tokenize(text string) []token {
	var out []token
	start := -1
	flush := func(end int) {
		if start >= 0 {
			raw := text[start:end]
			low := strings.ToLower(raw)
			out = append(out, token{start: start, end: end, raw: raw, low: low, stem: stem(low)})
			start = -1
		}
	}
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(text))
	return out
}

// nameWords splits an identifier or column name into lower-case words at
// punctuation, underscores, lower-to-upper case changes and letter/digit
// changes: "gdpPercap_1982" -> gdp, percap, 1982.
func nameWords(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			if len(cur) > 0 && ((unicode.IsLower(prev) && unicode.IsUpper(r)) || unicode.IsDigit(prev)) {
				flush()
			}
			cur = append(cur, r)
		case unicode.IsDigit(r):
			if len(cur) > 0 && unicode.IsLetter(prev) {
				flush()
			}
			cur = append(cur, r)
		default:
			flush()
		}
		prev = r
	}
	flush()
	return out
}

// stem is a light suffix stripper so that plurals and verb forms meet:
// fares/fare, charges/charge, survived/survive, closing/close.
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		w = w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		w = w[:len(w)-3]
	case len(w) > 4 && strings.HasSuffix(w, "ed"):
		w = w[:len(w)-2]
	case len(w) > 6 && strings.HasSuffix(w, "al") && !strings.HasSuffix(w, "ial") && !strings.HasSuffix(w, "ical"):
		w = w[:len(w)-2] // survival, arrival: survive, arrive
	}
	if syn, ok := synonyms[w]; ok {
		return syn
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

// synonyms are words data sets use interchangeably for one column.
var synonyms = map[string]string{"gender": "sex"}

// weakWords carry no meaning of their own in a column name or a phrase.
var weakWords = map[string]bool{"of": true, "the": true, "a": true, "an": true, "in": true, "on": true, "at": true, "to": true,
	"and": true, "or": true, "for": true, "by": true, "per": true, "no": true, "number": true, "num": true, "indicator": true,
	"is": true, "with": true, "from": true, "total": true, "value": true, "values": true, "count": true, "column": true,
	"new": true, "feature": true}

// genericWords are statistics words that must not by themselves name a
// column ("the mean value", "the number of").
var genericWords = map[string]bool{"mean": true, "average": true, "avg": true, "median": true, "std": true, "value": true,
	"number": true, "count": true, "total": true, "rate": true, "score": true, "sum": true, "max": true, "min": true,
	"maximum": true, "minimum": true, "type": true, "data": true, "id": true, "name": true, "time": true, "date": true,
	"year": true, "new": true, "old": true, "change": true, "level": true, "range": true, "ratio": true, "percentage": true,
	"group": true, "class": true, "category": true, "label": true, "index": true, "row": true, "high": true, "low": true,
	"open": true, "close": true, "result": true, "status": true, "code": true, "size": true, "order": true,
	"feature": true, "variable": true}

// idWords end the names of identifier columns.
var idWords = map[string]bool{"id": true, "ids": true, "index": true, "idx": true, "key": true, "code": true, "no": true, "num": true}

// englishShort are column names that are also common short words; they
// match only when written with the column's own capitalisation.
var englishShort = map[string]bool{"at": true, "in": true, "on": true, "of": true, "to": true, "by": true, "is": true,
	"it": true, "a": true, "an": true, "or": true, "and": true, "the": true, "for": true, "no": true, "yes": true,
	"as": true, "be": true, "if": true, "do": true, "up": true, "we": true, "us": true, "all": true, "any": true,
	"not": true, "per": true, "dir": true, "log": true, "max": true, "min": true, "sum": true}

// mention is a column named in a text.
type mention struct {
	col        string
	start, end int
	score      float64
	quoted     bool
}

// colInfo is what the matcher knows of one column.
type colInfo struct {
	name    string
	words   []string // nameWords
	stems   []string
	content []string // stems of words that carry meaning
	flat    string   // lower-case letters and digits only
}

type matcher struct {
	cols []colInfo
}

func newMatcher(names []string) *matcher {
	m := &matcher{}
	for _, n := range names {
		ci := colInfo{name: n, words: nameWords(n)}
		for _, w := range ci.words {
			ci.stems = append(ci.stems, stem(w))
			if !weakWords[w] {
				ci.content = append(ci.content, stem(w))
			}
		}
		var b strings.Builder
		for _, r := range strings.ToLower(n) {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(r)
			}
		}
		ci.flat = b.String()
		m.cols = append(m.cols, ci)
	}
	return m
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// find returns the columns named in text, each span named once, in text
// order.
func (m *matcher) find(text string) []mention {
	var cands []mention
	low := strings.ToLower(text)
	toks := tokenize(text)
	for _, c := range m.cols {
		// the name as written
		name := strings.ToLower(c.name)
		if name != "" {
			for off := 0; ; {
				i := strings.Index(low[off:], name)
				if i < 0 {
					break
				}
				s, e := off+i, off+i+len(name)
				off = s + 1
				if s > 0 && isWordByte(low[s-1]) && isWordByte(low[s]) {
					continue
				}
				if e < len(low) && isWordByte(low[e]) && isWordByte(low[e-1]) {
					continue
				}
				if englishShort[name] && text[s:e] != c.name {
					continue
				}
				quoted := s > 0 && e < len(text) && strings.ContainsRune(`"'“‘`+"`", rune(text[s-1])) && strings.ContainsRune(`"'”’`+"`", rune(text[e]))
				if !quoted && s > 0 && e < len(text) && (text[s-1] == '\xe2' || text[e] == '\xe2') {
					quoted = true // curly quotes
				}
				sc := 100 + float64(len(name))
				if quoted {
					sc += 50
				}
				if englishShort[name] && !quoted && len(name) <= 2 && strings.ToUpper(name) != c.name {
					continue
				}
				cands = append(cands, mention{col: c.name, start: s, end: e, score: sc, quoted: quoted})
			}
		}
		// word sequences
		for i := range toks {
			if sc, n := matchStems(toks[i:], c); n > 0 {
				cands = append(cands, mention{col: c.name, start: toks[i].start, end: toks[i+n-1].end, score: sc})
			}
			if sc, n := matchAbbrev(toks[i:], c); n > 0 {
				cands = append(cands, mention{col: c.name, start: toks[i].start, end: toks[i+n-1].end, score: sc})
			}
		}
	}
	// partial matches: a distinctive word of a column
	for i, t := range toks {
		if weakWords[t.low] || genericWords[t.low] || len(t.low) < 3 || isDigits(t.low) {
			continue
		}
		var hits []colInfo
		for _, c := range m.cols {
			if n := len(c.words); n > 1 && idWords[c.words[n-1]] && !idWords[t.low] {
				continue // "passengers" is not PassengerId
			}
			for _, s := range c.content {
				if s == t.stem {
					hits = append(hits, c)
					break
				}
			}
		}
		if len(hits) == 0 {
			continue
		}
		if len(hits) > 1 {
			continue // a word several columns share names none of them
		}
		best := hits[0]
		_ = i
		sc := 20 * float64(len(t.low)) / float64(len(best.flat)+1)
		cands = append(cands, mention{col: best.name, start: t.start, end: t.end, score: 10 + sc})
	}
	sort.SliceStable(cands, func(a, b int) bool {
		if cands[a].score != cands[b].score {
			return cands[a].score > cands[b].score
		}
		return cands[a].end-cands[a].start > cands[b].end-cands[b].start
	})
	var out []mention
	for _, c := range cands {
		overlap := false
		for _, o := range out {
			if c.start < o.end && c.end > o.start {
				overlap = true
				break
			}
		}
		if !overlap {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].start < out[b].start })
	return out
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// matchStems matches the column's words (as stems) at the start of toks;
// weak words of the column may be left out of the text.
func matchStems(toks []token, c colInfo) (float64, int) {
	if len(c.stems) == 0 {
		return 0, 0
	}
	ti := 0
	matched := 0
	chars := 0
	for _, s := range c.stems {
		if ti < len(toks) && toks[ti].stem == s {
			ti++
			matched++
			chars += len(s)
			continue
		}
		if weakWords[s] || weakWords[s+"s"] {
			continue
		}
		return 0, 0
	}
	if matched == 0 || weakWords[toks[0].low] {
		return 0, 0
	}
	if chars <= 2 && toks[0].raw != c.name {
		return 0, 0 // "r" in "the absolute value of r" is not R_VALUE
	}
	if matched == 1 && len(c.stems) == 1 && englishShort[c.flat] && toks[0].raw != c.name {
		return 0, 0
	}
	return 50 + float64(chars), ti
}

var inflections = map[string]bool{"s": true, "es": true, "est": true, "er": true, "ers": true, "ly": true, "ed": true,
	"ing": true, "ness": true, "d": true}

// matchAbbrev matches a column whose flat name is made of prefixes of
// consecutive words: Pclass <- passenger class, SibSp <- siblings/spouses,
// lifeExp <- life expectancy.
func matchAbbrev(toks []token, c colInfo) (float64, int) {
	flat := c.flat
	// a short capitalised name made of initials: AT <- atmospheric temperature
	if len(flat) >= 2 && len(flat) <= 4 && strings.ToUpper(c.name) == c.name && len(toks) >= len(flat) {
		ok := true
		for i := 0; i < len(flat); i++ {
			t := toks[i].low
			if len(t) < 4 || weakWords[t] || genericWords[t] || t[0] != flat[i] {
				ok = false
				break
			}
		}
		if ok {
			return 25 + float64(len(flat)), len(flat)
		}
	}
	if len(flat) < 3 {
		return 0, 0
	}
	var try func(pos, ti int, long bool) int
	try = func(pos, ti int, long bool) int {
		if pos == len(flat) {
			if long {
				return ti
			}
			return -1
		}
		if ti >= len(toks) || ti >= 5 {
			return -1
		}
		w := toks[ti].low
		// longest prefix first
		for k := min(len(w), len(flat)-pos); k >= 1; k-- {
			if w[:k] != flat[pos:pos+k] || k == 1 && ti > 0 {
				continue // one letter only for the first word: Pclass, not PassengerId from "passengers into different"
			}
			if r := try(pos+k, ti+1, long || k >= 3); r > 0 {
				return r
			}
		}
		return -1
	}
	n := try(0, 0, false)
	if n <= 0 {
		return 0, 0
	}
	if n == 1 {
		w := toks[0].low
		if _, stat := statWords[w]; w == flat || inflections[strings.TrimPrefix(w, flat)] || len(flat) < 3 || genericWords[w] || stat || decisionWords[w] {
			return 0, 0 // an exact word is matchStems' business
		}
		if stem(w) == stem(flat) {
			return 0, 0
		}
	}
	for _, t := range toks[:n] {
		if weakWords[t.low] && n > 1 && t.low != toks[0].low {
			// joining words such as "of" are allowed inside
		}
	}
	if weakWords[toks[0].low] || weakWords[toks[n-1].low] {
		return 0, 0
	}
	return 30 + float64(len(flat)), n
}

// info returns what the matcher knows of a column.
func (m *matcher) info(name string) colInfo {
	for _, c := range m.cols {
		if c.name == name {
			return c
		}
	}
	return colInfo{name: name}
}
