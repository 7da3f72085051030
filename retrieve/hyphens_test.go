package retrieve

import (
	"testing"
	"unicode/utf8"
)

func TestDehyphenate(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"it only supports homoge-\nneous linear systems", "it only supports homogeneous  \nlinear systems"},
		{"The de-\n   fault. Then", "The default.  \n   Then"},
		{"a user-\nspecific file", "a user-specific \nfile"},
		{"non-\noverlapping runs", "non-overlapping \nruns"},
		{"the cross-sections and cross-\nsections", "the cross-sections and cross-sections\n"},
		{"out-of-\nrange values", "out-of-\nrange values"},         // a compound's hyphen already
		{"see [mkfont-\ndir.1.html]", "see [mkfont-\ndir.1.html]"}, // code, not prose
		{"ABC-\nDEF", "ABC-\nDEF"},
	} {
		got := Dehyphenate(c.in)
		if got != c.want {
			t.Errorf("Dehyphenate(%q) = %q; want %q", c.in, got, c.want)
		}
		if utf8.RuneCountInString(got) != utf8.RuneCountInString(c.in) {
			t.Errorf("Dehyphenate(%q) has %d runes; want %d", c.in, utf8.RuneCountInString(got), utf8.RuneCountInString(c.in))
		}
	}
}
