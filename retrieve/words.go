package retrieve

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Words splits text into lowercased words: runs of letters, digits and
// underscores. A dot between two letters or digits stays inside the word, so
// "5.2", "customers.segment" and "hyp_003" each stay one word, while the dot
// that ends a sentence does not. Leading and trailing underscores are
// dropped.
func Words(text string) []string {
	var out []string
	for _, w := range rawWords(text) {
		out = append(out, strings.ToLower(w))
	}
	return out
}

// rawWords is Words without the lowercasing, for callers that need to know
// how a word was written. Its words are slices of text.
func rawWords(text string) []string {
	var out []string
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		if w := strings.Trim(text[start:end], "_"); w != "" {
			out = append(out, w)
		}
		start = -1
	}
	prev := rune(-1)
	for i, r := range text {
		switch {
		case isWordRune(r):
			if start < 0 {
				start = i
			}
		case r == '.' && start >= 0 && isAlnum(prev) && i+1 < len(text) && isAlnum(firstRune(text[i+1:])):
			// inside "5.2" or "customers.segment": keep going
		default:
			flush(i)
		}
		prev = r
	}
	flush(len(text))
	return out
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

func isWordRune(r rune) bool { return isAlnum(r) || r == '_' }

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// Parts returns the parts of a word that underscores join, lower case
// and each at least two characters ("err_text": err, text;
// "COL_NOT_FOUND": col, not, found), nil for a word without one. A
// manual's identifiers hold the words a question says ("the error
// text"), and a PDF may draw an underscore as a rule that extraction
// turns into a space ("CONFIG HZ" for CONFIG_HZ).
func Parts(w string) []string {
	if !strings.Contains(strings.Trim(w, "_"), "_") {
		return nil
	}
	var out []string
	for _, p := range strings.Split(strings.ToLower(w), "_") {
		if len(p) >= 2 {
			out = append(out, p)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// Joined reports whether words, a text's words in order, hold the word
// w that underscores join, whole or with its parts one after another
// as extraction may leave them ("CONFIG HZ", "set_\nvoltage" for
// set_voltage).
func Joined(w string, words []string) bool {
	parts := Parts(w)
	if parts == nil {
		return false
	}
	for i := 0; i+len(parts) <= len(words); i++ {
		if slices.Equal(words[i:i+len(parts)], parts) {
			return true
		}
	}
	return slices.Contains(words, w)
}
