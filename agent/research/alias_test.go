package research

import (
	"fmt"
	"testing"

	rs "github.com/quarry-dev/quarry/research"
)

// claimsOf reads each document's sentences as facts and claims, as a
// briefing does.
func claimsOf(docs map[string]string) ([]rs.Fact, map[string]Claim, map[string]Claim) {
	var facts []rs.Fact
	claims := map[string]Claim{}
	byText := map[string]Claim{}
	for doc, text := range docs {
		for _, s := range Sentences(text) {
			for _, c := range Claims(s, []string{"aldgrove"}) {
				id := fmt.Sprintf("%s-%d", doc, len(facts))
				facts = append(facts, rs.Fact{ID: id, SourceURL: "doc://" + doc, Value: c.Text})
				claims[id] = c
				byText[c.Text] = c
			}
		}
	}
	return facts, claims, byText
}

// Claims named with different words are one thing unless a source tells
// their qualifiers apart, their values could not be one quantity
// misreported, they measure how long, or a claim of no period stands
// beside claims of two years.
func TestClaimsAlikeUnlessToldApart(t *testing.T) {
	facts, claims, c := claimsOf(map[string]string{
		"report":     "The wing has 64 inpatient beds. The contract was worth €47.5 million. Aldgrove had 1,140 contributors by the end of 2024.",
		"newsletter": "The ward has 72 beds. The total cost of the wing is €74.5 million. The project counts 1,410 contributors. Building took three years.",
		"council":    "The stand has 6,200 seats and the ground has 18,450 seats. The grant was £400,000.",
		"fans":       "The ground has 19,200 seats. The stand has 6,500 seats. The grant was £4,000. Planning took five years.",
		"history":    "Aldgrove had 980 members in 2023 and 1,020 members in 2024. There are 1,100 members.",
	})
	told := tellApart(facts, claims, nil)
	for _, tc := range []struct {
		a, b  string
		alike bool
	}{
		{"64 inpatient beds", "72 beds", true},
		{"€47.5 million", "€74.5 million", true},
		{"1,140 contributors", "1,410 contributors", true},
		{"19,200 seats", "6,200 seats", false}, // the council tells the stand from the ground
		{"£400,000", "£4,000", false},
		{"three years", "five years", false},
		{"1,100 members", "1,020 members", false},
	} {
		if got := told.alike(c[tc.a], c[tc.b]); got != tc.alike {
			t.Errorf("alike(%s %v, %s %v) = %v; want %v", tc.a, c[tc.a].Mods, tc.b, c[tc.b].Mods, got, tc.alike)
		}
	}
}

// Nouns of one class meet ("membership" and "members", "spectators" and
// "seats"); a claim of no period meets the only year of its class only
// when its source could be writing of that year.
func TestClaimsAlikeByClassAndSourceYear(t *testing.T) {
	facts, claims, c := claimsOf(map[string]string{
		"a": "Membership of the club grew to 340 in 2024. Hallam Road holds 18,450 spectators.",
		"b": "The club had 310 members. The ground has 19,200 seats.",
	})
	told := tellApart(facts, claims, nil)
	if !told.alike(c["340"], c["310 members"]) || !told.alike(c["18,450 spectators"], c["19,200 seats"]) {
		t.Errorf("alike(340 membership, 310 members), alike(spectators, seats) = false; want true")
	}
	late := c["310 members"]
	late.year = 2026
	if told.alike(c["340"], late) {
		t.Errorf("alike(340 in 2024, 310 members in a source of 2026) = true; want false")
	}
	late.year = 2025
	if !told.alike(c["340"], late) {
		t.Errorf("alike(340 in 2024, 310 members in a source of 2025) = false; want true")
	}
}
