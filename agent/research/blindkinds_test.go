package research

import (
	"strings"
	"testing"
	"time"
)

// Kinds of failure a corpus written without reading the code found:
// values written in ways no rule read, and a final figure that says the
// earlier ones were wrong.

// halcyon is a launch company's first flight, its day written without a
// year in a forum post, after a verb and its particle in a release.
var halcyon = memoryCorpus{
	{URL: "doc://release", Title: "Halcyon Orbital press release", Credibility: 0.75, Published: day("2025-03-04"),
		Text: "Halcyon Orbital's Kite rocket lifted off from Mahia on March 3, 2025, carrying two satellites. Doors at the viewing site opened at 7:00 a.m. for 220 guests."},
	{URL: "doc://notice", Title: "Halcyon Orbital launch notice", Credibility: 0.85, Published: day("2025-02-20"),
		Text: "The Kite rocket will lift off from Mahia on March 3. The viewing site opens at 6:30 a.m. for 220 guests."},
	{URL: "doc://forum", Title: "Rocket forum", Credibility: 0.4, Published: day("2025-03-09"),
		Text: "halcyon's kite finally lifted off on march 5 after two scrubs, great to watch."},
}

// TestDatesWithoutYearAndTimes: a day written without its year, in any
// case, is its source's year's; a verb with its particle dates an
// event; a time of day is no count ("7:00 a.m." against "6:30 a.m.").
func TestDatesWithoutYearAndTimes(t *testing.T) {
	res := run(t, halcyon, "What do the sources say about Halcyon Orbital: when did the Kite rocket lift off?")
	found := false
	for _, d := range res.Discrepancies {
		var vals []string
		for _, s := range d.Sides {
			vals = append(vals, s.Value)
		}
		v := strings.Join(vals, " | ")
		switch {
		case strings.Contains(v, "March 3, 2025") && strings.Contains(v, "March 5, 2025"):
			found = true
			if d.Preferred != "March 3, 2025" {
				t.Errorf("%s: preferred %q (%s); want March 3, 2025", d.Topic, d.Preferred, d.Strategy)
			}
		default:
			t.Errorf("discrepancy %s: %s; want none but the day of the launch", d.Topic, v)
		}
	}
	if !found {
		t.Errorf("discrepancies %+v; want March 3, 2025 against March 5, 2025", res.Discrepancies)
	}
}

func TestValuesSkipTimesOfDay(t *testing.T) {
	for _, s := range []string{"Doors open at 7:00 a.m. and the race starts at 7:30 a.m.", "She was refloated at 06:40."} {
		for _, v := range Values(s) {
			if v.Kind == KindNumber {
				t.Errorf("Values(%q) has %q; want no number in a time of day", s, v.Text)
			}
		}
	}
}

func TestWithYears(t *testing.T) {
	for _, tc := range []struct{ s, published, want string }{
		{"lifted on march 17 according to my neighbour", "2025-03-18", "lifted on March 17, 2025 according to my neighbour"},
		{"The first case was found on December 6.", "2025-02-03", "The first case was found on December 6, 2024."},
		{"Screenings from Friday 21 March.", "2025-03-01", "Screenings from Friday 21 March 2025."},
		{"She was refloated on 9 November.", "2025-09-12", "She was refloated on 9 November 2024."},
		{"Doors open on January 4.", "2024-12-20", "Doors open on January 4, 2025."},
		{"It opened on 9 April 2025, not April 19.", "2025-04-26", "It opened on 9 April 2025, not April 19, 2025."},
		{"Prices may 5 times rise; March 5 km.", "2025-03-01", "Prices may 5 times rise; March 5 km."},
		{"on march 17", "", "on march 17"},
	} {
		var p time.Time
		if tc.published != "" {
			p = day(tc.published)
		}
		if got := withYears(tc.s, p); got != tc.want {
			t.Errorf("withYears(%q, %s) = %q; want %q", tc.s, tc.published, got, tc.want)
		}
	}
}

// TestFinalFigureSaysEarlierWereWrong: a later report that gives the
// final figure and says earlier figures were too low, without repeating
// them, wins over two sources that agree on the earlier one; and "will
// put $130 million into" is an investment.
func TestFinalFigureSaysEarlierWereWrong(t *testing.T) {
	for _, fix := range []string{"Earlier figures understated the total.", "The preliminary figure given in April was too low."} {
		res := run(t, memoryCorpus{
			{URL: "doc://ledger", Title: "Ledger", Credibility: 0.6, Published: day("2025-04-18"), Text: "The Kessing main break repairs cost $3.2 million."},
			{URL: "doc://tv", Title: "Channel 9", Credibility: 0.6, Published: day("2025-04-19"), Text: "The Kessing main break repairs cost $3.2 million, officials said."},
			{URL: "doc://final", Title: "Kessing final cost report", Credibility: 0.6, Published: day("2025-06-09"),
				Text: "The Kessing main break repairs cost $3.9 million in all. " + fix},
		}, "What do the sources say about the Kessing main break: its repair cost and the households affected?")
		if len(res.Discrepancies) != 1 || res.Discrepancies[0].Preferred != "$3.9 million" {
			t.Errorf("%q: discrepancies %+v; want $3.9 million preferred", fix, res.Discrepancies)
		}
	}
	cs := Claims("The Tarn fund will put $130 million into the new plant.", []string{"tarn"})
	if len(cs) != 1 || cs[0].Head != "investment" || cs[0].Modality != Planned {
		t.Errorf("Claims(will put $130 million into) = %+v; want one planned investment", cs)
	}
}

// brightleaf counts states and people that were done different things:
// the states a product went to and those with illnesses, the people
// interviewed and the people who fell ill.
var brightleaf = memoryCorpus{
	{URL: "doc://recall", Title: "Brightleaf Farms recall notice", Credibility: 0.75, Published: day("2025-06-12"),
		Text: "Brightleaf Farms is recalling 48,000 bags of baby spinach. The spinach was distributed in 14 states."},
	{URL: "doc://agency", Title: "Health agency update", Credibility: 0.85, Published: day("2025-06-20"),
		Text: "Illnesses linked to Brightleaf spinach have been reported in 9 states. Investigators interviewed 41 people."},
	{URL: "doc://news", Title: "Food News", Credibility: 0.6, Published: day("2025-06-21"),
		Text: "The Brightleaf spinach outbreak has sickened 32 people in 9 states, officials said."},
}

// TestCountsOfThingsDoneDifferently: counts of one noun that verbs say
// were done different things are not one quantity.
func TestCountsOfThingsDoneDifferently(t *testing.T) {
	res := run(t, brightleaf, "What do the sources say about the Brightleaf spinach recall: how many bags, how many states and how many people fell ill?")
	for _, d := range res.Discrepancies {
		var vals []string
		for _, s := range d.Sides {
			vals = append(vals, s.Value)
		}
		t.Errorf("discrepancy %s: %v; want none", d.Topic, vals)
	}
	if l := entityLabel("The 304.5 MW Bellcrest Wind Farm was commissioned in May.", []string{"bellcrest", "wind", "farm"}); l != "" {
		t.Errorf("entityLabel(304.5 MW Bellcrest Wind Farm) = %q; want no qualifier from a unit", l)
	}
}
