package web

import (
	"reflect"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/docparse"
)

// wordsOf lays words out left to right, a line per "\n", each word 10
// points wide per character and lines 20 points apart.
func wordsOf(text string) []docparse.Word {
	var out []docparse.Word
	for li, line := range strings.Split(text, "\n") {
		x := 0.0
		for _, w := range strings.Fields(line) {
			wd := 10 * float64(len([]rune(w)))
			out = append(out, docparse.Word{Text: w, XMin: x, XMax: x + wd, YMin: float64(20 * li), YMax: float64(20*li + 12)})
			x += wd + 5
		}
	}
	return out
}

func TestLocate(t *testing.T) {
	boxes := "Revenue was $10.0 million.\nCapital expendi-\ntures were $48.6 million in fiscal\n2023. Revenue was $10.0 million."
	for _, c := range []struct {
		name, words, page, passage string
		start                      int
		want                       []int
		how                        string
	}{
		{
			name:  "spacing and hyphenation differ",
			words: boxes, page: "Revenue was $10.0 million.\nCapital   expenditures were $48.6\nmillion in fiscal 2023. Revenue was $10.0 million.",
			passage: "Capital   expenditures were $48.6\nmillion in fiscal 2023.", start: 27,
			want: []int{4, 5, 6, 7, 8, 9, 10, 11, 12}, how: "exact",
		},
		{
			name:  "a repeated passage: the occurrence where the chunk starts",
			words: boxes, page: "Revenue was $10.0 million.\nCapital expenditures were $48.6 million in fiscal 2023. Revenue was $10.0 million.",
			passage: "Revenue was $10.0 million.", start: 83,
			want: []int{13, 14, 15, 16}, how: "exact",
		},
		{
			name:  "the first occurrence when the chunk starts at the top",
			words: boxes, page: "Revenue was $10.0 million.\nCapital expenditures were $48.6 million in fiscal 2023. Revenue was $10.0 million.",
			passage: "Revenue was $10.0 million.", start: 0,
			want: []int{0, 1, 2, 3}, how: "exact",
		},
		{
			name:  "ligatures and case",
			words: "the ﬁnal OFFER stands", page: "the final offer stands", passage: "final offer", start: 4,
			want: []int{1, 2}, how: "exact",
		},
		{
			name:    "OCR noise: most words in order, the misread one filled in",
			words:   "the supplier may terrninate this agreement for convenience on ninety days notice",
			page:    "the supplier may terminate this agreement for convenience on ninety days notice",
			passage: "supplier may terminate this agreement for convenience on ninety days", start: 4,
			want: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, how: "words",
		},
		{
			name:  "not on the page",
			words: boxes, page: "something else", passage: "The indemnity cap is twelve months of fees.", start: 0,
			how: "none",
		},
	} {
		got, how := locate(wordsOf(c.words), c.page, c.passage, c.start)
		if how != c.how || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: locate = %v, %s; want %v, %s", c.name, got, how, c.want, c.how)
		}
	}
}

func TestLineBoxes(t *testing.T) {
	words := wordsOf("alpha beta gamma\ndelta epsilon")
	got := lineBoxes(words, []int{1, 2, 3, 4})
	if len(got) != 2 {
		t.Fatalf("lineBoxes = %+v; want one box per line", got)
	}
	// "beta gamma" from x=55 to 150 on the first line, padded by 1.5.
	if b := got[0]; b.X != 53.5 || b.W != 98 || b.Y != -1.5 || b.H != 15 {
		t.Errorf("first line's box %+v; want x 53.5, width 98", b)
	}
	if b := got[1]; b.Y != 18.5 || b.X != -1.5 {
		t.Errorf("second line's box %+v; want from the line's start", b)
	}
	// Words that are not consecutive get boxes of their own.
	if got := lineBoxes(words, []int{0, 2}); len(got) != 2 {
		t.Errorf("two words apart on one line: %+v; want two boxes", got)
	}
}

func TestMarkPassage(t *testing.T) {
	before, passage, after := markPassage("Né en 2023: capex €48.6m.", 12, 24)
	if before != "Né en 2023: " || passage != "capex €48.6m" || after != "." {
		t.Errorf("markPassage = %q %q %q; want the runes 12-24 marked", before, passage, after)
	}
	if b, p, a := markPassage("short", 3, 99); b != "sho" || p != "rt" || a != "" {
		t.Errorf("markPassage past the end = %q %q %q", b, p, a)
	}
}
