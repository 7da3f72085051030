package intent

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// unitOf maps a unit's words to what it measures and one spelling of it,
// so that "kg" and "kilograms" are one unit and "lbs" another of mass.
var unitOf = func() map[string][2]string {
	m := map[string][2]string{}
	for _, u := range []struct {
		dim   string
		forms []string
	}{
		{"mass", []string{"kg", "kilograms", "kilogram", "kgs"}}, {"mass", []string{"g", "grams", "gram"}},
		{"mass", []string{"lb", "lbs", "pounds", "pound"}}, {"mass", []string{"oz", "ounces"}},
		{"mass", []string{"tons", "tonnes", "t"}},
		{"length", []string{"mm", "millimeters", "millimetres"}}, {"length", []string{"cm", "centimeters", "centimetres"}},
		{"length", []string{"m", "meters", "metres"}}, {"length", []string{"km", "kilometers", "kilometres"}},
		{"length", []string{"in", "inches", "inch"}}, {"length", []string{"ft", "feet", "foot"}},
		{"length", []string{"mi", "miles", "mile"}},
		{"temperature", []string{"celsius", "c"}}, {"temperature", []string{"fahrenheit", "f"}},
		{"money", []string{"usd", "dollars", "dollar", "$"}}, {"money", []string{"eur", "euros", "euro", "€"}},
		{"money", []string{"gbp", "£"}}, {"money", []string{"cents", "cent"}}, {"money", []string{"francs", "franc"}},
		{"money", []string{"yen"}}, {"money", []string{"pesos", "peso"}}, {"money", []string{"rupees", "rupee"}},
		{"time", []string{"seconds", "second", "sec", "secs", "s"}}, {"time", []string{"minutes", "minute", "min", "mins"}},
		{"time", []string{"hours", "hour", "hr", "hrs", "h"}}, {"time", []string{"ms", "milliseconds"}},
		{"speed", []string{"mph"}}, {"speed", []string{"kmh", "kph"}}, {"speed", []string{"knots", "kn"}},
		{"volume", []string{"liters", "litres", "l"}}, {"volume", []string{"gallons", "gal"}},
	} {
		for _, f := range u.forms {
			m[f] = [2]string{u.dim, u.forms[0]}
		}
	}
	return m
}()

// unitSaid reads the unit word at i ("in kg", "city mpg") against the
// columns measured: a column whose name says another unit of the same
// kind (weight_lbs for "in kg") is reported, for no number is converted;
// otherwise the unit is noted as the user's, the data naming none.
func (p *parser) unitSaid(i int) {
	w := p.toks[i].low
	from := i
	if i > 0 && (p.toks[i-1].low == "in" || p.toks[i-1].low == "as") {
		from = i - 1 // "in kg"
	}
	src := p.src(from, i+1)
	said, known := unitOf[w]
	for _, m := range p.in.Measures {
		if m.Column == "" || !known {
			continue
		}
		for _, cw := range nameWords(m.Column) {
			u, ok := unitOf[cw]
			if ok && len(cw) > 1 && u == said {
				p.understood(from, fmt.Sprintf("%s -> the unit of %s", src, m.Column), src)
				return
			}
			if ok && len(cw) > 1 && u[0] == said[0] {
				p.in.Unknown = append(p.in.Unknown, Unknown{Word: src,
					Reason: fmt.Sprintf("%s is in %s by its name; numbers are not converted", m.Column, cw)})
				return
			}
		}
	}
	if slices.ContainsFunc(p.in.Measures, func(m Measure) bool { return m.Column != "" }) {
		p.understood(from, fmt.Sprintf("%s -> the unit, as said (the numbers are the data's, not converted)", src), src)
	}
}

// scales are the words that say a number is in thousands, millions or
// billions, with what they multiply by. "m" and "b" count only after a
// currency sign ("$m"): alone they are metres and bytes.
var scales = map[string]float64{
	"k": 1e3, "thousand": 1e3, "thousands": 1e3, "000s": 1e3, "000": 1e3,
	"mn": 1e6, "mil": 1e6, "mio": 1e6, "million": 1e6, "millions": 1e6, "mm": 1e6,
	"bn": 1e9, "billion": 1e9, "billions": 1e9,
}

// currencySigns may stand between "in" and a scale: "in $k".
var currencySigns = setOf("$", "€", "£", "usd", "eur", "gbp", "dollars")

// scaleOf returns what a scale word at i multiplies by, 0 if it is none;
// sign says a currency sign came before it.
func scaleOf(w string, sign bool) float64 {
	if f, ok := scales[w]; ok && (w != "mm" || sign) {
		return f
	}
	if sign {
		switch w {
		case "m":
			return 1e6
		case "b":
			return 1e9
		}
	}
	return 0
}

// scaleSaid reads the scale a measure is to be shown in at i: "in $k",
// "(thousands)", "in millions", "($m)". The one measure of a column is
// divided by what the scale multiplies by, over the scale its column's
// name already has ("gdp_usd_bn" shown "in millions" is times 1000); a
// scale the column already has is its unit. With no such measure, or
// several, the words are left to be reported.
func (p *parser) scaleSaid(i int) bool {
	k := i - 1
	sign := false
	for k >= 0 && currencySigns[p.toks[k].low] {
		k, sign = k-1, true
	}
	if k < 0 {
		return false
	}
	// "total fees $k": a sign and a scale right after the measure's words
	bare := sign && p.toks[k].used && p.toks[k].kind == kWord && p.measureEnd == k+1
	if p.toks[k].low != "in" && p.toks[k].low != "(" && !bare {
		return false
	}
	f := scaleOf(p.toks[i].low, sign)
	// "(m)" after a measure whose numbers are all below a million: the
	// millions they are in, not metres; read as their unit, nothing divided
	millions := f == 0 && p.toks[i].low == "m" && p.toks[k].low == "(" && i+1 < len(p.toks) && p.toks[i+1].low == ")"
	if millions {
		f = 1e6
	} else if f == 0 {
		return false
	}
	idx := -1
	for mi, m := range p.in.Measures {
		if m.Column == "" || m.Agg == "count" || m.Agg == "count_distinct" {
			continue
		}
		if idx >= 0 {
			return false
		}
		idx = mi
	}
	if idx < 0 {
		return false
	}
	m := &p.in.Measures[idx]
	has := columnScale(m.Column)
	if bare {
		k++ // from the sign
	}
	src := p.src(k, i+1)
	if millions && (unitInName(m.Column) || has != 1 || !p.allBelow(m.Column, f)) {
		return false
	}
	if d := k; d > 0 && p.toks[k].low == "in" && declareVerbs[p.toks[d-1].low] {
		// "(gdp_md_est is in $ millions)": the data's unit, not the one
		// to show: a ratio of it is scaled back to ones (applyRatio)
		if p.unitOf == nil {
			p.unitOf = map[string]float64{}
		}
		p.unitOf[m.Column] = f
		src = p.src(d-1, i+1)
		p.understood(d-1, fmt.Sprintf("%s -> the unit %s is in", src, m.Column), src)
		p.use(d-1, i+1)
		return true
	}
	switch {
	case f == has:
		p.understood(k, fmt.Sprintf("%s -> the unit of %s", src, m.Column), src)
	case has == 1 && f > 1 && !unitInName(m.Column) && p.allBelow(m.Column, f):
		// "pop in millions" over a pop of 0.1 to 1,400: already in
		// millions, as the whole request reads it
		p.understood(k, fmt.Sprintf("%s -> the unit of %s, read as already in it (its name gives no unit and its values are all less than %g)",
			src, m.Column, f), src)
	default:
		m.Scale = f / has
		p.understood(k, fmt.Sprintf("%s -> %s divided by %g", src, m.Column, m.Scale), src)
	}
	p.use(k, i+1)
	return true
}

// declareVerbs say what unit the data is in: "is in $ millions".
var declareVerbs = setOf("is", "are", "was", "were", "given", "reported", "expressed", "measured", "recorded", "stated", "stored")

// unitInName reports whether a column's name says the unit its numbers
// are in: cost_usd, wt_kg, dur_hrs.
func unitInName(name string) bool {
	return slices.ContainsFunc(nameWords(name), func(w string) bool {
		return moneyWords[w] || currencySigns[w] || measureUnits[w] || units[w] != ""
	})
}

// allBelow reports whether every value of the chosen table's column is
// known to be less than f in size.
func (p *parser) allBelow(col string, f float64) bool {
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if c.Name != col {
			continue
		}
		lo, err1 := strconv.ParseFloat(c.Min, 64)
		hi, err2 := strconv.ParseFloat(c.Max, 64)
		return err1 == nil && err2 == nil && math.Abs(lo) < f && math.Abs(hi) < f
	}
	return false
}

// columnScale is the scale a column's name says its numbers are in: 1000
// for sal_k, 1e9 for gdp_usd_bn; 1 when it says none. "m" counts only
// after a word of money ("rev_usd_m"): alone it is metres.
func columnScale(name string) float64 {
	has, money := 1.0, false
	for _, cw := range nameWords(name) {
		if g := scaleOf(cw, money); g != 0 {
			has = g
		}
		money = money || moneyWords[cw] || currencySigns[cw]
	}
	return has
}
