package intent

import (
	"fmt"
	"slices"
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
