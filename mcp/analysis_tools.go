package mcp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// dataFile is a file of an analysis: text, or a path on this machine.
type dataFile struct {
	Name string `json:"name,omitempty" jsonschema:"file name with its kind's extension (.csv, .json, .jsonl, .parquet, .db/.sqlite for SQLite); the SQL table is named after it. Defaults to the base name of path"`
	CSV  string `json:"csv,omitempty" jsonschema:"the whole file as text (CSV or JSON). Give csv or path, not both"`
	Path string `json:"path,omitempty" jsonschema:"absolute path of the file on this machine (stdio only). Give csv or path, not both"`
}

type analyzeIn struct {
	Request         string     `json:"request" jsonschema:"what to analyze, in plain words, e.g. Analyze Q1 2021 Arizona sales; trends + charts"`
	Files           []dataFile `json:"files,omitempty" jsonschema:"the data files, 1 to 10"`
	Sources         []string   `json:"sources,omitempty" jsonschema:"PostgreSQL connection strings (postgres://...) to query in place, read-only"`
	Deliverables    []string   `json:"deliverables,omitempty" jsonschema:"any of tables, charts, reports, summary (default all)"`
	RowLimit        int        `json:"row_limit,omitempty" jsonschema:"most rows a query may return, 1 to 200000 (default 200000)"`
	TimeoutSeconds  int        `json:"timeout_seconds,omitempty" jsonschema:"time for the whole analysis, 1 to 180 (default 30)"`
	AllowedColumns  []string   `json:"allowed_columns,omitempty" jsonschema:"the only columns queries may reach"`
	BlockedPatterns []string   `json:"blocked_patterns,omitempty" jsonschema:"regular expressions for personal data to mask (default: e-mails, phones, card numbers, national ids)"`
	Wait            *bool      `json:"wait,omitempty" jsonschema:"wait for the analysis to end and return its result (default true)"`
}

type analysisStep struct {
	TaskID string `json:"task_id"`
	Tool   string `json:"tool"`
	Status string `json:"status"`
	Does   string `json:"description"`
}

type analysisArtifact struct {
	Type string `json:"artifact_type"`
	Path string `json:"content_ref"`
	Hash string `json:"content_hash"`
}

type analysisOut struct {
	RequestID   string             `json:"request_id"`
	Status      string             `json:"status" jsonschema:"submitted, planning, executing, completed, partial_success or failed"`
	Summary     string             `json:"summary,omitempty" jsonschema:"the findings, each number from a recorded query"`
	Steps       []analysisStep     `json:"steps,omitempty"`
	Artifacts   []analysisArtifact `json:"artifacts,omitempty"`
	Undelivered []string           `json:"undelivered,omitempty"`
	RecipeID    string             `json:"recipe_id,omitempty"`
	Error       string             `json:"error,omitempty"`
	// Clarification is how the request was read when it could not be
	// answered as asked (error NEEDS_CLARIFICATION).
	Clarification *analysis.Clarification `json:"clarification,omitempty" jsonschema:"for a request that could not be answered as asked: the phrases understood, and the words not understood with why and the nearest columns and values"`
	Next          string                  `json:"next"`
}

type getAnalysisIn struct {
	RequestID string `json:"request_id" jsonschema:"the analysis's request_id, as analyze gave it"`
}

type listRecipesIn struct{}

type recipeInfo struct {
	RecipeID     string `json:"recipe_id"`
	Template     string `json:"intent_template"`
	SuccessCount int    `json:"success_count"`
	LastUsedAt   string `json:"last_used_at"`
	Steps        int    `json:"steps"`
}

type listRecipesOut struct {
	Recipes []recipeInfo `json:"recipes" jsonschema:"most recently used first"`
}

// analysisWait bounds how long analyze waits for a result.
const analysisWait = 200 * time.Second

func (t *tools) addAnalysisTools(s *mcpsdk.Server) {
	if t.opt.Analyses == nil {
		return
	}
	add(s, t, &mcpsdk.Tool{
		Name: "start_analysis",
		Description: "Analyze data from a request in plain words (\"monthly revenue by state in 2021 vs last year, top 5 products\"): Quarry plans the steps offline " +
			"(totals, trends with charts, breakdowns, distributions, summary statistics), runs them as audited SQL, and returns a summary whose every number comes from a recorded query, " +
			"with the result tables (CSV), charts (PNG) and a report (Markdown) as hashed files. Files come as text or, over stdio, as paths; databases as postgres:// connection strings.",
		Annotations: changes("Analyze"),
	}, t.analyze)
	add(s, t, &mcpsdk.Tool{
		Name:        "get_analysis",
		Description: "Get an analysis's status, steps, summary and artifacts by its request_id.",
		Annotations: readOnly("Get analysis"),
	}, t.getAnalysis)
	add(s, t, &mcpsdk.Tool{
		Name:        "list_analysis_recipes",
		Description: "List the analyses Quarry keeps for reuse (recipes): a request's shape with {placeholders}, reused for later requests on the same schema.",
		Annotations: readOnly("List recipes"),
	}, t.listRecipes)
}

func (t *tools) analyze(ctx context.Context, in analyzeIn) (analysisOut, string, error) {
	req := analysis.Request{Intent: in.Request, Deliverables: in.Deliverables,
		Constraints: analysis.Constraints{RowLimit: in.RowLimit, TimeoutSeconds: in.TimeoutSeconds},
		Policy:      analysis.Policy{AllowedColumns: in.AllowedColumns, BlockedPatterns: in.BlockedPatterns}}
	for _, dsn := range in.Sources {
		req.DataSources = append(req.DataSources, analysis.DataSource{Type: analysis.SourceSQL, ConnectionString: dsn})
	}
	var uploads []analysis.Upload
	for _, f := range in.Files {
		if f.Path != "" && !t.opt.AllowPaths {
			return analysisOut{}, "", quarry.Errorf(quarry.ECodeForbidden, "files come as text over HTTP; paths are read over stdio only")
		}
		name := f.Name
		if name == "" && f.Path != "" {
			name = filepath.Base(f.Path)
		}
		src, err := open(localFile{Name: name, CSV: f.CSV, Path: f.Path})
		if err != nil {
			return analysisOut{}, "", err
		}
		defer src.r.Close()
		uploads = append(uploads, analysis.Upload{Name: src.name, Body: src.r})
	}
	res, err := t.opt.Analyses.Start(ctx, "", req, uploads)
	if err != nil {
		return analysisOut{}, "", err
	}
	if in.Wait == nil || *in.Wait {
		wctx, cancel := context.WithTimeout(ctx, analysisWait)
		defer cancel()
		if done, err := t.opt.Analyses.Wait(wctx, res.RequestID); err == nil {
			res = done
		}
	}
	out := newAnalysisOut(res)
	return out, out.text(), nil
}

func (t *tools) getAnalysis(ctx context.Context, in getAnalysisIn) (analysisOut, string, error) {
	res, err := t.opt.Analyses.Get(ctx, in.RequestID)
	if err != nil {
		return analysisOut{}, "", err
	}
	out := newAnalysisOut(res)
	return out, out.text(), nil
}

func (t *tools) listRecipes(ctx context.Context, _ listRecipesIn) (listRecipesOut, string, error) {
	rs, err := t.opt.Analyses.Recipes(ctx)
	if err != nil {
		return listRecipesOut{}, "", err
	}
	out := listRecipesOut{Recipes: []recipeInfo{}}
	var b strings.Builder
	fmt.Fprintf(&b, "%d recipe(s)", len(rs))
	for _, r := range rs {
		out.Recipes = append(out.Recipes, recipeInfo{RecipeID: r.RecipeID, Template: r.IntentTemplate, SuccessCount: r.SuccessCount, LastUsedAt: r.LastUsedAt, Steps: len(r.PlanStructure.Subtasks)})
		fmt.Fprintf(&b, "\n%s used %d×: %s", r.RecipeID, r.SuccessCount, r.IntentTemplate)
	}
	return out, b.String(), nil
}

func newAnalysisOut(res *analysis.Result) analysisOut {
	out := analysisOut{RequestID: res.RequestID, Status: res.Status, Summary: res.Summary, Undelivered: res.Undelivered, RecipeID: res.RecipeID}
	if res.Plan != nil {
		for _, s := range res.Plan.Subtasks {
			out.Steps = append(out.Steps, analysisStep{TaskID: s.TaskID, Tool: s.ToolName, Status: s.Status, Does: s.Description})
		}
	}
	for _, a := range res.Artifacts {
		out.Artifacts = append(out.Artifacts, analysisArtifact{Type: a.ArtifactType, Path: a.ContentRef, Hash: a.ContentHash})
	}
	if res.Error != nil {
		out.Error = res.Error.Code + ": " + res.Error.Message
	}
	out.Clarification = res.Clarification
	switch {
	case res.Status == analysis.StatusCompleted:
		out.Next = "read the summary; the artifacts are files on this machine (tables as CSV, charts as PNG, the report as Markdown)"
	case res.Status == analysis.StatusPartialSuccess:
		out.Next = "tell the user what did not run (listed as not delivered) with the summary, which leaves it out; the artifacts are files on this machine"
	case res.Error != nil && res.Error.Code == quarry.ECodeNeedsClarification:
		out.Next = "nothing was answered: do not guess. Ask the user what the words not understood mean (the nearest columns and values are listed), then call start_analysis again with the request in the data's words"
	case res.Status == analysis.StatusFailed:
		out.Next = "read the error; fix the request or the data and call start_analysis again"
	default:
		out.Next = "call get_analysis with this request_id in a few seconds"
	}
	return out
}

// text is the result as the model reads it, the answer first: the
// summary, or that the request could not be answered and why, with the
// words not understood and the nearest columns and values.
func (o analysisOut) text() string {
	var b strings.Builder
	code, msg, _ := strings.Cut(o.Error, ": ")
	switch o.Status {
	case analysis.StatusCompleted:
		if o.Summary != "" {
			fmt.Fprintf(&b, "%s\n", o.Summary)
		}
	case analysis.StatusPartialSuccess:
		b.WriteString("I could answer only part of this; what did not run is listed as not delivered, and the summary leaves it out.\n")
	case analysis.StatusFailed:
		switch {
		case code == quarry.ECodeNeedsClarification:
			fmt.Fprintf(&b, "I could not answer this as asked: %s\n", msg)
		case o.Error != "":
			fmt.Fprintf(&b, "I could not answer this: %s\n", msg)
		default:
			b.WriteString("I could not answer this: no step of the plan succeeded.\n")
		}
	}
	if c := o.Clarification; c != nil {
		for _, u := range c.NotUnderstood {
			line := fmt.Sprintf("not understood: %q", u.Word)
			if u.Reason != "" {
				line += ": " + u.Reason
			}
			if len(u.Nearest) > 0 {
				line += " (nearest: " + strings.Join(u.Nearest, ", ") + ")"
			}
			b.WriteString(line + "\n")
		}
		for _, u := range c.Understood {
			fmt.Fprintf(&b, "understood: %s\n", u)
		}
	}
	for _, u := range o.Undelivered {
		fmt.Fprintf(&b, "not delivered: %s\n", u)
	}
	if o.Status != analysis.StatusCompleted && o.Summary != "" {
		fmt.Fprintf(&b, "what could be answered:\n%s\n", o.Summary)
	}
	fmt.Fprintf(&b, "analysis %s: %s\n", o.RequestID, o.Status)
	if o.Error != "" {
		fmt.Fprintf(&b, "error: %s\n", o.Error)
	}
	for _, a := range o.Artifacts {
		fmt.Fprintf(&b, "%s: %s\n", a.Type, a.Path)
	}
	b.WriteString("next: " + o.Next)
	return b.String()
}
