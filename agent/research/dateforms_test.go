package research

import (
	"slices"
	"strings"
	"testing"

	rs "github.com/quarry-dev/quarry/research"
)

// An event's day in the forms sources write it (issue 24, hS-31): a
// headline's "— Sept. 2", a day without its year in an undated post, two
// digits of year ("2/13/25"), a participle that opens the sentence, a
// time of day or "last night," between the verb and its day, a label
// that ends in "date", and a noun of a thing that happens ("the final
// show at Wembley on").

// brindle is a lido whose reopening a council notice dates, a paper
// dates after "last night,", and an undated swimmers' blog dates without
// a year; a newsletter's headline gives the day its first gala was held.
var brindle = memoryCorpus{
	{URL: "doc://council", Title: "Brindle Town Council — notice", Credibility: 0.85, Published: day("2025-06-30"),
		Text: "Brindle Lido reopened on 14 June 2025 after a two-year restoration. The first swimming gala was held on 21 June 2025."},
	{URL: "doc://paper", Title: "Brindle Gazette", Credibility: 0.6, Published: day("2025-06-15"),
		Text: "Brindle Lido reopened to swimmers at 07:30 last night, Saturday 14 June 2025, with a queue around the block."},
	{URL: "doc://blog", Title: "Cold water swimmers blog", Credibility: 0.4,
		Text: "The lido reopened on June 24 and the water was freezing."},
	{URL: "doc://newsletter", Title: "Brindle swimming club newsletter", Credibility: 0.4,
		Text: "**Brindle Lido holds first gala — June 28**\n\nWell done to all our juniors."},
}

// TestDaysOfEventsInOtherForms: the blog's yearless "June 24" is read in
// its corpus's year and set against the council's 14 June; the
// headline's gala day against the notice's.
func TestDaysOfEventsInOtherForms(t *testing.T) {
	res := run(t, brindle, "What do the sources say about Brindle Lido: when did it reopen and when was its first gala?")
	for _, want := range [][2]string{{"14 June 2025", "June 24"}, {"21 June 2025", "June 28"}} {
		found := slices.ContainsFunc(res.Discrepancies, func(d rs.Discrepancy) bool {
			v := sidesOf(d)
			return strings.Contains(v, want[0]) && strings.Contains(v, want[1])
		})
		if !found {
			t.Errorf("discrepancies %v; want %s against %s", topics(res.Discrepancies), want[0], want[1])
		}
	}
	for _, tc := range []struct{ s, value, head string }{
		{"Declared at Harwick Leisure Centre at 02:10 on 7 March 2025.", "7 March 2025", "declar"},
		{"She arrived 2/13/25 and is doing well.", "2/13/25", "arriv"},
		{"The calf was born at 11:40 p.m. on February 3, 2025, after a long labour.", "February 3, 2025", "birth"},
		{"The band closed the tour at Wembley last night, Saturday 30 November 2024, with a long set.", "30 November 2024", "closure"},
		{"The strike that began on 5 February 2025 ends today, 28 February 2025.", "28 February 2025", "end"},
		{"The festival was held on 18 February 2025.", "18 February 2025", "festival"},
		{"Recall date: September 9, 2025", "September 9, 2025", "recall"},
		{"Date refloated: 9 November 2024.", "9 November 2024", "refloat"},
		{"The band played 61 shows, ending with the final show at Wembley Stadium in London on 30 November 2024.", "30 November 2024", "show"},
		{"I was there on 12/3/2024 for the final Lowland show.", "12/3/2024", "show"},
		{"**Tamarak Ridge ships first concentrate — Sept. 2, 2024**", "Sept. 2, 2024", "ship"},
	} {
		cs := Claims(tc.s, []string{"tamarak", "ridge"})
		i := slices.IndexFunc(cs, func(c Claim) bool { return c.Text == tc.value })
		if i < 0 || cs[i].Head != tc.head {
			t.Errorf("Claims(%q) = %+v; want %s an event %q", tc.s, cs, tc.value, tc.head)
		}
	}
	// The document's own dates are no claims.
	for _, s := range []string{"Issue date: 9 November 2024.", "Release date: 14 March 2025."} {
		if cs, _ := labelClaims(s, nil); len(cs) > 0 {
			t.Errorf("labelClaims(%q) = %+v; want none", s, cs)
		}
	}
}

// sidesOf is a discrepancy's values, "a | b".
func sidesOf(d rs.Discrepancy) string {
	var vals []string
	for _, s := range d.Sides {
		vals = append(vals, s.Value)
	}
	return strings.Join(vals, " | ")
}

// topics is each discrepancy's topic and sides, for a failure message.
func topics(ds []rs.Discrepancy) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Topic+": "+sidesOf(d))
	}
	return out
}
