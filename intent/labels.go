package intent

import (
	"fmt"
	"slices"
	"strings"
)

// Some text columns hold several labels a row: a day's weather events
// "Fog-Snow", a film's genres "Comedy|Drama", a product's tags "red,
// large". A value said by itself ("snow days") is then any row whose
// labels include it: "Snow" alone, "Fog-Snow" and "Rain-Snow". Matched
// whole, the filter would drop the days of snow with fog and answer a
// narrower question than was asked.

// labelSeparators join the labels of one value.
const labelSeparators = "-/|,;"

// labelsOf splits v into its labels at the separators, trimmed; nil when
// v is one label.
func labelsOf(v string) []string {
	parts := strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune(labelSeparators, r) })
	if len(parts) < 2 {
		return nil
	}
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// labelColumn reports whether the text column c holds several labels a
// row: two of its values at least are made of labels that are each a
// value of c by itself ("Fog-Snow" beside "Fog" and "Snow"), and most of
// its values made of parts are such. "25-34" (no value "25") and
// "Self-emp-inc" are no labels.
func labelColumn(c *Column) bool {
	if !isText(c) || len(c.Values) < 3 {
		return false
	}
	whole := map[string]bool{}
	for _, v := range c.Values {
		whole[strings.ToLower(strings.TrimSpace(v))] = true
	}
	multi, labelled := 0, 0
	for _, v := range c.Values {
		parts := labelsOf(v)
		if parts == nil {
			continue
		}
		if slices.ContainsFunc(parts, func(p string) bool { return placeParts[strings.ToLower(p)] }) {
			return false // "North-East" is a region of its own, not the north and the east
		}
		multi++
		if !slices.ContainsFunc(parts, func(p string) bool { return !whole[strings.ToLower(p)] }) {
			labelled++
		}
	}
	return labelled >= 2 && 2*labelled >= multi
}

// placeParts make one place of two words ("North-East", "Upper-West"),
// never two labels.
var placeParts = setOf("north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest", "central",
	"upper", "lower", "inner", "outer", "mid", "middle", "greater", "new", "old", "ne", "nw", "se", "sw", "n", "s", "e", "w")

// withLabel returns the values of c other than v whose labels include v.
func withLabel(c *Column, v string) []string {
	var out []string
	for _, o := range c.Values {
		if strings.EqualFold(o, v) {
			continue
		}
		if slices.ContainsFunc(labelsOf(o), func(p string) bool { return strings.EqualFold(p, v) }) {
			out = append(out, o)
		}
	}
	return out
}

// labelFilters widens each filter on a column of labels to the values
// that include the label said: "=" and "in" to every value with it, "!="
// to none of them. A value quoted, said with "only", "=" or "exactly", or
// listed beside a value of several labels is meant as written, and the
// values of a column grouped or ranked by ("Fog vs Snow") are the groups
// as they are.
func (p *parser) labelFilters() error {
	if p.t == nil {
		return nil
	}
	quoted := map[string]bool{}
	for _, vs := range p.qvals {
		for _, v := range vs {
			quoted[v.col.Name] = true
		}
	}
	// "only snow", "events = Snow": the value as it is
	exact := slices.ContainsFunc(p.toks, func(t token) bool { return t.low == "only" || t.low == "=" || t.low == "exactly" || t.low == "alone" })
	var added []Filter
	for fi := range p.in.Filters {
		f := &p.in.Filters[fi]
		c := p.columnByName(f.Column)
		grouped := slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return g.Column == f.Column }) ||
			p.in.Top != nil && p.in.Top.Column == f.Column
		if c == nil || quoted[f.Column] || grouped || exact || f.Op != "=" && f.Op != "in" && f.Op != "!=" || !labelColumn(c) ||
			slices.ContainsFunc(f.Values, func(v string) bool { return labelsOf(v) != nil }) {
			continue
		}
		said := slices.Clone(f.Values)
		var more []string
		for _, v := range said {
			for _, o := range withLabel(c, v) {
				if !slices.Contains(f.Values, o) && !slices.Contains(more, o) {
					more = append(more, o)
				}
			}
		}
		if len(more) == 0 {
			continue
		}
		if f.Op == "!=" {
			for _, o := range more {
				added = append(added, Filter{Column: f.Column, Op: "!=", Values: []string{o}})
			}
		} else {
			f.Op, f.Values = "in", append(f.Values, more...)
		}
		p.understood(len(p.toks), fmt.Sprintf("%s -> any %s that includes it (%s)", strings.Join(said, ", "),
			f.Column, strings.Join(more, ", ")), "")
	}
	p.in.Filters = append(p.in.Filters, added...)
	return nil
}
