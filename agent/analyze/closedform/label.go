package closedform

import (
	"math"
	"regexp"
	"sort"
	"strings"
)

// "Which country has the highest average number of cases?" asks for the
// label of the row (or group, or column) where a measure is largest.
// Other answers of such a question read other columns of that row
// ("max_deaths_year").

var (
	maxWordsRe = regexp.MustCompile(`\b(?:highest|maximum|max|most|largest|greatest|biggest|top|strongest|best|peak)\b`)
	minWordsRe = regexp.MustCompile(`\b(?:lowest|minimum|min|least|smallest|fewest|weakest|worst)\b`)
	whichRe    = regexp.MustCompile(`\b(?:which|what|identify the|find the|determine the)\s+(?:\w+\s+){0,2}?(\w+)(?:\(s\))?\s+(?:has|had|have|with|shows?|is|was|recorded|reached|contains?|experienced|of)\b`)
)

// argSpec is what an argmax question asks.
type argSpec struct {
	max     bool
	measure string // numeric column compared
	agg     string // "", "mean", "sum", "count"
	noun    string // the thing asked for: country, column, ...
}

// argQuestion reads an argmax question; ok is false for other questions.
func (a *analysis) argQuestion() (argSpec, bool) {
	if v, ok := a.cache["arg"]; ok {
		if v == nil {
			return argSpec{}, false
		}
		return v.(argSpec), true
	}
	spec, ok := a.readArgQuestion()
	if ok {
		a.cache["arg"] = spec
	} else {
		a.cache["arg"] = nil
	}
	return spec, ok
}

func (a *analysis) readArgQuestion() (argSpec, bool) {
	q := strings.ToLower(a.qText)
	var s argSpec
	mx := maxWordsRe.FindStringIndex(q)
	mn := minWordsRe.FindStringIndex(q)
	var at int
	switch {
	case mx != nil && (mn == nil || mx[0] < mn[0]):
		s.max, at = true, mx[1]
	case mn != nil:
		at = mn[1]
	default:
		return s, false
	}
	if m := whichRe.FindStringSubmatch(q); m != nil {
		s.noun = m[1]
	} else if !strings.Contains(q, "which") && !strings.Contains(q, "identify") && !strings.Contains(q, "find the") {
		return s, false
	}
	rest := q[at:]
	if regexp.MustCompile(`^\s+(?:average|mean)\b`).MatchString(rest) || strings.Contains(a.low, "average of") && strings.Contains(a.low, "for each") {
		s.agg = "mean"
	} else if regexp.MustCompile(`^\s+(?:total|sum)\b`).MatchString(rest) {
		s.agg = "sum"
	}
	if strings.Contains(rest[:min(len(rest), 40)], "missing") || strings.Contains(rest[:min(len(rest), 40)], "null") {
		s.agg = "missing"
	}
	// the measure: the first numeric column named after the superlative
	for _, m := range a.m.find(a.qText[at:]) {
		c := a.base.col(m.col)
		if c != nil && (c.kind == kindNum || c.numericShare() > 0.5) {
			s.measure = m.col
			break
		}
	}
	if s.measure == "" && s.agg == "" {
		for _, c := range numericCols(a.base, a.primary()) {
			s.measure = c
			break
		}
	}
	return s, s.measure != "" || s.agg == "missing"
}

// labelCol is the column whose value an answer about an argmax gives.
func (a *analysis) labelCol(w *want, spec argSpec) string {
	for _, c := range w.cols {
		if c != spec.measure {
			return c
		}
	}
	for _, m := range a.m.find(w.desc + " " + w.ph) {
		if m.col != spec.measure {
			return m.col
		}
	}
	if spec.noun != "" {
		for _, m := range a.m.find(spec.noun) {
			if m.col != spec.measure {
				return m.col
			}
		}
	}
	return ""
}

// argAnswer answers a want of an argmax question.
func (a *analysis) argAnswer(w *want) (string, bool) {
	spec, ok := a.argQuestion()
	if !ok {
		return "", false
	}
	wantsLabel := w.spec.Kind == KindText && len(w.alts) < 2 || w.stat == statNone || w.stat == statName
	col := a.labelCol(w, spec)
	if !wantsLabel && (col == "" || col == spec.measure || w.stat == statMean || w.stat == statStd || w.stat == statMedian) {
		return "", false
	}
	f := a.clean
	if a.has("correlat") {
		if v, ok := a.argCorrelation(w, spec); ok {
			return v, true
		}
	}
	columnNoun := spec.noun == "column" || spec.noun == "columns" || spec.noun == "variable" || spec.noun == "feature" || spec.noun == "field" || spec.noun == "fields"
	if col == "" && (columnNoun || spec.agg == "missing") {
		return a.argColumn(w, spec, f)
	}
	if col == "" {
		return "", false
	}
	lc := f.col(col)
	if lc == nil {
		return "", false
	}
	if spec.agg == "missing" {
		// the label with most missing values of the measure
		return a.argGroup(w, spec, f, lc, func(rows []int) float64 {
			n := 0.0
			if m := f.col(spec.measure); m != nil {
				for _, r := range rows {
					if m.missing[r] || math.IsNaN(m.numeric()[r]) {
						n++
					}
				}
			}
			return n
		})
	}
	m := f.col(spec.measure)
	if m == nil {
		return "", false
	}
	vals := m.numeric()
	if spec.agg != "" {
		return a.argGroup(w, spec, f, lc, func(rows []int) float64 {
			var xs []float64
			for _, r := range rows {
				if !math.IsNaN(vals[r]) {
					xs = append(xs, vals[r])
				}
			}
			if len(xs) == 0 {
				return math.NaN()
			}
			if spec.agg == "sum" {
				return sum(xs)
			}
			return mean(xs)
		})
	}
	best := -1
	for i, v := range vals {
		if math.IsNaN(v) {
			continue
		}
		if best < 0 || spec.max && v > vals[best] || !spec.max && v < vals[best] {
			best = i
		}
	}
	if best < 0 {
		return "", false
	}
	return a.cellText(w, lc, best), true
}

// cellText prints one value of a column as the want asks.
func (a *analysis) cellText(w *want, s *series, i int) string {
	if s.kind == kindNum || s.kind == kindBool {
		return formatValue(s.num[i], w.spec)
	}
	if s.tm != nil && strings.Contains(strings.ToLower(w.desc+w.ph), "yyyy-mm-dd") {
		return s.tm[i].Format("2006-01-02")
	}
	return s.str[i]
}

// argGroup returns the label of the group whose score is extreme.
func (a *analysis) argGroup(w *want, spec argSpec, f *frame, lc *series, score func(rows []int) float64) (string, bool) {
	groups := map[string][]int{}
	var order []string
	for i := 0; i < f.rows; i++ {
		if lc.missing[i] {
			continue
		}
		k := lc.str[i]
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	best, bestV := "", math.NaN()
	for _, k := range order {
		v := score(groups[k])
		if math.IsNaN(v) {
			continue
		}
		if best == "" || spec.max && v > bestV || !spec.max && v < bestV {
			best, bestV = k, v
		}
	}
	if best == "" {
		return "", false
	}
	if lc.kind == kindNum {
		return a.cellText(w, lc, groups[best][0]), true
	}
	return best, true
}

// argColumn answers "which column has the most missing values" and
// "which field has the highest percentage".
func (a *analysis) argColumn(w *want, spec argSpec, f *frame) (string, bool) {
	type cand struct {
		name string
		v    float64
	}
	var cands []cand
	for _, c := range f.cols {
		if spec.agg == "missing" {
			n := 0
			for _, m := range c.missing {
				if m {
					n++
				}
			}
			cands = append(cands, cand{c.name, float64(n)})
			continue
		}
		if c.kind != kindNum || contains(a.groupByCols(), c.name) || a.isFilterCol(c.name) {
			continue
		}
		xs := present(c.num)
		if len(xs) == 0 {
			continue
		}
		v := xs[len(xs)-1]
		if f.rows > 1 {
			v = mean(xs)
		}
		cands = append(cands, cand{c.name, v})
	}
	if len(cands) == 0 {
		return "", false
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if spec.max {
			return cands[i].v > cands[j].v
		}
		return cands[i].v < cands[j].v
	})
	var ties []string
	for _, c := range cands {
		if c.v == cands[0].v {
			ties = append(ties, c.name)
		}
	}
	return strings.Join(ties, ", "), true
}

// isFilterCol reports whether a filter of the question uses column c.
func (a *analysis) isFilterCol(c string) bool {
	for _, d := range a.filterDebug {
		if strings.HasPrefix(d, c+": ") {
			return true
		}
	}
	return false
}

// argCorrelation answers "which variable has the strongest correlation
// with X" (a column name) and "which pair of variables is most
// correlated"; the correlation itself is left to corrFor, which reads
// the pair found here.
func (a *analysis) argCorrelation(w *want, spec argSpec) (string, bool) {
	pair, ok := a.strongestPair(spec)
	if !ok {
		return "", false
	}
	if w.stat == statCorr || w.stat == statP || w.stat == statDecision {
		return "", false
	}
	if w.spec.Kind != KindText && !strings.Contains(strings.Join(w.words, " "), "variable") && !strings.Contains(strings.Join(w.words, " "), "pair") {
		return "", false
	}
	if has(w.words, "pair") || strings.Contains(strings.ToLower(w.desc), "pair") || strings.Contains(strings.ToLower(w.desc), "two strings") {
		return pair[0] + ", " + pair[1], true
	}
	return pair[1], true
}

// strongestPair finds the pair of columns a strongest-correlation
// question asks about: the measure and the column most correlated with
// it, or the most correlated pair among the columns it names.
func (a *analysis) strongestPair(spec argSpec) ([2]string, bool) {
	if v, ok := a.cache["strongest"]; ok {
		if v == nil {
			return [2]string{}, false
		}
		return v.([2]string), true
	}
	a.cache["strongest"] = nil
	f := a.clean
	noun := spec.noun
	if noun != "variable" && noun != "variables" && noun != "column" && noun != "feature" && noun != "factor" && noun != "pair" && noun != "attribute" && !a.has("pair") {
		return [2]string{}, false
	}
	positive := a.has("strongest positive", "highest positive", "most positive")
	score := func(x, y string) float64 {
		xs, ys := pairs(f.col(x).numeric(), f.col(y).numeric())
		if len(xs) < 3 {
			return math.NaN()
		}
		r := correlate(a.corrMethod(), xs, ys).Stat
		if positive {
			return r
		}
		return math.Abs(r)
	}
	var best [2]string
	bestV := math.Inf(-1)
	if a.has("pair") {
		cols := numericCols(f, a.primary())
		for i := range cols {
			for j := i + 1; j < len(cols); j++ {
				if v := score(cols[i], cols[j]); v > bestV {
					best, bestV = [2]string{cols[i], cols[j]}, v
				}
			}
		}
	} else {
		if spec.measure == "" {
			return [2]string{}, false
		}
		for _, c := range f.cols {
			if c.name == spec.measure || c.kind != kindNum {
				continue
			}
			if v := score(spec.measure, c.name); v > bestV {
				best, bestV = [2]string{spec.measure, c.name}, v
			}
		}
	}
	if bestV == math.Inf(-1) {
		return [2]string{}, false
	}
	a.cache["strongest"] = best
	return best, true
}
