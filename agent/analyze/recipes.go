package analyze

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/intent"
)

// Recipe memory. A completed analysis is kept as a recipe: its request
// with {placeholders} where it named values (a filter value, a period) and
// its plan with the same placeholders in the steps. A new request on the
// same schema whose template is close enough (cosine of the templates'
// embeddings) and names the same kinds of values reuses the best of the
// three closest recipes, filled with its own values. A recipe of the same
// tables whose schema changed is adapted when every column it reads still
// exists, and skipped, saying which column is gone, otherwise.

// The least cosine similarity of templates for reuse: of their lexical
// vectors, and of a model's embeddings, which put unrelated sentences
// nearer each other than shared words do. Either way a recipe is reused
// only when it names the same kinds of values as the request (sameKeys).
const (
	recipeSimilarity      = 0.8
	recipeModelSimilarity = 0.85
)

// intentVector is a request's template embedded for comparison with
// stored recipes.
type intentVector struct {
	text  string
	model string // "" when the embedder is not configured or failed
	v     []float32
}

// embedIntent embeds a template with the configured embedder, or
// lexically when there is none or it fails (the run notes why).
func (r *run) embedIntent(ctx context.Context, text string) intentVector {
	if r.a.Embedder != nil && r.a.EmbeddingModel != "" {
		vs, err := r.a.Embedder.Embed(ctx, []string{text})
		if err == nil && len(vs) == 1 && len(vs[0]) > 0 {
			return intentVector{text: text, model: r.a.EmbeddingModel, v: vs[0]}
		}
		r.progress(analysis.Event{Step: "recipe", Message: fmt.Sprintf("embedding by %s failed, comparing recipes by their words: %v", r.a.EmbeddingModel, err)})
	}
	return intentVector{text: text, v: analysis.LexicalEmbedding(text)}
}

// similarity compares the request with a recipe: by the model's
// embeddings when both were made by the same model, else by their words,
// and returns the threshold that applies.
func (q intentVector) similarity(rc analysis.Recipe) (sim, least float64) {
	if q.model != "" && rc.EmbeddingModel == q.model && len(rc.IntentEmbedding) == len(q.v) {
		return analysis.Cosine(q.v, rc.IntentEmbedding), recipeModelSimilarity
	}
	lexical := q.v
	if q.model != "" {
		lexical = analysis.LexicalEmbedding(q.text)
	}
	stored := rc.IntentEmbedding
	if rc.EmbeddingModel != "" || len(stored) != len(lexical) {
		stored = analysis.LexicalEmbedding(rc.IntentTemplate)
	}
	return analysis.Cosine(lexical, stored), recipeSimilarity
}

// template is a request read as a recipe: its text with placeholders and
// the values they stand for.
type template struct {
	text   string
	values map[string]string // placeholder -> value as the data spells it
}

var placeholderName = regexp.MustCompile(`[^a-z0-9_]+`)

// templateOf replaces the values the request named (filter values, the
// period's label and dates) by placeholders named after what they are.
func templateOf(in *intent.Intent) template {
	t := template{text: in.Text, values: map[string]string{}}
	put := func(key, value, shown string) {
		key = strings.Trim(placeholderName.ReplaceAllString(strings.ToLower(key), "_"), "_")
		if key == "" || value == "" {
			return
		}
		if _, taken := t.values[key]; taken {
			return
		}
		t.values[key] = value
		if shown != "" {
			re := regexp.MustCompile(`(?i)\b` + quarry.QuoteRegexp(shown) + `\b`)
			t.text = re.ReplaceAllString(t.text, "{"+key+"}")
		}
	}
	for _, f := range in.Filters {
		if len(f.Values) == 1 {
			put(f.Column, f.Values[0], f.Values[0])
		}
	}
	if tr := in.Time; tr != nil {
		put("time_range", tr.Label, tr.Label)
		put("start", tr.Start, "")
		put("end", tr.End, "")
	}
	if c := in.Compare; c != nil {
		put("compare_range", c.Label, c.Label)
		put("compare_start", c.Start, "")
		put("compare_end", c.End, "")
	}
	return t
}

// parameterize replaces, in every string of the plan, the template's
// values by their placeholders (whole words only).
func parameterize(p *analysis.Plan, t template) []analysis.Subtask {
	keys := slices.Collect(maps.Keys(t.values))
	// Longer values first, so "New York" goes before "York".
	sort.Slice(keys, func(i, j int) bool { return len(t.values[keys[i]]) > len(t.values[keys[j]]) })
	return mapStrings(p.Subtasks, func(s string) string {
		for _, k := range keys {
			re := regexp.MustCompile(`\b` + quarry.QuoteRegexp(t.values[k]) + `\b`)
			s = re.ReplaceAllString(s, "{"+k+"}")
		}
		return s
	})
}

// fill puts values into a recipe's placeholders; in queries a value is
// escaped as an SQL string's content.
func fill(steps []analysis.Subtask, values map[string]string) []analysis.Subtask {
	return mapStrings(steps, func(s string) string {
		for k, v := range values {
			s = strings.ReplaceAll(s, "{"+k+"}", v)
		}
		return s
	}, func(s string) string {
		for k, v := range values {
			s = strings.ReplaceAll(s, "{"+k+"}", strings.ReplaceAll(v, "'", "''"))
		}
		return s
	})
}

// mapStrings copies steps with f applied to every description and string
// argument (query strings get sql instead when given).
func mapStrings(steps []analysis.Subtask, f func(string) string, sql ...func(string) string) []analysis.Subtask {
	raw, _ := json.Marshal(steps)
	var out []analysis.Subtask
	json.Unmarshal(raw, &out)
	var walk func(k string, v any) any
	walk = func(k string, v any) any {
		switch x := v.(type) {
		case string:
			if k == "query" && len(sql) > 0 {
				return sql[0](x)
			}
			return f(x)
		case []any:
			for i := range x {
				x[i] = walk("", x[i])
			}
		case map[string]any:
			for kk, vv := range x {
				x[kk] = walk(kk, vv)
			}
		}
		return v
	}
	for i := range out {
		out[i].Description = f(out[i].Description)
		for k, v := range out[i].Arguments {
			out[i].Arguments[k] = walk(k, v)
		}
		out[i].Status = analysis.TaskPending
	}
	return out
}

// fingerprint is the schema fingerprint of all the request's tables.
func (r *run) fingerprint() string { return analysis.Fingerprint(r.tables) }

// fromRecipe looks for a recipe to reuse for the request, and returns its
// plan filled with the request's values, or nil with what it considered.
func (r *run) fromRecipe(ctx context.Context, in *intent.Intent) (*analysis.Plan, string) {
	store := r.a.Recipes
	if store == nil || in == nil {
		return nil, ""
	}
	t := templateOf(in)
	q := r.embedIntent(ctx, t.text)
	found, err := store.Find(ctx, r.fingerprint())
	adapted := false
	if err == nil && len(found) == 0 {
		var names []string
		for _, tb := range r.tables {
			names = append(names, tb.Name)
		}
		found, err = store.Candidates(ctx, names)
		adapted = true
	}
	if err != nil || len(found) == 0 {
		return nil, ""
	}
	type scored struct {
		rc          analysis.Recipe
		sim, margin float64
	}
	ranked := make([]scored, len(found))
	for i, rc := range found {
		sim, least := q.similarity(rc)
		ranked[i] = scored{rc, sim, sim - least}
	}
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].margin > ranked[j].margin })
	ranked = ranked[:min(3, len(ranked))]
	var notes []string
	for _, c := range ranked {
		rc, sim := c.rc, c.sim
		if c.margin < 0 {
			notes = append(notes, fmt.Sprintf("recipe %s not close enough (%.2f)", rc.RecipeID, sim))
			continue
		}
		if !sameKeys(rc, t.values) {
			notes = append(notes, fmt.Sprintf("recipe %s names other kinds of values", rc.RecipeID))
			continue
		}
		if gone := r.missingColumns(rc.PlanStructure.Tables); gone != "" {
			notes = append(notes, fmt.Sprintf("recipe %s skipped: %s", rc.RecipeID, gone))
			continue
		}
		plan := &analysis.Plan{Subtasks: fill(rc.PlanStructure.Subtasks, t.values), Status: analysis.PlanDraft,
			Reasoning: fmt.Sprintf("Recipe %s (%q, used %d times, similarity %.2f), filled with this request's values.", rc.RecipeID, rc.IntentTemplate, rc.SuccessCount, sim)}
		if adapted {
			plan.Reasoning += " The schema changed since it was made; every column it reads still exists."
		}
		r.res.RecipeID = rc.RecipeID
		return plan, strings.Join(append(notes, fmt.Sprintf("recipe %s reused", rc.RecipeID)), "; ")
	}
	return nil, strings.Join(notes, "; ")
}

// sameKeys reports whether a recipe's placeholders are the request's.
func sameKeys(rc analysis.Recipe, values map[string]string) bool {
	raw, _ := json.Marshal(rc.PlanStructure.Subtasks)
	used := map[string]bool{}
	for _, m := range regexp.MustCompile(`\{([a-z0-9_]+)\}`).FindAllStringSubmatch(string(raw)+rc.IntentTemplate, -1) {
		used[m[1]] = true
	}
	for k := range used {
		if _, ok := values[k]; !ok {
			return false
		}
	}
	for k := range values {
		if !used[k] && !strings.HasSuffix(k, "_range") {
			return false
		}
	}
	return true
}

// missingColumns says which column a recipe reads that the sources no
// longer have, or "".
func (r *run) missingColumns(tables map[string][]string) string {
	for name, cols := range tables {
		var have []string
		found := false
		for _, t := range r.tables {
			if strings.EqualFold(t.Name, name) {
				found = true
				for _, c := range t.Columns {
					have = append(have, strings.ToLower(c.Name))
				}
			}
		}
		if !found {
			return fmt.Sprintf("table %s no longer exists", name)
		}
		for _, c := range cols {
			if !slices.Contains(have, strings.ToLower(c)) {
				return fmt.Sprintf("column %s no longer exists in %s", c, name)
			}
		}
	}
	return ""
}

// remember keeps a completed analysis as a recipe, or counts a reuse.
func (r *run) remember(ctx context.Context, in *intent.Intent, how string) {
	store := r.a.Recipes
	if store == nil || in == nil || r.req.Status != analysis.StatusCompleted {
		return
	}
	now := r.now()
	if how == "recipe" {
		if err := store.Used(ctx, r.res.RecipeID, now); err != nil {
			r.progress(analysis.Event{Step: "recipe", Message: "could not count the reuse: " + err.Error()})
		}
		return
	}
	t := templateOf(in)
	q := r.embedIntent(ctx, t.text)
	steps := parameterize(r.plan, t)
	args := make([]map[string]any, len(steps))
	for i, s := range steps {
		args[i] = s.Arguments
	}
	rc := &analysis.Recipe{RecipeID: quarry.NewID(), SchemaFingerprint: r.fingerprint(), IntentTemplate: t.text,
		IntentEmbedding: q.v, EmbeddingModel: q.model, PlanStructure: analysis.RecipePlan{Subtasks: steps, Reasoning: r.plan.Reasoning, Tables: r.readColumns(ctx)},
		ToolArgumentTemplates: args, SuccessCount: 1, CreatedAt: now, LastUsedAt: now}
	id, err := store.Save(ctx, rc)
	if err != nil {
		r.progress(analysis.Event{Step: "recipe", Message: "could not keep the recipe: " + err.Error()})
		return
	}
	r.res.RecipeID = id
}

// readColumns lists, per source table, the columns the plan's queries
// read, from their parse trees.
func (r *run) readColumns(ctx context.Context) map[string][]string {
	out := map[string][]string{}
	for _, t := range r.plan.Subtasks {
		q, ok := t.Arguments["query"].(string)
		if !ok {
			continue
		}
		refs, err := r.ws.References(ctx, q)
		if err != nil {
			continue
		}
		for _, name := range refs.Tables {
			for _, tb := range r.tables {
				if !strings.EqualFold(tb.Name, name) {
					continue
				}
				for _, parts := range refs.Columns {
					col := parts[len(parts)-1]
					if slices.ContainsFunc(tb.Columns, func(c analysis.SourceColumn) bool { return strings.EqualFold(c.Name, col) }) && !slices.Contains(out[tb.Name], col) {
						out[tb.Name] = append(out[tb.Name], col)
					}
				}
				if _, ok := out[tb.Name]; !ok {
					out[tb.Name] = []string{}
				}
			}
		}
	}
	return out
}
