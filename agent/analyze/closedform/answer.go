package closedform

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// answer computes one want.
func (a *analysis) answer(w *want) (string, bool) {
	if w.stat != statDecision && w.stat != statP && w.stat != statCorr && w.stat != statTest {
		if v, ok := a.argAnswer(w); ok {
			return v, true
		}
	}
	if v, ok := a.dictAnswer(w); ok {
		return v, true
	}
	if v, ok := a.partsAnswer(w); ok {
		return v, true
	}
	if v, ok := a.outlierAnswer(w); ok {
		return v, true
	}
	if (has(w.words, "coef") || has(w.words, "coefficient") || has(w.words, "slope")) && len(w.cols) > 0 && !a.has("correlation") {
		if b, _, ok := a.coefficientFor(w); ok {
			return formatValue(b, w.spec), true
		}
	}
	switch w.stat {
	case statMean, statMedian, statStd, statVar, statMin, statMax, statRange, statSum, statSkew, statKurt, statMode,
		statQ1, statQ3, statIQR, statQuantile:
		if x, ok := a.describeStat(w); ok {
			return formatValue(x, w.spec), true
		}
	case statCount:
		if x, ok := a.countAnswer(w); ok {
			return formatValue(x, w.spec), true
		}
	case statPct:
		if x, ok := a.pctAnswer(w); ok {
			return formatValue(x, w.spec), true
		}
	case statCorr:
		if r, ok := a.corrFor(w); ok {
			return formatValue(r.Stat, w.spec), true
		}
	case statP:
		if t, ok := a.testFor(w); ok {
			return formatValue(t.P, w.spec), true
		}
	case statTest:
		if t, ok := a.testFor(w); ok {
			return formatValue(t.Stat, w.spec), true
		}
	case statDecision:
		return a.decide(w)
	case statMSE, statRMSE, statMAE, statR2, statAccuracy, statSlope, statInter:
		if x, ok := a.modelAnswer(w); ok {
			return formatValue(x, w.spec), true
		}
	}
	return a.fallback(w)
}

// fallback answers wants no statistic word explains.
func (a *analysis) fallback(w *want) (string, bool) {
	return "", false
}

// ddof is the degrees of freedom the text asks standard deviations to
// use: pandas' 1 unless it says population or numpy.
func (a *analysis) ddof(w *want) int {
	t := a.low + " " + strings.ToLower(w.desc)
	if strings.Contains(t, "ddof=1") || strings.Contains(t, "sample standard deviation") && !strings.Contains(t, "not the sample") {
		return 1
	}
	if strings.Contains(t, "population standard deviation") || strings.Contains(t, "population std") ||
		strings.Contains(t, "pstdev") || strings.Contains(t, "ddof=0") || strings.Contains(t, "σ = sqrt(sum") {
		return 0
	}
	return 1
}

// bias reports whether skewness and kurtosis should be the biased
// (scipy) estimates rather than pandas' corrected ones.
func (a *analysis) bias() bool {
	t := a.low
	if strings.Contains(t, "scipy") || strings.Contains(t, "stats.skew") || strings.Contains(t, "stats.kurtosis") {
		return !strings.Contains(t, "bias=false")
	}
	if strings.Contains(t, "pandas") || strings.Contains(t, ".skew()") || strings.Contains(t, ".kurt") {
		return false
	}
	return strings.Contains(t, "fisher") && strings.Contains(t, "kurtosis")
}

// frameFor is the data an answer is about: before or after cleaning.
func (a *analysis) frameFor(w *want) *frame {
	if w.stage == "before" {
		return a.base
	}
	return a.clean
}

// target is the column a one-column statistic is about.
func (a *analysis) target(w *want, f *frame) *series {
	var cands []string
	cands = append(cands, w.cols...)
	if len(cands) == 0 {
		for _, mt := range a.m.find(w.desc) {
			if mt.score >= 50 {
				cands = append(cands, mt.col)
			}
		}
	}
	if len(cands) == 0 {
		cands = append(cands, a.statSentenceCols(w.stat)...)
	}
	cands = append(cands, a.created...)
	cands = append(cands, a.primary()...)
	groups := a.groupCols(w)
	for _, c := range cands {
		if contains(groups, c) && len(cands) > 1 {
			continue
		}
		s := f.col(c)
		if s == nil {
			continue
		}
		if s.kind == kindNum || s.kind == kindBool || s.numericShare() > 0.5 || s.kind == kindTime {
			return s
		}
	}
	return nil
}

// statWordsRe finds the sentences that ask for a statistic.
var statWordsRe = map[string]*regexp.Regexp{
	statMean:   regexp.MustCompile(`\b(?:mean|average|avg)\b`),
	statMedian: regexp.MustCompile(`\bmedian\b`),
	statStd:    regexp.MustCompile(`\b(?:standard deviation|std|stdev)\b`),
	statVar:    regexp.MustCompile(`\bvariance\b`),
	statSkew:   regexp.MustCompile(`\bskew`),
	statKurt:   regexp.MustCompile(`\bkurtosis\b`),
	statMin:    regexp.MustCompile(`\b(?:min|minimum)\b`),
	statMax:    regexp.MustCompile(`\b(?:max|maximum)\b`),
	statRange:  regexp.MustCompile(`\brange\b`),
	statSum:    regexp.MustCompile(`\b(?:sum|total)\b`),
	statMode:   regexp.MustCompile(`\bmode\b`),
}

// statSentenceCols are the numeric columns named in the sentences that
// ask for stat ("calculate the mean and median of LoanAmount"), in order.
func (a *analysis) statSentenceCols(stat string) []string {
	re := statWordsRe[stat]
	if re == nil {
		return nil
	}
	var out []string
	for _, sp := range sentencesOf(a.text) {
		low := a.low[sp[0]:sp[1]]
		loc := re.FindStringIndex(low)
		if loc == nil {
			continue
		}
		// the column right after the statistic's name ("the mean fare"),
		// else after "of" or "for" that follows it
		after := sp[0] + loc[1]
		type from struct {
			pos   int
			limit int
			named bool // only a column written as such: "for the 'X' column"
		}
		starts := []from{{after, 5, false}}
		if of := strings.Index(low[loc[1]:], " of "); of >= 0 {
			starts = append(starts, from{after + of + 4, 30, false})
		}
		if fr := strings.Index(low[loc[1]:], " for "); fr >= 0 && !regexp.MustCompile(`^\s*(?:each|every|all|the different)\b`).MatchString(low[loc[1]+fr+5:]) {
			starts = append(starts, from{after + fr + 5, 30, true})
		}
		for _, st := range starts {
			start, limit := st.pos, st.limit
			for _, m := range a.m.find(a.text[start:sp[1]]) {
				if m.start > limit {
					break
				}
				named := m.quoted || strings.HasPrefix(strings.ToLower(a.text[start+m.end:min(sp[1], start+m.end+8)]), " column")
				if st.named && !named {
					break // "for the years": only a column named as such
				}
				if s := a.clean.col(m.col); s != nil && (s.kind == kindNum || s.numericShare() > 0.5) {
					out = append(out, m.col)
				}
				break
			}
			if len(out) > 0 {
				break
			}
		}
		if len(out) > 0 {
			break
		}
	}
	return out
}

// values returns the numbers of the target column in the rows the want
// selects.
func (a *analysis) values(w *want) ([]float64, *series, bool) {
	f := a.frameFor(w)
	f = a.groupFrame(w, f)
	if f == nil {
		return nil, nil, false
	}
	s := a.target(w, f)
	if s == nil {
		return nil, nil, false
	}
	return present(s.numeric()), s, true
}

func (a *analysis) describeStat(w *want) (float64, bool) {
	xs, _, ok := a.values(w)
	if !ok {
		return 0, false
	}
	return a.stat(w, w.stat, xs)
}

// stat computes one descriptive statistic.
func (a *analysis) stat(w *want, stat string, xs []float64) (float64, bool) {
	if len(xs) == 0 {
		return math.NaN(), true
	}
	switch stat {
	case statMean:
		return mean(xs), true
	case statMedian:
		return median(xs), true
	case statStd:
		return std(xs, a.ddof(w)), true
	case statVar:
		return variance(xs, a.ddof(w)), true
	case statMin:
		lo, _ := minMax(xs)
		return lo, true
	case statMax:
		_, hi := minMax(xs)
		return hi, true
	case statRange:
		lo, hi := minMax(xs)
		return hi - lo, true
	case statSum:
		return sum(xs), true
	case statSkew:
		return skewness(xs, a.bias()), true
	case statKurt:
		return kurtosis(xs, a.bias()), true
	case statMode:
		return modeFloat(xs), true
	case statQ1:
		return quantile(xs, 0.25), true
	case statQ3:
		return quantile(xs, 0.75), true
	case statIQR:
		return quantile(xs, 0.75) - quantile(xs, 0.25), true
	case statQuantile:
		return quantile(xs, w.q), true
	case statCount:
		return float64(len(xs)), true
	}
	return 0, false
}

// pctAnswer answers percentages and proportions: of missing values, of
// rows in a group.
func (a *analysis) pctAnswer(w *want) (float64, bool) {
	scale := 100.0
	desc := strings.ToLower(w.desc + " " + w.ph)
	if has(w.words, "proportion") || has(w.words, "rate") || has(w.words, "fraction") || has(w.words, "share") || has(w.words, "ratio") ||
		regexp.MustCompile(`between 0 and 1\b`).MatchString(desc) {
		scale = 1
	}
	if strings.Contains(desc, "percent") || regexp.MustCompile(`between 0 and 100\b`).MatchString(desc) || has(w.words, "percentage") || has(w.words, "percent") || has(w.words, "pct") {
		scale = 100
	}
	if has(w.words, "missing") || has(w.words, "null") || a.has("missing") {
		f := a.base
		s := a.anyTarget(w, f)
		if s == nil {
			return 0, false
		}
		n := 0
		for _, m := range s.missing {
			if m {
				n++
			}
		}
		return scale * float64(n) / float64(f.rows), true
	}
	f := a.frameFor(w)
	g := a.groupFrame(w, f)
	if g == nil {
		return 0, false
	}
	if s := a.target(w, g); s != nil && isBinary(s) && !contains(a.groupCols(w), s.name) {
		// the share of ones in a yes/no column: the survival rate
		return scale * mean(present(s.numeric())), true
	}
	if g == f {
		// the share of the rows the question's filters keep
		if a.base.rows < a.raw.rows && a.raw.rows > 0 {
			return scale * float64(f.rows) / float64(a.raw.rows), true
		}
		return 0, false
	}
	return scale * float64(g.rows) / float64(f.rows), true
}

// itoa is strconv.Itoa for answers.
func itoa(n int) string { return strconv.Itoa(n) }
