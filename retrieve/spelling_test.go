package retrieve

import (
	"slices"
	"testing"
)

// TestAmerican: British spellings are compared as American ones; words
// that only end like them are left alone.
func TestAmerican(t *testing.T) {
	for w, want := range map[string]string{
		"colour": "color", "colours": "colors", "behaviour": "behavior", "centre": "center", "metre": "meter",
		"fibre": "fiber", "optimise": "optimize", "initialisation": "initialization", "analyse": "analyze",
		"licence": "license", "grey": "gray", "labelled": "labeled", "anticlockwise": "counterclockwise",
		"catalogue": "catalog",
		// not British spellings
		"four": "four", "hour": "hour", "flour": "flour", "rise": "rise", "precise": "precise", "genre": "genre",
		"color": "color", "more": "more", "filled": "filled", "choose": "choose", "analysis": "analysis",
	} {
		if got := American(w); got != want {
			t.Errorf("American(%q) = %q; want %q", w, got, want)
		}
	}
}

// TestSpellings: a search looks for a word as both Englishes spell it.
func TestSpellings(t *testing.T) {
	for w, want := range map[string][]string{
		"colour": {"colour", "color"}, "color": {"color", "colour"}, "center": {"center", "centre"},
		"optimize": {"optimize", "optimise"}, "license": {"license", "licence"}, "gray": {"gray", "grey"},
		"counterclockwise": {"counterclockwise", "anticlockwise"}, "four": {"four"}, "for": {"for"}, "size": {"size"},
	} {
		if got := Spellings(w); !slices.Equal(got, want) {
			t.Errorf("Spellings(%q) = %q; want %q", w, got, want)
		}
	}
}
