package intent

import (
	"fmt"
	"slices"
	"strings"
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
			p.flagRate(i)
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

// yesValues are the values of a flag column that say it happened.
var yesValues = setOf("y", "yes", "true", "t", "1")

// flagRate reads "reopen rate", "return rate" at i over a column flagging
// whether it happened (reopened: Y or N) as the share of the rows flagged
// yes, within each group when the request groups.
func (p *parser) flagRate(i int) {
	// the word as written: one an abbreviation was read into ("retention"
	// into ret) may mean another flag the same letters start
	w := strings.ToLower(p.toks[i].raw)
	var found *Column
	yes := ""
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if !slices.ContainsFunc(nameWords(c.Name), func(cw string) bool { return sameWord(w, cw) || stem(w) == stem(cw) }) {
			continue
		}
		v := flagYes(c)
		if v == "" {
			continue
		}
		if found != nil {
			return // two flags of that name: not this pass's to choose
		}
		found, yes = c, v
	}
	if found == nil {
		return
	}
	src := p.src(i, i+2)
	p.in.Filters = append(p.in.Filters, Filter{Column: found.Name, Op: "=", Values: []string{yes}})
	p.filterRead(found.Name, i)
	if !slices.Contains(p.in.Analyses, AnalysisShare) {
		p.in.Analyses = append(p.in.Analyses, AnalysisShare)
	}
	p.akind[i+1] = AnalysisShare
	p.in.RateOf = found.Name
	p.understood(i, fmt.Sprintf("%s -> the share of rows with %s = %s (within each group)", src, found.Name, yes), src)
	p.use(i, i+2)
	p.named = true
}

// flagYes returns the value of c that flags yes when c holds two values,
// one yes and one no (Y and N, Yes and No, 1 and 0, true and false); ""
// otherwise.
func flagYes(c *Column) string {
	switch {
	case c.Type == "boolean":
		return "true"
	case c.Type == "integer" && c.Min == "0" && c.Max == "1":
		return "1"
	case isText(c) && len(c.Values) == 2:
		no := setOf("n", "no", "false", "f", "0")
		for k, v := range c.Values {
			if yesValues[strings.ToLower(v)] && no[strings.ToLower(c.Values[1-k])] {
				return v
			}
		}
	}
	return ""
}

// rateAlone reports a rate asked beside a measure of a column ("average
// qty and return rate by region"): the rate is of rows, and the measure
// would be taken over the rows the rate counts; asked apart, each is
// answered.
func (p *parser) rateAlone() error {
	if p.in.RateOf == "" {
		return nil
	}
	for _, m := range p.in.Measures {
		if m.Column != "" {
			p.in.Unknown = append(p.in.Unknown, Unknown{Word: "rate", Reason: "a rate of rows beside " + m.Column + ": ask for them one at a time"})
			return nil
		}
	}
	return nil
}
