package research

import (
	"strings"
	"testing"

	rs "github.com/quarry-dev/quarry/research"
)

// ormsby has a namesake of the very same name, told apart only by where
// its documents put it: a dateline in Ontario, and a document that
// writes the bare name and is most like the Ontario one.
var ormsby = memoryCorpus{
	dated("doc://review", "Annual review", 0.9, "2025-01-30",
		"The 2024 Ormsby Festival ran on Castle Meadows in Ormsby, North Yorkshire. Attendance over the three days reached 62,000. The Ormsby Arts Trust thanks Hannah Pike."),
	dated("doc://courier", "Courier", 0.6, "2024-07-23", "A crowd of 58,500 passed through the gates of Castle Meadows for the Ormsby Festival."),
	dated("doc://council", "Council report", 0.7, "2024-11-12", "The Trust reports 62,000 attendees at the Ormsby Festival on Castle Meadows."),
	dated("doc://echo", "Echo", 0.6, "2024-07-22",
		"ORMSBY, Ont. — The Ormsby Festival, this hamlet's fair of pies and fiddle music, drew 6,200 visitors to the township fairground."),
	dated("doc://echo2", "Echo", 0.6, "2024-10-09",
		"The township kept its grant to the Ormsby Festival, whose fair of pies and fiddle music drew 6,200 visitors to the fairground."),
}

// dated is a passage of a document with its title, credibility and date.
func dated(url, title string, credibility float64, published, text string) Passage {
	return Passage{URL: url, Title: title, Credibility: credibility, Published: day(published), Text: text}
}

// sideValues are a discrepancy's values, side by side.
func sideValues(d rs.Discrepancy) []string {
	var values []string
	for _, s := range d.Sides {
		values = append(values, s.Value)
	}
	return values
}

// TestNamesakeOfOneNameToldByPlace: a namesake of the subject's exact
// name stays in its note and out of the subject's discrepancies, and a
// document that places the subject where its own documents do (Castle
// Meadows, Marrowfield) is the subject's.
func TestNamesakeOfOneNameToldByPlace(t *testing.T) {
	res := run(t, ormsby, "What do the sources say about the Ormsby Festival's attendance?")
	facts := res.FactsByID()
	ontario := func(url string) bool { return strings.HasPrefix(url, "doc://echo") }
	note := false
	for _, s := range res.Report.Sections {
		isNote := strings.HasPrefix(s.Title, "Other entities named")
		note = note || isNote
		for _, id := range s.FactIDs {
			if ontario(facts[id].SourceURL) != isNote {
				t.Errorf("section %s cites %q from %s", s.Title, facts[id].Text, facts[id].SourceURL)
			}
		}
	}
	if !note {
		t.Errorf("sections %+v; want a note on the Ontario festival", res.Report.Sections)
	}
	if len(res.Discrepancies) != 1 {
		t.Fatalf("discrepancies %+v; want one, 62,000 against 58,500", res.Discrepancies)
	}
	for _, id := range res.Discrepancies[0].FactIDs {
		if ontario(facts[id].SourceURL) {
			t.Errorf("discrepancy takes the namesake's %q", facts[id].Text)
		}
	}
	if got := placeOf("MARROWFIELD, Vt. — Tessaly College today announced a gift.", []string{"tessaly", "college"}); got != "marrowfield vt" {
		t.Errorf("placeOf(dateline) = %q; want marrowfield vt", got)
	}
	if got := placeOf("Merrow Airport in north-west Tasmania will receive $2.2 million.", []string{"merrow", "airport"}); got != "tasmania" {
		t.Errorf("placeOf(in a place) = %q; want tasmania", got)
	}
}

// TestNamedGroupSharingNamesIsTheSubject: a document that names the
// subject more fully ("Sable Ridge Mine") and the same people is the
// subject's, not a namesake's.
func TestNamedGroupSharingNamesIsTheSubject(t *testing.T) {
	corpus := memoryCorpus{
		dated("doc://report", "Annual report", 0.9, "2025-03-27",
			"Sable Ridge employed 640 people at December 31, 2024. Chief executive Miriam Okafor praised the Tully Lake team."),
		dated("doc://release", "Press release", 0.75, "2023-11-13",
			"The Sable Ridge Mine poured its first gold bar. CEO Miriam Okafor said the Sable Ridge Mine would employ about 600 people."),
	}
	res := run(t, corpus, "What do the sources say about Sable Ridge's workforce?")
	for _, s := range res.Report.Sections {
		if strings.HasPrefix(s.Title, "Other entities named") {
			t.Errorf("section %s: the Sable Ridge Mine is the subject, not a namesake", s.Title)
		}
	}
}
