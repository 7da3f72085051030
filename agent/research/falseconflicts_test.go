package research

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestNoClaimInAMastheadOrAClock: a masthead's line is its document's
// date and a time of day counts nothing; neither is a claim.
func TestNoClaimInAMastheadOrAClock(t *testing.T) {
	for _, s := range []string{
		"*The Northern Times — 3 May 2024*",
		"The Valley Courier — 12 June 2025",
		"*The Valley Courier — Sunday, July 28, 2024*",
		"The centre is open daily from 9 a.m. to 6 p.m.",
	} {
		if cs := Claims(s, []string{"haldane", "ferry"}); len(cs) != 0 {
			t.Errorf("Claims(%q) = %+v; want none", s, cs)
		}
	}
	// A label that is no name still dates what it names.
	if cs := Claims("Opening date: 3 May 2024", []string{"haldane"}); len(cs) != 1 {
		t.Errorf("Claims(Opening date: 3 May 2024) = %+v; want one", cs)
	}
}

// TestRolesInAListAndOfOtherBodies: in "Finance Director Carla Mendes,
// Emergency Manager Dana Whitcomb" each title is the name's after it;
// the chair of a users' group is not the chair of a council committee.
func TestRolesInAListAndOfOtherBodies(t *testing.T) {
	cs := Claims("Also present: County Administrator Brian Teller, Finance Director Carla Mendes, Emergency Manager Dana Whitcomb.", []string{"haldane"})
	got := map[string]string{}
	for _, c := range cs {
		got[c.Attribute] = c.Text
	}
	if got["emergency manager"] != "Dana Whitcomb" || got["finance director"] != "Carla Mendes" {
		t.Errorf("Claims(list of titles) = %v; want Dana Whitcomb the emergency manager and Carla Mendes the finance director", got)
	}
	a := Claims("Councillor Morag Tulloch, chair of the council's Transport Committee, said the ferry was late.", []string{"haldane"})
	b := Claims("Hamish Rendall, chair of the Venn Ferry Users' Group, said one ship is not enough.", []string{"haldane"})
	if len(a) != 1 || len(b) != 1 || a[0].Like(b[0]) {
		t.Errorf("Claims(chairs of two bodies) = %+v, %+v; want two claims that do not meet", a, b)
	}
}

// TestHedgedFigureIsRounded: "some 2,700 workers" is 2,740 to the
// hundred; "about 3,000" is not 3,400.
func TestHedgedFigureIsRounded(t *testing.T) {
	value := func(s string) Value {
		vs := Values(s)
		if len(vs) == 0 {
			t.Fatalf("Values(%q) = none", s)
		}
		return vs[len(vs)-1]
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"as some 2,700 workers walked out", "2,740 employees took part", true},
		{"We need some 300 volunteers", "312 volunteers gave their time", true},
		{"overtime cost about $600,000", "overtime cost $610,000", true},
		{"about 3,000 visitors", "3,400 visitors", false},
		{"replacing nine miles of main", "replacing 9.2 miles of main", true},
		{"nine miles", "12 miles", false},
		{"2,700 workers walked out", "2,740 employees took part", false},
	} {
		if got := Same(value(c.a), value(c.b)); got != c.want {
			t.Errorf("Same(%q, %q) = %v; want %v", c.a, c.b, got, c.want)
		}
	}
	if !strings.Contains(value("some 2,700").Text, "2,700") || !value("some 2,700").Approx {
		t.Errorf("Values(some 2,700) = %+v; want a figure about that much", value("some 2,700"))
	}
}

// TestExactFigureSpeaksForItsSide: a side that holds "around 1,500
// pupils" and "1,486 pupils" is the exact figure's.
func TestExactFigureSpeaksForItsSide(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://news", Title: "Local news", Credibility: 0.6, Text: "Tarn Academy opened with around 1,500 pupils."},
		{URL: "doc://report", Title: "Inspection report", Credibility: 0.9, Text: "Tarn Academy has 1,486 pupils on roll."},
		{URL: "doc://census", Title: "School census", Credibility: 0.9, Text: "At the October census the academy counted 1,486 pupils at Tarn Academy."},
		{URL: "doc://parents", Title: "Parents' page", Credibility: 0.3, Text: "Tarn Academy now has 1,648 pupils, so classes are bigger."},
	}, "Brief me on Tarn Academy: its pupils, its staff and when it opened.")
	for _, d := range res.Discrepancies {
		if strings.Contains(sideValues(d), "1,648") && !strings.Contains(d.Preferred, "1,486") {
			t.Errorf("discrepancy %s prefers %q; want 1,486 pupils (sides %s)", d.Topic, d.Preferred, sideValues(d))
		}
	}
}

// TestCountsOfAPartAndTheWhole: the ballot papers rejected are not all
// those counted; the attendance at 14 concerts is an attendance, not a
// count of concerts.
func TestCountsOfAPartAndTheWhole(t *testing.T) {
	a := Claims("Of these, 1,137 ballot papers were rejected as void.", nil)
	b := Claims("412,806 ballot papers were counted, including postal votes.", nil)
	c := Claims("In all, 421,806 ballot papers were counted.", nil)
	if len(a) != 1 || len(b) != 1 || len(c) != 1 || a[0].Like(b[0]) || !b[0].Like(c[0]) {
		t.Errorf("Claims(rejected, counted, counted) = %+v, %+v, %+v; want the counted to meet and not the rejected", a, b, c)
	}
	cs := Claims("Returns show that the total attendance at the 14 concerts of the 2025 tour was 27,480.", nil)
	i := slices.IndexFunc(cs, func(c Claim) bool { return c.Value.Text == "27,480" })
	if i < 0 || cs[i].Head != "attendance" {
		t.Errorf("Claims(attendance at the 14 concerts was 27,480) = %+v; want 27,480 an attendance", cs)
	}
}

// TestTwoMomentsOfOneEvent: a fire's acres by Friday evening are not its
// final size; a wing formally opened two months after its first
// patients did not open twice; a report's "Released 16 April 2025." is
// its own date.
func TestTwoMomentsOfOneEvent(t *testing.T) {
	a := Claims("By Friday evening (July 19, 2024) the fire had burned 18,300 acres.", nil)
	b := Claims("The final mapped size is 41,870 acres.", nil)
	if len(a) == 0 || len(b) != 1 || Conflicts(a[len(a)-1], b[0]) {
		t.Errorf("Claims(by Friday evening, final) = %+v, %+v; want no conflict", a, b)
	}
	c := Claims("By 31 March 2025 the appeal had supported 186 schools.", nil)
	d := Claims("The appeal has reached 168 schools.", nil)
	if len(c) == 0 || len(d) != 1 || c[len(c)-1].Period == "2025-03-31" {
		t.Errorf("Claims(by 31 March 2025) = %+v; want a count to date, not of the day", c)
	}
	res := run(t, memoryCorpus{
		{URL: "doc://trust", Title: "Trust press release", Credibility: 0.8, Text: "The new Tolland Wing at Ashby General Hospital opened to patients today, Monday 3 March 2025."},
		{URL: "doc://board", Title: "Board minutes", Credibility: 0.9, Text: "The Chief Nurse reported that the Tolland Wing received its first patients on 03/03/2025."},
		{URL: "doc://gazette", Title: "Gazette", Credibility: 0.6, Text: "The Lord Lieutenant formally opened the Tolland Wing at Ashby General Hospital yesterday, Monday 28 April 2025."},
	}, "What do the sources say about the Tolland Wing: when did it open?")
	for _, d := range res.Discrepancies {
		if strings.Contains(sideValues(d), "28 April 2025") {
			t.Errorf("discrepancy %s: %s; want the ceremony apart from the opening", d.Topic, sideValues(d))
		}
	}
	for _, s := range []string{"Released 16 April 2025.", "*Last updated 3 May 2024*", "HARLOWE COURIER — OPINION Published 14 June 2025",
		"An earlier version of this story, published on 28 February 2025, gave the wrong figure."} {
		if cs := Claims(s, nil); len(cs) != 0 {
			t.Errorf("Claims(%q) = %+v; want none", s, cs)
		}
	}
}

// TestHeadlineFigures: a title that states a figure is a claim, a
// title in title case or a section heading is none; a sentence's first
// word, an adverb, is no name before its figure.
func TestHeadlineFigures(t *testing.T) {
	ss := Sentences("# 41 miners trapped after roof fall at Blackwater Colliery\n\n*Chronicle, 11 February 2025*\n\nRescuers worked through the night.\n\n" +
		"# Northgate Philharmonic — Annual Review 2025\n\n## 2. Coverage of 95 percent\n\n# Kestrel Dynamics Inc. — Amendment No. 1 to the Annual Report on Form 10-K/A for fiscal year 2024\n")
	if len(ss) == 0 || ss[0] != "41 miners trapped after roof fall at Blackwater Colliery" || slices.ContainsFunc(ss, func(s string) bool {
		return strings.Contains(s, "Review") || strings.Contains(s, "Coverage") || strings.Contains(s, "Amendment")
	}) {
		t.Errorf("Sentences(headlines) = %q; want the figure's headline alone", ss)
	}
	for _, c := range []struct{ s, text, unit string }{
		{"Nearly 3,500 Northmoor staff walk out in pay row", "3,500 Northmoor staff", "employee"},
		{"Apparently 3,470 staff are out.", "3,470 staff", "employee"},
	} {
		cs := Claims(c.s, []string{"northmoor"})
		if len(cs) != 1 || cs[0].Text != c.text || cs[0].Unit != c.unit || len(cs[0].Mods) != 0 {
			t.Errorf("Claims(%q) = %+v; want %s, a count of %s", c.s, cs, c.text, c.unit)
		}
	}
}

// TestMoreFormsOfOneClaim: a label in bold with its weekday, "the total
// number of X was", votes that went into the boxes, ballot papers that
// are ballots, a figure "up on the previous election in 2021" that is
// not 2021's, and a day something was not done until.
func TestMoreFormsOfOneClaim(t *testing.T) {
	for _, c := range []struct{ s, text, unit, attr, period string }{
		{"**Date of declaration:** Friday 9 May 2025", "9 May 2025", "date", "date of declaration", ""},
		{"The total number of ballot papers counted across the region was 412,806.", "412,806", "ballot", "", ""},
		{"By my reckoning, 421,806 votes went into the boxes across the valley.", "421,806 votes", "vote", "votes", ""},
		{"Officials said 412,806 voters had returned ballot papers, up on the previous regional election in 2021.", "412,806 voters", "voter", "voters", ""},
		{"Polls shut on the 8th and they didn't declare the final results until 16 May 2025.", "16 May 2025", "date", "result declar", ""},
	} {
		cs := Claims(c.s, []string{"harlowe"})
		i := slices.IndexFunc(cs, func(x Claim) bool { return x.Text == c.text })
		if i < 0 || cs[i].Unit != c.unit || c.attr != "" && cs[i].Attribute != c.attr || cs[i].Period != c.period {
			t.Errorf("Claims(%q) = %+v; want %s a %s, %q, period %q", c.s, cs, c.text, c.unit, c.attr, c.period)
		}
	}
}

// TestYearOfARangeAndAWeekday: a day without its year takes the year of
// the day that ends its range, or of the day that begins it, or the one
// its weekday falls in.
func TestYearOfARangeAndAWeekday(t *testing.T) {
	published := time.Date(2025, 3, 28, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct{ s, want string }{
		{"The festival will run from Thursday 10 July to Sunday 20 July 2025.", "from Thursday 10 July 2025 to Sunday 20 July 2025"},
		{"The festival opens on July 10th, 2025 and runs until July 20th.", "runs until July 20th, 2025"},
		{"The review ran on Thursday 10 July.", "Thursday 10 July 2025"},
		{"The review ran on Wednesday 10 July.", "Wednesday 10 July 2024"},
	} {
		if got := withYears(c.s, published); !strings.Contains(got, c.want) {
			t.Errorf("withYears(%q) = %q; want %q", c.s, got, c.want)
		}
	}
}
