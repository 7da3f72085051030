package closedform

import (
	"math"
	"regexp"
	"sort"
	"strings"
)

// Simple models as scikit-learn fits them: LinearRegression (ordinary
// least squares) and LogisticRegression (L2, C=1, solved to
// convergence), on the rows train_test_split(test_size,
// random_state) picks, scored on the test rows; and ordinary least
// squares over every row for R-squared, coefficients and their
// p-values (statsmodels' OLS).

// modelSpec is what a question asks a model of.
type modelSpec struct {
	target    string
	features  []string
	logistic  bool
	split     bool
	testSize  float64
	seed      uint32
	balanced  bool
	liblinear bool
	oneHot    bool
	// fillMean fills missing feature values with the column mean, as
	// scikit-learn pipelines need some filling; rows are dropped instead
	// when the text says to leave out missing values
	fillMean bool
}

var (
	targetRes = []*regexp.Regexp{
		regexp.MustCompile(`([\w'"() .-]{1,40}?)\s+(?:as|is|being)\s+the\s+(?:target|dependent|output|response)`),
		regexp.MustCompile(`(?:target|dependent|output|response)\s+(?:variable\s+)?(?:is|should be|will be|=|:)\s*(?:the\s+)?(.{1,60})`),
		regexp.MustCompile(`(?:predict|predicting|forecast|estimate|classify)\s+(?:the\s+)?(?:value\s+of\s+(?:the\s+)?)?(.{1,80}?)\s+(?:based on|using|from|with|given)`),
		regexp.MustCompile(`(?:predict|predicting|forecast)\s+(?:the\s+)?(.{1,60}?)(?:\.|,|;|\n|$)`),
	}
	featureRes = []*regexp.Regexp{
		regexp.MustCompile(`(?:based on|using|from|given)\s+(?:the\s+)?(?:features?\s+|variables?\s+|columns?\s+)?(.{1,200}?)(?:\.|;|\n| to predict| as (?:features|predictors|independent)|$)`),
		regexp.MustCompile(`(?:predictor|independent|feature|input|explanatory)\s+(?:variables?|features?|columns?)\s+(?:are|is|should be|:|=|will be)\s*(.{1,200}?)(?:\.|;|\n|$)`),
		regexp.MustCompile(`(?:with|using)\s+(?:the\s+)?features?\s+(?:such as\s+)?(.{1,200}?)(?:\.|;|\n|$)`),
	}
	testSizeRe   = regexp.MustCompile(`test_size\s*=\s*(0?\.\d+)`)
	testPctRe    = regexp.MustCompile(`(\d+)\s*%\s*(?:of the data(?:set)?\s+)?(?:for|as|used for|is used for|to be used for|of the data(?:set)? for)?\s*(?:the\s+)?(?:test|testing)\b`)
	testSetPctRe = regexp.MustCompile(`(?:test|testing)\s+(?:set|data|sample|size)?\s*(?:of\s+)?\(?(\d+)\s*%`)
	ratioRe      = regexp.MustCompile(`\b(\d{1,2})\s*[:/-]\s*(\d{1,2})\b`)
	trainPctRe   = regexp.MustCompile(`(\d+)\s*%\s*(?:of the data(?:set)?\s+)?(?:for|as|used for)?\s*(?:the\s+)?(?:train|training)\b`)
	seedRe       = regexp.MustCompile(`(?:random[_ ]state|random seed|seed)\s*(?:of|=|is|to|as|:)?\s*(?:set to\s+)?(\d+)`)
)

// readModel reads the model a question asks for; ok is false when the
// question asks for none.
func (a *analysis) readModel() (modelSpec, bool) {
	if v, ok := a.cache["model"]; ok {
		if v == nil {
			return modelSpec{}, false
		}
		return v.(modelSpec), true
	}
	s, ok := a.parseModel()
	if ok {
		a.cache["model"] = s
	} else {
		a.cache["model"] = nil
	}
	return s, ok
}

func (a *analysis) parseModel() (modelSpec, bool) {
	t := a.low
	var s modelSpec
	switch {
	case strings.Contains(t, "logistic"):
		s.logistic = true
	case strings.Contains(t, "linear regression") || strings.Contains(t, "linearregression") || strings.Contains(t, "least squares") ||
		strings.Contains(t, "regression model") || strings.Contains(t, "regression analysis") || strings.Contains(t, "linear model") ||
		strings.Contains(t, "conduct linear regression") || strings.Contains(t, "simple regression") || strings.Contains(t, "multiple regression") ||
		strings.Contains(t, "linear relationship") && strings.Contains(t, "r-squared"):
	default:
		return s, false
	}
	if strings.Contains(t, "random forest") || strings.Contains(t, "decision tree") || strings.Contains(t, "k-nearest") || strings.Contains(t, "svm") ||
		strings.Contains(t, "gradient boost") || strings.Contains(t, "neural") {
		return s, false
	}
	s.balanced = regexp.MustCompile(`\bbalanc`).MatchString(t) && strings.Contains(t, "class") &&
		!regexp.MustCompile(`(?:don't|do not|not|without|no)\s+(?:\w+\s+)?balanc`).MatchString(t)
	s.liblinear = strings.Contains(t, "liblinear")
	s.fillMean = !dropRe.MatchString(t) && !regexp.MustCompile(`without (?:any )?(?:null|missing|nan)|non-null|non-missing|complete (?:cases|rows|data)|dropna`).MatchString(t)
	s.oneHot = strings.Contains(t, "one-hot") || strings.Contains(t, "one hot") || strings.Contains(t, "dummies") || strings.Contains(t, "dummy")
	// the split
	if strings.Contains(t, "split") || strings.Contains(t, "test set") || strings.Contains(t, "testing set") || strings.Contains(t, "train") {
		s.split, s.testSize, s.seed = true, testSize(t), 42
		if m := seedRe.FindStringSubmatch(t); m != nil {
			x, _ := parseNumber(m[1])
			s.seed = uint32(x)
		}
	}
	// target and features
	f := a.clean
	for _, re := range targetRes {
		if m := re.FindStringSubmatchIndex(a.low); m != nil {
			for _, mt := range a.m.find(a.text[m[2]:m[3]]) {
				s.target = mt.col
				break
			}
			if s.target != "" {
				break
			}
		}
	}
	for _, re := range featureRes {
		for _, m := range re.FindAllStringSubmatchIndex(a.low, -1) {
			for _, mt := range a.m.find(a.text[m[2]:m[3]]) {
				if mt.col != s.target && !contains(s.features, mt.col) && f.col(mt.col) != nil {
					s.features = append(s.features, mt.col)
				}
			}
			if len(s.features) > 0 {
				break
			}
		}
		if len(s.features) > 0 {
			break
		}
	}
	if s.target == "" {
		// a regression "between X and Y": Y on X
		cols := numericCols(f, a.primary())
		if len(cols) < 2 {
			return s, false
		}
		s.features, s.target = []string{cols[0]}, cols[1]
	}
	if len(s.features) == 0 {
		for _, c := range a.primary() {
			if c != s.target {
				s.features = append(s.features, c)
			}
		}
	}
	return s, len(s.features) > 0
}

// design builds the model's matrix (with an intercept column first) and
// target over the rows where every used column is present.
func (a *analysis) design(s modelSpec, f *frame, features []string) ([][]float64, []float64, []string, bool) {
	type enc struct {
		name string
		vals []float64
	}
	var cols []enc
	for _, c := range features {
		col := f.col(c)
		if col == nil {
			return nil, nil, nil, false
		}
		if col.kind == kindText && col.numericShare() < 0.5 {
			vals := distinctValues(col)
			sort.Strings(vals)
			if s.oneHot {
				for _, v := range vals {
					x := make([]float64, f.rows)
					for i := range x {
						switch {
						case col.missing[i]:
							x[i] = math.NaN()
						case col.str[i] == v:
							x[i] = 1
						}
					}
					cols = append(cols, enc{c + "_" + v, x})
				}
				continue
			}
			code := map[string]float64{}
			for i, v := range vals {
				code[v] = float64(i)
			}
			x := make([]float64, f.rows)
			for i := range x {
				if col.missing[i] {
					x[i] = math.NaN()
				} else {
					x[i] = code[col.str[i]]
				}
			}
			cols = append(cols, enc{c, x})
			continue
		}
		vals := col.numeric()
		if s.fillMean {
			m := mean(present(vals))
			vals = append([]float64(nil), vals...)
			for i, v := range vals {
				if math.IsNaN(v) {
					vals[i] = m
				}
			}
		}
		cols = append(cols, enc{c, vals})
	}
	ty := f.col(s.target)
	if ty == nil {
		return nil, nil, nil, false
	}
	yv := ty.numeric()
	var X [][]float64
	var y []float64
	for i := 0; i < f.rows; i++ {
		if math.IsNaN(yv[i]) {
			continue
		}
		row := []float64{1}
		ok := true
		for _, c := range cols {
			if math.IsNaN(c.vals[i]) {
				ok = false
				break
			}
			row = append(row, c.vals[i])
		}
		if ok {
			X = append(X, row)
			y = append(y, yv[i])
		}
	}
	names := []string{"intercept"}
	for _, c := range cols {
		names = append(names, c.name)
	}
	return X, y, names, len(y) > len(cols)+1
}

// fitPredict fits the model on the training rows and predicts rows.
func fitPredict(s modelSpec, X [][]float64, y []float64, train, test []int) ([]float64, bool) {
	tx := make([][]float64, len(train))
	ty := make([]float64, len(train))
	for k, i := range train {
		tx[k], ty[k] = X[i], y[i]
	}
	var b []float64
	if s.logistic {
		var ok bool
		b, ok = logisticFit(tx, ty, s.balanced, s.liblinear)
		if !ok {
			return nil, false
		}
	} else {
		var ok bool
		b, ok = lstsqDropping(tx, ty)
		if !ok {
			return nil, false
		}
	}
	pred := make([]float64, len(test))
	for k, i := range test {
		z := 0.0
		for j, v := range X[i] {
			z += b[j] * v
		}
		if s.logistic {
			if z > 0 {
				pred[k] = 1
			}
		} else {
			pred[k] = z
		}
	}
	return pred, true
}

// logisticFit maximises the L2-penalised likelihood (C = 1) by Newton's
// method. The intercept is penalised only by liblinear.
func logisticFit(X [][]float64, y []float64, balanced, liblinear bool) ([]float64, bool) {
	n, p := len(X), len(X[0])
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
	}
	if balanced {
		var pos float64
		for _, v := range y {
			pos += v
		}
		for i, v := range y {
			if v == 1 {
				w[i] = float64(n) / (2 * pos)
			} else {
				w[i] = float64(n) / (2 * (float64(n) - pos))
			}
		}
	}
	b := make([]float64, p)
	for iter := 0; iter < 100; iter++ {
		g := make([]float64, p)
		H := make([][]float64, p)
		for j := range H {
			H[j] = make([]float64, p)
		}
		for i := 0; i < n; i++ {
			z := 0.0
			for j := 0; j < p; j++ {
				z += b[j] * X[i][j]
			}
			pr := 1 / (1 + math.Exp(-z))
			r := w[i] * (pr - y[i])
			s := w[i] * pr * (1 - pr)
			for j := 0; j < p; j++ {
				g[j] += r * X[i][j]
				for k := 0; k <= j; k++ {
					H[j][k] += s * X[i][j] * X[i][k]
				}
			}
		}
		for j := 0; j < p; j++ {
			for k := 0; k < j; k++ {
				H[k][j] = H[j][k]
			}
			if j > 0 || liblinear {
				g[j] += b[j]
				H[j][j]++
			}
		}
		step, ok := solveSym(H, g)
		if !ok {
			return nil, false
		}
		maxStep := 0.0
		for j := range b {
			b[j] -= step[j]
			maxStep = math.Max(maxStep, math.Abs(step[j]))
		}
		if maxStep < 1e-10 {
			break
		}
	}
	return b, true
}

// solveSym solves H x = g by Gaussian elimination with partial pivoting.
func solveSym(H [][]float64, g []float64) ([]float64, bool) {
	p := len(g)
	A := make([][]float64, p)
	for i := range A {
		A[i] = append(append([]float64(nil), H[i]...), g[i])
	}
	for k := 0; k < p; k++ {
		piv := k
		for i := k + 1; i < p; i++ {
			if math.Abs(A[i][k]) > math.Abs(A[piv][k]) {
				piv = i
			}
		}
		if A[piv][k] == 0 {
			return nil, false
		}
		A[k], A[piv] = A[piv], A[k]
		for i := k + 1; i < p; i++ {
			f := A[i][k] / A[k][k]
			for j := k; j <= p; j++ {
				A[i][j] -= f * A[k][j]
			}
		}
	}
	x := make([]float64, p)
	for k := p - 1; k >= 0; k-- {
		s := A[k][p]
		for j := k + 1; j < p; j++ {
			s -= A[k][j] * x[j]
		}
		x[k] = s / A[k][k]
	}
	return x, true
}

// modelAnswer answers a model metric or coefficient.
func (a *analysis) modelAnswer(w *want) (float64, bool) {
	s, ok := a.readModel()
	if !ok {
		return 0, false
	}
	var features []string
	for _, c := range s.features {
		if !contains(a.created, c) || !(has(w.words, "original") || has(w.words, "without") || has(w.words, "base") || has(w.words, "baseline")) {
			features = append(features, c)
		}
	}
	// an answer about a variant model: "volume_feature_model_rmse" adds a
	// created column, "original_model_rmse" leaves it out
	for _, c := range a.created {
		if contains(features, c) {
			continue
		}
		if has(w.words, "original") || has(w.words, "without") || has(w.words, "base") || has(w.words, "baseline") {
			continue
		}
		for _, cw := range nameWords(c) {
			if has(w.words, cw) && !weakWords[cw] {
				features = append(append([]string(nil), features...), c)
				break
			}
		}
	}
	X, y, names, ok := a.design(s, a.clean, features)
	if !ok {
		return 0, false
	}
	switch w.stat {
	case statSlope, statInter:
		b, _, ok := lstsq(X, y)
		if !ok {
			return 0, false
		}
		if w.stat == statInter {
			return b[0], true
		}
		return b[1], true
	}
	if !s.split || w.stat == statR2 && !has(w.words, "test") {
		if w.stat != statR2 {
			return 0, false
		}
		return ols(X, y, names).r2, true
	}
	train, test := trainTestSplit(len(y), s.testSize, s.seed)
	pred, ok := fitPredict(s, X, y, train, test)
	if !ok {
		return 0, false
	}
	var se, ae, hits, ss float64
	ty := make([]float64, len(test))
	for k, i := range test {
		ty[k] = y[i]
	}
	my := mean(ty)
	for k := range test {
		d := pred[k] - ty[k]
		se += d * d
		ae += math.Abs(d)
		ss += (ty[k] - my) * (ty[k] - my)
		p := pred[k]
		if !s.logistic {
			p = math.Round(p)
		}
		if p == ty[k] {
			hits++
		}
	}
	n := float64(len(test))
	switch w.stat {
	case statMSE:
		return se / n, true
	case statRMSE:
		return math.Sqrt(se / n), true
	case statMAE:
		return ae / n, true
	case statR2:
		return 1 - se/ss, true
	case statAccuracy:
		acc := hits / n
		if strings.Contains(strings.ToLower(w.desc), "percent") || strings.Contains(strings.ToLower(w.desc), "between 0 and 100") {
			acc *= 100
		}
		return acc, true
	}
	return 0, false
}

// olsFit is an ordinary least squares fit over every row.
type olsFit struct {
	b, p []float64
	r2   float64
}

func ols(X [][]float64, y []float64, names []string) olsFit {
	b, rinv, ok := lstsq(X, y)
	if !ok {
		return olsFit{r2: math.NaN()}
	}
	n, k := float64(len(y)), len(b)
	my := mean(y)
	var sse, sst float64
	for i := range y {
		z := 0.0
		for j, v := range X[i] {
			z += b[j] * v
		}
		sse += (y[i] - z) * (y[i] - z)
		sst += (y[i] - my) * (y[i] - my)
	}
	fit := olsFit{b: b, r2: 1 - sse/sst}
	df := n - float64(k)
	s2 := sse / df
	for j := 0; j < k; j++ {
		v := 0.0
		for l := 0; l < k; l++ {
			v += rinv[j][l] * rinv[j][l]
		}
		se := math.Sqrt(s2 * v)
		fit.p = append(fit.p, tSF2(b[j]/se, df))
	}
	return fit
}

// regressionR2 is the R-squared of the question's regression over every
// row, for verdicts such as "good fit if R-squared >= 0.7".
func (a *analysis) regressionR2(w *want) (float64, bool) {
	s, ok := a.readModel()
	if !ok || s.logistic {
		return 0, false
	}
	X, y, names, ok := a.design(s, a.clean, s.features)
	if !ok {
		return 0, false
	}
	r := ols(X, y, names).r2
	return r, !math.IsNaN(r)
}

// coefficientFor returns the OLS coefficient and p-value of the feature
// an answer names.
func (a *analysis) coefficientFor(w *want) (float64, float64, bool) {
	s, ok := a.readModel()
	if !ok || s.logistic {
		return 0, 0, false
	}
	X, y, names, ok := a.design(s, a.clean, s.features)
	if !ok {
		return 0, 0, false
	}
	fit := ols(X, y, names)
	if fit.b == nil {
		return 0, 0, false
	}
	for _, c := range w.cols {
		for j, n := range names {
			if n == c {
				return fit.b[j], fit.p[j], true
			}
		}
	}
	return 0, 0, false
}

// testSize reads the share of rows held out for testing (scikit-learn's
// default 0.25 when the text gives none).
func testSize(t string) float64 {
	if m := testSizeRe.FindStringSubmatch(t); m != nil {
		x, _ := parseNumber(m[1])
		return x
	}
	if m := testPctRe.FindStringSubmatch(t); m != nil {
		x, _ := parseNumber(m[1])
		return x / 100
	}
	if m := testSetPctRe.FindStringSubmatch(t); m != nil {
		x, _ := parseNumber(m[1])
		return x / 100
	}
	for _, m := range ratioRe.FindAllStringSubmatch(t, -1) {
		x, _ := parseNumber(m[1])
		y, _ := parseNumber(m[2])
		if x+y == 100 || x+y == 10 {
			return math.Min(x, y) / (x + y)
		}
	}
	if m := trainPctRe.FindStringSubmatch(t); m != nil {
		x, _ := parseNumber(m[1])
		return math.Round((1-x/100)*1e9) / 1e9
	}
	return 0.25
}
