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
		if w == "" || p.toks[i].kind != kWord {
			continue
		}
		if r := p.skip(i+1, "-"); p.rowWord(r) && isRate(p.low(r+1)) {
			p.flagRate(i, r+2) // "late-delivery rate": of the rows, late
			continue
		}
		if !isRate(p.low(i + 1)) {
			p.flagBeforeRows(i)
			continue
		}
		events := p.countColumnOf(w)
		if events == nil {
			p.flagRate(i, i+2)
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

// sameRoot reports whether w and cw are one root with other endings,
// spelled with one l or two: "cancellation" and canceled, "returned" and
// return.
func sameRoot(w, cw string) bool {
	a, b := stem(w), stem(cw)
	if u := undoubled(a); u != "" {
		a = u
	}
	if u := undoubled(b); u != "" {
		b = u
	}
	return a == b
}

func isRate(w string) bool { return w == "rate" || w == "rates" }

// rowWord reports whether the word at k names the table's rows: "delivery"
// over shipments, "shipments", "tickets".
func (p *parser) rowWord(k int) bool {
	w := p.low(k)
	return w != "" && p.toks[k].kind == kWord && !stopwords[w] && (tableWord(p.t, w) || isEntityNoun(w) || p.rootOfTable(w))
}

// flagNamed returns the one column flagging whether what the word at i
// says happened (late_flg: 0 or 1, reopened: Y or N) and its value for
// yes; nil if none, or two.
func (p *parser) flagNamed(i int) (*Column, string) {
	// the word as written: one an abbreviation was read into ("retention"
	// into ret) may mean another flag the same letters start
	w := strings.ToLower(p.toks[i].raw)
	var found *Column
	yes := ""
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if !slices.ContainsFunc(nameWords(c.Name), func(cw string) bool { return sameWord(w, cw) || sameRoot(w, cw) }) {
			continue
		}
		v := flagYes(c)
		if v == "" {
			continue
		}
		if found != nil {
			return nil, "" // two flags of that name: not this pass's to choose
		}
		found, yes = c, v
	}
	return found, yes
}

// flagBeforeRows reads a flag's word before the table's rows ("late
// shipments", "reopened tickets") as the rows flagged yes.
func (p *parser) flagBeforeRows(i int) {
	k := p.skip(i+1, "-")
	if !p.rowWord(k) || p.isValue(i) {
		return
	}
	c, yes := p.flagNamed(i)
	if c == nil {
		return
	}
	if cc, _, st := p.colAt(i, prefAny); cc == c && st >= mWords {
		return // named in full ("preterm babies", "non-remote staff"): the measures read it
	}
	start := i
	if b := i - 1; b > 0 && p.low(b) == "-" && (p.low(b-1) == "non" || p.low(b-1) == "not") {
		start = b - 1
	} else if b >= 0 && (p.low(b) == "non" || p.low(b) == "not" || p.low(b) == "no") {
		start = b
	}
	if start < i {
		yes = flagNo(c) // "non-redo repairs"
	}
	p.addFilter(start, i+1, c, []string{yes}, false, "")
}

// flagNo returns the value of a flag column that says no.
func flagNo(c *Column) string {
	switch {
	case c.Type == "boolean":
		return "false"
	case c.Type == "integer":
		return "0"
	}
	yes := flagYes(c)
	for _, v := range c.Values {
		if v != yes {
			return v
		}
	}
	return ""
}

// flagRate reads "reopen rate", "return rate" (ending at end) at i over a
// column flagging whether it happened (reopened: Y or N) as the share of
// the rows flagged yes, within each group when the request groups.
func (p *parser) flagRate(i, end int) {
	found, yes := p.flagNamed(i)
	if found == nil {
		return
	}
	src := p.src(i, end)
	p.in.Filters = append(p.in.Filters, Filter{Column: found.Name, Op: "=", Values: []string{yes}})
	p.filterRead(found.Name, i)
	if !slices.Contains(p.in.Analyses, AnalysisShare) {
		p.in.Analyses = append(p.in.Analyses, AnalysisShare)
	}
	p.akind[end-1] = AnalysisShare
	p.in.RateOf = found.Name
	p.understood(i, fmt.Sprintf("%s -> the share of rows with %s = %s (within each group)", src, found.Name, yes), src)
	p.use(i, end)
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
