package chat

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSentencesOf(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		keepCode bool
		want     []string
	}{
		{"sentences", "By platform, platform=android accounts for 64% of the change (-62,628). Its rows went from 6,183 to 5,192.", false,
			[]string{"By platform, platform=android accounts for 64% of the change (-62,628).", "Its rows went from 6,183 to 5,192."}},
		{"numbers and lower case do not end a sentence", "app_version=5.2 explains 59% (q<0.0001). the data passed. e.g. this", false,
			[]string{"app_version=5.2 explains 59% (q<0.0001). the data passed. e.g. this."}},
		{"a line end ends a sentence", "Iteration 1 decided ANALYZE. broken data first\nFinding find_001: No missing days.", false,
			[]string{"Iteration 1 decided ANALYZE. broken data first.", "Finding find_001: No missing days."}},
		{"SQL to the end is dropped", "Finding: DE fell.\nSQL: SELECT 'DE'\nFROM t\n\nSELECT 2", false,
			[]string{"Finding: DE fell."}},
		{"SQL kept as one block", "Finding: DE fell.\nSQL: SELECT 'DE'\nFROM t", true,
			[]string{"Finding: DE fell.", "SQL: SELECT 'DE' FROM t"}},
		{"markdown unwrapped", "- **Kind:** volume\n1. `platform` moved\n#### Evidence\n> quoted", false,
			[]string{"Kind: volume.", "platform moved.", "Evidence.", "quoted."}},
		{"fences, html, images and rules dropped", "Text.\n  ```sql\n  SELECT 1\n  ```\n<details>\n![chart](c.png)\n---\nEnd.", false,
			[]string{"Text.", "End."}},
		{"table rows become cells", "| ID | Status |\n|---|---:|\n| hyp_001 | Ruled out |", false,
			[]string{"ID; Status.", "hyp_001; Ruled out."}},
		{"empty", "", false, nil},
	}
	for _, tt := range tests {
		if got := sentencesOf(tt.text, tt.keepCode); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: sentencesOf(%q) = %q; want %q", tt.name, tt.text, got, tt.want)
		}
	}
}

func TestShorten(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"one two three four", 12, "one two..."},
		{strings.Repeat("x", 20), 10, "xxxxxxx..."},
		{strings.Repeat("é", 10), 10, "ééé..."}, // 9 bytes: never cuts a rune
	}
	for _, tt := range tests {
		got := shorten(tt.in, tt.n)
		if got != tt.want || len(got) > tt.n || !utf8.ValidString(got) {
			t.Errorf("shorten(%q, %d) = %q; want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestSameWord(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"contribution", "contributions", true},
		{"calculate", "calculated", true},
		{"calculate", "calculation", true},
		{"hypothesis", "hypotheses", true},
		{"germany", "german", true},
		{"country", "countries", true},
		{"segment", "segments", true},
		{"de", "de", true},
		{"de", "device", false},
		{"count", "country", false},
		{"data", "date", false},
		{"us", "used", false},
		{"5.2", "5.20", false},
		{"hyp_001", "hyp_002", false},
	}
	for _, tt := range tests {
		if got := sameWord(tt.a, tt.b); got != tt.want {
			t.Errorf("sameWord(%q, %q) = %v; want %v", tt.a, tt.b, got, tt.want)
		}
		if got := sameWord(tt.b, tt.a); got != tt.want {
			t.Errorf("sameWord(%q, %q) = %v; want %v", tt.b, tt.a, got, tt.want)
		}
	}
}
