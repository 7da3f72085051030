package ask

import "testing"

// TestHeadOf: the thing a question asks for, which a passage that answers
// must name.
func TestHeadOf(t *testing.T) {
	for q, want := range map[string]string{
		"What was the revenue of Harbor Components in 2023?": "revenue",
		"What is the default block size of bzip2?":           "size",
		"Which version of fontconfig added emoji?":           "version",
		"How many packages were in Debian 1.3?":              "packages",
		"How much memory does bunzip2 need?":                 "memory",
		"What does the -k flag do?":                          "",
		"Who wrote bzip2?":                                   "",
		"Is the Z-200 heavier than the Z-100?":               "",
	} {
		if got := headOf(q); got != want {
			t.Errorf("headOf(%q) = %q; want %q", q, got, want)
		}
	}
}
