package research

import (
	"slices"
	"strings"
	"testing"

	rs "github.com/quarry-dev/quarry/research"
)

// Dates and corrections that need their meaning read (issue 24, hS-35):
// a day written before the noun of what happened ("Halwick's March 9
// flood"), a suburb of the subject's town that is no other entity, a
// scheme the question names with its town, a place that "began
// operations", and a correction that retells what its source wrote.

// TestDayBeforeItsNoun: a whole day written before the noun of what
// happened dates it, after an article, a possessive or nothing; a day
// after a preposition before a noun is no day of that noun.
func TestDayBeforeItsNoun(t *testing.T) {
	for _, tc := range []struct{ s, head string }{
		{"Halwick's [March 19, 2025] flood: a year on, the high street still waits", "flood"},
		{"The [9 March 2025] flood closed 14 shops.", "flood"},
		{"Crowds came to the [14 April 2025] launch of the ferry.", "opening"},
	} {
		if c := markedAbout(t, tc.s, "halwick"); c.Head != tc.head && headClass(c.Head) != tc.head {
			t.Errorf("Claims(%q) head %q; want %q", tc.s, c.Head, tc.head)
		}
	}
	for _, s := range []string{"On 9 March 2025 flood warnings were issued."} {
		for _, c := range Claims(s, []string{"halwick"}) {
			if c.Unit == "date" && c.Head == "flood" {
				t.Errorf("Claims(%q) = %s of %q; want no flood's day", s, c.Text, c.Head)
			}
		}
	}
}

// halwick is a flood a council, the Met Office and a news report date 9
// March 2025; a blog of one of the town's suburbs dates it in its
// headline, without a year, ten days later.
var halwick = described(
	[2]string{"01-met.md", "# Flood summary: Halwick, 9 March 2025\n\nMet Office. Summary issued 20 March 2025.\n\nOn Sunday 9 March 2025 the River Hale burst its banks at Halwick, flooding 212 homes."},
	[2]string{"02-council.md", "# Halwick Town Council: flood recovery update\n\nPublished 2 April 2025.\n\nThe flood of 9 March 2025 damaged 212 homes in Halwick. The council has paid £450,000 in hardship grants."},
	[2]string{"03-news.md", "# Halwick counts the cost\n\n*Hale Valley News, 14 March 2025*\n\nThe flood struck Halwick on 9 March 2025. Insurers expect claims to pass £6 million."},
	[2]string{"05-minutes.md", "# Harrowdale Air Ambulance: board minutes\n\nMinutes of 20 January 2025.\n\nThe Harrowdale Air Ambulance, the charity's operating name, flew 1,146 missions in 2024. The board approved the AW169 at £8.4 million."},
	[2]string{"04-blog.md", "# Halwick's March 19 flood: how our street is coping\n\n*From \"Life in Halwick North\", a neighbourhood blog. Posted 2 June 2025.*\n\nOur little street in Halwick North is still drying out. Halwick North is a patchwork of skips and dehumidifiers. Of the nine houses on our side, four are empty."},
)

// TestDayInAHeadlineOfASuburb: the blog's headline day is the flood's,
// in its post's year; the blog of a quarter of the town ("Halwick
// North") is the town's, so its day meets the others' and loses to them.
func TestDayInAHeadlineOfASuburb(t *testing.T) {
	res := run(t, halwick, "What do the sources report about the Halwick flood: homes damaged, grants paid and when the flood hit?")
	wantPreferred(t, res, "9 March 2025", "March 19, 2025")
}

// oakhurst is a compost scheme its council launched on 15 July 2024; a
// trade magazine a year later says it launched on 25 July. The question
// names the scheme with the council's name.
var oakhurst = described(
	[2]string{"01-release.md", "# City of Oakhurst media release\n\nCity of Oakhurst, Monday 15 July 2024.\n\nThe City of Oakhurst's food-waste compost programme begins today in the northern suburbs."},
	[2]string{"02-report.md", "# City of Oakhurst quarterly report\n\nPublished 30 July 2025.\n\nThe programme started on 15/07/2024 and 23,750 households had joined by 30 June 2025."},
	[2]string{"03-feature.md", "# Waste Today: a model for mid-sized councils\n\nWaste Today magazine, November 2025.\n\nWhen the City of Oakhurst launched its food-waste compost programme on 25 July 2024, officers were not sure how many households would join."},
)

// TestSchemeNamedWithItsTown: "the City of Oakhurst food-waste compost
// programme" is the subject, so "launched its food-waste compost
// programme" and "the programme started" date one beginning.
func TestSchemeNamedWithItsTown(t *testing.T) {
	res := run(t, oakhurst, "Brief me on the City of Oakhurst food-waste compost programme: households enrolled, cost and launch date.")
	wantPreferred(t, res, "15/07/2024", "25 July 2024")
	for _, tc := range []struct {
		question string
		want     []string
	}{
		{"Brief me on the City of Oakhurst food-waste compost programme: households enrolled.", []string{"food-waste", "compost", "programme"}},
		{"What did the Acme plant expansion cost?", nil},
		{"Brief me on the Tarrow Valley Air Ambulance: its missions.", nil},
	} {
		q := parseQuestion(tc.question)
		if got := q.NameWords; len(got) != len(tc.want) || len(got) > 0 && got[len(got)-1] != tc.want[len(tc.want)-1] {
			t.Errorf("parseQuestion(%q).NameWords = %q; want %q", tc.question, got, tc.want)
		}
	}
}

// skarvik is a research station that began operations on 28 August
// 2024; a magazine feature says it opened on 8 August, and the
// magazine's correction retells that before it gives the right day.
var skarvik = described(
	[2]string{"01-release.md", "# Nordkyst University news\n\nNordkyst University, 28 August 2024.\n\nThe Skarvik Glacier Research Station began operations today. It cost NOK 187 million."},
	[2]string{"02-ministry.md", "# Ministry budget proposal 2025\n\nPublished 7 October 2024.\n\nThe Skarvik Glacier Research Station was completed within its cost frame and began operations on 28 August 2024."},
	[2]string{"03-feature.md", "# Polar Horizons: Watching the ice\n\n*Polar Horizons magazine, 31 October 2024.*\n\nThe Skarvik Glacier Research Station opened on 8 August 2024, and it is already changing how glaciologists work."},
	[2]string{"04-correction.md", "# Polar Horizons: Letters and corrections, November 2024\n\n**Correction: Skarvik Glacier Research Station**\n\nIn our October feature \"Watching the ice\", we wrote that the Skarvik Glacier Research Station opened on 8 August 2024. The station in fact began operations on 28 August 2024. We apologise for the error."},
)

// wantPreferredExactly checks that a discrepancy sets right against
// wrong and prefers right as written, for days one of which holds the
// other ("28 August 2024", "8 August 2024").
func wantPreferredExactly(t *testing.T, res *rs.Result, right, wrong string) {
	t.Helper()
	if !slices.ContainsFunc(res.Discrepancies, func(d rs.Discrepancy) bool {
		return strings.Contains(sidesOf(d), wrong) && d.Preferred == right
	}) {
		t.Errorf("discrepancies %v; want %s preferred to %s", topics(res.Discrepancies), right, wrong)
	}
}

// TestCorrectionRetellsItsError: the day a station began operations is
// its opening, and the correction's retelling of its own error is no
// vote for it: the corrected day is preferred.
func TestCorrectionRetellsItsError(t *testing.T) {
	res := run(t, skarvik, "Brief me on the Skarvik Glacier Research Station: its opening and construction cost.")
	wantPreferredExactly(t, res, "28 August 2024", " 8 August 2024")
	s := []string{"The station opened on 8 August 2024.", "We misstated the opening date as 8 August 2024 in an earlier edition."}
	for i := range s {
		for _, c := range Claims(s[i], []string{"station"}) {
			if got := replacedSentence(s, i, c); got != (i == 1) {
				t.Errorf("replacedSentence(%q) %s = %v; want %v", s[i], c.Text, got, i == 1)
			}
		}
	}
}

// korvala is a tournament whose third bulletin schedules the opening
// ceremony for Wednesday, Sept. 10, in a table of days without a year
// that runs to Sept. 21; the fifth says that was an error and gives
// Tuesday 9 September.
var korvala = described(
	[2]string{"01-bulletin3.md", "# Korvala Chess Olympiad: Bulletin No. 3\n\n*Issued 12 August 2025 by the Organising Committee*\n\n| Event | Date and time | Venue |\n|---|---|---|\n| Captains' meeting | Sept. 8, 16:00 | Hall B |\n| Opening ceremony | Wednesday, Sept. 10, 19:00 | Korvala Arena |\n| Closing ceremony | Sept. 21, 18:00 | Korvala Arena |\n"},
	[2]string{"02-bulletin5.md", "# Korvala Chess Olympiad: Bulletin No. 5\n\n*Issued 1 September 2025 by the Organising Committee*\n\nBulletin No. 3 gave the date of the opening ceremony as Wednesday 10 September. This was an error. The opening ceremony takes place on Tuesday 9 September 2025 at 19:00 in the Korvala Arena. The closing ceremony is on 21 September 2025."},
)

// TestScheduleCorrectedByALaterBulletin: a label "date and time" gives
// its day; a schedule's days without a year run on in one year; a
// sentence that says the one before it "was an error" replaces its
// figure, so the later bulletin's day is preferred and the closing
// ceremony is no conflict.
func TestScheduleCorrectedByALaterBulletin(t *testing.T) {
	res := run(t, korvala, "Brief me on the Korvala Chess Olympiad: its teams and the opening ceremony.")
	wantPreferredExactly(t, res, "9 September 2025", "Sept. 10, 2025")
	for _, d := range res.Discrepancies {
		if strings.Contains(sidesOf(d), "21") {
			t.Errorf("discrepancy %s: %s; want the closing ceremony in one year", d.Topic, sidesOf(d))
		}
	}
}

// TestOpenUntilAndDeadlines: "open till" the day the subject closes and
// "the 31 January deadline" are its closure; another thing open until a
// day is not.
func TestOpenUntilAndDeadlines(t *testing.T) {
	for _, s := range []string{
		"Heard at the community centre it's open till [February 14th, 2025] now.",
		"The fund is open to applications until [31 January 2025].",
		"Of the applications received before the [31 January 2025] deadline, 46 are still being assessed.",
	} {
		if c := markedAbout(t, s, "fund"); c.Head != "closure" || len(c.Mods) != 0 {
			t.Errorf("Claims(%q) = %s %q; want the closure", s, c.Head, c.Mods)
		}
	}
	s := "Redeployment offers at Barramul remain open until 31 January 2026."
	for _, c := range Claims(s, []string{"fund"}) {
		if c.Head == "closure" {
			t.Errorf("Claims(%q) = closure %q; want no closure of the subject", s, c.Mods)
		}
	}
}

// TestListingDatesItsEntry: a listing's "Date:" under an entry's title
// in bold dates the event the title names, not the listing; under a
// title that names no event, or alone, it is left as it is.
func TestListingDatesItsEntry(t *testing.T) {
	for _, tc := range []struct{ prev, s, want string }{
		{"**Gala Reopening: Aida — Aldmoor Grand Opera House**", "Date: 10/2/2025, 7pm", "Gala Reopening date: 10/2/2025, 7pm"},
		{"**Autumn Craft Fair**", "Date: 10/4/2025, 10am–4pm", "Date: 10/4/2025, 10am–4pm"},
		{"Listings are submitted by users.", "Date: 10/2/2025", "Date: 10/2/2025"},
	} {
		if got := listingDate(tc.prev, tc.s); got != tc.want {
			t.Errorf("listingDate(%q, %q) = %q; want %q", tc.prev, tc.s, got, tc.want)
		}
	}
	res := run(t, described(
		[2]string{"01-release.md", "# Aldmoor Grand reopens\n\nAldmoor Trust, 26 September 2025.\n\nThe Aldmoor Grand Opera House reopened last night, Thursday 25 September 2025, with a gala performance. The Chief Executive reported that the gala reopening on 2025-09-25 had been a success."},
		[2]string{"02-listing.md", "# What's On Aldmoor\n\n*Listings are submitted by users and are not checked.*\n\n**Gala Reopening: Aida — Aldmoor Grand Opera House**\nDate: 10/2/2025, 7pm\nVenue: Aldmoor Grand Opera House\n"},
	), "What do the sources say about the Aldmoor Grand Opera House: its seats and when the theatre reopened?")
	if !slices.ContainsFunc(res.Discrepancies, func(d rs.Discrepancy) bool {
		return strings.Contains(sidesOf(d), "10/2/2025") && !strings.Contains(d.Preferred, "10/2/2025")
	}) {
		t.Errorf("discrepancies %v; want the listing's 10/2/2025 set against the gala's day", topics(res.Discrepancies))
	}
	if c := markedAbout(t, "The Aldmoor Grand Opera House reopened last night, Thursday [25 September 2025], with a gala.", "aldmoor", "grand", "opera", "house"); len(c.Mods) != 0 {
		t.Errorf("reopened last night: mods %q; want none", c.Mods)
	}
}

// TestCostLabels: a label "Construction cost" is a cost though "cost" is
// a verb, and a table row named by a thing and its part ("Skarvik
// Station, construction") is one label, so another row of the table is
// told apart from it.
func TestCostLabels(t *testing.T) {
	c := markedAbout(t, "Construction cost: [NOK 187 million].", "skarvik")
	if c.Head != "cost" || !slices.Equal(c.Mods, []string{"construction"}) {
		t.Errorf("Construction cost: head %q mods %q; want cost [construction]", c.Head, c.Mods)
	}
	table := "| Project | Owner | Total cost |\n| --- | --- | --- |\n| Skarvik Station, construction | Nordkyst University | NOK 187 million |\n"
	if got := tableSentences(table); !strings.Contains(got, "Skarvik Station construction total cost: NOK 187 million.") {
		t.Errorf("tableSentences(%q) = %q; want the row named as one label", table, got)
	}
}

// tarrabin is a mill's closure with a state support package of A$12.6
// million, which a union blog gives as "$16.2 million"; the blog writes
// the town alone and names a hotel in it once.
var tarrabin = described(
	[2]string{"01-release.md", "# State support for Tarrabin\n\nMedia release, 14 March 2025.\n\nThe State Government will provide a A$12.6 million support package for workers affected by the closure of the Tarrabin Sugar Mill."},
	[2]string{"02-faq.md", "# Tarrabin Sugar Mill closure: grower FAQ\n\nUpdated 1 April 2025.\n\nGrowers can apply for a haulage grant from the State Government's $12.6m support package."},
	[2]string{"03-blog.md", "# Mill Workers' Voice (blog): the Tarrabin package\n\nPosted by a Tarrabin branch delegate. 2 April 2025.\n\nThe government has announced a $16.2 million package for Tarrabin. Come to the meeting in the Tarrabin Hotel function room on Friday. Tarrabin deserves better."},
)

// TestCommittedPackageInLocalDollars: "will provide a A$12.6 million
// package" states the package's size; a bare "$" in a corpus of
// Australian dollars is theirs; a town's hotel named once in a blog
// makes it no namesake's. The blog's figure meets the release's.
func TestCommittedPackageInLocalDollars(t *testing.T) {
	res := run(t, tarrabin, "What happened with the closure of the Tarrabin Sugar Mill: jobs lost and the support package?")
	wantPreferred(t, res, "12.6", "$16.2 million")
	for _, s := range []string{"Growers can apply for a haulage grant from the State Government's [$12.6m] support package.", "The State Government will provide a [A$12.6 million] support package."} {
		if c := marked(t, s); c.Modality != Reported {
			t.Errorf("Claims(%q) modality %s; want reported", s, c.Modality)
		}
	}
	if c := marked(t, "The line will cost [$40 million] to build."); c.Modality == Reported {
		t.Errorf("will cost: modality %s; want a forecast", c.Modality)
	}
}

// harrowdale is an air ambulance whose trust signs its releases; its
// FAQ says it is a charity; a newspaper gave an old price for its
// helicopter, which the trust's release corrects in a sentence with an
// aside.
var harrowdale = described(
	[2]string{"01-gazette.md", "# Gazette: air ambulance to buy second helicopter\n\nHarrowdale Gazette, 20 February 2025.\n\nTrustees had approved the purchase of an AW169 helicopter at a price of £6.8m. The Harrowdale Air Ambulance flew 1,146 missions in 2024."},
	[2]string{"02-release.md", "# Harrowdale Air Ambulance confirms night service\n\nHarrowdale Air Ambulance Trust, 10 March 2025.\n\nThe price of the AW169, fully fitted for night operations, is £8.4 million.\n\nHarrowdale Air Ambulance is an independent charity serving the Harrow valley.\n\nHarrowdale Air Ambulance Trust, Brackley Airfield."},
	[2]string{"03-faq.md", "# Frequently asked questions: Harrowdale Air Ambulance\n\nFrom the charity's website, March 2025.\n\nThe Harrowdale Air Ambulance is an independent charity that flies a critical care team across the Harrow valley. Our crews flew 1,146 missions in 2024."},
	[2]string{"04-blog.md", "# Rotorwatch blog\n\nPosted 3 March 2025.\n\nBy my reckoning, the Harrowdale Air Ambulance flew 1,416 missions in 2024."},
)

// TestTrustAndCharityAreTheSubject: the subject's trust is the subject;
// "an independent charity serving the valley" says it is a charity, not
// a "serving"; a price stated past an aside meets the newspaper's.
func TestTrustAndCharityAreTheSubject(t *testing.T) {
	res := run(t, harrowdale, "Brief me on the Harrowdale Air Ambulance: its missions and helicopter purchase.")
	wantPreferred(t, res, "1,146", "1,416")
	if c := markedAbout(t, "The price of the AW169, fully fitted for night operations, is [£8.4 million].", "harrowdale"); c.Head != "price" {
		t.Errorf("price past an aside: head %q; want price", c.Head)
	}
	if k, _ := apposition("Harrowdale Air Ambulance is an independent charity serving the Harrow valley.", []string{"harrowdale", "air", "ambulance"}); k != "charity" {
		t.Errorf("apposition: kind %q; want charity", k)
	}
}

// TestPaidOutAndABoldCorrection: "had paid out" is a payment, and a
// correction that opens in bold ("**Correction:** A report stated that
// insurers had paid out 621 million dollars") replaces the figure it
// retells, so the later figure is preferred.
func TestPaidOutAndABoldCorrection(t *testing.T) {
	if c := marked(t, "Insurers had paid out [621 million dollars] to households by the end of June 2025."); c.Head != "payment" {
		t.Errorf("paid out: head %q; want payment", c.Head)
	}
	res := run(t, described(
		[2]string{"01-july.md", "# Herald: hail payout passes half a billion\n\nBrennock Herald, 2 July 2025.\n\nInsurers had paid out 621 million dollars to policyholders by the end of June 2025."},
		[2]string{"02-august.md", "# Herald: insurers' hail bill tops $600m\n\nBrennock Herald, 14 August 2025.\n\nInsurers had paid $612m to policyholders by 30 June 2025.\n\n**Correction:** A Herald report on 2 July stated that insurers had paid out 621 million dollars by the end of June 2025. The correct figure is $612 million. The Herald regrets the error."},
	), "How much had insurers paid after the Brennock hailstorm?")
	wantPreferred(t, res, "612", "621 million dollars")
}

// TestRunningCostsAreNoPrice: running costs a budget sets are another
// quantity than what a helicopter cost, whatever no source tells apart.
func TestRunningCostsAreNoPrice(t *testing.T) {
	res := run(t, described(
		[2]string{"01-minutes.md", "# Harrowdale Air Ambulance: board minutes\n\nMinutes of 20 January 2025.\n\nThe treasurer presented the budget for 2025, which sets running costs at £6.1 million."},
		[2]string{"02-gazette.md", "# Gazette: night flights begin\n\nHarrowdale Gazette, 15 April 2025.\n\nThe charity confirmed that the AW169 cost £8.4m, including its night-vision equipment."},
	), "Brief me on the Harrowdale Air Ambulance: its running costs and helicopter purchase.")
	if len(res.Discrepancies) > 0 {
		t.Errorf("discrepancies %v; want none", topics(res.Discrepancies))
	}
	// The operating cost a report gives as "the cost" is one quantity.
	for _, tc := range []struct {
		a, b  []string
		other bool
	}{
		{[]string{"set", "running"}, []string{"aw169"}, true},
		{[]string{"operating"}, nil, false},
		{[]string{"planned", "operating"}, []string{"operating"}, false},
		{[]string{"final", "running", "election", "count"}, []string{"count", "alone"}, false},
	} {
		if got := otherMeasure(tc.a, tc.b); got != tc.other {
			t.Errorf("otherMeasure(%q, %q) = %v; want %v", tc.a, tc.b, got, tc.other)
		}
	}
}

// TestSignOffIsNoClaim: a report's "Approved by the trustees on 9
// December 2025." is its own date, no approval of anything it tells.
func TestSignOffIsNoClaim(t *testing.T) {
	for _, tc := range []struct {
		s    string
		note bool
	}{
		{"Approved by the trustees on 9 December 2025.", true},
		{"*Adopted by the board of directors on 3 March 2025*", true},
		{"The plan was approved by the trustees on 9 December 2025.", false},
	} {
		if got := publicationNote(tc.s); got != tc.note {
			t.Errorf("publicationNote(%q) = %v; want %v", tc.s, got, tc.note)
		}
	}
}

// TestDonationsAreNoGrants: what a fund takes in as donations is
// another quantity than the grants it pays out ("received 3.46 million
// pounds in donations", "grants of £1.9 million had been paid").
func TestDonationsAreNoGrants(t *testing.T) {
	for _, w := range []string{"donation", "gift"} {
		if headClass(w) == headClass("grant") {
			t.Errorf("headClass(%q) = headClass(grant) = %q; want apart", w, headClass(w))
		}
	}
	if headClass("gift") != headClass("donation") {
		t.Errorf("headClass(gift) = %q; want a donation's", headClass("gift"))
	}
}

// TestCountsAndRevenueOfOneSentence: "the 2024–25 season" is no count
// of 25 seasons; a count before "and" qualifies no amount after it; and
// a release and its corrected copy, one sentence with the revenue
// changed, disagree on the revenue only, not on the visits they share.
func TestCountsAndRevenueOfOneSentence(t *testing.T) {
	s := "Hollin Peak Resort reported a record 2024–25 ski season, with 412,600 skier visits and revenue of 38.9 million dollars."
	for _, c := range Claims(s, []string{"hollin", "peak", "resort"}) {
		if c.Unit == "season" {
			t.Errorf("Claims(%q) = %s %s; want no count of seasons", s, c.Text, c.Unit)
		}
		if c.Unit == "USD" && len(c.Mods) > 0 {
			t.Errorf("Claims(%q) revenue mods %q; want none", s, c.Mods)
		}
	}
	res := run(t, described(
		[2]string{"01-release.md", "# Hollin Peak season recap\n\nHollin Peak Resort, 28 April 2025.\n\nHollin Peak Resort today reported a record season, with 412,600 skier visits and $41.3M in revenue, despite a delayed start."},
		[2]string{"02-corrected.md", "# Hollin Peak season recap (corrected)\n\nHollin Peak Resort, 6 May 2025.\n\nHollin Peak Resort today reported a record season, with 412,600 skier visits and revenue of 38.9 million dollars, despite a delayed start."},
	), "Brief me on Hollin Peak Resort's season: skier visits and revenue.")
	for _, d := range res.Discrepancies {
		if !strings.Contains(sidesOf(d), "38.9 million dollars") || !strings.Contains(sidesOf(d), "$41.3M") {
			t.Errorf("discrepancy %s: %s; want only the revenue", d.Topic, sidesOf(d))
		}
	}
}
