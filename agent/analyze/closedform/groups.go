package closedform

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Answers about one group ("mean_fare_class1", "average_age_male",
// "mean_familysize_did_not_survive", "mean_fare_child") name the group in
// the words their name has left over once the statistic and the measured
// column are read: a value of a categorical column, a number or ordinal
// after a word of the column's name, or a yes/no column's own name,
// negated or not.

// rowCond selects rows.
type rowCond struct {
	col  string
	desc string
	keep func(s *series, i int) bool
}

// categorical reports whether a column holds few distinct values.
func categorical(s *series) bool {
	seen := map[string]bool{}
	for i, v := range s.str {
		if s.missing[i] {
			continue
		}
		seen[strings.ToLower(v)] = true
		if len(seen) > 40 {
			return false
		}
	}
	return len(seen) > 0
}

// distinctValues returns a column's values in order of first appearance.
func distinctValues(s *series) []string {
	var out []string
	seen := map[string]bool{}
	for i, v := range s.str {
		if s.missing[i] || seen[v] {
			continue
		}
		seen[v] = true
		out = append(out, v)
	}
	return out
}

func flatLower(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

var ordinalWords = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}

var negWords = map[string]bool{"not": true, "non": true, "no": true, "did": false, "without": true, "un": true, "never": true}

// groupCols returns the columns the want's group conditions use.
func (a *analysis) groupCols(w *want) []string {
	var out []string
	for _, c := range a.groupConds(w, a.clean) {
		out = append(out, c.col)
	}
	return out
}

// groupFrame returns the rows of f the want's group selects (f itself
// when it names no group).
func (a *analysis) groupFrame(w *want, f *frame) *frame {
	conds := a.groupConds(w, f)
	if len(conds) == 0 {
		return f
	}
	keep := make([]bool, f.rows)
	for i := range keep {
		keep[i] = true
		for _, c := range conds {
			s := f.col(c.col)
			if s == nil || !c.keep(s, i) {
				keep[i] = false
				break
			}
		}
	}
	return f.subset(keep)
}

// groupConds reads the group conditions of a want's name.
func (a *analysis) groupConds(w *want, f *frame) []rowCond {
	key := "groups:" + w.spec.Name + ":" + itoa(f.rows)
	if v, ok := a.cache[key]; ok {
		return v.([]rowCond)
	}
	conds := a.readGroupConds(w, f)
	a.cache[key] = conds
	return conds
}

func (a *analysis) readGroupConds(w *want, f *frame) []rowCond {
	words := w.words
	var conds []rowCond
	usedCol := map[string]bool{}
	// the measured column is never a group: the first named column that
	// is not a yes/no or text column, else the column the question is about
	target := ""
	for _, c := range w.cols {
		if s := f.col(c); s != nil && s.kind == kindNum && !isBinary(s) {
			target = c
			break
		}
	}
	if target == "" && len(w.cols) == 1 {
		if s := f.col(w.cols[0]); s != nil && s.kind != kindText {
			target = w.cols[0]
		}
	}
	if target == "" && len(w.cols) == 0 {
		for _, c := range a.primary() {
			if s := f.col(c); s != nil && (s.kind == kindNum || s.numericShare() > 0.5) {
				target = c
				break
			}
		}
	}
	// categorical columns, the question's group-by columns first
	var cats []*series
	for _, s := range f.cols {
		if s.name == target {
			continue
		}
		if categorical(s) {
			cats = append(cats, s)
		}
	}
	byHint := a.groupByCols()
	sort.SliceStable(cats, func(i, j int) bool {
		return contains(byHint, cats[i].name) && !contains(byHint, cats[j].name)
	})
	consumed := make([]bool, len(words))
	// stat, target and filler words are not group words
	for i, x := range words {
		if _, ok := statWords[x]; ok {
			consumed[i] = true
		}
		if fillerWords[x] || beforeWords[x] || afterWords[x] {
			consumed[i] = true
		}
	}
	if target != "" {
		tw := map[string]bool{}
		for _, x := range nameWords(target) {
			tw[stem(x)] = true
		}
		for i, x := range words {
			if tw[stem(x)] {
				consumed[i] = true
			}
		}
	}
	negatedAt := func(i int) bool {
		for k := 0; k < len(words); k++ {
			if negWords[words[k]] && !consumed[k] {
				return true
			}
		}
		return false
	}
	// 0. days of the week of the first date column: weekday, weekend
	for i, x := range words {
		if consumed[i] || (x != "weekday" && x != "weekdays" && x != "weekend" && x != "weekends") {
			continue
		}
		for _, s := range f.cols {
			if s.tm == nil {
				continue
			}
			weekend := strings.HasPrefix(x, "weekend")
			conds = append(conds, rowCond{col: s.name, keep: func(s *series, i int) bool {
				if s.missing[i] || s.tm == nil {
					return false
				}
				d := s.tm[i].Weekday()
				return (d == time.Saturday || d == time.Sunday) == weekend
			}})
			usedCol[s.name] = true
			consumed[i] = true
			break
		}
	}
	// parts of the first date column: month 1, year 2018, hour 6
	for i := 0; i+1 < len(words); i++ {
		part := words[i]
		if consumed[i] || part != "month" && part != "year" && part != "hour" && part != "day" && part != "weekday" {
			continue
		}
		n, ok := parseNumber(words[i+1])
		if !ok {
			continue
		}
		hasCol := false
		for _, s := range f.cols {
			if s.tm == nil && strings.EqualFold(s.name, part) {
				hasCol = true // a column of its own (Year) is rule 2's
			}
		}
		if hasCol {
			continue
		}
		for _, s := range f.cols {
			if s.tm == nil {
				continue
			}
			want := int(n)
			p := part
			conds = append(conds, rowCond{col: s.name, keep: func(s *series, i int) bool {
				if s.missing[i] || s.tm == nil {
					return false
				}
				t := s.tm[i]
				switch p {
				case "month":
					return int(t.Month()) == want
				case "year":
					return t.Year() == want
				case "hour":
					return t.Hour() == want
				case "day":
					return t.Day() == want
				}
				return int(t.Weekday()) == want
			}})
			consumed[i], consumed[i+1] = true, true
			break
		}
	}
	// the k-th most common value: mean1, median2 of "the three most
	// common values of displacement"
	if c, ok := a.topValueGroup(words, consumed, f); ok {
		conds = append(conds, c)
	}
	// ranges named by the answer: below3, between3and4, above4
	if c, ok := a.rangeGroup(words, consumed, f); ok {
		conds = append(conds, c)
	}
	// 1. values written out: male, child, graduate, "not graduate", mr
	for n := 3; n >= 1; n-- {
		for i := 0; i+n <= len(words); i++ {
			skip := false
			for k := i; k < i+n; k++ {
				if consumed[k] {
					skip = true
				}
			}
			if skip {
				continue
			}
			phrase := strings.Join(words[i:i+n], "")
			if len(phrase) < 2 || weakWords[phrase] || isDigits(phrase) {
				continue
			}
			for _, s := range cats {
				if usedCol[s.name] || s.kind == kindNum && !isDigits(phrase) {
					continue
				}
				var match string
				for _, v := range distinctValues(s) {
					if flatLower(v) == phrase {
						match = v
						break
					}
				}
				if match == "" {
					continue
				}
				m := match
				conds = append(conds, rowCond{col: s.name, keep: func(s *series, i int) bool { return !s.missing[i] && s.str[i] == m }})
				usedCol[s.name] = true
				for k := i; k < i+n; k++ {
					consumed[k] = true
				}
				break
			}
		}
	}
	// 2. a column's name followed (or preceded) by a number or ordinal:
	// class 1, class1, first class
	for i, x := range words {
		if consumed[i] {
			continue
		}
		num := math.NaN()
		rank := 0
		if v, ok := parseNumber(x); ok {
			num = v
		} else if r, ok := ordinalWords[x]; ok {
			rank = r
		} else {
			continue
		}
		for _, j := range []int{i - 1, i + 1} {
			if j < 0 || j >= len(words) {
				continue
			}
			hint := words[j]
			if len(hint) < 3 || weakWords[hint] {
				continue
			}
			for _, s := range cats {
				if usedCol[s.name] || !strings.Contains(strings.ToLower(s.name), hint) {
					continue
				}
				vals := s.numeric()
				var distinct []float64
				seen := map[float64]bool{}
				for _, v := range vals {
					if !math.IsNaN(v) && !seen[v] {
						seen[v] = true
						distinct = append(distinct, v)
					}
				}
				sort.Float64s(distinct)
				want := num
				if rank > 0 {
					if rank > len(distinct) {
						continue
					}
					want = distinct[rank-1]
				}
				if !seen[want] {
					continue
				}
				wv := want
				conds = append(conds, rowCond{col: s.name, keep: func(s *series, i int) bool { return s.numeric()[i] == wv }})
				usedCol[s.name] = true
				consumed[i], consumed[j] = true, true
				break
			}
		}
	}
	// 3. a yes/no column named by its own name: survived, did_not_survive
	for i, x := range words {
		if consumed[i] || len(x) < 3 || weakWords[x] || negWords[x] || x == "did" {
			continue
		}
		for _, s := range f.cols {
			if usedCol[s.name] || s.name == target {
				continue
			}
			ok := false
			for _, cw := range nameWords(s.name) {
				if len(cw) >= 3 && sameWord(cw, x) {
					ok = true
				}
			}
			if !ok {
				continue
			}
			vals := present(s.numeric())
			binary := len(vals) > 0
			for _, v := range vals {
				if v != 0 && v != 1 {
					binary = false
					break
				}
			}
			// a column that is null or not null: with_tree_null, notnull
			nullWord := ""
			for _, y := range words {
				if y == "null" || y == "notnull" || y == "missing" || y == "nan" || y == "na" {
					nullWord = y
				}
			}
			if nullWord != "" {
				wantMissing := nullWord != "notnull" && !negatedAt(indexOf(words, nullWord))
				conds = append(conds, rowCond{col: s.name, keep: func(s *series, i int) bool { return s.missing[i] == wantMissing }})
				usedCol[s.name] = true
				consumed[i] = true
				break
			}
			if !binary {
				continue
			}
			one := 1.0
			if negatedAt(i) {
				one = 0
			}
			conds = append(conds, rowCond{col: s.name, keep: func(s *series, i int) bool { return s.numeric()[i] == one }})
			usedCol[s.name] = true
			consumed[i] = true
			break
		}
	}
	return conds
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// groupByCols are the columns the text groups by: "for each X", "per X",
// "by X", "in each X".
func (a *analysis) groupByCols() []string {
	if v, ok := a.cache["groupby"]; ok {
		return v.([]string)
	}
	var out []string
	for _, key := range []string{"for each ", "per ", " by ", "in each ", "across ", "for every ", "each ", "separately for ", "between different ", "different "} {
		off := 0
		for {
			i := strings.Index(a.low[off:], key)
			if i < 0 {
				break
			}
			i += off
			off = i + len(key)
			rest := a.text[off:min(len(a.text), off+40)]
			for _, m := range a.m.find(rest) {
				if m.start < 12 {
					out = append(out, m.col)
				}
				break
			}
		}
	}
	out = dedupe(out)
	a.cache["groupby"] = out
	return out
}

// sameWord reports whether two words are forms of one word: equal stems,
// or one a prefix of the other sharing at least six letters (eligible,
// eligibility).
func sameWord(a, b string) bool {
	sa, sb := stem(a), stem(b)
	if sa == sb {
		return true
	}
	if len(sa) > len(sb) {
		sa, sb = sb, sa
	}
	return len(sa) >= 6 && strings.HasPrefix(sb, sa)
}

func isBinary(s *series) bool {
	vals := present(s.numeric())
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if v != 0 && v != 1 {
			return false
		}
	}
	return true
}

var rangePhraseRe = regexp.MustCompile(`\b(below|under|less than|lower than|above|over|greater than|higher than|more than|between)\s+(-?\d+(?:\.\d+)?)`)

// rangeGroup reads a range an answer's name states ("below3",
// "between3and4") over the numeric column the question states ranges of.
func (a *analysis) rangeGroup(words []string, consumed []bool, f *frame) (rowCond, bool) {
	op, lo, hi := "", 0.0, 0.0
	for i := 0; i+1 < len(words); i++ {
		x, ok := parseNumber(words[i+1])
		if !ok || consumed[i] {
			continue
		}
		switch words[i] {
		case "below", "under", "less", "lower":
			op, hi = "<", x
		case "above", "over", "greater", "higher", "more":
			op, lo = ">", x
		case "between", "from":
			j := i + 2
			if j < len(words) && (words[j] == "and" || words[j] == "to") {
				j++
			}
			if j < len(words) {
				if y, ok := parseNumber(words[j]); ok {
					op, lo, hi = "between", x, y
					consumed[j] = true
				}
			}
		}
		if op != "" {
			consumed[i], consumed[i+1] = true, true
			break
		}
	}
	if op == "" {
		return rowCond{}, false
	}
	// the numeric column named before the first such phrase in the text
	loc := rangePhraseRe.FindStringIndex(a.low)
	if loc == nil {
		return rowCond{}, false
	}
	col := ""
	for _, m := range a.ment {
		if m.end > loc[0] {
			break
		}
		if s := f.col(m.col); s != nil && s.kind == kindNum && !isBinary(s) {
			col = m.col
		}
	}
	if col == "" {
		return rowCond{}, false
	}
	return rowCond{col: col, keep: func(s *series, i int) bool {
		v := s.numeric()[i]
		switch {
		case math.IsNaN(v):
			return false
		case op == "<":
			return v < hi
		case op == ">":
			return v > lo
		}
		return v >= lo && v <= hi
	}}, true
}

var mostCommonRe = regexp.MustCompile(`most (?:common|frequent|frequently occurring)`)

// topValueGroup reads a trailing rank in an answer's name as the k-th
// most common value of the column the question ranks by frequency.
func (a *analysis) topValueGroup(words []string, consumed []bool, f *frame) (rowCond, bool) {
	loc := mostCommonRe.FindStringIndex(a.low)
	if loc == nil {
		return rowCond{}, false
	}
	k := 0
	for i, x := range words {
		if consumed[i] {
			continue
		}
		if v, ok := parseNumber(x); ok && v >= 1 && v <= 10 && v == math.Trunc(v) {
			k = int(v)
			consumed[i] = true
			break
		}
	}
	if k == 0 {
		return rowCond{}, false
	}
	// the column named after "most common"
	var col *series
	for _, m := range a.m.find(a.text[loc[1]:]) {
		if s := f.col(m.col); s != nil {
			col = s
			break
		}
	}
	if col == nil {
		return rowCond{}, false
	}
	counts := map[string]int{}
	var order []string
	for i, v := range col.str {
		if col.missing[i] {
			continue
		}
		if counts[v] == 0 {
			order = append(order, v)
		}
		counts[v]++
	}
	sort.SliceStable(order, func(i, j int) bool { return counts[order[i]] > counts[order[j]] })
	if k > len(order) {
		return rowCond{}, false
	}
	v := order[k-1]
	return rowCond{col: col.name, keep: func(s *series, i int) bool { return !s.missing[i] && s.str[i] == v }}, true
}
