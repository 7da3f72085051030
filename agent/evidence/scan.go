package evidence

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// number is one number found in a text.
type number struct {
	start, end int // the bytes as written: sign, currency, digits, suffix
	// value is the absolute value with the suffix's multiplier applied;
	// step is the unit of the last digit written, multiplied likewise.
	value, step float64
	percent     bool // written with % or pp
	// suffixed is set when a suffix scales the digits or says what they
	// count (%, million, k, x).
	suffixed bool
	// plain is set for small integers and years standing alone, which
	// are evidence but are not checked.
	plain bool
}

// month is a month's name or its abbreviation.
const month = `(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`

// skipped matches what is not a number although it has digits: ISO dates
// and times, year-months, clock times, days of dates written with the
// month's name ("December 31, 2023", "31 Dec 2023"), references to a
// page, note or item of a document ("page 12", "pp. 12-14", "Note 7"),
// the names of filings ("10-K", "10K", "8-K", "20-F", "8k filing"), and
// citation markers.
var skipped = regexp.MustCompile(`\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?` +
	`|\b(?:19|20)\d{2}-(?:0[1-9]|1[0-2])\b` +
	`|\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\b` +
	`|(?i:\b` + month + `\.?\s+\d{1,2}(?:st|nd|rd|th)?\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?` + month + `\b)` +
	`|(?i:(?:\b(?:pages?|notes?|items?|sections?|exhibits?|parts?|chapters?|tables?|figures?)\s+|\bpp?\.\s*)\d+(?:\s*(?:-|–|,|and|to)\s*\d+\b)*)` +
	`|(?:^|[^$€£.,\w])(?:10-?[KQ]|8-?K|6-?K|20-?F|11-?K)\b|(?i:\b(?:10-?[kq]|8-?k)\s+(?:filings?|reports?|forms?))` +
	`|\[\^?\d+(?:\s*,\s*\^?\d+)*\]`)

// ordinal is the suffixes of ordinal numbers ("3rd", "65th").
var ordinal = map[string]bool{"st": true, "nd": true, "rd": true, "th": true}

// Suffixes: glued to the digits ("1.2M", "45k", "2.5x") or after a space
// ("1.2 million", "3 pp") or a line break ("$470\nmillion"), % after one
// space only.
var (
	gluedSuffixes = map[string]float64{
		"k": 1e3, "K": 1e3, "M": 1e6, "mn": 1e6, "B": 1e9, "bn": 1e9, "Bn": 1e9, "BN": 1e9,
		"x": 1, "pp": 1,
	}
	wordSuffixes = []struct {
		word string
		mult float64
	}{
		{"percentage points", 1}, {"percentage point", 1}, {"percent", 1}, {"pp", 1},
		{"thousand", 1e3}, {"million", 1e6}, {"mn", 1e6}, {"billion", 1e9}, {"bn", 1e9}, {"trillion", 1e12},
	}
)

// scan calls emit for every number in text, in order. Identifiers, dates,
// citation markers and version-like tokens are passed over.
func scan(text string, emit func(number)) {
	skips := skipped.FindAllStringIndex(text, -1)
	for i := 0; i < len(text); {
		for len(skips) > 0 && skips[0][1] <= i {
			skips = skips[1:]
		}
		if len(skips) > 0 && skips[0][0] <= i {
			i = skips[0][1]
			continue
		}
		if !isDigit(text[i]) {
			i++
			continue
		}
		n, ok, next := parse(text, i)
		if ok && (len(skips) == 0 || n.end <= skips[0][0]) {
			emit(n)
		}
		i = max(next, i+1)
	}
}

// parse reads the number whose first digit is at d. ok is false when the
// digits are not a number (an identifier, a version); next is where
// scanning goes on.
func parse(text string, d int) (n number, ok bool, next int) {
	// The digits: ".5", or digits with thousands groups (each of exactly 3
	// digits, after a first group of 1 to 3) and decimals.
	j := digits(text, d)
	intDigits := j - d
	start, decimals, separated := d, -1, false
	if d > 0 && text[d-1] == '.' && !(d > 1 && isWordByte(text[d-2])) {
		start, decimals, intDigits = d-1, intDigits, 0
	} else {
		for intDigits <= 3 && j < len(text) && text[j] == ',' && digits(text, j+1) == j+4 {
			j, separated = j+4, true
		}
		if j+1 < len(text) && text[j] == '.' && isDigit(text[j+1]) {
			end := digits(text, j+1)
			decimals, j = end-j-1, end
		}
	}
	if decimals >= 0 && j+1 < len(text) && text[j] == '.' && isDigit(text[j+1]) {
		return n, false, skipWord(text, j) // 1.2.3
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(text[start:j], ",", ""), 64)
	if err != nil && !math.IsInf(v, 0) {
		return n, false, j
	}

	// A negative amount as accounts write it, in parentheses: "(1,577)",
	// "$(1,577) million".
	p := start
	if p > 0 && text[p-1] == '(' && j < len(text) && text[j] == ')' {
		p, j = p-1, j+1
	}

	// Before the digits: sign and currency, in either order, or what makes
	// the digits part of a word.
	currency, signed := false, false
	for range 2 {
		r, size := utf8.DecodeLastRuneInString(text[:p])
		switch {
		case isCurrency(r) && !currency:
			currency, p = true, p-size
		case isSign(r) && !signed:
			before, _ := utf8.DecodeLastRuneInString(text[:p-size])
			if p-size > 0 && isWordRune(before) {
				if unicode.IsDigit(before) {
					break // a range: 2-3, 10-15%
				}
				return n, false, skipWord(text, j) // COVID-19
			}
			signed, p = true, p-size
		}
	}
	if r, _ := utf8.DecodeLastRuneInString(text[:p]); p > 0 && !currency && (isWordRune(r) || strings.ContainsRune(`#/\@.`, r)) {
		return n, false, skipWord(text, j) // hyp_003, Q1, /2024/, #1, Fig.3
	}

	// After the digits: a suffix, or what makes them part of a word.
	mult, suffix, percent := 1.0, false, false
	switch r, size := utf8.DecodeRuneInString(text[j:]); {
	case r == '%':
		j, suffix, percent = j+1, true, true
	case r == '×':
		j, suffix = j+size, true
	case r == '_' || unicode.IsLetter(r):
		w := j
		for w < len(text) && isASCIILetter(text[w]) {
			w++
		}
		after, _ := utf8.DecodeRuneInString(text[w:])
		if ordinal[text[j:w]] && !isWordRune(after) && decimals < 0 && !separated {
			// "the 65th consecutive year": evidence that 65 years
			// passed, but never a claim to check.
			return number{start: p, end: w, value: math.Abs(v), step: 1, plain: true}, true, w
		}
		m, known := gluedSuffixes[text[j:w]]
		if !known || isWordRune(after) {
			return n, false, skipWord(text, j) // 5xx, 3rd, 250ms
		}
		mult, suffix, percent = m, true, text[j:w] == "pp"
		j = w
	case r == '/' || r == '.':
		if after, _ := utf8.DecodeRuneInString(text[j+size:]); isWordRune(after) {
			return n, false, skipWord(text, j) // 3/4, 001.txt
		}
	case r == ' ' || r == '\n' || r == '\t':
		// A space, or a line break where a page's text wrapped ("$470\nmillion").
		gap := j
		for gap < len(text) && gap-j < 3 && (text[gap] == ' ' || text[gap] == '\t' || text[gap] == '\n' && !strings.Contains(text[j:gap], "\n")) {
			gap++
		}
		rest := text[gap:]
		if text[j:gap] == " " && strings.HasPrefix(rest, "%") {
			j, suffix, percent = gap+1, true, true
			break
		}
		for _, s := range wordSuffixes {
			if !strings.HasPrefix(rest, s.word) {
				continue
			}
			if after, _ := utf8.DecodeRuneInString(rest[len(s.word):]); isWordRune(after) {
				continue
			}
			j, suffix, mult = gap+len(s.word), true, s.mult
			percent = strings.HasPrefix(s.word, "perc") || s.word == "pp"
			break
		}
	}

	n = number{start: p, end: j, value: math.Abs(v) * mult, step: math.Pow10(-max(decimals, 0)) * mult, percent: percent, suffixed: suffix}
	if !suffix && !currency && decimals < 0 && !separated {
		switch {
		case n.value <= 10:
			n.plain = true
		case !signed && intDigits == 4 && n.value >= 1900 && n.value <= 2100:
			n.plain = true
		case intDigits <= 3 && listNumber(text, p, j):
			return n, false, j
		}
	}
	return n, true, j
}

// listNumber reports whether text[start:end] numbers an item of a list:
// it starts a line and is followed by ". " or ") ".
func listNumber(text string, start, end int) bool {
	line := text[:start]
	if i := strings.LastIndexByte(line, '\n'); i >= 0 {
		line = line[i+1:]
	}
	if strings.TrimLeft(line, " \t") != "" || end >= len(text) || (text[end] != '.' && text[end] != ')') {
		return false
	}
	return end+1 == len(text) || text[end+1] == ' ' || text[end+1] == '\n'
}

// skipWord returns the end of the word that has a byte at i: letters,
// digits and underscores, and dots and hyphens between them.
func skipWord(text string, i int) int {
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isWordRune(r) {
			if r != '.' && r != '-' {
				break
			}
			if after, _ := utf8.DecodeRuneInString(text[i+size:]); !isWordRune(after) {
				break
			}
		}
		i += size
	}
	return i
}

// digits returns the end of the run of ASCII digits starting at i.
func digits(text string, i int) int {
	for i < len(text) && isDigit(text[i]) {
		i++
	}
	return i
}

func isDigit(b byte) bool       { return '0' <= b && b <= '9' }
func isASCIILetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }
func isWordByte(b byte) bool    { return isDigit(b) || isASCIILetter(b) || b == '_' }
func isWordRune(r rune) bool    { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
func isCurrency(r rune) bool    { return r == '$' || r == '€' || r == '£' }
func isSign(r rune) bool        { return r == '-' || r == '+' || r == '−' }
