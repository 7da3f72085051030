package retrieve

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/kljensen/snowball/english"
)

// WordCounts is how many passages of a collection (a data room's chunks)
// hold each word, as Words splits them, for choosing the rarest terms of
// a search: words in much of a collection add little to a ranking and
// most of the cost of finding it. Stores keep the counts (CountWords at
// every write); a WordCounts does not change once made, so searches may
// share one.
type WordCounts struct {
	// Passages is how many passages the collection has, for BM25.
	Passages int
	counts   map[string]int32
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

// CountWords counts, for each word, the bodies that hold it; a word
// that underscores join counts for its parts too ("err_text" for
// "text"), as the stores' full-text indexes read it.
func CountWords(bodies []string) map[string]int32 {
	counts := map[string]int32{}
	seen := map[string]bool{}
	for _, b := range bodies {
		clear(seen)
		for _, w := range Words(b) {
			for _, x := range append([]string{w}, Parts(w)...) {
				if !seen[x] {
					seen[x] = true
					counts[x]++
				}
			}
		}
	}
	return counts
}

// FamilyPrefix is what a word's family shares, the words an index's
// stemming matches with it (years: year, yearly; operating: operate,
// operations): the word's English stem, or as much of the word as its
// stem keeps when stemming changes a letter (happy: happi, so happ).
// FTS5's porter tokenizer and PostgreSQL's english configuration stem
// with Porter's algorithm; snowball's English stemmer is its successor
// and differs from it in few words.
func FamilyPrefix(w string) string {
	stem := []rune(english.Stem(w, false))
	rs := []rune(w)
	n := 0
	for n < len(rs) && n < len(stem) && rs[n] == stem[n] {
		n++
	}
	if n == 0 {
		return w
	}
	return string(rs[:n])
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

// Family is how many passages hold w or a word of its family, a word the
// index stems as it does w; passages with several of the family count
// once for each, so it is at most an overcount.
func (c *WordCounts) Family(w string) int32 {
	p, stem := FamilyPrefix(w), english.Stem(w, false)
	var n int32
	for i, _ := slices.BinarySearch(c.sorted, p); i < len(c.sorted) && strings.HasPrefix(c.sorted[i], p); i++ {
		if x := c.sorted[i]; x == w || english.Stem(x, false) == stem {
			n += c.counts[x]
		}
	}
	return n
}

// Rarest keeps the limit terms found in the fewest passages, counting
// each word with its family and a term of several words ("pp&e") by its
// rarest, in their given order. With postings above 0 it also leaves out
// the commonest of those while together they are in more than postings
// passages, keeping the rarest term at least: a search's cost grows with
// the passages its words are in, and a word in thousands of them adds
// little to a ranking the rarer words have made. With limit and postings
// 0 or below, or no more terms than limit and no postings, it returns
// terms.
func (c *WordCounts) Rarest(terms []string, limit, postings int) []string {
	searched, _ := c.Split(terms, limit, postings)
	return searched
}

// Split is Rarest that also returns the terms postings left out of the
// limit rarest: the ones a search does not read the index for but that
// still score what it finds (BM25). Both keep the terms' order.
func (c *WordCounts) Split(terms []string, limit, postings int) (searched, scored []string) {
	if limit <= 0 {
		limit = len(terms)
	}
	if len(terms) <= limit && postings <= 0 {
		return terms, nil
	}
	// A term of several words is as rare as its rarest word, and costs
	// what all its words do: a phrase is found by reading each word.
	type counted struct {
		i        int
		df, cost int32
	}
	cs := make([]counted, len(terms))
	for i, t := range terms {
		var df, cost int32 = -1, 0
		for _, w := range Words(t) {
			n := c.Family(w)
			if df < 0 || n < df {
				df = n
			}
			cost += n
		}
		cs[i] = counted{i, df, cost}
	}
	slices.SortStableFunc(cs, func(a, b counted) int { return cmp.Compare(a.df, b.df) })
	cs = cs[:min(limit, len(cs))]
	read, sum := 0, 0
	for read < len(cs) {
		sum += int(cs[read].cost)
		if read > 0 && postings > 0 && sum > postings {
			break
		}
		read++
	}
	inOrder := func(cs []counted) []string {
		if len(cs) == 0 {
			return nil
		}
		slices.SortFunc(cs, func(a, b counted) int { return cmp.Compare(a.i, b.i) })
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = terms[c.i]
		}
		return out
	}
	scored = inOrder(slices.Clone(cs[read:]))
	return inOrder(cs[:read]), scored
}

// BM25 scores passages of c's collection for terms as an index like
// FTS5 does (Okapi BM25, k1 1.2, b 0.75), for passages whose mean length
// is meanLength words: a term's passages are its Family, and it matches a
// word of its family; a term of several words matches them in a row.
func (c *WordCounts) BM25(terms []string, meanLength float64) *BM25 {
	s := &BM25{meanLength: meanLength, stems: map[string]string{}}
	for _, t := range terms {
		tw := Words(t)
		if len(tw) == 0 {
			continue
		}
		bt := bm25Term{words: tw, stems: make([]string, len(tw)), prefixes: make([]string, len(tw))}
		var n int32 = -1
		for i, w := range tw {
			bt.stems[i], bt.prefixes[i] = s.stem(w), FamilyPrefix(w)
			if f := c.Family(w); n < 0 || f < n {
				n = f
			}
		}
		bt.idf = math.Log((float64(c.Passages) - float64(n) + 0.5) / (float64(n) + 0.5))
		if bt.idf <= 0 {
			bt.idf = 1e-6
		}
		s.terms = append(s.terms, bt)
	}
	return s
}

// ScoreBM25 returns the BM25 score of each of bodies for terms
// (WordCounts.BM25), their mean length taken as the collection's.
func (c *WordCounts) ScoreBM25(terms, bodies []string) []float64 {
	words := make([][]string, len(bodies))
	total := 0
	for i, b := range bodies {
		words[i] = Words(b)
		total += len(words[i])
	}
	bm25 := c.BM25(terms, float64(total)/float64(max(1, len(bodies))))
	scores := make([]float64, len(bodies))
	for i := range words {
		scores[i] = bm25.Score(words[i])
	}
	return scores
}

// BM25 scores passages for some terms (WordCounts.BM25). It is not safe
// for concurrent use.
type BM25 struct {
	terms      []bm25Term
	meanLength float64
	stems      map[string]string // words stemmed so far
}

type bm25Term struct {
	words, stems, prefixes []string
	idf                    float64
}

func (s *BM25) stem(w string) string {
	st, ok := s.stems[w]
	if !ok {
		st = english.Stem(w, false)
		s.stems[w] = st
	}
	return st
}

// Score is the score of a passage of words, as Words splits it.
func (s *BM25) Score(words []string) float64 {
	const k1, b = 1.2, 0.75
	if len(words) == 0 || s.meanLength <= 0 {
		return 0
	}
	norm := k1 * (1 - b + b*float64(len(words))/s.meanLength)
	var score float64
	for _, t := range s.terms {
		tf := 0
	word:
		for i := 0; i+len(t.words) <= len(words); i++ {
			for j := range t.words {
				w := words[i+j]
				if !strings.HasPrefix(w, t.prefixes[j]) || (w != t.words[j] && s.stem(w) != t.stems[j]) {
					continue word
				}
			}
			tf++
		}
		if tf > 0 {
			f := float64(tf)
			score += t.idf * f * (k1 + 1) / (f + norm)
		}
	}
	return score
}
