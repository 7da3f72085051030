package research

import (
	"slices"
	"strings"
	"testing"

	rs "github.com/quarry-dev/quarry/research"
)

// Dates on corpora never seen (issue 24, hS-33): a document dated only
// by its masthead's line ("*The Herald, Thursday, October 23, 2025 — by
// ...*"), a day in digits that reads both ways, and one day named as a
// launch by one source and an opening by another.

// TestMastheadDates: a masthead's line dates its document whatever
// else it holds (an outlet, a weekday, a byline, a time, a month alone);
// a sentence that opens with a date does not.
func TestMastheadDates(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"# Packed house\n\n*Marlowe Creek Herald, Thursday, October 23, 2025 — by Dale Prychitko*\n\nText.", "2025-10-23"},
		{"# Fire doubles\n\n*The Valley Courier — Saturday, July 20, 2024*\n\nBy Megan Solberg", "2024-07-20"},
		{"# 41 miners trapped\n\n*South Wales Chronicle — live news, Tuesday 11 February 2025, 14:05*\n\nText.", "2025-02-11"},
		{"# Blog\n\n**20 March 2025 — Our Bright Start experience**\n\nHello.", "2025-03-20"},
		{"# Minutes\n\n**October 2, 2024, 9:00 a.m., County Administration Building, Pine Gap**\n\nPresent: ...", "2024-10-02"},
		{"# A weekend on Venn\n\n*Posted 2 November 2024 on \"Island Hopper\"*\n\nText.", "2024-11-02"},
		{"# Field update\n\n*CSMI Field Blog, posted 3 March 2025 by the survey team*\n\nText.", "2025-03-03"},
		{"Evening Courier / By Dan Reyes | October 22, 2024\n\nHALLOWAY — Drivers streamed across.", "2024-10-22"},
		{"# Fenwick Port reopens\n\n*Riverland Herald — February 2025*\n\nText.", "2025-02-28"},
		{"# Annual review\n\n**Published April 2025**\n\nText.", "2025-04-30"},
		{"# Tour\n\n*Andes Regional News, 30 April 2021 (translated from Spanish)*\n\nText.", "2021-04-30"},
		{"# Plant\n\n3 March 2025 was the day the plant first delivered water to the network.\n", ""},
		{"# Arena\n\nThe arena opened on 11 October 2025 and cost $52.3 million.\n", ""},
	} {
		got := DescribeDocument("doc.md", "", tc.text).Published
		if want := tc.want; got.Format("2006-01-02") != want && !(want == "" && got.IsZero()) {
			t.Errorf("DescribeDocument(%q).Published = %s; want %q", tc.text, got.Format("2006-01-02"), want)
		}
	}
}

// described is a corpus whose passages are dated as a folder's are: by
// what DescribeDocument reads in their text.
func described(docs ...[2]string) memoryCorpus {
	var c memoryCorpus
	for _, d := range docs {
		desc := DescribeDocument(d[0], "", d[1])
		c = append(c, Passage{URL: "doc://" + d[0], Title: d[0], Text: d[1], Credibility: desc.Credibility, Published: desc.Published})
	}
	return c
}

// aldwick is an ice rink a city release and a fact sheet say opened on
// 11 October 2025; a newspaper dated only by its masthead gives the
// Saturday after without its year, and a forum post names the day a
// launch in digits written month first.
var aldwick = described(
	[2]string{"01-city-release.md", "# City of Aldwick news release\n\nDate: 11 October 2025\n\nThe Aldwick Ice Rink opened to the public on October 11, 2025. The rink has 1,200 seats."},
	[2]string{"02-fact-sheet.md", "# Aldwick Ice Rink fact sheet\n\nUpdated: 1 November 2025\n\n- Opened: 10/11/2025\n- Seats: 1,200"},
	[2]string{"03-herald.md", "# Crowds flock to new rink\n\n*Aldwick Herald, Thursday, October 23, 2025 — by Jo Marsh*\n\nThe Aldwick Ice Rink opened to the public on Saturday, Oct. 18, with a free public skate."},
	[2]string{"04-forum.txt", "Aldwick skaters forum\n\nPosted by rinkrat\n\nI was at the big launch of the Aldwick Ice Rink on 10/18/2025, loads of people and the mayor doing speeches."},
)

// TestDatesOnUnseenCorpora: the newspaper's yearless Saturday is read in
// its masthead's year and set against the release's day; the fact
// sheet's "10/11/2025" is October 11 read month first, no conflict; the
// forum's launch is the opening.
func TestDatesOnUnseenCorpora(t *testing.T) {
	res := run(t, aldwick, "What do the sources say about the Aldwick Ice Rink: how many seats, and when did it open?")
	var opening []rs.Discrepancy
	for _, d := range res.Discrepancies {
		v := sidesOf(d)
		if !strings.Contains(v, "October 11, 2025") {
			t.Errorf("discrepancy %s: %s; want only the opening day", d.Topic, v)
			continue
		}
		opening = append(opening, d)
		if strings.Contains(v, "10/11/2025") {
			t.Errorf("discrepancy %s: %s; want 10/11/2025 read as October 11", d.Topic, v)
		}
		if d.Preferred != "October 11, 2025" && d.Preferred != "10/11/2025" {
			t.Errorf("%s: preferred %q (%s); want October 11, 2025", d.Topic, d.Preferred, d.Strategy)
		}
	}
	// The forum's launch stands beside the newspaper's day.
	for _, doc := range []string{"doc://03-herald.md", "doc://04-forum.txt", "doc://02-fact-sheet.md"} {
		if !slices.ContainsFunc(opening, func(d rs.Discrepancy) bool {
			return slices.ContainsFunc(d.FactIDs, func(id string) bool {
				return slices.ContainsFunc(res.Facts, func(f rs.Fact) bool { return f.ID == id && f.SourceURL == doc })
			})
		}) {
			t.Errorf("discrepancies %v; want the opening day of %s among them", topics(res.Discrepancies), doc)
		}
	}
}

// TestDaysInDigitsBothWays: a day in digits that reads both ways is the
// same as either reading, and differs from a day neither reading gives.
func TestDaysInDigitsBothWays(t *testing.T) {
	digits := func(s string) Value {
		vs := Values("It opened " + s + ".")
		if len(vs) != 1 || vs[0].Kind != KindDate {
			t.Fatalf("Values(%q) = %+v; want one date", s, vs)
		}
		return vs[0]
	}
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"10/11/2025", "October 11, 2025", true},
		{"10/11/2025", "10 November 2025", true},
		{"10/03/2025", "3 March 2025", false},
		{"10/03/2025", "10/03/2025", true},
		{"6/21/2025", "June 14, 2025", false},
		{"3/3/2025", "3 March 2025", true},
	} {
		if got := Same(digits(tc.a), digits(tc.b)); got != tc.same {
			t.Errorf("Same(%s, %s) = %v; want %v", tc.a, tc.b, got, tc.same)
		}
	}
}

// TestDaysDoneOrPlanned: a day its verb says was past is reported, even
// when its source is dated before it (a post written the day before
// gets it wrong, and is set against the club's day); a "will" in the
// clause that frames another ("Members will have seen that") makes no
// plan of it.
func TestDaysDoneOrPlanned(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want Modality
	}{
		{"Members will have seen that the Estuary Star entered service on 21 May 2025.", Reported},
		{"The trust said that the ward will open on 3 March 2026.", Planned},
		{"It is expected that the ward opens on 3 March 2026.", Expected},
	} {
		cs := Claims(tc.s, []string{"estuary", "star"})
		if len(cs) != 1 || cs[0].Modality != tc.want {
			t.Errorf("Claims(%q) = %+v; want one date %s", tc.s, cs, tc.want)
		}
	}
	res := run(t, memoryCorpus{
		{URL: "doc://club", Title: "Redcastle Rovers annual report", Credibility: 0.9, Published: day("2025-06-30"),
			Text: "Sam Whitcombe was appointed first-team manager on 4 November 2024."},
		{URL: "doc://paper", Title: "Redcastle Echo", Credibility: 0.6, Published: day("2024-11-05"),
			Text: "Sam Whitcombe was appointed manager yesterday, 4 November 2024."},
		{URL: "doc://podcast", Title: "Fan podcast notes", Credibility: 0.4, Published: day("2024-11-10"),
			Text: "Big week! Sam Whitcombe was appointed manager on 11 November 2024, after three weeks of a caretaker."},
	}, "What do the sources say about Redcastle Rovers: when was Sam Whitcombe appointed manager?")
	wantPreferred(t, res, "4 November 2024", "11 November 2024")
}

// ashby is a new pool a question names without a year; a history
// society's newsletter remembers the town's old pool of another name,
// 1962 to 2021, whose figures are not the new one's.
var ashby = memoryCorpus{
	{URL: "doc://council", Title: "Ashby Town Council news release", Credibility: 0.85, Published: day("2025-05-10"),
		Text: "The Ashby Community Pool opened on 10 May 2025. The pool cost £8.4 million and has 350 spectator seats. In 2025 the pool expects 90,000 swims."},
	{URL: "doc://paper", Title: "Ashby Gazette", Credibility: 0.6, Published: day("2025-05-12"),
		Text: "The new Ashby Community Pool opened to swimmers on 10 May 2025, with 350 seats for spectators. Ashby Swimming Club will train there from June 2025."},
	{URL: "doc://faq", Title: "Ashby Community Pool FAQ", Credibility: 0.7, Published: day("2025-06-01"),
		Text: "When did the Ashby Community Pool open? It opened on 10 May 2025. How much did it cost? £8.4 million, from the council's 2025 budget."},
	{URL: "doc://history", Title: "Ashby History Society newsletter", Credibility: 0.4,
		Text: "# Remembering the Ashby Memorial Pool, 1962–2021\n\nFor sixty years the Ashby Memorial Pool on Mill Lane was where the town learned to swim. " +
			"The pool opened on 2 June 1962 and cost £41,000, raised by the Rotary Club in 1961. It had 120 spectator seats. " +
			"The pool closed in 2021 and was demolished in 2022. The 1962 opening programme is in the Society's collection."},
}

// TestSubjectNamedAfterItsOwner: a name of its own after a possessive is
// the subject, its owner where it is; a name that only qualifies the
// noun after it ("East Asia tour") leaves the subject its owner.
func TestSubjectNamedAfterItsOwner(t *testing.T) {
	for _, tc := range []struct{ q, subject, owner string }{
		{"What do the sources say about Corvena's Saltmarsh Point Desalination Plant: how many homes it can supply and what it cost?", "Saltmarsh Point Desalination Plant", "Corvena"},
		{"What were the results of the Northgate Philharmonic's 2025 East Asia tour: concerts, total audience and cost?", "Northgate Philharmonic", ""},
		{"What happened to Ostrava Wind Partners' Kessel farm: its turbines and its staff?", "Ostrava Wind Partners", ""},
	} {
		if q := parseQuestion(tc.q); q.Subject != tc.subject || q.Owner != tc.owner {
			t.Errorf("parseQuestion(%q) = subject %q owner %q; want %q, %q", tc.q, q.Subject, q.Owner, tc.subject, tc.owner)
		}
	}
}

// brenton is a plant the question places by its owner's name; a paper
// from another town describes the plant of the same name there, and a
// magazine compares the two.
var brenton = memoryCorpus{
	{URL: "doc://minister", Title: "Minister's media statement", Credibility: 0.85, Published: day("2025-03-03"),
		Text: "Brenton's Gull Point Recycling Plant opened on 3 March 2025. The Gull Point Recycling Plant cost $210 million and serves Brenton's 90,000 homes."},
	{URL: "doc://report", Title: "Brenton Water annual report", Credibility: 0.9, Published: day("2025-09-30"),
		Text: "The Gull Point Recycling Plant, Brenton Water's largest asset, opened on 3 March 2025 at a cost of $210 million."},
	{URL: "doc://faq", Title: "Brenton Water FAQ", Credibility: 0.7, Published: day("2025-04-01"),
		Text: "When did the Gull Point Recycling Plant open? On 3 March 2025. It serves 90,000 homes in Brenton."},
	{URL: "doc://magazine", Title: "Water Engineering magazine", Credibility: 0.6, Published: day("2025-04-15"),
		Text: "Brenton's Gull Point Recycling Plant cost $210 million, twice what the older plant at Port Ellery cost."},
	{URL: "doc://courier", Title: "Port Ellery Courier", Credibility: 0.6, Published: day("2024-08-09"),
		Text: "Behind a gate at Gull Point, south of Port Ellery, sits a plant most residents have forgotten. The Gull Point Recycling Plant was built by the water board of Port Ellery. " +
			"It cost $96 million and opened on 19 November 2009. It can supply 9,000 homes in Port Ellery."},
}

// millbrook is a town's bike-share; a paper from a town of the same name
// abroad places itself in its masthead, and the scheme's own FAQ and a
// blog mention that town in an aside.
var millbrook = memoryCorpus{
	{URL: "doc://council", Title: "Millbrook City Council press release", Credibility: 0.85, Published: day("2025-06-14"),
		Text: "Millbrook's CityRide bike-share opened on 14 June 2025 with 800 bikes at 60 stations. Riders made 120,000 trips in the first year."},
	{URL: "doc://paper", Title: "Millbrook Evening Post", Credibility: 0.6, Published: day("2025-06-16"),
		Text: "CityRide, Millbrook's new bike-share, has 800 bikes. Council leader Ann Pike said the scheme cost £7.4 million."},
	{URL: "doc://faq", Title: "CityRide FAQ", Credibility: 0.7, Published: day("2025-07-01"),
		Text: "Is there a CityRide outside Millbrook? A community bike-share in Millbrook, Ontario, uses a similar name. It has no connection with our 800 bikes."},
	{URL: "doc://blog", Title: "Spokes blog", Credibility: 0.4, Published: day("2025-08-01"),
		Text: "CityRide in Millbrook has 800 bikes and I love them. While searching I kept finding another CityRide in Millbrook, Ontario."},
	{URL: "doc://herald", Title: "CityRide turns six", Credibility: 0.6,
		Text: "*The Millbrook Herald (Millbrook, Ontario), community news*\n\nMillbrook's volunteer-run bike-share, CityRide, marked six years this summer. " +
			"It was launched on 3 August 2019 with 40 bikes. Volunteers said around 2,100 trips were logged last season."},
}

// marlin is a reef survey whose fieldwork an institute's release dates,
// beside the day it released its report; a university's news gives
// another day for the survey's start; a namesake's survey in Florida
// began on a day of its own.
var marlin = memoryCorpus{
	{URL: "doc://florida", Title: "NOAA news", Credibility: 0.8, Published: day("2024-06-20"),
		Text: "# NOAA team surveys corals on Marlin Shoal in the Florida Keys\n\nA NOAA team has wrapped up a coral survey at Marlin Shoal, a patch reef in the Florida Keys. The survey began on Saturday, June 8, 2024 and ran for ten days."},
	{URL: "doc://institute", Title: "Coral Sea Monitoring Institute media release", Credibility: 0.75, Published: day("2025-04-16"),
		Text: "Fieldwork on Marlin Shoals Reef began on Monday 17 February 2025 and ran for 19 days. The institute released its survey report on 16 April 2025."},
	{URL: "doc://minutes", Title: "Steering committee minutes", Credibility: 0.85, Published: day("2025-05-01"),
		Text: "The chair reported that fieldwork on Marlin Shoals Reef began on 17 February 2025 and finished on 7 March 2025."},
	{URL: "doc://university", Title: "University news", Credibility: 0.6, Published: day("2025-03-01"),
		Text: "The survey, which began on 27 February 2025, is led by the Coral Sea Monitoring Institute and covers all of Marlin Shoals Reef."},
}

// TestOneEventUnderTwoNames: the survey's start and the fieldwork's are
// one day; the release of a report, another event of the same document,
// tells neither word apart.
func TestOneEventUnderTwoNames(t *testing.T) {
	res := run(t, marlin, "What do the sources say about Marlin Shoals Reef: how many colonies, and when did fieldwork begin?")
	wantPreferred(t, res, "17 February 2025", "27 February 2025")
}

// TestNumbersThatAreNoYears: "Decree 2025/31" is a decree's number, not
// the years 2025 to 2031.
func TestNumbersThatAreNoYears(t *testing.T) {
	for _, tc := range []struct{ s, period string }{
		{"The emergency allocation under Decree 2025/31 is €18.5 million.", "2025"},
		{"PellBike subsidy (2024/25): £1,350,000.", "2025"},
	} {
		cs := Claims(tc.s, []string{"orsana"})
		if len(cs) == 0 || cs[0].Period != tc.period {
			t.Errorf("Claims(%q) = %+v; want period %s", tc.s, cs, tc.period)
		}
	}
}

// calder is an arena whose cost a release and a table give in other
// words; a letter to the town's paper gives another; a paper in another
// town of the same name places itself in its masthead, and the arena's
// FAQ names that town in an aside.
var calder = memoryCorpus{
	{URL: "doc://release", Title: "City of Calder Falls news release", Credibility: 0.85, Published: day("2025-10-11"),
		Text: "The Calder Falls Ice Arena opened on 11 October 2025. The total project cost is $52.3 million."},
	{URL: "doc://table", Title: "Capital projects table", Credibility: 0.85, Published: day("2026-02-01"),
		Text: "Calder Falls Ice Arena: the final audited cost is $52.3 million."},
	{URL: "doc://faq", Title: "Calder Falls Ice Arena FAQ", Credibility: 0.7, Published: day("2025-11-01"),
		Text: "How much did the Calder Falls Ice Arena cost? The total project cost was $52.3 million. Is the arena in Calder Falls, Ontario — no relation — ours? No."},
	{URL: "doc://letter", Title: "Letter to the editor", Credibility: 0.4, Published: day("2025-10-20"),
		Text: "# Letters to the editor\n\nTo the Calder Falls Herald: your paper, the Calder Falls Herald, has not asked why the new rink cost $63 million of public money. Who at the Calder Falls Herald will answer for the arena?"},
	{URL: "doc://ontario", Title: "Rink news", Credibility: 0.6,
		Text: "*Valley Weekly (Calder Falls, Ontario), April 2025*\n\nThe Calder Falls Ice Arena in Ontario cost $4.1 million when it opened on 3 January 1998. It has 900 seats."},
}

// TestLettersAndPapersOfTheSubjectsTown: a letter to the town's paper
// is about the arena, its $63 million against the $52.3 million the
// others give in other words (one figure, no conflict between them);
// the paper placed in Ontario is a namesake's, whatever asides name it.
func TestLettersAndPapersOfTheSubjectsTown(t *testing.T) {
	res := run(t, calder, "What do the sources say about the Calder Falls Ice Arena: what did it cost and when did it open?")
	if !inItsNote(t, res, "doc://ontario") {
		t.Errorf("sections %+v; want a note on the Ontario arena", res.Report.Sections)
	}
	for _, d := range res.Discrepancies {
		if v := sidesOf(d); !strings.Contains(v, "$52.3 million") || !strings.Contains(v, "$63 million") || len(d.Sides) != 2 {
			t.Errorf("discrepancy %s: %s; want $52.3 million against $63 million alone", d.Topic, v)
		}
	}
	if len(res.Discrepancies) != 1 {
		t.Errorf("discrepancies %v; want the cost's alone", topics(res.Discrepancies))
	}
}

// TestUnseenDisagreements: disagreements read in forms no other test
// writes, each with the side to prefer.
//   - The county's health department, named with the county's whole
//     name, speaks for the county: its corrected day is set against the
//     paper's, and wins.
//   - A noun that names what happened dates it with "on" ("since the
//     evacuation order on 2/18/2025"), set against the day the order was
//     given in other words.
func TestUnseenDisagreements(t *testing.T) {
	for _, tc := range []struct {
		corpus                 memoryCorpus
		question, right, wrong string
	}{
		{memoryCorpus{
			{URL: "doc://release", Title: "Health department news release", Credibility: 0.85, Published: day("2025-04-09"),
				Text: "The Harlan County Health Department today declared the county's measles outbreak over, 42 days after the last case."},
			{URL: "doc://paper", Title: "Harlan Courier", Credibility: 0.6, Published: day("2025-04-25"),
				Text: "With the measles outbreak in Harlan County declared over on April 19, 2025, schools say attendance has returned to normal."},
			{URL: "doc://correction", Title: "Harlan Courier correction", Credibility: 0.6, Published: day("2025-04-28"),
				Text: "Correction: the Harlan County Health Department declared the outbreak over on April 9, 2025, not April 19, 2025."},
		}, "What do the sources say about the measles outbreak in Harlan County: when was it declared over?", "April 9, 2025", "April 19, 2025"},
		{memoryCorpus{
			{URL: "doc://report", Title: "Civil protection situation report", Credibility: 0.85, Published: day("2025-02-20"),
				Text: "The evacuation of the 6 km zone around Mount Tarsa ordered on 2025-02-08 was completed on 2025-02-10."},
			{URL: "doc://minutes", Title: "Committee minutes", Credibility: 0.85, Published: day("2025-03-20"),
				Text: "The Director reported that Mount Tarsa's 6 km zone was evacuated following the order of 8 February 2025."},
			{URL: "doc://blog", Title: "Expat blog", Credibility: 0.4, Published: day("2025-03-01"),
				Text: "Since the evacuation order on 2/18/2025, life near Mount Tarsa has changed completely."},
		}, "What do the sources say about the Mount Tarsa evacuation: when was the evacuation ordered?", "2025-02-08", "2/18/2025"},
	} {
		wantPreferred(t, run(t, tc.corpus, tc.question), tc.right, tc.wrong)
	}
}

// TestInformalByTheirHeading: a letter, a leaflet, a wiki, a column of
// gossip are told by their heading, as blogs are, below a paper's own
// news; "ten minutes" in a travel blog makes no minutes of a meeting.
func TestInformalByTheirHeading(t *testing.T) {
	for _, tc := range []struct{ name, text string }{
		{"06-letter-to-editor.md", "# Letter: Taxpayers deserve straight answers on arena\n\n*Marlowe Creek Herald, October 20, 2025*\n\nSir — the arena cost $63 million."},
		{"05-campaign-leaflet.txt", "SAVE ASHCOMBE HOSPITAL SERVICES\nLeaflet distributed in Ashcombe town centre, February 2025\n\nThe wing cost £64.2 million."},
		{"05-community-wiki.md", "# Saltmarsh Point Desalination Plant\n\n*From CorvenaWiki, the community-edited encyclopedia.*\n\nThe plant opened on 13 March 2025."},
		{"06-travel-blog.md", "# Northbound Notes — I flew from the shiny new terminal\n\nCheck-in took ten minutes and the terminal cost £168m."},
	} {
		if d := DescribeDocument(tc.name, "", tc.text); d.Credibility > 0.4 {
			t.Errorf("DescribeDocument(%s) = %s %.2f; want a blog's 0.40 at most", tc.name, d.Kind, d.Credibility)
		}
	}
}

// TestNamesakesOfUnseenKinds: each corpus's namesake document is kept
// in its note, and nothing of it is weighed against the subject's.
//   - ashby: a question of no year is of the year its documents write
//     most; the old pool's document, of a year decades before, is a
//     namesake's.
//   - brenton: the owner the question names is where the subject is;
//     the paper that never writes it and writes another town is a
//     namesake's, though one other document names that town too.
//   - millbrook: the paper that places itself in another region is a
//     namesake's; the asides that name that region do not make it the
//     subject's.
func TestNamesakesOfUnseenKinds(t *testing.T) {
	for _, tc := range []struct {
		corpus             memoryCorpus
		question, namesake string
	}{
		{ashby, "What do the sources say about the new Ashby Community Pool: its cost, its seats and when it opened?", "doc://history"},
		{brenton, "What do the sources say about Brenton's Gull Point Recycling Plant: how many homes it serves, what it cost and when it opened?", "doc://courier"},
		{millbrook, "What do the sources say about Millbrook's CityRide bike-share scheme: how many bikes, how many trips and when it opened?", "doc://herald"},
	} {
		res := run(t, tc.corpus, tc.question)
		if !inItsNote(t, res, tc.namesake) {
			t.Errorf("%s: sections %+v; want a note on %s", tc.question, res.Report.Sections, tc.namesake)
		}
		for _, d := range res.Discrepancies {
			t.Errorf("%s: discrepancy %s: %s; want none", tc.question, d.Topic, sidesOf(d))
		}
	}
}

// wantPreferred checks that a discrepancy sets right against wrong and
// does not prefer wrong.
func wantPreferred(t *testing.T, res *rs.Result, right, wrong string) {
	t.Helper()
	if !slices.ContainsFunc(res.Discrepancies, func(d rs.Discrepancy) bool {
		v := sidesOf(d)
		return strings.Contains(v, right) && strings.Contains(v, wrong) && !strings.Contains(d.Preferred, wrong)
	}) {
		t.Errorf("discrepancies %v; want %s preferred to %s", topics(res.Discrepancies), right, wrong)
	}
}
