package intent

import (
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
)

// Exports often hold countries by their ISO codes ("BRA", "DE") where a
// request names them ("Brazil", "German"). A column of codes is read as
// a column of countries: each code is also spelled by the country's
// English name and its demonym.

// countryWords in a column's name say it holds countries.
var countryWords = setOf("country", "countries", "cntry", "ctry", "nation", "iso", "iso2", "iso3", "iso_a2", "iso_a3", "isocode")

// countryCodeColumn reports whether c holds countries by their ISO codes:
// nearly all of its values are codes of countries, and its name says
// country or its codes are three letters long (two-letter codes are also
// states and languages).
func countryCodeColumn(c *Column) bool {
	if !isText(c) || len(c.Values) < 3 {
		return false
	}
	named := false
	for _, w := range nameWords(c.Name) {
		named = named || countryWords[w]
	}
	codes, three := 0, 0
	for _, v := range c.Values {
		if _, ok := countryOfCode(v); ok {
			codes++
			if len(v) == 3 {
				three++
			}
		}
	}
	return codes*10 >= len(c.Values)*9 && (named || three*10 >= len(c.Values)*9 && len(c.Values) >= 5)
}

// countryCodes is countryCodeColumn, decided once a parse for each
// column: it reads every value.
func (p *parser) countryCodes(c *Column) bool {
	if p.codeCols == nil {
		p.codeCols = map[*Column]bool{}
	}
	is, ok := p.codeCols[c]
	if !ok {
		is = countryCodeColumn(c)
		p.codeCols[c] = is
	}
	return is
}

// countryOfCode returns the English name of the country whose ISO 3166
// code (two or three capital letters) is v.
func countryOfCode(v string) (string, bool) {
	if len(v) != 2 && len(v) != 3 || strings.IndexFunc(v, func(r rune) bool { return !unicode.IsUpper(r) }) >= 0 {
		return "", false
	}
	r, err := language.ParseRegion(v)
	if err != nil || !r.IsCountry() {
		return "", false
	}
	name := display.English.Regions().Name(r)
	return name, name != "" && name != "Unknown Region"
}

// countryForms returns how a request may name the country coded v: its
// English name, the name's other forms and its demonyms, lower case.
func countryForms(v string) []string {
	name, ok := countryOfCode(v)
	if !ok {
		return nil
	}
	l := strings.ToLower(name)
	out := []string{l}
	for _, a := range countryAliases[l] {
		out = append(out, strings.ToLower(a))
	}
	return append(out, demonyms[l]...)
}

// compassCodes are the letters regions are coded by: "W" is the west.
var compassCodes = map[string][]string{"n": {"north"}, "s": {"south"}, "e": {"east"}, "w": {"west"},
	"ne": {"northeast", "north east"}, "nw": {"northwest", "north west"}, "se": {"southeast", "south east"},
	"sw": {"southwest", "south west"}, "mw": {"midwest", "mid west"}}

// compassNames say a column holds places or directions.
var compassNames = setOf("region", "regions", "rgn", "reg", "zone", "area", "direction", "dir", "wind", "sector",
	"quadrant", "district", "division", "side", "territory", "loc", "location")

// compassColumn reports whether every one of c's three or more values is
// a compass code (N, S, E, W, NE, MW …) and its name says places: a column
// of regions by letter.
func compassColumn(c *Column) bool {
	if !isText(c) || len(c.Values) < 3 || !slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return compassNames[w] }) {
		return false // sizes S, M, L or cuts N, W are no regions
	}
	for _, v := range c.Values {
		if compassCodes[strings.ToLower(v)] == nil {
			return false
		}
	}
	return true
}
