package closedform

import (
	"math"
	"regexp"
	"strings"
)

// corrMethod is the correlation the text asks for.
func (a *analysis) corrMethod() string {
	switch {
	case a.has("spearman"):
		return "spearman"
	case a.has("kendall"):
		return "kendall"
	}
	return "pearson"
}

func correlate(method string, x, y []float64) testResult {
	switch method {
	case "spearman":
		return spearman(x, y)
	case "kendall":
		return kendall(x, y)
	}
	return pearson(x, y)
}

// pairCols returns the two columns a correlation is between: those the
// answer names, else the pair after "between" in the constraints or the
// question, else the first two numeric columns mentioned.
func (a *analysis) pairCols(w *want, f *frame) (string, string, bool) {
	if spec, ok := a.argQuestion(); ok {
		if p, ok := a.strongestPair(spec); ok {
			return p[0], p[1], true
		}
	}
	named := numericCols(f, w.cols)
	if len(named) >= 2 {
		return named[0], named[1], true
	}
	var pool []string
	// "between A and B": the first column of each side
	for _, text := range []string{normalizeText(a.q.Constraints), a.qText} {
		low := strings.ToLower(text)
		for _, m := range betweenRe.FindAllStringSubmatchIndex(low, -1) {
			left := numericCols(f, columnsOf(a.m.find(text[m[2]:m[3]])))
			left = append(a.createdIn(text[m[2]:m[3]]), left...)
			right := numericCols(f, columnsOf(a.m.find(text[m[4]:m[5]])))
			right = append(a.createdIn(text[m[4]:m[5]]), right...)
			if len(left) > 0 && len(right) > 0 && left[0] != right[0] {
				pool = []string{left[0], right[0]}
				break
			}
		}
		if pool != nil {
			break
		}
	}
	for _, text := range []string{normalizeText(a.q.Constraints), a.qText} {
		if pool != nil {
			break
		}
		low := strings.ToLower(text)
		for _, key := range []string{"between", "correlation of", "correlation for", " of "} {
			i := strings.Index(low, key)
			if i < 0 {
				continue
			}
			ms := a.m.find(text[i:])
			cols := numericCols(f, columnsOf(ms))
			cols = append(cols, a.createdIn(text[i:])...)
			if len(cols) >= 2 {
				pool = cols
				break
			}
		}
		if pool != nil {
			break
		}
	}
	if pool == nil {
		pool = numericCols(f, a.primary())
		for _, c := range a.created {
			if !contains(pool, c) {
				pool = append([]string{c}, pool...)
			}
		}
	}
	if len(named) == 1 {
		for _, c := range pool {
			if c != named[0] {
				return named[0], c, true
			}
		}
		return "", "", false
	}
	if len(pool) >= 2 {
		return pool[0], pool[1], true
	}
	return "", "", false
}

var betweenRe = regexp.MustCompile(`between\s+(.{2,80}?)\s+and\s+(.{2,80}?)(?:[.,;?\n]|\s+(?:columns?|variables?|features?|for|in|using|with|is|among|to)\b|$)`)

// createdIn returns the created columns whose names text mentions.
func (a *analysis) createdIn(text string) []string {
	var out []string
	low := strings.ToLower(text)
	for _, c := range a.created {
		if strings.Contains(low, strings.ToLower(c)) {
			out = append(out, c)
		}
	}
	return out
}

// corrFor computes the correlation an answer asks for.
func (a *analysis) corrFor(w *want) (testResult, bool) {
	f := a.frameFor(w)
	f = a.groupFrame(w, f)
	if f == nil {
		return testResult{}, false
	}
	c1, c2, ok := a.pairCols(w, f)
	if !ok {
		return testResult{}, false
	}
	x, y := pairs(f.col(c1).numeric(), f.col(c2).numeric())
	if len(x) < 3 {
		return testResult{}, false
	}
	return correlate(a.corrMethod(), x, y), true
}

// testKind names the hypothesis test an answer's p-value or statistic
// comes from.
func (a *analysis) testKind(w *want) string {
	own := strings.ToLower(strings.Join(w.words, " ") + " " + w.desc)
	for _, t := range []struct{ kind, key string }{
		{"shapiro", "shapiro"}, {"ks", "kolmogorov"}, {"ks", "ks_"}, {"ks", "ks "}, {"normaltest", "normaltest"},
		{"anova", "anova"}, {"ttest", "t-test"}, {"ttest", "ttest"}, {"chi2", "chi"}, {"corr", "correlation"},
		{"levene", "levene"}, {"mannwhitney", "mann"}, {"kruskal", "kruskal"},
	} {
		if strings.Contains(own, t.key) {
			return t.kind
		}
	}
	switch {
	case a.has("shapiro"):
		return "shapiro"
	case a.has("kolmogorov", "ks test", "kstest", "k-s test", "ks_2samp"):
		return "ks"
	case a.has("normaltest", "d'agostino", "dagostino"):
		return "normaltest"
	case a.has("anderson"):
		return "anderson"
	case a.has("mann-whitney", "mann whitney", "mannwhitney"):
		return "mannwhitney"
	case a.has("kruskal"):
		return "kruskal"
	case a.has("levene"):
		return "levene"
	case a.has("anova", "analysis of variance", "f_oneway", "f-test"):
		return "anova"
	case a.has("chi-square", "chi-squared", "chi square", "chi2", "chisquare"):
		return "chi2"
	case a.has("t-test", "ttest", "t test", "welch"):
		return "ttest"
	case a.has("correlat", "pearson", "spearman", "kendall"):
		return "corr"
	case a.has("normal distribution", "normally distributed", "normality"):
		return "shapiro"
	case a.has("regression", "linear model"):
		return "regression"
	}
	return ""
}

// testFor computes the test whose p-value or statistic an answer asks.
func (a *analysis) testFor(w *want) (testResult, bool) {
	kind := a.testKind(w)
	key := "test:" + kind + ":" + w.stage + ":" + strings.Join(w.cols, ",") + ":" + strings.Join(w.rest, ",")
	if v, ok := a.cache[key]; ok {
		r := v.(testResult)
		return r, !math.IsNaN(r.P) || !math.IsNaN(r.Stat)
	}
	r, ok := a.runTest(kind, w)
	if ok {
		a.cache[key] = r
	}
	return r, ok
}

func (a *analysis) runTest(kind string, w *want) (testResult, bool) {
	switch kind {
	case "corr":
		return a.corrFor(w)
	case "shapiro", "ks", "normaltest", "anderson":
		xs, _, ok := a.values(w)
		if !ok || len(xs) < 3 {
			return testResult{}, false
		}
		return a.normality(kind, xs), true
	case "ttest", "anova", "mannwhitney", "kruskal", "levene":
		groups, ok := a.comparisonGroups(w)
		if !ok {
			return testResult{}, false
		}
		switch kind {
		case "ttest":
			if len(groups) != 2 {
				return testResult{}, false
			}
			if a.has("paired", "ttest_rel", "related samples") {
				if len(groups[0]) != len(groups[1]) {
					return testResult{}, false
				}
				return ttestRel(groups[0], groups[1]), true
			}
			equal := !a.has("welch", "unequal variance", "equal_var=false", "not assume equal")
			return ttestInd(groups[0], groups[1], equal), true
		case "mannwhitney":
			if len(groups) != 2 {
				return testResult{}, false
			}
			return mannWhitney(groups[0], groups[1]), true
		case "kruskal":
			return kruskal(groups), true
		case "levene":
			return levene(groups), true
		}
		return anova(groups), true
	case "chi2":
		return a.chiSquare(w)
	case "regression":
		return testResult{}, false
	}
	return testResult{}, false
}

// normality runs the normality test kind over xs.
func (a *analysis) normality(kind string, xs []float64) testResult {
	switch kind {
	case "ks":
		if a.has("standardiz", "z-score", "mean and standard deviation", "estimated parameters", "args=(", "sample mean") {
			return ksNorm(xs, mean(xs), std(xs, 1))
		}
		return ksNorm(xs, 0, 1)
	case "normaltest":
		return normaltest(xs)
	case "anderson":
		return normaltest(xs) // Anderson-Darling has no p-value in scipy; the verdicts agree in practice
	}
	return shapiro(xs)
}
