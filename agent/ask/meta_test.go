package ask

import (
	"slices"
	"testing"

	"github.com/quarry-dev/quarry/room"
)

const cover = `UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
FORM 10-K
For the fiscal year ended January 1, 2023
JOHNSON & JOHNSON
(Exact name of registrant as specified in its charter)
                 SECURITIES REGISTERED PURSUANT TO SECTION 12(b) OF THE ACT
      Title of each class                     Trading Symbol                 Name of each exchange on which registered
   Common Stock, Par Value $1.00                   JNJ                       New York Stock Exchange
   0.650% Notes Due May 2024                      JNJ24C                     New York Stock Exchange
`

func TestMetaReadsTheCover(t *testing.T) {
	m := Meta("jnj-2022.pdf", "", []string{cover})
	if m.Company != "JOHNSON & JOHNSON" || m.FormType != "10-K" || !slices.Contains(m.Years, 2022) {
		t.Errorf("meta %+v", m)
	}
	if !slices.Equal(m.Tickers, []string{"JNJ"}) {
		t.Errorf("tickers %v, want [JNJ] (not the notes' symbols)", m.Tickers)
	}
}

func TestMatchByTickerAndAbbreviation(t *testing.T) {
	jnj := room.Document{Name: "a.pdf", Meta: room.DocMeta{Company: "JOHNSON & JOHNSON", Tickers: []string{"JNJ"}}}
	amex := room.Document{Name: "b.pdf", Meta: room.DocMeta{Company: "American Express Company", Tickers: []string{"AXP"}}}
	ba := room.Document{Name: "c.pdf", Meta: room.DocMeta{Company: "The Boeing Company", Tickers: []string{"BA"}}}
	for _, c := range []struct {
		question string
		doc      room.Document
		want     bool
	}{
		{"What drove gross margin change as of FY2022 for JnJ?", jnj, true},
		{"Does AMEX have an improving operating margin profile as of 2022?", amex, true},
		{"What is AXP's effective tax rate?", amex, true},
		{"Is BA subject to cyclicality?", ba, true},
		// "ba" in lower case, or a word that only starts like the name,
		// names no one.
		{"What is a ba degree worth?", ba, false},
		{"Is America expressing concern about tariffs?", amex, false},
		{"What does the amendment say?", amex, false},
	} {
		if got := parseQuestion(c.question).match(c.doc, func(string) bool { return true }) > 0; got != c.want {
			t.Errorf("%q matches %s: %v, want %v", c.question, c.doc.Meta.Company, got, c.want)
		}
	}
}

// TestAFileNameNamesADocumentOnlyWhole: a file's name routes a question to
// its document only when the question has all its words, one of them rare
// in the room: "memory" in a room that talks of memory everywhere names no
// Memory-Usage.html, and "manual" alone no bzip2-manual.pdf.
func TestAFileNameNamesADocumentOnlyWhole(t *testing.T) {
	usage := room.Document{Name: "Memory-Usage.html"}
	manual := room.Document{Name: "bzip2-manual.pdf"}
	everywhere := func(w string) bool { return w != "memory" && w != "usage" }
	anywhere := func(string) bool { return true }
	for _, c := range []struct {
		question string
		doc      room.Document
		rare     func(string) bool
		want     bool
	}{
		{"How much memory does bunzip2 need?", usage, anywhere, false},
		{"What is the memory usage of bunzip2?", usage, everywhere, false},
		{"What is the memory usage of bunzip2?", usage, anywhere, true},
		{"Which fonts does the manual list?", manual, anywhere, false},
		{"What does the bzip2 manual say about -k?", manual, anywhere, true},
	} {
		if got := parseQuestion(c.question).match(c.doc, c.rare) > 0; got != c.want {
			t.Errorf("%q matches %s: %v, want %v", c.question, c.doc.Name, got, c.want)
		}
	}
}

// TestCoverTitle: without a title of its own, a document's title is the
// short lines at the top of its first page, up to its prose.
func TestCoverTitle(t *testing.T) {
	for page, want := range map[string]string{
		"The Gantry Modelling Language: reference guide\n\nThis guide describes the Gantry modelling language.": "The Gantry Modelling Language: reference guide",
		"  b ohr\n  v1.0   2015/06/24\n  simple atom representation\n  Clemens Niederberger\n":                  "b ohr — v1.0 2015/06/24 — simple atom representation",
		"This page has only prose on it, a sentence of more than ten words and no title.":                       "",
	} {
		if got := coverTitle(page); got != want {
			t.Errorf("coverTitle(%q) = %q; want %q", page, got, want)
		}
	}
	if got := Meta("gml-reference.txt", "", []string{"The Gantry Modelling Language\n\nText."}).Title; got != "The Gantry Modelling Language" {
		t.Errorf("Meta(...).Title = %q; want the cover's title", got)
	}
}
