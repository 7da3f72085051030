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
	} {
		c := claimOfText(t, tc.sentence, tc.text, "thornmere")
		if c.Head != tc.head || c.Unit != tc.unit {
			t.Errorf("Claims(%q) %s = head %q unit %q; want %q %q", tc.sentence, tc.text, c.Head, c.Unit, tc.head, tc.unit)
		}
	}
}
