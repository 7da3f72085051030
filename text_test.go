package quarry

import (
	"regexp"
	"strings"
	"testing"
)

func TestCheckText(t *testing.T) {
	tests := []struct {
		name, s string
		code    string
		msg     string
	}{
		{"plain", "SELECT SUM(amount) FROM orders", "", ""},
		{"lines and tabs", "SELECT\n\tSUM(amount)\r\nFROM orders", "", ""},
		{"accents count as characters", strings.Repeat("é", 2000), "", ""},
		{"over the limit in characters", strings.Repeat("é", 2001), ECodeInvalidMetricSQL, "2001 characters"},
		{"nul byte", "SELECT SUM(amount) FROM orders\x00 WHERE region = 'west'", ECodeInvalidMetricSQL, "U+0000"},
		{"escape", "SELECT 1\x1b[2J", ECodeInvalidMetricSQL, "character 9"},
		{"invalid utf-8", "SELECT '\xff'", ECodeInvalidMetricSQL, "UTF-8"},
	}
	for _, tt := range tests {
		err := CheckText("metric SQL", tt.s, MaxMetricSQLLen, ECodeInvalidMetricSQL)
		if ErrorCode(err) != tt.code || err != nil && !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: %v; want code %q with %q", tt.name, err, tt.code, tt.msg)
		}
	}
}

// TestQuoteRegexp: text with bytes that are not UTF-8 still makes a
// pattern that compiles and matches the text literally.
func TestQuoteRegexp(t *testing.T) {
	for _, s := range []string{"a.b", "@a[\xae", "\xff\xfe", "(x)"} {
		re, err := regexp.Compile(`(?i)(^|\W)` + QuoteRegexp(s) + `($|\W)`)
		if err != nil {
			t.Fatalf("QuoteRegexp(%q) does not compile: %v", s, err)
		}
		if !re.MatchString(" " + strings.ToValidUTF8(s, "\uFFFD") + " ") {
			t.Errorf("QuoteRegexp(%q) does not match its text", s)
		}
	}
}
