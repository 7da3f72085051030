package research

import (
	"fmt"
	"slices"
	"testing"
)

// A table's cells and a list's items are sentences of their own, written
// "label: value"; a document's metadata lines stay headers.
func TestSentencesOfTablesAndLists(t *testing.T) {
	got := Sentences("Facts:\n\n| Item | Value |\n|---|---|\n| Stops | 19 |\n| Opening | 21/09/2024 |\n\n" +
		"| Project | Lead | Award |\n|---|---|---|\n| Thornmere dig | Eastfield | £158,000 |\n\n" +
		"| Measure | 2024 | 2025 |\n|---|---|---|\n| Visits | 188,000 | 212,000 |\n\n| Year | Finishers |\n|---|---|\n| 2024 | 8,374 |\n\nFacts about our wing:\n- Inpatient beds: 64\n- Theatres: 4")
	want := []string{"Facts:", "Stops: 19.", "Opening: 21/09/2024.", "Thornmere dig lead: Eastfield.", "Thornmere dig award: £158,000.",
		"Visits (2024): 188,000.", "Visits (2025): 212,000.", "Finishers (2024): 8,374.", "Facts about our wing:", "- Inpatient beds: 64", "- Theatres: 4"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Sentences = %q; want %q", got, want)
	}
	for s, header := range map[string]bool{"Filed: May 19, 2025": true, "Published: 2 July 2024": true, "Stops: 19.": false, "- Inpatient beds: 64": false} {
		if headerLine(s) != header {
			t.Errorf("headerLine(%q) = %v; want %v", s, !header, header)
		}
	}
}

// A labelled value is a claim of what its label names, of the head and
// unit of the same claim written in prose; a date labelled by its event
// is of the event's verb; the first patients a place admits, or the first
// passengers it welcomes, date its opening; an event of a verb no list
// knows is named by the verb.
func TestClaimsOfLabelsAndEvents(t *testing.T) {
	for _, pair := range [][2]string{
		{"- Inpatient beds: [64]", "The wing has [72 inpatient beds]."},
		{"Stops: [19].", "The line has [21 stops]."},
		{"Quantity: [one thousand three hundred and twenty-seven coins].", "The hoard holds [1,372 coins]."},
		{"Visits (2025): [212,000].", "The festival drew [221,000 visits] in 2025."},
		{"Opening: [21/09/2024].", "The Corrin tramway opened to passengers on [14 September 2024]."},
		{"Date of discovery: [22/08/2024].", "It was discovered on [29 August 2024]."},
		{"The hoard was discovered on [22 August 2024].", "The hoard was discovered on [29 August 2024]."},
		{"- First patients admitted: [03/02/2025]", "We were delighted to welcome the first patients to the wing on [10 March 2025]."},
		{"The wing admitted its first patients on [3 February 2025].", "The Corrin wing opened on [10 March 2025]."},
	} {
		a, b := markedAbout(t, pair[0], "corrin"), markedAbout(t, pair[1], "corrin")
		if a.Head != b.Head || a.Unit != b.Unit || a.Modality != b.Modality || Same(a.Value, b.Value) {
			t.Errorf("claims %s (%s, %s) and %s (%s, %s); want one head and unit, different values", a.Text, a.Head, a.Unit, b.Text, b.Head, b.Unit)
		}
	}
	if c := claimOfText(t, "Revenue: $12.4 million (2024).", "$12.4 million"); c.Period != "2024" || c.Head != "revenue" {
		t.Errorf("Revenue: $12.4 million (2024) = %s (%s); want revenue (2024)", c.Head, c.Period)
	}
	for _, pair := range [][2]string{
		{"Visits (2024): [188,000].", "The festival drew [212,000 visits] in 2025."},
		{"Inpatient beds: [64]", "Operating theatres: [4]"},
	} {
		a, b := markedAbout(t, pair[0], "corrin"), markedAbout(t, pair[1], "corrin")
		if Conflicts(a, b) {
			t.Errorf("Conflicts(%s %+v, %s %+v) = true; want false", a.Text, a, b.Text, b)
		}
	}
}

// markedAbout is the claim of the value a sentence marks with brackets,
// about the subject of the words given.
func markedAbout(t *testing.T, s string, subject ...string) Claim {
	t.Helper()
	open, end := indexByte(s, '['), indexByte(s, ']')
	return claimOfText(t, s[:open]+s[open+1:end]+s[end+1:], s[open+1:end], subject...)
}

func indexByte(s string, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return i
		}
	}
	return -1
}

// A body's own publication is more credible than a newspaper, and a
// newspaper than a forum, podcast or newsletter; a post's date is its
// publication date.
func TestDescribeOfficialAndInformal(t *testing.T) {
	for _, tc := range []struct {
		name, text, kind string
		cred             float64
		published        string
	}{
		{"a.md", "# Audit Office of Dunmore — review of the tramway\n\nPublished: 10 March 2025\n\nText.", "official", 0.85, "2025-03-10"},
		{"b.md", "# Official club statement: Danny Okafor\n\nDate: 31 January 2025\n\nText.", "official", 0.85, "2025-01-31"},
		{"c.md", "# Dunmore Herald: council approves tram\n\nPublished: 15 September 2024\n\nText.", "news", 0.6, "2024-09-15"},
		{"d.md", "# Rovers Till I Die podcast — episode notes\n\nPosted by Jonno, 10 November 2024\n\nText.", "blog", 0.4, "2024-11-10"},
		{"e.md", "# Friends of Aldgrove Hospital newsletter\n\nText.", "blog", 0.4, "0001-01-01"},
	} {
		d := DescribeDocument(tc.name, "", tc.text)
		if d.Kind != tc.kind || d.Credibility != tc.cred || d.Published.Format("2006-01-02") != tc.published {
			t.Errorf("DescribeDocument(%q) = %s %.2f %s; want %s %.2f %s", tc.text[:30], d.Kind, d.Credibility, d.Published.Format("2006-01-02"), tc.kind, tc.cred, tc.published)
		}
	}
}

// A file's name says its kind as a title would, with hyphens or
// underscores between its words; "Updated:" dates a page.
func TestDescribeByFileName(t *testing.T) {
	for _, tc := range []struct{ name, text, kind, published string }{
		{"03-press-release.md", "Halden Bio enrolled 412 patients.", "press release", "0001-01-01"},
		{"fan_forum_thread.txt", "Halden Bio enrolled 388 patients.", "blog", "0001-01-01"},
		{"official_statement.txt", "Updated: 4 March 2025\n\nHalden Bio enrolled 412 patients.", "official", "2025-03-04"},
	} {
		d := DescribeDocument(tc.name, "", tc.text)
		if d.Kind != tc.kind || d.Published.Format("2006-01-02") != tc.published {
			t.Errorf("DescribeDocument(%q) = %s %s; want %s %s", tc.name, d.Kind, d.Published.Format("2006-01-02"), tc.kind, tc.published)
		}
	}
}

// A light verb's event is the noun it says it of ("first light came
// on", "achieved first light on", "the merger of A and B, which took
// effect on"); a timeline's line dates what its words name; a count of
// a compound noun is of its last word's class.
func TestLightEventsTimelinesAndCompounds(t *testing.T) {
	for _, tc := range []struct{ sentence, text, head string }{
		{"Engineers said first light came on Sept. 9, 2023, after years of work.", "Sept. 9, 2023", "light"},
		{"The observatory achieved first light on 9 September 2023.", "9 September 2023", "light"},
		{"- 16 September 2023: first light", "16 September 2023", "light"},
		{"Millford Academy was formed by the merger of Millford High and St Anne's College, which took effect on 1 September 2023.", "1 September 2023", "merger"},
		{"The merger took effect on Monday 4 September 2023.", "4 September 2023", "merger"},
		{"The annual meeting took place on 3 May 2024.", "3 May 2024", "meeting"},
	} {
		if c := claimOfText(t, tc.sentence, tc.text, "millford", "academy"); c.Head != tc.head || c.Unit != "date" {
			t.Errorf("Claims(%q) %s = %s (%s); want the date of %s", tc.sentence, tc.text, c.Head, c.Unit, tc.head)
		}
	}
	if headClass("exoplanet") != headClass("planet") || headClass("tag") != headClass("cost") {
		t.Errorf("headClass(exoplanet, tag) = %s, %s; want planet, cost", headClass("exoplanet"), headClass("tag"))
	}
}

// More claim shapes: a dash after a label, a count of "units of" a
// thing, a product name of several words before the counted noun, an
// adverb before it, the people a teller speaks to as no qualifier, a
// whole "thing" as the subject, a status got or declared.
func TestClaimShapesOfRoundFour(t *testing.T) {
	for _, tc := range []struct {
		sentence, text, head string
		mods                 []string
		period               string
	}{
		{"• Breeding puffin pairs (2024) — 4,210", "4,210", "pair", []string{"breeding", "puffin"}, "2024"},
		{"Brevik is recalling 12,600 units of its Sweeper S3 robot vacuum.", "12,600 units", "vacuum", nil, ""},
		{"Brevik has pulled roughly 16,200 Sweeper S3 robot vacuums from sale.", "16,200 Sweeper S3 robot vacuums", "vacuum", nil, ""},
		{"The census found 4,210 apparently occupied burrows in 2024.", "4,210 apparently occupied burrows", "burrow", nil, "2024"},
		{"Wardens told us some 4,120 pairs nested in 2024.", "4,120 pairs", "pair", []string{}, "2024"},
		{"I heard the whole thing cost £9.1 million.", "£9.1 million", "cost", []string{}, ""},
		{"Heard the island got its rat-free status on 21 March 2023.", "21 March 2023", "status", nil, ""},
	} {
		c := claimOfText(t, tc.sentence, tc.text, "brevik", "kittiwake")
		if c.Head != tc.head || c.Period != tc.period || tc.mods != nil && !slices.Equal(c.Mods, tc.mods) {
			t.Errorf("Claims(%q) %s = %s %q (%s); want %s %q (%s)", tc.sentence, tc.text, c.Head, c.Mods, c.Period, tc.head, tc.mods, tc.period)
		}
	}
	if headClass(eventStem("declared")) != headClass("status") {
		t.Errorf("headClass(declared) = %s; want status", headClass(eventStem("declared")))
	}
}

// "This year" nearer a count than a year in another part of its sentence
// is the count's period.
func TestThisYearNearerThanAnotherPart(t *testing.T) {
	res := run(t, memoryCorpus{
		{URL: "doc://report", Title: "Trust report", Published: day("2025-02-03"), Text: "The 2024 survey counted 4,210 puffin pairs on Kittiwake Isle."},
		{URL: "doc://magazine", Title: "Wild Isles magazine", Published: day("2024-09-12"),
			Text: "On Kittiwake Isle some 4,120 puffin pairs nested this year, and the island has been rat-free since March 2023."},
	}, "What do the sources say about Kittiwake Isle and its puffins?")
	if len(res.Discrepancies) != 1 {
		t.Errorf("discrepancies %+v; want 4,210 against 4,120 pairs in 2024", res.Discrepancies)
	}
}

// Round six: a split year is its last ("2024/25" is 2025); a year in a
// parenthesis dates what it describes, not a figure outside it; a price
// eight words after "acquired"; people who visited are visitors; a fact
// sheet's lines that end in figures are sentences of their own.
func TestClaimsOfRoundSix(t *testing.T) {
	for _, tc := range []struct{ sentence, text, head, unit, period string }{
		{"PellBike subsidy (2024/25): £1,350,000.", "£1,350,000", "subsidy", "GBP", "2025"},
		{"Lot 112, the Leda tapestry (Brussels, c. 1540), sold for €2,700,000 to the museum.", "€2,700,000", "price", "EUR", ""},
		{"In 2024 the museum acquired the sixteenth-century Leda tapestry at auction for €2.7 million.", "€2.7 million", "price", "EUR", ""},
		{"The museum says 84,600 people have already visited the gallery.", "84,600 people", "visitor", "visitor", ""},
	} {
		if c := claimOfText(t, tc.sentence, tc.text, "pellbike", "arnholt"); c.Head != tc.head || c.Unit != tc.unit || c.Period != tc.period {
			t.Errorf("Claims(%q) %s = %s %s (%s); want %s %s (%s)", tc.sentence, tc.text, c.Head, c.Unit, c.Period, tc.head, tc.unit, tc.period)
		}
	}
	got := Sentences("Visitor figures\n\nLeda gallery visitors, October to December 2024: 48,600\nWhole museum visitors, 2024: 312,000")
	if want := []string{"Visitor figures", "Leda gallery visitors, October to December 2024: 48,600", "Whole museum visitors, 2024: 312,000"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Sentences = %q; want %q", got, want)
	}
	if headClass("payment") != headClass("price") {
		t.Errorf("headClass(payment) = %s; want price's", headClass("payment"))
	}
}

// A rate may name its period after what it counts ("40 tonnes of fruit
// an hour"); receipts and exports are revenue.
func TestRatesAndRevenueWords(t *testing.T) {
	if c := claimOfText(t, "The plant can pack 40 tonnes of fruit an hour.", "40 tonnes"); c.Unit != "tonne/hour" && c.Unit != "tonnes/hour" {
		t.Errorf("40 tonnes of fruit an hour: unit %q; want a rate per hour", c.Unit)
	}
	for _, w := range []string{"receipt", "export", "proceeds"} {
		if headClass(w) != headClass("revenue") {
			t.Errorf("headClass(%s) = %s; want revenue's", w, headClass(w))
		}
	}
}
