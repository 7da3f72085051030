package retrieve

import (
	"cmp"
	"slices"
	"strings"
)

// WordCounts is how many passages of a collection (a data room's chunks)
// hold each word, as Words splits them, for choosing the rarest terms of
// a search: words in much of a collection add little to a ranking and
// most of the cost of finding it. Stores keep the counts (CountWords at
// every write); a WordCounts does not change once made, so searches may
// share one.
type WordCounts struct {
	counts map[string]int32
	// sorted holds counts' words in order, for counting a word's family.
	sorted []string
}

// NewWordCounts returns the counts of counts, a word's passages by word.
// It needs only the words that start with the FamilyPrefixes of the terms
// it will be asked about: a store may read just those.
func NewWordCounts(counts map[string]int32) *WordCounts {
	sorted := make([]string, 0, len(counts))
	for w := range counts {
		sorted = append(sorted, w)
	}
	slices.Sort(sorted)
	return &WordCounts{counts: counts, sorted: sorted}
}

// CountWords counts, for each word, the bodies that hold it.
func CountWords(bodies []string) map[string]int32 {
	counts := map[string]int32{}
	seen := map[string]bool{}
	for _, b := range bodies {
		clear(seen)
		for _, w := range Words(b) {
			if !seen[w] {
				seen[w] = true
				counts[w]++
			}
		}
	}
	return counts
}

// FamilyPrefix is what a word's family shares, the words that start the
// same way (operate: operating, operations), as an index's stemming would
// match them: a word of up to five letters is its own prefix, a longer
// one loses up to three letters of ending but keeps five.
func FamilyPrefix(w string) string {
	rs := []rune(w)
	if len(rs) <= 5 {
		return w
	}
	return string(rs[:max(5, len(rs)-3)])
}

// FamilyPrefixes returns the FamilyPrefix of every word of terms, each
// once: the words a WordCounts needs to choose among terms.
func FamilyPrefixes(terms []string) []string {
	var out []string
	for _, t := range terms {
		for _, w := range Words(t) {
			if p := FamilyPrefix(w); !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// Family is how many passages hold w or a word of its family; passages
// with several of the family count once for each, so it is at most an
// overcount.
func (c *WordCounts) Family(w string) int32 {
	p := FamilyPrefix(w)
	var n int32
	for i, _ := slices.BinarySearch(c.sorted, p); i < len(c.sorted) && strings.HasPrefix(c.sorted[i], p); i++ {
		n += c.counts[c.sorted[i]]
	}
	return n
}

// Rarest keeps the limit terms found in the fewest passages, counting
// each word with its family and a term of several words ("pp&e") by its
// rarest, in their given order. With limit 0 or below, or no more terms
// than limit, it returns terms.
func (c *WordCounts) Rarest(terms []string, limit int) []string {
	if limit <= 0 || len(terms) <= limit {
		return terms
	}
	type counted struct {
		i  int
		df int32
	}
	cs := make([]counted, len(terms))
	for i, t := range terms {
		var df int32 = -1
		for _, w := range Words(t) {
			if n := c.Family(w); df < 0 || n < df {
				df = n
			}
		}
		cs[i] = counted{i, df}
	}
	slices.SortStableFunc(cs, func(a, b counted) int { return cmp.Compare(a.df, b.df) })
	cs = cs[:limit]
	slices.SortFunc(cs, func(a, b counted) int { return cmp.Compare(a.i, b.i) })
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = terms[c.i]
	}
	return out
}
