package web

import (
	"context"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quarry-dev/quarry/docparse"
	"github.com/quarry-dev/quarry/room"
)

// highlight is where a cited passage lies on a PDF page: boxes in PDF
// points from the page's top-left corner, one per line of the passage,
// over a page of Width x Height points. Matched says how the passage was
// found: "exact" (its letters and digits in order), "words" (most of its
// words in order) or "none".
type highlight struct {
	Width   float64 `json:"width"`
	Height  float64 `json:"height"`
	Boxes   []box   `json:"boxes"`
	Matched string  `json:"matched"`
}

// box is a rectangle in PDF points.
type box struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// highlightOn finds chunk c of page p on the PDF at path: only the
// sentence quote of it, when quote is set and found within the chunk.
func highlightOn(ctx context.Context, path string, p *room.Page, c *room.Chunk, quote string) (*highlight, error) {
	layout, err := wordBoxes(ctx, path, p.Number)
	if err != nil {
		return nil, err
	}
	passage, start := c.Text, c.StartChar
	if qs, _, ok := quoteSpan(p.Text, quote, c.StartChar, c.EndChar); ok {
		passage, start = quote, qs
	}
	words, how := locate(layout.Words, p.Text, passage, start)
	return &highlight{Width: layout.Width, Height: layout.Height, Boxes: lineBoxes(layout.Words, words), Matched: how}, nil
}

// quoteSpan finds quote in the runes start to end of a page's text, by
// its letters and digits in order (the quote's spacing and line breaks
// may differ from the page's), and returns the rune offsets it spans.
func quoteSpan(text, quote string, start, end int) (int, int, bool) {
	want := fold(quote)
	if want == "" {
		return 0, 0, false
	}
	runes := []rune(text)
	start, end = min(max(start, 0), len(runes)), min(max(end, 0), len(runes))
	var folded strings.Builder
	var at []int // the rune each byte of folded comes from
	for i := start; i < end; i++ {
		n := folded.Len()
		folded.WriteString(fold(string(runes[i])))
		for range folded.Len() - n {
			at = append(at, i)
		}
	}
	k := strings.Index(folded.String(), want)
	if k < 0 {
		return 0, 0, false
	}
	return at[k], at[k+len(want)-1] + 1, true
}

// locate returns the indices of the words that hold passage, which
// starts at rune offset start of the page's text. The words and the
// text come from the same page by different routes (pdftotext's layout
// and its word boxes), so they differ in spacing, line breaks and
// hyphenation: the passage is first looked for as its letters and digits
// alone, in order, nearest to where start puts it; failing that, as its
// words in order, allowing some to be missing.
func locate(words []docparse.Word, pageText, passage string, start int) ([]int, string) {
	if len(words) == 0 || strings.TrimSpace(passage) == "" {
		return nil, "none"
	}
	// The page's letters and digits, each byte knowing its word.
	var stream strings.Builder
	var owner []int
	for i, w := range words {
		n := stream.Len()
		stream.WriteString(fold(w.Text))
		for range stream.Len() - n {
			owner = append(owner, i)
		}
	}
	page := stream.String()
	want := fold(passage)
	runes := []rune(pageText)
	expect := len(fold(string(runes[:min(max(start, 0), len(runes))])))
	if want != "" {
		best := -1
		for from := 0; from <= len(page)-len(want); {
			i := strings.Index(page[from:], want)
			if i < 0 {
				break
			}
			if at := from + i; best < 0 || abs(at-expect) < abs(best-expect) {
				best = at
			}
			from += i + 1
		}
		if best >= 0 {
			var out []int
			for i := owner[best]; i <= owner[best+len(want)-1]; i++ {
				out = append(out, i)
			}
			return out, "exact"
		}
	}
	if out := alignWords(words, passage, owner, expect); out != nil {
		return out, "words"
	}
	return nil, "none"
}

// alignWords matches the passage's words in order against the page's,
// each within a few words of the last match, from every start where one
// of the passage's first words appears; the start nearest expect wins a
// tie. It gives up when fewer than half the words (or three) match.
// Short gaps between matches are filled in.
func alignWords(words []docparse.Word, passage string, owner []int, expect int) []int {
	var want []string
	for _, f := range strings.Fields(passage) {
		if t := fold(f); t != "" {
			want = append(want, t)
		}
	}
	have := make([]string, len(words))
	for i, w := range words {
		have[i] = fold(w.Text)
	}
	expectWord := 0
	if len(owner) > 0 {
		expectWord = owner[min(expect, len(owner)-1)]
	}
	const lookahead = 6
	var best []int
	for s := range have {
		if have[s] == "" || !startsPassage(have[s], want) {
			continue
		}
		var got []int
		i := s
		for _, t := range want {
			for j := i; j < min(i+lookahead, len(have)); j++ {
				if have[j] == t {
					got = append(got, j)
					i = j + 1
					break
				}
			}
		}
		if len(got) > len(best) || (len(got) == len(best) && len(got) > 0 && abs(got[0]-expectWord) < abs(best[0]-expectWord)) {
			best = got
		}
	}
	if len(best) < max(3, (len(want)+1)/2) {
		return nil
	}
	// Words missed between two matches a few words apart (a misread
	// word, a table cell read in another order) are the passage's too.
	out := []int{best[0]}
	for _, i := range best[1:] {
		if gap := i - out[len(out)-1]; gap > 1 && gap <= lookahead {
			for j := out[len(out)-1] + 1; j < i; j++ {
				out = append(out, j)
			}
		}
		out = append(out, i)
	}
	return out
}

// startsPassage reports whether t is one of the passage's first words.
func startsPassage(t string, want []string) bool {
	for _, w := range want[:min(3, len(want))] {
		if w == t {
			return true
		}
	}
	return false
}

// ligatures are the typographic ligatures PDFs carry as one character.
var ligatures = strings.NewReplacer("ﬀ", "ff", "ﬁ", "fi", "ﬂ", "fl", "ﬃ", "ffi", "ﬄ", "ffl", "ﬅ", "st", "ﬆ", "st")

// fold keeps the letters and digits of s, lower-cased, ligatures spelled
// out: what two extractions of the same text agree on.
func fold(s string) string {
	s = ligatures.Replace(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// lineBoxes joins the boxes of consecutive words on one line into one
// box per line, a little padded.
func lineBoxes(words []docparse.Word, idx []int) []box {
	const pad = 1.5
	var out []box
	var cur *docparse.Word
	last := -2
	flush := func() {
		if cur != nil {
			out = append(out, box{X: cur.XMin - pad, Y: cur.YMin - pad, W: cur.XMax - cur.XMin + 2*pad, H: cur.YMax - cur.YMin + 2*pad})
		}
	}
	for _, i := range idx {
		w := words[i]
		if cur != nil && i == last+1 && sameLine(*cur, w) {
			cur.XMin, cur.XMax = math.Min(cur.XMin, w.XMin), math.Max(cur.XMax, w.XMax)
			cur.YMin, cur.YMax = math.Min(cur.YMin, w.YMin), math.Max(cur.YMax, w.YMax)
		} else {
			flush()
			c := w
			cur = &c
		}
		last = i
	}
	flush()
	return out
}

// sameLine reports whether w sits on the line of the box so far: their
// vertical extents overlap by at least half the smaller height.
func sameLine(line, w docparse.Word) bool {
	overlap := math.Min(line.YMax, w.YMax) - math.Max(line.YMin, w.YMin)
	h := math.Min(line.YMax-line.YMin, w.YMax-w.YMin)
	return overlap >= h/2 && w.XMin >= line.XMin-1
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// markPassage splits a page's text around the runes [start, end) for a
// page shown as text: before, the passage, after. Offsets out of range
// are clamped.
func markPassage(text string, start, end int) (before, passage, after string) {
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	runes := []rune(text)
	start = min(max(start, 0), len(runes))
	end = min(max(end, start), len(runes))
	return string(runes[:start]), string(runes[start:end]), string(runes[end:])
}
