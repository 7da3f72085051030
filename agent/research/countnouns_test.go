package research

import (
	"slices"
	"strings"
	"testing"

	rs "github.com/quarry-dev/quarry/research"
)

// One quantity under two nouns (issue 24, hS-31): travellers and
// passengers, guests and visitors, staff and employees, votes cast and
// the people who voted; what was done to what a count counts keeps two
// counts apart ("were injured", "were assigned").

// oakmere is a ward's by-election: the returning officer's votes cast,
// a paper's people who voted, and a blog's count at an election three
// years before, which is no claim of the by-election's; an undated FAQ
// is of its corpus's time, not of that only other year.
var oakmere = memoryCorpus{
	{URL: "doc://declaration", Title: "Oakmere Borough Council — declaration of result", Credibility: 0.85, Published: day("2025-03-07"),
		Text: "In the Oakmere West by-election, 5,174 votes were cast and Jo Reed was elected."},
	{URL: "doc://paper", Title: "Oakmere Post", Credibility: 0.6, Published: day("2025-03-08"),
		Text: "Some 5,714 people voted in the Oakmere West by-election, a turnout of 29%."},
	{URL: "doc://blog", Title: "Oakmere politics blog", Credibility: 0.4,
		Text: "At the last full election in 2022, 6,930 votes were cast in Oakmere West."},
	{URL: "doc://faq", Title: "Oakmere Borough Council — questions answered", Credibility: 0.85,
		Text: "How many people voted in Oakmere West? 5,174 votes were cast."},
}

// TestOneQuantityUnderTwoNouns: the people who voted are the votes
// cast; the 2022 election's votes are set against nothing.
func TestOneQuantityUnderTwoNouns(t *testing.T) {
	res := run(t, oakmere, "What do the sources say about the Oakmere West by-election: how many votes were cast?")
	if len(res.Discrepancies) != 1 || !strings.Contains(sidesOf(res.Discrepancies[0]), "5,714") || !strings.HasPrefix(res.Discrepancies[0].Preferred, "5,174") {
		t.Errorf("discrepancies %v; want 5,174 votes preferred against 5,714 people who voted", topics(res.Discrepancies))
	}
	for _, tc := range []struct{ s, value, unit, act string }{
		{"Some 6,812 people voted, a turnout of just over 31 per cent.", "6,812 people", "vote", ""},
		{"The festival welcomed 42,000 people to the shores of the lake.", "42,000 people", "visitor", ""},
		{"About 24,000 of us packed into the fields.", "24,000 of us", "people", ""},
		{"Four firefighters were injured in the blaze.", "Four firefighters", "firefighter", "injured"},
		{"In all, 1,420 firefighters were assigned to the blaze.", "1,420 firefighters", "firefighter", "assigned"},
		{"In all, 1,420 cases were recorded.", "1,420 cases", "case", "counted"},
		{"Four firefighters and one resident were treated for injuries.", "Four firefighters", "firefighter", "treated"},
		{"A total of 1,420 firefighters and support staff are now assigned.", "1,420 firefighters", "firefighter", "assigned"},
	} {
		cs := Claims(tc.s, nil)
		i := slices.IndexFunc(cs, func(c Claim) bool { return c.Text == tc.value })
		if i < 0 || cs[i].Unit != tc.unit || cs[i].Act != tc.act {
			t.Errorf("Claims(%q) = %+v; want %s a count of %s, act %q", tc.s, cs, tc.value, tc.unit, tc.act)
		}
	}
	// Nouns of one counted thing are of one class.
	for _, pair := range [][2]string{{"traveller", "passenger"}, {"guest", "visitor"}, {"audience", "attendance"}, {"staff", "employee"}, {"headcount", "workforce"}, {"voter", "vote"}} {
		if headClass(pair[0]) != headClass(pair[1]) {
			t.Errorf("headClass(%s) = %s, headClass(%s) = %s; want one class", pair[0], headClass(pair[0]), pair[1], headClass(pair[1]))
		}
	}
	// Injured firefighters are not the ones assigned.
	a, b := Claims("Four firefighters were injured.", nil), Claims("In all, 5 firefighters were assigned.", nil)
	if len(a) != 1 || len(b) != 1 || a[0].Like(b[0]) {
		t.Errorf("Claims = %+v and %+v; want counts of different acts, not alike", a, b)
	}
	// "since the appeal launched on International Women's Day 2023": the
	// year it counts from, no period.
	cs := Claims("Together we have raised £4.18 million since the appeal launched on International Women's Day 2023.", nil)
	if i := slices.IndexFunc(cs, func(c Claim) bool { return c.Text == "£4.18 million" }); i < 0 || cs[i].Period != "" {
		t.Errorf("Claims(raised since ... 2023) = %+v; want £4.18 million of no period", cs)
	}
}

// TestAmountsInOtherForms: an amount named by what is worth it, by the
// pronoun's antecedent, by a passive verb after it, by the noun after a
// name, by "put ... at" for a thing, and a dollar named by its country.
func TestAmountsInOtherForms(t *testing.T) {
	for _, tc := range []struct{ s, value, head, unit string }{
		{"Some $470 million was spent on the new bridge.", "$470 million", "cost", "USD"},
		{"We asked what the by-election cost: we are told it came to £48,500, about £8 a vote.", "£48,500", "cost", "GBP"},
		{"The union and the port agreed a pay deal worth €64 million over three years.", "€64 million", "deal", "EUR"},
		{"My sources put the clean-up at £14.1 million.", "£14.1 million", "cost", "GBP"},
		{"The £110 million Lantern Quay scheme is finally open.", "£110 million", "cost", "GBP"},
		{"The Lowland tour grossed $94,600,000 all told.", "$94,600,000", "revenue", "USD"},
		{"Export sales reached NZ$41.7 million.", "NZ$41.7 million", "sale", "NZD"},
	} {
		cs := Claims(tc.s, []string{"lantern", "quay"})
		i := slices.IndexFunc(cs, func(c Claim) bool { return c.Text == tc.value })
		if i < 0 || cs[i].Head != tc.head || cs[i].Unit != tc.unit {
			t.Errorf("Claims(%q) = %+v; want %s a %s of %s", tc.s, cs, tc.value, tc.unit, tc.head)
		}
	}
}

// TestTableRowsAndLabels: a ranked table's row is named by its words,
// and a label's noun before its preposition is its head ("Employees at
// year end"), what follows qualifying it unless it says when.
func TestTableRowsAndLabels(t *testing.T) {
	table := "| Rank | Artist | Tour | Gross | Tickets sold |\n|---|---|---|---|---|\n| 8 | The Hollow Pines | Lowland | $96,400,000 | 1,100,000 |\n"
	got := Sentences(table)
	for _, want := range []string{"The Hollow Pines Lowland gross: $96,400,000.", "The Hollow Pines Lowland tickets sold: 1,100,000."} {
		if !slices.Contains(got, want) {
			t.Errorf("Sentences(ranked table) = %q; want %q", got, want)
		}
	}
	for _, tc := range []struct{ s, head, mods, period string }{
		{"Employees at year end (2024): 1,140.", "employee", "", "2024"},
		{"Visitors to the gallery (2024): 48,600.", "visitor", "gallery", "2024"},
		{"The Hollow Pines Lowland tickets sold: 1,100,000.", "ticket", "hollow pine lowland", ""},
	} {
		cs, _ := labelClaims(tc.s, []string{"tamarak"})
		if len(cs) != 1 || cs[0].Head != tc.head || strings.Join(cs[0].Mods, " ") != tc.mods || cs[0].Period != tc.period {
			t.Errorf("labelClaims(%q) = %+v; want %s [%s] of %q", tc.s, cs, tc.head, tc.mods, tc.period)
		}
	}
}

// TestSubjectsRowTellsNothingApart: a table whose row for the subject
// has no qualifier beside rows named for others tells those names'
// words apart, not the words another source qualifies the subject's
// figure with ("the boil water notice got lifted on").
func TestSubjectsRowTellsNothingApart(t *testing.T) {
	facts := []rs.Fact{{ID: "a", SourceURL: "doc://table"}, {ID: "b", SourceURL: "doc://table"}}
	row := Claim{Head: "lift", Unit: "date", Mods: []string{}, Modality: Reported, Value: Value{Kind: KindDate, Year: 2025, Day: "2025-03-14"}}
	other := Claim{Head: "lift", Unit: "date", Mods: []string{"dorrance", "village", "water"}, Modality: Reported, Value: Value{Kind: KindDate, Year: 2025, Day: "2025-03-19"}}
	told := tellApart(facts, map[string]Claim{"a": row, "b": other}, nil)
	forum := Claim{Head: "lift", Unit: "date", Mods: []string{"boil", "water", "notice"}, Modality: Reported, Value: Value{Kind: KindDate, Year: 2025, Day: "2025-03-17"}}
	if !told.alike(row, forum) {
		t.Errorf("alike(subject's row, forum's boil water notice) = false; want true")
	}
}
