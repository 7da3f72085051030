package analyze_test

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/llmtest"
	"github.com/quarry-dev/quarry/sqlite"
)

// stateSum sums the sample's amounts of one state in [from, to).
func stateSum(t *testing.T, state, from, to string) float64 {
	t.Helper()
	f, err := os.Open(salesCSV)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, _ := csv.NewReader(f).ReadAll()
	var sum float64
	for _, r := range recs[1:] {
		if r[2] == state && r[1] >= from && r[1] < to {
			v, _ := strconv.ParseFloat(r[7], 64)
			sum += v
		}
	}
	return sum
}

func totalOf(t *testing.T, res *analysis.Result) float64 {
	t.Helper()
	return quarry.AsFloat(observationOf(t, res, "totals").Data.(map[string]any)["rows"].([][]any)[0][0])
}

// rewriteSales writes the sample with its header changed by edit, as
// sales.csv in a fresh directory.
func rewriteSales(t *testing.T, edit func(header []string) []string) string {
	t.Helper()
	body, err := os.ReadFile(salesCSV)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(body), "\n", 2)
	header := edit(strings.Split(lines[0], ","))
	p := filepath.Join(t.TempDir(), "sales.csv")
	rest := lines[1]
	if len(header) > 9 { // an added column: give every row a value
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(rest, "\n"), "\n") {
			b.WriteString(l + ",web\n")
		}
		rest = b.String()
	}
	os.WriteFile(p, []byte(strings.Join(header, ",")+"\n"+rest), 0o644)
	return p
}

func TestRecipes(t *testing.T) {
	e := newEnv(t)
	store, err := sqlite.OpenRecipes(filepath.Join(e.dir, "db", "recipe_memory.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	e.a.Recipes = store
	ctx := context.Background()
	run := func(intentText, path string) *analysis.Result {
		t.Helper()
		res, err := e.a.Run(ctx, analysis.Request{Intent: intentText, DataSources: []analysis.DataSource{csvSource(path)}})
		if err != nil || res.Status != analysis.StatusCompleted {
			t.Fatalf("%q: %v %v", intentText, res, err)
		}
		return res
	}

	first := run("Analyze Q1 2021 Arizona sales; trends + charts", salesCSV)
	if first.RecipeID == "" {
		t.Fatal("a completed analysis was not kept as a recipe")
	}
	rc, err := store.Get(ctx, first.RecipeID)
	if err != nil {
		t.Fatal(err)
	}
	if rc.IntentTemplate != "Analyze {time_range} {state} sales; trends + charts" || len(rc.SchemaFingerprint) != 64 || rc.SuccessCount != 1 {
		t.Errorf("recipe %q, fingerprint %q, count %d", rc.IntentTemplate, rc.SchemaFingerprint, rc.SuccessCount)
	}
	if q := rc.PlanStructure.Subtasks[0].Arguments["query"].(string); !strings.Contains(q, "'{filter_1}'") || !strings.Contains(q, "'{period_start}'") || strings.Contains(q, "Arizona") {
		t.Errorf("the recipe's query is not a template: %s", q)
	}
	if sh := rc.PlanStructure.Shape; sh == nil || !sh.Period || len(sh.Filters) != 1 || sh.Filters[0] != "= 1" || rc.PlanStructure.Planner != "offline" {
		t.Errorf("recipe shape %+v by %q; want one = filter, a period, by the offline planner", sh, rc.PlanStructure.Planner)
	}

	// The same kind of request, other values: the recipe is reused and
	// its numbers are the new request's.
	second := run("Analyze Q2 2021 Nevada sales; trends + charts", salesCSV)
	if second.RecipeID != first.RecipeID || !strings.Contains(second.Plan.Reasoning, "Recipe "+first.RecipeID) {
		t.Fatalf("recipe %q, reasoning %q; want the first recipe reused", second.RecipeID, second.Plan.Reasoning)
	}
	if want := "reused recipe " + first.RecipeID + ": same structure, slots measure=sum(amount), grouping=order_date by month, state=Nevada, period=Q2 2021 (2021-04-01 to 2021-07-01)"; !strings.HasPrefix(second.RecipeNote, want) {
		t.Errorf("note %q; want it to start %q", second.RecipeNote, want)
	}
	if got, want := totalOf(t, second), stateSum(t, "Nevada", "2021-04-01", "2021-07-01"); got-want > 0.005 || want-got > 0.005 {
		t.Errorf("total from the recipe %.2f; Nevada Q2 2021 sums to %.2f", got, want)
	}
	if rc, _ := store.Get(ctx, first.RecipeID); rc.SuccessCount != 2 {
		t.Errorf("success_count %d after a reuse; want 2", rc.SuccessCount)
	}

	// A column the recipe reads is gone: it is skipped, saying why.
	renamed := rewriteSales(t, func(h []string) []string { h[7] = "revenue"; return h })
	third := run("Analyze Q3 2021 Texas sales; trends + charts", renamed)
	if third.RecipeID == first.RecipeID || !strings.Contains(third.RecipeNote, "column amount no longer exists in sales") {
		t.Errorf("recipe %q, note %q; want it skipped for the missing amount", third.RecipeID, third.RecipeNote)
	}

	// A column was added, and every column it reads is still there: it
	// is adapted.
	added := rewriteSales(t, func(h []string) []string { return append(h, "channel") })
	fourth := run("Analyze Q4 2021 Texas sales; trends + charts", added)
	if fourth.RecipeID != first.RecipeID || !strings.Contains(fourth.Plan.Reasoning, "schema changed") {
		t.Errorf("recipe %q, reasoning %q; want the first recipe adapted", fourth.RecipeID, fourth.Plan.Reasoning)
	}
	if got, want := totalOf(t, fourth), stateSum(t, "Texas", "2021-10-01", "2022-01-01"); got-want > 0.005 || want-got > 0.005 {
		t.Errorf("total from the adapted recipe %.2f; want %.2f", got, want)
	}

	// A different kind of request does not take the recipe.
	other := run("top 3 products by quantity", salesCSV)
	if other.RecipeID == first.RecipeID {
		t.Errorf("a different request reused the recipe: %s", other.Plan.Reasoning)
	}
	if all, _ := store.List(ctx); len(all) < 3 {
		t.Errorf("%d recipes stored; want the first, the renamed schema's and the ranking's", len(all))
	}
}

// conceptEmbedder is an embedder that knows synonyms: words of one
// concept share a dimension, so paraphrases that share few words embed
// close together, as a sentence model's vectors do.
type conceptEmbedder struct {
	calls int
	fail  bool
}

var concepts = map[string]int{"analyze": 0, "show": 0, "break": 0, "sales": 1, "revenue": 1, "amount": 1,
	"trends": 2, "trend": 2, "over": 2, "time": 2, "charts": 3, "chart": 3, "plots": 3, "{time_range}": 4, "{state}": 5}

func (c *conceptEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	c.calls++
	if c.fail {
		return nil, &llm.Error{Kind: llm.KindUnavailable, Message: "embedding server down"}
	}
	out := make([][]float32, len(texts))
	for i, text := range texts {
		v := make([]float32, 8)
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r == ' ' || r == ';' || r == ',' }) {
			if d, ok := concepts[w]; ok {
				v[d] = 1
			}
		}
		v[7] = 0.1 // never the zero vector
		out[i] = v
	}
	return out, nil
}

func TestRecipesWithAnEmbedder(t *testing.T) {
	e := newEnv(t)
	store, err := sqlite.OpenRecipes(filepath.Join(e.dir, "db", "recipe_memory.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	emb := &conceptEmbedder{}
	e.a.Recipes, e.a.Embedder, e.a.EmbeddingModel = store, emb, "concepts-v1"
	ctx := context.Background()
	run := func(intentText string) *analysis.Result {
		t.Helper()
		res, err := e.a.Run(ctx, analysis.Request{Intent: intentText, DataSources: []analysis.DataSource{csvSource(salesCSV)}})
		if err != nil || res.Status != analysis.StatusCompleted {
			t.Fatalf("%q: %v %v", intentText, res, err)
		}
		return res
	}
	first := run("Analyze Q1 2021 Arizona sales; trends + charts")
	rc, err := store.Get(ctx, first.RecipeID)
	if err != nil {
		t.Fatal(err)
	}
	if rc.EmbeddingModel != "concepts-v1" || len(rc.IntentEmbedding) != 8 {
		t.Fatalf("stored embedding by %q with %d dimensions; want the model's 8", rc.EmbeddingModel, len(rc.IntentEmbedding))
	}

	// A paraphrase with few words in common, of the same shape: the
	// model's vectors rank it first, and it is reused with its own slots.
	second := run("Show Q2 2021 Nevada revenue over time, plots")
	if second.RecipeID != first.RecipeID {
		t.Fatalf("recipe %q (note %q); want %s reused", second.RecipeID, second.RecipeNote, first.RecipeID)
	}
	if got, want := totalOf(t, second), stateSum(t, "Nevada", "2021-04-01", "2021-07-01"); got-want > 0.005 || want-got > 0.005 {
		t.Errorf("total %.2f; Nevada Q2 2021 sums to %.2f", got, want)
	}

	// Embedded exactly like the recipe (the model knows no word for
	// "by product"), but of another shape: never reused.
	byProduct := run("Analyze Q1 2021 Arizona sales by product; trends + charts")
	if byProduct.RecipeID == first.RecipeID || !strings.Contains(byProduct.RecipeNote, "recipe "+first.RecipeID+" skipped: groupings differ (string, month vs month)") {
		t.Errorf("recipe %q, note %q; want %s skipped for its groupings", byProduct.RecipeID, byProduct.RecipeNote, first.RecipeID)
	}

	// The embedder fails: recipes are compared by their words, and the
	// exact same kind of request still finds the recipe.
	emb.fail = true
	third := run("Analyze Q3 2021 Texas sales; trends + charts")
	if third.RecipeID != first.RecipeID {
		t.Errorf("with the embedder down, recipe %q; want %s found by its words", third.RecipeID, first.RecipeID)
	}
}

// ordersCSV is a small table of orders (state, product, category,
// quantity, amount, order_date) whose sums are worked out by hand in the
// tests below.
const ordersCSV = "testdata/recipe_orders.csv"

// grouped reads a breakdown step's rows as value -> measure, checking
// that it is grouped by col and measures measure.
func grouped(t *testing.T, res *analysis.Result, task, col, measure string) map[string]float64 {
	t.Helper()
	data := observationOf(t, res, task).Data.(map[string]any)
	cols := data["columns"].([]string)
	if len(cols) != 2 || cols[0] != col || cols[1] != measure {
		t.Fatalf("%s has columns %v; want [%s %s]", task, cols, col, measure)
	}
	out := map[string]float64{}
	for _, row := range data["rows"].([][]any) {
		out[row[0].(string)] = quarry.AsFloat(row[1])
	}
	return out
}

func sameSums(got, want map[string]float64) bool {
	if len(got) != len(want) {
		return false
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || math.Abs(g-w) > 1e-9 {
			return false
		}
	}
	return true
}

func openRecipes(t *testing.T, e *env) *sqlite.Recipes {
	t.Helper()
	store, err := sqlite.OpenRecipes(filepath.Join(e.dir, "db", "recipe_memory.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	e.a.Recipes = store
	return store
}

// The trap: after "total amount by state in 2020", requests that read
// alike but group, aggregate or measure otherwise were answered with the
// by-state table. Each is answered with its own grouping and measure: a
// recipe of the same shape is reused with the new request's slots, one
// of another shape is skipped, saying how the shapes differ.
func TestRecipesAnswerTheRequestAsked(t *testing.T) {
	e := newEnv(t)
	store := openRecipes(t, e)
	ctx := context.Background()
	run := func(text string) *analysis.Result {
		t.Helper()
		res, err := e.a.Run(ctx, analysis.Request{Intent: text, DataSources: []analysis.DataSource{csvSource(ordersCSV)}})
		if err != nil || res.Status != analysis.StatusCompleted {
			t.Fatalf("%q: %+v %v", text, res, err)
		}
		return res
	}
	first := run("total amount by state in 2020")
	if got, want := grouped(t, first, "by_state", "state", "amount"), map[string]float64{"Texas": 701, "Nevada": 622, "Arizona": 331.25}; !sameSums(got, want) {
		t.Fatalf("amount by state in 2020: %v; want %v", got, want)
	}
	id := first.RecipeID
	if id == "" {
		t.Fatal("the completed analysis was not kept as a recipe")
	}
	for _, c := range []struct {
		text, task, col, measure string
		want                     map[string]float64
		reused                   bool
		note                     string
	}{
		{"total amount by product in 2020", "by_product", "product", "amount", map[string]float64{"Boot": 839, "Sandal": 426, "Sneaker": 389.25}, true,
			"reused recipe " + id + ": same structure, slots measure=sum(amount), grouping=product, period=2020 (2020-01-01 to 2021-01-01); its plan rebuilt from them"},
		{"total amount by category in 2020", "by_category", "category", "amount", map[string]float64{"Outdoor": 839, "Footwear": 815.25}, true,
			"reused recipe " + id + ": same structure, slots measure=sum(amount), grouping=category, period=2020 (2020-01-01 to 2021-01-01); its plan rebuilt from them"},
		{"average amount by state", "by_state", "state", "avg_amount", map[string]float64{"Texas": 1329.0 / 7, "Nevada": 724.0 / 6, "Arizona": 137.85}, false,
			"recipe " + id + " skipped: aggregation differs (avg vs sum), period differs (none vs yes)"},
		{"average amount by state in 2020", "by_state", "state", "avg_amount", map[string]float64{"Texas": 140.2, "Nevada": 155.5, "Arizona": 331.25 / 3}, false,
			"recipe " + id + " skipped: aggregation differs (avg vs sum)"},
		{"total quantity by state", "by_state", "state", "quantity", map[string]float64{"Texas": 18, "Nevada": 10, "Arizona": 11}, false,
			"recipe " + id + " skipped: period differs (none vs yes)"},
		{"total quantity by state in 2020", "by_state", "state", "quantity", map[string]float64{"Texas": 11, "Nevada": 8, "Arizona": 6}, true,
			"reused recipe " + id + ": same structure, slots measure=sum(quantity), grouping=state, period=2020 (2020-01-01 to 2021-01-01); its plan rebuilt from them"},
	} {
		res := run(c.text)
		if got := grouped(t, res, c.task, c.col, c.measure); !sameSums(got, c.want) {
			t.Errorf("%q: %v; want %v", c.text, got, c.want)
		}
		if !strings.Contains(res.RecipeNote+";", c.note+";") {
			t.Errorf("%q: note %q; want it to say %q", c.text, res.RecipeNote, c.note)
		}
		if (res.RecipeID == id) != c.reused {
			t.Errorf("%q: recipe %q; reuse of %s should be %v", c.text, res.RecipeID, id, c.reused)
		}
	}
	if rc, err := store.Get(ctx, id); err != nil || rc.SuccessCount != 4 {
		t.Errorf("success_count %v (%v); want 4: made once, reused for product, category and quantity in 2020", rc, err)
	}
}

// Only completed analyses become recipes: not one that ended
// partial_success or failed, nor a request with a word not understood,
// which does not reuse one either.
func TestRecipesKeepOnlyCompletedAnalyses(t *testing.T) {
	ctx := context.Background()
	good := analysis.Subtask{TaskID: "by_state", Description: "Amount by state", ToolName: analysis.ToolSQL, Deliverable: analysis.DeliverTables,
		Arguments: map[string]any{"query": "SELECT state, sum(amount) AS amount FROM recipe_orders GROUP BY state"}}
	bad := analysis.Subtask{TaskID: "by_region", Description: "Amount by region", ToolName: analysis.ToolSQL, Deliverable: analysis.DeliverTables,
		Arguments: map[string]any{"query": "SELECT region, sum(amount) AS amount FROM recipe_orders GROUP BY region"}}
	for _, c := range []struct {
		status string
		steps  []analysis.Subtask
	}{
		{analysis.StatusPartialSuccess, []analysis.Subtask{good, bad}},
		{analysis.StatusFailed, []analysis.Subtask{bad}},
	} {
		e := newEnv(t)
		store := openRecipes(t, e)
		e.a.Planner = planOf(c.steps...)
		res, err := e.a.Run(ctx, analysis.Request{Intent: "total amount by state", DataSources: []analysis.DataSource{csvSource(ordersCSV)}})
		if err != nil || res.Status != c.status {
			t.Fatalf("status %v, %v; want %s", res, err, c.status)
		}
		if all, _ := store.List(ctx); len(all) != 0 || res.RecipeID != "" {
			t.Errorf("a %s analysis was kept as a recipe (%d stored, recipe %q)", c.status, len(all), res.RecipeID)
		}
	}

	e := newEnv(t)
	store := openRecipes(t, e)
	first, err := e.a.Run(ctx, analysis.Request{Intent: "total amount by state in 2020", DataSources: []analysis.DataSource{csvSource(ordersCSV)}})
	if err != nil || first.Status != analysis.StatusCompleted || first.RecipeID == "" {
		t.Fatalf("%+v %v", first, err)
	}
	// However the request with an unknown word ends (the parser may ask
	// for clarification), it neither reuses the recipe nor becomes one.
	res, err := e.a.Run(ctx, analysis.Request{Intent: "total amount by state in 2020 frobnicated", DataSources: []analysis.DataSource{csvSource(ordersCSV)}})
	if err == nil && (res.RecipeID != "" || !strings.Contains(res.RecipeNote, "recipes not consulted: the request has words not understood (frobnicated)")) {
		t.Errorf("recipe %q, note %q; want no recipe consulted", res.RecipeID, res.RecipeNote)
	}
	if all, _ := store.List(ctx); len(all) != 1 || all[0].SuccessCount != 1 {
		t.Errorf("%d recipes after a request with an unknown word; want the first alone, unused", len(all))
	}
}

// A model's plan kept as a recipe saves the model call for a request of
// its shape, filled with that request's filter value, grouping and
// period: its numbers are the new request's.
func TestModelRecipeTakesTheNewSlots(t *testing.T) {
	plan := map[string]any{"reasoning": "one query and its chart", "subtasks": []any{
		map[string]any{"task_id": "by_product", "description": "Total amount by product for Texas in 2020", "tool_name": "sql.run", "dependencies": []any{},
			"arguments":              map[string]any{"query": "SELECT product, SUM(amount) AS amount FROM recipe_orders WHERE state = 'Texas' AND order_date >= '2020-01-01' AND order_date < '2021-01-01' GROUP BY product ORDER BY product"},
			"estimated_cost_seconds": 1, "deliverable": "tables"},
		map[string]any{"task_id": "by_product_chart", "description": "Chart", "tool_name": "plot.render", "dependencies": []any{"by_product"},
			"arguments":              map[string]any{"input": "by_product", "type": "bar", "x_col": "product", "y_col": "amount", "title": "Amount by product, Texas, 2020"},
			"estimated_cost_seconds": 1, "deliverable": "charts"},
		map[string]any{"task_id": "best_product", "description": "Product with the largest amount", "tool_name": "sql.run", "dependencies": []any{"by_product"},
			"arguments":              map[string]any{"query": "SELECT product, amount FROM step_by_product ORDER BY amount DESC LIMIT 1"},
			"estimated_cost_seconds": 1, "deliverable": "tables"},
	}}
	m := &llmtest.Model{ModelName: "test/planner", Reply: func(*llm.Request) (*llm.Response, error) { return llmtest.JSON(plan), nil }}
	e := newEnv(t)
	store := openRecipes(t, e)
	e.a.Model = m
	ctx := context.Background()
	run := func(text string) *analysis.Result {
		t.Helper()
		res, err := e.a.Run(ctx, analysis.Request{Intent: text, DataSources: []analysis.DataSource{csvSource(ordersCSV)}})
		if err != nil || res.Status != analysis.StatusCompleted {
			t.Fatalf("%q: %+v %v", text, res, err)
		}
		return res
	}
	first := run("total amount by product for Texas in 2020")
	if got, want := grouped(t, first, "by_product", "product", "amount"), map[string]float64{"Boot": 358, "Sandal": 213, "Sneaker": 130}; !sameSums(got, want) {
		t.Fatalf("the model's plan: %v; want %v", got, want)
	}
	rc, err := store.Get(ctx, first.RecipeID)
	if err != nil || rc.PlanStructure.Planner != "model" {
		t.Fatalf("recipe %+v, %v; want the model's plan kept", rc, err)
	}
	if q := rc.PlanStructure.Subtasks[2].Arguments["query"].(string); q != "SELECT {group_1}, {measure_1} FROM step_by_{group_1} ORDER BY {measure_1} DESC LIMIT 1" {
		t.Errorf("template query %s", q)
	}
	if q := rc.PlanStructure.Subtasks[0].Arguments["query"].(string); q != "SELECT {group_1}, SUM({measure_1}) AS {measure_1} FROM recipe_orders WHERE {filter_1_column} = '{filter_1}' AND {period_column} >= '{period_start}' AND {period_column} < '{period_end}' GROUP BY {group_1} ORDER BY {group_1}" {
		t.Errorf("template query %s", q)
	}
	calls := len(m.Calls())

	// Another state: the same plan with Nevada, and no model call.
	nevada := run("total amount by product for Nevada in 2020")
	if len(m.Calls()) != calls || nevada.RecipeID != first.RecipeID {
		t.Fatalf("%d model calls, recipe %q (note %q); want the recipe reused without the model", len(m.Calls())-calls, nevada.RecipeID, nevada.RecipeNote)
	}
	if got, want := grouped(t, nevada, "by_product", "product", "amount"), map[string]float64{"Boot": 356, "Sneaker": 195, "Sandal": 71}; !sameSums(got, want) {
		t.Errorf("Nevada 2020 by product: %v; want %v", got, want)
	}
	if got, want := grouped(t, nevada, "best_product", "product", "amount"), map[string]float64{"Boot": 356}; !sameSums(got, want) {
		t.Errorf("the best product in Nevada in 2020: %v; want %v", got, want)
	}
	if want := "reused recipe " + first.RecipeID + ": same structure, slots measure=sum(amount), grouping=product, state=Nevada, period=2020 (2020-01-01 to 2021-01-01); its plan filled with them"; nevada.RecipeNote != want {
		t.Errorf("note %q; want %q", nevada.RecipeNote, want)
	}

	// Another grouping and year as well: the steps are named after the
	// new grouping, and the chart draws it.
	texas21 := run("total amount by category for Texas in 2021")
	if len(m.Calls()) != calls || texas21.RecipeID != first.RecipeID {
		t.Fatalf("%d model calls, note %q; want the recipe reused", len(m.Calls())-calls, texas21.RecipeNote)
	}
	if got, want := grouped(t, texas21, "by_category", "category", "amount"), map[string]float64{"Footwear": 262, "Outdoor": 366}; !sameSums(got, want) {
		t.Errorf("Texas 2021 by category: %v; want %v", got, want)
	}
	chart := texas21.Plan.Task("by_category_chart")
	if chart == nil || chart.Arguments["x_col"] != "category" || chart.Arguments["input"] != "by_category" || chart.Arguments["title"] != "Amount by category, Texas, 2021" {
		t.Errorf("chart step %+v", chart)
	}
	if best := texas21.Plan.Task("best_category"); best == nil || best.Description != "Category with the largest amount" || best.Dependencies[0] != "by_category" {
		t.Errorf("best step %+v", best)
	}
	if got, want := grouped(t, texas21, "best_category", "category", "amount"), map[string]float64{"Outdoor": 366}; !sameSums(got, want) {
		t.Errorf("the best category in Texas in 2021: %v; want %v", got, want)
	}

	// Another shape (no period): the model plans.
	run("total amount by product for Texas")
	if len(m.Calls()) == calls {
		t.Error("a request of another shape did not go to the model")
	}
}
