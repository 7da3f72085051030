package research

import (
	"strings"
	"testing"
)

// TestNamesakeOfAnotherName: a document that writes "Brindle Cove
// Township" three times and the subject's whole name once, to say the
// two are unrelated, is about the township; its count and day are no
// side of the council's disagreements.
func TestNamesakeOfAnotherName(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://officer", Title: "Declaration of results", Credibility: 0.9,
			Text: "The returning officer of Brindle Cove Harbour Board declared the results on 9 May 2025. A total of 48,310 ballot papers were counted."},
		{URL: "doc://herald", Title: "Harbour news", Credibility: 0.6,
			Text: "Brindle Cove Harbour Board's count ended when results were declared on 9 May 2025, and 48,310 ballot papers were counted."},
		{URL: "doc://blog", Title: "Quayside blog", Credibility: 0.3,
			Text: "Brindle Cove Harbour Board finally declared the results on 16 May 2025 after 48,130 ballot papers were counted."},
		{URL: "doc://township", Title: "Brindle Cove Township elects a reeve",
			Text: "Voters in Brindle Cove Township elected a new reeve. The clerk of Brindle Cove Township declared the results on 24 October 2022, and 6,244 ballot papers were counted. " +
				"Brindle Cove Township is unrelated to Brindle Cove Harbour Board."},
	}, "What do the sources say about the Brindle Cove Harbour Board election: how many ballot papers were counted and when were the results declared?")
	leaksOf(t, res, []string{"doc://township"}, "6,244")
	declared := false
	for _, d := range res.Discrepancies {
		declared = declared || strings.Contains(d.Preferred, "9 May 2025") && strings.Contains(sideValues(d), "16 May 2025")
	}
	if !declared {
		t.Errorf("discrepancies %+v; want 9 May 2025 preferred to 16 May 2025", res.Discrepancies)
	}
}

// TestNamesakeOfAnotherDecade: the question dates its subject ("the 2024
// Ashby Moor Fire"); a newsletter about "the 1996 Ashby Moor Fire", the
// year it writes most, describes another fire, whose acres stay in its
// note.
func TestNamesakeOfAnotherDecade(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://agency", Title: "Fire agency update", Credibility: 0.9,
			Text: "The Ashby Moor Fire burned 12,400 acres before it was contained on 14 August 2024."},
		{URL: "doc://paper", Title: "Valley paper", Credibility: 0.6,
			Text: "The Ashby Moor Fire had burned 12,400 acres when crews contained it on 14 August 2024."},
		{URL: "doc://forum", Title: "Forum", Credibility: 0.3,
			Text: "People say the Ashby Moor Fire burned 21,400 acres in 2024."},
		{URL: "doc://archive", Title: "Historical society newsletter",
			Text: "## From the archive: the Ashby Moor Fire of 1996\n\nThe 1996 Ashby Moor Fire started on 2 September 1996. " +
				"The 1996 fire burned 7,950 acres and was contained on 10 September 1996. Our archive has photographs from 1996."},
	}, "Brief me on the 2024 Ashby Moor Fire: the acres burned and when it was contained.")
	leaksOf(t, res, []string{"doc://archive"}, "7,950")
	acres := false
	for _, d := range res.Discrepancies {
		acres = acres || strings.Contains(d.Preferred, "12,400") && strings.Contains(sideValues(d), "21,400")
	}
	if !acres {
		t.Errorf("discrepancies %+v; want 12,400 acres preferred to 21,400", res.Discrepancies)
	}
}

// TestNamesakeWhereTheQuestionIsNot: the question puts its "Fresh Path"
// campaign in Corvel and every other document writes Corvel; the City of
// Mont Rialle's reading programme of the same name, which never does,
// is another entity.
func TestNamesakeWhereTheQuestionIsNot(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://decree", Title: "Decree", Credibility: 0.9,
			Text: "The Fresh Path vaccination campaign in Corvel will cost €7.5 million and starts on 3 March 2025."},
		{URL: "doc://ministry", Title: "Ministry release", Credibility: 0.85,
			Text: "The Fresh Path campaign began in Corvel on 3 March 2025, vaccinating 212,000 children."},
		{URL: "doc://report", Title: "Final report", Credibility: 0.9,
			Text: "Fresh Path vaccinated 212,000 children across Corvel."},
		{URL: "doc://blog", Title: "Parents' blog", Credibility: 0.3,
			Text: "Fresh Path vaccinated 221,000 children in Corvel, we hear."},
		{URL: "doc://reading", Title: "City news",
			Text: "The City of Mont Rialle launched its reading programme, Fresh Path, on 15 September 2024. " +
				"Fresh Path has enrolled 4,270 children in Mont Rialle and has a budget of €1.35 million."},
	}, "How did the Fresh Path vaccination campaign in Corvel go: how many children were vaccinated and when did it start?")
	leaksOf(t, res, []string{"doc://reading"}, "4,270", "1.35")
}

// TestSubjectAfterADate: a month and year before the name are when, not
// who; a word that only starts like a month is a name.
func TestSubjectAfterADate(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"What do the sources say about the October 2025 strike on Tolwen Buses: when did it begin?", "Tolwen Buses"},
		{"What do the sources say about Marlin Reef: its corals?", "Marlin Reef"},
	} {
		if got := SubjectOf(c.q); got != c.want {
			t.Errorf("SubjectOf(%q) = %q; want %q", c.q, got, c.want)
		}
	}
	for _, c := range []struct {
		s    string
		want bool
	}{{"Marlin", false}, {"Decker", false}, {"Junction", false}, {"May", true}, {"Sept. 9", true}, {"October 2025", true}} {
		if got := monthName(c.s); got != c.want {
			t.Errorf("monthName(%q) = %v; want %v", c.s, got, c.want)
		}
	}
}

// TestNameBeforeARoleIsTheSubject: "Tolwen Buses Regional Director" is
// the subject's officer and "Tolwen Bay Festival CLG" its legal form,
// neither another entity.
func TestNameBeforeARoleIsTheSubject(t *testing.T) {
	if got := nameIn("Present: Tolwen Buses Regional Director. Tolwen Buses said 2,740 employees took part.", []string{"tolwen", "buses"}); got != "" {
		t.Errorf("nameIn(Tolwen Buses Regional Director) = %q; want the subject's bare name", got)
	}
	if !legalFormOnly("Tolwen Bay Festival CLG", []string{"tolwen", "bay", "festival"}) {
		t.Errorf("legalFormOnly(Tolwen Bay Festival CLG) = false; want a legal form")
	}
}

// TestOwnersAndNeighboursAreTheSubjects: the dam's owner ("Tarrow
// Valley Water Board"), writing the dam's name in its heading, and a
// neighbourhood newsletter ("Tarrow Heights") on "the dam up the hill"
// are about the dam: their figures meet the others'; a breakdown's rows
// and a correction's two figures tell no words apart, so the 37
// deficiencies the report counts and the 45 a news story gave meet.
func TestOwnersAndNeighboursAreTheSubjects(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://report", Title: "Inspection report", Credibility: 0.9,
			Text: "# Periodic inspection of Tarrow Reservoir Dam\n\nThe inspection identified 37 deficiencies.\n\n## Deficiencies by feature\n\n" +
				"| Feature | Deficiencies |\n|---|---:|\n| Embankment | 14 |\n| Spillway | 9 |\n| Outlet tower | 8 |\n| Monitoring | 6 |\n| **Total** | **37** |\n"},
		{URL: "doc://board", Title: "Board release", Credibility: 0.8,
			Text: "# Tarrow Reservoir Dam rated Fair\n\nThe Tarrow Valley Water Board today released the report. The Tarrow Valley Water Board said the report lists 37 deficiencies and puts repairs at $18.6 million."},
		{URL: "doc://news", Title: "TV news", Credibility: 0.6,
			Text: "State inspectors found 45 deficiencies at Tarrow Reservoir Dam, a source said."},
		{URL: "doc://fix", Title: "Correction", Credibility: 0.6,
			Text: "# Correction: dam story\n\nOur story reported that inspectors found 45 deficiencies at Tarrow Reservoir Dam. The state's written report lists 37 deficiencies. We regret the error."},
		{URL: "doc://heights", Title: "Newsletter", Credibility: 0.3,
			Text: "TARROW HEIGHTS NEWSLETTER\n\nThe state inspected the dam up the hill. The repair bill for the dam is $16.8 million, and Tarrow Heights residents will pay for it."},
	}, "What do the sources say about the inspection of Tarrow Reservoir Dam: the deficiencies found and the cost of repairs?")
	for _, s := range res.Report.Sections {
		if strings.HasPrefix(s.Title, "Other entities named") {
			t.Errorf("section %s: %s; want the owner's and the neighbours' documents the dam's", s.Title, s.Content)
		}
	}
	found := false
	for _, d := range res.Discrepancies {
		found = found || strings.Contains(d.Preferred, "37") && strings.Contains(sideValues(d), "45")
	}
	if !found {
		t.Errorf("discrepancies %+v; want 37 deficiencies preferred to 45", res.Discrepancies)
	}
}

// TestBreakdownTotal: the claim that sums the others of its class is a
// breakdown's total.
func TestBreakdownTotal(t *testing.T) {
	claim := func(n float64, mods ...string) Claim {
		return Claim{Value: Value{Kind: KindNumber, Num: n}, Unit: "deficiency", Head: "deficiency", Mods: mods, Modality: Reported}
	}
	cs := []Claim{claim(14, "embankment"), claim(37, "inspection"), claim(9, "spillway"), claim(8, "outlet"), claim(6, "monitoring")}
	if got := totalOf(cs); got != 1 {
		t.Errorf("totalOf(14, 37, 9, 8, 6) = %d; want 1", got)
	}
	if got := totalOf(cs[2:]); got != -1 {
		t.Errorf("totalOf(9, 8, 6) = %d; want none", got)
	}
}
