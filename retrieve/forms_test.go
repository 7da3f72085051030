package retrieve

import (
	"slices"
	"testing"
)

// TestLemma: an irregular form is compared as the word it is of, a month
// as its abbreviation, a British spelling as the American.
func TestLemma(t *testing.T) {
	for w, want := range map[string]string{"lives": "life", "indices": "index", "written": "write", "january": "jan",
		"jan": "jan", "colour": "color", "line": "line", "may": "may"} {
		if got := Lemma(w); got != want {
			t.Errorf("Lemma(%q) = %q; want %q", w, got, want)
		}
	}
}

// TestSpellingsHoldIrregularForms: a search for a word looks for its
// other forms where the room lacks it.
func TestSpellingsHoldIrregularForms(t *testing.T) {
	for _, c := range []struct {
		w    string
		want []string
	}{
		{"january", []string{"jan"}},
		{"jul", []string{"july"}},
		{"lives", []string{"life"}},
		{"wrote", []string{"write", "written"}},
	} {
		got := Spellings(c.w)
		for _, f := range append([]string{c.w}, c.want...) {
			if !slices.Contains(got, f) {
				t.Errorf("Spellings(%q) = %v; want %q in it", c.w, got, f)
			}
		}
	}
}

// TestTermsLeaveOutANegationsStub: "shouldn't" says how a question is
// put; its "shouldn" is no term.
func TestTermsLeaveOutANegationsStub(t *testing.T) {
	if got := Terms("Why shouldn't I use spline edges? It doesn't work."); slices.Contains(got, "shouldn") || slices.Contains(got, "doesn") {
		t.Errorf("Terms = %v; want no shouldn, doesn", got)
	}
}
