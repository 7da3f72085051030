package quarry

import (
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
