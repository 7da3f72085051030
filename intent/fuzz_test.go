package intent

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
)

// FuzzParse checks that Parse never panics, returns either an Intent or an
// INVALID error, and that what it returns holds together: periods are
// dates with Start before End, filters have values, rankings a positive N,
// and every column named exists in the table chosen. The schema gets a
// column and a value from the fuzzer too.
func FuzzParse(f *testing.F) {
	seeds := []string{
		"Analyze Q1 2021 Arizona sales; trends + charts",
		"top 10 products by revenue vs last year",
		"sales from Jan 5 2021 through Feb 2 2021 excluding Texas",
		"how many customers in New York and Nevada by month",
		`average "amount" where quantity >= 5 and discount above 10%`,
		"between 2021-01-01 and 2021-02-01 YoY month-over-month",
		"'", "\"unterminated", "`", "by", "top", "last", "from to", "Q5 2021", "2021-13-45", "99/99/9999",
		"“SibSp” ‘Fare’ state's products' 1,000,000 $5k 10%",
		"by regoin", "Arizna Nevda Texs", "\x00\xff\xfe", "last 99999999999999999999 days",
	}
	for _, s := range seeds {
		f.Add(s, "region", "North")
	}
	f.Fuzz(func(t *testing.T, text, col, val string) {
		s := bothSchema
		s.Tables = append([]Table(nil), s.Tables...)
		extra := sales
		extra.Name = "extra"
		extra.Columns = append(append([]Column(nil), sales.Columns...),
			Column{Name: col, Type: "string", Values: []string{val, "Other " + val}},
			Column{Name: col + "_when", Type: "timestamp", Min: val, Max: val + "2021-01-01"})
		s.Tables = append(s.Tables, extra)
		for _, now := range []time.Time{now, {}} {
			in, err := Parse(text, s, now)
			if err != nil {
				var qe *quarry.Error
				if !errors.As(err, &qe) || qe.Code != quarry.ECodeInvalid && qe.Code != quarry.ECodeNeedsClarification {
					t.Fatalf("Parse(%q) error %v; want %s", text, err, quarry.ECodeInvalid)
				}
				continue
			}
			check(t, text, s, in)
		}
	})
}

func check(t *testing.T, text string, s Schema, in *Intent) {
	t.Helper()
	var table *Table
	for i := range s.Tables {
		if s.Tables[i].Name == in.Table {
			table = &s.Tables[i]
		}
	}
	if table == nil {
		t.Fatalf("Parse(%q).Table = %q; not in the schema", text, in.Table)
	}
	has := func(name string) bool {
		for _, c := range table.Columns {
			if c.Name == name {
				return true
			}
		}
		return false
	}
	for _, r := range []*TimeRange{in.Time, in.Compare} {
		if r == nil {
			continue
		}
		a, err1 := time.Parse(iso, r.Start)
		b, err2 := time.Parse(iso, r.End)
		if err1 != nil || err2 != nil || !a.Before(b) || r.Label == "" || r.Column != "" && !has(r.Column) {
			t.Fatalf("Parse(%q) period %+v", text, *r)
		}
	}
	for _, m := range in.Measures {
		if m.Column != "" && !has(m.Column) || aggWords[m.Agg] == "" {
			t.Fatalf("Parse(%q) measure %+v", text, m)
		}
	}
	for _, f := range in.Filters {
		if !has(f.Column) || len(f.Values) == 0 || !strings.Contains(" = in != > >= < <= ", " "+f.Op+" ") {
			t.Fatalf("Parse(%q) filter %+v", text, f)
		}
	}
	for _, g := range in.GroupBy {
		if !has(g.Column) {
			t.Fatalf("Parse(%q) group %+v", text, g)
		}
	}
	if in.Top != nil && (in.Top.N <= 0 || in.Top.Column != "" && !has(in.Top.Column)) {
		t.Fatalf("Parse(%q) top %+v", text, *in.Top)
	}
}
