package research

import (
	"slices"
	"strings"
	"testing"
)

// corrinValley writes its namesake's whole name, told apart only by what
// the document says it is and where: a heritage tram in Otago beside a
// tramway in Dunmore; and a rugby side of the same name with an
// abbreviation, in Tasmania.
var corrinValley = memoryCorpus{
	{URL: "doc://council", Title: "Council report", Text: "The Corrin Valley Tramway opened on 14 September 2024 in Dunmore. The line has 19 stops, councillor Ann Pike said."},
	{URL: "doc://herald", Title: "Dunmore Herald", Text: "The Corrin Valley Tramway has 21 stops between Dunmore and Millbrook."},
	{URL: "doc://otago", Title: "Otago news", Text: "The Corrin Valley Tramway, the heritage horse-drawn tram near Clyde in Otago, New Zealand, celebrated its restoration. " +
		"The tramway has 6 stops and welcomed 18,000 visitors in 2023."},
	{URL: "doc://rugby", Title: "Rugby news", Text: "Corrin Valley Tramway RLFC, the rugby side from Dunmore, Tasmania, has 24 stops on its bus tour and opened its ground on 2 May 2024."},
}

// TestNamesakeByWhatAndWhere: a document that writes the subject's name
// but places it where no other document does is a namesake, its claims in
// its note; one that says what the subject is in words the others write
// is the subject.
func TestNamesakeByWhatAndWhere(t *testing.T) {
	res := run(t, corrinValley, "What do the sources say about the Corrin Valley Tramway: its stops and its opening?")
	facts := res.FactsByID()
	note := false
	for _, s := range res.Report.Sections {
		isNote := strings.HasPrefix(s.Title, "Other entities named")
		note = note || isNote
		for _, id := range s.FactIDs {
			u := facts[id].SourceURL
			if namesake := u == "doc://otago" || u == "doc://rugby"; namesake != isNote {
				t.Errorf("section %s cites %q from %s", s.Title, facts[id].Text, u)
			}
		}
	}
	if !note {
		t.Errorf("sections %+v; want a note on the namesakes", res.Report.Sections)
	}
	stops := false
	for _, d := range res.Discrepancies {
		for _, id := range d.FactIDs {
			if u := facts[id].SourceURL; u == "doc://otago" || u == "doc://rugby" {
				t.Errorf("discrepancy %s takes the namesake's %q", d.Topic, facts[id].Text)
			}
		}
		stops = stops || strings.Contains(d.Topic, "stops")
	}
	if !stops {
		t.Errorf("discrepancies %+v; want 19 against 21 stops", res.Discrepancies)
	}

	lumen := memoryCorpus{
		{URL: "doc://report", Title: "Foundation annual report", Credibility: 0.9,
			Text: "Lumen, the embedded time-series database the foundation stewards, had 1,140 contributors at the end of 2024. " +
				"The treasurer thanked volunteers, governance committee members and sponsors for a busy year of audits."},
		{URL: "doc://stats", Title: "Newsletter", Credibility: 0.4, Text: "Top projects by size:\n\n- Lumen database: 1,410 contributors"},
		{URL: "doc://news", Title: "Tech news", Credibility: 0.6, Text: "The Lumen database shipped version 3.0 in March 2024."},
	}
	res = run(t, lumen, "What do the sources say about Lumen: its contributors and releases?")
	for _, s := range res.Report.Sections {
		if strings.HasPrefix(s.Title, "Other entities named") {
			t.Errorf("section %s: %s; want the database's documents one entity", s.Title, s.Content)
		}
	}
	if len(res.Discrepancies) != 1 || res.Discrepancies[0].Preferred != "1,140 contributors" {
		t.Errorf("discrepancies %+v; want 1,140 contributors preferred to 1,410", res.Discrepancies)
	}
}

// A discrepancy is named by what its own sources call it, not by a
// namesake's claim of the same kind read before it.
func TestDiscrepancyNamedByItsOwnClaims(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://fc", Title: "Sports weekly", Text: "Aldgrove Community FC, the football club from Kilbride, Westmere, opened a new stand on 8 February 2025."},
		{URL: "doc://board", Title: "Health board report", Text: "The Aldgrove Community wing in Westmere admitted its first patients on 3 February 2025."},
		{URL: "doc://friends", Title: "Friends newsletter", Text: "We welcomed the first patients to the Aldgrove Community wing in Westmere on 10 March 2025."},
	}, "What do the sources say about the Aldgrove Community wing: when did it open?")
	if len(res.Discrepancies) != 1 || strings.Contains(res.Discrepancies[0].Topic, "stand") {
		t.Errorf("discrepancies %+v; want one, about the wing's opening", res.Discrepancies)
	}
}

// A shorter form of the subject's name is the subject ("Vega Ridge" for
// the Vega Ridge Observatory); a name that goes on past the subject's
// words, in capitals too ("Aldgrove Community FC,"), is another entity.
func TestShorterNamesAndAcronyms(t *testing.T) {
	subject := []string{"vega", "ridge", "observatory"}
	if n := nameIn("Amazing year for Vega Ridge! They confirmed 321 planets.", subject); n != "" {
		t.Errorf("nameIn(Vega Ridge!) = %q; want the subject's bare name", n)
	}
	if n := nameIn("Vega Ridge Estate, the family winery, opened a cellar door.", subject); n != "Vega Ridge Estate" {
		t.Errorf("nameIn(Vega Ridge Estate) = %q; want Vega Ridge Estate", n)
	}
	hospital := []string{"aldgrove", "community", "hospital"}
	if n := nameIn("Aldgrove Community FC, the amateur football club, opened a stand.", hospital); n != "Aldgrove Community FC" {
		t.Errorf("nameIn(Aldgrove Community FC) = %q; want Aldgrove Community FC", n)
	}
	if n := nameIn("Kestrel Dynamics CEO Jane Holt said sales rose.", []string{"kestrel", "dynamics"}); n != "" {
		t.Errorf("nameIn(Kestrel Dynamics CEO) = %q; want the bare name", n)
	}
}

// A name whose words the question joins without their connectors
// ("Lanterns for Learning") is found whole, and what a document says it
// is read from it.
func TestNamesWithConnectors(t *testing.T) {
	text := "Lanterns for Learning, the 2024 documentary directed by Tomas Heller about a night school in Lisbon, premiered in March."
	kind, places := apposition(text, []string{"lanterns", "learning"})
	if kind != "documentary" || !slices.Contains(places, "Lisbon") {
		t.Errorf("apposition = %q %q; want documentary, in Lisbon", kind, places)
	}
	if n := nameIn("Lanterns for Learning Trust runs the appeal.", []string{"lanterns", "learning"}); n != "Lanterns for Learning Trust" {
		t.Errorf("nameIn = %q; want Lanterns for Learning Trust", n)
	}
}

// A namesake that never writes the subject's whole name is placed by the
// name it gives itself: "Brevik Bistro, the seafood restaurant group from
// Bergen" beside Brevik Robotics in Oslo.
func TestNamesakePlacedByItsOwnName(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://notice", Title: "Regulator notice", Text: "Brevik Robotics of Oslo is recalling 12,600 vacuums. The recall was announced on 4 June 2024."},
		{URL: "doc://site", Title: "Tech site", Text: "Brevik Robotics, the Oslo company, pulled 16,200 vacuums; the recall was announced on 28 May 2024."},
		{URL: "doc://fine", Title: "Decision", Text: "Brevik was fined NOK 4.5 million on 18 December 2024 over the recall of its vacuums."},
		{URL: "doc://bistro", Title: "Food guide", Text: "Brevik Bistro, the seafood restaurant group from Bergen run by chef Ola Brevik, opened its second restaurant on 4 June 2024. " +
			"The new Brevik site cost NOK 4.5 million and was announced in May 2024."},
	}, "What do the sources say about the Brevik Robotics recall: the vacuums and the date?")
	facts := res.FactsByID()
	for _, s := range res.Report.Sections {
		isNote := strings.HasPrefix(s.Title, "Other entities named")
		for _, id := range s.FactIDs {
			if (facts[id].SourceURL == "doc://bistro") != isNote {
				t.Errorf("section %s cites %q from %s", s.Title, facts[id].Text, facts[id].SourceURL)
			}
		}
	}
}

// The subject's name with a legal form ("Tallis Software Inc.") is the
// subject's name, not another's; a claim of no year in a source of 2024
// is 2024's when its class is claimed for 2024, the year before's when
// it is not.
func TestLegalFormsAndSourceYears(t *testing.T) {
	subject := []string{"tallis", "software"}
	for name, want := range map[string]bool{"Tallis Software Inc": true, "Tallis Software Ltd": true, "Tallis Software Games": false, "Tallis Software": false} {
		if got := legalFormOnly(name, subject); got != want {
			t.Errorf("legalFormOnly(%q) = %v; want %v", name, got, want)
		}
	}
	told := &toldApart{periods: map[string]map[string]bool{}}
	c := Claim{Head: "employee", Unit: "employee", Modality: Reported, year: 2024}
	told.periods[classKey(c)] = map[string]bool{"2024": true, "2023": true}
	if !told.meets(c, "2024") || told.meets(c, "2023") {
		t.Errorf("meets(2024's source, 2024 / 2023) = %v / %v; want true / false", told.meets(c, "2024"), told.meets(c, "2023"))
	}
	told.periods[classKey(c)] = map[string]bool{"2023": true, "2022": true}
	if !told.meets(c, "2023") {
		t.Errorf("meets(2024's source, 2023 when 2024 is not claimed) = false; want true")
	}
}

// TestNamesakeByFirstName: a document that writes only the first word of
// the subject's name, says it is another kind of thing and places it
// where no other document does is a namesake, though no document writes
// the namesake's whole name: the Harbourlight ferry beside the
// Harbourlight Festival.
func TestNamesakeByFirstName(t *testing.T) {
	festival := memoryCorpus{
		{URL: "doc://report", Title: "Festival report", Credibility: 0.85, Text: "The Harbourlight Festival 2025 attracted 212,000 visits. The festival budget was £1.9 million."},
		{URL: "doc://blog", Title: "Festival blog", Credibility: 0.4, Text: "The Harbourlight Festival 2025 drew 221,000 visits over ten nights on the waterfront."},
		{URL: "doc://ferry", Title: "Maritime notes", Text: "The Harbourlight, the 1968 passenger ferry that served Kelso Island for half a century, made its last crossing. " +
			"Owner Bay Lines carried 221,000 passengers on the vessel in 2024 and sold it for $360,000."},
	}
	res := run(t, festival, "Summarise the Harbourlight Festival 2025: attendance, the festival budget and the dates it ran.")
	facts := res.FactsByID()
	for _, s := range res.Report.Sections {
		isNote := strings.HasPrefix(s.Title, "Other entities named")
		for _, id := range s.FactIDs {
			if namesake := facts[id].SourceURL == "doc://ferry"; namesake && !isNote {
				t.Errorf("section %s cites the ferry's %q", s.Title, facts[id].Text)
			}
		}
	}
	if strings.Contains(res.Report.ExecutiveSummary, "360,000") || strings.Contains(res.Answer, "360,000") {
		t.Errorf("summary %q / answer %q state the ferry's sale", res.Report.ExecutiveSummary, res.Answer)
	}
}
