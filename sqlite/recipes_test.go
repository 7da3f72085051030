package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

func recipe(id, fp, tmpl string) *analysis.Recipe {
	return &analysis.Recipe{RecipeID: id, SchemaFingerprint: fp, IntentTemplate: tmpl, IntentEmbedding: analysis.LexicalEmbedding(tmpl),
		PlanStructure: analysis.RecipePlan{Subtasks: []analysis.Subtask{{TaskID: "totals", ToolName: analysis.ToolSQL, Arguments: map[string]any{"query": "SELECT 1"}}},
			Tables: map[string][]string{"sales": {"amount"}}},
		ToolArgumentTemplates: []map[string]any{{"query": "SELECT 1"}}, CreatedAt: "2024-01-01T00:00:00Z", LastUsedAt: "2024-01-01T00:00:00Z"}
}

func TestRecipes(t *testing.T) {
	ctx := context.Background()
	s, err := OpenRecipes(filepath.Join(t.TempDir(), "db", "recipe_memory.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	id, err := s.Save(ctx, recipe("r1", "fp1", "Analyze {time_range} {state} sales"))
	if err != nil || id != "r1" {
		t.Fatalf("Save = %q, %v", id, err)
	}
	// The same template on the same schema counts a success.
	if id, err := s.Save(ctx, recipe("r2", "fp1", "Analyze {time_range} {state} sales")); err != nil || id != "r1" {
		t.Fatalf("Save of the same recipe = %q, %v; want r1", id, err)
	}
	// The same template with another plan or shape is another recipe:
	// a request that reads alike is not the same request.
	other := recipe("r4", "fp1", "Analyze {time_range} {state} sales")
	other.PlanStructure.Planner, other.PlanStructure.Shape = "offline", &analysis.RecipeShape{Table: "sales", Measures: []string{"avg"}}
	if id, err := s.Save(ctx, other); err != nil || id != "r4" {
		t.Fatalf("Save of another shape = %q, %v; want r4 kept", id, err)
	}
	if id, err := s.Save(ctx, other); err != nil || id != "r4" {
		t.Fatalf("Save of r4 again = %q, %v; want r4 counted", id, err)
	}
	if rc, err := s.Get(ctx, "r4"); err != nil || rc.SuccessCount != 2 || rc.PlanStructure.Shape == nil || rc.PlanStructure.Shape.Measures[0] != "avg" || rc.PlanStructure.Planner != "offline" {
		t.Fatalf("Get(r4) = %+v, %v", rc, err)
	}
	if err := s.Delete(ctx, "r4"); err != nil {
		t.Fatal(err)
	}
	s.Save(ctx, recipe("r3", "fp2", "top {n} products"))
	got, err := s.Find(ctx, "fp1")
	if err != nil || len(got) != 1 || got[0].SuccessCount != 2 || got[0].PlanStructure.Subtasks[0].TaskID != "totals" || len(got[0].IntentEmbedding) != 256 {
		t.Fatalf("Find = %+v, %v", got, err)
	}
	if c, _ := s.Candidates(ctx, []string{"SALES"}); len(c) != 2 {
		t.Errorf("Candidates(sales) = %d recipes; want 2", len(c))
	}
	if err := s.Delete(ctx, "r1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "r1"); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("Get after Delete = %v", err)
	}
	if err := s.Delete(ctx, "r1"); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("Delete twice = %v", err)
	}
}

// BenchmarkRecipeLookup finds and ranks the recipes of one schema among
// 10,000 (100 schemas of 100 recipes), as a new request does.
func BenchmarkRecipeLookup(b *testing.B) {
	ctx := context.Background()
	s, err := OpenRecipes(filepath.Join(b.TempDir(), "recipe_memory.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	tx, _ := s.db.Begin()
	for i := range 10_000 {
		r := recipe(fmt.Sprintf("r%05d", i), fmt.Sprintf("fp%03d", i%100), fmt.Sprintf("analyze {state} sales by %d and {time_range}", i))
		if _, err := tx.Exec(`INSERT INTO recipes (recipe_id, schema_fingerprint, intent_template, intent_embedding, plan_structure,
			tool_argument_templates, success_count, created_at, last_used_at, tables_key)
			VALUES (?, ?, ?, ?, '{"subtasks":[],"tables":{"sales":["amount"]}}', '[]', 1, ?, ?, 'sales')`,
			r.RecipeID, r.SchemaFingerprint, r.IntentTemplate, analysis.EncodeVector(r.IntentEmbedding), r.CreatedAt, r.LastUsedAt); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	query := analysis.LexicalEmbedding("analyze {state} sales by 42 and {time_range}")
	b.ResetTimer()
	for b.Loop() {
		found, err := s.Find(ctx, "fp042")
		if err != nil || len(found) != 100 {
			b.Fatalf("Find = %d, %v", len(found), err)
		}
		best := 0.0
		for _, r := range found {
			best = max(best, analysis.Cosine(query, r.IntentEmbedding))
		}
		if best < 0.99 {
			b.Fatalf("best similarity %.2f", best)
		}
	}
}
