package research

import (
	"slices"
	"strings"
	"testing"
)

// Forms a planted disagreement was written in that no rule read (issue
// 24, hS-30): an amount after the one it cost ("cost the county $2.7
// million"), after a noun phrase with an apposition or a relative clause
// ("The total cost of the repair, including ..., was"), a date between a
// clause's subject and its verb or after its weekday, and the days a
// subject went ahead or got under way.

// marlow is a dam repair whose final cost a report gives after an
// apposition, and a paper after the one it cost; a merger of savings and
// costs in one sentence is two amounts.
var marlow = memoryCorpus{
	{URL: "doc://report", Title: "Marlow County Council — final report on the dam repair", Credibility: 0.85, Published: day("2025-06-02"),
		Text: "The total cost of the Marlow Dam repair, including dredging, new sluice gates and bank stabilisation, was £11.4 million. " +
			"The council estimates one-off flood costs of £2 million and annual savings of £0.3 million from 2026."},
	{URL: "doc://news", Title: "Marlow Echo", Credibility: 0.6, Published: day("2025-05-20"),
		Text: "The Marlow Dam repair cost the county £14.1 million, officials said."},
	{URL: "doc://blog", Title: "River blog", Credibility: 0.4, Published: day("2025-05-25"),
		Text: "Anglers welcomed a repair that cost £11.4 million to finish."},
}

// TestAmountsAfterWhatTheyCost: "cost the county £14.1 million" is the
// repair's cost, as is the final cost said before an apposition and
// the amount a relative clause's "that cost" gives; savings after
// "and" are not the costs before it.
func TestAmountsAfterWhatTheyCost(t *testing.T) {
	res := run(t, marlow, "What do the sources say about the Marlow Dam repair: what did it cost?")
	found := false
	for _, d := range res.Discrepancies {
		var vals []string
		for _, s := range d.Sides {
			vals = append(vals, s.Value)
		}
		v := strings.Join(vals, " | ")
		if strings.Contains(v, "£11.4 million") && strings.Contains(v, "£14.1 million") {
			found = true
			if d.Preferred != "£11.4 million" {
				t.Errorf("%s: preferred %q (%s); want £11.4 million", d.Topic, d.Preferred, d.Strategy)
			}
			continue
		}
		t.Errorf("discrepancy %s: %s; want only the repair's cost", d.Topic, v)
	}
	if !found {
		t.Errorf("discrepancies %+v; want £11.4 million against £14.1 million", res.Discrepancies)
	}
	for _, tc := range []struct{ s, value, head string }{
		{"The final audited cost of the Marlow Dam repair and the flood response that followed is £12 million.", "£12 million", "cost"},
		{"The recall cost the Company $18.5 million in the quarter.", "$18.5 million", "cost"},
		{"The final cost of staging the 2025 show was £3.6 million.", "£3.6 million", "cost"},
		{"The council estimates one-off flood costs of £2 million and annual savings of £0.3 million.", "£0.3 million", "saving"},
	} {
		cs := Claims(tc.s, []string{"marlow"})
		i := slices.IndexFunc(cs, func(c Claim) bool { return c.Text == tc.value })
		if i < 0 || cs[i].Head != tc.head {
			t.Errorf("Claims(%q) = %+v; want %s a claim of %q", tc.s, cs, tc.value, tc.head)
		}
	}
}

// fenwick is a show whose first day sources write as the days it ran
// from, the day it got under way (after its weekday), and a recall
// whose day stands between its subject and its verb.
var fenwick = memoryCorpus{
	{URL: "doc://programme", Title: "Fenwick Show — official results", Credibility: 0.85, Published: day("2025-08-01"),
		Text: "The Fenwick Show ran from 25 July to 27 July 2025 at Home Farm."},
	{URL: "doc://society", Title: "Fenwick Agricultural Society — annual report", Credibility: 0.85, Published: day("2025-10-01"),
		Text: "The 2025 Fenwick Show went ahead on 25 July 2025 in sunshine."},
	{URL: "doc://radio", Title: "Radio Fenwick news", Credibility: 0.6, Published: day("2025-07-28"),
		Text: "The Fenwick Show got under way on Saturday, 26 July 2025, with queues at the gates."},
}

// TestDaysWrittenAroundTheirVerb: "ran from", "went ahead on" and "got
// under way on Saturday, 26 July" date the show's start; "on September
// 19 recalled" and "On March 8, X disclosed" date their verbs.
func TestDaysWrittenAroundTheirVerb(t *testing.T) {
	res := run(t, fenwick, "What do the sources say about the Fenwick Show: when did it start?")
	found := false
	for _, d := range res.Discrepancies {
		var vals []string
		for _, s := range d.Sides {
			vals = append(vals, s.Value)
		}
		v := strings.Join(vals, " | ")
		if strings.Contains(v, "25 July") && strings.Contains(v, "26 July 2025") {
			found = true
			if !strings.HasPrefix(d.Preferred, "25 July") {
				t.Errorf("%s: preferred %q (%s); want 25 July", d.Topic, d.Preferred, d.Strategy)
			}
		}
	}
	if !found {
		t.Errorf("discrepancies %+v; want 25 July against 26 July 2025", res.Discrepancies)
	}
	for _, tc := range []struct{ s, value, head string }{
		{"Orwell Foods on September 19, 2025 recalled its frozen peas.", "September 19, 2025", "recall"},
		{"A federal judge on Monday, March 10, 2025, approved the settlement.", "March 10, 2025", "approval"},
		{"On March 8, 2025, Orwell Foods disclosed the breach.", "March 8, 2025", "disclos"},
		{"With the outbreak declared over on April 19, 2025, schools reopened.", "April 19, 2025", "declar"},
		{"Crews declared the fire contained on Saturday, 17 August 2024, after it burned 900 hectares.", "17 August 2024", "contain"},
	} {
		cs := Claims(tc.s, []string{"orwell", "foods"})
		i := slices.IndexFunc(cs, func(c Claim) bool { return c.Text == tc.value })
		if i < 0 || cs[i].Head != tc.head {
			t.Errorf("Claims(%q) = %+v; want %s an event %q", tc.s, cs, tc.value, tc.head)
		}
	}
	// The object of a verb after its date qualifies it as one before.
	a := Claims("Orwell Foods on September 19, 2025 recalled its frozen peas.", []string{"orwell", "foods"})
	b := Claims("Orwell Foods recalled its frozen peas on September 9, 2025.", []string{"orwell", "foods"})
	if len(a) != 1 || len(b) != 1 || !a[0].Like(b[0]) {
		t.Errorf("Claims = %+v and %+v; want one recall each, alike", a, b)
	}
	// A decade is no date, nor a period.
	for _, c := range Claims("The 1930s pool has been restored at a cost of £8.7 million.", nil) {
		if c.Unit == "date" || c.Period != "" {
			t.Errorf("Claims(The 1930s pool ...) has %+v; want no date and no period", c)
		}
	}
}

// TestYearsOfAnotherFigureOrALimit: a year after another figure is
// that figure's, and one that ends a range ("back to 1538") dates
// nothing said before it.
func TestYearsOfAnotherFigureOrALimit(t *testing.T) {
	for _, tc := range []struct{ s, value, period string }{
		{"The show welcomed 42,000 people, a record, up from 38,500 in 2024.", "42,000 people", ""},
		{"The show welcomed 42,000 people, a record, up from 38,500 people in 2024.", "38,500 people", "2024"},
		{"The project, backed by an £840,000 heritage grant, lets anyone search registers back to 1538.", "£840,000", ""},
		{"Revenue was $61.5 million in 2024, compared with $48.9 million in 2023.", "$61.5 million", "2024"},
	} {
		cs := Claims(tc.s, nil)
		i := slices.IndexFunc(cs, func(c Claim) bool { return c.Text == tc.value })
		if i < 0 || cs[i].Period != tc.period {
			t.Errorf("Claims(%q) = %+v; want %s of period %q", tc.s, cs, tc.value, tc.period)
		}
	}
}

// TestNewsCitingAFilingIsNews: a story that cites "its latest quarterly
// report" is news, not a filing; a forum post's date in bold and lower
// case is its date.
func TestNewsCitingAFilingIsNews(t *testing.T) {
	d := DescribeDocument("05-dispatch.md", "", "# Columbus Business Journal — Breach bill tops $16 million\n\nMay 12, 2025\n\nThe breach cost the company $16.4 million, according to its latest quarterly report.")
	if d.Kind != "news" {
		t.Errorf("DescribeDocument(news citing a quarterly report) = %s %.2f; want news", d.Kind, d.Credibility)
	}
	if d := DescribeDocument("04-10q.md", "", "# Corvane Logistics, Inc. — Form 10-Q (excerpt)\n\nFiled May 9, 2025\n\nThe incident cost $14.6 million."); d.Kind != "filing" {
		t.Errorf("DescribeDocument(Form 10-Q) = %s; want filing", d.Kind)
	}
	if d := DescribeDocument("04-10q.txt", "", "Corvane Logistics, Inc. — Form 10-Q (excerpt)\n\nThe incident cost $14.6 million."); d.Kind != "filing" {
		t.Errorf("DescribeDocument(plain-text Form 10-Q) = %s; want filing", d.Kind)
	}
	f := DescribeDocument("05-forum.md", "", "# Town forum — thread: water notice over??\n\n**posted by dave, march 18, 2025**\n\nso the notice got lifted on march 17")
	if got := f.Published.Format("2006-01-02"); got != "2025-03-18" {
		t.Errorf("DescribeDocument(forum) published %s; want 2025-03-18", got)
	}
}

// dunmore is a contract a notice gives the value of and a news story
// says was won: "won a €25.8 million contract" is the contract's value,
// not an award.
var dunmore = memoryCorpus{
	{URL: "doc://notice", Title: "Harbour Authority — contract award notice", Credibility: 0.85, Published: day("2025-05-05"),
		Text: "The dredging contract with Dunmore Dredging is worth €28.5 million over four years."},
	{URL: "doc://news", Title: "Marine News", Credibility: 0.6, Published: day("2025-05-07"),
		Text: "Dunmore Dredging has won a €25.8 million contract from the Harbour Authority to dredge the channel."},
}

// TestNounAfterAnAmountNamesIt: the noun after an amount names it
// better than the verb before it.
func TestNounAfterAnAmountNamesIt(t *testing.T) {
	res := run(t, dunmore, "What do the sources say about Dunmore Dredging's harbour contract: what is it worth?")
	if len(res.Discrepancies) != 1 || res.Discrepancies[0].Preferred != "€28.5 million" {
		t.Errorf("discrepancies %+v; want €28.5 million preferred against €25.8 million", res.Discrepancies)
	}
}
