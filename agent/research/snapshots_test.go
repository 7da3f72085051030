package research

import (
	"strings"
	"testing"
)

// TestInformalNewerSource: a reader's letter months after a project's
// closeout report is not believed over it for being newer (issue 24,
// hS-34).
func TestInformalNewerSource(t *testing.T) {
	checkPreferred(t, preferCase{"a letter after a closeout report", memoryCorpus{
		{URL: "doc://closeout", Title: "Project closeout report", Credibility: 0.5, Published: day("2025-02-28"),
			Text: "The final cost of the Larchmere Visitor Center was 31.7 million dollars."},
		{URL: "doc://letter", Title: "Letters to the editor", Credibility: 0.4, Published: day("2025-03-07"),
			Text: "The Park Service poured $37 million into the Larchmere Visitor Center."},
	}, "What do the sources say about the Larchmere Visitor Center: what did it cost?", "31.7 million dollars", "$37 million"})
}

// TestNoFalseDayConflicts: figures a label gives for its source's own
// day ("Lifts open today: 4 of 14") differ from day to day; "the start
// of 2024" is no event's day; a year that only dates a phase says no
// day of its completion.
func TestNoFalseDayConflicts(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://report-nov", Title: "Mountain report", Credibility: 0.85, Published: day("2024-11-29"),
			Text: "Lifts open today: 4 of 14.\n\nAt the start of 2024 the Hollin Ridge resort estimated that 9 of its lifts needed repair."},
		{URL: "doc://report-apr", Title: "Mountain report", Credibility: 0.85, Published: day("2025-04-21"),
			Text: "Lifts open today: 5 of 14.\n\nHollin Ridge phase 1 (2023) replaced 4 lifts. The final works of the 2024 phase of Hollin Ridge were completed on November 14, 2024."},
		{URL: "doc://faq", Title: "Resort FAQ", Credibility: 0.85, Published: day("2025-05-01"),
			Text: "Hollin Ridge phase 3 began in April 2025."},
	}, "How did Hollin Ridge resort's season go: lifts open, works and dates?")
	for _, d := range res.Discrepancies {
		v := sidesOf(d)
		if strings.Contains(v, "4") && strings.Contains(v, "5") || strings.Contains(v, "2023") || strings.Contains(v, "2024") {
			t.Errorf("discrepancy %s: %s; want none", d.Topic, v)
		}
	}
}

// TestDayThenCount: "moved in on 14 July, 230 of the 412 homes": the
// count after a day's comma is no year of it.
func TestDayThenCount(t *testing.T) {
	for _, v := range Values(withYears("Since the first residents moved in on 14 July, 230 of the 412 homes have been occupied.", day("2025-09-30"))) {
		if v.Kind == KindDate && v.Year != 2025 {
			t.Errorf("Values: %q is of %d; want 14 July 2025", v.Text, v.Year)
		}
	}
}

// TestNamesakeOfTheDatedEvent: the question dates the floods its fund
// answered ("after the October 2024 floods"); a history of the Great
// Flood of 1968 and the fund of that name then is a namesake's.
func TestNamesakeOfTheDatedEvent(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://release", Title: "Foundation news release", Credibility: 0.85, Published: day("2024-10-23"),
			Text: "The Ashwell Flood Relief Fund opened today for households hit by the October 2024 floods. The fund closed on 31 January 2025."},
		{URL: "doc://faq", Title: "Fund FAQ", Credibility: 0.85, Published: day("2025-03-01"),
			Text: "The Ashwell Flood Relief Fund closed to new applications on 31 January 2025. Grants were made to 1,137 households."},
		{URL: "doc://history", Title: "Historical Society newsletter",
			Text: "# The Great Flood of 1968 and the first Ashwell Flood Relief Fund\n\nIn September 1968 the river rose two metres. The vicar opened the Ashwell Flood Relief Fund the following week. The fund raised £48,000 and it closed on 30 April 1969, after the flood of 1968 had been paid for."},
	}, "How much did the Ashwell Flood Relief Fund raise after the October 2024 floods, how many households did it help, and when did it close?")
	leaksOf(t, res, []string{"doc://history"}, "£48,000", "30 April 1969")
}

// TestCountAsOfADay: "As of June 11, 2025, the CDC had reported 12
// illnesses" is that day's count, no disagreement with the final 27;
// two reviewers' stars are opinions.
func TestCountAsOfADay(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://notice", Title: "Recall notice", Credibility: 0.85, Published: day("2025-06-12"),
			Text: "As of June 11, 2025, the Centers for Disease Control and Prevention had reported 12 illnesses that may be linked to Tamworth Foods products."},
		{URL: "doc://faq", Title: "Tamworth Foods FAQ", Credibility: 0.85, Published: day("2025-07-21"),
			Text: "The CDC's final update reports 27 illnesses linked to Tamworth Foods products."},
		{URL: "doc://review1", Title: "Review", Credibility: 0.6, Published: day("2025-03-14"),
			Text: "Tamworth Foods' new cookbook: Four stars."},
		{URL: "doc://review2", Title: "Review", Credibility: 0.6, Published: day("2025-03-15"),
			Text: "Tamworth Foods' new cookbook: Five stars."},
	}, "What do the sources say about the Tamworth Foods outbreak: how many people fell ill?")
	for _, d := range res.Discrepancies {
		t.Errorf("discrepancy %s: %s; want none", d.Topic, sidesOf(d))
	}
}

// TestModalBeforeAColon: "we can give a firm figure: fourteen trams
// have been written off" reports the figure; the modal frames only the
// clause before the colon.
func TestModalBeforeAColon(t *testing.T) {
	for _, c := range Claims("Now that every vehicle has been inspected, we can give a firm figure: fourteen trams have been written off.", nil) {
		if c.Text == "fourteen trams" && c.Modality != Reported {
			t.Errorf("Claims: %q is %s; want reported", c.Text, c.Modality)
		}
	}
}

// TestCompletionsOfOtherThings: a table's "completion: 2025-10-11
// (public opening)" is the opening its note names, and the completion
// of a link to the aquatic centre is no misreading of the arena's
// substantial completion.
func TestCompletionsOfOtherThings(t *testing.T) {
	subject := []string{"harlow", "ice", "arena"}
	cs, _ := labelClaims("Harlow Ice Arena completion: 2025-10-11 (public opening).", subject)
	if len(cs) != 1 || cs[0].Head != "opening" {
		t.Errorf("labelClaims = %+v; want the opening", cs)
	}
	link, _ := labelClaims("Aquatic Centre heat-recovery link completion: 2025-11-30.", subject)
	arena := Claims("The general contractor, Red River Builders, achieved substantial completion on 2025-09-26.", subject)
	told := &toldApart{words: map[string]bool{}, periods: map[string]map[string]bool{}}
	if len(link) != 1 || len(arena) == 0 || told.alike(link[0], arena[0]) {
		t.Errorf("alike(%+v, %+v); want two things' completions apart", link, arena)
	}
}

// TestOwnReleaseOfADay: "corrects the revenue figure in our release of
// April 28, 2025" dates a document, no release of the subject.
func TestOwnReleaseOfADay(t *testing.T) {
	for _, c := range Claims("This release corrects the revenue figure in our release of April 28, 2025.", nil) {
		if c.Unit == "date" {
			t.Errorf("Claims: %q is a %s; want no claim", c.Text, c.Head)
		}
	}
}
