// Package app is Quarry's composition root for the server: it wires the
// embedded stores and engines (fsstore, DuckDB, the audit log, SQLite) into
// the session manager and the web handler. cmd/quarry and the end-to-end
// tests build the server through it, so both run the same stack.
package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/quarry-dev/quarry/research"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/analyze"
	"github.com/quarry-dev/quarry/agent/investigate"
	"github.com/quarry-dev/quarry/analyses"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/duckdb"
	"github.com/quarry-dev/quarry/fsstore"
	"github.com/quarry-dev/quarry/internal/budget"
	"github.com/quarry-dev/quarry/internal/runner"
	"github.com/quarry-dev/quarry/investigations"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/retrieve"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/sqlite"
	"github.com/quarry-dev/quarry/web"
)

// Options configure the server's stack; zero values take the defaults.
type Options struct {
	DataDir        string        // default "quarry-data"
	SessionTimeout time.Duration // default 24h (SESSION_TIMEOUT_HOURS)
	MaxUploadBytes int64         // default 50 MB
	MaxRunning     int           // background jobs at once, all kinds together (default 2)
	// MaxEngines bounds the SQL engines open at once (default
	// MaxRunning+2). The command line, which runs one job and then
	// exits, sets 1: its one engine then gets the whole budget.
	MaxEngines int
	// MemoryMB is the process's memory budget (default DefaultMemoryMB),
	// shared as budget.SplitMemory says: a quarter for the Go heap (the
	// caller sets its limit, budget.SetGoLimit), the rest for up to
	// MaxEngines engines open at once (runs, upload checks, queries,
	// analyses), each with an equal part as its DuckDB memory_limit,
	// beyond which DuckDB spills to disk under DataDir. More wait.
	MemoryMB int64
	// Guard, when set, is the process's memory watchdog: investigations,
	// queries and analyses register with it, and it ends the newest with
	// RESOURCE_LIMIT when the process passes MemoryMB. The caller runs it.
	Guard *budget.Guard
	// Model takes part in investigations and chat when set (NewModel);
	// ModelLocal says it runs on this machine (llm.Config.Local); DialCode
	// connects its Python to a code sandbox (CodeDialer).
	Model      llm.Model
	ModelLocal bool
	DialCode   func(context.Context) (investigations.CodeSession, error)
	// Embedder embeds text with the model EmbeddingModel names
	// (NewEmbedder); without it retrieval and recipes are lexical.
	Embedder       llm.Embedder
	EmbeddingModel string
	Now            func() time.Time
	Log            *slog.Logger
	// OpenSource opens analyses' database sources (default OpenDatabaseFile).
	OpenSource analyze.OpenSource
	// Rooms serves the data rooms' API and pages to the users Auth names
	// (OpenRooms, web.LocalUser); without both they are left out.
	Rooms room.Service
	Auth  web.Authenticator
	// Research serves the research API to the users Auth names
	// (OpenResearches).
	Research research.Service
	// Runner bounds the background work of the process: investigations
	// and analyses wait for its slots, and researches when Research was
	// made with it (NewResearches). Nil makes one of MaxRunning slots.
	Runner *runner.Runner
}

// DefaultMemoryMB is the default Options.MemoryMB.
const DefaultMemoryMB = 4096

// App is a wired server.
type App struct {
	// Investigations runs the investigate job.
	Investigations *investigations.Service
	// Analyses runs the analyze job.
	Analyses *analyses.Service
	// Runner is the bound on background work the jobs share.
	Runner  *runner.Runner
	Handler http.Handler
	Index   retrieve.Index
	// Log is the logger the stack writes to.
	Log *slog.Logger
	db  *sqlite.DB
	// closeAnalyses stops the analyses and closes the recipe memory.
	closeAnalyses func() error
}

// Open wires the stack over opt.DataDir and marks the sessions a previous
// process left running as failed.
func Open(ctx context.Context, opt Options) (*App, error) {
	if opt.DataDir == "" {
		opt.DataDir = "quarry-data"
	}
	if opt.MaxUploadBytes <= 0 {
		opt.MaxUploadBytes = quarry.MaxFileBytes
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	if opt.MaxRunning <= 0 {
		opt.MaxRunning = 2
	}
	if opt.MemoryMB <= 0 {
		opt.MemoryMB = DefaultMemoryMB
	}
	if opt.MaxEngines <= 0 {
		opt.MaxEngines = opt.MaxRunning + 2
	}
	if opt.Runner == nil {
		opt.Runner = runner.New(opt.MaxRunning)
	}
	split := budget.SplitMemory(opt.MemoryMB, opt.MaxEngines, opt.MaxRunning, runtime.NumCPU())
	engine := EngineOptions(split, opt.DataDir)
	if err := os.MkdirAll(engine.TempRoot, 0o755); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	db, err := sqlite.Open(filepath.Join(opt.DataDir, "quarry.db"))
	if err != nil {
		return nil, err
	}
	store := fsstore.New(opt.DataDir, fsstore.Options{Now: opt.Now, SessionTimeout: opt.SessionTimeout, MaxFileBytes: opt.MaxUploadBytes})
	// One budget of engines for investigations, uploads, queries and
	// analyses alike.
	pool := budget.New(split.Engines)
	m := investigations.New(investigations.Config{
		Store:     store,
		NewEngine: func() (investigate.Engine, error) { return duckdb.Open(engine) },
		OpenAudit: func(id string) (investigations.Audit, error) {
			path, err := store.Path(id, "audit.jsonl")
			if err != nil {
				return nil, err
			}
			return audit.Open(path, id, opt.Now)
		},
		TableName:  duckdb.TableName,
		Index:      db,
		MaxRunning: opt.MaxRunning,
		Runner:     opt.Runner,
		Budget:     pool,
		Guard:      opt.Guard,
		Model:      opt.Model,
		DialCode:   opt.DialCode,
		Now:        opt.Now,
		Log:        opt.Log,
	})
	n, err := m.Recover(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	if removed, err := store.RemoveStaleUploads(); err != nil {
		opt.Log.Warn("could not remove stale uploads", "err", err)
	} else if removed > 0 {
		opt.Log.Info("removed files of uploads that never finished", "count", removed)
	}
	if n > 0 {
		opt.Log.Warn("marked interrupted investigations failed", "count", n)
	}
	if n, err = m.Reindex(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if n > 0 {
		opt.Log.Info("indexed finished investigations for chat", "count", n)
	}
	var analyst web.Analyst
	if opt.Model != nil {
		analyst = web.Analyst{Model: opt.Model.Name(), Local: opt.ModelLocal, CodeSandbox: opt.DialCode != nil}
	}
	am, closeAnalyses, err := openAnalyses(opt.DataDir, engine, opt.MaxUploadBytes, pool, opt)
	if err != nil {
		db.Close()
		return nil, err
	}
	h := web.New(m, web.Options{MaxUploadBytes: opt.MaxUploadBytes, Analyst: analyst, Log: opt.Log, Analyses: am,
		Rooms: opt.Rooms, Auth: opt.Auth, Research: opt.Research})
	return &App{Investigations: m, Analyses: am, Runner: opt.Runner, Handler: h, Index: db, Log: opt.Log, db: db, closeAnalyses: closeAnalyses}, nil
}

// EngineOptions are the options of the DuckDB engines of a process with
// split: its memory_limit, threads and spill bound, spilling under
// dataDir rather than to the system's temp directory, which may be a
// tmpfs and so memory itself.
func EngineOptions(split budget.Split, dataDir string) duckdb.Options {
	return duckdb.Options{MemoryLimit: fmt.Sprintf("%dMB", split.EngineMB), Threads: split.Threads,
		TempRoot: filepath.Join(dataDir, "duckdb-tmp"), MaxTempSize: fmt.Sprintf("%dMB", split.TempMB)}
}

// Close stops the running investigations and closes the stores.
func (a *App) Close() error {
	err := a.Investigations.Close()
	if cerr := a.closeAnalyses(); err == nil {
		err = cerr
	}
	if cerr := a.db.Close(); err == nil {
		err = cerr
	}
	return err
}
