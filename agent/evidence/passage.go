package evidence

import (
	"regexp"
	"slices"
	"strings"
)

// scaleRe matches a document's statement of the unit its amounts are
// written in: "(In millions)", "($ in thousands)", "(Dollars in
// millions, except per share data)", "(Millions)", "($ million)", "in
// billions of dollars", "(000s)". The word "in" may be glued to its neighbours, as text taken from some
// PDFs is ("(Dollarsinmillions,").
var scaleRe = regexp.MustCompile(`(?i)(?:in\s*(?:[$€£]\s*|u\.?s\.?\s*dollars\s*|dollars\s*)?|\(\s*(?:[$€£]|usd|eur|gbp|dollars)?\s*)(thousand|million|billion)s?\b` +
	`|\(\s*(?:[$€£]\s*)?(000)'?s?\s*\)`)

var scales = map[string]float64{"thousand": 1e3, "000": 1e3, "million": 1e6, "billion": 1e9}

// AddPassage adds the numbers of a passage quoted from a document, as
// AddText does, and, when the passage or the page it is on says the unit
// its amounts are in ("(In millions)", "$ in thousands"), each amount
// written without a unit of its own in that unit too: "1,577" under
// "(Millions)" is also 1,577,000,000, so that "$1.6 billion" matches it.
// A passage naming several units adds its plain amounts in each. page may
// be ""; its numbers are not added.
func (s *Set) AddPassage(text, page string) {
	var mults []float64
	for _, m := range scaleRe.FindAllStringSubmatch(text+"\n"+page, -1) {
		unit := strings.ToLower(m[1] + m[2])
		if mult := scales[unit]; !slices.Contains(mults, mult) {
			mults = append(mults, mult)
		}
	}
	scan(text, func(n number) {
		s.values.add(n.value)
		if n.percent {
			s.fractions.add(n.value / 100)
		}
		if !n.suffixed {
			for _, m := range mults {
				s.values.add(n.value * m)
			}
		}
	})
}
