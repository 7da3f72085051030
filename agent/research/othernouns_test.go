package research

import "testing"

// TestOneQuantityOtherNouns: one quantity named by other nouns in two
// sources (issue 24, hS-34) is paired: homes, households and
// properties; a crew and staff; a grant and a boost; "the new £64.2
// million Rowan Wing is" what the wing cost.
func TestOneQuantityOtherNouns(t *testing.T) {
	checkPreferred(t,
		preferCase{"households and properties", memoryCorpus{
			{URL: "doc://council", Title: "Council report", Credibility: 0.85, Published: day("2025-07-10"),
				Text: "By 30 June 2025 the Ferndale food waste scheme had enrolled 18,400 households."},
			{URL: "doc://blog", Title: "Neighbourhood blog", Credibility: 0.4, Published: day("2025-07-20"),
				Text: "Ferndale food waste caddies have now gone to 14,800 properties, the crew told us."},
		}, "What do the sources say about the Ferndale food waste scheme: how many households joined it?", "18,400 households", "14,800 properties"},
		preferCase{"a crew and staff", memoryCorpus{
			{URL: "doc://agency", Title: "Polar agency annual report", Credibility: 0.85, Published: day("2025-05-01"),
				Text: "Fourteen staff spent the first winter at Skarvik Station."},
			{URL: "doc://forum", Title: "Polar forum", Credibility: 0.4, Published: day("2025-05-20"),
				Text: "Skarvik Station kept a crew of 41 through its first winter."},
		}, "What do the sources say about Skarvik Station: how many people wintered there?", "Fourteen staff", "41"},
		preferCase{"a grant and a boost", memoryCorpus{
			{URL: "doc://release", Title: "Festival news release", Credibility: 0.85, Published: day("2025-02-14"),
				Text: "The Lisdara Arts Festival is supported by the Arts Council with a grant of €1.2 million."},
			{URL: "doc://radio", Title: "Radio headlines", Credibility: 0.5, Published: day("2025-02-14"),
				Text: "Lisdara Arts Festival gets record €2.1 million Arts Council boost"},
		}, "What do the sources say about the Lisdara Arts Festival: how large was its Arts Council grant?", "€1.2 million", "€2.1 million"},
		preferCase{"an amount before a name", memoryCorpus{
			{URL: "doc://release", Title: "Trust news release", Credibility: 0.85, Published: day("2025-03-03"),
				Text: "The Rowan Wing at Ashby General Hospital cost £62.4 million."},
			{URL: "doc://radio", Title: "Radio news", Credibility: 0.5, Published: day("2025-03-05"),
				Text: "Nurses at Ashby General Hospital say the new £64.2 million Rowan Wing is a game changer for patients."},
		}, "What do the sources say about the Rowan Wing: what did it cost?", "£62.4 million", "£64.2 million"},
	)
}
