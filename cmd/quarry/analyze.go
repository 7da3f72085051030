package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/analyze"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/fsstore"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/budget"
	"github.com/quarry-dev/quarry/sqlite"
)

// sourceArgs are the --source flags: PATH or NAME=PATH or NAME=DSN.
type sourceArgs []analysis.DataSource

func (s *sourceArgs) String() string { return fmt.Sprint(*s) }

func (s *sourceArgs) Set(v string) error {
	ds, err := parseSource(v)
	if err != nil {
		return err
	}
	*s = append(*s, ds)
	return nil
}

// parseSource reads one --source: a file by its extension (.csv, .json,
// .jsonl, .parquet; .db, .sqlite, .sqlite3 and .duckdb are databases), or
// a connection string (sqlite:PATH, duckdb:PATH, postgres://...), each
// optionally named NAME=.
func parseSource(v string) (analysis.DataSource, error) {
	name, target := "", v
	if i := strings.Index(v, "="); i > 0 && !strings.Contains(v[:i], "/") && !strings.Contains(v[:i], ":") {
		name, target = v[:i], v[i+1:]
	}
	if target == "" {
		return analysis.DataSource{}, fmt.Errorf("--source needs a path or a connection string")
	}
	ds := analysis.DataSource{Name: name}
	switch {
	case strings.HasPrefix(target, "postgres://") || strings.HasPrefix(target, "postgresql://") ||
		strings.HasPrefix(target, "sqlite:") || strings.HasPrefix(target, "duckdb:"):
		ds.Type, ds.ConnectionString = analysis.SourceSQL, target
	default:
		switch strings.ToLower(filepath.Ext(target)) {
		case ".csv":
			ds.Type = analysis.SourceCSV
		case ".json", ".jsonl", ".ndjson":
			ds.Type = analysis.SourceJSON
		case ".parquet":
			ds.Type = analysis.SourceParquet
		case ".db", ".sqlite", ".sqlite3":
			ds.Type, ds.ConnectionString = analysis.SourceSQL, "sqlite:"+absPath(target)
			return ds, nil
		case ".duckdb":
			ds.Type, ds.ConnectionString = analysis.SourceSQL, "duckdb:"+absPath(target)
			return ds, nil
		default:
			return ds, fmt.Errorf("--source %s: not a CSV, JSON, Parquet, SQLite or DuckDB file, nor a connection string", target)
		}
		// Absolute, so that a replay from another directory finds it.
		if abs, err := filepath.Abs(target); err == nil {
			target = abs
		}
		ds.FilePath = target
	}
	return ds, nil
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func runAnalyze(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "replay" {
		return runAnalyzeReplay(ctx, args[1:], getenv, stdout, stderr)
	}
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		sources  sourceArgs
		blocked  listFlag
		allow    string
		deliver  = fs.String("deliverables", strings.Join(analysis.AllDeliverables, ","), "what to produce: tables, charts, reports, summary")
		rowLimit = fs.Int("row-limit", analysis.DefaultRowLimit, "most rows a query may return (1-200000)")
		timeout  = fs.Duration("timeout", analysis.DefaultTimeoutSeconds*time.Second, "time for the whole analysis (1s-180s)")
		dataDir  = fs.String("data-dir", defaultDataDir(getenv), "where artifacts, logs and records are stored")
		asJSON   = fs.Bool("json", false, "print the result as one JSON object on stdout")
	)
	fs.Var(&sources, "source", "a data source: PATH, NAME=PATH or NAME=DSN (repeatable)")
	fs.StringVar(&allow, "allow-columns", "", "comma-separated columns queries may reach (default: all)")
	fs.Var(&blocked, "block-pattern", "a regular expression for personal data to mask (repeatable)")
	memoryMB := memoryFlag(app.DefaultMemoryMB)
	memoryMB.register(fs)
	var mf modelFlags
	mf.register(fs, getenv)
	flags, rest := splitArgs(args)
	if help, err := parseFlags(fs, flags); help || err != nil {
		return err
	}
	if len(rest) != 1 {
		return &usageError{`analyze needs one request in quotes, e.g. quarry analyze --source sales.csv "monthly sales by region"`}
	}
	w, err := mf.open(getenv)
	if err != nil {
		return err
	}
	if *timeout%time.Second != 0 {
		return &usageError{"--timeout takes whole seconds, e.g. 30s"}
	}
	req := analysis.Request{
		Intent:      rest[0],
		DataSources: sources,
		Constraints: analysis.Constraints{RowLimit: *rowLimit, TimeoutSeconds: int(*timeout / time.Second)},
		Policy:      analysis.Policy{BlockedPatterns: blocked},
	}
	if *rowLimit == 0 {
		req.Constraints.RowLimit = -1 // 0 is "default" in a request; on the command line it is a mistake
	}
	if *timeout == 0 {
		req.Constraints.TimeoutSeconds = -1
	}
	for _, d := range strings.Split(*deliver, ",") {
		if d = strings.TrimSpace(d); d != "" {
			req.Deliverables = append(req.Deliverables, d)
		}
	}
	if allow != "" {
		for _, c := range strings.Split(allow, ",") {
			req.Policy.AllowedColumns = append(req.Policy.AllowedColumns, strings.TrimSpace(c))
		}
	}
	mem, err := memoryMB.start(ctx, 1, 1, getenv, slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		return err
	}
	defer mem.stop()
	res, err := analyzeOnce(ctx, *dataDir, req, w, mem, stderr)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	printAnalysis(stdout, res)
	if res.Status == analysis.StatusFailed {
		return quarry.Errorf(quarry.ECodeInvalid, "the analysis failed").WithHint("see the steps above")
	}
	return nil
}

// splitArgs separates the flags from the request (the argument that is
// not a flag), so the request may come first or last.
func splitArgs(args []string) (flags, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			rest = append(rest, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-"):
			flags = append(flags, a)
			if !strings.Contains(a, "=") && i+1 < len(args) && !boolFlag(a) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			rest = append(rest, a)
		}
	}
	return flags, rest
}

func boolFlag(a string) bool {
	n := strings.TrimLeft(a, "-")
	return n == "json" || n == "h" || n == "help" || n == "password-stdin"
}

// runAnalyzeReplay implements "quarry analyze replay REQUEST_ID".
func runAnalyzeReplay(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("analyze replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", defaultDataDir(getenv), "where artifacts, logs and records are stored")
	asJSON := fs.Bool("json", false, "print the replay and its artifact checks as one JSON object")
	flags, rest := splitArgs(args)
	if help, err := parseFlags(fs, flags); help || err != nil {
		return err
	}
	if len(rest) != 1 || strings.Trim(rest[0], "0123456789abcdef-") != "" {
		return &usageError{"usage: quarry analyze replay REQUEST_ID (the request_id of an earlier analysis)"}
	}
	store := fsstore.Analyses{Root: *dataDir}
	var original analysis.Result
	if err := store.ReadJSON(filepath.Join("analyses", rest[0], "result.json"), &original); err != nil {
		if quarry.ErrorCode(err) == quarry.ECodeNotFound {
			return quarry.Errorf(quarry.ECodeNotFound, "no analysis %s in %s", rest[0], *dataDir)
		}
		return err
	}
	a, closeLog, err := newAnalyzer(store, limits{split: budget.SplitMemory(app.DefaultMemoryMB, 1, 1, runtime.NumCPU())}, stderr)
	if err != nil {
		return err
	}
	defer closeLog()
	res, checks, err := a.Replay(ctx, &original)
	if err != nil {
		return err
	}
	res.AuditLog = store.AuditLog()
	changed := 0
	for _, c := range checks {
		if !c.Identical {
			changed++
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"replay": res, "artifacts": checks, "identical": changed == 0}); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "replay %s of %s: %s\n", res.RequestID, original.RequestID, res.Status)
		for _, c := range checks {
			verdict := "identical"
			switch {
			case c.Replayed == "":
				verdict = "MISSING"
			case !c.Identical:
				verdict = "CHANGED"
			}
			fmt.Fprintf(stdout, "  %-9s %-7s %s\n", verdict, c.ArtifactType, c.Name)
		}
	}
	if changed > 0 {
		return quarry.Errorf(quarry.ECodeConflict, "%d of %d artifacts differ from the original's", changed, len(checks)).
			WithHint("the sources changed since, or the analysis is not reproducible")
	}
	if !*asJSON {
		fmt.Fprintf(stdout, "every artifact hash is identical (%d)\n", len(checks))
	}
	return nil
}

// analyzeOnce wires the offline analyst over the data dir and runs req.
func analyzeOnce(ctx context.Context, dataDir string, req analysis.Request, w wiredModel, mem limits, stderr io.Writer) (*analysis.Result, error) {
	store := fsstore.Analyses{Root: dataDir}
	a, closeLog, err := newAnalyzer(store, mem, stderr)
	if err != nil {
		return nil, err
	}
	a.Model = w.model // nil: the offline planner
	a.Embedder, a.EmbeddingModel = w.embedder, w.embedModel
	defer closeLog()
	// The watchdog ends the analysis with RESOURCE_LIMIT should the
	// process pass --memory-mb.
	ctx, unwatch := mem.guard.Watch(ctx, "the analysis")
	defer unwatch()
	res, err := a.Run(ctx, req)
	err = budget.Cause(ctx, err)
	if res != nil {
		res.AuditLog = store.AuditLog()
	}
	return res, err
}

// newAnalyzer wires the offline analyst over store, its workspace within
// mem's split, with progress on stderr; closeAll closes the shared audit
// log and the recipe memory.
func newAnalyzer(store fsstore.Analyses, mem limits, stderr io.Writer) (a *analyze.Analyzer, closeAll func() error, err error) {
	if err := os.MkdirAll(filepath.Dir(store.AuditLog()), 0o755); err != nil {
		return nil, nil, err
	}
	log, err := audit.OpenShared(store.AuditLog(), nil)
	if err != nil {
		return nil, nil, err
	}
	a, recipes, err := app.Analyzer(store.Root, app.EngineOptions(mem.split, store.Root), openSource, nil)
	if err != nil {
		log.Close()
		return nil, nil, err
	}
	a.Audit = log
	start := time.Now()
	a.Progress = func(e analysis.Event) {
		msg := e.Message
		if e.TaskID != "" {
			msg = fmt.Sprintf("%s %s: %s", e.TaskID, e.Status, e.Message)
		}
		fmt.Fprintf(stderr, "[%5.1fs] %-8s %s\n", time.Since(start).Seconds(), e.Step, msg)
	}
	return a, func() error {
		recipes.Close()
		return log.Close()
	}, nil
}

// runRecipes implements "quarry recipes [list|show ID|delete ID]".
func runRecipes(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("recipes", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", defaultDataDir(getenv), "where the recipe memory is stored")
	flags, rest := splitArgs(args)
	if help, err := parseFlags(fs, flags); help || err != nil {
		return err
	}
	if len(rest) == 0 {
		rest = []string{"list"}
	}
	store, err := sqlite.OpenRecipes(app.RecipesPath(*dataDir))
	if err != nil {
		return err
	}
	defer store.Close()
	switch {
	case rest[0] == "list" && len(rest) == 1:
		all, err := store.List(ctx)
		if err != nil {
			return err
		}
		if len(all) == 0 {
			fmt.Fprintln(stdout, "no recipes yet: each completed quarry analyze keeps one")
			return nil
		}
		for _, r := range all {
			fmt.Fprintf(stdout, "%s  used %d×, last %s  %s\n", r.RecipeID, r.SuccessCount, r.LastUsedAt, r.IntentTemplate)
		}
		return nil
	case rest[0] == "show" && len(rest) == 2:
		r, err := store.Get(ctx, rest[1])
		if err != nil {
			return err
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case rest[0] == "delete" && len(rest) == 2:
		if err := store.Delete(ctx, rest[1]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "deleted recipe %s\n", rest[1])
		return nil
	}
	return &usageError{"usage: quarry recipes [list | show ID | delete ID]"}
}

// printAnalysis prints the result for a person.
func printAnalysis(w io.Writer, res *analysis.Result) {
	fmt.Fprintf(w, "%s (request %s)\n", res.Status, res.RequestID)
	if res.Summary != "" {
		fmt.Fprintf(w, "\n%s\n\n", res.Summary)
	}
	for _, u := range res.Undelivered {
		fmt.Fprintf(w, "not delivered: %s\n", u)
	}
	for _, a := range res.Artifacts {
		fmt.Fprintf(w, "%-7s %s  sha256 %.12s…\n", a.ArtifactType, a.ContentRef, a.ContentHash)
	}
	fmt.Fprintf(w, "audit log: %s\n", res.AuditLog)
}

// openSource opens a database source by its connection string.
func openSource(ctx context.Context, ds analysis.DataSource) (analysis.Source, error) {
	switch {
	case strings.HasPrefix(ds.ConnectionString, "postgres://"), strings.HasPrefix(ds.ConnectionString, "postgresql://"):
		return openPostgres(ctx, ds.ConnectionString)
	}
	return app.OpenDatabaseFile(ctx, ds)
}
