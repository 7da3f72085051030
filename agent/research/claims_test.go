package research

import (
	"slices"
	"strings"
	"testing"
)

// claimOfText is the claim of s whose value is written text.
func claimOfText(t *testing.T, s, text string, subject ...string) Claim {
	t.Helper()
	for _, c := range Claims(s, subject) {
		if c.Text == text {
			return c
		}
	}
	t.Fatalf("Claims(%q) = %+v; want a claim of %q", s, Claims(s, subject), text)
	return Claim{}
}

// A claim is its value with the attribute it is of (head noun and
// modifiers), its unit, the period it is for and how the source holds it.
func TestClaimsReadAttributeUnitPeriodModality(t *testing.T) {
	for _, tc := range []struct {
		sentence, text string
		head           string
		mods           []string
		unit, period   string
		modality       Modality
	}{
		{"The trial enrolled 412 patients at 41 clinical sites.", "412 patients", "patient", []string{"trial"}, "patient", "", Reported},
		{"The trial enrolled 412 patients at 41 clinical sites.", "41 clinical sites", "site", []string{"trial", "clinical"}, "site", "", Reported},
		{"Orsolan will make an upfront licence payment of $35 million under the agreement.", "$35 million", "payment", []string{"upfront", "licence"}, "USD", "", Reported},
		{"Research and development expenses were $61.5 million in 2024, compared with $48.9 million in 2023.", "$48.9 million", "expense", []string{"research", "development"}, "USD", "2023", Reported},
		{"The plant opened in October 2023 and employed 85 people at year end.", "October 2023", "opening", []string{"plant"}, "date", "", Reported},
		{"The protocol had planned an enrollment of 400 patients.", "400 patients", "patient", nil, "patient", "", Planned},
		{"Its budget for 2025 is expected to be CHF 4.2 million.", "CHF 4.2 million", "budget", nil, "CHF", "2025", Expected},
		{"The council had estimated in 2022 that the line would cost £340 million.", "£340 million", "cost", nil, "GBP", "2022", Estimated},
		{"Sources tell us that Kestrel Dynamics Inc. paid $5 million to settle the lawsuit.", "$5 million", "payment", []string{"settlement"}, "USD", "", Reported},
		{"As of December 31, 2024, Kestrel Dynamics employed 1,240 people.", "1,240 people", "employee", []string{}, "employee", "2024", Reported},
		{"Debian 1.3 Bo (June 5th, 1997): Named for Bo Peep.", "June 5th, 1997", "date", []string{"1.3", "bo"}, "date", "", Reported},
	} {
		c := claimOfText(t, tc.sentence, tc.text, "kestrel", "dynamics", "debian")
		if c.Head != tc.head || c.Unit != tc.unit || c.Period != tc.period || c.Modality != tc.modality || tc.mods != nil && !slices.Equal(c.Mods, tc.mods) {
			t.Errorf("Claims(%q) %s = head %q mods %q unit %q period %q %s; want %q %q %q %q %s", tc.sentence, tc.text,
				c.Head, c.Mods, c.Unit, c.Period, c.Modality, tc.head, tc.mods, tc.unit, tc.period, tc.modality)
		}
	}
}

// Two claims conflict only when subject, attribute, unit, period and
// modality agree and the values differ beyond rounding; dates are values
// too.
func TestClaimsConflictOnlyWhenLike(t *testing.T) {
	for _, tc := range []struct {
		a, aText, b, bText string
		conflict           bool
	}{
		// Counts of one thing; of another; planned against done.
		{"The trial enrolled 412 patients.", "412 patients", "The trial enrolled 388 patients by June.", "388 patients", true},
		{"The trial enrolled 412 patients at 41 clinical sites.", "41 clinical sites", "The trial enrolled 412 patients.", "412 patients", false},
		{"The protocol planned an enrollment of 400 patients.", "400 patients", "The trial enrolled 412 patients.", "412 patients", false},
		// Two periods; one period.
		{"Revenue was $50.1 million in 2023.", "$50.1 million", "Revenue was $61.4 million in 2024.", "$61.4 million", false},
		{"Revenue was $50.1 million in 2024.", "$50.1 million", "Revenue for fiscal 2024 was $61.4 million.", "$61.4 million", true},
		// Rounding; a real difference; another payment.
		{"Orsolan paid an upfront licence payment of $35 million.", "$35 million", "It received an upfront payment of $35.2 million.", "$35.2 million", false},
		{"Orsolan paid an upfront licence payment of $35 million.", "$35 million", "It received an upfront payment of $53 million.", "$53 million", true},
		{"It received an upfront payment of $35 million.", "$35 million", "It may receive a milestone payment of $50 million.", "$50 million", false},
		// Dates are values; a plan is not a date done.
		{"The plant opened in October 2023.", "October 2023", "The Leiden plant, which opened in August 2024, hired 60 workers.", "August 2024", true},
		{"The plant opened in October 2023.", "October 2023", "The plant is planned to open in August 2024.", "August 2024", false},
		// A named release dated twice; two releases.
		{"Debian 1.3 Bo (June 5th, 1997): Named for Bo Peep.", "June 5th, 1997", "1.3 Bo released July 1997 (974 packages, 200 developers)", "July 1997", true},
		{"Debian 1.2 Rex (December 12th, 1996): Named for a dinosaur.", "December 12th, 1996", "1.3 Bo released July 1997 (974 packages, 200 developers)", "July 1997", false},
	} {
		a, b := claimOfText(t, tc.a, tc.aText, "debian"), claimOfText(t, tc.b, tc.bText, "debian")
		if got := Conflicts(a, b); got != tc.conflict {
			t.Errorf("Conflicts(%s %+v, %s %+v) = %v; want %v", tc.aText, a, tc.bText, b, got, tc.conflict)
		}
	}
}

// A figure a sentence replaces is not a second claim of it, and a year
// that qualifies a noun is a period, not an event's date.
func TestClaimsLeaveOutReplacedFiguresAndPeriods(t *testing.T) {
	cs := Claims("Revenue for fiscal 2024 is restated to $46.9 million from the $48.2 million previously reported.", nil)
	if len(cs) != 1 || cs[0].Text != "$46.9 million" || cs[0].Head != "revenue" || cs[0].Period != "2024" {
		t.Errorf("restatement claims = %+v; want revenue (2024) $46.9 million alone", cs)
	}
	for _, s := range []string{"Kestrel Dynamics Inc. files this 10-K/A to restate its fiscal 2024 results.", "In the Phase 2 trial 3 arms were compared."} {
		for _, c := range Claims(s, []string{"kestrel", "dynamics"}) {
			if c.Unit == "date" || strings.HasPrefix(c.Text, "2 ") {
				t.Errorf("Claims(%q) = %+v; want no dated event and no number of a name", s, c)
			}
		}
	}
}

// A role is a claim too: the person is its value.
func TestClaimsReadRoles(t *testing.T) {
	for _, tc := range []struct{ sentence, name, attribute string }{
		{`"Results support Phase 3," said chief medical officer Dr. Ana Ruiz.`, "Dr. Ana Ruiz", "chief medical officer"},
		{"Marcus Greer was appointed chief financial officer on February 3, 2025.", "Marcus Greer", "chief financial officer"},
		{"The studio was founded in 2012 by former artist Marc Tremblay.", "Marc Tremblay", "founder"},
	} {
		if c := claimOfText(t, tc.sentence, tc.name); c.Attribute != tc.attribute || c.Unit != "person" {
			t.Errorf("Claims(%q) %s = %q (%s); want %q", tc.sentence, tc.name, c.Attribute, c.Unit, tc.attribute)
		}
	}
	a := claimOfText(t, "Chief executive officer Jane Holt said sales rose.", "Jane Holt")
	b := claimOfText(t, "The company's chief executive officer Tom Reyes spoke.", "Tom Reyes")
	if !Conflicts(a, b) {
		t.Errorf("Conflicts(%+v, %+v) = false; want two chief executives in conflict", a, b)
	}
}

// FuzzClaims: any sentence reads without a panic, and each claim's
// value is written in it.
func FuzzClaims(f *testing.F) {
	for _, s := range []string{"The trial enrolled 412 patients at 41 clinical sites.", "Debian 1.3 Bo (June 5th, 1997): Named for Bo Peep.",
		"Orsolan will pay up to $310 million in milestones, and 3900+ binary packages.", "said chief medical officer Dr. Ana Ruiz", "(", "$", "of 5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range Claims(s, []string{"debian"}) {
			if !strings.Contains(s, c.Text) {
				t.Errorf("Claims(%q) gives %q, which it does not write", s, c.Text)
			}
		}
	})
}

// "The line" may be the subject by another name; "Visitors numbered
// 310,000" counts visitors as "welcomed 290,000 visitors" does.
func TestClaimsMeetTheSubjectByAnotherName(t *testing.T) {
	line := claimOfText(t, "The line is 11.4 km long and has 18 stops.", "18 stops", "eastline")
	its := claimOfText(t, "Passengers praised its 16 stops.", "16 stops", "eastline")
	fare := claimOfText(t, "A single fare costs £2.", "£2", "eastline")
	cost := claimOfText(t, "The Eastline's outturn cost was £412.3 million.", "£412.3 million", "eastline")
	visitors := claimOfText(t, "Visitors numbered 310,000 in 2024.", "310,000")
	welcomed := claimOfText(t, "The library welcomed 290,000 visitors in 2024.", "290,000 visitors")
	for _, tc := range []struct {
		a, b     Claim
		conflict bool
	}{{line, its, true}, {fare, cost, false}, {visitors, welcomed, true}} {
		if got := Conflicts(tc.a, tc.b); got != tc.conflict {
			t.Errorf("Conflicts(%s %v, %s %v) = %v; want %v", tc.a.Text, tc.a.Mods, tc.b.Text, tc.b.Mods, got, tc.conflict)
		}
	}
}

// Phrasings of one claim meet: a payment's kind after it, an event named
// by its noun, a change on the way to a figure, a headcount.
func TestClaimsReadPhrasings(t *testing.T) {
	// Each case is two sentences whose marked values conflict.
	for _, pair := range [][2]string{
		{"The company paid [€35m] upfront to Orsa.", "Orsa received an upfront payment of [€53 million]."},
		{"The opening of the plant in [October 2023] was delayed.", "The plant opened in [August 2024]."},
		{"Revenue rose 12% to [$50 million] in 2024.", "Revenue for 2024 was [$48 million]."},
		{"Headcount rose to [1,420] at the end of 2024.", "At the end of 2024 it had [1,240 employees]."},
		{"Enrollment reached [412 patients].", "The trial enrolled [388 patients]."},
		{"The farm was commissioned on [3 February 2025].", "The farm was commissioned on [17 March 2025]."},
		{"Construction cost [EUR 2.1 billion].", "It put the construction cost at [EUR 2.6 billion]."},
	} {
		a, b := marked(t, pair[0]), marked(t, pair[1])
		if !Conflicts(a, b) {
			t.Errorf("Conflicts(%s %+v, %s %+v) = false; want true", a.Text, a, b.Text, b)
		}
	}
}

// marked is the claim of the value a sentence marks with brackets.
func marked(t *testing.T, s string) Claim {
	t.Helper()
	open, end := strings.IndexByte(s, '['), strings.IndexByte(s, ']')
	return claimOfText(t, s[:open]+s[open+1:end]+s[end+1:], s[open+1:end])
}
