package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// Recipes is the analyses' recipe memory (analysis.RecipeStore) in its own
// SQLite file, db/recipe_memory.db under the data dir, with the
// specification's recipes table; the tables a recipe reads are kept beside
// it for adaptation after a schema change.
type Recipes struct{ db *sql.DB }

var _ analysis.RecipeStore = (*Recipes)(nil)

const recipesSchema = `
CREATE TABLE IF NOT EXISTS recipes (
    recipe_id TEXT PRIMARY KEY,
    schema_fingerprint TEXT NOT NULL,
    intent_template TEXT NOT NULL,
    intent_embedding BLOB NOT NULL,
    plan_structure TEXT NOT NULL,
    tool_argument_templates TEXT NOT NULL,
    success_count INTEGER DEFAULT 1 CHECK (success_count >= 1),
    created_at TEXT NOT NULL,
    last_used_at TEXT NOT NULL,
    tables_key TEXT NOT NULL DEFAULT '',
    embedding_model TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS idx_schema_fp ON recipes(schema_fingerprint);
CREATE INDEX IF NOT EXISTS idx_last_used ON recipes(last_used_at DESC);
CREATE INDEX IF NOT EXISTS idx_tables_key ON recipes(tables_key);
`

// OpenRecipes opens (creating) the recipe memory at path.
func OpenRecipes(path string) (*Recipes, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(recipesSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("open recipes %s: %w", path, err)
	}
	if err := addColumn(db, "recipes", "embedding_model", "TEXT NOT NULL DEFAULT ''"); err != nil {
		db.Close()
		return nil, fmt.Errorf("open recipes %s: %w", path, err)
	}
	return &Recipes{db: db}, nil
}

// Close closes the store.
func (s *Recipes) Close() error { return s.db.Close() }

// tablesKey is the sorted, lower-case list of a recipe's tables.
func tablesKey(tables []string) string {
	t := make([]string, len(tables))
	for i, n := range tables {
		t[i] = strings.ToLower(n)
	}
	slices.Sort(t)
	return strings.Join(slices.Compact(t), ",")
}

// Save implements analysis.RecipeStore.
func (s *Recipes) Save(ctx context.Context, r *analysis.Recipe) (string, error) {
	same, err := s.query(ctx, "WHERE schema_fingerprint = ? AND intent_template = ? ORDER BY created_at", r.SchemaFingerprint, r.IntentTemplate)
	if err != nil {
		return "", err
	}
	for _, o := range same {
		if samePlan(o.PlanStructure, r.PlanStructure) {
			return o.RecipeID, s.Used(ctx, o.RecipeID, r.LastUsedAt)
		}
	}
	plan, err := json.Marshal(r.PlanStructure)
	if err != nil {
		return "", err
	}
	args, err := json.Marshal(r.ToolArgumentTemplates)
	if err != nil {
		return "", err
	}
	var tables []string
	for t := range r.PlanStructure.Tables {
		tables = append(tables, t)
	}
	if r.SuccessCount < 1 {
		r.SuccessCount = 1
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO recipes (recipe_id, schema_fingerprint, intent_template, intent_embedding, plan_structure,
		tool_argument_templates, success_count, created_at, last_used_at, tables_key, embedding_model) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.RecipeID, r.SchemaFingerprint, r.IntentTemplate, analysis.EncodeVector(r.IntentEmbedding), string(plan), string(args),
		r.SuccessCount, r.CreatedAt, r.LastUsedAt, tablesKey(tables), r.EmbeddingModel)
	return r.RecipeID, err
}

// samePlan reports whether two recipes' plans are one: the same planner,
// shape and template. A recipe kept without a shape is never the same as
// one with it, so a new recipe replaces it in use.
func samePlan(a, b analysis.RecipePlan) bool {
	key := func(p analysis.RecipePlan) string {
		raw, _ := json.Marshal([]any{p.Planner, p.Shape, p.Subtasks})
		return string(raw)
	}
	return key(a) == key(b)
}

const recipeColumns = `recipe_id, schema_fingerprint, intent_template, intent_embedding, plan_structure, tool_argument_templates, success_count, created_at, last_used_at, embedding_model`

func (s *Recipes) query(ctx context.Context, where string, args ...any) ([]analysis.Recipe, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+recipeColumns+" FROM recipes "+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []analysis.Recipe
	for rows.Next() {
		var r analysis.Recipe
		var emb []byte
		var plan, targs string
		if err := rows.Scan(&r.RecipeID, &r.SchemaFingerprint, &r.IntentTemplate, &emb, &plan, &targs, &r.SuccessCount, &r.CreatedAt, &r.LastUsedAt, &r.EmbeddingModel); err != nil {
			return nil, err
		}
		r.IntentEmbedding = analysis.DecodeVector(emb)
		if err := json.Unmarshal([]byte(plan), &r.PlanStructure); err != nil {
			return nil, fmt.Errorf("recipe %s: %w", r.RecipeID, err)
		}
		if err := json.Unmarshal([]byte(targs), &r.ToolArgumentTemplates); err != nil {
			return nil, fmt.Errorf("recipe %s: %w", r.RecipeID, err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Find implements analysis.RecipeStore.
func (s *Recipes) Find(ctx context.Context, fingerprint string) ([]analysis.Recipe, error) {
	return s.query(ctx, "WHERE schema_fingerprint = ? ORDER BY last_used_at DESC", fingerprint)
}

// Candidates implements analysis.RecipeStore.
func (s *Recipes) Candidates(ctx context.Context, tables []string) ([]analysis.Recipe, error) {
	return s.query(ctx, "WHERE tables_key = ? ORDER BY last_used_at DESC LIMIT 100", tablesKey(tables))
}

// Get implements analysis.RecipeStore. Errors: NOT_FOUND.
func (s *Recipes) Get(ctx context.Context, id string) (*analysis.Recipe, error) {
	rs, err := s.query(ctx, "WHERE recipe_id = ?", id)
	if err != nil {
		return nil, err
	}
	if len(rs) == 0 {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "no recipe %s", id)
	}
	return &rs[0], nil
}

// List implements analysis.RecipeStore: the most recently used first.
func (s *Recipes) List(ctx context.Context) ([]analysis.Recipe, error) {
	return s.query(ctx, "ORDER BY last_used_at DESC")
}

// Delete implements analysis.RecipeStore. Errors: NOT_FOUND.
func (s *Recipes) Delete(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM recipes WHERE recipe_id = ?", id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return quarry.Errorf(quarry.ECodeNotFound, "no recipe %s", id)
	}
	return nil
}

// Used implements analysis.RecipeStore.
func (s *Recipes) Used(ctx context.Context, id, at string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE recipes SET success_count = success_count + 1, last_used_at = ? WHERE recipe_id = ?", at, id)
	return err
}

// addColumn adds a column that a later version of a schema introduced to a
// table made by an earlier one; it does nothing when the column is there.
func addColumn(db *sql.DB, table, column, decl string) error {
	var n int
	err := db.QueryRow("SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", table, column).Scan(&n)
	if err != nil || n > 0 {
		return err
	}
	_, err = db.Exec("ALTER TABLE " + table + " ADD COLUMN " + column + " " + decl)
	return err
}
