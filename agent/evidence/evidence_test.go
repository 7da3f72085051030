package evidence

import (
	"encoding/json"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
)

func values(vs ...float64) func(*Set) {
	return func(s *Set) {
		for _, v := range vs {
			s.AddValue(v)
		}
	}
}

func text(t string) func(*Set) { return func(s *Set) { s.AddText(t) } }

func TestCheckMatches(t *testing.T) {
	tests := []struct {
		written  string
		evidence func(*Set)
		match    bool
	}{
		// At the precision written, ends included.
		{"12.3%", values(12.34), true},
		{"12.3%", values(12.25), true},
		{"12.3%", values(12.35), true},
		{"12.3%", values(12.36), false},
		{"12.3%", values(12.24), false},
		{"12.3 %", values(12.3), true},
		{"12%", values(12.4), true},
		{"12%", values(12.6), false},
		{"1.2M", values(1_234_000), true},
		{"1.2M", values(1_250_000), true},
		{"1.2M", values(1_260_000), false},
		{"1.2 million", text("1,234,000 rows"), true},
		{"1.23 million", values(1_234_000), true},
		{"$48,120", values(48119.6), true},
		{"$48,120", values(48119.4), false},
		{"48,120", values(48120), true},
		{"1,234.50", values(1234.5), true},
		{"1,234.50", values(1234.56), false},
		{"48,000", values(48120), false}, // integers are exact: write 48k
		{"48k", values(48120), true},
		{"48K", values(48499), true},
		{"947.1k", text("The metric moved from 947,083 to 849,350"), true},
		{"£3bn", values(3.2e9), true},
		{"$3.2B", values(3.26e9), false},
		{"3 thousand", values(3000), true},
		{"2 billion", values(2.4e9), true},
		{"€1,200", values(1200), true},
		{"0.0001", text("p<0.0001"), true},
		{".5", values(0.5), true},
		{"2.5x", values(2.46), true},
		{"2.5×", values(2.56), false},
		// By absolute value.
		{"fell by 1,234", values(-1234), true},
		{"-1,234", values(1234), true},
		{"−3.2%", values(-3.2), true},
		{"+12.5%", values(-0.125), true},
		{"a drop of $97,732", text("(-97,732, -10.3%)"), true},
		{"10.3%", text("(-97,732, -10.3%)"), true},
		// Percentages and fractions.
		{"12.3%", values(0.1234), true},
		{"12.3%", values(0.1236), false},
		{"12 percent", values(0.12), true},
		{"2.1 pp", values(0.021), true},
		{"2.1pp", values(2.1), true},
		{"3 percentage points", values(0.03), true},
		{"0.123", text("a share of 12.3%"), true},
		{"0.123", values(12.3), false}, // only percentages written as such have a fraction
		{"12.3", values(0.123), false}, // a plain number is not a percentage
		// Numbers that count although they look small or like years.
		{"5%", values(5), true},
		{"5%", nil, false},
		{"$5", nil, false},
		{"7.0", nil, false},
		{"11", nil, false},
		{"11", values(11), true},
		{"2,024", nil, false},
		{"2101", nil, false},
		{"1899", nil, false},
	}
	for _, tt := range tests {
		var s Set
		if tt.evidence != nil {
			tt.evidence(&s)
		}
		res := s.Check(tt.written)
		if res.Numbers != 1 {
			t.Errorf("Check(%q) counted %d numbers; want 1", tt.written, res.Numbers)
			continue
		}
		if res.OK() != tt.match {
			t.Errorf("Check(%q) = %+v; want match %v", tt.written, res, tt.match)
		}
	}
}

func TestCheckIgnores(t *testing.T) {
	for _, text := range []string{
		"3 hypotheses were ruled out", "0 rows", "10 segments", "-4 days",
		"in 2024", "between 1900 and 2100",
		"2024-01-31", "2024-01-31T10:00", "2024-01-31T10:00:00Z", "2024-01-31 10:00:00.5+02:00",
		"2024-03-04..2024-03-17", "March 2024-03", "at 10:00", "09:30:15",
		"hyp_003", "find_001", "iter_002", "sql_0001", "output_001.txt", "Q1", "H2", "FY2023",
		"[1]", "[^2]", "as reported [1, 3].", "[1][12]",
		"v1.2.3", "1.2.3", "10.0.0.1", "version 12.04.5",
		"COVID-19", "5xx", "3rd", "21st", "250ms", "1e-5", "#12", "0x1F", "20x20",
		"results/explanations.json#1", "analysis/iterations/iter_012.json", "see Fig.12",
		"2024/12/31", "3/4", "2-3 Likely",
		"11. item", "Steps:\n  12) item",
		"December 31, 2023", "Dec. 31, 2023", "on 31 December 2023", "the 15th of March", "Sept 30",
		"page 12", "pages 12-14", "pages 12 and 13", "p. 41", "pp. 41–43", "Note 12", "see Item 7A", "Exhibit 31", "Section 404",
		"(2023)", "(in millions)", "the 65th year", "its 8-K", "the 10-K", "the 10K", "Form 10-Q", "an 8k filing", "its 20-F",
	} {
		var s Set
		res := s.Check(text)
		if res.Numbers != 0 || res.Text != text {
			t.Errorf("Check(%q) = %+v; want nothing checked", text, res)
		}
	}
}

func TestCheckParenthesesAreNegative(t *testing.T) {
	tests := []struct {
		written string
		value   float64
	}{
		{"(1,577)", 1577},
		{"$(1,577)", 1577},
		{"$(1,577) million", 1.577e9},
		{"(3.2)%", 3.2},
		{"(12)", 12},
	}
	for _, tt := range tests {
		var s Set
		s.AddValue(tt.value)
		if res := s.Check(tt.written); res.Numbers != 1 || !res.OK() || res.Text != tt.written {
			t.Errorf("Check(%q) with %g recorded = %+v; want 1 number, verified", tt.written, tt.value, res)
		}
	}
}

func TestAddPassage(t *testing.T) {
	const statement = "CONSOLIDATED STATEMENT OF CASH FLOWS\n(Millions)  2018  2017\nPurchases of PP&E  (1,577)  (1,373)\nOperating margin 22.3%\nRevenue per share 8.89\n"
	tests := []struct {
		passage, written string
		match            bool
	}{
		{statement, "$1,577 million", true},
		{statement, "$1.6 billion", true},
		{statement, "$1,577", true},
		{statement, "1.577", false},
		{statement, "$1,577 billion", false},
		{statement, "$1,577 thousand", false},
		{statement, "1,373", true},
		{statement, "22.3%", true},
		{statement, "22.3 million", false}, // a percentage has no unit but its own
		{"(In thousands, except per share data)\nNet loss (8,412)", "$8.4 million", true},
		{"(Dollars in billions)\nTotal assets 228.4", "$228.4 billion", true},
		{"($ in millions)\nTotal debt 4,012", "$4.0 billion", true},
		{"in millions of dollars: revenue 812", "$812 million", true},
		{"(£000)\nTurnover 5,210", "£5.21 million", true},
		{"($ million)\nAdjusted EBIT 2,018", "$2,018 million", true},
		{"(Dollarsinmillions,exceptpershamounts)\nProperty, plant and equipment, net\n12,645", "$12,645 million", true},
		{"milestone payments of up to $470\nmillion contingent on", "$470 million", true},
		{"Net sales 812\n% change 4", "8.12", false}, // 812 is not 812%
		{"the 65th consecutive year of dividend increases", "65 consecutive years", true},
		{"sold 8,000 units", "8k", true},
		{"sold 8,000 units", "$8K", true},
		// Without a statement of the unit, an amount is in none.
		{"Net sales 812", "$812 million", false},
		{"Net sales 812", "812", true},
		// Written with a unit of its own, an amount keeps it.
		{"(In millions)\nThe facility is 12 thousand square feet", "12 billion", false},
		{"(In millions)\nThe facility is 12 thousand square feet", "12,000", true},
		// A passage's $812 million is not 12 million.
		{"Revenue was $812 million.", "12 million", false},
		{"Revenue was $812 million.", "$812 million", true},
		{"Revenue was $812 million.", "$0.8 billion", true},
	}
	for _, tt := range tests {
		var s Set
		s.AddPassage(tt.passage, "")
		if res := s.Check(tt.written); res.Numbers != 1 || res.OK() != tt.match {
			t.Errorf("AddPassage(%q); Check(%q) = %+v; want match %v", tt.passage, tt.written, res, tt.match)
		}
	}
}

func TestAddPassageOnAPage(t *testing.T) {
	const page = "Consolidated Balance Sheets\n(In millions)  2022  2021\nCash 800 700\n...\nTotal liabilities 1,900 1,800\nCommon stock 75 75"
	tests := []struct {
		passage, page, written string
		match                  bool
	}{
		// The foot of a statement is in the unit its top states.
		{"Total liabilities 1,900 1,800\nCommon stock 75 75", page, "$1.9 billion", true},
		{"Total liabilities 1,900 1,800\nCommon stock 75 75", "", "$1.9 billion", false},
		// The page lends its unit, not its numbers.
		{"Total liabilities 1,900 1,800\nCommon stock 75 75", page, "$800 million", false},
	}
	for _, tt := range tests {
		var s Set
		s.AddPassage(tt.passage, tt.page)
		if res := s.Check(tt.written); res.Numbers != 1 || res.OK() != tt.match {
			t.Errorf("AddPassage(%q, page %v); Check(%q) = %+v; want match %v", tt.passage, tt.page != "", tt.written, res, tt.match)
		}
	}
}

func TestCheckMarksInventedNumbers(t *testing.T) {
	var s Set
	s.AddText("The metric moved from 947,083 to 849,350 (-97,732, -10.3%); p<0.0001.")
	s.AddText("platform=android carries 64% of the change from 34.6% of the baseline")
	s.AddText("platform=android AND app_version=5.2")
	s.AddValue(0.59)

	correct := "Revenue fell 10.3% (a drop of $97,732, from 947.1k to 849k); android carried 64% of the change, and android on 5.2 explains 59%. See [1] and hyp_003."
	res := s.Check(correct)
	if !res.OK() || res.Text != correct || res.Numbers != 7 {
		t.Errorf("Check(correct) = %+v; want all 7 numbers verified and the text unchanged", res)
	}

	invented := "Revenue fell 10.3%, and enterprise revenue fell 42% to $52,000 in 2024."
	res = s.Check(invented)
	want := "Revenue fell 10.3%, and enterprise revenue fell 42% [unverified] to $52,000 [unverified] in 2024."
	if res.Text != want || !reflect.DeepEqual(res.Unverified, []string{"42%", "$52,000"}) || res.Numbers != 3 || res.OK() {
		t.Errorf("Check(invented) = %+v; want text %q and 42%%, $52,000 unverified of 3", res, want)
	}

	// Checking the marked text again marks nothing twice.
	again := s.Check(res.Text)
	if again.Text != res.Text || !reflect.DeepEqual(again.Unverified, res.Unverified) {
		t.Errorf("Check(marked) = %+v; want the text unchanged and the same numbers unverified", again)
	}
	if got := s.Check("a fall of 1.2 million [unverified]"); got.Text != "a fall of 1.2 million [unverified]" {
		t.Errorf("Check(already marked) = %q; want it unchanged", got.Text)
	}
}

func TestAddResult(t *testing.T) {
	var s Set
	s.AddResult(nil)
	s.AddResult(&quarry.QueryResult{
		Columns: []string{"a", "b", "c", "d", "e", "f", "g", "h"},
		Rows: [][]any{
			{int64(-97732), 0.1234, "1234.5", "platform=android", nil, time.Date(2024, 3, 4, 0, 0, 0, 0, time.UTC), json.Number("42.5"), big.NewInt(947083)},
			{int32(15), float32(2.5), "3.2%", true, "hyp_077", "2024-01-31", "1.5e6", []byte("88")},
		},
	})
	for _, written := range []string{"97,732", "12.3%", "1,234.5", "42.5", "947,083", "15.0", "2.5x", "3.2%", "0.032", "1.5M", "88"} {
		if res := s.Check(written); !res.OK() {
			t.Errorf("after AddResult, Check(%q) = %+v; want verified", written, res)
		}
	}
	for _, written := range []string{"77", "31", "2,024", "99"} {
		if res := s.Check(written); res.OK() {
			t.Errorf("after AddResult, Check(%q) is verified; want unverified (not a numeric cell)", written)
		}
	}
}

func TestLen(t *testing.T) {
	var s Set
	if s.Len() != 0 || !s.Check("none here").OK() {
		t.Fatalf("zero Set: Len = %d; want 0", s.Len())
	}
	s.AddValue(1)
	s.AddValue(-1)
	s.AddValue(2.5)
	s.AddText("12.3% of 2024-01-31 at hyp_003 and 2.5")
	if got := s.Len(); got != 3 { // 1, 2.5, 12.3
		t.Errorf("Len() = %d; want 3", got)
	}
}

func FuzzCheck(f *testing.F) {
	for _, seed := range []string{
		"Revenue fell 10.3% (-$97,732) to 849,350 [1].",
		"hyp_003 1.2.3 2024-01-31T10:00 Q1 12) x 1.2 million [unverified]",
		"$-5 -$5 ..5 5.. 1,234,56 1,2345 €£$ 3 pp 2.5× −7",
		"12.3%[unverified]  [unverified] 42 [unverified 42",
		"\xff9\xc3\x28 1e-5 0x1F 5xx .5.5.5",
	} {
		f.Add(seed)
	}
	var s Set
	s.AddText("947,083 10.3% 42")
	f.Fuzz(func(t *testing.T, in string) {
		res := s.Check(in)
		if strings.ReplaceAll(res.Text, " "+Marker, "") != strings.ReplaceAll(in, " "+Marker, "") {
			t.Fatalf("Check(%q).Text = %q; without markers it differs from the input", in, res.Text)
		}
		added := strings.Count(res.Text, Marker) - strings.Count(in, Marker)
		if added < 0 || added > len(res.Unverified) || len(res.Unverified) > res.Numbers {
			t.Fatalf("Check(%q) = %+v; added %d markers", in, res, added)
		}
		for _, u := range res.Unverified {
			if !strings.Contains(in, u) {
				t.Fatalf("Check(%q): unverified %q is not in the input", in, u)
			}
		}
	})
}
