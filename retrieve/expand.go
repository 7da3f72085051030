package retrieve

// countries maps country names and adjectives, as Terms returns them, to
// ISO 3166-1 alpha-2 codes in lower case. Data usually stores the code
// (country=DE) while people ask about the name (Germany). Expansion goes
// from names to codes only: several codes ("in", "it", "us") are also
// English words.
var countries = map[string][]string{
	"australia": {"au"}, "australian": {"au"},
	"brazil": {"br"}, "brazilian": {"br"},
	"canada": {"ca"}, "canadian": {"ca"},
	"france": {"fr"}, "french": {"fr"},
	"germany": {"de"}, "german": {"de"},
	"india": {"in"}, "indian": {"in"},
	"italy": {"it"}, "italian": {"it"},
	"japan": {"jp"}, "japanese": {"jp"},
	"mexico": {"mx"}, "mexican": {"mx"},
	"netherlands": {"nl"}, "holland": {"nl"}, "dutch": {"nl"},
	"poland": {"pl"}, "polish": {"pl"},
	"spain": {"es"}, "spanish": {"es"},
	"sweden": {"se"}, "swedish": {"se"},
	"usa": {"us"}, "america": {"us"}, "american": {"us"},
	"uk": {"gb"}, "britain": {"gb", "uk"}, "british": {"gb", "uk"},
}

// countryPairs are two-word country names, matched on adjacent terms.
var countryPairs = map[[2]string][]string{
	{"united", "states"}:  {"us"},
	{"united", "kingdom"}: {"gb", "uk"},
	{"great", "britain"}:  {"gb", "uk"},
}

// countryCodes holds every code the tables above produce.
var countryCodes = func() map[string]bool {
	m := map[string]bool{}
	for _, codes := range countries {
		for _, c := range codes {
			m[c] = true
		}
	}
	for _, codes := range countryPairs {
		for _, c := range codes {
			m[c] = true
		}
	}
	return m
}()

// synonymGroups are words an analysis uses interchangeably. The first word
// of each group is how the analysis writes it; the others are ways a
// question may put it. A term that is any form of a group member brings in
// the whole group.
var synonymGroups = [][]string{
	{"contribution", "share", "accounts"},
	{"ruled_out", "ruled", "rejected"},
	{"drop", "fall", "decline", "decrease"},
	{"rise", "increase", "grow"},
	{"calculate", "compute"},
}

// inflections maps other forms of group members to the member.
var inflections = map[string]string{
	"contributions": "contribution", "contribute": "contribution", "contributed": "contribution",
	"shares": "share", "account": "accounts", "accounted": "accounts",
	"rule":    "ruled",
	"dropped": "drop", "drops": "drop", "fell": "fall", "fallen": "fall", "falls": "fall",
	"declined": "decline", "declines": "decline", "decreased": "decrease", "decreases": "decrease",
	"rose": "rise", "risen": "rise", "rises": "rise", "increased": "increase", "increases": "increase",
	"grew": "grow", "grown": "grow", "grows": "grow", "growth": "grow",
	"calculated": "calculate", "calculation": "calculate", "computed": "compute", "computation": "compute",
}

// synonyms maps each group member to its group.
var synonyms = func() map[string][]string {
	m := map[string][]string{}
	for _, g := range synonymGroups {
		for _, w := range g {
			m[w] = g
		}
	}
	return m
}()

// Expand returns terms followed by their aliases: the ISO codes of country
// names ("germany" adds "de", "united" "kingdom" adds "gb" and "uk") and the
// analytic synonyms of synonymGroups ("contribution" adds "share" and
// "accounts"). Every word appears once; terms keep their order and come
// first.
func Expand(terms []string) []string {
	out := make([]string, 0, len(terms))
	seen := map[string]bool{}
	add := func(ws ...string) {
		for _, w := range ws {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	add(terms...)
	for i, t := range terms {
		add(countries[t]...)
		if i+1 < len(terms) {
			add(countryPairs[[2]string{t, terms[i+1]}]...)
		}
		base := t
		if b, ok := inflections[t]; ok {
			base = b
		}
		add(synonyms[base]...)
	}
	return out
}
