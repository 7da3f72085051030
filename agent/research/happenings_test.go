package research

import (
	"strings"
	"testing"
)

// preferCase is a corpus whose planted disagreement must be found, its
// right side preferred.
type preferCase struct {
	name                   string
	corpus                 memoryCorpus
	question, right, wrong string
}

// checkPreferred runs each case as a subtest.
func checkPreferred(t *testing.T, cases ...preferCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantPreferred(t, run(t, tc.corpus, tc.question), tc.right, tc.wrong)
		})
	}
}

// Dates of what happened, read in forms no other test writes (issue 24,
// hS-34): a happening dated by its own noun whatever verb follows, past
// a place, in a "when" clause after the day, and a listing's labelled
// lines one sentence each.

// TestHappeningDates: each side of a planted day is read only in the
// form the test names; without it there is no discrepancy.
func TestHappeningDates(t *testing.T) {
	checkPreferred(t,
		preferCase{"a noun before on, past a place, and a when clause", memoryCorpus{
			{URL: "doc://incident", Title: "Fire service incident summary", Credibility: 0.85, Published: day("2024-03-15"),
				Text: "A fire on 8 March 2024 destroyed the maintenance hall of the Kellow Road tram depot."},
			{URL: "doc://board", Title: "Transport authority board paper", Credibility: 0.85, Published: day("2024-06-25"),
				Text: "This paper reports the cost of the fire at Kellow Road tram depot on 8 March 2024."},
			{URL: "doc://blog", Title: "Tram enthusiast blog", Credibility: 0.4, Published: day("2024-09-02"),
				Text: "It has been six months since the night of Saturday, March 9, 2024, when fire swept through the Kellow Road tram depot."},
		}, "What happened in the fire at the Kellow Road tram depot: when did it happen?", "8 March 2024", "March 9, 2024"},
		preferCase{"a storm's verb and the evening of its day", memoryCorpus{
			{URL: "doc://insurer", Title: "Insurer claims update", Credibility: 0.85, Published: day("2025-04-30"),
				Text: "The hailstorm struck Dunmore on the evening of 14 March 2025."},
			{URL: "doc://council", Title: "Dunmore council minutes", Credibility: 0.85, Published: day("2025-04-02"),
				Text: "The council noted the damage done by the storm of 14 March 2025 across Dunmore."},
			{URL: "doc://forum", Title: "Dunmore residents forum", Credibility: 0.4, Published: day("2025-03-30"),
				Text: "Hail battered Dunmore on 15 March 2025 and my roof is still leaking."},
		}, "What do the sources say about the Dunmore hailstorm: when did it strike?", "14 March 2025", "15 March 2025"},
		preferCase{"a listing's labelled lines and an opening day in apposition", described(
			[2]string{"01-release.md", "# Corran Bay Arts Festival programme launched\n\n*Corran Bay Arts Festival — 2 May 2025*\n\nThe Corran Bay Arts Festival opened on 10 July 2025 in venues across the town."},
			[2]string{"02-listing.md", "# WhatsOn — Event listing\n\n## Corran Bay Arts Festival 2025\n\n**Where:** Various venues, Corran Bay\n**Opening night:** Thursday 17 July 2025\n**Category:** Arts · Festival\n\n*Listings are compiled from user submissions.*"},
			[2]string{"03-blog.md", "# Our summer road trip\n\n*Posted 3 August 2025*\n\nWe rolled in on opening day, 10/7/2025, for the Corran Bay Arts Festival, and the place was buzzing."},
		), "What do the sources say about the Corran Bay Arts Festival: when did it open?", "10 July 2025", "17 July 2025"},
	)
}

// TestEventsInOtherForms: a tour "beginning in Tokyo on" a day starts
// then, and "opens its tour next Friday, 17 October" dates the opening;
// one event's day named by a verb, its noun
// and a passive that only says it took place is one head; a day a past
// light verb gives is no plan though its source is dated the day
// before; a place's commas end no clause; a notice's plain labelled
// lines are sentences of their own.
func TestEventsInOtherForms(t *testing.T) {
	checkPreferred(t,
		preferCase{"an inspection conducted, inspected and the inspection, on", memoryCorpus{
			{URL: "doc://report", Title: "State inspection report", Credibility: 0.85, Published: day("2025-07-01"),
				Text: "A periodic safety inspection of Harrow Reservoir Dam was conducted on Thursday, June 12, 2025 by two engineers."},
			{URL: "doc://faq", Title: "Water authority FAQ", Credibility: 0.85, Published: day("2025-07-10"),
				Text: "The state's most recent inspection of Harrow Reservoir Dam, on 2025-06-12, rated its condition as Fair."},
			{URL: "doc://blog", Title: "Hiking blog", Credibility: 0.4, Published: day("2025-07-05"),
				Text: "Engineers inspected Harrow Reservoir Dam on June 21, 2025 while we walked the crest."},
		}, "What do the sources say about Harrow Reservoir Dam: when was it inspected?", "June 12, 2025", "June 21, 2025"},
		preferCase{"a job got the day after its source", memoryCorpus{
			{URL: "doc://report", Title: "Club annual report", Credibility: 0.85, Published: day("2025-08-31"),
				Text: "Dana Holt was appointed first-team manager of Ashby Town on 4 November 2024."},
			{URL: "doc://podcast", Title: "Fan podcast notes", Credibility: 0.4, Published: day("2024-11-10"),
				Text: "Ashby Town fans, rejoice: Holt finally got the job on 11 November 2024, after three weeks of a caretaker."},
		}, "What happened at Ashby Town: when was the new manager appointed?", "4 November 2024", "11 November 2024"},
		preferCase{"a place's commas", memoryCorpus{
			{URL: "doc://owner", Title: "Owner statement", Credibility: 0.85, Published: day("2024-11-10"),
				Text: "The vessel Merrow was successfully refloated off Skelby Point, England, on 9 November 2024."},
			{URL: "doc://blog", Title: "Shipping blog", Credibility: 0.4, Published: day("2025-03-03"),
				Text: "The Merrow was refloated on 11 November 2024, the harbour master told us."},
		}, "What happened to the Merrow: when was it refloated?", "9 November 2024", "11 November 2024"},
		preferCase{"a notice's plain labelled lines", described(
			[2]string{"01-notice.md", "# U.S. Consumer Product Safety Commission — Recall: Orlen Kitchenware kettles\n\nRecall date: September 9, 2025\nUnits: About 84,000\nHazard: The lid can open."},
			[2]string{"02-paper.md", "# Orlen recalls kettles\n\n*Valley Courier — September 20, 2025*\n\nOrlen Kitchenware recalled tens of thousands of its kettles on September 19, 2025."},
		), "What do the sources say about the Orlen Kitchenware kettle recall: when was it announced?", "September 9, 2025", "September 19, 2025"},
		preferCase{"a tour beginning on a day, and next Friday before a day", memoryCorpus{
			{URL: "doc://review", Title: "Korea Daily arts review", Credibility: 0.6, Published: day("2025-11-03"),
				Text: "The Harrowgate Philharmonic tour comprised 14 concerts in Japan and Korea, beginning in Tokyo on 17 October 2025."},
			{URL: "doc://preview", Title: "Evening Post preview", Credibility: 0.6, Published: day("2025-10-10"),
				Text: "Crates left by lorry yesterday for Tokyo, where the Harrowgate Philharmonic opens its tour next Friday, 17 October 2025."},
			{URL: "doc://blog", Title: "Classical notes blog", Credibility: 0.4, Published: day("2025-11-05"),
				Text: "The Harrowgate Philharmonic opened its tour on 19 October 2025 in Tokyo."},
		}, "What do the sources say about the Harrowgate Philharmonic's tour: when did it open?", "17 October 2025", "19 October 2025"},
	)
}

// TestSpanInALabel: a label's span ("Campaign period: 3 March 2025 –
// 11 April 2025") gives its start, set against a blog's launch; a
// heading's date before a name holding "Start" dates no start.
func TestSpanInALabel(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://report", Title: "Final report", Credibility: 0.85, Published: day("2025-06-30"),
			Text: "Campaign period: 3 March 2025 – 11 April 2025."},
		{URL: "doc://blog", Title: "Parents blog", Credibility: 0.4, Published: day("2025-03-20"),
			Text: "**20 March 2025 — Our Fresh Start experience**\n\nThe Fresh Start campaign launched on March 10, 2025, when the posters went up."},
	}, "What do the sources say about the Fresh Start campaign: when did it start?")
	wantPreferred(t, res, "3 March 2025", "March 10, 2025")
	for _, d := range res.Discrepancies {
		if strings.Contains(sidesOf(d), "20 March 2025") {
			t.Errorf("discrepancy %s: %s; want no heading's date", d.Topic, sidesOf(d))
		}
	}
}
