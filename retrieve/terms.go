package retrieve

import (
	"strings"
	"unicode"
)

// stopwords are English words too common to say what a question is about.
// Two-letter country codes among them ("in", "it", "us") are dropped too,
// unless the question writes them in capitals (see Terms).
var stopwords = setOf(
	"a", "about", "above", "after", "again", "all", "also", "am", "an", "and",
	"any", "are", "as", "at", "be", "been", "before", "being", "both", "but",
	"by", "can", "could", "did", "do", "does", "doing", "done", "each", "else",
	"for", "from", "further", "had", "has", "have", "having", "he", "her",
	"here", "hers", "him", "his", "how", "i", "if", "in", "into", "is", "it",
	"its", "just", "let", "may", "me", "might", "more", "most", "much", "must",
	"my", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or",
	"other", "our", "ours", "out", "over", "please", "same", "shall", "she",
	"should", "so", "some", "such", "tell", "than", "that", "the", "their",
	"theirs", "them", "then", "there", "these", "they", "this", "those",
	"through", "to", "too", "under", "until", "up", "us", "very", "was", "we",
	"were", "what", "when", "where", "which", "while", "who", "whom", "whose",
	"why", "will", "with", "would", "yes", "you", "your", "yours",
	// what is left of a negation written short ("doesn't", "shouldn't")
	"doesn", "don", "didn", "isn", "aren", "wasn", "weren", "shouldn", "couldn", "wouldn", "hasn", "haven",
	"hadn", "mustn", "needn",
)

// Terms returns the words of a question worth searching for: lowercased,
// without stopwords and single letters, each once, in the order they first
// appear. Numbers ("59", "5.2") and identifiers ("app_version", "hyp_003",
// "customers.segment") are kept whole. A stopword that is a known country
// code written in capitals ("US", "IT", "IN") is kept, because the writer
// meant the country.
func Terms(question string) []string {
	var out []string
	seen := map[string]bool{}
	for _, raw := range rawWords(question) {
		w := strings.ToLower(raw)
		if seen[w] || !keep(raw, w) {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// keep reports whether the word w, written raw in the question, is a term.
func keep(raw, w string) bool {
	if len([]rune(w)) == 1 && !unicode.IsDigit([]rune(w)[0]) {
		return false
	}
	if stopwords[w] {
		return isUpper(raw) && countryCodes[w]
	}
	return true
}

func isUpper(s string) bool {
	return s == strings.ToUpper(s) && s != strings.ToLower(s)
}

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
