// Package analyses runs the analyze job for the web app and the MCP tools:
// a request is checked, its uploads stored, and the analysis run in the
// background with progress events; results, artifacts, the request's audit
// trail, the log's verification, replays and recipes are read back. It
// works on contracts only: the analyzer, the store and the log are given
// to it (internal/app wires them).
package analyses

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/analyze"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/internal/budget"
	"github.com/quarry-dev/quarry/internal/hub"
	"github.com/quarry-dev/quarry/internal/runner"
)

// Store keeps the analyses' records, uploads and artifacts under the data
// dir (fsstore.Analyses).
type Store interface {
	analyze.Store
	ReadJSON(rel string, v any) error
	// Dir is the data dir on disk.
	Dir() string
}

// Log is the analyses' open audit log (audit.Log).
type Log interface {
	analyze.Auditor
	Close() error
}

// Config wires a Manager. Analyzer, Store and OpenLog are required.
type Config struct {
	// Analyzer runs one analysis; its Progress and Audit are set per run.
	Analyzer *analyze.Analyzer
	// OpenLog opens the shared log (audit.OpenShared: quarry analyze may
	// append to it at the same time). The manager keeps it open while any
	// analysis runs and closes it when none does.
	OpenLog func() (Log, error)
	Store   Store
	// Entries reads the log's entries of one request; Verify checks the
	// whole log with every artifact's hash.
	Entries func(requestID string) ([]quarry.AuditEntry, error)
	Verify  func() (*analysis.AuditCheck, error)
	// MaxRunning bounds the analyses running at once (default 2) when
	// Runner is nil.
	MaxRunning int
	// Runner, when set, is the process's bound on background work,
	// shared with the other jobs; nil makes a private one of MaxRunning
	// slots.
	Runner *runner.Runner
	// MaxFileBytes bounds one upload (default quarry.MaxFileBytes).
	MaxFileBytes int64
	// Guard, when set, is the process's memory watchdog: each analysis
	// registers with it while it runs, and fails with RESOURCE_LIMIT if
	// the Guard ends it.
	Guard *budget.Guard
	Log   *slog.Logger
}

// Manager runs analyses. It is safe for concurrent use.
type Service struct {
	cfg   Config
	slots *runner.Runner

	mu     sync.Mutex
	runs   map[string]*running
	log    Log // open while users > 0
	users  int
	wg     sync.WaitGroup
	closed bool
	ctx    context.Context
	cancel context.CancelFunc
}

// running is an analysis in progress: its events and its latest state.
type running struct {
	events *hub.Hub[analysis.Event]
	state  *analysis.Result
	// claim is this process's lock on the analysis (claimRun), held
	// until its record is final.
	claim *flock.Flock
}

// New returns a Manager. Close it when done.
func New(cfg Config) *Service {
	if cfg.MaxRunning <= 0 {
		cfg.MaxRunning = 2
	}
	if cfg.MaxFileBytes <= 0 {
		cfg.MaxFileBytes = quarry.MaxFileBytes
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Service{cfg: cfg, slots: runner.Or(cfg.Runner, cfg.MaxRunning), runs: map[string]*running{}, ctx: ctx, cancel: cancel}
}

// Close stops the running analyses and waits for them to record their end.
func (m *Service) Close() error {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.cancel()
	m.wg.Wait()
	return nil
}

// recordPath is where a request's record is kept.
func recordPath(id string) string { return path.Join("analyses", id, "result.json") }

// runLock is the file that the process running an analysis holds locked
// in the analysis's folder, until its record is final.
const runLock = ".run.lock"

// claimRun takes the lock of analysis id, creating its folder: while one
// process holds it, another's claim answers false. The operating system
// drops the lock of a process that dies, so an analysis whose record is
// not final and whose lock can be taken was cut short by its process's
// end. Files of the data dir are shared by every process on it (quarry
// serve, quarry mcp), so the lock is a file's.
func (m *Service) claimRun(id string) (*flock.Flock, bool, error) {
	dir := filepath.Join(m.cfg.Store.Dir(), "analyses", id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, false, err
	}
	lock := flock.New(filepath.Join(dir, runLock))
	ok, err := lock.TryLock()
	if err != nil || !ok {
		return nil, false, err
	}
	return lock, true, nil
}

// interrupted is the failure of an analysis whose process stopped before
// it ended: recorded as failed, never re-run by itself (it may have cost
// a model's time and the user's money), with a hint to run it again.
func interrupted(while string) error {
	return quarry.Errorf(quarry.ECodeRunInterrupted, "the server stopped %s", while).
		WithHint("run the analysis again")
}

// final reports whether an analysis with status has ended.
func final(status string) bool {
	return status == analysis.StatusCompleted || status == analysis.StatusFailed || status == analysis.StatusPartialSuccess
}

// Start checks req, stores its uploads as file sources, records it as
// submitted, owned by the user ownerID ("" for the local owner: the CLI,
// MCP), and runs it in the background; it returns the record. The owner
// is ownerID whatever req says. Errors: INVALID (the spec's validation,
// an upload of an unknown kind), FILE_TOO_LARGE, FORBIDDEN for a file path
// or a SQLite connection string sent by a client (files come as uploads),
// UNAVAILABLE when closing.
func (m *Service) Start(ctx context.Context, ownerID string, req analysis.Request, uploads []analysis.Upload) (*analysis.Result, error) {
	for _, ds := range req.DataSources {
		if ds.FilePath != "" || ds.Type == analysis.SourceSQL && !strings.HasPrefix(ds.ConnectionString, "postgres") {
			return nil, quarry.Errorf(quarry.ECodeForbidden, "a request may not name files on the server (%s)", firstNonEmpty(ds.FilePath, ds.ConnectionString)).
				WithHint("upload the file with the request instead")
		}
	}
	return m.start(ownerID, req, uploads)
}

// StartLocal is Start for the command line (quarry analyze): its sources
// may name files and database files on this machine, which the user who
// runs the command reads anyway, where they are, without a copy. A
// client of the server never reaches it. The local owner owns it.
func (m *Service) StartLocal(ctx context.Context, req analysis.Request) (*analysis.Result, error) {
	return m.start("", req, nil)
}

// start checks req, stores its uploads and runs it in the background,
// owned by ownerID.
func (m *Service) start(ownerID string, req analysis.Request, uploads []analysis.Upload) (*analysis.Result, error) {
	req.RequestID = quarry.NewID()
	req.OwnerID = ownerID
	now := m.now()
	req.Normalize(now)
	// Validation before the uploads are stored counts the uploads as
	// sources.
	check := req
	for _, u := range uploads {
		check.DataSources = append(check.DataSources, analysis.DataSource{Type: analysis.SourceCSV, FilePath: u.Name})
	}
	if err := check.Validate(); err != nil {
		return nil, err
	}
	stored, err := m.storeUploads(req.RequestID, uploads)
	if err != nil {
		os.RemoveAll(filepath.Join(m.cfg.Store.Dir(), "uploads", req.RequestID))
		return nil, err
	}
	req.DataSources = append(req.DataSources, stored...)
	rec := &analysis.Result{RequestID: req.RequestID, Status: analysis.StatusSubmitted, Request: req.Redacted(),
		Observations: []analysis.Observation{}, Artifacts: []analysis.Artifact{}}
	claim, ok, err := m.claimRun(req.RequestID)
	if err != nil || !ok {
		os.RemoveAll(filepath.Join(m.cfg.Store.Dir(), "uploads", req.RequestID))
		if err == nil {
			err = quarry.Errorf(quarry.ECodeConflict, "analysis %s is run by another process", req.RequestID)
		}
		return nil, quarry.StorageError(err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		claim.Close()
		return nil, quarry.Errorf(quarry.ECodeUnavailable, "the server is shutting down")
	}
	if err := m.cfg.Store.SaveJSON(recordPath(req.RequestID), rec); err != nil {
		claim.Close()
		return nil, quarry.StorageError(err)
	}
	r := &running{events: hub.New[analysis.Event](), state: rec, claim: claim}
	m.runs[req.RequestID] = r
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		m.run(req, r)
	}()
	return rec, nil
}

// clonePlan and cloneResult are deep copies, through JSON.
func clonePlan(p *analysis.Plan) *analysis.Plan {
	var c analysis.Plan
	raw, _ := json.Marshal(p)
	json.Unmarshal(raw, &c)
	return &c
}

func cloneResult(r *analysis.Result) *analysis.Result {
	var c analysis.Result
	raw, _ := json.Marshal(r)
	json.Unmarshal(raw, &c)
	return &c
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// uploadKinds maps an upload's extension to its source type.
var uploadKinds = map[string]string{
	".csv": analysis.SourceCSV, ".json": analysis.SourceJSON, ".jsonl": analysis.SourceJSON, ".ndjson": analysis.SourceJSON,
	".parquet": analysis.SourceParquet, ".db": analysis.SourceSQL, ".sqlite": analysis.SourceSQL, ".sqlite3": analysis.SourceSQL,
	".duckdb": analysis.SourceSQL,
}

// storeUploads writes the uploads to uploads/ID/ and returns them as
// sources.
func (m *Service) storeUploads(id string, uploads []analysis.Upload) ([]analysis.DataSource, error) {
	var out []analysis.DataSource
	names := map[string]bool{}
	for _, u := range uploads {
		base := filepath.Base(strings.ReplaceAll(u.Name, `\`, "/"))
		kind, ok := uploadKinds[strings.ToLower(filepath.Ext(base))]
		if !ok || base == "." || base == "/" {
			return nil, quarry.Errorf(quarry.ECodeInvalidFileType, "%s is not a CSV, JSON, Parquet, SQLite or DuckDB file", u.Name)
		}
		if names[strings.ToLower(base)] {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "two uploads are called %s", base)
		}
		names[strings.ToLower(base)] = true
		data, err := io.ReadAll(io.LimitReader(u.Body, m.cfg.MaxFileBytes+1))
		if err != nil {
			return nil, err
		}
		if int64(len(data)) > m.cfg.MaxFileBytes {
			return nil, quarry.Errorf(quarry.ECodeFileTooLarge, "%s is larger than %d MB", base, m.cfg.MaxFileBytes>>20)
		}
		p, err := m.cfg.Store.WriteArtifact(path.Join("uploads", id, base), data)
		if err != nil {
			return nil, quarry.StorageError(err)
		}
		ds := analysis.DataSource{Type: kind, FilePath: p}
		if kind == analysis.SourceSQL {
			scheme := "sqlite:"
			if strings.EqualFold(filepath.Ext(base), ".duckdb") {
				scheme = "duckdb:"
			}
			ds.FilePath, ds.ConnectionString = "", scheme+p
		}
		out = append(out, ds)
	}
	return out, nil
}

func (m *Service) now() time.Time {
	if m.cfg.Analyzer.Now != nil {
		return m.cfg.Analyzer.Now()
	}
	return time.Now()
}

// run is one analysis in the background. Whatever happens, its record
// ends completed, partial_success or failed, then its events end.
func (m *Service) run(req analysis.Request, r *running) {
	defer func() {
		m.mu.Lock()
		delete(m.runs, req.RequestID)
		m.mu.Unlock()
		// The record is final: the claim can go.
		r.claim.Close()
		r.events.Close()
	}()
	publish := func(e analysis.Event) {
		m.mu.Lock()
		switch e.Step {
		case "plan":
			if e.Plan != nil {
				// The event's plan goes to subscribers as it is; the
				// state keeps its own copy to mark steps on.
				r.state.Plan = clonePlan(e.Plan)
			}
			r.state.Status = analysis.StatusExecuting
		case "task":
			if r.state.Plan != nil {
				if t := r.state.Plan.Task(e.TaskID); t != nil && e.Status != "retry" {
					t.Status = e.Status
				}
			}
		}
		m.mu.Unlock()
		r.events.Publish(e)
	}
	queued := func() {
		publish(analysis.Event{Time: m.now(), Step: "queued", Message: "waiting for a free worker"})
	}
	if err := m.slots.Acquire(m.ctx, queued); err != nil {
		m.fail(req, r, interrupted("before the analysis started"), publish)
		return
	}
	defer m.slots.Release()
	log, err := m.acquireLog()
	if err != nil {
		m.fail(req, r, err, publish)
		return
	}
	defer m.releaseLog()
	a := *m.cfg.Analyzer
	a.Progress, a.Audit = publish, log
	ctx, unwatch := m.cfg.Guard.Watch(m.ctx, "the analysis")
	defer unwatch()
	// Run records every analysis that passed validation, however it
	// ended (a source that cannot be loaded, the planner's refusal, a
	// timeout at any stage); an error here is a request it refused
	// outright or a record it could not save.
	res, err := a.Run(ctx, req)
	if m.ctx.Err() != nil && (err != nil || res.Status != analysis.StatusCompleted) {
		// Cut short by the server's stop, not by the request: say so,
		// keeping what the run recorded.
		if res == nil {
			m.fail(req, r, interrupted("while the analysis ran"), publish)
			return
		}
		err = interrupted("while the analysis ran")
		res.Status, res.Error = analysis.StatusFailed, quarry.NewErrorInfo(err)
		if res.Request != nil {
			res.Request.Status = analysis.StatusFailed
		}
		if serr := analyze.SaveRecord(m.cfg.Store, log, req.RequestID, res); serr != nil {
			m.cfg.Log.Error("save analysis", "request", req.RequestID, "err", serr)
		}
		m.mu.Lock()
		r.state = res
		m.mu.Unlock()
		publish(analysis.Event{Time: m.now(), Step: "failed", Status: analysis.StatusFailed, Message: quarry.ErrorMessage(err)})
		return
	}
	if err != nil {
		m.fail(req, r, budget.Cause(ctx, err), publish)
		return
	}
	m.mu.Lock()
	r.state = res
	m.mu.Unlock()
}

// acquireLog opens the shared log for one more run.
func (m *Service) acquireLog() (Log, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.log == nil {
		l, err := m.cfg.OpenLog()
		if err != nil {
			return nil, err
		}
		m.log = l
	}
	m.users++
	return m.log, nil
}

// releaseLog closes the shared log after the last run using it.
func (m *Service) releaseLog() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.users--; m.users == 0 && m.log != nil {
		m.log.Close()
		m.log = nil
	}
}

// fail records a request that the analyzer did not record itself: one
// that could not start (the server stopping while it waited for a worker,
// a log that could not be opened) or whose record could not be saved. Its
// request goes into the log with the error, when the log can be opened,
// so that every recorded analysis has its entries.
func (m *Service) fail(req analysis.Request, r *running, err error, publish func(analysis.Event)) {
	req.Status = analysis.StatusFailed
	rec := &analysis.Result{RequestID: req.RequestID, Status: analysis.StatusFailed, Request: req.Redacted(), Error: quarry.NewErrorInfo(err),
		Observations: []analysis.Observation{}, Artifacts: []analysis.Artifact{}}
	// The run could not log its end: the record says it, with its hash
	// when the shared log can be opened.
	var log analyze.Auditor
	if l, lerr := m.acquireLog(); lerr == nil {
		defer m.releaseLog()
		if _, aerr := l.AppendFor(req.RequestID, quarry.EventRequestSubmitted, "system", map[string]any{"request": req.Redacted(), "stage": "starting", "error": rec.Error}); aerr != nil {
			m.cfg.Log.Error("log analysis", "request", req.RequestID, "err", aerr)
		}
		log = l
	}
	if serr := analyze.SaveRecord(m.cfg.Store, log, req.RequestID, rec); serr != nil {
		m.cfg.Log.Error("save analysis", "request", req.RequestID, "err", serr)
	}
	m.mu.Lock()
	r.state = rec
	m.mu.Unlock()
	publish(analysis.Event{Time: m.now(), Step: "failed", Status: analysis.StatusFailed, Message: quarry.ErrorMessage(err)})
}

// Get returns an analysis: its live state while it runs, its record after.
// Errors: NOT_FOUND.
func (m *Service) Get(ctx context.Context, id string) (*analysis.Result, error) {
	if !validID(id) {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "no analysis %s", id)
	}
	m.mu.Lock()
	if r := m.runs[id]; r != nil {
		c := cloneResult(r.state) // read outside the lock while the run goes on
		m.mu.Unlock()
		return c, nil
	}
	m.mu.Unlock()
	var res analysis.Result
	if err := m.cfg.Store.ReadJSON(recordPath(id), &res); err != nil {
		if quarry.ErrorCode(err) == quarry.ECodeNotFound {
			return nil, quarry.Errorf(quarry.ECodeNotFound, "no analysis %s", id)
		}
		return nil, err
	}
	if !final(res.Status) {
		return m.recover(id, &res)
	}
	if err := m.checkRecord(id); err != nil {
		return nil, err
	}
	return &res, nil
}

// checkRecord compares the record of finished analysis id, as it is on
// disk, with the SHA-256 its last record_saved entry of the audit log
// holds: a record changed after it was written is not served (nor
// replayed) as if it were the analysis's. A record the log has no entry
// for (written with no log) is not checked.
func (m *Service) checkRecord(id string) error {
	if m.cfg.Entries == nil {
		return nil
	}
	entries, err := m.cfg.Entries(id)
	if err != nil {
		return err
	}
	rel, want := recordPath(id), ""
	for _, e := range entries {
		if p, _ := e.EventData["path"].(string); e.EventType == quarry.EventRecordSaved && p == rel {
			want, _ = e.EventData["sha256"].(string)
		}
	}
	if want == "" {
		return nil
	}
	raw, err := os.ReadFile(filepath.Join(m.cfg.Store.Dir(), filepath.FromSlash(rel)))
	if err != nil {
		return quarry.StorageError(err)
	}
	if got := quarry.SHA256Hex(raw); got != want {
		return quarry.Errorf(quarry.ECodeConflict, "the record of analysis %s was changed after it was written: its SHA-256 is %s, the audit log recorded %s", id, got, want).
			WithHint("run `quarry audit verify` to check the whole log; the analysis can be run again")
	}
	return nil
}

// recover returns the record res of analysis id, which is not final and
// not running in this process: as it is while another process runs it
// (holds its claim), else recorded as failed, RUN_INTERRUPTED, since the
// process that ran it died.
func (m *Service) recover(id string, res *analysis.Result) (*analysis.Result, error) {
	claim, ok, err := m.claimRun(id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return res, nil
	}
	defer claim.Close()
	// Read again under the claim: the run may have ended in between.
	var now analysis.Result
	if err := m.cfg.Store.ReadJSON(recordPath(id), &now); err != nil {
		return nil, err
	}
	if final(now.Status) {
		return &now, nil
	}
	m.mu.Lock()
	_, here := m.runs[id]
	m.mu.Unlock()
	if here {
		return m.Get(context.Background(), id)
	}
	now.Status, now.Error = analysis.StatusFailed, quarry.NewErrorInfo(interrupted("before the analysis ended"))
	if now.Request != nil {
		now.Request.Status = analysis.StatusFailed
	}
	var log analyze.Auditor
	if m.cfg.OpenLog != nil {
		if l, err := m.acquireLog(); err == nil {
			defer m.releaseLog()
			log = l
		}
	}
	if err := analyze.SaveRecord(m.cfg.Store, log, id, &now); err != nil {
		return nil, quarry.StorageError(err)
	}
	m.cfg.Log.Warn("analysis interrupted by its process's end, recorded as failed", "request", id)
	return &now, nil
}

// validID accepts request ids (UUIDs) only, so no id reaches outside the
// records.
func validID(id string) bool {
	return id != "" && len(id) <= 64 && strings.Trim(id, "0123456789abcdef-") == ""
}

// List returns every analysis, newest first.
func (m *Service) List(ctx context.Context) ([]analysis.Summary, error) {
	entries, err := os.ReadDir(filepath.Join(m.cfg.Store.Dir(), "analyses"))
	if os.IsNotExist(err) {
		return []analysis.Summary{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := []analysis.Summary{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		res, err := m.Get(ctx, e.Name())
		if err != nil || res.Request == nil {
			continue
		}
		sum := analysis.Summary{RequestID: res.RequestID, Intent: res.Request.Intent, Status: res.Status, Timestamp: res.Request.Timestamp, Artifacts: len(res.Artifacts),
			OwnerID: res.Request.OwnerID}
		if res.Error != nil {
			sum.ErrorCode = res.Error.Code
		}
		out = append(out, sum)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Timestamp > out[j].Timestamp })
	return out, nil
}

// Subscribe replays an analysis's events so far and streams the rest; the
// channel closes when it ends (at once for one not running here).
func (m *Service) Subscribe(ctx context.Context, id string) (past []analysis.Event, live <-chan analysis.Event, cancel func(), err error) {
	if _, err := m.Get(ctx, id); err != nil {
		return nil, nil, nil, err
	}
	m.mu.Lock()
	r := m.runs[id]
	m.mu.Unlock()
	if r == nil {
		c := make(chan analysis.Event)
		close(c)
		return nil, c, func() {}, nil
	}
	past, live, cancel = r.events.Subscribe()
	return past, live, cancel, nil
}

// Wait waits for an analysis to end and returns its result.
func (m *Service) Wait(ctx context.Context, id string) (*analysis.Result, error) {
	_, live, cancel, err := m.Subscribe(ctx, id)
	if err != nil {
		return nil, err
	}
	defer cancel()
	for {
		select {
		case _, ok := <-live:
			if !ok {
				return m.Get(ctx, id)
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Audit returns the log's entries of one analysis.
func (m *Service) Audit(ctx context.Context, id string) ([]quarry.AuditEntry, error) {
	if _, err := m.Get(ctx, id); err != nil {
		return nil, err
	}
	return m.cfg.Entries(id)
}

// VerifyAudit checks the whole analyses' log and every artifact's hash.
func (m *Service) VerifyAudit(ctx context.Context) (*analysis.AuditCheck, error) {
	return m.cfg.Verify()
}

// Artifact returns an artifact of an analysis and its file. Errors:
// NOT_FOUND.
func (m *Service) Artifact(ctx context.Context, id, artifactID string) (*analysis.Artifact, string, error) {
	res, err := m.Get(ctx, id)
	if err != nil {
		return nil, "", err
	}
	i := slices.IndexFunc(res.Artifacts, func(a analysis.Artifact) bool { return a.ArtifactID == artifactID })
	if i < 0 {
		return nil, "", quarry.Errorf(quarry.ECodeNotFound, "analysis %s has no artifact %s", id, artifactID)
	}
	a := res.Artifacts[i]
	root := filepath.Join(m.cfg.Store.Dir(), "artifacts") + string(filepath.Separator)
	if p, err := filepath.Abs(a.ContentRef); err != nil || !strings.HasPrefix(p, root) {
		return nil, "", quarry.Errorf(quarry.ECodeNotFound, "artifact %s is not in the data dir", artifactID)
	}
	return &a, a.ContentRef, nil
}

// Recipes lists the stored recipes, the most recently used first.
func (m *Service) Recipes(ctx context.Context) ([]analysis.Recipe, error) {
	if m.cfg.Analyzer.Recipes == nil {
		return []analysis.Recipe{}, nil
	}
	rs, err := m.cfg.Analyzer.Recipes.List(ctx)
	if rs == nil {
		rs = []analysis.Recipe{}
	}
	return rs, err
}

// Replay re-runs a finished analysis's plan and compares its artifacts.
func (m *Service) Replay(ctx context.Context, id string) (*analysis.Result, []analyze.ArtifactCheck, error) {
	orig, err := m.Get(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	switch orig.Status {
	case analysis.StatusCompleted, analysis.StatusPartialSuccess, analysis.StatusFailed:
	default:
		return nil, nil, quarry.Errorf(quarry.ECodeConflict, "analysis %s has not finished", id)
	}
	log, err := m.acquireLog()
	if err != nil {
		return nil, nil, err
	}
	defer m.releaseLog()
	a := *m.cfg.Analyzer
	a.Audit = log
	return a.Replay(ctx, orig)
}

// String describes the manager for logs.
func (m *Service) String() string { return fmt.Sprintf("analyses in %s", m.cfg.Store.Dir()) }
