package quarry

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CheckText checks a text field the user typed against the
// specification's limit, which counts characters, not bytes, and refuses
// control characters other than tab and line breaks: a NUL byte cuts
// short what DuckDB runs while the report shows the whole text. what
// names the field in the message ("metric SQL"); code is the error code to
// answer with (INVALID, INVALID_METRIC_SQL, ...).
func CheckText(what, s string, max int, code string) error {
	if !utf8.ValidString(s) {
		return Errorf(code, "%s is not valid UTF-8 text", what)
	}
	if n := utf8.RuneCountInString(s); n > max {
		return Errorf(code, "%s is %d characters; the limit is %d", what, n, max)
	}
	for i, r := range s {
		if r == '\t' || r == '\n' || r == '\r' || !unicode.IsControl(r) {
			continue
		}
		return Errorf(code, "%s contains a control character (%U) at character %d", what, r, utf8.RuneCountInString(s[:i])+1).
			WithHint("remove it; only tabs and line breaks are allowed")
	}
	return nil
}

// EditDistance is the optimal string alignment distance between a and b,
// in runes: the edits (insertions, deletions, substitutions, swaps of
// neighbours) that turn one into the other, so that "regoin" is one edit
// from "region". Strings over 64 runes count as entirely different.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		return max(len(ra), len(rb))
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// QuoteRegexp is regexp.QuoteMeta for text from outside (a file's values,
// a request's words), which may hold bytes that are not UTF-8: the regexp
// package refuses a pattern with those, and a MustCompile of it panics,
// so they are matched as the replacement character instead.
func QuoteRegexp(s string) string {
	return regexp.QuoteMeta(strings.ToValidUTF8(s, "\uFFFD"))
}
