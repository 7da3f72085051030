package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/investigate"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/drill"
	"github.com/quarry-dev/quarry/duckdb"
	"github.com/quarry-dev/quarry/fsstore"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/budget"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/investigations"
	"github.com/quarry-dev/quarry/llm"
)

// fileArg is one --file PATH[=DESCRIPTION].
type fileArg struct{ path, description string }

type fileArgs []fileArg

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
	// segments replaces the investigation's segment search (bench only).
	segments func(*drill.Cube) []drill.Found
}

func runInvestigate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("investigate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		files                           fileArgs
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
	fs.StringVar(&timeColumn, "time-column", "", "the time column as TABLE.COLUMN (default: detected)")
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
		InvestigationPrompt: prompt, TimeColumn: timeColumn, TimeFormat: timeFormat}
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
			return quarry.Errorf(quarry.ECodeNotFound, "cannot read %s: %v", f.path, err)
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

// run creates the session, copies the files in and runs the investigation.
// Once the session exists, a failure marks it failed with its error and
// leaves every artifact written so far in place.
func (inv *investigationRun) run(ctx context.Context) (*investigation.Result, error) {
	if err := inv.check(); err != nil {
		return nil, err
	}
	store := fsstore.New(inv.dataDir, fsstore.Options{MaxFileBytes: inv.maxMB << 20})
	sess, err := store.CreateSession()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(inv.stderr, "session %s in %s\n", sess.SessionID, mustDir(store, sess.SessionID))
	// The session is this process's until its final status is saved: a
	// quarry serve or quarry mcp on the same data dir leaves it alone.
	release, err := store.ClaimRun(sess.SessionID)
	if err != nil {
		return nil, err
	}
	defer release()
	// Space for why the run failed, should the disk fill up before the
	// session's status can be saved (see sessions.Store).
	if err := store.ReserveFailureNote(sess.SessionID); err != nil {
		return nil, quarry.StorageError(err)
	}
	res, err := inv.investigate(ctx, store, sess)
	if err != nil {
		err = quarry.StorageError(err)
		sess.Status = investigation.StatusFailed
		sess.Error = quarry.NewErrorInfo(err)
		if serr := store.SaveSession(sess); serr != nil {
			fmt.Fprintf(inv.stderr, "quarry: could not mark session failed: %v\n", serr)
			if nerr := store.NoteFailure(sess.SessionID, sess.Error); nerr != nil {
				fmt.Fprintf(inv.stderr, "quarry: could not note why it failed: %v\n", nerr)
			}
		}
		return nil, err
	}
	if err := store.NoteFailure(sess.SessionID, nil); err != nil {
		fmt.Fprintf(inv.stderr, "quarry: could not empty the failure note: %v\n", err)
	}
	return res, nil
}

func mustDir(s *fsstore.Store, id string) string {
	d, _ := s.Dir(id)
	return d
}

func (inv *investigationRun) investigate(ctx context.Context, store *fsstore.Store, sess *investigation.Investigation) (*investigation.Result, error) {
	taken := map[string]bool{}
	var files []*investigation.UploadedFile
	for _, fa := range inv.files {
		src, err := os.Open(fa.path)
		if err != nil {
			return nil, err
		}
		f, err := store.AddFile(sess.SessionID, filepath.Base(fa.path), fa.description, src)
		src.Close()
		if err != nil {
			return nil, err
		}
		f.TableName = duckdb.TableName(f.OriginalName, taken)
		taken[f.TableName] = true
		if err := store.SaveFile(f); err != nil {
			return nil, err
		}
		files = append(files, f)
		if err := sess.Move(investigation.StatusHasFiles); err != nil {
			return nil, err
		}
	}
	sess.FileCount = len(files)
	inv.context.SessionID = sess.SessionID
	inv.context.SubmittedAt = time.Now().UTC()
	if err := store.WriteJSON(sess.SessionID, "context.json", inv.context); err != nil {
		return nil, err
	}
	if err := sess.Move(investigation.StatusRunning); err != nil {
		return nil, err
	}
	if err := store.SaveSession(sess); err != nil {
		return nil, err
	}

	out, err := store.SessionFiles(sess.SessionID)
	if err != nil {
		return nil, err
	}
	log, err := audit.Open(filepath.Join(out.Dir(), "audit.jsonl"), sess.SessionID, nil)
	if err != nil {
		return nil, err
	}
	defer log.Close()
	// One engine, with the budget's part for it; the watchdog ends the
	// investigation with RESOURCE_LIMIT should the process pass it.
	if inv.memoryMB == 0 {
		inv.memoryMB = app.DefaultMemoryMB
	}
	getenv := inv.getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	mem, err := inv.memoryMB.start(ctx, 1, 1, getenv, slog.New(slog.NewTextHandler(inv.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		return nil, err
	}
	defer mem.stop()
	ctx, unwatch := mem.guard.Watch(ctx, "the investigation")
	defer unwatch()
	eng, err := duckdb.Open(app.EngineOptions(mem.split, inv.dataDir))
	if err != nil {
		return nil, err
	}
	defer eng.Close()
	start := time.Now()
	inv2 := &investigate.Investigator{Engine: eng, Out: out, Audit: log, Progress: progressPrinter(inv.stderr, start), Model: inv.model, Segments: inv.segments}
	if inv.model != nil {
		fmt.Fprintf(inv.stderr, "model: %s\n", inv.model.Name())
		if inv.dialCode != nil {
			code, err := inv.dialCode(ctx)
			if err != nil {
				fmt.Fprintf(inv.stderr, "code sandbox unavailable (%v); the model writes SQL only\n", err)
			} else {
				defer code.Close()
				inv2.Code = code
			}
		}
	}
	res, err := inv2.Run(ctx, investigate.Input{SessionID: sess.SessionID, Files: files, Context: inv.context})
	if err != nil {
		return nil, budget.Cause(ctx, err)
	}
	sess.Status = investigation.StatusCompleted
	sess.ReportReady = res.ReportPath != ""
	sess.Outcome = res.Status
	if err := store.SaveSession(sess); err != nil {
		return nil, err
	}
	fmt.Fprintf(inv.stderr, "done in %.1fs: %s, %d explanations\nreport: %s\n", time.Since(start).Seconds(), res.Status, len(res.Explanations), res.ReportPath)
	return res, nil
}

// progressPrinter prints one line per step or iteration.
func progressPrinter(w io.Writer, start time.Time) func(investigation.Event) {
	return func(e investigation.Event) {
		fmt.Fprintf(w, "[%5.1fs] %-10s %s\n", time.Since(start).Seconds(), e.Step, e.Message)
	}
}

func printResult(w io.Writer, res *investigation.Result, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	o := res.Overall
	fmt.Fprintf(w, "%s: %s -> %s (%+.1f%%, significant: %v)\n", res.Status, plain(o.BaselineValue), plain(o.ComparisonValue), o.ChangePct, o.Significant)
	for _, warning := range res.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warning)
	}
	for _, e := range res.Explanations {
		fmt.Fprintf(w, "%d. [%s] %s (%s, %+.0f%% of the change)\n", e.Rank, e.Likelihood, e.Title, e.Kind, 100*e.ShareOfChange)
	}
	fmt.Fprintf(w, "report: %s\n", res.ReportPath)
	return nil
}

// plain formats a metric value for a terminal: two decimals for large
// values, four significant digits for small ones (rates).
func plain(v float64) string {
	if math.Abs(v) >= 1 || v == 0 {
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
