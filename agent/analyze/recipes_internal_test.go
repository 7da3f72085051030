package analyze

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/intent"
	"github.com/quarry-dev/quarry/sqlite"
)

// modelRecipe makes a model's recipe of one query, as remember keeps it.
func modelRecipe(t *testing.T, query string, slots []analysis.RecipeSlot) analysis.Recipe {
	t.Helper()
	steps := parameterize([]analysis.Subtask{{TaskID: "by_product", Description: "Amount by product", ToolName: analysis.ToolSQL,
		Arguments: map[string]any{"query": query}}}, slots)
	if steps == nil {
		t.Fatalf("no template of %s", query)
	}
	return analysis.Recipe{RecipeID: "r1", PlanStructure: analysis.RecipePlan{Subtasks: steps, Planner: "model", Slots: slots}}
}

// A model's template takes a changed slot only where nothing of the old
// value is left in it, and never swaps a number; it says which slot
// stopped it.
func TestRefillRefusesWhatItCannotSwap(t *testing.T) {
	texas := []analysis.RecipeSlot{{Name: "group_1", Kind: analysis.SlotColumn, Value: "product"}, {Name: "filter_1", Kind: analysis.SlotValue, Value: "Texas"}}
	nevada := []analysis.RecipeSlot{{Name: "group_1", Kind: analysis.SlotColumn, Value: "product"}, {Name: "filter_1", Kind: analysis.SlotValue, Value: "Nevada"}}
	for _, c := range []struct {
		query string
		slots []analysis.RecipeSlot
		now   []analysis.RecipeSlot
		want  string // "" when it fills
	}{
		{"SELECT product, sum(amount) FROM t WHERE state = 'Texas' GROUP BY 1", texas, nevada, ""},
		// The model compared lower-case text: the old value is still there.
		{"SELECT product, sum(amount) FROM t WHERE state = 'Texas' OR lower(state) = 'texas' GROUP BY 1", texas, nevada,
			`filter value differs (Nevada vs Texas) and the recipe's plan still reads "texas" elsewhere`},
		// The model left the filter out: filling would change nothing.
		{"SELECT product, sum(amount) FROM t GROUP BY 1", texas, nevada, "filter value differs (Nevada vs Texas) and the recipe's plan does not use it"},
		{"SELECT product, sum(amount) FROM t WHERE amount > 100 GROUP BY 1",
			[]analysis.RecipeSlot{{Name: "group_1", Kind: analysis.SlotColumn, Value: "product"}, {Name: "filter_1", Kind: analysis.SlotNumber, Value: "100"}},
			[]analysis.RecipeSlot{{Name: "group_1", Kind: analysis.SlotColumn, Value: "product"}, {Name: "filter_1", Kind: analysis.SlotNumber, Value: "50"}},
			"filter value differs (50 vs 100) and a number in the recipe's SQL is not swapped"},
		{"SELECT product, sum(amount) FROM t GROUP BY 1",
			[]analysis.RecipeSlot{{Name: "group_1", Kind: analysis.SlotColumn, Value: "product"}},
			[]analysis.RecipeSlot{{Name: "group_1", Kind: analysis.SlotColumn, Value: "Cost Total $"}},
			"grouping differs (Cost Total $ vs product) and only plain column names are swapped"},
		// The model spelled the year as the period's label in SQL.
		{"SELECT product, sum(amount) FROM t WHERE year(order_date) = 2020 GROUP BY 1",
			[]analysis.RecipeSlot{{Name: "group_1", Kind: analysis.SlotColumn, Value: "product"}, {Name: "period_label", Kind: analysis.SlotLabel, Value: "2020"}},
			[]analysis.RecipeSlot{{Name: "group_1", Kind: analysis.SlotColumn, Value: "product"}, {Name: "period_label", Kind: analysis.SlotLabel, Value: "Q1 2021"}},
			"period differs (Q1 2021 vs 2020) and the recipe's SQL spells the period by its label"},
		// One value stood for two slots; the new request splits them.
		{"SELECT state, sum(amount) FROM t WHERE state <> '' GROUP BY 1",
			[]analysis.RecipeSlot{{Name: "group_1", Kind: analysis.SlotColumn, Value: "state"}, {Name: "filter_1_column", Kind: analysis.SlotColumn, Value: "state"}},
			[]analysis.RecipeSlot{{Name: "group_1", Kind: analysis.SlotColumn, Value: "product"}, {Name: "filter_1_column", Kind: analysis.SlotColumn, Value: "state"}},
			"grouping differs (product vs state) and the recipe's plan used one value for it and the filter column"},
	} {
		rc := modelRecipe(t, c.query, c.slots)
		steps, why := refill(rc, c.now)
		if why != c.want || (steps == nil) != (c.want != "") {
			t.Errorf("%s: %q; want %q", c.query, why, c.want)
			continue
		}
		if steps != nil {
			if q := steps[0].Arguments["query"].(string); strings.Contains(q, "Texas") || !strings.Contains(q, "'Nevada'") {
				t.Errorf("filled query %s", q)
			}
		}
	}
}

// remember keeps a completed analysis and nothing else: not one that
// asked for clarification, failed, ended partial_success, was a replay
// or read a request with words it did not understand.
func TestRememberOnlyCompleted(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.OpenRecipes(filepath.Join(t.TempDir(), "recipe_memory.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	tables := []analysis.SourceTable{{Name: "orders", Rows: 3, Columns: []analysis.SourceColumn{
		{Name: "state", Type: "string", Values: []string{"Nevada", "Texas"}}, {Name: "amount", Type: "float"}}}}
	in, err := parseIntent("total amount by state", tables, time.Now())
	if err != nil || len(in.Unparsed) > 0 {
		t.Fatalf("%+v %v", in, err)
	}
	unknown := *in
	unknown.Unparsed = []string{"frobnicated"}
	plan := &analysis.Plan{Subtasks: []analysis.Subtask{{TaskID: "profile", ToolName: analysis.ToolProfile, Description: "Summary statistics",
		Arguments: map[string]any{"table": "orders"}}}}
	for _, c := range []struct {
		name   string
		status string
		res    analysis.Result
		in     *intent.Intent
		how    string
		kept   bool
	}{
		{"clarification", analysis.StatusCompleted, analysis.Result{Clarification: &analysis.Clarification{Understood: []string{"amount"}}}, in, "offline", false},
		{"failed", analysis.StatusFailed, analysis.Result{}, in, "offline", false},
		{"partial", analysis.StatusPartialSuccess, analysis.Result{}, in, "offline", false},
		{"replay", analysis.StatusCompleted, analysis.Result{}, in, "replay", false},
		{"unknown word", analysis.StatusCompleted, analysis.Result{}, &unknown, "offline", false},
		{"completed", analysis.StatusCompleted, analysis.Result{}, in, "offline", true},
	} {
		res := c.res
		r := &run{a: &Analyzer{Recipes: store, Now: time.Now}, req: &analysis.Request{Status: c.status}, res: &res, tables: tables, plan: plan}
		r.remember(ctx, c.in, c.how)
		all, _ := store.List(ctx)
		if kept := len(all) == 1; kept != c.kept {
			t.Errorf("%s: kept %v; want %v", c.name, kept, c.kept)
		}
	}
}

// Every part of a parsed request is in its shape or its slots: a request
// with all of them set leaves nothing over.
func TestRestOfAKnownRequestIsEmpty(t *testing.T) {
	tr := &intent.TimeRange{Column: "order_date", Start: "2020-01-01", End: "2021-01-01", Label: "2020"}
	in := &intent.Intent{Text: "x", Table: "orders", Measures: []intent.Measure{{Column: "amount", Agg: "sum"}},
		Filters: []intent.Filter{{Column: "state", Op: "=", Values: []string{"Texas"}}}, Time: tr, Compare: tr,
		GroupBy: []intent.Group{{Column: "order_date", Grain: "month"}}, Top: &intent.TopN{N: 3, Column: "product", Desc: true},
		Analyses: []string{intent.AnalysisTrend}, Understood: []string{"x"}, Unparsed: []string{"y"}, Unknown: []intent.Unknown{{Word: "y"}}}
	if rest := restOf(in); rest != "" {
		t.Errorf("restOf = %s; want nothing over", rest)
	}
}

// FuzzRefill: whatever the model's query and the values, a template
// gives back the plan it was made from with the old slots, and a template
// that takes new slots keeps nothing of a changed old value outside the
// new values: a reused recipe never answers with the old slots.
func FuzzRefill(f *testing.F) {
	f.Add("SELECT product, sum(amount) FROM t WHERE state = 'Texas' GROUP BY 1", "product", "category", "Texas", "Nevada")
	f.Add("SELECT product, sum(amount) FROM t WHERE lower(state) = 'texas' OR state = 'Texas' GROUP BY 1", "product", "product", "Texas", "Nevada")
	f.Add("SELECT state, count(*) FROM t WHERE state <> 'state' GROUP BY state", "state", "product", "state", "New York")
	f.Add("SELECT \"Cost Total $\" FROM t WHERE x = 'O''Brien'", "Cost Total $", "cost", "O'Brien", "{filter_1}")
	f.Add("SELECT Product, amount FROM step_by_product WHERE state = 'Texas' -- Product", "product", "category", "Texas", "Nevada")
	f.Fuzz(func(t *testing.T, query, oldGroup, newGroup, oldValue, newValue string) {
		if oldGroup == "" || newGroup == "" || oldValue == "" || newValue == "" {
			return
		}
		was := []analysis.RecipeSlot{{Name: "group_1", Kind: analysis.SlotColumn, Value: oldGroup}, {Name: "filter_1", Kind: analysis.SlotValue, Value: oldValue}}
		now := []analysis.RecipeSlot{{Name: "group_1", Kind: analysis.SlotColumn, Value: newGroup}, {Name: "filter_1", Kind: analysis.SlotValue, Value: newValue}}
		plan := []analysis.Subtask{{TaskID: "by_" + fileName(oldGroup), Description: "by " + oldGroup, ToolName: analysis.ToolSQL, Arguments: map[string]any{"query": query}}}
		steps := parameterize(plan, was)
		if steps == nil {
			return
		}
		if mustJSON(fill(steps, was)) != mustJSON(mapStrings(plan, func(_, s string) string { return s }, func(s string) string { return s })) {
			// remember keeps no such template; nothing to reuse.
			return
		}
		filled, why := refill(analysis.Recipe{PlanStructure: analysis.RecipePlan{Subtasks: steps, Slots: was}}, now)
		if filled == nil {
			if why == "" {
				t.Fatal("refused without a reason")
			}
			return
		}
		text := planText(filled)
		// the longer new value first: "a" inside "a0c000" is part of it
		news := slices.SortedFunc(slices.Values(now), func(a, b analysis.RecipeSlot) int { return len(b.Value) - len(a.Value) })
		for _, s := range news {
			// in SQL a value's quotes are doubled: "a'0" is 'a''0'
			text = strings.ReplaceAll(text, strings.ToLower(strings.ReplaceAll(s.Value, "'", "''")), "\x00")
			text = strings.ReplaceAll(text, strings.ToLower(s.Value), "\x00")
		}
		for i, s := range was {
			if s.Value != now[i].Value && strings.Contains(text, strings.ToLower(s.Value)) {
				t.Fatalf("the filled plan still holds the old %s %q: %s", s.Name, s.Value, planText(filled))
			}
		}
	})
}
