package analysis_test

import (
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// The statistical operations' arguments are checked before anything runs:
// each case names the message its refusal must carry.
func TestStatArguments(t *testing.T) {
	tool, _ := analysis.Tools.Tool(analysis.ToolDF)
	ok := []map[string]any{
		{"operation": "ttest", "column": "v", "group_by": []any{"g"}},
		{"operation": "ttest", "columns": []any{"a", "b"}, "method": "welch"},
		{"operation": "ttest", "columns": []any{"a", "b"}, "method": "paired"},
		{"operation": "ttest", "column": "v", "method": "one_sample", "value": 3.5},
		{"operation": "anova", "column": "v", "group_by": []any{"g"}},
		{"operation": "chisquare", "columns": []any{"a", "b"}},
		{"operation": "correlate", "columns": []any{"a", "b"}, "method": "spearman"},
		{"operation": "normality", "column": "v", "method": "normaltest"},
		{"operation": "outliers", "column": "v", "method": "zscore", "threshold": 2.5},
		{"operation": "regress", "column": "y", "columns": []any{"x1", "x2"}},
		{"operation": "impute", "columns": []any{"a"}, "method": "median"},
		{"operation": "feature", "name": "f", "expression": "a / b"},
	}
	for _, args := range ok {
		args["input"] = "rows"
		if err := tool.Check(args); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
	bad := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"operation": "ttest", "column": "v"}, "a t-test takes column and group_by"},
		{map[string]any{"operation": "ttest", "column": "v", "method": "one_sample"}, "needs value: the mean to test against"},
		{map[string]any{"operation": "ttest", "columns": []any{"a"}, "method": "paired"}, "paired t-test takes exactly two columns"},
		{map[string]any{"operation": "anova", "column": "v"}, "anova takes column (the values) and group_by"},
		{map[string]any{"operation": "chisquare", "columns": []any{"a", "b", "c"}}, "operation chisquare takes exactly two columns"},
		{map[string]any{"operation": "correlate", "columns": []any{"a", "b"}, "method": "kendall"}, `argument method is "kendall"; want one of pearson, spearman`},
		{map[string]any{"operation": "normality"}, "argument column is required"},
		{map[string]any{"operation": "outliers", "column": "v", "threshold": -1}, "threshold is a positive number"},
		{map[string]any{"operation": "anova", "column": "v", "group_by": []any{"g"}, "threshold": 2}, "for operation outliers only"},
		{map[string]any{"operation": "anova", "column": "v", "group_by": []any{"g"}, "method": "welch"}, "operation anova takes no method"},
		{map[string]any{"operation": "regress", "column": "y"}, "regress needs columns: the predictors"},
		{map[string]any{"operation": "impute"}, "argument columns is required"},
		{map[string]any{"operation": "feature", "name": "f"}, "argument expression is required"},
		{map[string]any{"operation": "feature", "expression": "a"}, "argument name is required"},
		{map[string]any{"operation": "feature", "name": "f", "expression": strings.Repeat("a+", 501)}, "longer than 1000 characters"},
		{map[string]any{"operation": "sort", "columns": []any{"a"}, "method": "mean"}, "operation sort takes no method"},
		{map[string]any{"operation": "sort", "columns": []any{"a"}, "expression": "a"}, "name and expression are for operation feature only"},
	}
	for _, c := range bad {
		c.args["input"] = "rows"
		err := tool.Check(c.args)
		if quarry.ErrorCode(err) != quarry.ECodeInvalid || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v; want INVALID %q", c.args, err, c.want)
		}
	}
}
