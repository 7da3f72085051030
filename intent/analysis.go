package intent

import "slices"

// The kinds of statistical test a request can ask for by name, each
// planned as the df.transform operation of the same name.
const (
	AnalysisTTest      = "ttest"     // Student's t-test of two groups' means
	AnalysisWelch      = "welch"     // Welch's t-test (unequal variances)
	AnalysisANOVA      = "anova"     // one-way ANOVA across groups
	AnalysisChiSquare  = "chisquare" // chi-square test of independence
	AnalysisPearson    = "pearson"   // Pearson correlation with its p-value
	AnalysisSpearman   = "spearman"  // Spearman rank correlation with its p-value
	AnalysisZScore     = "zscore"    // outliers by z-score rather than IQR
	AnalysisImputation = "impute"    // missing values filled in
)

// analysisPhrases map the words of a request to kinds of analysis.
var analysisPhrases = map[string][]string{
	AnalysisTTest: {"t test", "t tests", "ttest", "ttests", "ttest_ind", "student t test", "students t test",
		"two sample t test", "independent t test", "independent samples t test", "significance test"},
	AnalysisWelch: {"welch", "welch t test", "welchs t test", "welch test", "unequal variances", "unequal variance"},
	AnalysisANOVA: {"anova", "analysis of variance", "one way anova", "f test", "f_oneway"},
	AnalysisChiSquare: {"chi square", "chi squared", "chi2", "chi2_contingency", "chi square test", "test of independence",
		"independence test", "contingency test"},
	AnalysisPearson: {"pearson", "pearsonr", "pearson correlation", "pearson correlation coefficient",
		"pearson coefficient", "correlation coefficient"},
	AnalysisSpearman: {"spearman", "spearmanr", "spearman correlation", "spearman rank correlation",
		"rank correlation"},
	AnalysisZScore: {"z score", "z scores", "zscore", "zscores", "standard score", "standard scores"},
	AnalysisImputation: {"impute", "imputed", "imputation", "imputing", "fillna", "fill missing values",
		"fill the missing values", "fill in missing values", "fill in the missing values", "fill missing",
		"fill nulls", "fill null values", "replace missing values", "replace the missing values"},
	AnalysisTrend: {"trend", "trends", "trending", "trendline", "over time", "time series", "timeseries", "evolution",
		"trajectory", "seasonality", "seasonal", "how has", "over the period"},
	AnalysisChart: {"chart", "charts", "charted", "plot", "plots", "plotted", "graph", "graphs", "graphed", "visualize",
		"visualise", "visualization", "visualisation", "visualizations", "visualisations", "visual", "visuals",
		"dashboard", "draw", "diagram", "bar chart", "line chart", "pie chart", "scatter plot", "scatterplot", "scatter"},
	AnalysisDistribution: {"distribution", "distributions", "distributed", "spread", "dispersion", "density",
		"box plot", "boxplot", "quantiles", "percentiles", "quartiles"},
	AnalysisHistogram: {"histogram", "histograms", "hist", "binned", "bins"},
	AnalysisCorrelation: {"correlation between", "correlations between", "correlation coefficient between",
		"correlation of", "correlation", "correlations", "corr between", "corr of", "corr", "correl", "correlate", "correlates", "correlated", "correlating",
		"relationship between", "relationships between", "relation between", "relationship", "association between",
		"associated with", "association", "scatter plot", "scatterplot", "scatter", "relate to", "related to"},
	AnalysisOutliers: {"outlier", "outliers", "anomaly", "anomalies", "anomalous", "unusual", "extreme values",
		"spikes", "spike", "abnormal", "odd values"},
	AnalysisSummary: {"summary", "summaries", "summarize", "summarise", "summary statistics", "summary stats",
		"descriptive statistics", "descriptive stats", "describe", "description", "overview", "profile", "profiling",
		"statistics", "stats", "key figures", "key numbers", "kpis", "kpi", "snapshot", "at a glance"},
	AnalysisNormality: {"normality", "normally distributed", "normal distribution", "shapiro", "shapiro wilk",
		"gaussian", "bell curve", "bell shaped", "q q plot", "qq plot", "qq", "is it normal", "normal"},
	AnalysisRegression: {"regression", "regressions", "regress", "linear fit", "line of best fit", "best fit",
		"linear model", "fit a line", "ols", "least squares", "predict", "prediction", "predictors"},
	AnalysisMissing: {"missing values", "missing data", "missing", "nulls", "null values", "null", "nans", "nan",
		"completeness", "blanks", "blank values", "empty values", "data quality", "gaps"},
	AnalysisGrowth: {"growth", "grow", "grew", "growing", "change", "changes", "changed", "changing", "increase",
		"increases", "increased", "increasing", "decline", "declines", "declined", "declining", "decrease", "decreased",
		"decreasing", "drop", "dropped", "drops", "fell", "fall", "rise", "rose", "rising", "delta", "% change",
		"percent change", "percentage change", "growth rate", "cagr", "momentum", "up or down", "gain", "gains", "gained",
		"improvement", "improved", "by what factor", "what factor"},
	AnalysisShare: {"share", "shares", "percentage of total", "percent of total", "% of total", "share of total",
		"mix", "contribution", "contributions", "contribute", "contributes", "proportion", "proportions",
		"pie chart", "pie", "fraction of total", "part of total", "composition", "split between", "percentage of",
		"percent of", "% of", "pct of", "perc of", "proportion of", "fraction of", "what percentage", "what share", "what fraction",
		"how much of", "account for", "accounts for", "accounted for"},
}

// analysisOrder lists the kinds in a fixed order, so that a phrase two
// kinds share ("scatter plot", "pie chart") is read the same way every
// time.
var analysisOrder = []string{AnalysisNormality, AnalysisChart, AnalysisTrend, AnalysisDistribution,
	AnalysisHistogram, AnalysisCorrelation, AnalysisOutliers, AnalysisSummary, AnalysisRegression, AnalysisMissing,
	AnalysisGrowth, AnalysisShare, AnalysisTTest, AnalysisWelch, AnalysisANOVA, AnalysisChiSquare, AnalysisPearson,
	AnalysisSpearman, AnalysisZScore, AnalysisImputation}

// analyses reads the kinds of analysis asked for. A phrase may name two
// ("scatter plot": correlation and chart; "pie chart": share and chart).
// A word that is also a column's exact name is left for the column.
func (p *parser) analyses() error {
	for i := 0; i < len(p.toks); i++ {
		best, kinds := 0, []string(nil)
		for _, kind := range analysisOrder {
			_, n := p.anyPhrase(i, analysisPhrases[kind])
			switch {
			case n == 0 || n < best:
			case n > best:
				best, kinds = n, []string{kind}
			default:
				kinds = append(kinds, kind)
			}
		}
		if best == 0 {
			if shareWords[p.low(i)] && p.toks[i].kind != kQuoted && (p.startsValue(i+1) || p.flagWord(i+1)) {
				// "% married", "pct female", "fraction non-billable": the
				// share of the rows the value picks
				p.addAnalysis(i, p.src(i, i+1), AnalysisShare)
				p.akind[i] = AnalysisShare
				p.bareShare = true
				p.use(i, i+1)
			}
			continue
		}
		if best == 1 {
			if c, _, s := p.colAt(i, prefAny); c != nil && s == mExact {
				continue
			}
			if p.low(i) == "normal" && p.low(i-1) != "is" && p.low(i+1) != "distribution" && p.low(i-1) != "look" {
				continue // "normal" alone is too common a word
			}
			if (p.low(i) == "profile" || p.low(i) == "description") && p.low(i-1) == "customer" {
				continue
			}
			if _, n := p.anyPhrase(i+1, keys(comparators)); n > 0 && slices.Contains(kinds, AnalysisGrowth) {
				if _, m, _ := p.number(i + 1 + n); m > 0 {
					continue // "the low dropped below 0": a condition's verb, not a change
				}
			}
			if (p.low(i) == "share" || p.low(i) == "shares") && (p.low(i+1) == "price" || p.low(i+1) == "prices" || p.low(i+1) == "value") {
				continue // "share price": a stock's, not a share of a total
			}
		}
		src := p.src(i, i+best)
		for _, k := range kinds {
			p.addAnalysis(i, src, k)
			p.akind[i+best-1] = k
		}
		p.use(i, i+best)
		i += best - 1
	}
	return nil
}

// flagWord reports whether the word at i (or after "non-") names a text
// flag column of the chosen table: "billable" of billable Y/N.
func (p *parser) flagWord(i int) bool {
	if p.t == nil {
		return false
	}
	if p.low(i) == "non" || p.low(i) == "not" {
		i = p.skip(i+1, "-")
	}
	if !p.free(i) || p.toks[i].kind != kWord {
		return false
	}
	c, _ := p.flagNamed(i)
	return c != nil && isText(c) // a 0/1 column's percentage is its average: flagPercent's
}

// addAnalysis adds a kind of analysis once.
func (p *parser) addAnalysis(pos int, src, kind string) {
	if slices.Contains(p.in.Analyses, kind) {
		return
	}
	p.in.Analyses = append(p.in.Analyses, kind)
	p.understood(pos, src+" -> "+kind, src+" ("+kind+")")
}
