package research

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Kind is the kind of value a claim states.
type Kind string

// Kinds of values.
const (
	KindDate   Kind = "date"
	KindMoney  Kind = "money"
	KindNumber Kind = "number"
	KindPerson Kind = "person"
	KindPlace  Kind = "place"
	// KindTerm is a word from a closed vocabulary (a sport, a genre, a
	// profession) or the noun phrase a definition gives.
	KindTerm Kind = "term"
)

const month = `(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan\.?|Feb\.?|Mar\.?|Apr\.?|Jun\.?|Jul\.?|Aug\.?|Sept?\.?|Oct\.?|Nov\.?|Dec\.?)`

var (
	// "14 July, 230 of the homes": a year after a comma has four digits.
	dateRE = regexp.MustCompile(`\b(?:\d{1,2}(?:st|nd|rd|th)? (?:of )?` + month + `(?:,? \d{4}| \d{3})|` + month + ` \d{1,2}(?:st|nd|rd|th)?(?:,? \d{4}| \d{3})|` + month + ` \d{4}|\d{4}-\d{2}-\d{2}|\d{1,4} (?:BC|BCE|AD|CE)|(?:1[0-9]|20)\d0s|(?:1[0-9]|20)\d\d)\b`)
	yearRE = regexp.MustCompile(`\b(?:1[0-9]|20)\d\d\b`)
	eraRE  = regexp.MustCompile(`^(\d{1,4}) (BC|BCE|AD|CE)$`)
	// moneyRE is an amount with a currency: "$48.2 million", "EUR 3m".
	moneyRE = regexp.MustCompile(`(?i)(?:\b(?:nz|a|au|c|ca|us|hk|s)\$|[$€£¥]|\b(?:usd|eur|gbp|chf|nok|sek|dkk|jpy|cad|aud|nzd|inr|cny|rmb)\s?)\s?\d+(?:,\d{3})*(?:\.\d+)?(?:\s?(?:million|billion|thousand|bn|mn|m|k)\b)?`)
	// numberRE is a number with an optional scale and unit noun.
	numberRE = regexp.MustCompile(`(?i)\b\d{1,3}(?:,\d{3})+(?:\.\d+)?|\b\d+(?:\.\d+)?`)
	unitRE   = regexp.MustCompile(`(?i)^\s?(%|percent\b|per cent\b|(?:million|billion|thousand)\b)?\s?(people|persons|inhabitants|residents|employees|staff|workers|households|families|members|students|years|km|kilometres|kilometers|miles|metres|meters|ft|feet|mi|m)?\b`)
)

// Value is a typed span of a sentence.
type Value struct {
	Kind  Kind
	Text  string // as written, with its unit when one follows
	Start int    // byte offset in the sentence
	End   int
	Num   float64 // numbers and money, scaled (million = 1e6)
	Year  int     // dates
	// Day is "YYYY-MM-DD" or "YYYY-MM" when the date says so.
	Day string
	// Alt is the other reading of a day written in digits that reads
	// both ways ("10/03/2025": 10 March, or October 3), "" otherwise.
	Alt string
	// Approx marks a figure its sentence says is about that much ("some
	// 2,700 workers"): its trailing zeros are rounding.
	Approx bool
}

// Same reports whether a and b say the same thing: equal amounts (within
// rounding of the less precise), dates that agree on what both state,
// words that are one the other's part.
func Same(a, b Value) bool {
	if a.Kind != b.Kind {
		if (a.Kind == KindNumber && b.Kind == KindMoney) || (a.Kind == KindMoney && b.Kind == KindNumber) {
			return closeNumbers(a.Num, b.Num)
		}
		return containsWords(a.Text, b.Text) || containsWords(b.Text, a.Text)
	}
	switch a.Kind {
	case KindMoney, KindNumber:
		return closeNumbers(a.Num, b.Num) || withinRounding(a, b)
	case KindDate:
		if a.Year != b.Year {
			return false
		}
		return sameDay(a.Day, b.Day) || a.Alt != "" && sameDay(a.Alt, b.Day) || b.Alt != "" && sameDay(a.Day, b.Alt)
	}
	return containsWords(a.Text, b.Text) || containsWords(b.Text, a.Text)
}

// sameDay reports days that agree on what both state ("2025-03" and
// "2025-03-10"); a day not stated agrees with any.
func sameDay(a, b string) bool {
	return a == "" || b == "" || strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
}

// closeNumbers: within half a percent, so "$48.2 million" and
// "$48,215,000" agree.
func closeNumbers(a, b float64) bool {
	if a == b {
		return true
	}
	d := a - b
	if d < 0 {
		d = -d
	}
	m := max(abs(a), abs(b))
	return m > 0 && d/m < 0.005
}

// withinRounding reports whether one amount is the other rounded to
// the precision it is written with: "$35 million" covers $34.5-35.5
// million, so "$35.2 million" is the same amount; "CHF 3.8 million"
// covers 3.82.
func withinRounding(a, b Value) bool {
	return abs(a.Num-b.Num) <= max(halfUnit(a), halfUnit(b))
}

// halfUnit is half the place value of the last digit a value writes.
func halfUnit(v Value) float64 {
	num := numberRE.FindString(v.Text)
	if num == "" && v.Num > 0 && v.Num < 100 && v.Num == float64(int(v.Num)) {
		return 0.5 // "nine miles" is nine to the mile
	}
	if num == "" || v.Num == 0 {
		return 0
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(num, ",", ""), 64)
	if err != nil || f == 0 {
		return 0
	}
	scale := v.Num / f
	unit := 1.0
	if i := strings.IndexByte(num, '.'); i >= 0 {
		for range num[i+1:] {
			unit /= 10
		}
	} else if v.Approx {
		// "some 2,700" is 2,700 to the hundred, though never looser than
		// a twentieth of it ("about 3,000" is not 3,400).
		digits := strings.ReplaceAll(num, ",", "")
		for k := len(digits) - 1; k > 0 && digits[k] == '0'; k-- {
			unit *= 10
		}
		return min(unit*scale/2, abs(v.Num)/20)
	}
	return unit * scale / 2
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// containsWords reports whether every word of b is a word of a.
func containsWords(a, b string) bool {
	aw := map[string]bool{}
	for _, w := range words(a) {
		aw[stem(w)] = true
	}
	bw := words(b)
	if len(bw) == 0 {
		return false
	}
	for _, w := range bw {
		if !aw[stem(w)] {
			return false
		}
	}
	return true
}

// words returns the lower-case words of s.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// stem cuts a plural or adjectival ending so that "footballer" meets
// "football" and "players" meets "player".
func stem(w string) string {
	for _, suf := range []string{"ers", "er", "ies", "es", "s"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}

// Key is a value's canonical text, equal for values that are Same in the
// common cases (for counting support).
func (v Value) Key() string {
	switch v.Kind {
	case KindMoney, KindNumber:
		return strconv.FormatFloat(v.Num, 'g', 4, 64)
	case KindDate:
		if v.Day != "" {
			return v.Day
		}
		return strconv.Itoa(v.Year)
	}
	ws := words(v.Text)
	for i, w := range ws {
		ws[i] = stem(w)
	}
	return strings.Join(ws, " ")
}

var scales = map[string]float64{"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9}

// parseAmount reads "48.2 million", "$1,240", "3bn".
func parseAmount(s string) float64 {
	s = strings.ToLower(s)
	num := numberRE.FindString(s)
	f, _ := strconv.ParseFloat(strings.ReplaceAll(num, ",", ""), 64)
	rest := strings.TrimSpace(s[strings.Index(s, num)+len(num):])
	for w, m := range scales {
		if rest == w || strings.HasPrefix(rest, w+" ") {
			f *= m
		}
	}
	return f
}

var months = map[string]string{"jan": "01", "feb": "02", "mar": "03", "apr": "04", "may": "05", "jun": "06", "jul": "07", "aug": "08", "sep": "09", "oct": "10", "nov": "11", "dec": "12"}

// parseDate reads a date's year and, when stated, its month and day.
func parseDate(s string) (year int, day string) {
	if m := eraRE.FindStringSubmatch(s); m != nil {
		// "112 BC": before the common era, a negative year.
		year, _ = strconv.Atoi(m[1])
		if m[2] == "BC" || m[2] == "BCE" {
			year = -year
		}
		return year, ""
	}
	if len(s) == 5 && strings.HasSuffix(s, "0s") {
		year, _ = strconv.Atoi(s[:4]) // "1890s": the decade's first year
		return year, ""
	}
	y := yearRE.FindAllString(s, -1)
	if len(y) == 0 {
		return 0, ""
	}
	year, _ = strconv.Atoi(y[len(y)-1])
	if len(s) == 10 && s[4] == '-' {
		return year, s
	}
	mo := ""
	for _, w := range words(s) {
		if len(w) >= 3 && months[w[:3]] != "" && !unicode.IsDigit(rune(w[0])) {
			mo = months[w[:3]]
		}
	}
	if mo == "" {
		return year, ""
	}
	d := ""
	for _, w := range words(s) {
		w = strings.TrimRight(w, "stndrh")
		if n, err := strconv.Atoi(w); err == nil && n >= 1 && n <= 31 && len(w) <= 2 {
			d = w
			if n < 10 {
				d = "0" + strconv.Itoa(n)
			}
		}
	}
	day = strconv.Itoa(year) + "-" + mo
	if d != "" {
		day += "-" + d
	}
	return year, day
}

// Values returns the dates, amounts and numbers of a sentence, left to
// right, each span claimed once (a date's year is not also a number).
func Values(s string) []Value {
	var out []Value
	taken := make([]bool, len(s)+1)
	claim := func(a, b int) bool {
		for i := a; i < b; i++ {
			if taken[i] {
				return false
			}
		}
		for i := a; i < b; i++ {
			taken[i] = true
		}
		return true
	}
	for _, m := range moneyRE.FindAllStringIndex(s, -1) {
		if claim(m[0], m[1]) {
			out = append(out, Value{Kind: KindMoney, Text: strings.TrimSpace(s[m[0]:m[1]]), Start: m[0], End: m[1], Num: parseAmount(s[m[0]:m[1]])})
		}
	}
	out = append(out, wordValues(s, claim)...)
	for _, m := range dateRE.FindAllStringIndex(s, -1) {
		text := s[m[0]:m[1]]
		// A bare four-digit number followed by a unit is a count, not a
		// year ("1950 employees").
		if len(text) == 4 && unitAfter(s[m[1]:]) != "" {
			continue
		}
		if claim(m[0], m[1]) {
			y, d := parseDate(text)
			out = append(out, Value{Kind: KindDate, Text: text, Start: m[0], End: m[1], Year: y, Day: d})
		}
	}
	for _, m := range numberRE.FindAllStringIndex(s, -1) {
		// "7:00 a.m.", "06:40": a time of day, no quantity.
		if clockTime(s, m[0], m[1]) {
			continue
		}
		// "Falcon-3", "A11": part of a name, not a quantity.
		if m[0] > 0 && (s[m[0]-1] == '-' || isLetter(s[m[0]-1])) && m[0] > 1 && isLetter(s[m[0]-2]) || m[0] > 0 && isLetter(s[m[0]-1]) {
			continue
		}
		end := m[1]
		if end+1 < len(s) && s[end] == '-' && isLetter(s[end+1]) {
			continue // "10-K"
		}
		unit := unitAfter(s[end:])
		end += len(unit)
		if !claim(m[0], end) {
			continue
		}
		v := Value{Kind: KindNumber, Start: m[0], End: end}
		if c := currencyAfterRE.FindString(s[end:]); c != "" && claim(end, end+len(c)) {
			v.Kind, v.End = KindMoney, end+len(c)
		}
		v.Text = strings.TrimSpace(s[v.Start:v.End])
		v.Num = parseAmount(v.Text)
		out = append(out, v)
	}
	for i := range out {
		out[i].Approx = hedgedAt(s, out[i])
	}
	sortValues(out)
	return out
}

// hedgeRE ends a text that says the figure after it is about that much:
// "some 2,700 workers", "about $600,000", "an estimated 300".
var hedgeRE = regexp.MustCompile(`(?i)\b(?:some|about|around|approximately|approx\.?|roughly|nearly|almost|circa|c\.|an estimated|est\.)\s+$`)

// hedgedAt reports a figure s gives as about that much.
func hedgedAt(s string, v Value) bool {
	if v.Kind != KindMoney && v.Kind != KindNumber {
		return false
	}
	return strings.HasPrefix(v.Text, "~") || hedgeRE.MatchString(s[max(0, v.Start-20):v.Start])
}

// clockTime reports a number s[a:b] that is the hours or minutes of a
// time of day ("7:30", "06:40").
func clockTime(s string, a, b int) bool {
	digit := func(i int) bool { return i >= 0 && i < len(s) && s[i] >= '0' && s[i] <= '9' }
	return b+1 < len(s) && s[b] == ':' && digit(b+1) || a >= 2 && s[a-1] == ':' && digit(a-2)
}

func unitAfter(rest string) string {
	m := unitRE.FindString(rest)
	if strings.TrimSpace(m) == "" {
		return ""
	}
	return strings.TrimRight(m, " ")
}

func sortValues(v []Value) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j].Start < v[j-1].Start; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
