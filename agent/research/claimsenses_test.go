package research

import (
	"slices"
	"testing"
)

// conflictCase is two sentences' claims and whether they conflict.
type conflictCase struct {
	a, aText, b, bText string
	conflict           bool
}

func checkConflicts(t *testing.T, cases []conflictCase) {
	t.Helper()
	for _, tc := range cases {
		a, b := claimOfText(t, tc.a, tc.aText), claimOfText(t, tc.b, tc.bText)
		if got := Conflicts(a, b); got != tc.conflict {
			t.Errorf("Conflicts(%s %+v, %s %+v) = %v; want %v", tc.aText, a, tc.bText, b, got, tc.conflict)
		}
	}
}

// One attribute in other words meets itself: a workforce, a crowd, a
// gift, a class, a kind of money.
func TestClaimsSynonymsMeet(t *testing.T) {
	checkConflicts(t, []conflictCase{
		{"The mine employed 640 people.", "640 people", "The mine now has a payroll of 604 workers.", "604 workers", true},
		{"Attendance over the three days reached 62,000.", "62,000", "A crowd of 58,500 passed through the gates.", "58,500", true},
		{"The Hales announced a $45 million gift.", "$45 million", "The Hale family's $54 million pledge gives her room.", "$54 million", true},
		{"The Dean reported a first-year class of 2,310.", "2,310", "Move-in weekend brought 2,130 first-years to campus.", "2,130 first-years", true},
		{"Royalty expense was C$38m.", "C$38m", "The province pocketed C$83 million in royalties.", "C$83 million", true},
		{"The festival said 62,000 people came.", "62,000 people", "A crowd of 58,500 came.", "58,500", true},
		{"Some 3.7 million people flew from here.", "3.7 million people", "The airport handled 4.1 million passengers.", "4.1 million passengers", true},
		// Still apart: another attribute, another kind of money.
		{"The mine employed 640 people.", "640 people", "The mine produced 604 tonnes.", "604 tonnes", false},
		{"Royalty expense was C$38m.", "C$38m", "The tax expense was C$83m.", "C$83m", false},
	})
}

// The same fact in other sentence shapes: a time is no owner, a relative
// time ends a counted noun, the noun an amount qualifies names it, a rate
// is not a sum, and hires are not a headcount.
func TestClaimsReadOtherShapes(t *testing.T) {
	for _, tc := range []struct{ sentence, text, head, unit string }{
		{"The airfield had 37,000 passengers last year.", "37,000 passengers", "passenger", "passenger"},
		{"The festival received a $42,000 grant from the township.", "$42,000", "grant", "$"},
		{"Sable Ridge pays $9.5 million a year to the First Nation.", "$9.5 million", "payment", "$/year"},
		{"The plant has hired 60 local workers so far.", "60 local workers", "hire", "hire"},
		{"Last year 4.1 million passengers used the airport.", "4.1 million passengers", "passenger", "passenger"},
	} {
		c := claimOfText(t, tc.sentence, tc.text)
		if c.Head != tc.head || c.Unit != tc.unit {
			t.Errorf("Claims(%q) %s = head %q unit %q; want %q %q", tc.sentence, tc.text, c.Head, c.Unit, tc.head, tc.unit)
		}
	}
	c := claimOfText(t, "Move-in weekend brought 2,130 first-years to campus.", "2,130 first-years")
	if len(c.Mods) != 0 {
		t.Errorf("Move-in weekend's count has modifiers %q; want none: a time owns nothing", c.Mods)
	}
}

// An event in other words: a verb no list names, what "took place", the
// first of its events whatever its object, "opened its doors", a thing
// described two ways, a date between commas.
func TestClaimsEventsInOtherWords(t *testing.T) {
	checkConflicts(t, []conflictCase{
		{"First gold was poured on November 12, 2023.", "November 12, 2023", "The mine poured its first bar on 21 November 2023.", "21 November 2023", true},
		{"Halloran announced the first gold pour at its mine, which took place on November 12, 2023.", "November 12, 2023", "The mine poured its first bar on 21 November 2023.", "21 November 2023", true},
		{"The South Terminal opened to passengers on 2 June 2025.", "2 June 2025", "Merrow's South Terminal finally opened its doors on 30 June 2025.", "30 June 2025", true},
		{"Our new permanent stage was unveiled on 4 May 2024.", "4 May 2024", "I loved the gorgeous Millbank Stage, whose opening, on 14 May 2024, I missed.", "14 May 2024", true},
		// Still apart: two things opened, a comparison's year.
		{"The resort opened its new chairlift on November 12, 2023.", "November 12, 2023", "The resort opened its base lodge on 21 November 2023.", "21 November 2023", false},
	})
	for _, c := range Claims("Revenue was $61.5 million in 2024, compared with $48.9 million in 2023.", nil) {
		if c.Unit == "date" {
			t.Errorf("Claims(compared with ... in 2023) = %+v; want no event", c)
		}
	}
}

// A claim of no year in a dated document is for the year it was written
// in (or the year before, early in a year): it meets that year's claims
// and no other year's.
func TestClaimOfNoYearIsForItsDocumentsYear(t *testing.T) {
	corpus := memoryCorpus{
		dated("doc://report", "Annual report", 0.9, "2025-03-27", "Sable Ridge employed 640 people at December 31, 2024."),
		dated("doc://news", "News", 0.6, "2024-12-09", "Sable Ridge now has a payroll of 604 workers."),
		dated("doc://old", "Old news", 0.6, "2023-08-01", "Sable Ridge has a payroll of 300 workers."),
	}
	res := run(t, corpus, "What do the sources say about Sable Ridge's workforce?")
	facts := res.FactsByID()
	if len(res.Discrepancies) != 1 {
		t.Fatalf("discrepancies %+v; want one, 640 against 604", res.Discrepancies)
	}
	var values []string
	for _, id := range res.Discrepancies[0].FactIDs {
		values = append(values, facts[id].Value)
	}
	if !slices.Contains(values, "640 people") || !slices.Contains(values, "604 workers") || slices.Contains(values, "300 workers") {
		t.Errorf("discrepancy between %q; want 640 people against 604 workers, without 2023's 300", values)
	}
}

// What a name owns is a part of it: "Merrow's South Terminal" opened, not
// Merrow.
func TestClaimsNamePossessesItsParts(t *testing.T) {
	checkConflicts(t, []conflictCase{
		{"The new South Terminal opened to passengers on 2 June 2025.", "2 June 2025", "Merrow's South Terminal finally opened its doors on 30 June 2025.", "30 June 2025", true},
	})
	c := claimOfText(t, "Merrow's South Terminal opened on 2 June 2025.", "2 June 2025", "merrow", "airport")
	if len(c.Mods) == 0 || c.Mods[len(c.Mods)-1] != "terminal" {
		t.Errorf("Claims(Merrow's South Terminal opened) mods %q; want the terminal's", c.Mods)
	}
}

// Taking up a role is one event however it is said: "became the
// college's 19th president", "took office", "was installed as
// president", "in office, which began".
func TestClaimsOfficeTakenInOtherWords(t *testing.T) {
	checkConflicts(t, []conflictCase{
		{"Dr. Anita Ruiz became the college's 19th president on July 1, 2023.", "July 1, 2023", "Anita Ruiz was installed as president on August 1, 2023.", "August 1, 2023", true},
		{"President Anita Ruiz, who took office in July 2023, spoke.", "July 2023", "Anita Ruiz was installed as president on August 1, 2023.", "August 1, 2023", true},
		{"The Board thanked President Ruiz for her months in office, which began July 1, 2023.", "July 1, 2023", "Dr. Anita Ruiz became the college's 19th president on July 1, 2023.", "July 1, 2023", false},
		{"Principal Gareth Lowe took up his post on August 1, 2023.", "August 1, 2023", "Dr. Anita Ruiz became the college's 19th president on July 1, 2023.", "July 1, 2023", false},
	})
}

// "Would open" in a report is a plan, not an opening: it conflicts with
// no date of the opening.
func TestClaimsWouldIsPlanned(t *testing.T) {
	c := claimOfText(t, "The airport confirmed its South Terminal would open in June 2025.", "June 2025")
	if c.Modality != Planned {
		t.Errorf("Claims(would open in June 2025) modality %s; want planned", c.Modality)
	}
}

// More words of one attribute, and one word in two spellings.
func TestClaimsSynonymsAndSpellingsMeet(t *testing.T) {
	checkConflicts(t, []conflictCase{
		{"The renovation cost £12 million.", "£12 million", "The refit cost £21 million.", "£21 million", true},
		{"Orsa made a licence payment of $35 million.", "$35 million", "Orsa made a license payment of $53 million.", "$53 million", true},
		{"Turnover was €812 million in 2024.", "€812 million", "Revenue was €821 million in 2024.", "€821 million", true},
		{"The renovation cost £12 million.", "£12 million", "The new wing cost £21 million.", "£21 million", false},
	})
}

// A count written as a compound adjective is a count of its noun: "the
// 412-patient trial" meets "the trial enrolled 388 patients".
func TestClaimsReadCompoundCounts(t *testing.T) {
	checkConflicts(t, []conflictCase{
		{"Results of the 412-patient trial were published.", "412-patient", "The trial enrolled 388 patients.", "388 patients", true},
		{"This fall's 2,310-strong first-year class is the largest.", "2,310-strong", "Move-in weekend brought 2,130 first-years to campus.", "2,130 first-years", true},
		{"The 6,500-tonne mill runs day and night.", "6,500-tonne", "The trial enrolled 388 patients.", "388 patients", false},
	})
	if c := claimOfText(t, "Members of the 321-farm cooperative will vote.", "321-farm", "pellworth", "cooperative"); c.Head != "farm" || len(c.Mods) != 0 {
		t.Errorf("the 321-farm cooperative = head %q mods %q; want farms of the subject itself", c.Head, c.Mods)
	}
}

// A claim joins a group of like claims only when it is about what each
// of them is about: "the 2,600-metre runway" and "the runway extension's
// 340 metres" meet, "the 340-metre extension" then meets the extension,
// never the runway.
func TestLikeClaimsGroupOnlyWhatEachIsAbout(t *testing.T) {
	l := &likeClaims{names: map[string]string{}}
	extension := l.group(claimOfText(t, "The runway extension lengthened it by 340 metres.", "340 metres"), "runway extension")
	runway := l.group(claimOfText(t, "The 2,600-metre runway now takes jets.", "2,600-metre"), "runway")
	short := l.group(claimOfText(t, "The 340-metre extension opened in 2023.", "340-metre"), "extension")
	if runway != extension {
		t.Errorf("the runway's length joined %s; want %s, the runway extension's", runway, extension)
	}
	if short == runway {
		t.Errorf("the 340-metre extension joined the runway's group %s", runway)
	}
}
