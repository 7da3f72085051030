package research

import "testing"

// Dates of what happened, read in forms no other test writes (issue 24,
// hS-34): a happening dated by its own noun whatever verb follows, past
// a place, in a "when" clause after the day, and a listing's labelled
// lines one sentence each.

// TestHappeningDates: each side of a planted day is read only in the
// form the test names; without it there is no discrepancy.
func TestHappeningDates(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		corpus                 memoryCorpus
		question, right, wrong string
	}{
		{"a noun before on, past a place, and a when clause", memoryCorpus{
			{URL: "doc://incident", Title: "Fire service incident summary", Credibility: 0.85, Published: day("2024-03-15"),
				Text: "A fire on 8 March 2024 destroyed the maintenance hall of the Kellow Road tram depot."},
			{URL: "doc://board", Title: "Transport authority board paper", Credibility: 0.85, Published: day("2024-06-25"),
				Text: "This paper reports the cost of the fire at Kellow Road tram depot on 8 March 2024."},
			{URL: "doc://blog", Title: "Tram enthusiast blog", Credibility: 0.4, Published: day("2024-09-02"),
				Text: "It has been six months since the night of Saturday, March 9, 2024, when fire swept through the Kellow Road tram depot."},
		}, "What happened in the fire at the Kellow Road tram depot: when did it happen?", "8 March 2024", "March 9, 2024"},
		{"a storm's verb and the evening of its day", memoryCorpus{
			{URL: "doc://insurer", Title: "Insurer claims update", Credibility: 0.85, Published: day("2025-04-30"),
				Text: "The hailstorm struck Dunmore on the evening of 14 March 2025."},
			{URL: "doc://council", Title: "Dunmore council minutes", Credibility: 0.85, Published: day("2025-04-02"),
				Text: "The council noted the damage done by the storm of 14 March 2025 across Dunmore."},
			{URL: "doc://forum", Title: "Dunmore residents forum", Credibility: 0.4, Published: day("2025-03-30"),
				Text: "Hail battered Dunmore on 15 March 2025 and my roof is still leaking."},
		}, "What do the sources say about the Dunmore hailstorm: when did it strike?", "14 March 2025", "15 March 2025"},
		{"a listing's labelled lines and an opening day in apposition", described(
			[2]string{"01-release.md", "# Corran Bay Arts Festival programme launched\n\n*Corran Bay Arts Festival — 2 May 2025*\n\nThe Corran Bay Arts Festival opened on 10 July 2025 in venues across the town."},
			[2]string{"02-listing.md", "# WhatsOn — Event listing\n\n## Corran Bay Arts Festival 2025\n\n**Where:** Various venues, Corran Bay\n**Opening night:** Thursday 17 July 2025\n**Category:** Arts · Festival\n\n*Listings are compiled from user submissions.*"},
			[2]string{"03-blog.md", "# Our summer road trip\n\n*Posted 3 August 2025*\n\nWe rolled in on opening day, 10/7/2025, for the Corran Bay Arts Festival, and the place was buzzing."},
		), "What do the sources say about the Corran Bay Arts Festival: when did it open?", "10 July 2025", "17 July 2025"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantPreferred(t, run(t, tc.corpus, tc.question), tc.right, tc.wrong)
		})
	}
}
