package research

import (
	"regexp"
	"strings"
	"testing"

	rs "github.com/quarry-dev/quarry/research"
)

func sideValues(d rs.Discrepancy) string {
	var vs []string
	for _, s := range d.Sides {
		vs = append(vs, s.Value)
	}
	return strings.Join(vs, "|")
}

// citeMarkRE is a citation marker in a briefing's text.
var citeMarkRE = regexp.MustCompile(`\[cite:[^\]]*\]`)

// leaksOf reports, for a result, every claim of the namesake's
// documents cited outside its note or in a discrepancy, and whether the
// executive summary or the answer states one of the namesake's figures.
func leaksOf(t *testing.T, res *rs.Result, namesake []string, figures ...string) {
	t.Helper()
	facts := res.FactsByID()
	of := func(id string) bool {
		for _, u := range namesake {
			if facts[id].SourceURL == u {
				return true
			}
		}
		return false
	}
	for _, s := range res.Report.Sections {
		isNote := strings.HasPrefix(s.Title, "Other entities named")
		for _, id := range s.FactIDs {
			if of(id) != isNote {
				t.Errorf("section %s cites %q from %s", s.Title, facts[id].Text, facts[id].SourceURL)
			}
		}
	}
	for _, d := range res.Discrepancies {
		for _, id := range d.FactIDs {
			if of(id) {
				t.Errorf("discrepancy %s takes the namesake's %q", d.Topic, facts[id].Text)
			}
		}
	}
	// a citation's random id may hold the figure's digits ("…fd2358120e83")
	summary, answer := citeMarkRE.ReplaceAllString(res.Report.ExecutiveSummary, ""), citeMarkRE.ReplaceAllString(res.Answer, "")
	for _, f := range figures {
		if strings.Contains(summary, f) || strings.Contains(answer, f) {
			t.Errorf("summary %q / answer %q state the namesake's %s", res.Report.ExecutiveSummary, res.Answer, f)
		}
	}
}

// TestNamesakeByPlaceNotLegalForm: "Halvard Orbital Inc" and "Halvard
// Orbital" are one company though another legal form of the name is
// about: the Leeds "Halvard Orbital Ltd" is told apart by the place its
// document gives it, which no other document writes, so the launch date
// the company's own release and the news disagree on is a discrepancy,
// and the namesake's staff are no side of one.
func TestNamesakeByPlaceNotLegalForm(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://release", Title: "Halvard Orbital Inc press release", Credibility: 0.75,
			Text: "Halvard Orbital Inc launched its Kite-3 satellite on 3 March 2025 from Vandenberg. The Tucson company employs 5,400 people, chief executive Maya Ortiz said."},
		{URL: "doc://filing", Title: "Halvard Orbital Inc annual report", Credibility: 0.9,
			Text: "Halvard Orbital Inc. launched the Kite-3 satellite on 3 March 2025. Halvard Orbital employs 5,400 people at its Tucson plant, chief executive Maya Ortiz wrote."},
		{URL: "doc://news", Title: "Space news", Credibility: 0.6,
			Text: "Halvard Orbital launched its Kite-3 satellite on 13 March 2025, chief executive Maya Ortiz told reporters in Tucson."},
		{URL: "doc://leeds", Title: "Halvard Orbital Ltd: about us",
			Text: "Halvard Orbital Ltd of Leeds, England, makes telescope mounts for amateur astronomers. Halvard Orbital Ltd employs 2,900 people and launched its Kite-3 mount on 2 June 2025."},
	}, "What do the sources say about Halvard Orbital: its staff and when it launched the Kite-3 satellite?")
	leaksOf(t, res, []string{"doc://leeds"}, "2,900")
	launch := false
	for _, d := range res.Discrepancies {
		launch = launch || strings.Contains(d.Preferred, "3 March 2025") && strings.Contains(sideValues(d), "13 March 2025")
	}
	if !launch {
		t.Errorf("discrepancies %+v; want 3 March 2025 preferred to 13 March 2025", res.Discrepancies)
	}
}

// TestNamesakeInAPlace: "the Greywater Festival in Greywater,
// Saskatchewan" is another festival where the question and the other
// documents put it nowhere; its visitors are no side of the attendance
// the subject's sources disagree on.
func TestNamesakeInAPlace(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://organiser", Title: "Greywater Festival press release", Credibility: 0.75,
			Text: "The Greywater Festival welcomed 42,000 people to the shores of Ullswater in 2025, festival director Hannah Lowther said."},
		{URL: "doc://council", Title: "Council licensing report", Credibility: 0.85,
			Text: "The Greywater Festival near Pooley Bridge reported an attendance of 42,000 people in 2025."},
		{URL: "doc://blog", Title: "Gig blog", Credibility: 0.4,
			Text: "The Greywater Festival by Ullswater drew an attendance of 24,000 people in 2025."},
		{URL: "doc://prairie", Title: "Greywater Festival news",
			Text: "The Greywater Festival in Greywater, Saskatchewan, reported an attendance of 3,100 people in 2025. The one-day fair cost C$48,000 to stage."},
	}, "What do the sources say about the Greywater Festival in Cumbria: its attendance in 2025 and what it cost?")
	leaksOf(t, res, []string{"doc://prairie"}, "3,100", "48,000")
}

// TestSubjectFactSheetStaysTheSubjects: the subject's fact sheet, laid
// out like the namesake's profile, names the chief executive the
// subject's news names and stays the subject's; the namesake's release,
// which writes the bare name, goes with its profile by the managing
// director only they name.
func TestSubjectFactSheetStaysTheSubjects(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://notice", Title: "Corvane Logistics notice", Credibility: 0.85,
			Text: "Corvane Logistics disclosed the data breach on 18 March 2025. The breach affected 318,000 customers, chief executive Marcus Delaney said."},
		{URL: "doc://sheet", Title: "Corvane Logistics fact sheet", Credibility: 0.85,
			Text: "Headquarters: Columbus, Ohio\n\nFounded: 1971\n\nEmployees: 5,400\n\nChief executive: Marcus Delaney\n\nRevenue: $1.9 billion"},
		{URL: "doc://news", Title: "Business journal", Credibility: 0.6,
			Text: "Corvane Logistics said the breach affected 381,000 customers. Chief executive Marcus Delaney said Corvane Logistics employs 5,400 people in Columbus."},
		{URL: "doc://profile", Title: "Corvane Logistics company profile",
			Text: "Corvane Logistics Pty Ltd of Perth, Western Australia, hauls mining equipment.\n\nFounded: 1994\n\nEmployees: 2,900\n\nManaging director: Sienna Whitlam\n\nRevenue: A$780 million"},
		{URL: "doc://contract", Title: "Corvane Logistics news",
			Text: "Corvane Logistics signed a contract worth A$210 million with Karrak Minerals, managing director Sienna Whitlam said. The contract adds 260 drivers."},
	}, "Give me a briefing on the Corvane Logistics data breach: how many customers were affected, and the company's staff.")
	leaksOf(t, res, []string{"doc://profile", "doc://contract"}, "2,900", "260 drivers")
	facts := res.FactsByID()
	for _, s := range res.Report.Sections {
		if strings.HasPrefix(s.Title, "Other entities named") {
			for _, id := range s.FactIDs {
				if facts[id].SourceURL == "doc://sheet" {
					t.Errorf("note cites the subject's fact sheet: %q", facts[id].Text)
				}
			}
		}
	}
}

// TestNamesakeSaysWhereAndWhatItIs: a namesake's "About us" that gives
// its headquarters in a field, and one that writes the start of the
// subject's name and says with a copula what it is and where ("Kestle
// Moor is a walkers' café in Hebden Bridge"), are namesakes: their staff
// and their fun run are no sides of the subject's discrepancies.
func TestNamesakeSaysWhereAndWhatItIs(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://sheet", Title: "Orlen Kitchenware fact sheet", Credibility: 0.85,
			Text: "Headquarters: Minneapolis, Minnesota\n\nEmployees: 3,100\n\nChief executive: Priya Raman"},
		{URL: "doc://news", Title: "Star Tribune", Credibility: 0.6,
			Text: "Minneapolis-based Orlen Kitchenware recalled 84,000 pressure cookers. Orlen Kitchenware employs 3,100 people, chief executive Priya Raman said."},
		{URL: "doc://about", Title: "Orlen Kitchenware: about us",
			Text: "Headquarters: Leicester, United Kingdom\n\nEmployees: 420\n\nOrlen Kitchenware designs enamel casserole dishes."},
	}, "Give me a briefing on Orlen Kitchenware: its recall and its staff.")
	leaksOf(t, res, []string{"doc://about"}, "420")

	res = run(t, memoryCorpus{
		{URL: "doc://report", Title: "Kestle Moor Half Marathon Association report", Credibility: 0.85,
			Text: "The Kestle Moor Half Marathon raised £186,000 for charity in 2025, race director Tom Enderby said."},
		{URL: "doc://blog", Title: "Running blog", Credibility: 0.4,
			Text: "The Kestle Moor Half Marathon raised £168,000 for charity in 2025."},
		{URL: "doc://cafe", Title: "Café news",
			Text: "Kestle Moor is a walkers' café in Hebden Bridge, West Yorkshire. Its fun run raised £2,400 for charity in 2025."},
	}, "What do the sources say about the Kestle Moor Half Marathon: how much it raised for charity in 2025?")
	leaksOf(t, res, []string{"doc://cafe"}, "2,400")
}

// TestNamesakeKindBeforeItsName: "the steam trawler Aldermoor" says
// what it is before the name, as "Aldermoor, a steam trawler," would
// after it; a container ship's documents write no trawler, so the
// trawler's crew and gear are its note's, not the ship's.
func TestNamesakeKindBeforeItsName(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://report", Title: "Accident report", Credibility: 0.85,
			Text: "The container ship Aldermoor lost 37 containers overboard in the storm, the inspectors found. The Aldermoor ran aground on 14 September 2025."},
		{URL: "doc://news", Title: "News", Credibility: 0.6,
			Text: "The Aldermoor lost 73 containers overboard in the storm. The Aldermoor ran aground on 14 September 2025, the harbour master said."},
		{URL: "doc://court", Title: "Court report", Credibility: 0.7,
			Text: "The Aldermoor lost 37 containers overboard, the court heard."},
		{URL: "doc://wreck", Title: "Wreck survey",
			Text: "The steam trawler Aldermoor, built in Selby in 1912, foundered in a storm in 1931. The survey found 73 pieces of her gear overboard around the hull."},
	}, "What do the sources say about the Aldermoor grounding: the containers lost overboard and when she ran aground?")
	leaksOf(t, res, []string{"doc://wreck"})
}

// TestNamesakeOfAnotherKindThoughAlike: the question asks about a tram;
// a ferry operator of the name, written in the words of a transport
// report, is not the tram because its words are alike.
func TestNamesakeOfAnotherKindThoughAlike(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://council", Title: "Council report", Credibility: 0.85,
			Text: "The Nordway tram opened on 14 September 2025. The line has 18 stops and carried 41,000 passengers in its first month."},
		{URL: "doc://news", Title: "News", Credibility: 0.6,
			Text: "The Nordway tram opened on 14 September 2025. The line has 21 stops and carried 41,000 passengers in its first month."},
		{URL: "doc://ferry", Title: "Operator news",
			Text: "Nordway, the ferry operator, opened a terminal on 3 May 2025. The line has 6 stops and carried 12,500 passengers in its first month."},
	}, "What happened to the Nordway tram: its stops, its passengers and its opening?")
	leaksOf(t, res, []string{"doc://ferry"}, "12,500")
}

// TestNamesakeOfTheSubjectsOtherName: the Pellworth bike-share scheme is
// PellBike in its documents; "PellBike Brewing, the craft brewery in
// Hobart, Tasmania" in a document that never names Pellworth is a
// namesake of that other name, its barrels no bikes of the scheme.
func TestNamesakeOfTheSubjectsOtherName(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://council", Title: "Cabinet paper", Credibility: 0.85,
			Text: "Pellworth's PellBike, the city's bike-share scheme, launched on 6 May 2023 with 1,200 bikes."},
		{URL: "doc://campaign", Title: "Cycling campaign", Credibility: 0.4,
			Text: "The PellBike scheme in Pellworth has 2,100 bikes, the campaign said."},
		{URL: "doc://brewery", Title: "Beer review",
			Text: "PellBike Brewing, the craft brewery in Hobart, Tasmania, opened its taproom on 6 May 2024. The brewery owns 1,300 bikes and barrels."},
	}, "What do the sources say about the Pellworth bike-share scheme: the number of bikes and its launch date?")
	leaksOf(t, res, []string{"doc://brewery"}, "1,300")
}

// TestNamesakeByFirstAndLastWord: "Ashcombe Library, the community
// library in Ashcombe, Somerset" is not the Ashcombe Public Library in
// Oregon, though it writes the name without its middle word.
func TestNamesakeByFirstAndLastWord(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://library", Title: "Library news", Credibility: 0.85,
			Text: "The Ashcombe Public Library reopened on 6 September 2025 after its renovation, and volunteers moved 212,000 books, director Maribel Okafor said."},
		{URL: "doc://paper", Title: "Ashcombe Courier", Credibility: 0.6,
			Text: "The Ashcombe Public Library in Oregon reopened on 6 September 2025; volunteers moved 122,000 books back onto the shelves."},
		{URL: "doc://village", Title: "Library news",
			Text: "Ashcombe Library, the community library in Ashcombe, Somerset, reopened on 20 September 2025 after its renovation. Volunteers moved 18,000 books."},
	}, "What do the sources say about the renovation of the Ashcombe Public Library: how many books were moved and when it reopened?")
	leaksOf(t, res, []string{"doc://village"}, "18,000")
}

// TestNamesakeByItsLongerNameAndLaterMention: "Kessington Spring Water
// Co., the family-owned bottler based in Kessington, Vermont" is read by
// the longer name it writes at its first mention, though it writes the
// bare name more often; and a document whose first mention says nothing
// ("another Aldermoor sank") says what it is at a later one ("The steam
// trawler Aldermoor").
func TestNamesakeByItsLongerNameAndLaterMention(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://notice", Title: "City notice", Credibility: 0.85,
			Text: "The Kessington boil-water advisory covered 18,400 households and was lifted on 14 March 2025."},
		{URL: "doc://tv", Title: "TV news", Credibility: 0.6,
			Text: "The Kessington boil-water advisory affected 14,800 households, a spokesperson said. It was lifted on 14 March 2025."},
		{URL: "doc://bottler", Title: "Trade weekly",
			Text: "Kessington Spring Water Co., the family-owned bottler based in Kessington, Vermont, has opened a second line. Spring water from Kessington has been bottled since 1911, and Kessington water now reaches 12,500 households in New England."},
	}, "What do the sources say about the Kessington boil-water advisory: how many households were affected and when it was lifted?")
	leaksOf(t, res, []string{"doc://bottler"}, "12,500")

	res = run(t, memoryCorpus{
		{URL: "doc://report", Title: "Accident report", Credibility: 0.85,
			Text: "The container ship Aldermoor lost 37 containers overboard in the storm, the inspectors found."},
		{URL: "doc://news", Title: "News", Credibility: 0.6,
			Text: "The Aldermoor lost 73 containers overboard in the storm, the harbour master said."},
		{URL: "doc://court", Title: "Court report", Credibility: 0.7,
			Text: "The Aldermoor lost 37 containers overboard, the court heard."},
		{URL: "doc://dive", Title: "Dive magazine",
			Text: "Long before the modern ship came to grief, another Aldermoor sank here. The steam trawler Aldermoor foundered in a storm in 1931. Divers found 73 pieces of her gear overboard around the hull."},
	}, "What do the sources say about the Aldermoor grounding: the containers lost overboard?")
	leaksOf(t, res, []string{"doc://dive"})
}

// TestSubjectsReleaseSaysWhereItIsRegistered: the coastguard's release
// says the ship is "a feeder vessel registered in Madeira", a place no
// other document writes, but names the headland and the port the
// subject's documents name: it is the subject's, and the subject is a
// vessel. The steam trawler of the name, which names the headland once,
// is another kind of thing and stays a namesake.
func TestSubjectsReleaseSaysWhereItIsRegistered(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://coastguard", Title: "HM Coastguard press release", Credibility: 0.85,
			Text: "The Aldermoor, a feeder vessel registered in Madeira, ran aground off Skelby Point and lost 37 containers overboard. She was towed to Port Tynemouth."},
		{URL: "doc://news", Title: "News", Credibility: 0.6,
			Text: "The Aldermoor lost 73 containers overboard off Skelby Point, and was towed to Port Tynemouth, the harbour master said."},
		{URL: "doc://court", Title: "Court report", Credibility: 0.7,
			Text: "The Aldermoor lost 37 containers overboard off Skelby Point before she reached Port Tynemouth, the court heard."},
		{URL: "doc://dive", Title: "Dive magazine",
			Text: "Long before the modern ship came to grief at Skelby Point, another Aldermoor sank here. The steam trawler Aldermoor foundered in a storm in 1931. The Whitby Sub-Aqua Club found 73 pieces of her gear overboard."},
	}, "What do the sources say about the Aldermoor grounding: the containers lost overboard?")
	leaksOf(t, res, []string{"doc://dive"})
	lost := false
	for _, d := range res.Discrepancies {
		lost = lost || strings.Contains(sideValues(d), "37 containers") && strings.Contains(sideValues(d), "73 containers")
	}
	if !lost {
		t.Errorf("discrepancies %+v; want 37 containers against 73", res.Discrepancies)
	}
}

// TestNamesakeOfTwoDocuments: a namesake's second document, which writes
// its place but not the subject's whole name, neither vouches that the
// place is the subject's nor stays with the subject: it states the
// namesake's day and cost, which no document of the subject states.
func TestNamesakeOfTwoDocuments(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://library", Title: "Library news", Credibility: 0.85,
			Text: "The Ashcombe Public Library reopened on 6 September 2025 after its renovation, and volunteers moved 212,000 books, director Maribel Okafor said."},
		{URL: "doc://paper", Title: "Ashcombe Courier", Credibility: 0.6,
			Text: "The Ashcombe Public Library reopened on 6 September 2025; volunteers moved 122,000 books back onto the shelves."},
		{URL: "doc://audit", Title: "City audit", Credibility: 0.9,
			Text: "The renovation of the Ashcombe Public Library cost $7.8 million; the library reopened on 6 September 2025."},
		{URL: "doc://village", Title: "Library news",
			Text: "Ashcombe Library, the community library in Ashcombe, Somerset, reopened on 20 September 2025 after a £240,000 refurbishment. Volunteers moved 18,000 books."},
		{URL: "doc://county", Title: "County notice",
			Text: "Ashcombe Library will reopen on 20 September 2025. The county paid £150,000 of the £240,000 cost; it is one of 17 community libraries in Somerset."},
	}, "What do the sources say about the renovation of the Ashcombe Public Library: how many books were moved, what it cost and when it reopened?")
	leaksOf(t, res, []string{"doc://village", "doc://county"}, "18,000", "150,000", "240,000")
}

// TestNoDiscrepancyOfANamesake: the coworking space's two documents give
// it different members; that is told in its note, not weighed among the
// briefing's discrepancies, which are the housing scheme's.
func TestNoDiscrepancyOfANamesake(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://council", Title: "Council report", Credibility: 0.85,
			Text: "The Lantern Quay housing development in Portsmouth has 412 homes and 96 members in its residents' association in 2025."},
		{URL: "doc://news", Title: "News", Credibility: 0.6,
			Text: "The Lantern Quay housing development in Portsmouth has 421 homes, the developer said."},
		{URL: "doc://open", Title: "Lantern Quay news",
			Text: "Lantern Quay, a coworking space on the Dundee waterfront, had 120 members in 2025 after a £1.4 million fit-out."},
		{URL: "doc://faq", Title: "Lantern Quay membership questions",
			Text: "How many members do you have? 180 members in 2025. What did the building cost? The fit-out cost £1.4 million, paid for by our founders in Dundee."},
	}, "What do the sources say about the Lantern Quay housing development in Portsmouth: how many homes it has and its members?")
	leaksOf(t, res, []string{"doc://open", "doc://faq"}, "120", "180")
}
