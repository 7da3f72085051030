package ask

import (
	"regexp"
	"strings"
)

// A page break may cut a table: its header on one page, rows on the next
// with nothing to say what their columns are ("-6   5200k   2500k"
// under "Level  Compress  Decompress" a page before). The rows on the
// next page are read with the header it carries over, as the chunker
// repeats a table's header before a chunk that starts inside it.

// pageNumberRe matches a line that is a page's number alone.
var pageNumberRe = regexp.MustCompile(`^\s*[-–—]?\s*(\d{1,4}|[ivxlc]{1,6})\s*[-–—]?\s*$`)

// CarriedHeader returns the header of the table the page prev ends in,
// when page starts with rows of it and no header of its own; "" when it
// does not.
func CarriedHeader(prev, page string) string {
	first := ""
	for _, l := range strings.Split(page, "\n") {
		if t := strings.TrimSpace(l); t != "" && !pageNumberRe.MatchString(t) && !pageFurnitureRe.MatchString(t) {
			first = l
			break
		}
	}
	if first == "" || !isRow(strings.TrimSpace(first)) || isHeader(first) {
		return ""
	}
	lines := strings.Split(prev, "\n")
	rows := 0
	for i := len(lines) - 1; i >= 0; i-- {
		l, t := lines[i], strings.TrimSpace(lines[i])
		switch {
		case t == "" || pageNumberRe.MatchString(t) || pageFurnitureRe.MatchString(t) || ruleRe.MatchString(t):
		case isRow(t) && isHeader(l):
			if rows == 0 {
				return ""
			}
			return strings.TrimRight(l, " ")
		case isRow(t):
			rows++
		default:
			return "" // the page ends in prose, not in a table
		}
	}
	return ""
}

// carriedText is a chunk's text with the table header its context
// carries before it (the last line of the context, a table's header),
// when the chunk starts with the table's rows: so units reads them with
// their columns' labels.
func carriedText(context, text string) string {
	ctx := strings.TrimRight(context, "\n")
	if ctx == "" {
		return text
	}
	last := ctx[strings.LastIndexByte(ctx, '\n')+1:]
	first, _, _ := strings.Cut(text, "\n")
	if t := strings.TrimSpace(last); t == "" || !isRow(t) || !isHeader(last) || !isRow(strings.TrimSpace(first)) || isHeader(first) {
		return text
	}
	return last + "\n" + text
}
