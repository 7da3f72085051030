package intent

import (
	"fmt"
	"slices"
)

// exposureNouns name what a rate of events is out of: "bounce rate" is
// bounces over sessions, "conversion rate" conversions over visits.
var exposureNouns = setOf("sessions", "visits", "visitors", "users", "impressions", "pageviews", "views", "calls",
	"attempts", "trials", "requests", "applications", "shots", "deliveries", "shipments", "patients", "admissions")

// eventRates reads "bounce rate", "conversion rates" over a table with a
// column counting those events (bounces) and one column of what they are
// out of (sessions) as the ratio of their totals. With no such column,
// or two, the rate is left to be reported.
func (p *parser) eventRates() error {
	if p.t == nil {
		return nil
	}
	for i := 0; i+1 < len(p.toks); i++ {
		w := p.low(i)
		if w == "" || p.toks[i].kind != kWord || (p.low(i+1) != "rate" && p.low(i+1) != "rates") {
			continue
		}
		events := p.countColumnOf(w)
		if events == nil {
			continue
		}
		var base []string
		for ci := range p.t.Columns {
			c := &p.t.Columns[ci]
			if n := nameWords(c.Name); isNumeric(c) && c != events && len(n) == 1 && exposureNouns[n[0]] {
				base = append(base, c.Name)
			}
		}
		if len(base) != 1 {
			continue
		}
		src := p.src(i, i+2)
		p.in.Measures = append(p.in.Measures, Measure{Column: events.Name, Agg: "sum", Per: base[0]})
		p.understood(i, fmt.Sprintf("%s -> the total of %s divided by the total of %s", src, events.Name, base[0]), src)
		p.use(i, i+2)
		p.named = true
		i++
	}
	return nil
}

// countColumnOf returns the integer column named by the plural of w or w
// itself ("bounce" for bounces, "conversion" for conversions), nil if
// none.
func (p *parser) countColumnOf(w string) *Column {
	i := slices.IndexFunc(p.t.Columns, func(c Column) bool {
		n := nameWords(c.Name)
		return c.Type == "integer" && len(n) == 1 && singular(n[0]) != n[0] && (n[0] == w || singular(n[0]) == w || singular(n[0]) == singular(w))
	})
	if i < 0 {
		return nil
	}
	return &p.t.Columns[i]
}
