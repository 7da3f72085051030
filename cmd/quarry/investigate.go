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
	"strings"
	"sync"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/investigations"
	"github.com/quarry-dev/quarry/llm"
)

// fileArg is one --file PATH[=DESCRIPTION].
type fileArg struct{ path, description string }

type fileArgs []fileArg

// names is a repeatable flag of names (--ignore-column).
type names []string

func (n *names) String() string { return strings.Join(*n, ",") }

func (n *names) Set(v string) error {
	if strings.TrimSpace(v) == "" {
		return fmt.Errorf("needs a column name")
	}
	*n = append(*n, strings.TrimSpace(v))
	return nil
}

func (f *fileArgs) String() string { return fmt.Sprint(*f) }

func (f *fileArgs) Set(v string) error {
	path, desc, _ := strings.Cut(v, "=")
	if path == "" {
		return fmt.Errorf("--file needs a path")
	}
	*f = append(*f, fileArg{path: path, description: desc})
	return nil
}

// investigation is everything one run needs.
type investigationRun struct {
	files   []fileArg
	context investigation.Context
	dataDir string
	maxMB   int64
	// memoryMB is the process's budget (--memory-mb; default
	// app.DefaultMemoryMB).
	memoryMB memoryFlag
	getenv   func(string) string
	stderr   io.Writer
	// model takes part in every step when set; nil runs offline. dialCode
	// connects its Python to a code sandbox.
	model    llm.Model
	dialCode func(context.Context) (investigations.CodeSession, error)
}

func runInvestigate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("investigate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		files                           fileArgs
		ignore                          names
		metric, base, cmp               string
		bizContext, prompt              string
		timeColumn, timeFormat, dataDir string
		asJSON                          bool
		maxMB                           int64
	)
	fs.Var(&files, "file", "CSV file to investigate, as PATH or PATH=DESCRIPTION (repeat for up to 10 files)")
	fs.StringVar(&metric, "metric", "", "the metric as SQL with one aggregate, e.g. 'SELECT SUM(amount) FROM orders'")
	fs.StringVar(&base, "baseline", "", "baseline period YYYY-MM-DD..YYYY-MM-DD")
	fs.StringVar(&cmp, "comparison", "", "comparison period YYYY-MM-DD..YYYY-MM-DD")
	fs.StringVar(&bizContext, "context", "", "business context")
	fs.StringVar(&prompt, "prompt", "", "what to focus on or suspect")
	fs.StringVar(&timeColumn, "time-column", "", "the time column as COLUMN or TABLE.COLUMN (default: detected)")
	fs.Var(&ignore, "ignore-column", "a column to leave out, as COLUMN or TABLE.COLUMN (repeatable)")
	fs.StringVar(&timeFormat, "time-format", "", "how the time column reads, as a strptime layout such as %d/%m/%Y, or %Y, %s, %ms for numbers (default: detected from its values)")
	fs.StringVar(&dataDir, "data-dir", defaultDataDir(getenv), "where sessions are stored (env QUARRY_DATA_DIR)")
	fs.Int64Var(&maxMB, "max-file-mb", 50, "largest accepted file in MB")
	memoryMB := memoryFlag(app.DefaultMemoryMB)
	memoryMB.register(fs)
	fs.BoolVar(&asJSON, "json", false, "print the result as one JSON object on stdout")
	var mf modelFlags
	mf.register(fs, getenv)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	inv := investigationRun{files: files, dataDir: dataDir, maxMB: maxMB, memoryMB: memoryMB, getenv: getenv, stderr: stderr}
	w, err := mf.open(getenv)
	if err != nil {
		return err
	}
	inv.model, inv.dialCode = w.model, w.dial
	inv.context = investigation.Context{MetricSQL: strings.TrimSpace(metric), BusinessContext: bizContext,
		InvestigationPrompt: prompt, TimeColumn: timeColumn, TimeFormat: timeFormat, IgnoreColumns: ignore}
	if base == "" || cmp == "" {
		return quarry.Errorf(quarry.ECodeInvalidDateRange, "both --baseline and --comparison periods are required (YYYY-MM-DD..YYYY-MM-DD)")
	}
	if inv.context.BaselinePeriod, err = quarry.ParseDateRange(base); err != nil {
		return err
	}
	if inv.context.ComparisonPeriod, err = quarry.ParseDateRange(cmp); err != nil {
		return err
	}
	res, err := inv.run(ctx)
	if err != nil {
		return err
	}
	return printResult(stdout, res, asJSON)
}

func defaultDataDir(getenv func(string) string) string {
	if d := getenv("QUARRY_DATA_DIR"); d != "" {
		return d
	}
	return "quarry-data"
}

// check validates what can be checked before anything is written.
func (inv *investigationRun) check() error {
	if err := inv.context.Validate(); err != nil {
		return err
	}
	switch n := len(inv.files); {
	case n == 0:
		return quarry.Errorf(quarry.ECodeNoFilesUploaded, "give at least one --file")
	case n > quarry.MaxFilesPerSession:
		return quarry.Errorf(quarry.ECodeMaxFilesExceeded, "%d files given; a session holds at most %d", n, quarry.MaxFilesPerSession)
	}
	for _, f := range inv.files {
		st, err := os.Stat(f.path)
		if err != nil {
			return quarry.Errorf(quarry.ECodeNotFound, "cannot read %s: %w", f.path, err)
		}
		if !strings.EqualFold(filepath.Ext(f.path), ".csv") {
			return quarry.Errorf(quarry.ECodeInvalidFileType, "%s is not a .csv file", f.path)
		}
		if st.Size() > inv.maxMB<<20 {
			return quarry.Errorf(quarry.ECodeFileTooLarge, "%s is %d MB; the limit is %d MB", f.path, st.Size()>>20, inv.maxMB).
				WithHint("raise it with --max-file-mb")
		}
	}
	return nil
}

// run checks the request, then runs it through the investigation
// service of the server's stack opened in this process (openJob): the
// session is created, the files added and checked, the investigation
// started, its progress printed and its end awaited, exactly as through
// quarry serve's API, so that quarry serve lists it afterwards. A request
// the service refuses leaves the session as it was (with its files); a
// run that fails marks the session failed with its error and leaves
// every artifact written so far in place.
func (inv *investigationRun) run(ctx context.Context) (*investigation.Result, error) {
	if err := inv.check(); err != nil {
		return nil, err
	}
	stderr := &syncWriter{w: inv.stderr}
	if inv.stderr == nil {
		stderr.w = io.Discard
	}
	a, closeJob, err := openJob(ctx, jobOptions{dataDir: inv.dataDir, maxMB: inv.maxMB, memoryMB: inv.memoryMB, getenv: inv.getenv,
		stderr: stderr, model: wiredModel{model: inv.model, dial: inv.dialCode}})
	if err != nil {
		return nil, err
	}
	defer closeJob()
	return inv.investigate(ctx, a.Investigations, stderr, closeJob)
}

// investigate runs the investigation through m, printing its progress on
// stderr. When ctx ends first (Ctrl-C), stop stops the service, which
// records the investigation as interrupted; that is the error returned.
func (inv *investigationRun) investigate(ctx context.Context, m *investigations.Service, stderr io.Writer, stop func()) (*investigation.Result, error) {
	sess, err := m.Create(ctx, "")
	if err != nil {
		return nil, err
	}
	id := sess.SessionID
	if meta, err := m.ArtifactPath(ctx, id, "metadata.json"); err == nil {
		fmt.Fprintf(stderr, "session %s in %s\n", id, filepath.Dir(meta))
	}
	for _, fa := range inv.files {
		src, err := os.Open(fa.path)
		if err != nil {
			return nil, quarry.Errorf(quarry.ECodeNotFound, "cannot read %s: %v", fa.path, err)
		}
		_, err = m.AddFile(ctx, id, filepath.Base(fa.path), fa.description, src)
		src.Close()
		if err != nil {
			return nil, err
		}
	}
	if inv.model != nil {
		fmt.Fprintf(stderr, "model: %s\n", inv.model.Name())
	}
	start := time.Now()
	if err := m.Investigate(ctx, id, inv.context); err != nil {
		return nil, err
	}
	past, live, unsubscribe, err := m.Subscribe(ctx, id)
	if err != nil {
		return nil, err
	}
	printed := make(chan struct{})
	go func() {
		defer close(printed)
		for _, e := range past {
			printProgress(stderr, start, e)
		}
		for e := range live {
			printProgress(stderr, start, e)
		}
	}()
	res, err := m.Wait(ctx, id)
	if err != nil && ctx.Err() != nil {
		stop()
		if _, werr := m.Wait(context.Background(), id); werr != nil {
			err = werr
		}
	}
	unsubscribe()
	<-printed
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "done in %.1fs: %s, %d explanations\nreport: %s\n", time.Since(start).Seconds(), res.Status, len(res.Explanations), res.ReportPath)
	return res, nil
}

// printProgress prints one step or iteration of an investigation. The
// run's last event ("done" or "failed") is left out: the command says how
// it ended itself.
func printProgress(w io.Writer, start time.Time, e investigation.Event) {
	if e.Step == "done" || e.Step == "failed" {
		return
	}
	fmt.Fprintf(w, "[%5.1fs] %-10s %s\n", max(e.Time.Sub(start).Seconds(), 0), e.Step, e.Message)
}

// jobOptions are what a command that runs one job in its process needs
// of the server's stack.
type jobOptions struct {
	dataDir string
	// maxMB is the largest accepted file in MB (default 50).
	maxMB int64
	// memoryMB is the process's budget (default app.DefaultMemoryMB).
	memoryMB memoryFlag
	getenv   func(string) string
	// stderr takes the warnings of the stack and its memory watchdog; it
	// must be safe for concurrent use (syncWriter).
	stderr io.Writer
	model  wiredModel
}

// openJob opens the server's stack (internal/app, as quarry serve and
// quarry mcp do) in this process for one job of quarry investigate, demo,
// analyze or a benchmark: the same services over the same data dir, so
// that the job has one lifecycle wherever it is started, and quarry serve
// lists it afterwards. One job runs at a time with one SQL engine, which
// gets the engines' whole part of the memory budget, under the memory
// watchdog. closeJob, which may be called more than once, stops what
// still runs (recorded as interrupted) and then the watchdog.
func openJob(ctx context.Context, o jobOptions) (a *app.App, closeJob func(), err error) {
	getenv := o.getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if o.memoryMB == 0 {
		o.memoryMB = app.DefaultMemoryMB
	}
	if o.maxMB <= 0 {
		o.maxMB = 50
	}
	timeout, err := sessionTimeout(getenv)
	if err != nil {
		return nil, nil, err
	}
	log := slog.New(slog.NewTextHandler(o.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	const engines, running = 1, 1
	mem, err := o.memoryMB.start(ctx, engines, running, getenv, log)
	if err != nil {
		return nil, nil, err
	}
	a, err = app.Open(ctx, app.Options{DataDir: o.dataDir, SessionTimeout: timeout, MaxUploadBytes: o.maxMB << 20,
		MaxRunning: running, MaxEngines: engines, MemoryMB: int64(o.memoryMB), Guard: mem.guard, Log: log, OpenSource: openSource,
		Model: o.model.model, ModelLocal: o.model.local, DialCode: o.model.dial, Embedder: o.model.embedder, EmbeddingModel: o.model.embedModel})
	if err != nil {
		mem.stop()
		return nil, nil, err
	}
	var once sync.Once
	return a, func() {
		once.Do(func() {
			if err := a.Close(); err != nil {
				log.Error("close", "err", err)
			}
			mem.stop()
		})
	}, nil
}

// syncWriter serializes writes to w: a job's progress and its stack's
// warnings come from different goroutines.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// printResult prints a finished investigation answer first: the
// paragraph the report opens with, the ranked explanations with their
// headline numbers, then the evidence (the overall test, warnings, column
// roles, the breakdowns asked for) and where the report is. Every number
// is printed as the report prints it (investigation.Numbers).
func printResult(w io.Writer, res *investigation.Result, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	if res.Answer != "" {
		fmt.Fprintf(w, "%s\n\n", res.Answer)
	}
	if len(res.Explanations) > 0 {
		fmt.Fprintln(w, "explanations, ranked:")
		for _, e := range res.Explanations {
			fmt.Fprintf(w, "%d. [%s] %s: %s (%s)\n", e.Rank, e.Likelihood, e.Headline, e.Title, e.Kind)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "evidence:")
	f, o := res.Numbers, res.Overall
	fmt.Fprintf(w, "%s: %s -> %s (%s, %+.1f%%), significant: %v, p = %.4g\n", res.Status, f.Value(o.BaselineValue), f.Value(o.ComparisonValue), f.Change(o.Change), o.ChangePct, o.Significant, o.PValue)
	for _, warning := range res.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warning)
	}
	if len(res.Columns) > 0 {
		fmt.Fprintf(w, "columns: %s\n", investigation.DescribeRoles(res.Columns))
	}
	for _, b := range res.Breakdowns {
		printBreakdown(w, f, b)
	}
	fmt.Fprintf(w, "report: %s\n", res.ReportPath)
	return nil
}

// maxBreakdownRows is how many values of a breakdown the command prints.
const maxBreakdownRows = 10

// printBreakdown prints the change split by a dimension the question
// named, with the same numbers as the report: the change and its signed
// share of the overall change.
func printBreakdown(w io.Writer, f investigation.Numbers, b investigation.Breakdown) {
	if b.Dimension == "" {
		fmt.Fprintf(w, "asked for %s: %s\n", b.Asked, b.Note)
		return
	}
	fmt.Fprintf(w, "change by %s (asked for %s)", b.Dimension, b.Asked)
	if b.Note != "" {
		fmt.Fprintf(w, "; %s", b.Note)
	}
	fmt.Fprintln(w, ":")
	width := 0
	for _, r := range b.Rows[:min(len(b.Rows), maxBreakdownRows)] {
		width = max(width, len(r.Value))
	}
	for _, r := range b.Rows[:min(len(b.Rows), maxBreakdownRows)] {
		fmt.Fprintf(w, "  %-*s %14s  %7s of the change\n", width, r.Value, f.Change(r.Change), investigation.Share(r.Share))
	}
	if n := len(b.Rows) - maxBreakdownRows; n > 0 {
		fmt.Fprintf(w, "  (%d more values)\n", n)
	}
}
