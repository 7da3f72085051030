package analyze_test

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/llm"
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
