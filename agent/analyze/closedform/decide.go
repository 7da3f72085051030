package closedform

import (
	"math"
	"regexp"
	"sort"
	"strings"
)

// A verdict answer ("linear", "Not Normal", "yes") is chosen among the
// values the format allows by the rules the text states for each value
// ("linear if the p-value is less than 0.05 and the absolute value of r
// is greater than or equal to 0.5"), evaluated on the computed
// statistics; where the text states no rule, by what the value says
// (normal versus not normal, significant versus not) and the usual test.

// cond is one comparison of a statistic with a number.
type cond struct {
	v      string // p, r, absr, skew, absskew, kurt, abskurt, r2
	op     string // <, <=, >, >=, between, outside
	x, y   float64
	orNext bool // joined to the next condition by "or"
}

// varKeys name the statistics in rule text, longest first.
var varKeys = []struct{ key, v string }{
	{"absolute value of the correlation coefficient", "absr"}, {"absolute value of the correlation", "absr"},
	{"absolute value of the pearson correlation coefficient", "absr"},
	{"absolute value of r", "absr"}, {"absolute value of the r", "absr"}, {"absolute r", "absr"}, {"|r|", "absr"},
	{"absolute correlation", "absr"}, {"absolute pearson correlation", "absr"}, {"magnitude", "absr"},
	{"absolute value of skewness", "absskew"}, {"absolute value of the skewness", "absskew"}, {"absolute skewness", "absskew"},
	{"absolute value of kurtosis", "abskurt"}, {"absolute value of the kurtosis", "abskurt"},
	{"coefficient of determination", "r2"}, {"r-squared", "r2"}, {"r squared", "r2"}, {"r^2", "r2"}, {"r2", "r2"},
	{"p-value", "p"}, {"p value", "p"}, {"pvalue", "p"}, {"p_value", "p"}, {"p-values", "p"},
	{"skewness value", "skew"}, {"skewness", "skew"}, {"kurtosis", "kurt"},
	{"correlation coefficient", "r"}, {"correlation value", "r"}, {"r value", "r"}, {"r-value", "r"}, {"r_value", "r"},
	{"coefficient", "r"}, {"correlation", "r"}, {"r", "r"}, {"p", "p"}, {"it", "it"}, {"they", "it"},
}

var compKeys = []struct{ key, op string }{
	{"greater than or equal to", ">="}, {"greater than or equals to", ">="}, {"larger than or equal to", ">="},
	{"more than or equal to", ">="}, {"bigger than or equal to", ">="}, {"equal to or greater than", ">="},
	{"equal or greater than", ">="}, {"equal to or above", ">="}, {"at least", ">="}, {">=", ">="}, {"≥", ">="}, {"=>", ">="},
	{"less than or equal to", "<="}, {"smaller than or equal to", "<="}, {"lower than or equal to", "<="},
	{"equal to or less than", "<="}, {"equal or less than", "<="}, {"at most", "<="}, {"<=", "<="}, {"≤", "<="}, {"=<", "<="},
	{"greater than", ">"}, {"larger than", ">"}, {"more than", ">"}, {"higher than", ">"}, {"bigger than", ">"},
	{"above", ">"}, {"exceeds", ">"}, {"exceed", ">"}, {"over", ">"}, {">", ">"},
	{"less than", "<"}, {"smaller than", "<"}, {"lower than", "<"}, {"below", "<"}, {"under", "<"}, {"<", "<"},
	{"between", "between"}, {"within the range of", "between"}, {"within the range", "between"}, {"in the range of", "between"},
	{"within", "between"}, {"ranging from", "between"}, {"from", "between"},
	{"outside the range of", "outside"}, {"outside of", "outside"}, {"outside", "outside"},
	{"is equal to", "=="}, {"equals", "=="}, {"is 0", "==0"}, {"is zero", "==0"},
}

var ruleNumRe = regexp.MustCompile(`^[\s:(]*(?:the\s+)?(?:value\s+(?:of\s+)?)?(?:alpha\s*(?:\(\s*)?)?([-+−]?\s?\d*\.?\d+)`)

// parseConds reads the comparisons in a piece of rule text.
func parseConds(s string, lastVar *string) []cond {
	var out []cond
	i := 0
	for i < len(s) {
		// find the earliest comparator
		best, bestLen, op := -1, 0, ""
		for _, c := range compKeys {
			j := indexWord(s[i:], c.key)
			if j < 0 {
				continue
			}
			j += i
			if best < 0 || j < best || (j == best && len(c.key) > bestLen) {
				best, bestLen, op = j, len(c.key), c.op
			}
		}
		if best < 0 {
			break
		}
		after := s[best+bestLen:]
		if op == "==0" {
			out = append(out, cond{v: varBefore(s[:best], lastVar), op: "==", x: 0})
			i = best + bestLen
			continue
		}
		m := ruleNumRe.FindStringSubmatch(after)
		if m == nil {
			i = best + bestLen
			continue
		}
		x, ok := parseNumber(strings.ReplaceAll(strings.ReplaceAll(m[1], "−", "-"), " ", ""))
		if !ok {
			i = best + bestLen
			continue
		}
		end := best + bestLen + len(m[0])
		if strings.HasPrefix(s[end:], "%") {
			x /= 100
			end++
		}
		c := cond{v: varBefore(s[:best], lastVar), op: op, x: x}
		if op == "between" || op == "outside" {
			rest := s[end:]
			m2 := regexp.MustCompile(`^\s*(?:and|to|-|,)\s*([-+−]?\s?\d*\.?\d+)`).FindStringSubmatch(rest)
			if m2 == nil {
				if op == "between" && (c.v == "p" || c.v == "r" || c.v == "absr") {
					i = end
					continue
				}
				i = end
				continue
			}
			y, _ := parseNumber(strings.ReplaceAll(strings.ReplaceAll(m2[1], "−", "-"), " ", ""))
			c.y = y
			end += len(m2[0])
		}
		if c.v == "" {
			i = end
			continue
		}
		// "or" joins this comparison to the next
		tail := s[end:]
		if k := strings.Index(tail, " or "); k >= 0 && k < 12 {
			c.orNext = true
		}
		out = append(out, c)
		i = end
	}
	return out
}

// indexWord finds key in s at word boundaries where key starts or ends
// with a letter.
func indexWord(s, key string) int {
	off := 0
	for {
		j := strings.Index(s[off:], key)
		if j < 0 {
			return -1
		}
		j += off
		okL := j == 0 || !isLetter(key[0]) || !isLetter(s[j-1])
		e := j + len(key)
		okR := e >= len(s) || !isLetter(key[len(key)-1]) || !isLetter(s[e])
		if okL && okR {
			return j
		}
		off = j + 1
	}
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_' }

// varBefore names the statistic the text before a comparator is about.
func varBefore(s string, lastVar *string) string {
	if len(s) > 60 {
		s = s[len(s)-60:]
	}
	best, bestPos := "", -1
	for _, k := range varKeys {
		j := strings.LastIndex(s, k.key)
		for j >= 0 {
			e := j + len(k.key)
			okL := j == 0 || !isLetter(s[j-1])
			okR := e >= len(s) || !isLetter(s[e])
			if okL && okR {
				break
			}
			j = strings.LastIndex(s[:j], k.key)
		}
		if j < 0 {
			continue
		}
		end := j + len(k.key)
		if end > bestPos {
			best, bestPos = k.v, end
		}
	}
	if best == "it" || best == "" {
		return *lastVar
	}
	*lastVar = best
	return best
}

func (c cond) holds(vals map[string]float64) (bool, bool) {
	v, ok := vals[c.v]
	if !ok || math.IsNaN(v) {
		return false, false
	}
	switch c.op {
	case "<":
		return v < c.x, true
	case "<=":
		return v <= c.x, true
	case ">":
		return v > c.x, true
	case ">=":
		return v >= c.x, true
	case "==":
		return v == c.x, true
	case "between":
		lo, hi := math.Min(c.x, c.y), math.Max(c.x, c.y)
		return v >= lo && v <= hi, true
	case "outside":
		lo, hi := math.Min(c.x, c.y), math.Max(c.x, c.y)
		return v < lo || v > hi, true
	}
	return false, false
}

// allHold evaluates conditions joined by and (or where marked).
func allHold(cs []cond, vals map[string]float64) (bool, bool) {
	result, known := true, true
	for i := 0; i < len(cs); i++ {
		h, ok := cs[i].holds(vals)
		known = known && ok
		for cs[i].orNext && i+1 < len(cs) {
			i++
			h2, ok2 := cs[i].holds(vals)
			known = known && ok2
			h = h || h2
		}
		result = result && h
	}
	return result, known
}

// negative reports whether a verdict value denies: "not normal", "no",
// "False", "non-significant", "none".
func negative(label string) bool {
	l := strings.ToLower(label)
	for _, w := range regexp.MustCompile(`[a-z']+`).FindAllString(l, -1) {
		switch w {
		case "not", "no", "non", "none", "false", "neither", "insignificant", "poor", "isn't", "doesn't", "nonsignificant",
			"unlikely", "fail", "fails", "reject", "nonnormal", "abnormal", "without":
			return true
		}
	}
	return strings.HasPrefix(l, "non-") || strings.HasPrefix(l, "not_") || strings.HasPrefix(l, "non_") || strings.HasPrefix(l, "not ") ||
		strings.Contains(l, "_not_") || strings.HasPrefix(l, "no_")
}

// boolLabels are the two values of a yes/no answer as the format writes
// them.
func boolLabels(w *want, flow string) (string, string) {
	text := w.ph + " " + w.desc
	for _, pair := range [][2]string{{"True", "False"}, {"true", "false"}, {"TRUE", "FALSE"}, {"Yes", "No"}, {"yes", "no"}, {"YES", "NO"}} {
		if strings.Contains(text, pair[0]) || strings.Contains(text, pair[1]) {
			return pair[0], pair[1]
		}
	}
	low := strings.ToLower(text)
	if strings.Contains(low, "bool") {
		return "True", "False"
	}
	if strings.Contains(flow, "true") {
		return "True", "False"
	}
	return "yes", "no"
}

// decide answers a verdict.
func (a *analysis) decide(w *want) (string, bool) {
	labels := w.alts
	if len(labels) < 2 {
		t, f := boolLabels(w, a.flow)
		labels = []string{t, f}
	}
	vals := a.ruleValues(w)
	if ans, ok := a.byRules(w, labels, vals); ok {
		return ans, true
	}
	return a.byMeaning(w, labels, vals)
}

// ruleValues computes the statistics rules may refer to.
func (a *analysis) ruleValues(w *want) map[string]float64 {
	vals := map[string]float64{}
	kind := a.testKind(w)
	if kind == "corr" || a.has("correlat") && (has(w.words, "relationship") || has(w.words, "correlation") || has(w.words, "strength") || has(w.words, "correlated") || has(w.words, "significance")) {
		if r, ok := a.corrFor(w); ok {
			vals["r"], vals["absr"], vals["p"] = r.Stat, math.Abs(r.Stat), r.P
		}
	}
	if _, ok := vals["p"]; !ok && kind != "" && kind != "regression" {
		if t, ok := a.testFor(w); ok {
			vals["p"] = t.P
		}
	}
	if xs, _, ok := a.values(w); ok && len(xs) > 3 {
		vals["skew"] = skewness(xs, a.bias())
		vals["absskew"] = math.Abs(vals["skew"])
		vals["kurt"] = kurtosis(xs, a.bias())
		vals["abskurt"] = math.Abs(vals["kurt"])
	}
	if r2, ok := a.regressionR2(w); ok {
		vals["r2"] = r2
	}
	if _, p, ok := a.coefficientFor(w); ok {
		vals["p"] = p
	}
	return vals
}

// byRules picks the label whose stated conditions hold.
func (a *analysis) byRules(w *want, labels []string, vals map[string]float64) (string, bool) {
	text := strings.ToLower(normalizeText(a.q.Constraints) + "\n" + a.qText + "\n" + normalizeText(a.q.Format))
	type occ struct {
		start, end int
		label      int
	}
	// label occurrences, longest labels first so that "not normal" hides "normal"
	order := make([]int, len(labels))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return len(labels[order[i]]) > len(labels[order[j]]) })
	taken := make([]bool, len(text))
	var occs []occ
	for _, li := range order {
		l := strings.ToLower(labels[li])
		off := 0
		for {
			j := strings.Index(text[off:], l)
			if j < 0 {
				break
			}
			j += off
			e := j + len(l)
			off = j + 1
			if (j > 0 && isLetter(text[j-1])) || (e < len(text) && isLetter(text[e])) {
				continue
			}
			free := true
			for k := j; k < e; k++ {
				if taken[k] {
					free = false
					break
				}
			}
			if !free {
				continue
			}
			for k := j; k < e; k++ {
				taken[k] = true
			}
			// "not normal" written out names the negative value
			label := li
			if !negative(labels[li]) && negatedBefore(text[sentenceStart(text, j):j]) {
				label = -1
				for lj, l := range labels {
					if negative(l) {
						if label >= 0 {
							label = -2 // more than one: leave it
							break
						}
						label = lj
					}
				}
				if label < 0 {
					continue
				}
			}
			occs = append(occs, occ{j, e, label})
		}
	}
	sort.Slice(occs, func(i, j int) bool { return occs[i].start < occs[j].start })
	rules := make([][][]cond, len(labels))
	otherwise := -1
	last := ""
	for k, o := range occs {
		// the sentence around the occurrence
		ss := sentenceStart(text, o.start)
		se := strings.IndexAny(text[o.end:], "\n;")
		if se < 0 {
			se = len(text)
		} else {
			se += o.end
		}
		if d := sentenceEnd(text[o.end:]); d >= 0 && o.end+d < se {
			se = o.end + d
		}
		// after: up to the next label occurrence in the sentence
		ae := se
		if k+1 < len(occs) && occs[k+1].start < ae {
			ae = occs[k+1].start
		}
		after := text[o.end:ae]
		var cs []cond
		if strings.Contains(after, "if") || strings.Contains(after, "when") || strings.Contains(after, "where") {
			cs = parseConds(after, &last)
		}
		if len(cs) == 0 {
			bs := ss
			if k > 0 && occs[k-1].end > bs {
				bs = occs[k-1].end
			}
			before := text[bs:o.start]
			if ruleLeadRe.MatchString(before) {
				cs = parseConds(before, &last)
			}
		}
		if strings.Contains(after, "otherwise") || strings.Contains(after, "else") {
			otherwise = o.label
		}
		if len(cs) > 0 {
			rules[o.label] = append(rules[o.label], cs)
		}
	}
	if debugf != nil {
		for li, r := range rules {
			debugf("rule %q: %+v (values %v)", labels[li], r, vals)
		}
	}
	withRules := 0
	for _, r := range rules {
		if len(r) > 0 {
			withRules++
		}
	}
	if withRules == 0 {
		return "", false
	}
	for li, rs := range rules {
		for _, cs := range rs {
			if ok, known := allHold(cs, vals); known && ok {
				return labels[li], true
			}
		}
	}
	// no rule holds: the label stated as otherwise, or the one without rules
	if otherwise >= 0 && len(rules[otherwise]) == 0 {
		return labels[otherwise], true
	}
	var bare []int
	for li, rs := range rules {
		if len(rs) == 0 {
			bare = append(bare, li)
		}
	}
	if len(bare) == 1 {
		return labels[bare[0]], true
	}
	for _, li := range bare {
		if negative(labels[li]) {
			return labels[li], true
		}
	}
	// every label has rules and none holds, or values are missing
	return "", false
}

// negatedBefore reports whether the few words before a value negate it:
// "does not follow a normal distribution", "is not normal".
func negatedBefore(before string) bool {
	ws := regexp.MustCompile(`[a-z']+`).FindAllString(before, -1)
	if len(ws) > 4 {
		ws = ws[len(ws)-4:]
	}
	for _, w := range ws {
		switch w {
		case "not", "no", "non", "isn't", "doesn't", "don't", "cannot", "nor", "never":
			return true
		}
	}
	return false
}

// ruleLeadRe marks text before a value that states its condition.
var ruleLeadRe = regexp.MustCompile(`\b(?:if|when|whenever|indicates?|indicating|considered|consider|suggests?|means?|implies|denotes?|represents?|define)\b`)

// sentenceStart returns where the sentence holding pos starts (after a
// period that is not a decimal point, a newline or a semicolon).
func sentenceStart(text string, pos int) int {
	for i := pos - 1; i >= 0; i-- {
		switch text[i] {
		case '\n', ';':
			return i + 1
		case '.':
			if i+1 < len(text) && (text[i+1] == ' ' || text[i+1] == '\n') {
				return i + 1
			}
		}
	}
	return 0
}

func sentenceEnd(s string) int {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && (s[i+1] == ' ' || s[i+1] == '\n') && !(i > 0 && s[i-1] >= '0' && s[i-1] <= '9' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9') {
			return i
		}
	}
	return -1
}

// byMeaning decides without stated rules, from what the labels say.
func (a *analysis) byMeaning(w *want, labels []string, vals map[string]float64) (string, bool) {
	lowLabels := make([]string, len(labels))
	for i, l := range labels {
		lowLabels[i] = strings.ToLower(l)
	}
	find := func(pred func(string) bool) (string, bool) {
		for i, l := range lowLabels {
			if pred(l) {
				return labels[i], true
			}
		}
		return "", false
	}
	// three-way correlation verdicts
	if r, ok := vals["r"]; ok {
		p := vals["p"]
		alpha := a.alpha()
		hasLin := false
		for _, l := range lowLabels {
			if l == "linear" {
				hasLin = true
			}
		}
		if hasLin {
			if p < alpha && math.Abs(r) >= 0.5 {
				return find(func(l string) bool { return l == "linear" })
			}
			if p < alpha {
				return find(func(l string) bool { return strings.HasPrefix(l, "non") && strings.Contains(l, "linear") })
			}
			return find(func(l string) bool { return l == "none" || negative(l) && !strings.Contains(l, "linear") })
		}
		if _, ok := find(func(l string) bool { return strings.Contains(l, "positive") }); ok {
			if p >= alpha && !math.IsNaN(p) {
				if s, ok := find(func(l string) bool { return negative(l) || strings.Contains(l, "none") }); ok {
					return s, true
				}
			}
			if r > 0 {
				return find(func(l string) bool { return strings.Contains(l, "positive") })
			}
			return find(func(l string) bool { return strings.Contains(l, "negative") })
		}
	}
	// skewness direction
	if sk, ok := vals["skew"]; ok && (has(w.words, "skew") || has(w.words, "skewness") || has(w.words, "skewed")) {
		if s, ok := find(func(l string) bool { return strings.Contains(l, "right") || strings.Contains(l, "positive") }); ok && sk > 0 {
			return s, true
		}
		if s, ok := find(func(l string) bool { return strings.Contains(l, "left") || strings.Contains(l, "negative") }); ok && sk < 0 {
			return s, true
		}
	}
	// a yes/no verdict
	var pos, neg string
	for _, l := range labels {
		if negative(l) {
			if neg == "" {
				neg = l
			}
		} else if pos == "" {
			pos = l
		}
	}
	if pos == "" || neg == "" {
		return "", false
	}
	truth, ok := a.verdict(w, vals)
	if !ok {
		return "", false
	}
	if truth {
		return pos, true
	}
	return neg, true
}

// verdict is the truth of the claim a yes/no answer makes.
func (a *analysis) verdict(w *want, vals map[string]float64) (bool, bool) {
	words := strings.Join(w.words, " ") + " " + strings.ToLower(w.desc)
	alpha := a.alpha()
	normalTopic := strings.Contains(words, "normal")
	if normalTopic {
		p, ok := vals["p"]
		if !ok || math.IsNaN(p) {
			if xs, _, ok := a.values(w); ok && len(xs) >= 3 {
				p = shapiro(xs).P
			} else {
				return false, false
			}
		}
		return p > alpha, true
	}
	if strings.Contains(words, "nan") || strings.Contains(words, "missing") || strings.Contains(words, "null") {
		f := a.frameFor(w)
		s := a.target(w, f)
		if s == nil {
			return false, false
		}
		for _, x := range s.numeric() {
			if math.IsNaN(x) {
				return true, true
			}
		}
		return false, true
	}
	if p, ok := vals["p"]; ok && !math.IsNaN(p) {
		return p < alpha, true
	}
	return false, false
}
