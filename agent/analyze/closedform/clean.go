package closedform

import (
	"math"
	"regexp"
	"strings"
)

// outlierSpec is how the text defines an outlier.
type outlierSpec struct {
	method string  // "z" or "iqr"; "" when the text defines none
	k      float64 // z threshold or IQR multiplier
	ddof   int     // for z-scores
	upper  bool    // only values above the threshold ("z-score above 3")
}

// outlierRule reads the outlier definition of the text.
func (a *analysis) outlierRule() outlierSpec {
	t := a.low
	var o outlierSpec
	zPos := firstIndex(t, "z-score", "z score", "zscore", "standard deviations", "standard deviation from the mean", "z_score", "z-scores")
	iqrPos := firstIndex(t, "iqr", "interquartile", "inter-quartile", "quartile range", "1.5 times", "1.5*", "1.5 *")
	switch {
	case zPos >= 0 && (iqrPos < 0 || zPos < iqrPos) && !strings.Contains(t, "1.5xiqr") && !strings.Contains(t, "1.5 * iqr") && !strings.Contains(t, "1.5*iqr"):
		o.method, o.k = "z", 3
		if x, ok := numberAfter(t, "threshold of", "threshold is", "threshold", "z-score greater than", "z-score is greater than",
			"z score greater than", "z-score of more than", "z-score above", "z-score higher than", "z-score exceeds",
			"absolute z-score value greater than", "absolute z-score greater than", "absolute z-score exceeds", "greater than", "more than", "beyond"); ok && x > 0 && x <= 10 {
			o.k = x
		}
		if m := regexp.MustCompile(`(\w+|\d+(?:\.\d+)?) standard deviations?`).FindStringSubmatch(t); m != nil {
			if x, ok := wordNumber(m[1]); ok && x > 0 && x <= 10 {
				o.k = x
			}
		}
		o.ddof = 0
		if strings.Contains(t, "ddof=1") || (strings.Contains(t, ".std()") && !strings.Contains(t, "zscore")) {
			o.ddof = 1
		}
		if strings.Contains(t, "z-score above") || strings.Contains(t, "z-score is above") || (strings.Contains(t, "greater than") && !strings.Contains(t, "less than") && !strings.Contains(t, "absolute") && !strings.Contains(t, "or below") && !strings.Contains(t, "lower than") && !strings.Contains(t, "-3") && !strings.Contains(t, "-2") && !strings.Contains(t, "from the mean") && !strings.Contains(t, "away from")) {
			o.upper = strings.Contains(t, "z-score above") || strings.Contains(t, "z-score is greater than") || strings.Contains(t, "z-score greater than") || strings.Contains(t, "z-score is above")
			if strings.Contains(t, "greater than 3 or less than") || strings.Contains(t, "absolute") || strings.Contains(t, "or less than") {
				o.upper = false
			}
		}
	case iqrPos >= 0:
		o.method, o.k = "iqr", 1.5
		if m := regexp.MustCompile(`(\d+(?:\.\d+)?)\s*(?:\*|x|×|times)\s*(?:the\s+)?(?:iqr|interquartile)`).FindStringSubmatch(t); m != nil {
			if x, ok := parseNumber(m[1]); ok && x > 0 {
				o.k = x
			}
		}
	}
	return o
}

func wordNumber(s string) (float64, bool) {
	if x, ok := parseNumber(s); ok {
		return x, true
	}
	if n, ok := numberWords[s]; ok {
		return float64(n), true
	}
	return 0, false
}

var numberWords = map[string]int{"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10}

func firstIndex(t string, keys ...string) int {
	best := -1
	for _, k := range keys {
		if i := strings.Index(t, k); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

// outlierMask marks the outliers of xs (NaN is never an outlier).
func outlierMask(xs []float64, o outlierSpec) []bool {
	mask := make([]bool, len(xs))
	vals := present(xs)
	if len(vals) == 0 {
		return mask
	}
	switch o.method {
	case "z":
		m, s := mean(vals), std(vals, o.ddof)
		for i, x := range xs {
			if math.IsNaN(x) {
				continue
			}
			z := (x - m) / s
			if o.upper {
				mask[i] = z > o.k
			} else {
				mask[i] = math.Abs(z) > o.k
			}
		}
	case "iqr":
		s := sorted(vals)
		q1, q3 := quantileSorted(s, 0.25), quantileSorted(s, 0.75)
		lo, hi := q1-o.k*(q3-q1), q3+o.k*(q3-q1)
		for i, x := range xs {
			if !math.IsNaN(x) && (x < lo || x > hi) {
				mask[i] = true
			}
		}
	}
	return mask
}

// cleanFrame applies the cleaning steps the text asks for: duplicate
// removal, imputation, dropping missing values, outlier removal.
func (a *analysis) cleanFrame(base *frame) *frame {
	f := base.clone()
	if a.has("duplicate") && (a.has("remov", "drop", "delet", "eliminat", "clean")) {
		f, a.dupes = dropDuplicates(f)
	}
	f = a.dropMissing(f)
	a.impute(f)
	a.transform(f)
	a.outliers = a.outlierRule()
	if a.outliers.method != "" && a.has("remov", "exclud", "drop", "without", "filter", "prune", "pruned", "eliminat", "discard", "clean", "after detect", "replace") {
		col := a.outlierColumn(f)
		if col != "" {
			s := f.col(col)
			mask := outlierMask(s.numeric(), a.outliers)
			a.outlierOn = col
			if a.has("replace") && (a.has("with the mean", "with mean", "with the median", "by the mean", "by the median")) {
				vals := append([]float64(nil), s.numeric()...)
				fill := mean(present(vals))
				if a.has("with the median", "by the median") {
					fill = median(present(vals))
				}
				for i, m := range mask {
					if m {
						vals[i] = fill
						a.removed++
					}
				}
				f.setNum(col, vals)
			} else {
				keep := make([]bool, f.rows)
				for i, m := range mask {
					keep[i] = !m
					if m {
						a.removed++
					}
				}
				f = f.subset(keep)
			}
		}
	}
	return f
}

// outlierColumn is the column outliers are looked for in.
func (a *analysis) outlierColumn(f *frame) string {
	// the column mentioned nearest the word "outlier"
	i := strings.Index(a.low, "outlier")
	best, bestD := "", 1<<30
	for _, m := range a.ment {
		s := f.col(m.col)
		if s == nil || (s.kind != kindNum && s.numericShare() < 0.5) {
			continue
		}
		d := m.start - i
		if d < 0 {
			d = -d * 2
		}
		if d < bestD {
			best, bestD = m.col, d
		}
	}
	for _, c := range a.created {
		if strings.Contains(a.low, strings.ToLower(c)) && best == "" {
			best = c
		}
	}
	return best
}

func dropDuplicates(f *frame) (*frame, int) {
	seen := map[string]bool{}
	keep := make([]bool, f.rows)
	n := 0
	for i := 0; i < f.rows; i++ {
		var b strings.Builder
		for _, c := range f.cols {
			b.WriteString(c.str[i])
			if c.missing[i] {
				b.WriteString("\x00NA")
			}
			b.WriteByte(0)
		}
		k := b.String()
		if seen[k] {
			n++
			continue
		}
		seen[k] = true
		keep[i] = true
	}
	if n == 0 {
		return f, 0
	}
	return f.subset(keep), n
}

var imputeRe = regexp.MustCompile(`(?:fill|impute|imputing|imputation|replac|handl|filling)[^.;\n]*?(?:with|using|by)\s+(?:the\s+)?(?:respective\s+|column\s+|their\s+)?(mean|median|mode|most frequent|most common|average|zero|0|'[^']*'|"[^"]*")`)

// impute fills missing values as the text says: with the mean, median or
// mode of the columns named near the instruction (all when none is).
func (a *analysis) impute(f *frame) {
	for _, loc := range imputeRe.FindAllStringSubmatchIndex(a.low, -1) {
		how := asWritten(a.text, a.low, loc[2], loc[3])
		// the sentence holding the instruction
		s := strings.LastIndexAny(a.low[:loc[0]], ".\n")
		e := strings.IndexAny(a.low[loc[1]:], ".\n")
		if e < 0 {
			e = len(a.low)
		} else {
			e += loc[1]
		}
		sent := a.text[s+1 : e]
		if !strings.Contains(strings.ToLower(sent), "missing") && !strings.Contains(strings.ToLower(sent), "null") && !strings.Contains(strings.ToLower(sent), "nan") {
			continue
		}
		ms := a.m.find(sent)
		if len(ms) == 0 {
			if !strings.Contains(strings.ToLower(sent), "respective") && !strings.Contains(strings.ToLower(sent), "all") && !strings.Contains(strings.ToLower(sent), "each column") {
				continue
			}
			for _, c := range f.cols {
				fillColumn(f, c, how)
			}
			continue
		}
		// each column takes the filling stated between it and the next
		// column ("Self_Employed with 'No' and LoanAmount with the median")
		lsent := strings.ToLower(sent)
		done := map[string]bool{}
		for k, m := range ms {
			end := len(sent)
			if k+1 < len(ms) {
				end = ms[k+1].start
			}
			own := how
			if h := fillWithRe.FindStringSubmatchIndex(lsent[m.end:end]); h != nil {
				own = asWritten(sent[m.end:end], lsent[m.end:end], h[2], h[3])
			}
			if done[m.col] {
				continue
			}
			done[m.col] = true
			if c := f.col(m.col); c != nil {
				fillColumn(f, c, own)
			}
		}
	}
}

var fillWithRe = regexp.MustCompile(`(?:with|using|by)\s+(?:the\s+)?(?:respective\s+|column\s+|their\s+)?(mean|median|mode|most frequent|most common|average|zero|0|'[^']*'|"[^"]*")`)

// asWritten returns text[i:j], low being text in lower case and i, j
// indices into it, so that a value the question quotes keeps the case the
// question wrote it in. It returns low[i:j] when lower-casing changed the
// length and the two no longer line up.
func asWritten(text, low string, i, j int) string {
	if len(text) != len(low) {
		return low[i:j]
	}
	return text[i:j]
}

// fillColumn fills the missing values of s as how says: a statistic
// (mean, median, mode, zero) or a quoted value, in the case the question
// wrote it.
func fillColumn(f *frame, s *series, how string) {
	lit := strings.Trim(how, `'"`)
	quoted := strings.HasPrefix(how, "'") || strings.HasPrefix(how, `"`)
	how = strings.ToLower(how)
	if s.kind == kindText && (how == "mode" || how == "most frequent" || how == "most common" || quoted) {
		vals := append([]string(nil), s.str...)
		v := lit
		if !quoted {
			v = modeText(s)
		} else {
			// keep the case the question wrote, unless the column holds
			// the value in another case
			for _, x := range s.str {
				if strings.EqualFold(x, v) {
					v = x
					break
				}
			}
		}
		for i, m := range s.missing {
			if m {
				vals[i] = v
			}
		}
		f.setText(s.name, vals)
		return
	}
	if s.kind == kindText && s.numericShare() < 0.5 {
		return
	}
	nums := append([]float64(nil), s.numeric()...)
	xs := present(nums)
	var v float64
	switch how {
	case "mean", "average":
		v = mean(xs)
	case "median":
		v = median(xs)
	case "mode", "most frequent", "most common":
		v = modeFloat(xs)
	default:
		v = 0
	}
	for i, x := range nums {
		if math.IsNaN(x) {
			nums[i] = v
		}
	}
	ns := f.setNum(s.name, nums)
	if s.kind == kindBool {
		ns.kind = kindNum
	}
}

func modeText(s *series) string {
	counts := map[string]int{}
	for i, v := range s.str {
		if !s.missing[i] {
			counts[v]++
		}
	}
	best, bc := "", 0
	for _, k := range sortedKeys(counts) {
		if counts[k] > bc {
			best, bc = k, counts[k]
		}
	}
	return best
}

var (
	clauseEndRe  = regexp.MustCompile(`,\s*(?:and\s+)?(?:then\s+)?(?:normaliz|impute|imputing|fill|replac|transform|creat|calculat|encod|scal|standardiz|convert|use|perform)`)
	dropColumnRe = regexp.MustCompile(`\b(?:drop|dropping|remove|removing|delete|deleting)\s+(?:the\s+)?(?:['"][^'"]{1,40}['"]|\w+)\s+columns?\b`)
)

var dropRe = regexp.MustCompile(`(?:drop|remov|delet|exclud|ignor|discard|eliminat|listwise)[^.;\n]*(?:missing|null|nan|empty)|(?:missing|null|nan)[^.;\n]*(?:drop|remov|delet|exclud|ignor|discard|eliminat)`)

// dropMissing removes the rows with missing values in the columns the
// text names next to an instruction to drop them.
func (a *analysis) dropMissing(f *frame) *frame {
	var cols []string
	for _, loc := range dropRe.FindAllStringIndex(a.low, -1) {
		s := strings.LastIndexAny(a.low[:loc[0]], ".\n")
		e := strings.IndexAny(a.low[loc[1]:], ".\n")
		if e < 0 {
			e = len(a.low)
		} else {
			e += loc[1]
		}
		// from the instruction to the end of its clause
		clause := a.text[loc[0]:e]
		if c := clauseEndRe.FindStringIndex(strings.ToLower(clause)); c != nil {
			clause = clause[:c[0]]
		}
		if dropColumnRe.MatchString(strings.ToLower(clause)) {
			continue
		}
		sent := a.text[s+1 : e]
		lows := strings.ToLower(sent)
		_ = sent
		sent = clause
		if !strings.Contains(lows, "row") && !strings.Contains(lows, "record") && !strings.Contains(lows, "entries") && !strings.Contains(lows, "dropna") && !strings.Contains(lows, "listwise") {
			continue
		}
		cols = append(cols, columnsOf(a.m.find(sent))...)
	}
	if len(cols) == 0 {
		return f
	}
	keep := make([]bool, f.rows)
	for i := range keep {
		keep[i] = true
		for _, c := range cols {
			if s := f.col(c); s != nil && s.missing[i] {
				keep[i] = false
			}
		}
	}
	return f.subset(keep)
}

var transformRe = regexp.MustCompile(`\blog\b|logarithm|log-transform|min-max|minmax|normaliz|standardiz|rescal|scaling`)

// transform applies in place the transformations the text asks of
// existing columns: logarithms, min-max scaling, standardization.
func (a *analysis) transform(f *frame) {
	for _, sp := range sentencesOf(a.text) {
		sent := a.text[sp[0]:sp[1]]
		low := a.low[sp[0]:sp[1]]
		if !transformRe.MatchString(low) || newColRe.MatchString(sent) && strings.Contains(low, "new") {
			continue
		}
		for _, op := range a.operands(f, sent, "") {
			if contains(a.created, op.col) {
				continue
			}
			s := f.col(op.col)
			x := s.numeric()
			var out []float64
			switch {
			case strings.Contains(low, "log"):
				out = make([]float64, len(x))
				for i, v := range x {
					if strings.Contains(low, "1e-10") {
						v += 1e-10
					}
					if strings.Contains(low, "base 10") || strings.Contains(low, "log10") {
						out[i] = math.Log10(v)
					} else {
						out[i] = math.Log(v)
					}
				}
			case strings.Contains(low, "standardiz") || strings.Contains(low, "z-score"):
				out = standardize(x)
			default:
				out = minMaxScale(x)
			}
			f.setNum(op.col, out)
		}
	}
}
