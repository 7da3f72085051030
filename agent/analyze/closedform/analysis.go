package closedform

import (
	"math"
	"regexp"
	"sort"
	"strings"
)

// debugf, when set (by tests), receives what the analysis read.
var debugf func(format string, args ...any)

// analysis holds what Answer has read from one question.
type analysis struct {
	q     Question
	raw   *frame
	m     *matcher
	qText string // the question
	text  string // question and constraints
	low   string // text in lower case
	flow  string // the format in lower case
	qMent []mention
	ment  []mention // mentions in text, in order
	wants []*want

	base  *frame // features and filters applied
	clean *frame // and the cleaning steps: imputation, outlier removal
	// steps records what the cleaning did, for answers about it
	outliers  outlierSpec
	outlierOn string // the column outliers were removed from
	removed   int    // rows removed as outliers
	dupes     int    // duplicate rows removed
	created   []string

	cache       map[string]any
	filterDebug []string
}

func newAnalysis(q Question, f *frame, specs []Spec) *analysis {
	a := &analysis{q: q, raw: f, cache: map[string]any{}}
	var names []string
	for _, c := range f.cols {
		names = append(names, c.name)
	}
	a.m = newMatcher(names)
	a.qText = normalizeText(q.Text)
	a.text = a.qText + "\n" + normalizeText(q.Constraints)
	a.low = strings.ToLower(a.text)
	a.flow = strings.ToLower(normalizeText(q.Format))
	a.qMent = a.m.find(a.qText)
	a.ment = a.m.find(a.text)
	a.wants = readWants(q.Format, specs)
	return a
}

func normalizeText(s string) string {
	return strings.NewReplacer(`\n`, "\n", "’", "'", "‘", "'", "“", `"`, "”", `"`, "–", "-", "—", "-").Replace(s)
}

// has reports whether the question or constraints contain any of the
// phrases (lower case).
func (a *analysis) has(phrases ...string) bool {
	for _, p := range phrases {
		if strings.Contains(a.low, p) {
			return true
		}
	}
	return false
}

// columns returns the distinct columns mentioned in order.
func columnsOf(ms []mention) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range ms {
		if !seen[m.col] {
			seen[m.col] = true
			out = append(out, m.col)
		}
	}
	return out
}

// run answers every want it can.
func (a *analysis) run() map[string]string {
	// a step that fails on an unforeseen question is skipped rather than
	// failing the whole question
	a.base = a.raw.clone()
	if !safely(func() { a.addFeatures(a.base) }) {
		a.base = a.raw.clone()
		a.created = nil
	}
	safely(func() { a.base = a.applyFilters(a.base) })
	a.clean = a.base
	safely(func() { a.clean = a.cleanFrame(a.base) })
	out := map[string]string{}
	for _, w := range a.wants {
		safely(func() { a.classify(w) })
	}
	a.assignStages()
	if debugf != nil {
		debugf("created %v; outliers %+v on %q; rows raw %d base %d clean %d", a.created, a.outliers, a.outlierOn, a.raw.rows, a.base.rows, a.clean.rows)
		for _, c := range a.created {
			if s := a.base.col(c); s != nil {
				vals := distinctValues(s)
				debugf("created %s kind %d values %d %.80q", c, s.kind, len(vals), vals)
			}
		}
		for _, c := range a.filterDebug {
			debugf("filter %s", c)
		}
		if s, ok := a.readModel(); ok {
			debugf("model %+v", s)
		}
		for _, w := range a.wants {
			debugf("want %s: stat %q cols %v rest %v stage %q alts %q", w.spec.Name, w.stat, w.cols, w.rest, w.stage, w.alts)
		}
	}
	for _, w := range a.wants {
		var v string
		ok := false
		safely(func() { v, ok = a.answer(w) })
		if ok {
			out[w.spec.Name] = v
		}
	}
	return out
}

// safely runs fn, reporting false if it panicked.
func safely(fn func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if debugf != nil {
				debugf("panic: %v", r)
			}
			ok = false
		}
	}()
	fn()
	return true
}

// stageWords say which state of the data an answer is about.
var (
	beforeWords = map[string]bool{"pre": true, "before": true, "original": true, "raw": true, "orig": true, "initial": true, "old": true}
	afterWords  = map[string]bool{"post": true, "after": true, "new": true, "without": true, "cleaned": true, "clean": true,
		"removal": true, "removed": true, "transformed": true, "processed": true, "preprocessed": true, "imputed": true, "scaled": true,
		"normalized": true, "updated": true, "filtered": true, "remaining": true}
)

// fillerWords carry no meaning in an answer name.
var fillerWords = map[string]bool{"of": true, "the": true, "a": true, "value": true, "values": true, "in": true, "for": true,
	"by": true, "per": true, "and": true, "to": true, "with": true, "dev": true, "deviation": true, "standard": true,
	"data": true, "col": true, "column": true, "feature": true, "val": true, "all": true, "overall": true, "calculated": true,
	"total": true, "rate": true, "score": true, "level": true, "on": true, "at": true, "from": true, "amount": true}

// classify reads the statistic, columns and leftover words of a want.
func (a *analysis) classify(w *want) {
	words := w.words
	used := map[int]bool{}
	// columns named by the name
	nameText := strings.Join(words, " ")
	toks := tokenize(nameText)
	for _, mt := range a.m.find(nameText) {
		w.cols = append(w.cols, mt.col)
		for i, t := range toks {
			if t.start >= mt.start && t.end <= mt.end {
				used[i] = true
			}
		}
	}
	// capitals naming one-letter columns: correlation_XZ
	for _, part := range strings.Split(w.spec.Name, "_") {
		if len(part) < 2 || len(part) > 4 || strings.ToUpper(part) != part {
			continue
		}
		var cols []string
		for _, r := range part {
			if s := a.clean.col(string(r)); s != nil && s.name == string(r) {
				cols = append(cols, s.name)
			}
		}
		if len(cols) == len(part) {
			w.cols = append(w.cols, cols...)
			for i, x := range words {
				if x == strings.ToLower(part) {
					used[i] = true
				}
			}
		}
	}
	w.cols = dedupe(w.cols)
	// statistic: from the words no column took, else from all
	w.stat = statNone
	for pass := 0; pass < 2 && w.stat == statNone; pass++ {
		for i, x := range words {
			if used[i] && pass == 0 {
				continue
			}
			s, ok := statWords[x]
			if !ok {
				continue
			}
			if s == statCount && w.stat != statNone {
				continue
			}
			if x == "r" && len(words) > i+1 && (words[i+1] == "squared" || words[i+1] == "2") {
				w.stat = statR2
				used[i], used[i+1] = true, true
				break
			}
			if (x == "t" || x == "f" || x == "u" || x == "w" || x == "n") && len(words) > 1 && !(i > 0 && (words[i-1] == "shapiro" || words[i-1] == "chi")) {
				continue
			}
			if w.stat == statNone || (w.stat == statCount && s != statCount) || s == statP {
				if s == statCorr && w.stat == statP {
					continue
				}
				w.stat = s
			}
			used[i] = true
		}
	}
	if w.stat == statNone {
		for _, x := range nameWords(w.ph) {
			if st, ok := statWords[x]; ok && len(x) > 2 {
				w.stat = st
				break
			}
		}
	}
	if has(words, "range") {
		switch {
		case has(words, "low") || has(words, "lower") || has(words, "min") || has(words, "start"):
			w.stat = statMin
		case has(words, "high") || has(words, "upper") || has(words, "max") || has(words, "end"):
			w.stat = statMax
		}
	}
	if has(words, "squared") && has(words, "error") {
		w.stat = statMSE
		if has(words, "root") {
			w.stat = statRMSE
		}
	}
	if has(words, "absolute") && has(words, "error") {
		w.stat = statMAE
	}
	if has(words, "determination") || (has(words, "squared") && (has(words, "r") || has(words, "rsquared"))) || has(words, "rsquared") {
		w.stat = statR2
	}
	if has(words, "std") || has(words, "stddev") || has(words, "sd") || (has(words, "standard") && has(words, "deviation")) {
		if w.stat == statMean || w.stat == statNone || w.stat == statCount {
			w.stat = statStd
		}
	}
	if (w.spec.Kind == KindBool || (w.spec.Kind == KindText && len(w.alts) >= 2)) && w.stat != statP {
		w.stat = statDecision
	}
	if w.stat == statNone && len(w.alts) >= 2 {
		w.stat = statDecision
	}
	if w.spec.Kind == KindText && w.stat == statCorr && len(w.alts) < 2 {
		w.stat = statName // "strongest_correlation_variable" names a column
	}
	if w.stat == statNone && w.spec.Kind != KindText && w.spec.Kind != KindBool {
		for _, x := range words {
			if x == "outlier" || x == "outliers" || x == "missing" || x == "duplicates" || x == "duplicate" {
				w.stat = statCount
			}
		}
	}
	if has(words, "within") && (w.stat == statStd || w.stat == statNone) && (w.spec.Kind == KindInteger || has(words, "values") || has(words, "count") || has(words, "number")) {
		w.stat = statCount
	}
	if w.stat == statNone && (has(words, "unique") || has(words, "distinct")) && w.spec.Kind != KindText {
		w.stat = statCount
	}
	if q, ok := a.quantileOf(w); ok && (w.stat == statNone || w.stat == statCount || w.stat == statP) {
		w.stat, w.q = statQuantile, q
	}
	if w.stat == statNone && (has(words, "rate") || has(words, "share") || has(words, "fraction") || has(words, "ratio") && w.spec.Kind != KindText) {
		w.stat = statPct
	}
	if w.stat == statNone && (w.spec.Kind == KindInteger || w.spec.Kind == "") && (has(words, "removed") || has(words, "dropped") || has(words, "deleted") || has(words, "excluded")) {
		w.stat = statCount
	}
	if w.stat == statNone && (has(words, "total") || has(words, "sum")) && w.spec.Kind != KindText && w.spec.Kind != KindBool {
		w.stat = statSum
	}
	if w.stat == statNone {
		for _, x := range words {
			if decisionWords[x] && (w.spec.Kind == KindText || w.spec.Kind == KindBool) {
				w.stat = statDecision
			}
		}
	}
	for i, x := range words {
		if used[i] || fillerWords[x] {
			continue
		}
		if beforeWords[x] {
			w.stage = "before"
			continue
		}
		if afterWords[x] {
			w.stage = "after"
			continue
		}
		w.rest = append(w.rest, x)
	}
}

func has(words []string, w string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
}

func dedupe(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// assignStages gives answers that come in before/after pairs their
// stage when only one of the pair says so.
func (a *analysis) assignStages() {}

// primary returns the columns the question is about, in order of
// mention: the question's own first, then the constraints'.
func (a *analysis) primary() []string {
	cols := columnsOf(a.qMent)
	for _, c := range columnsOf(a.ment) {
		if !contains(cols, c) {
			cols = append(cols, c)
		}
	}
	for _, c := range a.created {
		if !contains(cols, c) && a.mentionsCreated(c) {
			cols = append([]string{c}, cols...)
		}
	}
	return cols
}

func (a *analysis) mentionsCreated(c string) bool {
	return strings.Contains(a.low, strings.ToLower(c))
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// numericCols filters cols to those that hold numbers in f.
func numericCols(f *frame, cols []string) []string {
	var out []string
	for _, c := range cols {
		s := f.col(c)
		if s != nil && (s.kind == kindNum || s.kind == kindBool || s.numericShare() > 0.5) {
			out = append(out, c)
		}
	}
	return out
}

// numberAfter finds the first number following any of the phrases.
func numberAfter(text string, phrases ...string) (float64, bool) {
	for _, p := range phrases {
		i := strings.Index(text, p)
		if i < 0 {
			continue
		}
		rest := text[i+len(p):]
		if m := numRe.FindStringIndex(rest); m != nil && m[0] < 40 {
			x, ok := parseNumber(strings.TrimSuffix(rest[m[0]:m[1]], "."))
			if ok {
				if strings.HasPrefix(rest[m[1]:], "%") {
					x /= 100
				}
				return x, true
			}
		}
	}
	return 0, false
}

var numRe = regexp.MustCompile(`[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?`)

// alpha is the significance level the text states (default 0.05).
func (a *analysis) alpha() float64 {
	for _, p := range []string{"significance level (alpha) of", "significance level of", "alpha level of", "alpha) of", "alpha of", "alpha =", "alpha=", "alpha ", "level of significance of", "significance level"} {
		if x, ok := numberAfter(a.low, p); ok && x > 0 && x < 0.5 {
			return x
		}
	}
	if x, ok := numberAfter(a.low, "p-value is less than", "p-value < ", "p value is less than", "p-value less than", "p < ", "p-value is greater than", "p-value >"); ok && x > 0 && x < 0.5 {
		return x
	}
	return 0.05
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func isNaN(x float64) bool { return math.IsNaN(x) }

var (
	ordinalPctRe = regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th)\s+percentile`)
	quantileRe   = regexp.MustCompile(`\b(0?\.\d+)\s+quantile|quantile\s*\(?\s*(0?\.\d+)`)
)

// quantileOf reads the quantile an answer asks for: "p90", "90th
// percentile", "percentile_25", "0.9 quantile".
func (a *analysis) quantileOf(w *want) (float64, bool) {
	for i, x := range w.words {
		if (x == "percentile" || x == "pct" || x == "quantile") && i+1 < len(w.words) {
			if v, ok := parseNumber(w.words[i+1]); ok && v > 0 && v < 100 {
				return v / 100, true
			}
		}
		if (x == "percentile" || x == "quantile") && i > 0 {
			if v, ok := parseNumber(w.words[i-1]); ok && v > 0 && v < 100 {
				return v / 100, true
			}
		}
		if (x == "p" || x == "q") && i+1 < len(w.words) {
			if v, ok := parseNumber(w.words[i+1]); ok && v >= 5 && v < 100 && int(v)%5 == 0 {
				return v / 100, true
			}
		}
	}
	if !has(w.words, "percentile") && !has(w.words, "quantile") && !a.has("percentile", "quantile") {
		return 0, false
	}
	if m := ordinalPctRe.FindStringSubmatch(a.low); m != nil {
		v, _ := parseNumber(m[1])
		return v / 100, true
	}
	if m := quantileRe.FindStringSubmatch(a.low); m != nil {
		v, _ := parseNumber(m[1] + m[2])
		return v, true
	}
	return 0, false
}
