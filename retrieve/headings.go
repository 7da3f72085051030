package retrieve

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxHeadingRunes caps the heading PageHeadings gives a page.
const maxHeadingRunes = 160

var (
	// sectionRe finds the lines that open a section of a filing or a
	// report: "Item 7. Management's Discussion", "Note 5 - Acquisitions",
	// "NOTE 21. LEGAL PROCEEDINGS", "8. Borrowings and Credit Agreements".
	sectionRe = regexp.MustCompile(`^(?:(?i:item)\s+\d{1,2}[A-Z]?\.?|(?i:note)\s+\d{1,2}[.:]?\s*[-–—:.]?|\d{1,2}\.)\s+\p{Lu}`)
	// spacedRe is a word whose last letter the PDF set apart ("Balance
	// Shee t", "Incom e"): a lone lower-case letter other than "a" after
	// a word.
	spacedRe = regexp.MustCompile(`(\p{L}{2,}) ([b-z])\b`)
	spacesRe = regexp.MustCompile(`\s+`)
	gapRe    = regexp.MustCompile(`\S\s{3,}\S`)
	// tocRe ends an entry of a table of contents: a page number.
	tocRe = regexp.MustCompile(`\s\d{1,3}$`)
)

// PageHeadings names what each page of a document is about, for search:
// the headings at the top of the page ("Consolidated Balance Sheets",
// "Note 5 - Acquisitions and Divestitures") and then, unless the page
// opens a section of its own, the section it is in ("Item 7. ...",
// "Note 21 - Legal Proceedings"). A page
// whose top is running text and that is in no section gets "". Pages are
// the pages' texts in order.
func PageHeadings(pages []string) []string {
	out := make([]string, len(pages))
	section := ""
	for i, text := range pages {
		lines := nonEmptyLines(text)
		top := topHeadings(lines)
		var parts []string
		for _, h := range top {
			if !containsFold(parts, h) {
				parts = append(parts, h)
			}
		}
		if section != "" && (len(top) == 0 || !sectionRe.MatchString(top[0])) && !containsFold(parts, section) {
			parts = append(parts, section)
		}
		out[i] = capRunes(strings.Join(parts, " — "), maxHeadingRunes)
		for _, l := range lines {
			if h, ok := headingLine(l); ok && sectionRe.MatchString(h) {
				section = h
			}
		}
	}
	return out
}

// topHeadings returns the heading lines a page opens with, at most three,
// past a running "Table of Contents" link and page numbers.
func topHeadings(lines []string) []string {
	var out []string
	for i, l := range lines {
		if i >= 6 || len(out) == 3 {
			break
		}
		if skippable(l) {
			continue
		}
		h, ok := headingLine(l)
		if !ok {
			break
		}
		out = append(out, h)
	}
	return out
}

func skippable(l string) bool {
	t := strings.ToLower(strings.TrimSpace(l))
	if t == "table of contents" || t == "index" {
		return true
	}
	for _, r := range t {
		if !unicode.IsDigit(r) && !unicode.IsSpace(r) && r != '-' && r != '|' {
			return strings.HasPrefix(t, "page ") && len(t) < 10
		}
	}
	return true
}

// headingLine reports whether a line reads as a heading — short, mostly
// letters, not a table row or a sentence — and returns it cleaned up.
func headingLine(l string) (string, bool) {
	l = strings.TrimSpace(l)
	section := sectionRe.MatchString(l)
	if n := utf8.RuneCountInString(l); n == 0 || n > 90 && !section || n > 120 {
		return "", false
	}
	// A note number set apart by spaces ("8.        Borrowings") is a
	// heading; other wide gaps are table columns.
	if !section && gapRe.MatchString(l) || tocRe.MatchString(l) {
		return "", false
	}
	l = spacesRe.ReplaceAllString(l, " ")
	letters, other := 0, 0
	for _, r := range l {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsSpace(r):
		default:
			other++
		}
	}
	if letters < 3 || letters < 2*other {
		return "", false
	}
	first, _ := utf8.DecodeRuneInString(l)
	if !unicode.IsUpper(first) && !unicode.IsDigit(first) {
		return "", false
	}
	last, _ := utf8.DecodeLastRuneInString(l)
	if last == ',' || last == ';' || last == ':' {
		return "", false
	}
	if last == '.' && !section && len(strings.Fields(l)) > 4 {
		return "", false
	}
	return spacedRe.ReplaceAllString(l, "$1$2"), true
}

func nonEmptyLines(text string) []string {
	var out []string
	for l := range strings.SplitSeq(text, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

func containsFold(xs []string, s string) bool {
	for _, x := range xs {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// capRunes cuts s to at most n runes, at a space when there is one.
func capRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := string([]rune(s)[:n])
	if i := strings.LastIndexByte(r, ' '); i > 0 {
		r = r[:i]
	}
	return strings.TrimRight(r, " —")
}
