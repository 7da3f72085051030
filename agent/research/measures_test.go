package research

import (
	"testing"
)

// A table's column of plans, a label that says a figure is planned or
// estimated, and a participle right after a figure ("£18 million
// forecast") hold the figure as planned, expected or estimated: it never
// conflicts with what was done.
func TestPlansInLabelsTablesAndAfterFigures(t *testing.T) {
	table := "| Measure | 2024/25 | Plan |\n|---|---|---|\n| Beds | 1,126 | 1,140 |\n| Merger one-off cost | £14.2 million | £12.0 million |"
	got := map[string]Modality{}
	for _, s := range Sentences(table) {
		for _, c := range Claims(s, []string{"eastmarch"}) {
			got[c.Text] = c.Modality
		}
	}
	for text, want := range map[string]Modality{"1,126": Reported, "1,140": Planned, "£14.2 million": Reported, "£12.0 million": Planned} {
		if got[text] != want {
			t.Errorf("table cell %s: modality %q; want %q (all: %v)", text, got[text], want, got)
		}
	}
	for _, tc := range []struct {
		sentence, text string
		head           string
		modality       Modality
		period         string
	}{
		{"Estimated cost: £240 million.", "£240 million", "cost", Estimated, ""},
		{"Planned opening: March 2026.", "March 2026", "opening", Planned, ""},
		{"The board noted an underlying deficit of £18 million forecast for 2024/25.", "£18 million", "deficit", Expected, "2025"},
		{"The trust ended the year with a deficit of £16.5 million, better than the £18 million forecast.", "£16.5 million", "deficit", Reported, ""},
		{"The trust ended the year with a deficit of £16.5 million, better than the £18 million forecast.", "£18 million", "deficit", Expected, ""},
		{"The trust had a deficit of £16.5 million in 2024/25.", "£16.5 million", "deficit", Reported, "2025"},
	} {
		c := claimOfText(t, tc.sentence, tc.text, "eastmarch")
		if c.Head != tc.head || c.Modality != tc.modality || c.Period != tc.period {
			t.Errorf("Claims(%q) %s = %s %q (%s); want %s %q (%s)", tc.sentence, tc.text, c.Head, c.Period, c.Modality, tc.head, tc.period, tc.modality)
		}
	}
	plan := claimOfText(t, "Estimated cost: £240 million.", "£240 million")
	done := claimOfText(t, "The final cost was £286 million.", "£286 million")
	if Conflicts(plan, done) {
		t.Errorf("Conflicts(estimated £240 million, final £286 million) = true; want false")
	}
}

// An average, a peak or a full-time equivalent is another measure than
// a count of the same noun, even when a table writes it as a note:
// never compared with the count, by like claims or by alias.
func TestStatisticsAreOtherMeasures(t *testing.T) {
	facts, claims, c := claimsOf(map[string]string{
		"release": "The new trust has 1,140 beds and employs 7,900 staff.",
		"report":  "| Measure | 2024/25 |\n|---|---|\n| Beds (average open) | 1,126 |\n| Staff (whole-time equivalent) | 7,640 |",
	})
	told := tellApart(facts, claims, nil)
	for _, pair := range [][2]string{{"1,140 beds", "1,126"}, {"7,900 staff", "7,640"}} {
		a, b := c[pair[0]], c[pair[1]]
		if a.Like(b) || told.alike(a, b) {
			t.Errorf("%s %v and %s %v are compared; want them apart", pair[0], a.Mods, pair[1], b.Mods)
		}
	}
	a := claimOfText(t, "Beds (average open): 1,126.", "1,126")
	b := claimOfText(t, "Beds (average open): 1,162.", "1,162")
	if !Conflicts(a, b) {
		t.Errorf("Conflicts(average beds 1,126, average beds 1,162) = false; want true")
	}
}

// "went live" is a launch, and the day a thing started is the day it
// launched: two sources giving different days conflict.
func TestGoingLiveAndStartingAreALaunch(t *testing.T) {
	a := claimOfText(t, "The portal went live on 3 March 2025.", "3 March 2025", "tolland")
	b := claimOfText(t, "The portal launched on 10 March 2025.", "10 March 2025", "tolland")
	if !Conflicts(a, b) {
		t.Errorf("Conflicts(went live %s %v, launched %s %v) = false; want true", a.Head, a.Mods, b.Head, b.Mods)
	}
	if c := Claims("People who live in Hollis since 2020 were asked.", nil); len(c) > 0 && c[0].Head == "launch" {
		t.Errorf("live without go read as a launch: %+v", c[0])
	}
	facts, claims, c := claimsOf(map[string]string{
		"council":  "PellBike launched on 6 May 2023 with 1,200 bikes.",
		"campaign": "The PellBike scheme, which began on 13 May 2023, has been a success.",
	})
	if told := tellApart(facts, claims, nil); !told.alike(c["6 May 2023"], c["13 May 2023"]) {
		t.Errorf("alike(launched 6 May 2023, began 13 May 2023) = false; want true")
	}
}

// A document's date is also its dateline, a title that ends with its
// date or a labelled date; such a line is metadata, not a claim.
func TestDatelines(t *testing.T) {
	for text, want := range map[string]string{
		"# Press release: two hospitals merge\n\nEastmarch, 2 April 2024\n\nThe trust was formed.":        "2024-04-02",
		"# Regulator — Decision on the merger\n\nDecision date: 14 February 2024\n\nThe regulator finds.": "2024-02-14",
		"# Port Authority — Minutes of the Board, 12 March 2025\n\nAttendance: M. Ferreira":               "2025-03-12",
		"# Hollis news\n\nHollis, Oregon — April 9, 2025\n\nThe outbreak is over.":                        "2025-04-09",
		"# Fact sheet\n\nOpening: 21/09/2024\n\nThe line has 19 stops.":                                   "0001-01-01",
		"# The line\n\nThe line opened on 21 September 2024.":                                             "0001-01-01",
	} {
		if got := DescribeDocument("a.md", "", text).Published.Format("2006-01-02"); got != want {
			t.Errorf("DescribeDocument(%q).Published = %s; want %s", text, got, want)
		}
	}
	for s, header := range map[string]bool{"Published 3 April 2024": true, "Eastmarch, 2 April 2024": true, "Opening: 21/09/2024.": false, "The line opened, on 3 April 2024": false} {
		if headerLine(s) != header {
			t.Errorf("headerLine(%q) = %v; want %v", s, !header, header)
		}
	}
}
