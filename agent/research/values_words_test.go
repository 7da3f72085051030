package research

import "testing"

// Numbers written in words, dates written in digits and currencies named
// after an amount are values as their usual forms are, and the same
// values: "twenty-one stops" is 21, "22/08/2024" is 22 August 2024, "4.2
// million dollars" is $4.2 million.
func TestValuesWrittenOtherWays(t *testing.T) {
	for _, tc := range []struct {
		text string
		kind Kind
		num  float64
		day  string
		same string
	}{
		{"The line has twenty-one stops.", KindNumber, 21, "", "21 stops"},
		{"Quantity: one thousand three hundred and twenty-seven coins.", KindNumber, 1327, "", "1,327 coins"},
		{"Selling him for twelve and a half million hurt.", KindNumber, 12.5e6, "", "12.5 million"},
		{"The budget was three point six million dollars.", KindMoney, 3.6e6, "", "$3.6 million"},
		{"The project raised 4.2 million dollars from sponsors.", KindMoney, 4.2e6, "", "$4.2 million"},
		{"Income was 2,400,000 US dollars.", KindMoney, 2.4e6, "", "$2.4 million"},
		{"Date of discovery: 22/08/2024.", KindDate, 0, "2024-08-22", "22 August 2024"},
		{"Released 2024/03/12.", KindDate, 0, "2024-03-12", "March 12, 2024"},
		{"Opened 09/21/2024.", KindDate, 0, "2024-09-21", "21 September 2024"},
	} {
		vs := Values(tc.text)
		if len(vs) == 0 {
			t.Errorf("Values(%q) = none; want a %s", tc.text, tc.kind)
			continue
		}
		v := vs[0]
		if v.Kind != tc.kind || v.Num != tc.num || v.Day != tc.day {
			t.Errorf("Values(%q) = %+v; want %s %v %q", tc.text, v, tc.kind, tc.num, tc.day)
		}
		if w := Values(tc.same); len(w) == 0 || !Same(v, w[0]) {
			t.Errorf("Same(%q, %q) = false; want true", v.Text, tc.same)
		}
	}
	for _, s := range []string{"It was one of the best.", "one two three", "£185,000, not less"} {
		for _, v := range Values(s) {
			if v.Kind == KindNumber && v.Num < 2 || v.Text == "£185,000," {
				t.Errorf("Values(%q) = %+v; want no number of a word like one, no comma after an amount", s, v)
			}
		}
	}
}
