package intent

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
)

// want is what a case checks: every field of the Intent but Text and
// Understood, of which it checks only the entries listed.
type want struct {
	Table      string
	Measures   []Measure
	Filters    []Filter
	Time       *TimeRange
	Compare    *TimeRange
	GroupBy    []Group
	Top        *TopN
	Analyses   []string
	Understood []string // each must be in Intent.Understood
	Unparsed   []string
}

func od(start, end, label string) *TimeRange {
	return &TimeRange{Column: "order_date", Start: start, End: end, Label: label}
}

var (
	sumAmount = Measure{Column: "amount", Agg: "sum"}
	countRows = Measure{Column: "", Agg: "count"}
	byMonth   = Group{"order_date", "month"}
	q1        = od("2021-01-01", "2021-04-01", "Q1 2021")
)

func eq(col, v string) Filter { return Filter{col, "=", []string{v}} }

type parseCase struct {
	text   string
	schema Schema
	want   want
}

func checkCases(t *testing.T, cases []parseCase) {
	t.Helper()
	for _, c := range cases {
		s := c.schema
		if s.Tables == nil {
			s = salesSchema
		}
		in, err := Parse(c.text, s, now)
		if err != nil {
			t.Errorf("Parse(%q) error: %v", c.text, err)
			continue
		}
		w := c.want
		if w.Table == "" {
			w.Table = "sales"
		}
		got := want{in.Table, in.Measures, in.Filters, in.Time, in.Compare, in.GroupBy, in.Top, in.Analyses, nil, in.Unparsed}
		exp := w
		exp.Understood = nil
		if !reflect.DeepEqual(norm0(got), norm0(exp)) {
			t.Errorf("Parse(%q)\n got  %s\n want %s\n understood %q", c.text, show(got), show(exp), in.Understood)
		}
		for _, u := range w.Understood {
			if !slices.Contains(in.Understood, u) {
				t.Errorf("Parse(%q).Understood = %q; want it to hold %q", c.text, in.Understood, u)
			}
		}
	}
}

// norm0 makes empty slices nil, so that cases need not spell them.
func norm0(w want) want {
	if len(w.Measures) == 0 {
		w.Measures = nil
	}
	if len(w.Filters) == 0 {
		w.Filters = nil
	}
	if len(w.GroupBy) == 0 {
		w.GroupBy = nil
	}
	if len(w.Analyses) == 0 {
		w.Analyses = nil
	}
	if len(w.Unparsed) == 0 {
		w.Unparsed = nil
	}
	return w
}

func show(w want) string {
	var b strings.Builder
	b.WriteString("table=" + w.Table)
	b.WriteString(" measures=" + fmtv(w.Measures) + " filters=" + fmtv(w.Filters))
	if w.Time != nil {
		b.WriteString(" time=" + fmtv(*w.Time))
	}
	if w.Compare != nil {
		b.WriteString(" compare=" + fmtv(*w.Compare))
	}
	b.WriteString(" groupBy=" + fmtv(w.GroupBy))
	if w.Top != nil {
		b.WriteString(" top=" + fmtv(*w.Top))
	}
	b.WriteString(" analyses=" + fmtv(w.Analyses) + " unparsed=" + fmtv(w.Unparsed))
	return b.String()
}

func fmtv(v any) string { return fmt.Sprintf("%v", v) }

func TestParseSpecExample(t *testing.T) {
	checkCases(t, []parseCase{{
		text: "Analyze Q1 2021 Arizona sales; trends + charts",
		want: want{
			Measures: []Measure{sumAmount},
			Filters:  []Filter{eq("state", "Arizona")},
			Time:     q1,
			GroupBy:  []Group{byMonth},
			Analyses: []string{AnalysisTrend, AnalysisChart},
			Understood: []string{
				"Q1 2021 -> order_date from 2021-01-01 to 2021-03-31",
				"Arizona -> state = 'Arizona'",
				"sales -> sum of amount",
				"trends -> by month of order_date (the period spans 90 days)",
			},
		},
	}})
}

func TestParseErrors(t *testing.T) {
	regions := Schema{Tables: []Table{{Name: "orders", Columns: []Column{
		{Name: "order_date", Type: "date", Max: "2021-12-31"},
		{Name: "region", Type: "string", Values: []string{"North", "South"}},
		{Name: "revenue", Type: "float"},
		{Name: "quantity", Type: "integer"},
	}}}}
	cases := []struct {
		text   string
		schema Schema
		want   []string // in the message
	}{
		{"Q1 2021", salesSchema, []string{"I understood: Q1 2021 (order_date)", "I need a measure: one of the numeric columns amount, quantity, discount_pct, or a word such as count"}},
		{"Arizona in March 2021", salesSchema, []string{"Arizona (state = 'Arizona')", "March 2021 (order_date)", "I need a measure"}},
		{"hello world", salesSchema, []string{"I understood nothing I can compute", "did not understand: world"}},
		{"foo bar", salesSchema, []string{"I understood nothing I can compute", "foo, bar"}},
		{"", salesSchema, []string{"I understood nothing"}},
		{`total "revenu" by region`, regions, []string{"no column revenu; did you mean revenue?"}},
		{"sum of 'Amout'", salesSchema, []string{"no column Amout; did you mean amount?"}},
		{"revenue by regoin", regions, []string{"no column regoin; did you mean region?"}},
		{"sales by stat", salesSchema, []string{"no column stat; did you mean state?"}},
		{"average quantiy by region", regions, []string{"no column quantiy; did you mean quantity?"}},
		{"top 5 prodcts by sales", salesSchema, []string{"no column prodcts; did you mean product?"}},
		{strings.Repeat("sales ", 400), salesSchema, []string{"at most 2000"}},
		{"sales", Schema{}, []string{"no table"}},
	}
	for _, c := range cases {
		in, err := Parse(c.text, c.schema, now)
		var qe *quarry.Error
		if !errors.As(err, &qe) || qe.Code != quarry.ECodeInvalid && qe.Code != quarry.ECodeNeedsClarification {
			t.Errorf("Parse(%q) = %+v, %v; want an %s or %s error", c.text, in, err, quarry.ECodeInvalid, quarry.ECodeNeedsClarification)
			continue
		}
		if qe.Code == quarry.ECodeNeedsClarification && (in == nil || len(in.Unknown) == 0) {
			t.Errorf("Parse(%q) = %+v; a request that needs clarifying says what was not understood", c.text, in)
		}
		for _, w := range c.want {
			if !strings.Contains(qe.Message, w) {
				t.Errorf("Parse(%q) error %q; want it to say %q", c.text, qe.Message, w)
			}
		}
		if qe.Hint == "" {
			t.Errorf("Parse(%q) error %q has no hint", c.text, qe.Message)
		}
	}
}
