package intent

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// comparators map the words before a number to the operator of a numeric
// condition.
var comparators = map[string]string{
	">": ">", ">=": ">=", "<": "<", "<=": "<=", "=": "=", "!=": "!=",
	"over": ">", "above": ">", "exceeding": ">", "exceeds": ">", "exceed": ">", "exceeded": ">", "more than": ">", "greater than": ">",
	"higher than": ">", "larger than": ">", "bigger than": ">", "in excess of": ">", "north of": ">",
	"longer than": ">", "shorter than": "<", "heavier than": ">", "lighter than": "<", "older than": ">",
	"younger than": "<", "taller than": ">",
	"at least": ">=", "no less than": ">=", "not less than": ">=", "minimum of": ">=", "min of": ">=",
	"greater than or equal to": ">=", "more than or equal to": ">=",
	"under": "<", "below": "<", "less than": "<", "fewer than": "<", "lower than": "<", "smaller than": "<",
	"at most": "<=", "no more than": "<=", "not more than": "<=", "up to": "<=", "maximum of": "<=", "max of": "<=",
	"less than or equal to": "<=", "equal to": "=", "equals": "=", "exactly": "=", "equalling": "=",
	"at or below": "<=", "at or under": "<=", "at or above": ">=", "at or over": ">=", "within": "<=",
}

// postfix are the operators written after the number: "5 or more".
var postfix = map[string]string{"or more": ">=", "or above": ">=", "or higher": ">=", "+": ">=",
	"or less": "<=", "or fewer": "<=", "or below": "<=", "or lower": "<=", "or under": "<=", "or over": ">=",
	"or greater": ">=", "and over": ">=", "and above": ">=", "and up": ">=", "and under": "<=", "and below": "<=",
	"or older": ">=", "and older": ">=", "or younger": "<=", "and younger": "<="}

// agePostfix are the postfix operators that say their measure is an age.
var agePostfix = setOf("or older", "and older", "or younger", "and younger")

// number reads an amount at i: "100", "$1,000", "2.5k", "10%". It returns
// the number as text, the tokens read, and "money" or "pct" when the
// writing says so.
func (p *parser) number(i int) (string, int, string) {
	j, kind := i, ""
	switch p.low(j) {
	case "$", "€", "£":
		j, kind = j+1, "money"
	}
	sign := 1.0
	if (p.low(j) == "-" || p.low(j) == "−") && j+1 < len(p.toks) && p.toks[j+1].start == p.toks[j].end {
		j, sign = j+1, -1 // "below -20": a minus written against its number
	}
	w := p.low(j)
	if w == "" || p.toks[j].kind != kWord {
		return "", 0, ""
	}
	mult := 1.0
	switch {
	case strings.HasSuffix(w, "k"):
		w, mult = w[:len(w)-1], 1e3
	case strings.HasSuffix(w, "m") || strings.HasSuffix(w, "mm"):
		w, mult = strings.TrimRight(w, "m"), 1e6
	case strings.HasSuffix(w, "bn") || strings.HasSuffix(w, "b"):
		w, mult = strings.TrimSuffix(strings.TrimSuffix(w, "n"), "b"), 1e9
	case (strings.HasSuffix(w, "c") || strings.HasSuffix(w, "f")) && len(w) > 1 && isDigits(w[:len(w)-1]):
		w = w[:len(w)-1] // "0C", "32F": degrees
	}
	v, err := strconv.ParseFloat(w, 64)
	if err != nil || strings.ContainsAny(w, "-/") {
		if n, ok := numberWords[w]; ok && mult == 1 {
			v, err = float64(n), nil
		} else if w == "zero" {
			v, err = 0, nil
		} else {
			return "", 0, ""
		}
	}
	j++
	switch p.low(j) {
	case "%", "percent", "pct", "percentage":
		j, kind = j+1, "pct"
	case "k", "thousand":
		j, mult = j+1, 1e3
	case "m", "million", "mn":
		j, mult = j+1, 1e6
	case "dollars", "usd", "eur", "euros", "bucks":
		kind = "money"
	case "francs", "yen", "pesos", "rupees", "kronor", "krona", "lira", "yuan", "rand", "reais":
		j, kind = j+1, "money" // a currency named: part of the amount
	case "°c", "°f", "ºc", "ºf":
		j++
	default:
		if j < len(p.toks) && p.free(j) && (p.toks[j].raw == "C" || p.toks[j].raw == "F") {
			j++ // "below -20 C": degrees, though a column's name ends in c (tmax_c)
			break
		}
		// "30 degrees", "5 mm", "2 hours": a unit of measure that names no
		// column is part of the number.
		if measureUnits[p.low(j)] {
			if c, _, _ := p.colAt(j, prefNum); c == nil && p.unitColumn(j) == nil {
				j++ // a unit that names its column ("20 kg" of wt_kg) is left to name it
			}
		}
		if p.low(j-1) == "°" && j < len(p.toks) && p.toks[j].start == p.toks[j-1].end && (p.low(j) == "c" || p.low(j) == "f") {
			j++ // "32°F"
		}
	}
	if mult != 1 {
		kind += "scaled" // "150k": a column in thousands holds it as 150
	}
	return strconv.FormatFloat(sign*v*mult, 'f', -1, 64), j - i, kind
}

// measureUnits are units of measure written after a number.
var measureUnits = setOf("degrees", "degree", "deg", "°", "celsius", "fahrenheit", "mm", "cm", "km", "m", "inches",
	"inch", "in", "miles", "mile", "mph", "kmh", "kph", "kg", "kilograms", "g", "grams", "lbs", "lb", "pounds",
	"meters", "metres", "feet", "ft", "minutes", "mins", "min", "hours", "hrs", "hr", "seconds", "secs", "sec",
	"years", "yrs", "mpg", "hp", "knots", "liters", "litres", "gallons", "cc", "ms", "tons", "tonnes",
	"dollars", "usd", "euros", "eur", "gbp", "cents", "francs", "yen", "pesos", "rupees")

// personNouns name people: a bare number compared after them is an age.
var personNouns = setOf("people", "persons", "patients", "customers", "clients", "employees", "staff", "workers",
	"passengers", "respondents", "members", "users", "students", "adults", "residents", "participants", "subjects",
	"men", "women", "individuals", "children", "kids", "voters", "applicants", "players", "athletes", "drivers",
	"attendees", "guests", "visitors", "donors", "shoppers", "buyers", "borrowers", "tenants", "pupils", "teachers",
	"nurses", "doctors", "physicians", "volunteers", "runners", "riders", "travelers", "travellers", "tourists",
	"owners", "homeowners", "renters", "survivors", "victims", "recipients", "fans", "viewers", "readers",
	"subscribers", "learners", "trainees", "staffers", "retirees", "seniors", "mothers", "fathers", "parents",
	"boys", "girls", "infants", "babies", "toddlers", "teens", "teenagers", "youths", "males", "females")

// populationNouns after a number say the column of populations: "more
// than 1,000,000 people".
var populationNouns = setOf("people", "persons", "inhabitants", "residents")

// conditions reads numeric conditions: "orders over 100", "amount > 100",
// "at least 5 units", "discount above 10%", "quantity between 2 and 5".
func (p *parser) conditions() error {
	if p.t == nil {
		return nil
	}
	p.ages()
	for i := 0; i < len(p.toks); i++ {
		if !p.free(i) {
			continue
		}
		if p.low(i) == "between" {
			p.between(i)
			continue
		}
		if p.low(i) == "of" && p.valueOf(i) {
			continue // "a discount of 20%": that value
		}
		ph, n := p.anyPhrase(i, keys(comparators))
		if n == 0 {
			continue
		}
		op := comparators[ph]
		num, m, kind := p.number(i + n)
		if m == 0 {
			continue
		}
		end := i + n + m
		if (op == ">=" && num == "1" || op == ">" && num == "0") && p.free(end) && tableWord(p.t, p.low(end)) {
			// "customers who placed at least one order" over orders: every
			// row is one, so every customer here has one
			p.understood(i, fmt.Sprintf("%s -> every row of %s is one: no filter", p.src(i, end+1), p.t.Name), p.src(i, end+1))
			p.use(i, end+1)
			i = end
			continue
		}
		if ph == "within" && p.unitColumn(end) == nil {
			continue // "within 30 days of signup": a span of time, not a value of a column
		}
		c, from, to := p.conditionColumn(i, end, kind)
		if c == nil || ph == "within" && c != p.unitColumn(end) {
			continue
		}
		if k := p.skipBackToks(from, "the") - 1; k >= 0 && from <= i && aggBefore(aggs[p.low(k)]) {
			// "makes with avg price above 40k": a condition on each
			// make's average, not on each row's price
			a := aggs[p.low(k)]
			p.in.Unknown = append(p.in.Unknown, Unknown{Word: p.src(k, end),
				Reason:  "a condition on the " + aggWords[a] + " of each group is not applied; a condition on each row is said without the " + aggWords[a],
				Nearest: []string{c.Name}})
			p.use(i, end)
			i = end - 1
			continue
		}
		start := min(i, from)
		end = max(end, to)
		if p.unitColumn(end) == c {
			end++ // "weighed more than 200 kg": the unit of the column named
		}
		p.addCondition(start, end, from, to, c, op, p.percentOf(c, num, kind))
		i = end - 1
	}
	p.ranges()
	p.equalities()
	// "5 or more units", "100 or less"
	for i := 0; i < len(p.toks); i++ {
		num, m, kind := p.number(i)
		if m == 0 || !p.free(i) {
			continue
		}
		k, unit := i+m, i+m
		if p.unitColumn(k) != nil {
			k++ // "3 days or less" of dlv_days
		} else if (units[p.low(k)] == "year" || p.low(k) == "old" && units[p.low(k-1)] == "year") && p.adjectiveColumn("oldest") != nil {
			// "70 years old or older": an age
			for units[p.low(k)] == "year" || p.low(k) == "old" {
				k++
			}
			if ph, n := p.anyPhrase(k, keys(postfix)); n > 0 && agePostfix[ph] {
				p.addCondition(i, k+n, i, i, p.adjectiveColumn("oldest"), postfix[ph], num)
				continue
			}
			k = i + m
		}
		ph, n := p.anyPhrase(k, keys(postfix))
		if n == 0 {
			continue
		}
		end := k + n
		if k == unit {
			unit = end // "10+ years": the unit after the operator
		}
		c, from, to := p.conditionColumn(i, unit, kind)
		if agePostfix[ph] && (c == nil || countLike(c)) && c != p.adjectiveColumn("oldest") {
			// "65 or older": an age; "the population is 65 or older" over
			// POPTOT is no count of people at least 65
			c, from, to = p.adjectiveColumn("oldest"), i, i
		}
		if c == nil {
			continue
		}
		p.addCondition(min(i, from), max(end, to), from, to, c, postfix[ph], p.percentOf(c, num, kind))
	}
	return nil
}

// agedBounds end "aged 65 and over", "aged 18 or younger".
var agedBounds = map[string]string{"and over": ">=", "or over": ">=", "and older": ">=", "or older": ">=", "and above": ">=",
	"or above": ">=", "and up": ">=", "+": ">=", "or more": ">=", "and under": "<=", "or under": "<=", "and younger": "<=",
	"or younger": "<=", "and below": "<=", "or below": "<=", "or less": "<="}

// ages reads "aged 65 and over", "aged 18 or younger" and "aged 30" as
// conditions on the table's one age column.
func (p *parser) ages() {
	for i := 0; i+1 < len(p.toks); i++ {
		if p.low(i) != "aged" {
			continue
		}
		c := p.adjectiveColumn("oldest")
		if c == nil {
			continue
		}
		k := i + 1
		if p.low(k) == "between" {
			k++
		}
		if lo, hi, n := p.numberRange(k); n > 0 {
			p.addRange(i, k+n, i, i+1, c, lo, hi) // "aged between 30 and 40", "aged 18-30"
			i = k + n - 1
			continue
		}
		op := "="
		if ph, n := p.anyPhrase(k, keys(comparators)); n > 0 {
			op, k = comparators[ph], k+n // "aged over 15"
		}
		num, m, kind := p.number(k)
		if m == 0 || kind != "" || c.Min != "" && c.Max != "" && !inRange(c, num) {
			continue
		}
		end := k + m
		if ph, n := p.anyPhrase(end, keys(agedBounds)); n > 0 {
			end, op = end+n, agedBounds[ph]
		}
		p.addCondition(i, end, i, i+1, c, op, num)
		i = end - 1
	}
}

// between reads "between 2 and 5 units" as two conditions.
func (p *parser) between(i int) {
	lo, m1, kind := p.number(i + 1)
	if m1 == 0 || p.low(i+1+m1) != "and" {
		return
	}
	hi, m2, kind2 := p.number(i + 2 + m1)
	if m2 == 0 {
		return
	}
	end := i + 2 + m1 + m2
	if strings.Contains(kind2, "scaled") && !strings.Contains(kind, "scaled") {
		// "between 1 and 2 million": the scale is said once, for both
		raw, err1 := strconv.ParseFloat(p.low(i+2+m1), 64)
		h, err2 := strconv.ParseFloat(hi, 64)
		l, err3 := strconv.ParseFloat(lo, 64)
		if err1 == nil && err2 == nil && err3 == nil && raw != 0 && h/raw > 1 {
			lo = strconv.FormatFloat(l*h/raw, 'f', -1, 64)
			kind += "scaled"
		}
	}
	c, from, to := p.conditionColumn(i, end, kind+kind2)
	if c == nil {
		return
	}
	end = max(end, to)
	if p.unitColumn(end) == c {
		end++ // "between 100 and 200 kg" of wt_kg, named before
	}
	p.addRange(min(i, from), end, from, to, c, p.percentOf(c, lo, kind), p.percentOf(c, hi, kind+kind2))
}

// numberRange reads two numbers written as a range at i: "18-30", "100–200",
// "30 and 40", "500 to 1000". It returns them, lowest first, and the
// tokens read (0 for none).
func (p *parser) numberRange(i int) (lo, hi string, n int) {
	if i < len(p.toks) && p.free(i) && p.toks[i].kind == kWord {
		if a, b, ok := strings.Cut(p.low(i), "-"); ok && isNumber(a) && isNumber(b) {
			lo, hi, n = a, b, 1
		}
	}
	if n == 0 {
		a, m1, k1 := p.number(i)
		if m1 == 0 || k1 != "" {
			return "", "", 0
		}
		sep := p.low(i + m1)
		if sep != "-" && sep != "–" && sep != "—" && sep != "to" && sep != "and" {
			return "", "", 0
		}
		b, m2, k2 := p.number(i + m1 + 1)
		if m2 == 0 || k2 != "" {
			return "", "", 0
		}
		lo, hi, n = a, b, m1+1+m2
	}
	x, err1 := strconv.ParseFloat(lo, 64)
	y, err2 := strconv.ParseFloat(hi, 64)
	if err1 != nil || err2 != nil {
		return "", "", 0
	}
	if x > y {
		lo, hi = hi, lo
	}
	return lo, hi, n
}

// ranges reads a range written with a dash or "to" before a unit that
// names its column: "100–200 kg", "500 to 1000 km", "18-30 yrs" of age.
// "Between" ranges are read by between.
func (p *parser) ranges() {
	for i := 0; i < len(p.toks); i++ {
		if !p.free(i) || p.low(i) == "and" || i > 0 && p.low(i-1) == "between" {
			continue
		}
		lo, hi, n := p.numberRange(i)
		if n == 0 || p.low(i+n-2) == "and" && n > 1 {
			continue
		}
		c, from, to := p.conditionColumn(i, i+n, "")
		if c == nil {
			continue
		}
		p.addRange(min(i, from), max(i+n, to), from, to, c, lo, hi)
		i = max(i+n, to) - 1
	}
}

// addRange records lo <= c <= hi read from tokens start..end-1, its
// column named by from..to-1.
func (p *parser) addRange(start, end, from, to int, c *Column, lo, hi string) {
	src := p.src(start, end)
	p.useCond(start, end, from, to)
	p.in.Filters = append(p.in.Filters, Filter{Column: c.Name, Op: ">=", Values: []string{lo}},
		Filter{Column: c.Name, Op: "<=", Values: []string{hi}})
	p.filterRead(c.Name, start)
	w := fmt.Sprintf("%s >= %s and %s <= %s", c.Name, lo, c.Name, hi)
	p.understood(start, src+" -> "+w, src+" ("+w+")")
}

func (p *parser) addCondition(start, end, from, to int, c *Column, op, num string) {
	p.addConditionOf(start, end, from, to, c, op, []string{num})
}

// addConditionOf records a condition read from tokens start..end-1 whose
// column is named by from..to-1: op and its values ("in" for several).
func (p *parser) addConditionOf(start, end, from, to int, c *Column, op string, vals []string) {
	src := p.src(start, end)
	p.useCond(start, end, from, to)
	p.in.Filters = append(p.in.Filters, Filter{Column: c.Name, Op: op, Values: vals})
	p.filterRead(c.Name, start)
	w := fmt.Sprintf("%s %s %s", c.Name, op, vals[0])
	if op == "in" {
		w = fmt.Sprintf("%s in (%s)", c.Name, strings.Join(vals, ", "))
	}
	p.understood(start, src+" -> "+w, src+" ("+w+")")
}

// useCond marks a condition's tokens used; those that name its column
// (from..to-1) may still name the measure.
func (p *parser) useCond(start, end, from, to int) {
	p.use(start, end)
	for k := from; k < to; k++ {
		p.toks[k].cond = 2
	}
	if s := p.subject; s >= 0 && (p.free(s) || s >= from && s < to) {
		p.toks[s].used, p.toks[s].cond = true, 1
	}
}

var condFillers = []string{"is", "was", "are", "were", "of", "with", "where", "that", "have", "has", "had", "whose",
	"having", "a", "an", "the", "value", "values", "worth", "each", "total", "in",
	// "the high temperature go above 30", "cars get at least 30 mpg"
	"go", "goes", "went", "get", "gets", "got", "rise", "rises", "rose", "climb", "climbs", "climbed", "reach",
	"reaches", "reached", "fall", "falls", "fell", "drop", "drops", "dropped", "be", "been", "stay", "stays", "stayed",
	// "flights delayed by more than 15 minutes", "orders that included a
	// discount of 20%"
	"by", "included", "includes"}

// conditionColumn finds the numeric column a condition at i..end-1 is
// about: named before the comparator ("amount > 100", "orders over 100":
// an order's amount), or as the unit after the number ("5 units", "$100").
// It returns the column and the tokens that name it.
func (p *parser) conditionColumn(i, end int, kind string) (*Column, int, int) {
	b := i - 1
	had := false
	for b >= 0 && p.free(b) && slices.Contains(condFillers, p.low(b)) {
		had = had || hasWords[p.low(b)] || p.low(b) == "having" || p.low(b) == "whose"
		b--
	}
	p.subject = -1
	if isCountNoun(p.low(b)) || p.dayRows(b) {
		p.subject = b // "orders with at least 5 units": the orders are the rows
	}
	if c, n := p.unitOfColumn(end); c != nil {
		return c, end, end + n // "16 or more years of education": the column the unit counts
	}
	if c, n, st := p.colAt(end, prefNum); had && c != nil && (st >= mWords || st >= mPart && c.Type == "integer") && !isIDLike(c) &&
		!p.isYearColumn(c) && p.unitColumn(end) == nil {
		// "stays with at least one child": what is had is named after
		// the number, not before "with"
		return c, end, end + n
	}
	// a numeric column named before: "amount > 100"; "fertility rate
	// above 3", a descriptive noun after it
	if b > 0 && tailWords[p.low(b)] {
		for s := b - 1; s >= 0 && s >= b-3; s-- {
			if c, n, st := p.colAt(s, prefNum); c != nil && s+n == b && st >= mPart && !isIDLike(c) {
				return c, s, b + 1
			}
		}
	}
	for s := b; s >= 0 && s >= b-2; s-- {
		if c, n, st := p.colAt(s, prefNum); c != nil && s+n == b+1 && st >= mPart && !isIDLike(c) {
			k := s - 1
			for k >= 0 && p.free(k) && slices.Contains(condFillers, p.low(k)) {
				k--
			}
			if p.subject < 0 && p.dayRows(k) {
				p.subject = k // "days with a high above 30": the days are the rows
			}
			return c, s, b + 1
		}
	}
	// the unit after the number: "5 units", "100 dollars", "3 quantity";
	// "> 5 days" of dlv_days, "10+ years" of yrs_svc: a length of time,
	// never a column of calendar years
	if c := p.unitColumn(end); c != nil {
		return c, end, end + 1
	}
	if populationNouns[p.low(end)] && !strings.Contains(kind, "money") && !strings.Contains(kind, "pct") {
		if c := p.adjectiveColumn("most-populous"); c != nil {
			return c, end, end + 1 // "more than 1,000,000 people": the population
		}
	}
	if units[p.low(end)] == "year" && kind == "" && (personNouns[p.low(b)] || p.low(end+1) == "old") && (p.low(end+1) == "old" || !p.otherYearsColumn()) {
		if c := p.adjectiveColumn("oldest"); c != nil {
			// "attendees over 65 yrs", "over 65 years old": an age
			if p.low(end+1) == "old" {
				return c, end, end + 2
			}
			return c, end, end + 1
		}
	}
	if c, n, st := p.colAt(end, prefNum); c != nil && st >= mPart && !isIDLike(c) && !(units[p.low(end)] != "" && p.isYearColumn(c)) {
		return c, end, end + n
	}
	// the column after "of": "more than 10 mm of precipitation"
	if p.low(end) == "of" && measureUnits[p.low(end-1)] {
		k := p.skip(end+1, "the")
		if c, n, st := p.colAt(k, prefNum); c != nil && st >= mPart && !isIDLike(c) {
			return c, end, k + n
		}
	}
	if w := p.low(end); w != "" && !isCountNoun(w) {
		if c := p.wordColumn(w); c != nil {
			return c, end, end + 1
		}
	}
	// a comparison that says its measure: "older than 50" is the age
	if adj := lengthComparisons[p.low(i)]; adj != "" {
		if c := p.adjectiveColumn(adj); c != nil {
			return c, i, i
		}
	}
	// people and a bare number: "patients over 60" are older than 60
	if personNouns[p.low(b)] && kind == "" && !((units[p.low(end)] == "year" || end > 0 && units[p.toks[end-1].low] == "year") && p.otherYearsColumn()) {
		if c := p.adjectiveColumn("oldest"); c != nil && (c.Min == "" || c.Max == "" || inRange(c, p.numberBetween(i, end))) {
			return c, i, i // not "males over 180" over ages 18 to 90
		}
	}
	// a measure word or a thing sold before: "sales over 1000", "orders
	// over 100"; not when the number counts a thing said after it ("rows
	// with at least 10 readings"), which no column was found for
	if w, after := p.low(b), p.low(end); w != "" && !(after != "" && p.toks[end].kind == kWord && !stopwords[after] &&
		(tailWords[after] || isCountNoun(after) || p.unexplained(after))) {
		if c := p.wordColumn(w); c != nil {
			return c, b, b + 1
		}
	}
	if strings.Contains(kind, "money") {
		if c := p.moneyColumn(); c != nil {
			return c, i, i
		}
	}
	return nil, 0, 0
}

// otherYearsColumn reports whether a numeric column besides the age holds
// years of something else (tenure_yrs, yrs_svc, experience): then "5-10
// years" may be either.
func (p *parser) otherYearsColumn() bool {
	age := p.adjectiveColumn("oldest")
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if c == age || !isNumeric(c) || p.isYearColumn(c) {
			continue
		}
		for _, w := range nameWords(c.Name) {
			if units[w] == "year" || w == "tenure" || w == "experience" || w == "service" || w == "svc" || w == "seniority" {
				return true
			}
		}
	}
	return false
}

// lengthComparisons map the comparatives that say their measure to the
// superlative of rankAdjectives that names its columns.
var lengthComparisons = map[string]string{"older": "oldest", "younger": "youngest", "heavier": "heaviest",
	"lighter": "lightest", "taller": "tallest", "longer": "longest", "shorter": "shortest"}

// adjectiveColumn returns the one numeric column a superlative of
// rankAdjectives names ("oldest": age), nil if none or several.
func (p *parser) adjectiveColumn(adj string) *Column {
	var found *Column
	for _, want := range rankAdjectives[adj].words {
		for ci := range p.t.Columns {
			c := &p.t.Columns[ci]
			if !isNumeric(c) || isIDLike(c) || !slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return sameWord(want, w) || abbreviates(want, w) }) {
				continue
			}
			if found != nil && found != c {
				return nil
			}
			found = c
		}
		if found != nil {
			return found
		}
	}
	return found
}

// isIDLike reports whether a column's name ends in an identifier word.
func isIDLike(c *Column) bool { return fit(c, prefCount) == 0 }

// wordColumn returns the column a measure word names in a condition:
// money words and the things sold ("orders", "transactions": their
// amount) a money-like column, unit words a quantity-like one.
func (p *parser) wordColumn(w string) *Column {
	switch {
	case moneyWords[w] || isCountNoun(w) || amountUnit(w) == "money":
		if c := p.moneyColumn(); c != nil && !unitPrice(c) {
			return c
		}
		return nil // "sales above 100" over a unit price: not the sales
	case quantityWords[w] || amountUnit(w) == "quantity":
		return p.quantityColumn()
	}
	return nil
}

// equalities reads a whole number written next to an integer column's
// name as that column's value: "8-cylinder cars", "4 cylinders", "group
// 2". A year column is left to the periods.
func (p *parser) equalities() {
	p.subject = -1 // an equality has no subject noun of its own
	for i := 0; i < len(p.toks); i++ {
		if !p.free(i) || p.toks[i].kind != kWord {
			continue
		}
		n, err := strconv.Atoi(p.toks[i].low)
		if err != nil || n < 0 {
			continue
		}
		// the number before: "8-cylinder", "4 cylinders"
		j := p.skip(i+1, "-")
		if c, m, st := p.colAt(j, prefNum); c != nil && st >= mWords && c.Type == "integer" && !p.isYearColumn(c) && !isIDLike(c) {
			p.addCondition(i, j+m, j, j+m, c, "=", strconv.Itoa(n))
			i = j + m - 1
			continue
		}
		if _, k, _ := p.number(i); k > 0 {
			if _, n := p.anyPhrase(i+k, keys(postfix)); n > 0 {
				continue // "tmin 32°F or below": a condition, not a value
			}
		}
		// the column before: "group 2", "grade 4 or 5"
		for s := i - 1; s >= 0 && s >= i-4; s-- {
			if c, m, st := p.colAt(s, prefAny); c != nil && p.levelOf(s+m, i) && st >= mWords && c.Type == "integer" && !p.isYearColumn(c) && !isIDLike(c) {
				vals, end := p.numberList(i, c)
				versus := false
				if more, e := p.versusNumber(end, c); more != "" && !slices.Contains(vals, more) {
					vals, end, versus = append(vals, more), e, true // "ps 0 vs ps 2"
				}
				if len(vals) == 1 {
					p.addCondition(s, end, s, i, c, "=", vals[0])
				} else {
					p.addConditionOf(s, end, s, i, c, "in", vals)
				}
				if versus {
					p.addGroup(s, p.src(s, end), c.Name, "")
				}
				i = end - 1
				break
			}
		}
	}
}

// levelOf reports whether the words from k to the number at i join a
// column to its level: none ("grade 4"), or "of" after the column's noun
// ("a WFNS grade of 4 or 5", "a performance rating of 4").
func (p *parser) levelOf(k, i int) bool {
	if k == i {
		return true
	}
	if p.low(i-1) != "of" || !p.free(i-1) {
		return false
	}
	for j := k; j < i-1; j++ {
		if !p.free(j) || !tailWords[p.low(j)] {
			return false
		}
	}
	return true
}

// versusNumber reads "vs 2" or "versus grade 2" at i, after a value of
// c: the number within c's range and the index after it; "" if there is
// none.
func (p *parser) versusNumber(i int, c *Column) (string, int) {
	_, m := p.anyPhrase(i, versusWords)
	if m == 0 {
		return "", i
	}
	k := i + m
	if c2, n, _ := p.colAt(k, prefAny); c2 == c {
		k += n
	}
	if !p.free(k) || !isDigits(p.low(k)) {
		return "", i
	}
	if vals, _ := p.numberList(k, c); len(vals) != 1 || !inRange(c, vals[0]) {
		return "", i
	}
	return p.low(k), k + 1
}

// countLike reports whether c counts people or things: a population, a
// headcount, a number of.
func countLike(c *Column) bool {
	return slices.ContainsFunc(nameWords(c.Name), func(w string) bool {
		return countColumns[w] || levelWords[w] || w == "poptot" || w == "pop"
	})
}

// numberBetween returns the first number among the tokens i..end-1, ""
// if none.
func (p *parser) numberBetween(i, end int) string {
	for k := max(i, 0); k < end && k < len(p.toks); k++ {
		if isNumber(p.toks[k].low) {
			return strings.ReplaceAll(p.toks[k].low, ",", "")
		}
	}
	return ""
}

// numRange returns the lowest and highest number of a numeric column,
// and whether both are known.
func numRange(c *Column) (lo, hi float64, ok bool) {
	lo, err1 := strconv.ParseFloat(c.Min, 64)
	hi, err2 := strconv.ParseFloat(c.Max, 64)
	return lo, hi, err1 == nil && err2 == nil
}

// inRange reports whether the number v is within c's range.
func inRange(c *Column, v string) bool {
	lo, hi, ok := numRange(c)
	x, err := strconv.ParseFloat(v, 64)
	return ok && err == nil && x >= lo && x <= hi
}

// numberList reads the whole numbers from i joined by "or", "and" or a
// comma ("4 or 5", "1, 2 and 3") that are within c's range, and returns
// them with the index after the last.
func (p *parser) numberList(i int, c *Column) ([]string, int) {
	vals, end := []string{p.toks[i].low}, i+1
	for {
		k := p.skip(end, ",")
		if k < len(p.toks) && (p.low(k) == "or" || p.low(k) == "and") {
			k++
		}
		if k == end || k >= len(p.toks) || !p.free(k) || !isDigits(p.low(k)) || !inRange(c, p.low(k)) {
			return vals, end
		}
		vals, end = append(vals, p.low(k)), k+1
	}
}

// dayRows reports whether the word at i is "days" over a table of one row
// a day: "days with a high above 30" counts rows.
func (p *parser) dayRows(i int) bool {
	return (p.low(i) == "days" || p.low(i) == "day") && p.onePerPeriod("day")
}

// percentOf reads a number written as a percentage against the column it
// is compared with: over a column of fractions (every value from -1 to
// 1) "above 10%" is above 0.1; otherwise the number as written.
func (p *parser) percentOf(c *Column, num, kind string) string {
	if f := columnScale(c.Name); strings.Contains(kind, "scaled") && f != 1 {
		// "earn over 150k" of sal_k: 150 thousands
		if v, err := strconv.ParseFloat(num, 64); err == nil {
			return strconv.FormatFloat(v/f, 'f', -1, 64)
		}
	}
	if _, hi, ok := numRange(c); ok && strings.Contains(kind, "scaled") && columnScale(c.Name) == 1 && !unitInName(c.Name) {
		if v, err := strconv.ParseFloat(num, 64); err == nil && hi > 0 && v > hi*1000 {
			// "pop > 100M" over a POP of 0.24 to 1,051: the column is in
			// some unit its name does not say (millions?); no row would
			// pass as written
			p.in.Unknown = append(p.in.Unknown, Unknown{Word: num, Reason: fmt.Sprintf(
				"%s runs to %s only: say the number in %s's own unit (its name does not say which)", c.Name, c.Max, c.Name), Nearest: []string{c.Name}})
		}
	}
	if !strings.Contains(kind, "pct") {
		return num
	}
	lo, err1 := strconv.ParseFloat(c.Min, 64)
	hi, err2 := strconv.ParseFloat(c.Max, 64)
	v, err3 := strconv.ParseFloat(num, 64)
	if err1 != nil || err2 != nil || err3 != nil || lo < -1 || hi > 1 {
		return num
	}
	return strconv.FormatFloat(v/100, 'f', -1, 64)
}

// valueOf reads "a discount of 20%" at the "of" at i: a numeric column
// named right before it, after an article, equal to the number after it.
func (p *parser) valueOf(i int) bool {
	num, m, kind := p.number(i + 1)
	if m == 0 || i < 2 {
		return false
	}
	for s := i - 1; s >= 0 && s >= i-3; s-- {
		c, n, st := p.colAt(s, prefNum)
		if c == nil || s+n != i || st < mPart || isIDLike(c) || p.isYearColumn(c) {
			continue
		}
		a := s - 1
		if w := p.low(a); w != "a" && w != "an" && w != "the" {
			return false // "average of 5": an article says a value is had
		}
		start := a
		for start > 0 && p.free(start-1) && slices.Contains(condFillers, p.low(start-1)) && p.low(start-1) != "a" && p.low(start-1) != "the" {
			start-- // "included a discount of 20%"
		}
		p.addCondition(start, i+1+m, s, i, c, "=", p.percentOf(c, num, kind))
		return true
	}
	return false
}

// numberedBefore go before a level said by its number: "students in grade 7".
var numberedBefore = setOf("in", "of", "for", "at", "from", "on")

// numberedLevels reads an integer column of few levels named with one of
// them after it as that level: "in grade 7" over grade (6 to 8) is grade =
// 7, as "in region 5" is; not a measure of grade beside an unexplained 7.
func (p *parser) numberedLevels() error {
	if p.t == nil {
		return nil
	}
	for i := 1; i+1 < len(p.toks); i++ {
		c, n, st := p.colAt(i, prefNum)
		if c == nil || st < mWords || !isNumeric(c) || isIDLike(c) || p.isYearColumn(c) || !numberedBefore[p.low(i-1)] {
			continue
		}
		num := p.low(i + n)
		if next := p.toks[min(i+n+1, len(p.toks)-1)].low; !p.free(i+n) || !isDigits(num) || i+n+1 < len(p.toks) &&
			(units[next] != "" || measureUnits[next] || next == "%" || next == "," || next == "and" || next == "or" || next == "-" || next == "to" ||
				next == "+" || next == "plus" || next == "up" || next == "onwards") {
			// "grade 1, 2 and 3", "grade 6 to 8": a list or a range, read as such
			continue
		}
		lo, err1 := strconv.ParseFloat(c.Min, 64)
		hi, err2 := strconv.ParseFloat(c.Max, 64)
		v, _ := strconv.ParseFloat(num, 64)
		if err1 != nil || err2 != nil || lo != math.Trunc(lo) || hi != math.Trunc(hi) || hi-lo > 50 || v < lo || v > hi {
			continue
		}
		p.addCondition(i, i+n+1, i, i+n, c, "=", num)
	}
	return nil
}

// aggBefore reports whether the aggregate a, said before a condition's
// column, makes it a condition on a group's aggregate.
func aggBefore(a string) bool {
	return a == "avg" || a == "sum" || a == "median" || a == "min" || a == "max"
}
