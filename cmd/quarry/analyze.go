package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analyses"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/fsstore"
	"github.com/quarry-dev/quarry/internal/app"
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
	fs.Usage = func() {
		fmt.Fprint(stderr, analyzeUsage)
		fs.PrintDefaults()
	}
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
	stderrSync := &syncWriter{w: stderr}
	a, closeJob, err := openJob(ctx, jobOptions{dataDir: *dataDir, memoryMB: memoryMB, getenv: getenv, stderr: stderrSync, model: w})
	if err != nil {
		return err
	}
	defer closeJob()
	res, err := analyzeOnce(ctx, a.Analyses, *dataDir, req, stderrSync, closeJob)
	if err != nil {
		return err
	}
	// The result goes to stdout whatever its status; the exit status
	// says whether the request was answered (analyzeExit).
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	} else {
		printAnalysis(stdout, res)
	}
	return analyzeExit(res)
}

// analyzeUsage is the text of quarry analyze -h before its flags.
const analyzeUsage = `usage: quarry analyze [flags] "REQUEST"
       quarry analyze replay [--data-dir DIR] [--json] REQUEST_ID

Answers a request in plain words over the --source files and databases:
a validated plan, its steps' tables, charts, a summary and a report, each
step in the audit log. The result is printed (--json: one JSON object on
stdout, whatever the status) and recorded under the data dir.

Exit status:
  0  completed, or partial_success (some steps or deliverables missing, or
     rows cut at the row limit: the result says which)
  1  failed, including a request that needs clarification
     (NEEDS_CLARIFICATION: words that could not be applied), or an error
     before the analysis was recorded; the code and message are on stderr
  2  the command was called wrongly

Flags:
`

// analyzeExit is the command's error for a recorded result: nil when the
// request was answered (completed or partial_success), else the result's
// error (NEEDS_CLARIFICATION, RESOURCE_LIMIT, ...), so that a failed
// analysis exits non-zero in every output mode.
func analyzeExit(res *analysis.Result) error {
	if res.Status != analysis.StatusFailed {
		return nil
	}
	if res.Error != nil {
		return errorOf(res.Error)
	}
	return quarry.Errorf(quarry.ECodeInvalid, "the analysis failed").WithHint("see the steps above")
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
	a, closeJob, err := openJob(ctx, jobOptions{dataDir: *dataDir, getenv: getenv, stderr: &syncWriter{w: stderr}})
	if err != nil {
		return err
	}
	defer closeJob()
	original, err := a.Analyses.Get(ctx, rest[0])
	if quarry.ErrorCode(err) == quarry.ECodeNotFound {
		return quarry.Errorf(quarry.ECodeNotFound, "no analysis %s in %s", rest[0], *dataDir)
	}
	if err != nil {
		return err
	}
	res, checks, err := a.Analyses.Replay(ctx, original.RequestID)
	if err != nil {
		return err
	}
	res.AuditLog = fsstore.Analyses{Root: *dataDir}.AuditLog()
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

// analyzeOnce runs req through the analyses service m, as quarry serve's
// API would with the request's files where they are (StartLocal), and
// prints its progress on stderr. It returns the recorded result whatever
// its status, a request refused by the planner or a source that cannot be
// loaded included; an error only for a request refused before it was
// recorded (invalid), or when ctx ends first (Ctrl-C): then stop stops
// the service, which records the analysis as interrupted.
func analyzeOnce(ctx context.Context, m *analyses.Service, dataDir string, req analysis.Request, stderr io.Writer, stop func()) (*analysis.Result, error) {
	start := time.Now()
	rec, err := m.StartLocal(ctx, req)
	if err != nil {
		return nil, err
	}
	past, live, unsubscribe, err := m.Subscribe(ctx, rec.RequestID)
	if err != nil {
		return nil, err
	}
	printed := make(chan struct{})
	go func() {
		defer close(printed)
		p := analyzeProgress{w: stderr, start: start}
		for _, e := range past {
			p.print(e)
		}
		for e := range live {
			p.print(e)
		}
	}()
	res, err := m.Wait(ctx, rec.RequestID)
	if err != nil && ctx.Err() != nil {
		stop()
		if got, gerr := m.Get(context.Background(), rec.RequestID); gerr == nil && got.Error != nil {
			err = errorOf(got.Error)
		}
	}
	unsubscribe()
	<-printed
	if err != nil {
		return nil, err
	}
	res.AuditLog = fsstore.Analyses{Root: dataDir}.AuditLog()
	return res, nil
}

// errorOf is the error a record holds, as the error it was.
func errorOf(info *quarry.ErrorInfo) error {
	return &quarry.Error{Code: info.Code, Message: info.Message, Hint: info.Hint}
}

// analyzeProgress prints the steps and tasks of one analysis.
type analyzeProgress struct {
	w       io.Writer
	start   time.Time
	planned bool
}

// print prints e. The failure of a request refused before it had a plan
// is left out: the command prints it as its error.
func (p *analyzeProgress) print(e analysis.Event) {
	switch {
	case e.Step == "plan":
		p.planned = true
	case e.Step == "failed" && !p.planned:
		return
	}
	msg := e.Message
	if e.TaskID != "" {
		msg = fmt.Sprintf("%s %s: %s", e.TaskID, e.Status, e.Message)
	}
	fmt.Fprintf(p.w, "[%5.1fs] %-8s %s\n", max(e.Time.Sub(p.start).Seconds(), 0), e.Step, msg)
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

// printAnalysis prints the result for a person, the answer first: the
// summary, or what could not be answered and why (the words not
// understood with the nearest columns and values, and what was
// understood); then the status, the artifacts and the steps.
func printAnalysis(w io.Writer, res *analysis.Result) {
	printAnswer(w, res)
	status := res.Status
	if res.Error != nil {
		status += ", " + res.Error.Code
	}
	fmt.Fprintf(w, "\n%s (request %s)\n", status, res.RequestID)
	for _, a := range res.Artifacts {
		fmt.Fprintf(w, "%-7s %s  sha256 %.12s…\n", a.ArtifactType, a.ContentRef, a.ContentHash)
	}
	if res.Plan != nil && len(res.Plan.Subtasks) > 0 {
		fmt.Fprintln(w, "steps:")
		for _, t := range res.Plan.Subtasks {
			fmt.Fprintf(w, "  %-9s %s (%s, %s)\n", t.Status, t.TaskID, t.ToolName, oneLine(t.Description))
		}
	}
	fmt.Fprintf(w, "audit log: %s\n", res.AuditLog)
}

// printAnswer prints what the analysis answered, or says plainly first
// that it did not and why.
func printAnswer(w io.Writer, res *analysis.Result) {
	summary := strings.TrimSpace(res.Summary)
	switch res.Status {
	case analysis.StatusCompleted:
		if summary == "" {
			summary = "The analysis finished without a figure to state; see its tables and charts."
		}
		fmt.Fprintln(w, summary)
		summary = "" // printed, before how the request was read
	case analysis.StatusPartialSuccess:
		fmt.Fprintln(w, "I could answer only part of this; these did not run, and the figures below leave them out:")
	case analysis.StatusFailed:
		switch {
		case res.Error != nil && res.Error.Code == quarry.ECodeNeedsClarification:
			fmt.Fprintf(w, "I could not answer this as asked: %s\n", res.Error.Message)
		case res.Error != nil:
			fmt.Fprintf(w, "I could not answer this: %s\n", res.Error.Message)
		default:
			fmt.Fprintln(w, "I could not answer this: no step of the plan succeeded.")
		}
		if res.Error != nil && res.Error.Hint != "" {
			fmt.Fprintf(w, "hint: %s\n", res.Error.Hint)
		}
	default:
		fmt.Fprintf(w, "The analysis has not finished (%s).\n", res.Status)
		return
	}
	for _, u := range res.Undelivered {
		fmt.Fprintf(w, "  - %s\n", u)
	}
	if c := res.Clarification; c != nil {
		if len(c.NotUnderstood) > 0 {
			fmt.Fprintln(w, "Not understood:")
			for _, u := range c.NotUnderstood {
				line := fmt.Sprintf("  - %q", u.Word)
				if u.Reason != "" {
					line += ": " + u.Reason
				}
				if len(u.Nearest) > 0 {
					line += " (nearest: " + strings.Join(u.Nearest, ", ") + ")"
				}
				fmt.Fprintln(w, line)
			}
		}
		if len(c.Understood) > 0 {
			fmt.Fprintln(w, "Understood:")
			for _, u := range c.Understood {
				fmt.Fprintf(w, "  - %s\n", u)
			}
		}
	}
	if summary != "" {
		fmt.Fprintf(w, "What I could answer:\n%s\n", summary)
	}
}

// oneLine puts s on one line, each run of spaces one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// openSource opens a database source by its connection string.
func openSource(ctx context.Context, ds analysis.DataSource) (analysis.Source, error) {
	switch {
	case strings.HasPrefix(ds.ConnectionString, "postgres://"), strings.HasPrefix(ds.ConnectionString, "postgresql://"):
		return openPostgres(ctx, ds.ConnectionString)
	}
	return app.OpenDatabaseFile(ctx, ds)
}
