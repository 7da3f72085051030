package closedform

import (
	"math"
	"regexp"
	"strings"

	"github.com/quarry-dev/quarry"
)

// Filters restrict every answer to the rows the question is about: "male
// passengers who survived", "passengers in first class", "Embarked =
// 'C'", "hotels with at least 100 reviews", "a fare greater than the
// average fare". A column whose values the question names more than
// once over (male and female, survived and did not survive) is a
// comparison, not a filter.

// applyFilters returns the rows of f every answer is about.
func (a *analysis) applyFilters(f *frame) *frame {
	conds := a.filterConds(f)
	if len(conds) == 0 {
		return f
	}
	for _, c := range conds {
		a.filterDebug = append(a.filterDebug, c.col+": "+c.desc)
	}
	keep := make([]bool, f.rows)
	for i := range keep {
		keep[i] = true
		for _, c := range conds {
			if !c.keep(f.col(c.col), i) {
				keep[i] = false
				break
			}
		}
	}
	return f.subset(keep)
}

// groupedByAnswers reports whether the answers' names pick values of
// column s, making it a comparison.
func (a *analysis) groupedByAnswers(s *series) bool {
	vals := map[string]bool{}
	for _, v := range distinctValues(s) {
		vals[flatLower(v)] = true
	}
	for _, w := range a.wants {
		for n := 1; n <= 3; n++ {
			for i := 0; i+n <= len(w.words); i++ {
				if p := strings.Join(w.words[i:i+n], ""); vals[p] && !weakWords[p] && !isDigits(p) {
					return true
				}
			}
		}
		for _, x := range w.words {
			for _, cw := range nameWords(s.name) {
				if len(cw) >= 3 && sameWord(cw, x) || len(x) >= 4 && strings.Contains(cw, x) {
					return true
				}
			}
		}
	}
	return false
}

var (
	relPronounRe = regexp.MustCompile(`\b(?:who|that|which|were|was|only|those|did)\s+(did not\s+|didn't\s+|do not\s+|not\s+|never\s+)?([a-z]+)\b(\s+(?:columns?|variables?|features?|fields?)\b)?`)
	eqRe         = regexp.MustCompile(`^\s*(?:column\s+)?(?:value\s+)?(?:==|=|is equal to|equal to|equals|of|is)\s*["']?([\w.\- ]+?)["']?(?:[\s,.;)?!]|$)`)
)

func (a *analysis) filterConds(f *frame) []rowCond {
	var conds []rowCond
	text := a.text
	low := a.low
	used := map[string]bool{}
	wordRe := func(v string) *regexp.Regexp {
		return regexp.MustCompile(`(?i)(^|[^\pL\pN])` + quarry.QuoteRegexp(v) + `($|[^\pL\pN])`)
	}
	// 1. values of text columns written in the question
	for _, s := range f.cols {
		if s.kind != kindText || !categorical(s) || contains(a.created, s.name) {
			continue
		}
		var hits []string
		for _, v := range distinctValues(s) {
			lv := strings.ToLower(strings.TrimSpace(v))
			if len(lv) < 2 || weakWords[lv] || f.col(v) != nil || genericWords[lv] {
				continue
			}
			quoted := strings.Contains(text, `'`+v+`'`) || strings.Contains(text, `"`+v+`"`)
			if len(lv) < 4 && !quoted && !(len(lv) >= 3 && strings.ToUpper(v) == v && strings.Contains(text, v)) {
				continue
			}
			// written bare, a value must keep its case: "Hotel" is a value, "hotel" a word
			if quoted || wordRe(v).MatchString(text) && regexp.MustCompile(`(^|[^\pL\pN])`+quarry.QuoteRegexp(v)+`($|[^\pL\pN])`).MatchString(text) {
				if !valueInInstruction(text, v) {
					hits = append(hits, v)
				}
			}
		}
		// a value that is part of another hit ("male" in "female") does not count
		var kept []string
		for _, h := range hits {
			inner := false
			for _, o := range hits {
				if o != h && strings.Contains(strings.ToLower(o), strings.ToLower(h)) {
					inner = true
				}
			}
			if !inner {
				kept = append(kept, h)
			}
		}
		if len(kept) != 1 || a.groupedByAnswers(s) {
			continue
		}
		v := kept[0]
		conds = append(conds, rowCond{col: s.name, desc: "value " + v, keep: func(s *series, i int) bool { return !s.missing[i] && s.str[i] == v }})
		used[s.name] = true
	}
	// 2. yes/no columns named as verbs: who survived, did not survive
	for _, s := range f.cols {
		if used[s.name] || !isBinary(s) || a.groupedByAnswers(s) {
			continue
		}
		if content := a.m.info(s.name).content; len(content) != 1 {
			continue // only one-word names read as verbs or adjectives
		}
		pos, neg := false, false
		for _, m := range relPronounRe.FindAllStringSubmatch(low, -1) {
			if m[3] != "" {
				continue // "the survived column" names the column
			}
			for _, cw := range nameWords(s.name) {
				if len(cw) >= 4 && sameWord(cw, m[2]) {
					if m[1] != "" {
						neg = true
					} else {
						pos = true
					}
				}
			}
		}
		if pos == neg {
			continue
		}
		want := 1.0
		if neg {
			want = 0
		}
		conds = append(conds, rowCond{col: s.name, desc: "yes/no", keep: func(s *series, i int) bool { return s.numeric()[i] == want }})
		used[s.name] = true
	}
	// 3. explicit equalities and comparisons after a column's name, the
	// constraints' (more precise) before the question's
	ordered := make([]mention, 0, len(a.ment))
	for _, m := range a.ment {
		if m.start >= len(a.qText) {
			ordered = append(ordered, m)
		}
	}
	for _, m := range a.ment {
		if m.start < len(a.qText) {
			ordered = append(ordered, m)
		}
	}
	for _, m := range ordered {
		s := f.col(m.col)
		if s == nil || used[m.col] {
			continue
		}
		inParens := false
		if open := strings.LastIndex(text[:m.start], "("); open >= 0 && !strings.Contains(text[open:m.start], ")") {
			inParens = true // a comparison in parentheses defines a bin, it does not filter
		}
		after := text[m.end:min(len(text), m.end+60)]
		lafter := strings.ToLower(after)
		if c, ok := compareAfter(s, lafter); ok && !inParens && !a.groupedByAnswers(s) && !a.answersNameRanges() {
			c.desc = "compare " + lafter
			conds = append(conds, c)
			used[m.col] = true
			continue
		}
		e := eqRe.FindStringSubmatch(after)
		if e == nil && s.kind == kindNum {
			e = regexp.MustCompile(`^ +(\d+(?:\.\d+)?)(?:[^.\d]|$)`).FindStringSubmatch(after)
		}
		if e != nil {
			v := strings.TrimSpace(e[1])
			if s.kind == kindText {
				for _, d := range distinctValues(s) {
					if strings.EqualFold(d, v) && !a.groupedByAnswers(s) {
						dv := d
						conds = append(conds, rowCond{col: s.name, desc: "eq " + d, keep: func(s *series, i int) bool { return !s.missing[i] && s.str[i] == dv }})
						used[m.col] = true
						break
					}
				}
			} else if x, ok := parseNumber(v); ok && (categorical(s) || x == math.Trunc(x)) && !a.groupedByAnswers(s) {
				// a number that the column holds
				for _, y := range s.numeric() {
					if y == x {
						conds = append(conds, rowCond{col: s.name, desc: "eq " + v, keep: func(s *series, i int) bool { return s.numeric()[i] == x }})
						used[m.col] = true
						break
					}
				}
			}
		}
	}
	// 5. older or younger than: a column named age
	for _, m := range regexp.MustCompile(`\b(older|younger)\s+than\s+(\d+(?:\.\d+)?)`).FindAllStringSubmatch(low, -1) {
		for _, s := range f.cols {
			if used[s.name] || s.kind != kindNum || !has(nameWords(s.name), "age") {
				continue
			}
			x, _ := parseNumber(m[2])
			older := m[1] == "older"
			conds = append(conds, rowCond{col: s.name, desc: m[0], keep: func(s *series, i int) bool {
				v := s.numeric()[i]
				return !math.IsNaN(v) && (older && v > x || !older && v < x)
			}})
			used[s.name] = true
			break
		}
	}
	// 4. an ordinal before a word of a categorical number column: first class
	for _, m := range regexp.MustCompile(`\b(first|second|third|1st|2nd|3rd)[\s-]+([a-z]{3,})\b`).FindAllStringSubmatch(low, -1) {
		for _, s := range f.cols {
			if used[s.name] || s.kind != kindNum || !categorical(s) || !strings.Contains(strings.ToLower(s.name), m[2]) || a.groupedByAnswers(s) {
				continue
			}
			if strings.Count(low, m[2]) > 1 && regexp.MustCompile(`\b(?:each|every|per|all)\s+(?:\w+\s+)?`+m[2]).MatchString(low) {
				continue
			}
			var distinct []float64
			seen := map[float64]bool{}
			for _, v := range s.numeric() {
				if !math.IsNaN(v) && !seen[v] {
					seen[v] = true
					distinct = append(distinct, v)
				}
			}
			sortFloats(distinct)
			r := ordinalWords[m[1]]
			if r == 0 || r > len(distinct) {
				continue
			}
			x := distinct[r-1]
			conds = append(conds, rowCond{col: s.name, desc: "ordinal " + m[0], keep: func(s *series, i int) bool { return s.numeric()[i] == x }})
			used[s.name] = true
		}
	}
	return conds
}

var cmpAfterRe = regexp.MustCompile(`^\s*(?:values?\s+)?(?:is\s+|are\s+|was\s+)?(greater than or equal to|less than or equal to|greater than|more than|higher than|larger than|less than|lower than|smaller than|above|below|under|over|at least|at most|beyond|after|before|>=|<=|>|<)\s*(?:the\s+)?(-?\d+(?:\.\d+)?|average|mean|median)`)

var rangeAfterRe = regexp.MustCompile(`^\s*(?:values?\s+)?(?:from|between)\s+(-?\d+(?:\.\d+)?)\s+(?:to|and|through|-)\s+(-?\d+(?:\.\d+)?)\b`)

var cmpAndRe = regexp.MustCompile(`^\s*(-?\d+(?:\.\d+)?)\s+(?:and|or)\s+(beyond|above|after|later|onwards?|more|greater|higher|over|below|before|earlier|less|lower|under)\b`)

// compareAfter reads "greater than 100" or "above the average" after a
// numeric column's name.
func compareAfter(s *series, after string) (rowCond, bool) {
	if s.kind != kindNum && s.numericShare() < 0.9 {
		return rowCond{}, false
	}
	if r := rangeAfterRe.FindStringSubmatch(after); r != nil {
		lo, _ := parseNumber(r[1])
		hi, _ := parseNumber(r[2])
		vals := s.numeric()
		return rowCond{col: s.name, keep: func(s *series, i int) bool {
			v := vals[i]
			return !math.IsNaN(v) && v >= lo && v <= hi
		}}, true
	}
	m := cmpAfterRe.FindStringSubmatch(after)
	if m == nil {
		if m2 := cmpAndRe.FindStringSubmatch(after); m2 != nil {
			op := "at least"
			if strings.Contains("below before earlier less lower under", m2[2]) {
				op = "at most"
			}
			m = []string{"", op, m2[1]}
		} else {
			return rowCond{}, false
		}
	}
	vals := s.numeric()
	var x float64
	switch m[2] {
	case "average", "mean":
		x = mean(present(vals))
	case "median":
		x = median(present(vals))
	default:
		x, _ = parseNumber(m[2])
	}
	var pred func(v float64) bool
	switch m[1] {
	case "greater than or equal to", "at least", ">=":
		pred = func(v float64) bool { return v >= x }
	case "less than or equal to", "at most", "<=":
		pred = func(v float64) bool { return v <= x }
	case "greater than", "more than", "higher than", "larger than", "above", "over", "beyond", "after", ">":
		pred = func(v float64) bool { return v > x }
	default:
		pred = func(v float64) bool { return v < x }
	}
	return rowCond{col: s.name, keep: func(s *series, i int) bool {
		v := s.numeric()[i]
		return !math.IsNaN(v) && pred(v)
	}}, true
}

func sortFloats(xs []float64) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// answersNameRanges reports whether the answers' names state ranges
// ("below3_correlation"): the ranges in the text are then groups.
func (a *analysis) answersNameRanges() bool {
	for _, w := range a.wants {
		for i := 0; i+1 < len(w.words); i++ {
			switch w.words[i] {
			case "below", "under", "less", "lower", "above", "over", "greater", "higher", "more", "between":
				if _, ok := parseNumber(w.words[i+1]); ok {
					return true
				}
			}
		}
	}
	return false
}

var instructionRe = regexp.MustCompile(`(?i)(?:with|replac\w*|fill\w*|imput\w*|encod\w*|coded|as|=|map\w*|label\w*|convert\w*|to)\s*["']?$`)

// valueInInstruction reports whether every mention of v is the object of
// a filling or encoding instruction ("fill with 'Unknown'", "'male' is
// coded as 1") rather than a choice of rows.
func valueInInstruction(text, v string) bool {
	re := regexp.MustCompile(`(?i)["']?` + quarry.QuoteRegexp(v) + `["']?`)
	locs := re.FindAllStringIndex(text, -1)
	if len(locs) == 0 {
		return false
	}
	for _, l := range locs {
		before := text[max(0, l[0]-25):l[0]]
		after := strings.ToLower(text[l[1]:min(len(text), l[1]+20)])
		if !instructionRe.MatchString(strings.TrimRight(before, " ")+" ") && !instructionRe.MatchString(before) &&
			!strings.HasPrefix(strings.TrimSpace(after), "is coded") && !strings.HasPrefix(strings.TrimSpace(after), "as ") &&
			!strings.HasPrefix(strings.TrimSpace(after), "=") && !strings.HasPrefix(strings.TrimSpace(after), "->") {
			return false
		}
	}
	return true
}
