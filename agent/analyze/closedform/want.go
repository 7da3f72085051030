package closedform

import (
	"regexp"
	"strings"

	"github.com/quarry-dev/quarry"
)

// want is one requested answer as the format describes it.
type want struct {
	spec  Spec
	ph    string   // the placeholder inside @name[...]
	desc  string   // the format's sentences about this answer
	words []string // the name's words, lower case
	stat  string   // what is asked: one of the stat constants
	cols  []string // columns the name (or its description) names
	rest  []string // name words that are neither stat nor column: groups, stages
	stage string   // "before", "after" or ""
	alts  []string // allowed text values, as written in the format
	q     float64  // the quantile statQuantile asks for
}

// The statistics an answer can ask for.
const (
	statNone     = ""
	statMean     = "mean"
	statMedian   = "median"
	statStd      = "std"
	statVar      = "var"
	statMin      = "min"
	statMax      = "max"
	statRange    = "range"
	statSum      = "sum"
	statCount    = "count"
	statSkew     = "skew"
	statKurt     = "kurt"
	statMode     = "mode"
	statCorr     = "corr"
	statP        = "p"
	statTest     = "statistic"
	statPct      = "pct"
	statDecision = "decision"
	statMSE      = "mse"
	statRMSE     = "rmse"
	statMAE      = "mae"
	statR2       = "r2"
	statAccuracy = "accuracy"
	statSlope    = "slope"
	statInter    = "intercept"
	statQ1       = "q1"
	statQ3       = "q3"
	statIQR      = "iqr"
	statFirst    = "first"
	statList     = "list"
	statName     = "name" // a label: which column, country, ...
	statQuantile = "quantile"
)

// statWords maps name words to the statistic they ask for; the first
// match in a name wins, except that specific words beat generic ones.
var statWords = map[string]string{
	"mean": statMean, "average": statMean, "avg": statMean, "mu": statMean,
	"median": statMedian,
	"std":    statStd, "sd": statStd, "stdev": statStd, "stddev": statStd, "deviation": statStd, "dev": statStd, "sigma": statStd,
	"variance": statVar, "var": statVar,
	"min": statMin, "minimum": statMin, "lowest": statMin, "smallest": statMin,
	"max": statMax, "maximum": statMax, "highest": statMax, "largest": statMax,
	"range": statRange,
	"sum":   statSum,
	"count": statCount, "number": statCount, "num": statCount, "counts": statCount, "n": statCount, "entries": statCount,
	"skew": statSkew, "skewness": statSkew,
	"kurt": statKurt, "kurtosis": statKurt,
	"mode":        statMode,
	"correlation": statCorr, "corr": statCorr, "coefficient": statCorr, "coeff": statCorr, "pearson": statCorr,
	"spearman": statCorr, "kendall": statCorr, "r": statCorr, "tau": statCorr, "rho": statCorr,
	"p": statP, "pvalue": statP, "pval": statP,
	"statistic": statTest, "stat": statTest, "w": statTest, "chi": statTest, "f": statTest, "t": statTest, "u": statTest,
	"percentage": statPct, "percent": statPct, "pct": statPct, "proportion": statPct,
	"mse": statMSE, "rmse": statRMSE, "mae": statMAE, "r2": statR2, "accuracy": statAccuracy,
	"slope": statSlope, "intercept": statInter, "iqr": statIQR, "q1": statQ1, "q3": statQ3,
}

// decisionWords make a text answer a verdict rather than a value.
var decisionWords = map[string]bool{"is": true, "normal": true, "normality": true, "distribution": true,
	"relationship": true, "significance": true, "significant": true, "type": true, "result": true, "status": true,
	"decision": true, "strength": true, "fit": true, "different": true, "difference": true, "test": true, "skewed": true,
	"correlated": true, "linear": true, "has": true, "trend": true, "handled": true, "dist": true}

var placeholderRe = regexp.MustCompile(`@([\p{L}\p{N}_]+)\[([^\]\n]*)\]?`)

// readWants builds the wants of specs from the format.
func readWants(format string, specs []Spec) []*want {
	format = strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(format)
	phs := map[string]string{}
	for _, m := range placeholderRe.FindAllStringSubmatch(format, -1) {
		if _, ok := phs[m[1]]; !ok {
			phs[m[1]] = m[2]
		}
	}
	// sentences of the format outside the tokens
	bare := placeholderRe.ReplaceAllStringFunc(format, func(s string) string { return strings.Repeat(" ", len(s)) })
	sentences := splitSentences(bare)
	var out []*want
	for _, s := range specs {
		w := &want{spec: s, ph: phs[s.Name]}
		w.words = nameWords(s.Name)
		var desc []string
		nameRe := regexp.MustCompile(`(?i)(^|[^\pL\pN_])` + quarry.QuoteRegexp(s.Name) + `($|[^\pL\pN_])`)
		var phRe *regexp.Regexp
		if p := strings.Trim(w.ph, ` "'`); p != "" && len(p) < 60 {
			if strings.ContainsAny(p, "_ ") || len(p) > 12 || !commonPlaceholder[strings.ToLower(p)] {
				phRe = regexp.MustCompile(`(?i)(^|[^\pL\pN_])` + quarry.QuoteRegexp(p) + `($|[^\pL\pN_])`)
			} else {
				phRe = regexp.MustCompile(`(?i)["'“‘]` + quarry.QuoteRegexp(p) + `["'”’]`)
			}
		}
		for _, sent := range sentences {
			if nameRe.MatchString(sent) || phRe != nil && phRe.MatchString(sent) {
				desc = append(desc, sent)
			}
		}
		w.desc = strings.Join(desc, " ")
		w.alts = alternatives(w.ph, w.desc, phs)
		out = append(out, w)
	}
	return out
}

func splitSentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		end := c == '\n' || c == ';'
		if c == '.' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n') && !(i > 0 && s[i-1] >= '0' && s[i-1] <= '9' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9') {
			end = true
		}
		if end {
			if t := strings.TrimSpace(s[start:i]); t != "" {
				out = append(out, t)
			}
			start = i + 1
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// commonPlaceholder are placeholders that are ordinary words: they
// identify an answer's description only when quoted.
var commonPlaceholder = map[string]bool{"value": true, "number": true, "count": true, "mean": true, "string": true,
	"float": true, "integer": true, "answer": true, "result": true, "name": true, "type": true, "status": true,
	"p_value": false, "median": true, "std": true, "ratio": true, "percentage": true, "boolean": true, "list": true}

var quotedRe = regexp.MustCompile(`"([^"\n]{1,60})"|'([^'\n]{1,60})'|“([^”\n]{1,60})”|‘([^’\n]{1,60})’`)

// alternatives are the text values a format allows for an answer: the
// quoted strings of its description that are not names or placeholders,
// or the parts of a placeholder such as yes/no.
func alternatives(ph, desc string, phs map[string]string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		s = strings.TrimSpace(s)
		if s == "" || seen[s] {
			return
		}
		seen[s] = true
		out = append(out, s)
	}
	isName := func(s string) bool {
		for n, p := range phs {
			if strings.EqualFold(s, n) || strings.EqualFold(s, strings.Trim(p, `"' `)) {
				return true
			}
		}
		return false
	}
	for _, m := range quotedRe.FindAllStringSubmatch(ph+" "+desc, -1) {
		v := m[1] + m[2] + m[3] + m[4]
		if isName(v) || strings.ContainsAny(v, "[]@") {
			continue
		}
		add(v)
	}
	if len(out) >= 2 {
		return out
	}
	p := strings.Trim(ph, `"' `)
	if i := strings.Index(p, "("); i >= 0 && strings.HasSuffix(p, ")") {
		p = p[i+1 : len(p)-1]
	}
	if strings.Contains(p, "/") && !strings.Contains(p, " /") {
		out = nil
		for _, part := range strings.Split(p, "/") {
			add(part)
		}
		return out
	}
	return out
}
