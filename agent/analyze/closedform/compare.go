package closedform

import (
	"regexp"
	"strings"

	"github.com/quarry-dev/quarry"
)

// comparisonGroups returns the samples a two-sample or k-sample test
// compares: the groups the question's other answers describe
// ("graduate_mean_loan", "not_graduate_mean_loan"), else the values of
// the column the question compares across.
func (a *analysis) comparisonGroups(w *want) ([][]float64, bool) {
	if v, ok := a.cache["cmp"]; ok {
		g := v.([][]float64)
		return g, len(g) >= 2
	}
	g := a.readComparison(w)
	a.cache["cmp"] = g
	return g, len(g) >= 2
}

var descriptiveStats = map[string]bool{statMean: true, statMedian: true, statStd: true, statVar: true, statMin: true,
	statMax: true, statCount: true, statSkew: true, statKurt: true}

func (a *analysis) readComparison(w *want) [][]float64 {
	// 1. the groups of the other answers
	var groups [][]float64
	seen := map[string]bool{}
	for _, o := range a.wants {
		if !descriptiveStats[o.stat] || len(a.groupConds(o, a.clean)) == 0 {
			continue
		}
		key := strings.Join(o.rest, " ")
		if seen[key] {
			continue
		}
		f := a.groupFrame(o, a.clean)
		s := a.target(o, f)
		if s == nil {
			continue
		}
		seen[key] = true
		groups = append(groups, present(s.numeric()))
	}
	if len(groups) >= 2 {
		return groups
	}
	// 2. a column the question compares across
	measure := ""
	gcol, values := a.comparedColumn()
	if gcol == "" {
		return nil
	}
	for _, c := range numericCols(a.clean, append(append([]string(nil), w.cols...), a.primary()...)) {
		if c != gcol && !isBinary(a.clean.col(c)) || c != gcol && measure == "" {
			measure = c
			if !isBinary(a.clean.col(c)) {
				break
			}
		}
	}
	if measure == "" {
		return nil
	}
	f := a.clean
	gs, ms := f.col(gcol), f.col(measure).numeric()
	byValue := map[string][]float64{}
	var order []string
	for i := 0; i < f.rows; i++ {
		if gs.missing[i] || isNaN(ms[i]) {
			continue
		}
		v := gs.str[i]
		if values != nil && !values[v] {
			continue
		}
		if _, ok := byValue[v]; !ok {
			order = append(order, v)
		}
		byValue[v] = append(byValue[v], ms[i])
	}
	for _, v := range order {
		groups = append(groups, byValue[v])
	}
	return groups
}

// comparedColumn is the column whose groups the question compares, with
// the values it names (nil for all).
func (a *analysis) comparedColumn() (string, map[string]bool) {
	f := a.clean
	// values written in the text: 'Graduate' and 'Not Graduate', 1st and 3rd class
	for _, s := range f.cols {
		if !categorical(s) {
			continue
		}
		vals := map[string]bool{}
		for _, v := range distinctValues(s) {
			lv := strings.ToLower(v)
			if len(lv) < 2 || weakWords[lv] || isDigits(lv) {
				continue
			}
			if regexp.MustCompile(`(^|[^\pL\pN])` + quarry.QuoteRegexp(lv) + `($|[^\pL\pN])`).MatchString(a.low) {
				vals[v] = true
			}
		}
		// ordinals before a word of the column's name
		for _, m := range regexp.MustCompile(`\b(first|second|third|1st|2nd|3rd)\b`).FindAllStringSubmatchIndex(a.low, -1) {
			tail := a.low[m[1]:min(len(a.low), m[1]+40)]
			for _, cw := range nameWords(s.name) {
				if len(cw) >= 3 && strings.Contains(tail, cw) || strings.Contains(strings.ToLower(s.name), "class") && strings.Contains(tail, "class") {
					r := ordinalWords[a.low[m[2]:m[3]]]
					ds := distinctValues(s)
					sortStrings(ds)
					if r > 0 && r <= len(ds) {
						vals[ds[r-1]] = true
					}
					break
				}
			}
		}
		if len(vals) >= 2 {
			return s.name, vals
		}
	}
	for _, c := range a.groupByCols() {
		if s := f.col(c); s != nil && categorical(s) {
			return c, nil
		}
	}
	return "", nil
}

// sortStrings orders numbers numerically and other text alphabetically.
func sortStrings(xs []string) {
	less := func(x, y string) bool {
		a, aok := parseNumber(x)
		b, bok := parseNumber(y)
		if aok && bok {
			return a < b
		}
		return x < y
	}
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && less(xs[j], xs[j-1]); j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// chiSquare is the chi-square test of independence between the two
// categorical columns the question names.
func (a *analysis) chiSquare(w *want) (testResult, bool) {
	f := a.clean
	var cols []string
	for _, c := range append(append([]string(nil), a.created...), a.primary()...) {
		if s := f.col(c); s != nil && categorical(s) && !contains(cols, c) {
			cols = append(cols, c)
		}
	}
	if len(cols) < 2 {
		return testResult{}, false
	}
	x, y := f.col(cols[0]), f.col(cols[1])
	rows, colsIdx := map[string]int{}, map[string]int{}
	var rk, ck []string
	for i := 0; i < f.rows; i++ {
		if x.missing[i] || y.missing[i] {
			continue
		}
		if _, ok := rows[x.str[i]]; !ok {
			rows[x.str[i]] = len(rk)
			rk = append(rk, x.str[i])
		}
		if _, ok := colsIdx[y.str[i]]; !ok {
			colsIdx[y.str[i]] = len(ck)
			ck = append(ck, y.str[i])
		}
	}
	if len(rk) < 2 || len(ck) < 2 {
		return testResult{}, false
	}
	table := make([][]float64, len(rk))
	for i := range table {
		table[i] = make([]float64, len(ck))
	}
	for i := 0; i < f.rows; i++ {
		if x.missing[i] || y.missing[i] {
			continue
		}
		table[rows[x.str[i]]][colsIdx[y.str[i]]]++
	}
	r, _ := chi2Contingency(table)
	return r, true
}
