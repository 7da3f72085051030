package analyze_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/analyze"
	"github.com/quarry-dev/quarry/analysis"
)

// A test the request names by name is planned over the columns it names;
// one named without the columns it needs is refused by the plan's
// validation, saying what it takes, instead of being left out. (A
// chi-square test is symmetric: its columns come in the order read.)
func TestPlanStats(t *testing.T) {
	tables := []analysis.SourceTable{{Name: "passengers", Rows: 100, Columns: []analysis.SourceColumn{
		{Name: "fare", Type: quarry.TypeFloat}, {Name: "age", Type: quarry.TypeFloat},
		{Name: "sex", Type: quarry.TypeString, Values: []string{"female", "male"}},
		{Name: "embarked", Type: quarry.TypeString, Values: []string{"C", "Q", "S"}},
		{Name: "pclass", Type: quarry.TypeInteger},
	}}}
	cases := []struct {
		text string
		step string
		want map[string]any
	}{
		{"t-test of fare by sex", "ttest", map[string]any{"operation": "ttest", "column": "fare", "group_by": []any{"sex"}, "input": "scope"}},
		{"welch t-test of fare by sex", "ttest", map[string]any{"operation": "ttest", "method": "welch", "column": "fare", "group_by": []any{"sex"}, "input": "scope"}},
		{"anova of fare by embarked", "anova", map[string]any{"operation": "anova", "column": "fare", "group_by": []any{"embarked"}, "input": "scope"}},
		{"anova of fare by pclass", "anova", map[string]any{"operation": "anova", "column": "fare", "group_by": []any{"pclass"}, "input": "scope"}},
		{"chi-square test of sex by embarked", "chisquare", map[string]any{"operation": "chisquare", "columns": []any{"embarked", "sex"}, "input": "scope"}},
		{"spearman correlation of fare and age", "correlate", map[string]any{"operation": "correlate", "method": "spearman", "columns": []any{"fare", "age"}, "input": "scope"}},
		{"z-score outliers of fare", "outliers", map[string]any{"operation": "outliers", "method": "zscore", "column": "fare", "input": "scope"}},
		{"impute the median age", "impute", map[string]any{"operation": "impute", "method": "median", "columns": []any{"age"}, "input": "scope"}},
	}
	for _, c := range cases {
		p, err := analyze.Plan(&analysis.Request{Intent: c.text, Constraints: analysis.Constraints{RowLimit: 1000, TimeoutSeconds: 60}}, tables, time.Now())
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		var got map[string]any
		for _, s := range p.Subtasks {
			if s.TaskID == c.step {
				got = s.Arguments
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: step %s = %v; want %v", c.text, c.step, got, c.want)
		}
		if err := p.Validate(analysis.Tools, 60); err != nil {
			t.Errorf("%q: %v", c.text, err)
		}
	}
	p, err := analyze.Plan(&analysis.Request{Intent: "anova of fare", Constraints: analysis.Constraints{RowLimit: 1000, TimeoutSeconds: 60}}, tables, time.Now())
	if err == nil {
		err = p.Validate(analysis.Tools, 60)
	}
	if quarry.ErrorCode(err) != quarry.ECodeInvalid || !strings.Contains(err.Error(), "anova takes column (the values) and group_by") {
		t.Errorf("anova without groups: %v; want INVALID naming what it takes", err)
	}
}
