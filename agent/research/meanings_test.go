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

// TestCorrectionRetellsItsError: the day a station began operations is
// its opening, and the correction's retelling of its own error is no
// vote for it: the corrected day is preferred.
func TestCorrectionRetellsItsError(t *testing.T) {
	res := run(t, skarvik, "Brief me on the Skarvik Glacier Research Station: its opening and construction cost.")
	if !slices.ContainsFunc(res.Discrepancies, func(d rs.Discrepancy) bool {
		return strings.Contains(sidesOf(d), " 8 August 2024") && d.Preferred == "28 August 2024"
	}) {
		t.Errorf("discrepancies %v; want 28 August 2024 preferred to 8 August 2024", topics(res.Discrepancies))
	}
	s := []string{"The station opened on 8 August 2024.", "We misstated the opening date as 8 August 2024 in an earlier edition."}
	for i := range s {
		for _, c := range Claims(s[i], []string{"station"}) {
			if got := replacedSentence(s, i, c); got != (i == 1) {
				t.Errorf("replacedSentence(%q) %s = %v; want %v", s[i], c.Text, got, i == 1)
			}
		}
	}
}
