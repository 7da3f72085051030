package research

// Values written other ways than the digits and month names of
// values.go: numbers in words ("twenty-one", "one thousand three hundred
// and twenty-seven", "twelve and a half million"), dates in digits
// ("22/08/2024", "2024/03/12") and a currency named after its amount
// ("4.2 million dollars", "2,400,000 US dollars", "286 million pounds").

import (
	"regexp"
	"strconv"
	"strings"
)

var (
	// numericDateRE is a day, month and year in digits.
	// A year of two digits is this century's ("2/13/25").
	numericDateRE = regexp.MustCompile(`\b(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d\d)\b|\b(\d{4})/(\d{1,2})/(\d{1,2})\b`)
	// currencyAfterRE is the currency an amount names after itself.
	currencyAfterRE = regexp.MustCompile(`(?i)^\s?(?:(?:million|billion|thousand)\s)?(?:(?:us|u\.s\.|american|canadian|australian|new zealand|hong kong)\s)?(dollars?|pounds?(?: sterling)?|quid|euros?|francs?|kroner|krona|kronor|yen|rupees?)\b`)
	// numberWordRE is a run of number words.
	numberWordRE = regexp.MustCompile(`(?i)\b(?:` + numberWordAlt + `)(?:(?:[\s-]+|\s+and\s+(?:a\s+)?)(?:` + numberWordAlt + `|half|point(?:\s+(?:zero|one|two|three|four|five|six|seven|eight|nine))+))*\b`)
)

const numberWordAlt = `zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|` +
	`twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion`

var wordNumbers = map[string]float64{"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
	"nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}

var currencyWords = map[string]string{"dollar": "USD", "pound": "GBP", "quid": "GBP", "euro": "EUR", "franc": "CHF", "kroner": "NOK", "krona": "SEK",
	"kronor": "SEK", "yen": "JPY", "rupee": "INR"}

// parseNumberWords reads a run of number words; ok is false for a run
// that is not one number ("one two").
func parseNumberWords(s string) (float64, bool) {
	ws := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ' ' || r == '-' || r == '\t' })
	total, group := 0.0, 0.0
	any := false
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		switch {
		case w == "and" || w == "a":
		case w == "half":
			group += 0.5
		case w == "point":
			frac, scale := 0.0, 0.1
			for i+1 < len(ws) {
				d, ok := wordNumbers[ws[i+1]]
				if !ok || d > 9 {
					break
				}
				frac += d * scale
				scale /= 10
				i++
			}
			group += frac
		case w == "hundred":
			if group == 0 {
				group = 1
			}
			group *= 100
		case w == "thousand" || w == "million" || w == "billion":
			m := map[string]float64{"thousand": 1e3, "million": 1e6, "billion": 1e9}[w]
			if group == 0 && total == 0 {
				return 0, false
			}
			total += group * m
			group = 0
		default:
			n, ok := wordNumbers[w]
			if !ok {
				return 0, false
			}
			// "three hundred and twenty-seven" adds; "one two" is not a number.
			r := int(group) % 100
			if group != 0 && !(r == 0 && n < 100) && !(r >= 20 && r%10 == 0 && n < 10) {
				return 0, false
			}
			group += n
			any = true
		}
	}
	return total + group, any
}

// wordValues finds the dates written in digits and the numbers written
// in words in s (money when a currency follows), on the spans claim
// allows.
func wordValues(s string, claim func(a, b int) bool) []Value {
	var out []Value
	for _, m := range numericDateRE.FindAllStringSubmatchIndex(s, -1) {
		var d, mo, y int
		if m[2] >= 0 {
			a, _ := strconv.Atoi(s[m[2]:m[3]])
			b, _ := strconv.Atoi(s[m[4]:m[5]])
			y, _ = strconv.Atoi(s[m[6]:m[7]])
			if m[7]-m[6] == 2 {
				if s[m[6]-1] != '/' {
					continue // "1.2.25" is a version
				}
				y += 2000
			}
			// Day first unless only the other reading is a date.
			d, mo = a, b
			if b > 12 && a <= 12 {
				d, mo = b, a
			}
		} else {
			y, _ = strconv.Atoi(s[m[8]:m[9]])
			mo, _ = strconv.Atoi(s[m[10]:m[11]])
			d, _ = strconv.Atoi(s[m[12]:m[13]])
		}
		if mo < 1 || mo > 12 || d < 1 || d > 31 || y < 1000 || !claim(m[0], m[1]) {
			continue
		}
		day := strconv.Itoa(y) + "-" + two(mo) + "-" + two(d)
		alt := ""
		if m[2] >= 0 && d != mo && d <= 12 {
			alt = strconv.Itoa(y) + "-" + two(d) + "-" + two(mo) // "10/03/2025" is October 3 as well
		}
		out = append(out, Value{Kind: KindDate, Text: s[m[0]:m[1]], Start: m[0], End: m[1], Year: y, Day: day, Alt: alt})
	}
	for _, m := range numberWordRE.FindAllStringIndex(s, -1) {
		n, ok := parseNumberWords(s[m[0]:m[1]])
		// "one", "a": too common as words to be counts.
		if !ok || n < 2 {
			continue
		}
		end := m[1]
		kind := KindNumber
		if c := currencyAfterRE.FindString(s[end:]); c != "" {
			end += len(c)
			kind = KindMoney
		} else if u := unitAfter(s[end:]); u != "" {
			end += len(u)
		}
		if !claim(m[0], end) {
			continue
		}
		out = append(out, Value{Kind: kind, Text: s[m[0]:end], Start: m[0], End: end, Num: n})
	}
	return out
}

// currencyOfWords names the currency a word after an amount gives:
// "4.2 million dollars" is USD; "" when none does.
func currencyOfWords(text string) string {
	m := currencyWordRE.FindStringSubmatch(text)
	if m == nil {
		return ""
	}
	w := strings.ToLower(m[1])
	if c, ok := currencyWords[w]; ok {
		return c
	}
	return currencyWords[strings.TrimSuffix(w, "s")]
}

var currencyWordRE = regexp.MustCompile(`(?i)\b(dollars?|pounds?|quid|euros?|francs?|kroner|krona|kronor|yen|rupees?)\b`)

func two(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
