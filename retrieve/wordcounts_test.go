package retrieve

import (
	"maps"
	"slices"
	"testing"
)

func TestCountWords(t *testing.T) {
	got := CountWords([]string{"Revenue grew; revenue fell.", "Capex and revenue", "capex"})
	want := map[string]int32{"revenue": 2, "grew": 1, "fell": 1, "capex": 2, "and": 1}
	if !maps.Equal(got, want) {
		t.Fatalf("CountWords = %v; want %v", got, want)
	}
}

func TestFamilyPrefix(t *testing.T) {
	for _, c := range []struct{ word, want string }{
		{"capex", "capex"},
		{"q4", "q4"},
		{"margin", "margin"},
		{"years", "year"},
		{"taxes", "tax"},
		{"operating", "oper"},
		{"happiness", "happi"},
		{"happy", "happ"}, // stemmed happi
		{"depreciation", "depreci"},
	} {
		if got := FamilyPrefix(c.word); got != c.want {
			t.Errorf("FamilyPrefix(%q) = %q; want %q", c.word, got, c.want)
		}
	}
}

func TestFamilyPrefixes(t *testing.T) {
	got := FamilyPrefixes([]string{"operating", "operations", "pp&e", "q4"})
	want := []string{"oper", "pp", "e", "q4"}
	if !slices.Equal(got, want) {
		t.Fatalf("FamilyPrefixes = %q; want %q", got, want)
	}
}

func TestWordCountsFamily(t *testing.T) {
	c := NewWordCounts(map[string]int32{"operating": 10, "operations": 7, "operate": 1, "opera": 50, "widget": 2, "year": 40, "years": 30, "yearn": 1})
	for _, tc := range []struct {
		word string
		want int32
	}{
		{"operate", 18}, // oper: operate, operating, operations, not opera
		{"operating", 18},
		{"operations", 18},
		{"opera", 50},
		{"widgets", 2},
		{"years", 70}, // year, years; not yearn
		{"gadget", 0},
	} {
		if got := c.Family(tc.word); got != tc.want {
			t.Errorf("Family(%q) = %d; want %d", tc.word, got, tc.want)
		}
	}
}

func TestWordCountsRarest(t *testing.T) {
	c := NewWordCounts(map[string]int32{"revenue": 900, "total": 800, "capex": 40, "fy2022": 12, "pp": 5, "e": 700, "guidance": 40})
	for _, tc := range []struct {
		terms []string
		limit int
		want  []string
	}{
		{[]string{"total", "revenue", "capex"}, 0, []string{"total", "revenue", "capex"}},
		{[]string{"total", "revenue", "capex"}, 3, []string{"total", "revenue", "capex"}},
		// The rarest, in the order given.
		{[]string{"total", "capex", "revenue", "fy2022"}, 2, []string{"capex", "fy2022"}},
		// A term of several words counts as its rarest.
		{[]string{"revenue", "pp&e", "total"}, 1, []string{"pp&e"}},
		// A word no passage holds is rarest of all.
		{[]string{"revenue", "ebitda", "total"}, 1, []string{"ebitda"}},
		// Ties keep the earlier term.
		{[]string{"guidance", "capex", "revenue"}, 1, []string{"guidance"}},
	} {
		if got := c.Rarest(tc.terms, tc.limit, 0); !slices.Equal(got, tc.want) {
			t.Errorf("Rarest(%q, %d) = %q; want %q", tc.terms, tc.limit, got, tc.want)
		}
	}
}

// With a postings budget the commonest terms go while the kept ones are
// together in more passages than it, but the rarest always stays.
func TestWordCountsRarestPostings(t *testing.T) {
	c := NewWordCounts(map[string]int32{"revenue": 900, "total": 800, "capex": 40, "fy2022": 12, "guidance": 40, "pp": 5, "e": 700})
	for _, tc := range []struct {
		terms           []string
		limit, postings int
		want            []string
	}{
		{[]string{"total", "revenue", "capex", "fy2022"}, 0, 100, []string{"capex", "fy2022"}},
		{[]string{"total", "revenue", "capex", "fy2022"}, 0, 852, []string{"total", "capex", "fy2022"}},
		{[]string{"total", "revenue", "capex", "fy2022"}, 2, 10000, []string{"capex", "fy2022"}},
		// The rarest stays even when it alone is over the budget.
		{[]string{"total", "revenue"}, 0, 10, []string{"total"}},
		// A word no passage holds costs nothing.
		{[]string{"ebitda", "revenue", "capex"}, 0, 40, []string{"ebitda", "capex"}},
		{[]string{"total", "revenue"}, 0, 0, []string{"total", "revenue"}},
		// A phrase costs all its words: pp&e is the rarest, but reading
		// "e" too leaves no room for the others.
		{[]string{"capex", "pp&e", "fy2022"}, 0, 100, []string{"pp&e"}},
		{[]string{"capex", "pp&e", "fy2022"}, 0, 760, []string{"capex", "pp&e", "fy2022"}},
	} {
		if got := c.Rarest(tc.terms, tc.limit, tc.postings); !slices.Equal(got, tc.want) {
			t.Errorf("Rarest(%q, %d, %d) = %q; want %q", tc.terms, tc.limit, tc.postings, got, tc.want)
		}
	}
}

// A WordCounts made of only the words of the terms' families chooses as
// one made of every word does.
func TestWordCountsOfFamiliesChooseAsAll(t *testing.T) {
	all := map[string]int32{"operating": 30, "operations": 30, "income": 25, "incomes": 1, "net": 40, "segment": 3, "segments": 20, "zebra": 1}
	terms := []string{"operating", "income", "net", "segments", "gadget"}
	part := map[string]int32{}
	for w, n := range all {
		for _, p := range FamilyPrefixes(terms) {
			if len(w) >= len(p) && w[:len(p)] == p {
				part[w] = n
			}
		}
	}
	if _, ok := part["zebra"]; ok {
		t.Fatal("zebra is in no family of the terms")
	}
	for limit := 1; limit <= len(terms); limit++ {
		want := NewWordCounts(all).Rarest(terms, limit, 0)
		if got := NewWordCounts(part).Rarest(terms, limit, 0); !slices.Equal(got, want) {
			t.Errorf("Rarest(%d) over the families = %q; over every word %q", limit, got, want)
		}
	}
}

// Split returns what postings leave out of the limit rarest beside what
// it keeps, each in the terms' order; what limit leaves out is neither.
func TestWordCountsSplit(t *testing.T) {
	c := NewWordCounts(map[string]int32{"revenue": 900, "total": 800, "capex": 40, "fy2022": 12})
	searched, scored := c.Split([]string{"total", "revenue", "capex", "fy2022"}, 3, 100)
	if !slices.Equal(searched, []string{"capex", "fy2022"}) || !slices.Equal(scored, []string{"total"}) {
		t.Errorf("Split = %q, %q; want [capex fy2022] and [total]", searched, scored)
	}
	if searched, scored := c.Split([]string{"total", "capex"}, 0, 0); !slices.Equal(searched, []string{"total", "capex"}) || scored != nil {
		t.Errorf("Split without limits = %q, %q; want every term searched", searched, scored)
	}
}

// TestCountWordsCountsANamesParts: a name that underscores join counts
// for its parts too, as the full-text indexes read it.
func TestCountWordsCountsANamesParts(t *testing.T) {
	got := CountWords([]string{"char *err_text", "error text"})
	want := map[string]int32{"char": 1, "err_text": 1, "err": 1, "text": 2, "error": 1}
	if !maps.Equal(got, want) {
		t.Errorf("CountWords = %v; want %v", got, want)
	}
}

func TestJoined(t *testing.T) {
	for _, c := range []struct {
		w, text string
		want    bool
	}{
		{"config_hz", "measuring CONFIG HZ.", true},
		{"config_hz", "CONFIG_HZ=243", true},
		{"set_voltage", "set_\nvoltage(3)", true},
		{"set_voltage", "voltage you set", false},
		{"voltage", "set voltage", false}, // no underscore: not a joined name
	} {
		if got := Joined(c.w, Words(c.text)); got != c.want {
			t.Errorf("Joined(%q, %q) = %v; want %v", c.w, c.text, got, c.want)
		}
	}
}
