package mcp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/mcp"
)

type analysisResult struct {
	RequestID string `json:"request_id"`
	Status    string `json:"status"`
	Summary   string `json:"summary"`
	Steps     []struct {
		TaskID, Status string
	} `json:"steps"`
	Artifacts []struct {
		Type string `json:"artifact_type"`
		Path string `json:"content_ref"`
	} `json:"artifacts"`
	RecipeID string `json:"recipe_id"`
}

func TestAnalysisTools(t *testing.T) {
	e := newEnv(t)
	sales, err := filepath.Abs("../testdata/analyze/sales.csv")
	if err != nil {
		t.Fatal(err)
	}
	local := connectInMemory(t, mcp.NewServer(e.app.Investigations, mcp.Options{AllowPaths: true, Analyses: e.app.Analyses}))
	res, text := ok[analysisResult](t, local, "start_analysis", map[string]any{
		"request": "Analyze Q1 2021 Arizona sales; trends + charts",
		"files":   []any{map[string]any{"path": sales}},
	})
	if res.Status != "completed" || !strings.Contains(res.Summary, "Arizona") || len(res.Steps) < 3 || res.RecipeID == "" {
		t.Fatalf("analyze: %+v\n%s", res, text)
	}
	for _, a := range res.Artifacts {
		if _, err := os.Stat(a.Path); err != nil {
			t.Errorf("artifact %s: %v", a.Path, err)
		}
	}
	got, _ := ok[analysisResult](t, local, "get_analysis", map[string]any{"request_id": res.RequestID})
	if got.Status != "completed" || len(got.Artifacts) != len(res.Artifacts) {
		t.Errorf("get_analysis: %+v", got)
	}
	recipes, _ := ok[struct {
		Recipes []struct {
			Template string `json:"intent_template"`
		} `json:"recipes"`
	}](t, local, "list_analysis_recipes", map[string]any{})
	if len(recipes.Recipes) != 1 || !strings.Contains(recipes.Recipes[0].Template, "{state}") {
		t.Errorf("list_analysis_recipes: %+v", recipes)
	}
	// CSV as text works everywhere; a path over HTTP does not.
	remote := connectHTTP(t, mcp.NewServer(e.app.Investigations, mcp.Options{Analyses: e.app.Analyses}))
	csv := "day,region,amount\n2024-01-01,west,10\n2024-01-02,east,20\n2024-01-03,west,5\n"
	byText, _ := ok[analysisResult](t, remote, "start_analysis", map[string]any{"request": "total amount by region", "files": []any{map[string]any{"name": "orders.csv", "csv": csv}}})
	if byText.Status != "completed" {
		t.Errorf("analyze with csv text: %+v", byText)
	}
	if code, _ := failCode(t, remote, "start_analysis", map[string]any{"request": "total amount", "files": []any{map[string]any{"path": sales}}}); code != "FORBIDDEN" {
		t.Errorf("a path over HTTP: %s", code)
	}
	if code, _ := failCode(t, remote, "get_analysis", map[string]any{"request_id": "00000000-0000-0000-0000-000000000000"}); code != "NOT_FOUND" {
		t.Errorf("an unknown analysis: %s", code)
	}
	if code, _ := failCode(t, remote, "start_analysis", map[string]any{"request": "", "files": []any{map[string]any{"name": "orders.csv", "csv": csv}}}); code != "INVALID" {
		t.Errorf("an empty request: %s", code)
	}
}
