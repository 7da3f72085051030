package retrieve

import (
	"slices"
	"testing"
)

// TestVerbForms: a noun made of a verb is searched as the verb too, when
// the room lacks the noun; a word with no noun's ending has none.
func TestVerbForms(t *testing.T) {
	for w, want := range map[string]string{
		"creation":      "create",
		"definition":    "define",
		"addition":      "add",
		"specification": "specify",
		"description":   "describe",
		"compression":   "compress",
		"deletion":      "delete",
		"installation":  "install",
	} {
		if got := Spellings(w); !slices.Contains(got, want) {
			t.Errorf("Spellings(%q) = %q; want %q among them", w, got, want)
		}
	}
	for _, w := range []string{"station", "option", "page", "ledger", "voltage"} {
		if got := VerbForms(w); got != nil {
			t.Errorf("VerbForms(%q) = %q; want none", w, got)
		}
	}
}
