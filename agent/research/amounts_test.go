package research

import (
	"slices"
	"testing"
)

// What an amount is of, however the sentence puts it: the noun before
// "worth", a price an exchange's "for" names, what it costs "to build",
// the noun after "received ... in", a noun phrase before a parenthesis
// or after a verb and a preposition, never the name before "for a fee";
// a currency named after the amount.
func TestAmountAttributes(t *testing.T) {
	for _, tc := range []struct{ sentence, text, head, unit string }{
		{"The contract was worth €74.5 million, according to company accounts.", "€74.5 million", "contract", "EUR"},
		{"Redcastle Rovers have sold Danny Okafor for £15 million, a record for the club.", "£15 million", "price", "GBP"},
		{"The club sold Danny Okafor to Lisbon's Sporting Mar for a club-record fee of £12.5 million.", "£12.5 million", "fee", "GBP"},
		{"But at £268m to build, the line is one of the most expensive in the country.", "£268m", "cost", "GBP"},
		{"The project received $2.4 million in sponsorship during 2024.", "$2.4 million", "sponsorship", "USD"},
		{"The excavation is funded by a grant of £185,000 from the Heritage Research Council.", "£185,000", "grant", "GBP"},
		{"The award to the Thornmere excavation (University of Eastfield) was £185,000.", "£185,000", "award", "GBP"},
		{"Funding was 8.2 million quid from the lottery.", "8.2 million quid", "funding", "GBP"},
		{"The budget was three point six million dollars.", "three point six million dollars", "budget", "USD"},
		{"The observatory was built at a cost of USD 1.25 billion.", "USD 1.25 billion", "cost", "USD"},
	} {
		c := claimOfText(t, tc.sentence, tc.text, "thornmere")
		if c.Head != tc.head || c.Unit != tc.unit {
			t.Errorf("Claims(%q) %s = head %q unit %q; want %q %q", tc.sentence, tc.text, c.Head, c.Unit, tc.head, tc.unit)
		}
	}
}

// More ways to write a claim: a day "of" a month, a total "of" an
// amount, "opened its doors", a period after a count ("last year"), a
// year after a verb no list knows is a period, not an event.
func TestClaimsReadMorePhrasings(t *testing.T) {
	for _, pair := range [][2]string{
		{"The museum opened its doors on the [3rd of March 2024].", "The museum opened on [10 March 2024]."},
		{"Construction of the bridge cost a total of [$1.2 billion].", "The construction cost was [$1.4 billion]."},
	} {
		a, b := markedAbout(t, pair[0], "museum"), markedAbout(t, pair[1], "museum")
		if !Conflicts(a, b) {
			t.Errorf("Conflicts(%s %+v, %s %+v) = false; want true", a.Text, a, b.Text, b)
		}
	}
	if c := claimOfText(t, "The airline carried 3.4 million passengers last year.", "3.4 million passengers"); c.Unit != "passenger" {
		t.Errorf("3.4 million passengers last year: unit %q; want passenger", c.Unit)
	}
	if c := claimOfText(t, "About 1.2 million people visited the park in 2023.", "1.2 million people"); c.Period != "2023" {
		t.Errorf("1.2 million people visited in 2023: period %q; want 2023", c.Period)
	}
}

// Fresh phrasings: a year across "against" is the other figure's; "put
// the contract value at"; "the £38.5m ship" is what the ship cost, "a $5
// million settlement" a settlement; "in exchange for an upfront payment
// of" stops at the payment; "can carry" is a capacity, "called for" a
// plan, "will pay ... for the rights" a term agreed; "entered service"
// and "made her first crossing" date a service.
func TestClaimsReadFreshPhrasings(t *testing.T) {
	for _, tc := range []struct {
		sentence, text, head string
		mods                 []string
		period               string
		modality             Modality
	}{
		{"The final cost of the vessel was £38.5 million against a budget of £31 million set in 2019.", "£38.5 million", "cost", []string{"vessel"}, "", Reported},
		{"The final cost of the vessel was £38.5 million against a budget of £31 million set in 2019.", "£31 million", "budget", []string{}, "2019", Reported},
		{"Shipyard accounts put the contract value at £83.5 million, including design work.", "£83.5 million", "value", []string{"contract"}, "", Reported},
		{"Islanders have waited six years for the £38.5m ship.", "£38.5m", "cost", []string{"ship"}, "", Reported},
		{"It agreed a $5 million settlement.", "$5 million", "settlement", []string{}, "", Reported},
		{"We licensed the rights to Kerrow in exchange for an upfront payment of $35 million.", "$35 million", "payment", []string{"upfront"}, "", Reported},
		{"Kerrow will pay Orsolan $35m upfront for the rights to ORS-12.", "$35m", "payment", nil, "", Reported},
		{"The vessel can carry 450 passengers and 60 cars.", "450 passengers", "passenger", nil, "", Expected},
		{"The protocol called for 400 patients.", "400 patients", "patient", nil, "", Planned},
		{"Orsolan opened its plant at the Leiden Bio Science Park this week, in August 2024, after delays.", "August 2024", "opening", nil, "", Reported},
		{"Our new vessel, MV Gannet, entered service on 2 May 2024 after sea trials.", "2 May 2024", "service", nil, "", Reported},
		{"MV Gannet made her first commercial crossing on 23 May 2024.", "23 May 2024", "crossing", nil, "", Reported},
	} {
		c := claimOfText(t, tc.sentence, tc.text, "orsolan")
		if c.Head != tc.head || c.Period != tc.period || c.Modality != tc.modality || tc.mods != nil && !slices.Equal(c.Mods, tc.mods) {
			t.Errorf("Claims(%q) %s = %s %q (%s) %s; want %s %q (%s) %s", tc.sentence, tc.text, c.Head, c.Mods, c.Period, c.Modality, tc.head, tc.mods, tc.period, tc.modality)
		}
	}
	if headClass("crossing") != headClass("service") || headClass("value") != headClass("cost") {
		t.Errorf("headClass(crossing), headClass(value) = %s, %s; want service, cost", headClass("crossing"), headClass("value"))
	}
}

// Claims that name different things alone meet only as figures that
// could be one misread; a chief executive never meets a chief financial
// officer by other words.
func TestAliasNeedsCloseFiguresAndNoPeople(t *testing.T) {
	facts, claims, c := claimsOf(map[string]string{
		"a": "The plant had a $9 million expansion. Dana Whitfield, chief executive officer, spoke.",
		"b": "It booked $1.3 million of drone service contracts. Marcus Greer was appointed chief financial officer on 3 February 2025.",
	})
	told := tellApart(facts, claims, nil)
	if told.alike(c["$9 million"], c["$1.3 million"]) {
		t.Errorf("alike(expansion $9 million, contracts $1.3 million) = true; want false")
	}
	if told.alike(c["Dana Whitfield"], c["Marcus Greer"]) {
		t.Errorf("alike(chief executive, chief financial officer) = true; want false")
	}
}

// "The contract, worth $46.2 million," is the contract's; durations alone
// do not conflict.
func TestWorthAfterCommaAndDurations(t *testing.T) {
	if c := claimOfText(t, "The contract, worth $46.2 million, was our largest.", "$46.2 million"); c.Head != "contract" {
		t.Errorf("The contract, worth $46.2 million: head %q; want contract", c.Head)
	}
	a := claimOfText(t, "It reopened five weeks later than planned.", "five weeks")
	b := claimOfText(t, "It opened three weeks behind schedule.", "three weeks")
	if Conflicts(a, b) {
		t.Errorf("Conflicts(five weeks, three weeks) = true; want false")
	}
}

// Round five: an event's own day ("was held on", "won the Corran Bay
// Marathon on"); a price past an apposition; money "worth ... in prize
// money"; a deal that closed completed.
func TestClaimsOfRoundFive(t *testing.T) {
	for _, tc := range []struct{ sentence, text, head string }{
		{"The 2024 Corran Bay Marathon was held on Sunday 22 September 2024.", "22 September 2024", "occurrence"},
		{"Kiprotich won the Corran Bay Marathon on September 29, 2024.", "September 29, 2024", "occurrence"},
		{"Tallis completed its acquisition of Quillwork Ltd., a maker of document tools, for $212.4 million in cash.", "$212.4 million", "price"},
		{"Tallis agreed to acquire Quillwork for $212.4 million.", "$212.4 million", "price"},
		{"The race, worth €150,000 in prize money, had 8,734 finishers.", "€150,000", "money"},
		{"The deal closed on June 28, 2024.", "June 28, 2024", "completion"},
	} {
		if c := claimOfText(t, tc.sentence, tc.text, "corran", "bay", "marathon", "tallis"); c.Head != tc.head {
			t.Errorf("Claims(%q) %s = %s; want %s", tc.sentence, tc.text, c.Head, tc.head)
		}
	}
	for _, w := range []string{"consideration", "purchase", "price"} {
		if headClass(w) != headClass("fee") {
			t.Errorf("headClass(%s) = %s; want fee's", w, headClass(w))
		}
	}
	if headClass("pot") != headClass("fund") || headClass("purse") != headClass("money") {
		t.Errorf("headClass(pot, purse) = %s, %s; want fund", headClass("pot"), headClass("purse"))
	}
}
