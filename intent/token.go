package intent

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// kind is what a token is.
type kind int

const (
	kWord   kind = iota // letters, digits and underscores: "sales", "q1", "order_date", "2021-01-05", "1,000"
	kPunct              // one punctuation mark or operator: ";", "+", "-", ">=", "$", "%"
	kQuoted             // the text between quotes, whole
)

// token is one unit of the request. Passes mark the tokens they understand
// as used; what is left at the end is reported as not understood.
type token struct {
	raw        string // as written (for quoted tokens, without the quotes)
	low        string // lower case, without a possessive "'s"
	start, end int    // byte offsets of the token in the request, quotes included
	kind       kind
	used       bool
	// cond marks the words of a numeric condition that may still name the
	// measure when nothing else does: 1 for its subject ("orders" in
	// "orders over 100"), 2 for the words that name its column ("units" in
	// "at least 5 units").
	cond int
	// glossed marks the first word of data names in parentheses read in
	// place of the phrase before them ("households (db030)"): the phrase
	// said what the name is, a thing to count.
	glossed bool
}

// tokenize splits text into tokens. Dates ("2021-01-05", "01/05/2021") and
// numbers ("1,000", "3.5") stay whole; hyphens between words ("year-over-
// year") become "-" tokens; a possessive "'s" is dropped; text between
// quotes ("…", '…', `…`, “…”) is one quoted token.
func tokenize(text string) []token {
	var toks []token
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		case isQuote(r) && (r != '\'' && r != '’' || startsWord(text, i)):
			if t, next, ok := quoted(text, i, r, size); ok {
				toks = append(toks, t)
				i = next
				continue
			}
			low := string(r)
			if r == '’' || r == '‘' {
				low = "'"
			}
			toks = append(toks, token{raw: text[i : i+size], low: low, start: i, end: i + size, kind: kPunct})
			i += size // a stray quote: "Q1 '21"
		case isWordRune(r):
			t, next := word(text, i)
			toks = append(toks, t)
			i = next
		default:
			op, n := string(r), size
			if i+1 < len(text) && isASCIIop(text[i:i+2]) {
				op, n = text[i:i+2], 2
			}
			switch op {
			case "≥":
				op = ">="
			case "≤":
				op = "<="
			case "≠", "<>":
				op = "!="
			case "==":
				op = "="
			case "–", "—":
				op = "-"
			}
			toks = append(toks, token{raw: text[i : i+n], low: op, start: i, end: i + n, kind: kPunct})
			i += n
		}
	}
	return splitGluedUnits(toks)
}

// gluedUnits are units written against their number ("20kg", "5km",
// "3hrs"): the number and the unit are read as two words. "m", "k" and
// "bn" stay with the number, which they scale ("2m" is two million), and
// so do single letters ("1990s", "5G").
var gluedUnits = setOf("mm", "cm", "km", "kg", "lb", "lbs", "oz", "ft", "mph", "kmh", "mi", "sec", "secs",
	"hr", "hrs", "min", "mins", "yr", "yrs", "days", "kwh", "mwh", "gwh", "ml", "tons")

// splitGluedUnits splits each word of a number and a unit of gluedUnits
// into the number and the unit.
func splitGluedUnits(toks []token) []token {
	var out []token
	for _, t := range toks {
		k := 0
		for k < len(t.low) && (t.low[k] >= '0' && t.low[k] <= '9' || t.low[k] == '.' && k > 0) {
			k++
		}
		if t.kind != kWord || k == 0 || k == len(t.low) || !gluedUnits[t.low[k:]] || len(t.raw) != len(t.low) {
			out = append(out, t)
			continue
		}
		num, unit := t, t
		num.raw, num.low, num.end = t.raw[:k], t.low[:k], t.start+k
		unit.raw, unit.low, unit.start = t.raw[k:], t.low[k:], t.start+k
		out = append(out, num, unit)
	}
	return out
}

func isASCIIop(s string) bool {
	switch s {
	case ">=", "<=", "!=", "==", "<>":
		return true
	}
	return false
}

func isQuote(r rune) bool {
	switch r {
	case '"', '\'', '`', '“', '”', '‘', '’':
		return true
	}
	return false
}

func closing(r rune) []rune {
	switch r {
	case '“', '”':
		return []rune{'”', '“', '"'}
	case '‘', '’':
		return []rune{'’', '‘', '\''}
	case '\'':
		return []rune{'\'', '’'}
	}
	return []rune{r}
}

// startsWord reports whether the rune at i is not preceded by a letter or
// digit: a quote there opens, an apostrophe after a letter does not.
func startsWord(text string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return !isWordRune(r)
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
}

// quoted reads the quoted text opened by r at i.
func quoted(text string, i int, r rune, size int) (token, int, bool) {
	ends := closing(r)
	j := i + size
	for j < len(text) {
		c, n := utf8.DecodeRuneInString(text[j:])
		if c == '\n' || j-i > 200 {
			return token{}, 0, false
		}
		for _, e := range ends {
			if c != e {
				continue
			}
			// An apostrophe-like closer must end a word: "'Fare'" yes, "'don't" no.
			if (e == '\'' || e == '’') && j+n < len(text) {
				if after, _ := utf8.DecodeRuneInString(text[j+n:]); isWordRune(after) {
					continue
				}
			}
			inner := strings.TrimSpace(text[i+size : j])
			if inner == "" {
				return token{}, 0, false
			}
			return token{raw: inner, low: strings.ToLower(inner), start: i, end: j + n, kind: kQuoted}, j + n, true
		}
		j += n
	}
	return token{}, 0, false
}

// word reads a word token at i: letters, digits and underscores, with "-",
// "/", "." and "," kept between digits of a number or date, and an
// apostrophe inside a word dropped ("state's" -> "state", "don't" -> "dont").
func word(text string, i int) (token, int) {
	var b strings.Builder
	j := i
	numeric := true // only digits and number separators so far
	for j < len(text) {
		r, n := utf8.DecodeRuneInString(text[j:])
		if isWordRune(r) {
			if !unicode.IsDigit(r) {
				numeric = false
			}
			b.WriteRune(r)
			j += n
			continue
		}
		next, nn := utf8.DecodeRuneInString(text[j+n:])
		prev, _ := utf8.DecodeLastRuneInString(text[:j])
		if j+n >= len(text) {
			next, nn = 0, 0
		}
		switch {
		case (r == '-' || r == '/' || r == '.') && numeric && unicode.IsDigit(prev) && unicode.IsDigit(next):
			b.WriteRune(r)
			j += n
			continue
		case r == ',' && numeric && unicode.IsDigit(prev) && threeDigits(text[j+n:]):
			j += n // thousands separator
			continue
		case r == '.' && unicode.IsDigit(prev) && unicode.IsDigit(next):
			b.WriteRune(r) // "1.5k"
			j += n
			continue
		case (r == '\'' || r == '’') && unicode.IsLetter(prev):
			// possessive or contraction
			if (next == 's' || next == 'S') && !isWordRune(runeAt(text, j+n+nn)) {
				j += n + nn
				return mkWord(text, i, j, b.String()), j
			}
			if unicode.IsLetter(next) {
				j += n
				continue
			}
			if prev == 's' || prev == 'S' {
				j += n // "products'"
			}
		}
		break
	}
	return mkWord(text, i, j, b.String()), j
}

func mkWord(text string, i, j int, w string) token {
	return token{raw: text[i:j], low: strings.ToLower(acronymSingular(w)), start: i, end: j, kind: kWord}
}

// acronymSingular returns an acronym's plural as its singular: "SKUs" is
// SKU, "IDs" ID, which singular cannot tell from "status" in lower case.
func acronymSingular(w string) string {
	s, ok := strings.CutSuffix(w, "s")
	if !ok || len(s) < 2 {
		return w
	}
	upper := false
	for _, r := range s {
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) {
			return w
		}
		upper = upper || unicode.IsUpper(r)
	}
	if !upper {
		return w // "1990s": a decade
	}
	return s
}

func runeAt(text string, i int) rune {
	if i >= len(text) {
		return 0
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return r
}

func threeDigits(s string) bool {
	if len(s) < 3 {
		return false
	}
	for k := 0; k < 3; k++ {
		if s[k] < '0' || s[k] > '9' {
			return false
		}
	}
	return len(s) == 3 || s[3] < '0' || s[3] > '9'
}

// singular returns the singular of an English plural noun, or w itself:
// "categories" -> "category", "states" -> "state", "boxes" -> "box".
func singular(w string) string {
	if s, ok := irregularPlurals[w]; ok {
		return s
	}
	switch {
	case len(w) <= 3:
		return w
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// irregularPlurals are plurals not made with an s.
var irregularPlurals = map[string]string{"children": "child", "men": "man", "women": "woman", "feet": "foot",
	"teeth": "tooth", "mice": "mouse", "geese": "goose", "criteria": "criterion", "indices": "index"}

// wordAliases maps abbreviations to the word they stand for, so that
// "qty" names a column "quantity" and "percent" a column "discount_pct".
var wordAliases = map[string]string{
	"qty": "quantity", "quantities": "quantity", "amt": "amount",
	"percent": "pct", "percentage": "pct", "perc": "pct", "%": "pct",
	"num": "number", "nbr": "number", "no": "number",
	"avg": "average", "cust": "customer", "prod": "product",
	"dt": "date", "cat": "category", "dept": "department",
	"rev": "revenue", "desc": "description",
	"sq": "square", "ft": "feet", "footage": "feet",
	// clinical shorthand in column names
	"dx": "diagnosis", "tx": "treatment", "rx": "prescription", "hx": "history",
}

// norm is the form in which two words are compared: lower case, singular,
// abbreviations spelled out.
func norm(w string) string {
	w = strings.ToLower(w)
	if a, ok := wordAliases[w]; ok {
		return a
	}
	s := singular(w)
	if a, ok := wordAliases[s]; ok {
		return a
	}
	return s
}

// nameWords splits an identifier into lower-case words: "order_date" ->
// [order date], "SibSp" -> [sib sp], "unitPrice2" -> [unit price2],
// "Discount %" -> [discount %].
func nameWords(name string) []string {
	words := rawNameWords(name)
	// "Miles_per_Gallon" is mpg, as a request's "miles per gallon" is.
	if w, ok := synonymPhrases[strings.Join(words, " ")]; ok {
		return []string{w}
	}
	for k := 0; k < len(words); k++ {
		if parts := compoundWords(words[k]); parts != nil {
			// "TOTEMP" is TOT EMP, "realgdp" real gdp
			words = append(words[:k:k], append(parts, words[k+1:]...)...)
			k += len(parts) - 1
		}
	}
	return words
}

// rMadeName is a name R's make.names gave a header that began with a
// digit: an X before it. A year ("X2019") keeps its X, as a column of a
// year is read as one elsewhere; a measure with its unit ("X1500m",
// "X110m.hurdle") is said without it.
var rMadeName = regexp.MustCompile(`^X[0-9]+[a-zA-Z]`)

// rawNameWords splits a column's name into the words it is written with,
// at punctuation and changes of case, lower case: "tmin_f" is tmin f.
func rawNameWords(name string) []string {
	if rMadeName.MatchString(name) {
		name = name[1:] // R's make.names wrote "100m" as X100m
	}
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for k, r := range rs {
		switch {
		case r == '%':
			flush()
			words = append(words, "%")
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && k > 0 && (unicode.IsLower(rs[k-1]) || k+1 < len(rs) && unicode.IsLower(rs[k+1]) && unicode.IsUpper(rs[k-1])):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}

// tokenWords splits a token's lower-case text on underscores and dots, so
// that "order_date" covers the two words of a column "Order Date".
func tokenWords(low string) []string {
	return strings.FieldsFunc(low, func(r rune) bool { return r == '_' || r == '.' })
}
