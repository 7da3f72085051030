package research

import (
	"slices"
	"strings"
	"testing"
	"time"

	rs "github.com/quarry-dev/quarry/research"
)

func day(s string) time.Time {
	t, _ := time.Parse("2006-01-02", s)
	return t
}

// halden is a biotech with three planted contradictions (a count, an
// amount, a date) and traps: a planned enrollment, two years of revenue,
// clinical sites beside patients, and a payment written rounded.
var halden = memoryCorpus{
	{URL: "doc://release", Title: "Press release", Credibility: 0.75, Published: day("2025-01-10"),
		Text: "Halden Bio reported that the trial enrolled 412 patients at 41 clinical sites. The protocol had planned an enrollment of 400 patients. Halden Bio received an upfront licence payment of $35 million from Orsa."},
	{URL: "doc://annual", Title: "Annual report", Credibility: 0.9, Published: day("2025-03-01"),
		Text: "Halden Bio reported revenue of $12.4 million in 2024, compared with $8.1 million in 2023. The trial enrolled 412 patients. The Halden Bio plant opened in October 2023. Halden Bio received an upfront payment of $35.2 million."},
	{URL: "doc://news", Title: "Trade news", Credibility: 0.6, Published: day("2025-02-01"),
		Text: "The Halden Bio trial enrolled 388 patients, the company said. The Halden Bio plant opened in August 2024 after delays."},
	{URL: "doc://blog", Title: "Investor blog", Credibility: 0.4, Published: day("2025-02-05"),
		Text: "Halden Bio pocketed an upfront payment of $53 million. The plant opened in October 2023, and revenue was $12.4 million in 2024."},
}

// TestBriefingConflictsOnAnyTopic: a briefing finds contradictions about
// attributes no list names, and none between unlike claims.
func TestBriefingConflictsOnAnyTopic(t *testing.T) {
	res := run(t, halden, "What happened to Halden Bio: its trial, the licence deal and the plant?")
	facts := res.FactsByID()
	want := map[string][2]string{"patients": {"412", "388"}, "payment": {"$35", "$53"}, "opening": {"October 2023", "August 2024"}}
	found := map[string]bool{}
	for _, d := range res.Discrepancies {
		var values []string
		for _, s := range d.Sides {
			values = append(values, s.Value)
		}
		joined := strings.Join(values, " | ")
		matched := false
		for name, w := range want {
			if strings.Contains(joined, w[0]) && strings.Contains(joined, w[1]) {
				found[name], matched = true, true
				if !strings.HasPrefix(d.Preferred, w[0]) {
					t.Errorf("%s: preferred %q; want %s", d.Topic, d.Preferred, w[0])
				}
			}
		}
		if !matched {
			t.Errorf("false conflict %s: %s", d.Topic, joined)
		}
		for _, id := range d.FactIDs {
			if v := facts[id].Value; strings.Contains(v, "sites") || strings.HasPrefix(v, "400") || strings.HasPrefix(v, "$8.1") {
				t.Errorf("%s compares %q, an unlike claim", d.Topic, v)
			}
		}
	}
	for name := range want {
		if !found[name] {
			t.Errorf("no discrepancy about %s in %+v", name, res.Discrepancies)
		}
	}
}

// vesta shares its name with a game studio that the documents' context
// tells apart: place, industry, people.
var vesta = memoryCorpus{
	{URL: "doc://a", Title: "Vesta Therapeutics annual report", Credibility: 0.9,
		Text: "Vesta Therapeutics, the Boston biotech, had 212 employees at the end of 2024. Vesta Therapeutics reported revenue of $9.1 million in 2024 from its asthma trial partner."},
	{URL: "doc://b", Title: "Biotech news", Credibility: 0.6,
		Text: "Vesta Therapeutics enrolled 268 patients in its asthma trial. The Boston biotech had 212 employees in 2024."},
	{URL: "doc://c", Title: "Game news", Credibility: 0.6,
		Text: "Vesta Games, the Montreal video-game studio founded by Marc Tremblay, employed 140 people in 2024. Vesta Games reported revenue of $12 million in 2024 from its role-playing game."},
}

// kessel's namesake never writes the subject's whole name, only its
// first word.
var kessel = memoryCorpus{
	{URL: "doc://release", Text: "Kessel Wind Partners commissioned its farm of 62 turbines in February 2025, chief executive Lena Brandt said."},
	{URL: "doc://report", Text: "Kessel Wind Partners employed 540 people at the end of 2024. Lena Brandt leads it from Esbjerg."},
	{URL: "doc://club", Text: "Kessel United, the Czech football club, employs 180 people and opened its stadium in 1959."},
}

// TestNamesakeClaimsStayInTheirNote: a namesake's claims are told in a
// note of their own, never in the subject's sections nor its
// discrepancies, and it is an ambiguity only as a named entity of the
// same kind. A namesake that writes the bare name is told apart by what
// its document says it is and whom it names; a document of the subject
// that says what it is stays the subject's.
func TestNamesakeClaimsStayInTheirNote(t *testing.T) {
	for _, tc := range []struct {
		corpus             memoryCorpus
		question, namesake string
		named              []string
	}{
		{vesta, "What happened to Vesta in 2024: its asthma trial, revenue and employees?", "doc://c", []string{"Vesta Therapeutics", "Vesta Games"}},
		{nordway, "What happened to the Nordway tram: its stops and its opening?", "doc://ferries", nil},
		{kessel, "What happened to Kessel Wind Partners: its turbines and its staff?", "doc://club", nil},
	} {
		res := run(t, tc.corpus, tc.question)
		facts := res.FactsByID()
		if !inItsNote(t, res, tc.namesake) {
			t.Errorf("sections %+v; want a note on %s", res.Report.Sections, tc.namesake)
		}
		for _, d := range res.Discrepancies {
			for _, id := range d.FactIDs {
				if facts[id].SourceURL == tc.namesake {
					t.Errorf("discrepancy %s takes the namesake's %q", d.Topic, facts[id].Text)
				}
			}
		}
		for _, a := range res.Ambiguities {
			for _, e := range a.Entities {
				if !slices.Contains(tc.named, e.Entity) {
					t.Errorf("ambiguity %+v; want one only between %q", a, tc.named)
				}
			}
		}
	}
}

// TestNoAmbiguityBetweenNumbersOfOneName: a history's releases, each
// named by its version, disagree only where two sources date the same
// release differently; the project's other dates are not entities, and
// a count that goes on about the release before it is that release's.
func TestNoAmbiguityBetweenNumbersOfOneName(t *testing.T) {
	corpus := memoryCorpus{
		{URL: "doc://releases", Title: "Debian releases", Credibility: 0.5,
			Text: "Debian 1.1 Buzz (June 17th, 1996): the first release with a code name.\n\nDebian 1.3 Bo (June 5th, 1997): Named for Bo Peep.\n\n" +
				"Debian 3.0 Woody (19 July 2002): Named for the cowboy. There were around 8500 binary packages."},
		{URL: "doc://history", Title: "Detailed history", Credibility: 0.5,
			Text: "Ian Murdock founded the Debian project in August 1993.\n\n1.1 Buzz released June 1996 (474 packages).\n\n1.3 Bo released July 1997 (974 packages, 200 developers).\n\n" +
				"Debian 2.2 was released August 15th, 2000. There were 3900 binary packages."},
	}
	res := run(t, corpus, "When were Debian's releases made, and how many packages did each have?")
	if len(res.Ambiguities) != 0 {
		t.Errorf("ambiguities %+v; want none", res.Ambiguities)
	}
	if len(res.Discrepancies) != 1 || !strings.Contains(res.Discrepancies[0].Topic, "1.3") {
		t.Fatalf("discrepancies %+v; want the 1.3 release's date alone", res.Discrepancies)
	}
	var values []string
	for _, s := range res.Discrepancies[0].Sides {
		values = append(values, s.Value)
	}
	if got := strings.Join(values, " | "); !strings.Contains(got, "June 5th, 1997") || !strings.Contains(got, "July 1997") {
		t.Errorf("sides %s; want June 5th, 1997 and July 1997", got)
	}
}

// releases date two releases, and a port names a CPU's model number.
var releases = memoryCorpus{
	{URL: "doc://releases", Title: "Debian releases", Text: "Debian 1.1 Buzz was released in June 1996 with 474 packages."},
	{URL: "doc://history", Title: "Detailed history", Text: "Debian 1.3 Bo was released in July 1997 with 974 packages."},
	{URL: "doc://port", Title: "The m68k port", Text: "Debian packages were built on an Atari Medusa 68040 at 32 MHz, with many packages."},
}

// TestNoAmbiguityFromNumbersOfAnotherThing: asked about one release, a
// release of another number or a CPU's model number is not an entity
// sharing the name.
func TestNoAmbiguityFromNumbersOfAnotherThing(t *testing.T) {
	corpus := releases
	res := run(t, corpus, "When was Debian 1.3 Bo released?")
	for _, a := range res.Ambiguities {
		t.Errorf("ambiguity %s: %+v; want none", a.Attribute, a.Entities)
	}
	if !strings.Contains(res.Answer, "July 1997") || strings.Contains(res.Answer, "June 1996") {
		t.Errorf("Answer = %q; want 1.3's July 1997 without 1.1's June 1996", res.Answer)
	}
	res = run(t, corpus, "How many packages did Debian 1.3 have?")
	for _, a := range res.Ambiguities {
		t.Errorf("ambiguity %s: %+v; want none", a.Attribute, a.Entities)
	}
}

// A question that asks for a briefing, lists what it asks about or
// names no attribute without a question word reads every claim; one
// that asks for one value does not.
func TestBriefingQuestions(t *testing.T) {
	for q, broad := range map[string]bool{
		"Give me a briefing on Halden Bio.":                              true,
		"Halden Bio: the trial, the licence deal and the plant":          true,
		"What happened to Halden Bio in 2024?":                           true,
		"What do the sources say about the Eastline tram's cost, stops?": true,
		"What is the population of Broken Bow?":                          false,
		"When was Debian 1.3 Bo released?":                               false,
		"24th Rifle Division was formed in which year?":                  false,
	} {
		if got := parseQuestion(q).Target.Broad; got != broad {
			t.Errorf("parseQuestion(%q).Target.Broad = %v; want %v", q, got, broad)
		}
	}
}

// nordway shares its bare name with a ferry operator that only what the
// documents say it is, and whom they name, tell apart.
var nordway = memoryCorpus{
	{URL: "doc://council", Text: "The Nordway tram opened on 14 September 2025 at Harrow Park. The line has 18 stops, councillor Ann Pike said."},
	{URL: "doc://news", Text: "Nordway, the new tram line, opened on 14 September 2025. Councillor Ann Pike rode it from Harrow Park."},
	{URL: "doc://ferries", Text: "Nordway, the Oban ferry operator, opened a terminal on 3 May 2025. Skipper Ewan Ross runs 16 vessels from Craignure."},
}

// inItsNote checks that the facts of the namesake's document doc are
// cited only in the note on other entities, and the subject's never
// there; it reports whether the report has such a note.
func inItsNote(t *testing.T, res *rs.Result, doc string) bool {
	t.Helper()
	facts := res.FactsByID()
	note := false
	for _, s := range res.Report.Sections {
		isNote := strings.HasPrefix(s.Title, "Other entities named")
		note = note || isNote
		for _, id := range s.FactIDs {
			if namesake := facts[id].SourceURL == doc; namesake != isNote {
				t.Errorf("section %s cites %q from %s", s.Title, facts[id].Text, facts[id].SourceURL)
			}
		}
	}
	return note
}

// A briefing about "Ostrava Wind Partners' Kessel farm" is about the
// owner of the possessive.
func TestBriefingSubjectBeforePossessive(t *testing.T) {
	q := parseQuestion("What do the sources say about Ostrava Wind Partners' Kessel farm, its cost and its turbines?")
	if q.Subject != "Ostrava Wind Partners" {
		t.Errorf("subject %q; want Ostrava Wind Partners", q.Subject)
	}
}
