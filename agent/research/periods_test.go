package research

import (
	"strings"
	"testing"
	"time"
)

// "Last year" in a source of 2025 is 2024; a figure under "would" is
// expected, not done, unless a word before frames it.
func TestRelativeYearsAndConditionals(t *testing.T) {
	published := time.Date(2025, 2, 4, 0, 0, 0, 0, time.UTC)
	for s, want := range map[string]string{
		"The project raised 4.2 million dollars from sponsors last year.": "2024",
		"This year the festival expects 250,000 visits.":                  "2025",
		"The festival drew 212,000 visits.":                               "",
	} {
		if got := relativeYear(s, published); got != want {
			t.Errorf("relativeYear(%q) = %q; want %q", s, got, want)
		}
	}
	if got := relativeYear("Last year it raised $4 million.", time.Time{}); got != "" {
		t.Errorf("relativeYear of an undated source = %q; want none", got)
	}
	c := claimOfText(t, "A second line, to the airport, is proposed for 2030 and would add 12 stops.", "12 stops")
	if c.Modality != Expected {
		t.Errorf("12 stops that a line would add: %s; want expected", c.Modality)
	}
}

// More ways to ask for a briefing rather than one value.
func TestMoreBriefingQuestions(t *testing.T) {
	for q, broad := range map[string]bool{
		"What are the key facts about the Marlow Bridge project?":               true,
		"Compare what the sources say about the Aldgrove hospital wing.":        true,
		"Which sources disagree about the Redcastle stadium, and who is right?": true,
		"Do the documents agree on the Kellan wind farm?":                       true,
		"What does the press say about the Oakridge Library?":                   true,
		"How many stops does the Corrin tram have and when did it open?":        true,
		"When did the Oakridge Library reopen?":                                 false,
		"When and where was George Grimes born?":                                false,
		"How many visitors did the Oakridge Library have in 2024?":              false,
	} {
		if got := parseQuestion(q).Target.Broad; got != broad {
			t.Errorf("parseQuestion(%q).Target.Broad = %v; want %v", q, got, broad)
		}
	}
}

// A quarter's figure is not the year's, and a figure a trial was designed
// or hoped to reach is planned.
func TestQuartersAndAims(t *testing.T) {
	q := claimOfText(t, "Revenue in the first quarter of 2024 was $3.1 million.", "$3.1 million")
	y := claimOfText(t, "Revenue in 2024 was $12.4 million.", "$12.4 million")
	if q.Period != "2024 Q1" || Conflicts(q, y) {
		t.Errorf("first quarter %q against the year %q: conflict %v; want 2024 Q1, no conflict", q.Period, y.Period, Conflicts(q, y))
	}
	if h := claimOfText(t, "Revenue was $6 million in H1 2024.", "$6 million"); h.Period != "2024 H1" {
		t.Errorf("H1 2024: period %q; want 2024 H1", h.Period)
	}
	d := claimOfText(t, "The trial was designed to enroll 400 patients.", "400 patients")
	a := claimOfText(t, "The trial enrolled 412 patients.", "412 patients")
	if d.Modality != Planned || Conflicts(d, a) {
		t.Errorf("designed to enroll 400 patients: %s, conflict %v; want planned, none", d.Modality, Conflicts(d, a))
	}
}

// A figure for a year after its source's is expected, and a plain text's
// metadata line is no claim: "250 rural schools by 2026" in a launch of
// 2023 does not meet the schools supported by 2025, which meet a count
// of no year in a source of 2025.
func TestFutureYearsAndPlainTextMetadata(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://launch", Title: "Launch", Published: day("2023-03-08"),
			Text: "Lanterns launch\nPublished: 8 March 2023\n\nThe Lanterns appeal aims high: a £2 million appeal to light 250 rural schools by 2026."},
		{URL: "doc://report", Title: "Annual report", Published: day("2025-07-15"),
			Text: "Lanterns annual report\nPublished: 15 July 2025\n\nBy 31 March 2025 the Lanterns appeal had supported 186 schools."},
		{URL: "doc://register", Title: "Register", Text: "Register extract\n\nSchools supported (cumulative): 186"},
		{URL: "doc://news", Title: "Ledger", Published: day("2025-04-20"),
			Text: "Regional study 2023 (extract)\nPublished: 20 April 2025\n\nThe Lanterns appeal has reached 168 partner schools."},
	}, "What do the sources say about the Lanterns appeal and its schools?")
	if len(res.Discrepancies) != 1 {
		t.Fatalf("discrepancies %+v; want 186 against 168 schools", res.Discrepancies)
	}
	var values []string
	for _, s := range res.Discrepancies[0].Sides {
		values = append(values, s.Value)
	}
	if got := strings.Join(values, " | "); got != "186 schools | 168 partner schools" {
		t.Errorf("sides %s; want 186 schools | 168 partner schools", got)
	}
	for _, f := range res.Facts {
		if strings.Contains(f.Text, "Published") {
			t.Errorf("fact %q; want no claim of a metadata line", f.Text)
		}
	}
}

// Counts of no year in sources years apart are counts of two times, even
// of one thing by one name: "1,950 residents had joined" in 2021 does not
// meet "the class comprises 2,318 residents" in 2025; one in 2025 meets
// one in 2024.
func TestNoYearSourcesYearsApart(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://2021", Title: "Tribune", Published: day("2021-06-02"), Text: "The Marrow Creek class had 1,950 residents."},
		{URL: "doc://2025", Title: "Court order", Published: day("2025-03-11"), Text: "The Marrow Creek class had 2,318 residents."},
		{URL: "doc://2024", Title: "Group post", Published: day("2024-12-15"), Text: "The Marrow Creek class had 3,218 residents."},
	}, "What do the sources say about the Marrow Creek class and its residents?")
	if len(res.Discrepancies) != 1 {
		t.Fatalf("discrepancies %+v; want 2,318 against 3,218 alone", res.Discrepancies)
	}
	for _, s := range res.Discrepancies[0].Sides {
		if strings.HasPrefix(s.Value, "1,950") {
			t.Errorf("sides %+v; want 2021's 1,950 kept out", res.Discrepancies[0].Sides)
		}
	}
}

// A day after its source's own is a plan, not an event reported.
func TestDatesAfterTheSource(t *testing.T) {
	published := day("2025-01-15")
	for text, after := range map[string]bool{"March 2025": true, "14 January 2025": false, "2026": true, "2024": false, "January 2025": false} {
		v := Values(text)[0]
		if got := afterPublished(v, published); got != after {
			t.Errorf("afterPublished(%s, 2025-01-15) = %v; want %v", text, got, after)
		}
	}
	res := run(t, memoryCorpus{
		{URL: "doc://fund", Title: "Fund note", Published: day("2025-01-15"), Text: "The Bramhope farm opens its fund: applications open in March 2025."},
		{URL: "doc://report", Title: "Annual report", Published: day("2025-04-25"), Text: "The Bramhope farm was commissioned on 18 November 2024."},
	}, "What do the sources say about the Bramhope farm and when it was commissioned?")
	if len(res.Discrepancies) != 0 {
		t.Errorf("discrepancies %+v; want none between a plan and an event", res.Discrepancies)
	}
}
