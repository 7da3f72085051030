package research

import "testing"

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
