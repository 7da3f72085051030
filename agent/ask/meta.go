// Package ask answers questions over a data room: it finds the passages
// that bear on a question, using what the documents say about themselves
// (who issued them, for which period, what kind of filing) as well as
// their words, and answers from them with page citations, or says that
// the room does not say.
//
// Offline the answer is extractive: the lines of the best passages that
// carry the question's terms and numbers, each with its page. With a model
// it is generative, and every citation and number is checked against the
// retrieved text.
package ask

import (
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/quarry-dev/quarry/room"
)

// Meta reads what a document says about itself from its first pages and
// its file name: the issuer (the line above "Exact name of registrant" on
// a filing's cover, else the file name's first word), the form (FORM 10-K,
// an earnings release ...) and the years it covers (fiscal year ended ...,
// quarterly period ended ..., date of report). title is the document's own
// title, when it has one.
func Meta(name, title string, pages []string) room.DocMeta {
	m := room.DocMeta{Title: strings.TrimSpace(title)}
	if m.Title == "" && len(pages) > 0 {
		m.Title = coverTitle(pages[0])
	}
	head := strings.Join(pages[:min(3, len(pages))], "\n")
	m.Company = registrant(head)
	m.Tickers = tickers(head)
	m.FormType = formType(head, name)
	m.Period, m.Years = period(head)
	stem := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	for _, y := range yearsIn(stem) {
		if !slices.Contains(m.Years, y) {
			m.Years = append(m.Years, y)
		}
	}
	if m.Company == "" {
		m.Company = companyFromName(stem)
	}
	return m
}

var (
	registrantRe = regexp.MustCompile(`(?i)\(\s*exact\s+name\s+of\s+(the\s+)?registrant`)
	formRe       = regexp.MustCompile(`(?i)\bFORM\s+(10-K|10-Q|8-K|20-F|40-F|6-K|S-1|S-4|DEF\s*14A|10-KT|11-K)\b`)
	releaseRe    = regexp.MustCompile(`(?is)\b(announces|reports|reported|announced)\b.{0,120}\b(results|earnings)\b`)
	periodRe     = regexp.MustCompile(`(?i)(fiscal\s+year\s+ended|quarterly\s+period\s+ended|period\s+ended|year\s+ended|date\s+of\s+report[^:]*:)\s*([A-Za-z]+\.?\s+\d{1,2}\s*,\s*(\d{4}))`)
	fiscalRe     = regexp.MustCompile(`(?i)\b(fiscal(?:\s+year)?|FY)\s*'?(\d{4}|\d{2})\b`)
	quarterRe    = regexp.MustCompile(`(?i)\b(first|second|third|fourth|Q[1-4])\s+(quarter\s+)?(?:(?:of\s+)?(?:fiscal\s+)?)(\d{4})\b`)
)

// registrant returns the issuer's name from a filing's cover: the nearest
// line with letters above "(Exact name of registrant as specified in its
// charter)".
func registrant(head string) string {
	loc := registrantRe.FindStringIndex(head)
	if loc == nil {
		return ""
	}
	lines := strings.Split(head[:loc[0]], "\n")
	for i := len(lines) - 1; i >= 0 && i >= len(lines)-6; i-- {
		l := strings.Join(strings.Fields(lines[i]), " ")
		if strings.IndexFunc(l, unicode.IsLetter) < 0 || strings.Contains(strings.ToLower(l), "commission file") {
			continue
		}
		// Two-column covers put other text beside the name: keep the
		// widest run of text without a wide gap.
		if parts := regexp.MustCompile(`\s{3,}`).Split(strings.TrimSpace(lines[i]), -1); len(parts) > 1 {
			l = strings.TrimSpace(parts[0])
		}
		if len(l) > 80 {
			return ""
		}
		return l
	}
	return ""
}

// coverTitle is a document's title as its first page shows it: the short
// lines at its top, up to the first that reads as prose (a long line, or
// one that ends a sentence), at most three.
func coverTitle(page string) string {
	var lines []string
	for _, l := range strings.Split(page, "\n") {
		l = strings.Join(strings.Fields(l), " ")
		if l == "" {
			continue
		}
		if len(strings.Fields(l)) > 10 || strings.HasSuffix(l, ".") || len(lines) == 3 {
			break
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, " — ")
}

func formType(head, name string) string {
	if m := formRe.FindStringSubmatch(head); m != nil {
		return strings.ToUpper(strings.Join(strings.Fields(m[1]), " "))
	}
	if releaseRe.MatchString(head) {
		return "earnings release"
	}
	up := strings.ToUpper(name)
	for _, f := range []struct{ key, form string }{{"10K", "10-K"}, {"10-K", "10-K"}, {"10Q", "10-Q"}, {"10-Q", "10-Q"}, {"8K", "8-K"}, {"8-K", "8-K"}, {"EARNINGS", "earnings release"}} {
		if strings.Contains(up, f.key) {
			return f.form
		}
	}
	return ""
}

// period finds how the document states its period, and the years in it.
func period(head string) (string, []int) {
	var years []int
	add := func(y int) {
		if y >= 1950 && y <= 2100 && !slices.Contains(years, y) {
			years = append(years, y)
		}
	}
	phrase := ""
	if m := periodRe.FindStringSubmatch(head); m != nil {
		phrase = strings.Join(strings.Fields(m[0]), " ")
		y, _ := strconv.Atoi(m[3])
		add(y)
	}
	for _, m := range quarterRe.FindAllStringSubmatch(head, 3) {
		if phrase == "" {
			phrase = strings.Join(strings.Fields(m[0]), " ")
		}
		y, _ := strconv.Atoi(m[3])
		add(y)
	}
	for _, m := range fiscalRe.FindAllStringSubmatch(head, 3) {
		if phrase == "" {
			phrase = strings.Join(strings.Fields(m[0]), " ")
		}
		add(fullYear(m[2]))
	}
	return phrase, years
}

// fullYear reads "2018" or "18" as a year.
func fullYear(s string) int {
	y, _ := strconv.Atoi(s)
	if len(s) == 2 {
		y += 2000
	}
	return y
}

var yearRe = regexp.MustCompile(`(?:^|[^0-9])((?:19|20)\d\d)(?:[^0-9]|$)`)

// yearsIn returns the four-digit years in a file name.
func yearsIn(s string) []int {
	var out []int
	for _, m := range yearRe.FindAllStringSubmatch(s, -1) {
		y, _ := strconv.Atoi(m[1])
		out = append(out, y)
	}
	return out
}

// companyFromName takes the words of a file name before its first year or
// form word: "JOHNSON_JOHNSON_2022_10K" -> "Johnson Johnson".
func companyFromName(stem string) string {
	var words []string
	for _, w := range strings.FieldsFunc(stem, func(r rune) bool { return r == '_' || r == '-' || r == ' ' || r == '.' }) {
		lw := strings.ToLower(w)
		if yearRe.MatchString(w) || lw == "10k" || lw == "10q" || lw == "8k" || lw == "earnings" || lw == "annual" || lw == "report" {
			break
		}
		words = append(words, w)
	}
	for i, w := range words {
		if strings.ToUpper(w) == w && len(w) > 3 {
			words[i] = strings.ToUpper(w[:1]) + strings.ToLower(w[1:])
		}
	}
	return strings.Join(words, " ")
}

var (
	tradingSymbolRe = regexp.MustCompile(`(?i)trading\s+symbol`)
	exchangeRe      = regexp.MustCompile(`(?i)exchange|nasdaq|nyse`)
	// symbolRe is a trading symbol standing in a column of its own.
	symbolRe = regexp.MustCompile(`(?:^|\s{2,})([A-Z]{1,5})(?:\s{2,}|$)`)
)

// tickers reads the issuer's trading symbols from the table of securities
// on a filing's cover: in the lines around its "Trading Symbol" heading
// that name an exchange, a column of one to five capitals. Symbols of
// notes (JNJ24C) are not words and are left out.
func tickers(head string) []string {
	lines := strings.Split(head, "\n")
	var out []string
	for i, l := range lines {
		if !tradingSymbolRe.MatchString(l) {
			continue
		}
		for _, near := range lines[max(0, i-3):min(len(lines), i+12)] {
			if !exchangeRe.MatchString(near) || tradingSymbolRe.MatchString(near) {
				continue
			}
			if m := symbolRe.FindStringSubmatch(strings.TrimSpace(near)); m != nil && len(m[1]) >= 2 && !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
		break
	}
	return out
}
