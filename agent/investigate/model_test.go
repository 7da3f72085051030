package investigate

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/llm"
)

// TestWorkingMemoryStaysInBudget fills every part of the working memory far
// past the budget and checks that what the model gets stays within ~6000
// tokens while keeping the objective, every hypothesis and the last 10
// findings.
func TestWorkingMemoryStaysInBudget(t *testing.T) {
	r := &run{
		in: Input{Context: investigation.Context{MetricSQL: "SELECT SUM(amount) FROM orders",
			BusinessContext: strings.Repeat("context ", 2000), InvestigationPrompt: "Why did revenue fall?"}},
		metric: &investigation.Metric{Kind: investigation.MetricSum, Numerator: "sum(amount)", TimeColumn: "orders.day"},
	}
	for i := 1; i <= 7; i++ {
		r.hyps = append(r.hyps, &investigation.Hypothesis{HypothesisID: fmt.Sprintf("hyp_%03d", i), Title: "a hypothesis", Status: investigation.HypRuledOut, Verdict: strings.Repeat("why ", 20)})
	}
	for i := 1; i <= 14; i++ {
		r.ledger.Findings = append(r.ledger.Findings, investigation.Finding{FindingID: fmt.Sprintf("find_%03d", i), Iteration: i, Summary: strings.Repeat("finding ", 60)})
	}
	var cols []quarry.Column
	for i := 0; i < 200; i++ {
		cols = append(cols, quarry.Column{Name: fmt.Sprintf("column_%d", i), DataType: "string", InferredType: quarry.RoleDimension, SampleValues: []string{"a", "b", "c"}})
	}
	r.model.Tables = []investigation.TableInfo{{Name: "orders", RowCount: 1000, Columns: cols}}
	r.iterations = []investigation.IterationLog{{Iteration: 14, RawOutput: strings.Repeat("x | 1.5 | 2.5\n", 100000)}}

	mem := r.workingMemory(nil)
	if n := llm.EstimateTokens(mem); n > workingMemoryBudget {
		t.Errorf("working memory is %d tokens; budget %d", n, workingMemoryBudget)
	}
	for _, want := range []string{"# Objective", "hyp_007 [RULED_OUT]", "find_005", "find_014", "# Last result (iteration 14)", "[cut to fit the working memory]"} {
		if !strings.Contains(mem, want) {
			t.Errorf("working memory lacks %q", want)
		}
	}
	if strings.Contains(mem, "find_004 ") {
		t.Errorf("working memory keeps find_004; want only the last %d findings", maxFindingsInMemory)
	}
}

func TestSQLCategory(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{quarry.Errorf(quarry.ECodeInvalid, "the query does not parse: syntax error at or near \"FORM\""), catSyntax},
		{quarry.Errorf(quarry.ECodeInvalid, "Binder Error: Referenced column \"app_versoin\" not found in FROM clause!"), catMissingColumn},
		{quarry.Errorf(quarry.ECodeInvalid, "Catalog Error: Table with name sales does not exist!"), catMissingTable},
		{quarry.Errorf(quarry.ECodeInvalid, "Conversion Error: Could not convert string 'abc' to INT32"), catTypeMismatch},
		{quarry.Errorf(quarry.ECodeInvalid, "Binder Error: No function matches the given name and argument types 'sum(VARCHAR)'"), catTypeMismatch},
		{quarry.Errorf(quarry.ECodeInvalid, "query did not finish within 1m0s"), catResourceLimit},
		{quarry.Errorf(quarry.ECodeInvalid, "query returned more than 1000000 rows"), catResourceLimit},
		{quarry.Errorf(quarry.ECodeForbidden, "only read-only SELECT statements are allowed"), catForbidden},
		{errors.New("something else"), catOther},
	}
	for _, tt := range tests {
		if got := sqlCategory(tt.err); got != tt.want {
			t.Errorf("sqlCategory(%v) = %q; want %q", tt.err, got, tt.want)
		}
	}
}
