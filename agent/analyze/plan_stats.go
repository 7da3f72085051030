package analyze

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/intent"
)

// stats plans the statistical tests a request names (a t-test, an ANOVA,
// a chi-square test, a Pearson or Spearman correlation, a normality test,
// outliers, imputation) as df.transform steps over the rows in scope. A
// test's columns come from what the request named: the measures' columns
// are its values, the grouping (or a filter to a few values) its groups.
// A test named without the columns it needs still gets its step, with
// the arguments that were understood, so that the plan's validation
// refuses the request saying what the test takes, rather than answering
// without it.
func (b *planBuilder) stats() {
	kinds := []string{intent.AnalysisTTest, intent.AnalysisWelch, intent.AnalysisANOVA, intent.AnalysisChiSquare,
		intent.AnalysisCorrelation, intent.AnalysisPearson, intent.AnalysisSpearman, intent.AnalysisNormality, intent.AnalysisOutliers,
		intent.AnalysisZScore, intent.AnalysisImputation}
	if !b.has(kinds...) {
		return
	}
	numeric, text := b.statColumns()
	if len(numeric) != 2 && !b.has(slices.DeleteFunc(slices.Clone(kinds), func(k string) bool { return k == intent.AnalysisCorrelation })...) {
		return // a correlation of other than two columns: reported by unapplied
	}
	group := b.statGroup(numeric)
	scope := b.scopeStep()
	step := func(id, desc string, args map[string]any) {
		args["input"] = scope
		b.add(analysis.Subtask{TaskID: id, ToolName: analysis.ToolDF, Description: desc + b.scopeText(), Dependencies: []string{scope},
			Arguments: args, Deliverable: analysis.DeliverTables, EstimatedCostSeconds: b.cost(0.3)})
	}
	if b.has(intent.AnalysisTTest, intent.AnalysisWelch) {
		args := map[string]any{"operation": analysis.OpTTest}
		if b.has(intent.AnalysisWelch) {
			args["method"] = "welch"
		}
		switch {
		case len(numeric) >= 1 && group != "":
			args["column"], args["group_by"] = numeric[0], []any{group}
		case len(numeric) == 2:
			args["columns"] = []any{numeric[0], numeric[1]}
		}
		step("ttest", "t-test of "+describeArgs(args), args)
	}
	if b.has(intent.AnalysisANOVA) {
		args := map[string]any{"operation": analysis.OpANOVA}
		if len(numeric) >= 1 && group != "" {
			args["column"], args["group_by"] = numeric[0], []any{group}
		}
		step("anova", "ANOVA of "+describeArgs(args), args)
	}
	if b.has(intent.AnalysisChiSquare) {
		args := map[string]any{"operation": analysis.OpChiSquare}
		if len(text) == 2 {
			args["columns"] = []any{text[0], text[1]}
		}
		step("chisquare", "Chi-square test of independence of "+describeArgs(args), args)
	}
	if b.has(intent.AnalysisPearson, intent.AnalysisSpearman) || b.has(intent.AnalysisCorrelation) && len(numeric) == 2 {
		args := map[string]any{"operation": analysis.OpCorrelate}
		if len(numeric) == 2 {
			args["columns"] = []any{numeric[0], numeric[1]}
		}
		if b.has(intent.AnalysisSpearman) {
			args["method"] = "spearman"
		}
		step("correlate", "Correlation of "+describeArgs(args), args)
	}
	one := func(id, desc string, args map[string]any) {
		if len(numeric) == 1 {
			args["column"] = numeric[0]
		}
		step(id, desc+describeArgs(args), args)
	}
	if b.has(intent.AnalysisNormality) {
		one("normality", "Shapiro-Wilk test of ", map[string]any{"operation": analysis.OpNormality})
	}
	if b.has(intent.AnalysisOutliers, intent.AnalysisZScore) && len(numeric) <= 1 {
		args := map[string]any{"operation": analysis.OpOutliers}
		if b.has(intent.AnalysisZScore) {
			args["method"] = "zscore"
		}
		one("outliers", "Outliers of ", args)
	}
	if b.has(intent.AnalysisImputation) {
		args := map[string]any{"operation": analysis.OpImpute}
		var cols []any
		for _, m := range b.in.Measures {
			if m.Column != "" && m.Since == "" && !slices.Contains(cols, any(m.Column)) {
				cols = append(cols, m.Column)
			}
		}
		if len(cols) > 0 {
			args["columns"] = cols
		}
		// The fill is the statistic the request named; a request that
		// names none is not guessed at (mean, median and mode give
		// different answers).
		switch agg := b.in.Measures; {
		case len(agg) > 0 && agg[0].Agg == "median":
			args["method"] = "median"
		case len(agg) > 0 && agg[0].Agg == "avg":
			args["method"] = "mean"
		default:
			args["method"] = "(not named)"
		}
		step("impute", "Missing values of "+describeArgs(args)+" filled in", args)
	}
}

// statColumns are the columns the request named, in the order named:
// numeric, the measures that hold numbers; text, the groupings (of any
// type: "by Pclass" groups by its values) and the text measures.
func (b *planBuilder) statColumns() (numeric, text []string) {
	add := func(name string, group bool) {
		for _, c := range b.table.Columns {
			if !strings.EqualFold(c.Name, name) || slices.Contains(numeric, c.Name) || slices.Contains(text, c.Name) {
				continue
			}
			switch {
			case group:
				text = append(text, c.Name)
			case c.Type == quarry.TypeInteger || c.Type == quarry.TypeFloat:
				numeric = append(numeric, c.Name)
			case c.Type == quarry.TypeString || c.Type == quarry.TypeBoolean:
				text = append(text, c.Name)
			}
		}
	}
	for _, m := range b.in.Measures {
		if m.Times != "" || m.Per != "" || m.Over != "" || m.Since != "" {
			continue // "gdp per capita" is no column: a test of gdp would answer another question
		}
		add(m.Column, false)
	}
	for _, g := range b.in.GroupBy {
		if g.Grain == "" {
			add(g.Column, true)
		}
	}
	for _, f := range b.in.Filters {
		if f.Op == "in" && len(f.Values) >= 2 {
			add(f.Column, true)
		}
	}
	return numeric, text
}

// statGroup is the column whose values are a test's groups: the first
// grouping that is not a measured column, or else a filter to two or
// more values ("male and female passengers").
func (b *planBuilder) statGroup(numeric []string) string {
	for _, g := range b.in.GroupBy {
		if g.Grain == "" && !slices.Contains(numeric, g.Column) {
			return g.Column
		}
	}
	for _, f := range b.in.Filters {
		if f.Op == "in" && len(f.Values) >= 2 && !slices.Contains(numeric, f.Column) {
			return f.Column
		}
	}
	return ""
}

// scopeStep is the step holding the rows in scope, which the tests read:
// the database's rows already filtered, or a query of the table with the
// request's filters.
func (b *planBuilder) scopeStep() string {
	if slices.ContainsFunc(b.steps, func(t analysis.Subtask) bool { return t.TaskID == "scope" }) {
		return "scope"
	}
	b.add(analysis.Subtask{TaskID: "scope", ToolName: analysis.ToolSQL, Description: "Rows in scope" + b.scopeText(), Dependencies: slices.Clone(b.deps),
		Arguments:            map[string]any{"query": fmt.Sprintf("SELECT %s FROM %s%s", b.star(), b.from, b.where)},
		EstimatedCostSeconds: b.cost(0.3)})
	return "scope"
}

// describeArgs names a test's columns for its step's description.
func describeArgs(args map[string]any) string {
	var parts []string
	if c, ok := args["column"].(string); ok {
		parts = append(parts, c)
	}
	if cs, ok := args["columns"].([]any); ok {
		for _, c := range cs {
			parts = append(parts, fmt.Sprint(c))
		}
	}
	s := strings.Join(parts, " and ")
	if g, ok := args["group_by"].([]any); ok && len(g) == 1 {
		s += fmt.Sprint(" by ", g[0])
	}
	if s == "" {
		return "the columns named"
	}
	return s
}
