package intent

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// timeAt reads one period at token i: relative ("last 30 days", "this
// year", "YTD"), fiscal ("FY2022"), quarter, half, numeric date, month
// name with or without a day, or year. It returns the period and the
// number of tokens read.
func (p *parser) timeAt(i int) (span, int, bool) {
	for _, f := range []func(int) (span, int, bool){p.relativeAt, p.fiscalAt, p.quarterAt, p.halfAt, p.numericAt, p.monthAt, p.decadeAt, p.yearAt} {
		if s, n, ok := f(i); ok {
			if !sane(s.start) || !sane(s.end) || !s.start.Before(s.end) {
				return span{}, 0, false
			}
			return s, n, true
		}
	}
	return span{}, 0, false
}

// defaultYear places a period written without a year in the anchor's
// year, or the year before when that would be after the anchor.
func (p *parser) defaultYear(s span) span {
	s = s.withYear(p.anchor.Year())
	if s.start.After(p.anchor) {
		s = s.withYear(p.anchor.Year() - 1)
	}
	s.yearGiven = false
	return s
}

// relativeAt reads a period relative to the anchor: "last 30 days" and
// "last 12 months" (ending on the anchor, whole months, quarters and
// years), "past month" (the month up to the anchor), "last quarter" (the
// calendar quarter before the anchor's), "this year", "YTD", "LTM".
func (p *parser) relativeAt(i int) (span, int, bool) {
	a := p.anchor
	next := a.AddDate(0, 0, 1)
	todate := func(unit, lbl string, n int) (span, int, bool) {
		return span{start: unitStart(a, unit), end: next, label: lbl, rel: true, yearGiven: true}, n, true
	}
	w := p.low(i)
	switch w {
	case "ytd":
		return todate("year", "year to date", 1)
	case "mtd":
		return todate("month", "month to date", 1)
	case "qtd":
		return todate("quarter", "quarter to date", 1)
	case "wtd":
		return todate("week", "week to date", 1)
	case "ltm", "ttm":
		return span{start: monthStart(a).AddDate(0, -11, 0), end: next, label: "last 12 months", rel: true, yearGiven: true}, 1, true
	case "today":
		return span{start: a, end: next, unit: "day", label: "today", rel: true, yearGiven: true}, 1, true
	case "yesterday":
		return span{start: a.AddDate(0, 0, -1), end: a, unit: "day", label: "yesterday", rel: true, yearGiven: true}, 1, true
	}
	for _, u := range []string{"year", "month", "quarter", "week"} {
		if n := p.phrase(i, u+" to date"); n > 0 {
			return todate(u, u+" to date", n)
		}
	}
	switch w {
	case "last", "past", "previous", "prior", "trailing", "recent", "preceding", "this", "current":
	default:
		return span{}, 0, false
	}
	j := i + 1
	n, hasN := count(p.low(j))
	if hasN {
		j++
	}
	unit, ok := units[p.low(j)]
	if !ok {
		return span{}, 0, false
	}
	j++
	lbl := strings.Join([]string{w, p.low(i + 1)}, " ")
	if hasN {
		lbl = fmt.Sprintf("%s %d %s", w, n, p.low(j-1))
	}
	s := span{end: next, label: lbl, rel: true, yearGiven: true}
	switch {
	case w == "this" || w == "current":
		if hasN {
			return span{}, 0, false
		}
		s.start = unitStart(a, unit)
		s.end, s.unit = addUnits(s.start, unit, 1), unit
	case hasN:
		switch unit {
		case "day":
			s.start = a.AddDate(0, 0, -(n - 1))
		case "week":
			s.start = a.AddDate(0, 0, -(7*n - 1))
		case "month":
			s.start = monthStart(a).AddDate(0, -(n - 1), 0)
		case "quarter":
			s.start = quarterStart(a).AddDate(0, -3*(n-1), 0)
		case "year":
			s.start = monthStart(a).AddDate(0, -(12*n - 1), 0)
		}
	case w == "past" || w == "trailing" || w == "recent":
		s.start = addUnits(a, unit, -1).AddDate(0, 0, 1)
	default: // last, previous, prior, preceding: the calendar unit before the anchor's
		// "last quarter of 2021": the final quarter of that year.
		if k := p.skip(j, "of", "in"); k > j && w == "last" && unit != "week" && unit != "day" {
			if y, ok := yearOf(p.low(k)); ok {
				start := addUnits(ymd(y+1, 1, 1), unit, -1)
				c := calendar(start, unit)
				return c, k + 1 - i, true
			}
		}
		s.end = unitStart(a, unit)
		s.start = addUnits(s.end, unit, -1)
		s.unit = unit
	}
	return s, j - i, true
}

// fiscalAt reads "FY2022", "FY 22", "fiscal year 2022", "CY2021" as the
// calendar year: the schema says nothing of a fiscal calendar.
func (p *parser) fiscalAt(i int) (span, int, bool) {
	w := p.low(i)
	j := i + 1
	var yw string
	switch {
	case (strings.HasPrefix(w, "fy") || strings.HasPrefix(w, "cy")) && len(w) > 2:
		yw = w[2:]
	case w == "fy" || w == "cy":
		yw, j = p.low(j), j+1
	case p.phrase(i, "fiscal year") > 0 || p.phrase(i, "calendar year") > 0:
		yw, j = p.low(i+2), i+3
	case w == "fiscal":
		yw, j = p.low(i+1), i+2
	default:
		return span{}, 0, false
	}
	y, ok := yearOf(yw)
	if !ok && len(yw) == 2 {
		if n, err := strconv.Atoi(yw); err == nil {
			y, ok = 2000+n, true
		}
	}
	if !ok {
		return span{}, 0, false
	}
	s := calendar(ymd(y, 1, 1), "year")
	if strings.HasPrefix(w, "fy") || w == "fiscal" {
		s.label = fmt.Sprintf("FY%d", y)
	}
	return s, j - i, true
}

// partAt reads a quarter or a half of a year: "Q1 2021", "2021 Q1",
// "2021Q1", "Q1-2021", "Q1 of 2021", "first quarter of 2021", "H2 2021",
// "second half of 2021", "Q3" (in the anchor's year).
func (p *parser) partAt(i int, letter byte, unit, word string, max int) (span, int, bool) {
	months := 3
	if unit == "half" {
		months = 6
	}
	part := func(w string) (int, bool) {
		if len(w) == 2 && w[0] == letter && w[1] >= '1' && w[1] <= byte('0'+max) {
			return int(w[1] - '0'), true
		}
		return 0, false
	}
	mk := func(y, q int) span {
		return calendar(ymd(y, time.Month((q-1)*months+1), 1), unit)
	}
	w := p.low(i)
	// "2021q1"
	if len(w) == 6 && w[4] == letter {
		if y, ok := yearOf(w[:4]); ok {
			if q, ok := part(w[4:]); ok {
				return mk(y, q), 1, true
			}
		}
	}
	// "2021 Q1", "2021-Q1"
	if y, ok := yearOf(w); ok {
		j := p.skip(i+1, "-")
		if q, ok := part(p.low(j)); ok {
			return mk(y, q), j + 1 - i, true
		}
		return span{}, 0, false
	}
	q, ok := part(w)
	j := i + 1
	if !ok {
		q, ok = ordinals[w]
		if !ok || q > max || p.low(i+1) != word {
			return span{}, 0, false
		}
		j = i + 2
	}
	k := p.skip(j, "-", "of", "in")
	if y, m, ok := p.yearTok(k); ok {
		return mk(y, q), k + m - i, true
	}
	return p.defaultYear(mk(p.anchor.Year(), q)), j - i, true
}

func (p *parser) quarterAt(i int) (span, int, bool) { return p.partAt(i, 'q', "quarter", "quarter", 4) }
func (p *parser) halfAt(i int) (span, int, bool)    { return p.partAt(i, 'h', "half", "half", 2) }

func (p *parser) numericAt(i int) (span, int, bool) {
	w := p.low(i)
	if !strings.ContainsAny(w, "-/") {
		return span{}, 0, false
	}
	s, ok := numericDate(w)
	return s, 1, ok
}

// monthAt reads "March 2024", "Mar 2024", "March of 2024", "Jan 5 2021",
// "Jan 5, 2021", "5 Jan 2021", "5th of January", "March" (in the anchor's
// year). A bare "may" is a month only after a preposition.
func (p *parser) monthAt(i int) (span, int, bool) {
	w := p.low(i)
	m, isMonth := months[w]
	if isMonth && !p.saidAsMonth(i) {
		return span{}, 0, false // "marital" read as mar: a column's word, no March
	}
	if !isMonth {
		// "5 Jan 2021", "5th of January 2021"
		d, ok := dayOf(w)
		if !ok {
			return span{}, 0, false
		}
		j := p.skip(i+1, "of")
		mm, ok := months[p.low(j)]
		if !ok || !p.saidAsMonth(j) || p.low(j) == "may" && p.toks[j].raw == "may" && !p.yearAfter(j+1) {
			return span{}, 0, false
		}
		return p.dayIn(i, j+1, mm, d)
	}
	j := i + 1
	if p.low(j) == "." {
		j++
	}
	if d, ok := dayOf(p.low(j)); ok {
		if _, isYear := yearOf(p.low(j)); !isYear {
			return p.dayIn(i, j+1, m, d)
		}
	}
	k := p.skip(j, "of", ",", "-")
	if y, n, ok := p.yearTok(k); ok {
		return calendar(ymd(y, m, 1), "month"), k + n - i, true
	}
	if w == "may" && !afterPreposition[p.low(i-1)] {
		return span{}, 0, false
	}
	if (w == "mar" || w == "march") && p.toks[i].raw == w && !afterPreposition[p.low(i-1)] {
		return span{}, 0, false // "march" the verb
	}
	return p.defaultYear(calendar(ymd(p.anchor.Year(), m, 1), "month")), j - i, true
}

var afterPreposition = setOf("in", "during", "for", "since", "until", "till", "from", "to", "through", "thru", "of",
	"vs", "versus", "than", "and", "between", "before", "after", "with", "against", "throughout", "over")

// yearTok reads a year at k: "2021", or "'21" after a quarter or month.
func (p *parser) yearTok(k int) (int, int, bool) {
	if y, ok := yearOf(p.low(k)); ok {
		return y, 1, true
	}
	if p.low(k) == "'" || p.low(k) == "’" {
		if w := p.low(k + 1); len(w) == 2 && w[0] >= '0' && w[0] <= '9' && w[1] >= '0' && w[1] <= '9' {
			return 2000 + int(w[0]-'0')*10 + int(w[1]-'0'), 2, true
		}
	}
	return 0, 0, false
}

func (p *parser) yearAfter(i int) bool {
	_, ok := yearOf(p.low(p.skip(i, ",")))
	return ok
}

// dayIn finishes a date whose month and day were read at tokens i..j-1:
// an optional ", 2021" gives the year.
func (p *parser) dayIn(i, j int, m time.Month, d int) (span, int, bool) {
	k := p.skip(j, ",")
	if y, ok := yearOf(p.low(k)); ok {
		if t, ok := validDate(y, int(m), d); ok {
			return calendar(t, "day"), k + 1 - i, true
		}
		return span{}, 0, false
	}
	t, ok := validDate(p.anchor.Year(), int(m), d)
	if !ok {
		return span{}, 0, false
	}
	return p.defaultYear(calendar(t, "day")), j - i, true
}

// numericContext are the tokens around a number that make it an amount
// rather than a year: "$2000", "over 2000", "2000 units".
var numericContext = setOf("$", "€", "£", ">", "<", ">=", "<=", "=", "!=", "over", "above", "under", "below", "than",
	"least", "most", "exceeding", "exceeds", "top", "bottom", "best", "worst", "first")

func (p *parser) yearAt(i int) (span, int, bool) {
	j := i
	if p.low(i) == "year" || p.low(i) == "calendar" {
		j++
	}
	y, ok := yearOf(p.low(j))
	if !ok {
		y, ok = p.dataYear(p.low(j))
	}
	if !ok || p.toks[j].kind != kWord || numericContext[p.low(i-1)] || p.low(j+1) == "%" || amountUnit(p.low(j+1)) != "" {
		return span{}, 0, false
	}
	return calendar(ymd(y, 1, 1), "year"), j + 1 - i, true
}

// decadeAt reads a decade: "the 1990s", "1850s". A year ending in 00 is
// not read ("the 1900s" is a decade or a century).
func (p *parser) decadeAt(i int) (span, int, bool) {
	w := p.low(i)
	if len(w) != 5 || w[4] != 's' || p.toks[i].kind != kWord {
		return span{}, 0, false
	}
	y, err := strconv.Atoi(w[:4])
	if err != nil || y%10 != 0 || y%100 == 0 || y < 1000 || y > 2100 {
		return span{}, 0, false
	}
	return span{start: ymd(y, 1, 1), end: ymd(y+10, 1, 1), yearGiven: true, label: w}, 1, true
}

// dataYear reads a four-digit year outside yearOf's range that the data
// has: within its dates ("1855" in the Crimean War's months), or any year
// from 1000 when the table's years are an integer column.
func (p *parser) dataYear(w string) (int, bool) {
	if len(w) != 4 {
		return 0, false
	}
	y, err := strconv.Atoi(w)
	switch {
	case err != nil || y < 1000 || y > 2100:
		return 0, false
	case p.date != nil && !p.dateMin.IsZero():
		return y, y >= p.dateMin.Year() && y <= p.anchor.Year()
	case p.date == nil:
		return y, p.yearColumn() != nil
	}
	return 0, false
}

// rangeAt reads a period with what may surround it: "from A to B",
// "between A and B", "A through B", "A - B", "since A", "after A",
// "before A", "until A". When A and B are periods of the same kind and the
// request speaks of change ("from Q4 2020 to Q1 2021"), it returns B as
// the period and A as the one to compare with.
func (p *parser) rangeAt(i int) (s span, cmp *span, n int, ok bool) {
	lead := p.low(i)
	j := i
	switch lead {
	case "from", "between", "since", "after", "before", "until", "till", "through", "thru", "starting", "beginning":
		j = p.skip(i+1, "from", "in", "on", "the")
	case "prior":
		if p.low(i+1) != "to" {
			return span{}, nil, 0, false
		}
		lead, j = "before", p.skip(i+2, "the")
	default:
		lead = ""
	}
	a, na, ok := p.timeAt(j)
	if !ok {
		return span{}, nil, 0, false
	}
	k := j + na
	if w := p.low(k); lead == "" && (w == "or" || w == "and") {
		// "in 2020 or later", "2019 and earlier": open at one end
		switch p.low(k + 1) {
		case "later", "after", "beyond", "since", "onwards", "onward":
			lead, k = "since", k+2
		case "earlier", "before", "prior":
			lead, k = "until", k+2
		}
	}
	sep := p.low(k)
	k2 := k + 1
	isSep := false
	switch sep {
	case "to", "-":
		isSep = true
	case "through", "thru", "until", "till":
		isSep = lead != "between"
	case "and":
		isSep = lead == "between"
	case "up":
		isSep, k2 = lead != "between" && p.low(k+1) == "to", k+2
	}
	if isSep {
		if b, nb, ok := p.timeAt(k2); ok {
			if !a.yearGiven && b.yearGiven {
				a = a.withYear(b.start.Year())
				if a.start.After(b.start) {
					a = a.withYear(b.start.Year() - 1)
				}
			}
			n = k2 + nb - i
			// "between 2023 and 2024" compares two years when the request
			// speaks of change; between two months or quarters it is
			// still the span from one to the other
			if a.unit != "" && a.unit == b.unit && a.unit != "day" && (lead != "between" || a.unit == "year") && !a.rel && !b.rel &&
				!a.end.After(b.start) && p.speaksOfChange() {
				return b, &a, n, true
			}
			if b.end.Before(a.start) {
				a, b = b, a
			}
			u := span{start: a.start, end: b.end, yearGiven: true}
			u.label = label(u.start, u.end)
			return u, nil, n, true
		}
	}
	if sep == "to" && p.low(k+1) == "date" {
		k += 2 // "from 2021 to date"
		lead = "since"
	}
	n = k - i
	last := p.anchor.AddDate(0, 0, 1)
	switch lead {
	case "from", "since", "starting", "beginning":
		if a.start.Before(last) {
			s := span{start: a.start, end: last, yearGiven: true, rel: true, label: "since " + a.label}
			return s, nil, n, true
		}
	case "after":
		if a.end.Before(last) {
			return span{start: a.end, end: last, yearGiven: true, rel: true, label: "after " + a.label}, nil, n, true
		}
	case "before":
		if first := p.firstDay(); !first.IsZero() && first.Before(a.start) {
			return span{start: first, end: a.start, yearGiven: true, label: "before " + a.label}, nil, n, true
		}
	case "until", "till", "through", "thru":
		if first := p.firstDay(); !first.IsZero() && first.Before(a.end) {
			return span{start: first, end: a.end, yearGiven: true, label: "through " + a.label}, nil, n, true
		}
	case "":
		return a, nil, n, true
	}
	// A lead word whose open end the data cannot close: the period alone is
	// read from the next token.
	return span{}, nil, 0, false
}

// openStart starts a period open at its start ("before 1950") on a table
// whose years are in an integer column: the column's first year is not
// known here, so yearColumnTimes reads this day as "no lower bound". (Not
// January 1 of year 1, which is time.Time's zero.)
var openStart = time.Date(1, 1, 2, 0, 0, 0, 0, time.UTC)

// firstDay is the first day a period open at its start begins on: the
// data's first date, openStart when the years are in an integer column,
// zero when neither is known.
func (p *parser) firstDay() time.Time {
	switch {
	case !p.dateMin.IsZero():
		return p.dateMin
	case p.date == nil && p.yearColumn() != nil:
		return openStart
	}
	return time.Time{}
}

// changeWords speak of a change between two periods.
var changeWords = setOf("compare", "compared", "comparison", "comparing", "difference", "differences", "change",
	"changes", "changed", "growth", "grow", "grew", "increase", "increased", "decrease", "decreased", "decline",
	"declined", "drop", "dropped", "fell", "rise", "rose", "delta", "evolve", "evolved", "shift", "shifted", "vs", "versus")

func (p *parser) speaksOfChange() bool {
	for _, t := range p.toks {
		if t.kind == kWord && changeWords[t.low] {
			return true
		}
	}
	return false
}

// compareReq is a comparison read from the request, resolved once the
// period is known: a shift ("vs last year": one year back) or a period of
// its own ("compared to Q4 2020").
type compareReq struct {
	pos   int
	src   string
	shift string // "year", "quarter", "month", "week", "day", "period"
	abs   *span
	xox   bool // "month over month": on a longer period, a growth by month instead
}

var markers = []string{"vs", "vs.", "v", "versus", "compared to", "compared with", "compare to", "compare with",
	"comparing to", "comparing with", "against", "relative to", "than", "in comparison to", "in comparison with",
	"as opposed to"}

var xoxPhrases = map[string]string{
	"year over year": "year", "year on year": "year", "yoy": "year", "y / y": "year", "y o y": "year",
	"quarter over quarter": "quarter", "quarter on quarter": "quarter", "qoq": "quarter", "q / q": "quarter",
	"month over month": "month", "month on month": "month", "mom": "month", "m / m": "month",
	"week over week": "week", "week on week": "week", "wow": "week", "w / w": "week",
	"day over day": "day", "day on day": "day", "dod": "day",
	"period over period": "period", "period on period": "period", "pop": "period",
	"same period last year": "year", "same time last year": "year", "same quarter last year": "year",
	"same month last year": "year", "prior year period": "year", "same period a year ago": "year",
	"same period the year before": "year", "same period the previous year": "year", "same period the prior year": "year",
}

// namesNumber reports whether the word at i names a numeric column of the
// chosen table: "pop" over a column pop_m is the population, not "period
// over period".
func (p *parser) namesNumber(i int) bool {
	c, _, _ := p.colAt(i, prefNum)
	return c != nil
}

// shiftAfterMarker reads what follows "vs": "last year", "the previous
// period", "the year before", "a year ago", "the same period last year".
func (p *parser) shiftAfterMarker(j int) (string, int) {
	k := p.skip(j, "the", "a", "same", "period", "time", "of", "in")
	if ph, n := p.anyPhrase(j, keys(xoxPhrases)); n > 0 {
		return xoxPhrases[ph], j + n
	}
	switch p.low(k) {
	case "last", "previous", "prior", "preceding", "earlier":
		if u, ok := units[p.low(k+1)]; ok && p.low(k+1) == singular(p.low(k+1)) {
			return u, k + 2
		}
		if p.low(k+1) == "period" {
			return "period", k + 2
		}
	}
	if u, ok := units[p.low(k)]; ok || p.low(k) == "period" {
		if !ok {
			u = "period"
		}
		switch p.low(k + 1) {
		case "before", "earlier", "prior", "ago":
			return u, k + 2
		}
	}
	if p.low(k) == "year" && p.low(k+1) == "ago" {
		return "year", k + 2
	}
	return "", 0
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

type found struct {
	pos int
	src string
	s   span
}

// times reads every period and comparison of the request, then sets Time
// and Compare.
func (p *parser) times() error {
	var spans []found
	for i := 0; i < len(p.toks); i++ {
		if !p.free(i) {
			continue
		}
		if (p.date == nil || strings.HasPrefix(p.low(i), "fy")) && p.isValue(i) && p.rangeStart(i) {
			// "FY2023" in a column of fiscal years: a value, read as a
			// filter, even beside a date, whose calendar year it is not
			continue
		}
		if m, n := p.anyPhrase(i, markers); n > 0 {
			j := p.skip(i+n, ".")
			if u, end := p.shiftAfterMarker(j); end > 0 {
				p.compares = append(p.compares, compareReq{pos: i, src: p.src(i, end), shift: u})
				p.use(i, end)
				i = end - 1
				continue
			}
			if m != "over" && m != "than" || p.isTimeStart(p.skip(j, "the")) {
				k := p.skip(j, "the", "same", "period", "of", "in")
				if s, _, n2, ok := p.rangeAt(k); ok {
					p.compares = append(p.compares, compareReq{pos: i, src: p.src(i, k+n2), abs: &s})
					p.use(i, k+n2)
					i = k + n2 - 1
					continue
				}
			}
		}
		if ph, n := p.anyPhrase(i, keys(xoxPhrases)); n > 0 && !(n == 1 && p.namesNumber(i)) {
			p.compares = append(p.compares, compareReq{pos: i, src: p.src(i, i+n), shift: xoxPhrases[ph], xox: true})
			p.use(i, i+n)
			i += n - 1
			continue
		}
		if s, c, n, ok := p.rangeAt(i); ok {
			if c != nil {
				p.compares = append(p.compares, compareReq{pos: i, src: p.src(i, i+n), abs: c})
			}
			spans = append(spans, found{i, p.src(i, i+n), s})
			p.use(i, i+n)
			i += n - 1
		}
	}
	return p.resolveTimes(spans)
}

// isTimeStart reports whether a period can be read at i.
func (p *parser) isTimeStart(i int) bool {
	_, _, ok := p.timeAt(i)
	return ok
}

func (p *parser) resolveTimes(spans []found) error {
	var cur *found
	switch {
	case len(spans) == 1:
		cur = &spans[0]
	case len(spans) == 2 && len(p.compares) == 0 && p.speaksOfChange() && disjoint(spans[0].s, spans[1].s):
		a, b := spans[0], spans[1]
		if b.s.start.Before(a.s.start) {
			a, b = b, a
		}
		cur = &b
		p.compares = append(p.compares, compareReq{pos: a.pos, src: a.src, abs: &a.s})
	case len(spans) > 1:
		u := found{pos: spans[0].pos, s: spans[0].s}
		var srcs []string
		for _, f := range spans {
			srcs = append(srcs, f.src)
			if f.s.start.Before(u.s.start) {
				u.s.start = f.s.start
			}
			if f.s.end.After(u.s.end) {
				u.s.end = f.s.end
			}
		}
		u.s.label, u.s.unit, u.s.rel = label(u.s.start, u.s.end), "", false
		u.src = strings.Join(srcs, ", ")
		cur = &u
	}
	if cur != nil {
		p.in.Time = p.timeRange(cur.s)
		p.understood(cur.pos, cur.src+" -> "+p.rangeWords(cur.s), fmt.Sprintf("%s (%s)", cur.src, p.dateOrNone()))
	}
	if len(p.compares) == 0 {
		return nil
	}
	c := p.compares[0]
	for _, extra := range p.compares[1:] {
		p.in.Unparsed = append(p.in.Unparsed, extra.src)
	}
	if c.abs != nil {
		p.in.Compare = p.timeRange(*c.abs)
		p.understood(c.pos, c.src+" -> compare with "+p.rangeWords(*c.abs), c.src)
		return nil
	}
	if cur == nil {
		// A comparison without a period compares the latest one to date.
		u := c.shift
		if u == "period" {
			u = "month"
		}
		s := span{start: unitStart(p.anchor, u), end: p.anchor.AddDate(0, 0, 1), rel: true, yearGiven: true}
		if u == "day" {
			s.start = p.anchor
		}
		s.label = label(s.start, s.end)
		if lbl := u + " to date"; s.unit == "" && u != "day" && !s.end.Equal(addUnits(s.start, u, 1)) {
			s.label = lbl
		}
		cur = &found{pos: c.pos, src: c.src, s: s}
		p.in.Time = p.timeRange(s)
		p.understood(c.pos, c.src+" -> "+p.rangeWords(s)+"", c.src)
	}
	t := cur.s
	unit := c.shift
	if c.xox && unit != "year" && unit != "period" && t.end.After(addUnits(t.start, unit, 1)) {
		// "Q1 2021 month over month": the growth from month to month.
		if p.date != nil {
			p.addGroup(c.pos, c.src, p.date.Name, unit)
		}
		p.addAnalysis(c.pos, c.src, AnalysisGrowth)
		return nil
	}
	var prev span
	switch {
	case unit == "period" && t.start.Day() == 1 && t.end.Day() == 1:
		m := monthsBetween(t.start, t.end)
		prev = span{start: t.start.AddDate(0, -m, 0), end: t.start}
	case unit == "period":
		prev = span{start: t.start.AddDate(0, 0, -t.days()), end: t.start}
	default:
		prev = span{start: addUnits(t.start, unit, -1), end: addUnits(t.end, unit, -1)}
		if t.start.Day() == 1 && t.end.Day() == 1 && unit != "week" && unit != "day" {
			m := monthsBetween(t.start, t.end)
			prev.end = prev.start.AddDate(0, m, 0)
		}
	}
	prev.label = label(prev.start, prev.end)
	p.in.Compare = p.timeRange(prev)
	p.understood(c.pos, c.src+" -> compare with "+p.rangeWords(prev), c.src)
	return nil
}

// sane reports whether t is a date a request can mean.
func sane(t time.Time) bool { return t.Year() >= 1000 && t.Year() <= 9999 }

func disjoint(a, b span) bool { return !a.end.After(b.start) || !b.end.After(a.start) }

func monthsBetween(a, b time.Time) int {
	return (b.Year()-a.Year())*12 + int(b.Month()) - int(a.Month())
}

func (p *parser) timeRange(s span) *TimeRange {
	return &TimeRange{Column: p.dateName(), Start: s.start.Format(iso), End: s.end.Format(iso), Label: s.label}
}

// rangeWords says a period in words: "order_date from 2021-01-01 to
// 2021-03-31 (Q1 2021)", the last day included.
func (p *parser) rangeWords(s span) string {
	w := fmt.Sprintf("from %s to %s", s.start.Format(iso), s.end.AddDate(0, 0, -1).Format(iso))
	if p.date != nil {
		w = p.date.Name + " " + w
	} else {
		w += " (no date column)"
	}
	if s.rel {
		if p.fromData {
			w += fmt.Sprintf(" (relative to %s, the latest %s)", p.anchor.Format(iso), p.date.Name)
		} else {
			w += fmt.Sprintf(" (relative to today, %s)", p.anchor.Format(iso))
		}
	}
	return w
}

func (p *parser) dateOrNone() string {
	if p.date == nil {
		return "no date column"
	}
	return p.date.Name
}

// rangeStart reports whether a period starts at i.
func (p *parser) rangeStart(i int) bool {
	_, _, _, ok := p.rangeAt(i)
	return ok
}

// saidAsMonth reports whether the token at i was written as a month's
// name, not rewritten to one: "marital" read as a column's word mar is no
// March.
func (p *parser) saidAsMonth(i int) bool {
	raw := strings.ToLower(strings.TrimSuffix(p.toks[i].raw, "."))
	for _, end := range []string{"'s", "’s", "'"} {
		raw = strings.TrimSuffix(raw, end)
	}
	_, ok := months[raw]
	return ok
}
