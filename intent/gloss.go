package intent

import (
	"slices"
	"strings"
)

// gloss is a phrase the request explains by naming the data in
// parentheses right after it: "employee cash income (py010n)", "their 60s
// (age.ord 60-69)", "the Lyon warehouse (LYS1)". The words in parentheses
// are read in the phrase's place; the phrase is reported as explained by
// them.
type gloss struct {
	phrase, by string
	at         int  // the index, in the rewritten tokens, of the first word read instead
	opposite   bool // the name negates the phrase: "employed people (unemployed)"
}

// A gloss of things in the plural ("households (db030)") marks the name
// read instead as numbering things: "how many" of it counts its values.

// glossStops end a glossed phrase when reading it backwards from the
// parenthesis: what to compute, how to filter or group, and question words
// are said outside the gloss ("total | employee cash income (py010n)").
var glossStops = setOf("how", "many", "much", "what", "which", "who", "whose", "me", "give", "show", "list",
	"and", "or", "vs", "versus", "the", "a", "an", "than", "each", "every", "all", "excluding", "except", "only",
	"without", "not", "non", "no", "never", "with", "ytd", "mtd", "qtd")

// readGlosses replaces each phrase explained by a column or value named in
// the parentheses that follow it by what the parentheses hold. The
// parentheses must hold nothing but data names, numbers and operators
// ("(capital = 1)", "(amt_usd / units)"), starting with a column's or a
// value's name as the data spells it; a statement in parentheses ("(gdp is
// in $ millions)") is read as words. A phrase that holds a value of the
// column named is that value's column said, not a gloss: "the West
// (region)" stays as written.
func (p *parser) readGlosses(toks []token) []token {
	var out []token
	for i := 0; i < len(toks); i++ {
		if toks[i].low != "(" {
			out = append(out, toks[i])
			continue
		}
		if k := len(out) - acronymBefore(out, toks[i:]); k < len(out) && p.namesAColumn(toks[i+1].low) {
			// "gross state product (GSP)": the words before, abbreviated,
			// read as the abbreviation; "average daily rate (ADR)" keeps
			// its average, the average of ADR
			p.glosses = append(p.glosses, gloss{phrase: p.text[out[k].start:out[len(out)-1].end], by: toks[i+1].raw, at: k})
			if averageWords[out[k].low] || aggWord(out[k].low) || totalWords[out[k].low] {
				k++ // "median household income (MHI)": the median of MHI
			}
			out = append(out[:k], toks[i+1])
			i += 2
			continue
		}
		j := i + 1
		for j < len(toks) && toks[j].low != ")" && toks[j].low != "(" && j-i <= 8 {
			j++
		}
		if j >= len(toks) || toks[j].low != ")" || j == i+1 || !p.dataNamesOnly(toks[i+1:j]) {
			out = append(out, toks[i])
			continue
		}
		ratio := false
		for _, t := range toks[i+1 : j] {
			ratio = ratio || t.low == "/"
		}
		k := len(out)
		if unitSaid(out, toks[i+1].raw) {
			k -= 2 // "age in yrs (ageyr)": the column's own unit, said
		}
		for k > 0 && len(out)-k < 5 && (glossable(out[k-1]) && !p.valueName(out[k-1]) || ratio && out[k-1].low == "per" ||
			out[k-1].low == "-" && k >= 2 && k < len(out) && glossable(out[k-2])) { // "black-market premium (barb2)"
			k--
		}
		if k < len(out) && out[k].low == "-" {
			k++
		}
		if k == len(out) || p.valueOfNamed(out[k:], toks[i+1:j]) {
			out = append(out, toks[i])
			continue
		}
		opposite := false
		if k > 0 && glossNegations[out[k-1].low] && (negativeName(toks[i+1].raw) || negationOf(toks[i+1].raw, out[k:])) {
			k-- // "no insurance (uninsured)": the column says the no itself
		} else if negationOf(toks[i+1].raw, out[k:]) {
			opposite = true // "employed people (unemployed)": the rows the column does not mark
		}
		g := gloss{phrase: p.text[out[k].start:out[len(out)-1].end], by: p.text[toks[i+1].start:toks[j-1].end], at: k, opposite: opposite}
		p.glosses = append(p.glosses, g)
		last := out[len(out)-1].low
		out = append(out[:k], toks[i+1:j]...)
		out[k].glossed = last != singular(last) && !moneyWords[last] && !quantityWords[last] && units[last] == "" && !measureUnits[last]
		i = j
	}
	return out
}

// namesAColumn reports whether w is a word of a column's name in some
// table: an acronym read in its words' place must name the data.
func (p *parser) namesAColumn(w string) bool {
	for _, t := range p.s.Tables {
		for _, c := range t.Columns {
			if slices.Contains(nameWords(c.Name), w) {
				return true
			}
		}
	}
	return false
}

// acronymBefore returns how many of the last words of out the
// parenthesized word that starts paren ("(", w, ")") spells by their
// initials, 0 if it does not: "average daily rate (ADR)" is 3.
func acronymBefore(out, paren []token) int {
	if len(paren) < 3 || paren[2].low != ")" || paren[1].kind != kWord {
		return 0
	}
	w := paren[1].low
	n := len(w)
	if n < 2 || n > 5 || !isLetters(w) || n > len(out) || paren[1].raw != strings.ToUpper(paren[1].raw) {
		return 0
	}
	for k, t := range out[len(out)-n:] {
		if t.kind != kWord || t.low == "" || t.low[0] != w[k] {
			return 0
		}
	}
	return n
}

// unitSaid reports whether the words before a gloss end in "in" and a
// unit the glossing column's name says: "age in yrs (ageyr)".
func unitSaid(out []token, name string) bool {
	n := len(out)
	if n < 3 || out[n-2].low != "in" {
		return false
	}
	u := out[n-1].low
	low := strings.ToLower(name)
	for w, unit := range units {
		if unit != "" && unit == units[u] && len(w) >= 2 && strings.HasSuffix(low, w) && len(low) > len(w) {
			return true
		}
	}
	return unitSpellings[u] != "" && slices.ContainsFunc(nameWords(name), func(w string) bool { return unitSpellings[w] == unitSpellings[u] })
}

// glossable reports whether t may be a word of a glossed phrase. A
// possessive is not, nor (see readGlosses) a value's name: each says
// something the parentheses do not.
func glossable(t token) bool {
	if t.kind != kWord || isNumber(t.low) || t.low == "per" || len(t.raw) > len(t.low) {
		return false // a possessive owns the phrase: "China's real GDP (rgdpe)"
	}
	w := t.low
	return !glossStops[w] && !clauseWords[w] && !leadWords[w] && !averageWords[w] && !topWords[w] &&
		!superlatives[w] && !shareWords[w] && !totalWords[w] && aggWords[w] == "" &&
		!vocabulary[w] && units[w] == "" && grainAdverbs[w] == "" && !isMonth(w) // a period is said apart: "last year (amount)"
}

func isMonth(w string) bool { _, ok := months[w]; return ok }

// totalWords ask for a sum or a count.
var totalWords = setOf("total", "tot", "sum", "count", "cnt", "number", "num", "nbr")

// glossNegations before a glossed phrase may be the gloss's own.
var glossNegations = setOf("no", "non", "not", "without", "never")

// negativeName reports whether a column's name says a negative: no_show,
// non_smoker, uninsured, unemployed.
func negativeName(name string) bool {
	ws := nameWords(name)
	if len(ws) == 0 {
		return false
	}
	w := ws[0]
	if glossNegations[w] || w == "none" {
		return true
	}
	for _, pre := range []string{"non", "un"} {
		if r, ok := strings.CutPrefix(w, pre); ok && len(r) >= 5 {
			return true
		}
	}
	return false
}

// negationOf reports whether a column's name is the negation of the
// phrase it glosses: "no", "non" or "un" before a word of the phrase or
// its shorthand ("no high school degree (nodegr)").
func negationOf(name string, phrase []token) bool {
	ws := nameWords(name)
	if len(ws) == 0 {
		return false
	}
	for _, pre := range []string{"non", "no", "un"} {
		rest, ok := strings.CutPrefix(ws[0], pre)
		if !ok || len(rest) < 3 {
			continue
		}
		if slices.ContainsFunc(phrase, func(t token) bool {
			return sameWord(t.low, rest) || abbreviates(t.low, rest) || strings.HasPrefix(t.low, rest)
		}) {
			return true
		}
	}
	return false
}

// dataNamesOnly reports whether toks, the inside of parentheses, hold only
// names of columns or values as the data spells them, numbers, operators
// and "or", and start with a name.
func (p *parser) dataNamesOnly(toks []token) bool {
	if !p.dataName(toks[0]) {
		return false
	}
	for _, t := range toks[1:] {
		switch {
		case t.kind == kPunct && (comparators[t.low] != "" || t.low == "/" || t.low == "-" || t.low == "="):
		case t.kind == kWord && isNumber(t.low):
		case t.low == "or": // "(status 1 or 2)"
		case p.dataName(t):
		default:
			return false
		}
	}
	return true
}

// dataName reports whether t is a column's name or a text value, as the
// data spells them (ignoring case).
func (p *parser) dataName(t token) bool {
	return t.kind != kPunct && (p.anyColumnNamed(t.raw) || p.valueName(t))
}

// valueName reports whether t is a whole text value of a column of any
// table, ignoring case.
func (p *parser) valueName(t token) bool {
	for _, tb := range p.s.Tables {
		for _, c := range tb.Columns {
			for _, v := range c.Values {
				if strings.EqualFold(v, t.raw) && !isNumber(t.low) {
					return true
				}
			}
		}
	}
	return false
}

// valueOfNamed reports whether the words of phrase are a value of a column
// the parentheses name: "West (region)".
func (p *parser) valueOfNamed(phrase, named []token) bool {
	var words []string
	for _, t := range phrase {
		words = append(words, t.low)
	}
	text := strings.Join(words, " ")
	for _, n := range named {
		for _, tb := range p.s.Tables {
			for _, c := range tb.Columns {
				if !strings.EqualFold(c.Name, n.raw) {
					continue
				}
				for _, v := range c.Values {
					if lv := strings.ToLower(v); strings.Contains(text, lv) || strings.Contains(lv, text) {
						return true
					}
				}
			}
		}
	}
	return false
}

// noteGlosses reports each gloss read.
func (p *parser) noteGlosses() {
	for _, g := range p.glosses {
		if g.opposite {
			p.in.Unknown = append(p.in.Unknown, Unknown{Word: g.phrase + " (" + g.by + ")",
				Reason: g.by + " says the opposite of " + g.phrase + ": say which rows, as \"" + g.by + " = 0\" or \"not " + g.by + "\"", Nearest: []string{g.by}})
			continue
		}
		p.understood(g.at, g.phrase+" -> "+g.by+" (named in parentheses)", g.phrase+" ("+g.by+")")
	}
}
