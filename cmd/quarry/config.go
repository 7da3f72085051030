package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/quarry-dev/quarry/research"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/budget"
	"github.com/quarry-dev/quarry/internal/runner"
	"github.com/quarry-dev/quarry/investigations"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/web"
	"github.com/quarry-dev/quarry/websearch"
)

// settings is every configuration variable, printed by "quarry help
// config". Keys come from the environment only: a config file or a flag
// would end up in shell history, backups or bug reports.
var settings = []struct{ env, flag, file, meaning string }{
	{llm.EnvProvider, "--llm-provider", "llm.provider", "offline (default), anthropic or openai (any OpenAI-compatible server: OpenAI, Ollama, vLLM, llama.cpp, LM Studio)"},
	{llm.EnvModel, "--llm-model", "llm.model", "model name (default " + llm.DefaultAnthropicModel + " / " + llm.DefaultOpenAIModel + ")"},
	{llm.EnvBaseURL, "--llm-base-url", "llm.base_url", "provider endpoint, e.g. http://localhost:11434/v1 for Ollama"},
	{llm.EnvAnthropicKey, "", "", "Anthropic API key (environment only; never logged or written)"},
	{llm.EnvOpenAIKey, "", "", "OpenAI API key (environment only; local servers need none)"},
	{llm.EnvEmbedModel, "--embed-model", "embed.model", "embedding model at an OpenAI-compatible /v1/embeddings, e.g. nomic-embed-text (default none: lexical)"},
	{llm.EnvEmbedBaseURL, "--embed-base-url", "embed.base_url", "embedding endpoint, e.g. http://localhost:11434/v1 (default OpenAI's, with OPENAI_API_KEY)"},
	{"QUARRY_CODE_MCP_COMMAND", "", "", "command that starts an MCP code-execution server over stdio (Python for the model)"},
	{"QUARRY_CODE_MCP_URL", "", "", "URL of a streamable-HTTP MCP code-execution server"},
	{"QUARRY_CODE_MCP_TOOL", "", "", "its tool that runs Python (default execute_python)"},
	{"QUARRY_SEARXNG_URL", "", "web.searxng_url", "SearxNG instance for research --web, e.g. http://localhost:8888 (its settings.yml must allow the json format)"},
	{"QUARRY_BRAVE_API_KEY", "", "", "Brave Search API key for research --web when no SearxNG is set (environment only)"},
	{"QUARRY_BRAVE_URL", "", "web.brave_url", "Brave Search API endpoint (default " + websearch.BraveURL + ")"},
	{"QUARRY_WEB_CREDIBILITY", "", "web.credibility", "JSON file of domain to credibility 0-1 over the built-in map, e.g. {\"example.com\": 0.9, \".gov\": 0.95, \"*\": 0.5} (the file key takes the object itself)"},
	{"QUARRY_WEB_ALLOW_PRIVATE", "", "web.allow_private", "true lets research --web read pages on private and loopback addresses (an intranet); off by default"},
	{"QUARRY_DATA_DIR", "--data-dir", "", "where sessions, artifacts and the index live (default quarry-data)"},
	{"SESSION_TIMEOUT_HOURS", "", "", "hours before a session expires (default 24)"},
	{envTrustForwardedFor, "", "", "true counts failed sign-ins of serve --auth password by the client address a reverse proxy appends to X-Forwarded-For; set it only behind such a proxy"},
	{envLease, "--lease (worker)", "", "how long a worker's claim on a document lasts unless renewed (default 20s): a killed worker's documents are processed again about this long after"},
	{"QUARRY_CONFIG", "--config", "", "JSON config file; environment variables override it, flags override both"},
}

func printConfigHelp(w io.Writer) {
	fmt.Fprintln(w, "Configuration: defaults, then the config file, then the environment, then flags.")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ENVIRONMENT\tFLAG\tFILE KEY\tMEANING")
	for _, s := range settings {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.env, dash(s.flag), dash(s.file), s.meaning)
	}
	tw.Flush()
	fmt.Fprint(w, `
Config file example (quarry.json):
  {"llm": {"provider": "openai", "model": "llama3.2", "base_url": "http://localhost:11434/v1"},
   "embed": {"model": "nomic-embed-text", "base_url": "http://localhost:11434/v1"},
   "web": {"searxng_url": "http://localhost:8888", "credibility": {"example.com": 0.9}}}
`)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// modelFlags are the model settings of the commands that investigate or
// chat.
type modelFlags struct {
	file, provider, model, baseURL string
	embedModel, embedBaseURL       string
	// wired is what open made, so that a command's parts share one model.
	wired *wiredModel
}

func (f *modelFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&f.file, "config", getenv("QUARRY_CONFIG"), "JSON config file (env QUARRY_CONFIG); see 'quarry help config'")
	fs.StringVar(&f.provider, "llm-provider", "", "offline, anthropic or openai (env "+llm.EnvProvider+")")
	fs.StringVar(&f.model, "llm-model", "", "model name (env "+llm.EnvModel+")")
	fs.StringVar(&f.baseURL, "llm-base-url", "", "provider endpoint, e.g. http://localhost:11434/v1 (env "+llm.EnvBaseURL+")")
	fs.StringVar(&f.embedModel, "embed-model", "", "embedding model, e.g. nomic-embed-text (env "+llm.EnvEmbedModel+")")
	fs.StringVar(&f.embedBaseURL, "embed-base-url", "", "embedding endpoint (env "+llm.EnvEmbedBaseURL+")")
}

// fileConfig is the config file's shape. Unknown keys are an error, so a
// misspelt setting is not silently ignored, and there is no key field.
type fileConfig struct {
	LLM struct {
		Provider string `json:"provider"`
		Model    string `json:"model"`
		BaseURL  string `json:"base_url"`
	} `json:"llm"`
	Embed struct {
		Model   string `json:"model"`
		BaseURL string `json:"base_url"`
	} `json:"embed"`
	Web struct {
		SearxNGURL   string             `json:"searxng_url"`
		BraveURL     string             `json:"brave_url"`
		Credibility  map[string]float64 `json:"credibility"`
		AllowPrivate bool               `json:"allow_private"`
	} `json:"web"`
}

// readFile reads the config file, when one is set.
func (f *modelFlags) readFile() (fileConfig, error) {
	var fc fileConfig
	if f.file == "" {
		return fc, nil
	}
	b, err := os.ReadFile(f.file)
	if err != nil {
		return fc, quarry.Errorf(quarry.ECodeInvalid, "config file: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fc); err != nil {
		return fc, quarry.Errorf(quarry.ECodeInvalid, "config file %s: %w", f.file, err).
			WithHint("keys belong in ANTHROPIC_API_KEY, OPENAI_API_KEY or QUARRY_BRAVE_API_KEY, never in a file")
	}
	return fc, nil
}

// webConfig merges the web settings of the file and the environment
// (research --web). The credibility map is the file's, then the
// QUARRY_WEB_CREDIBILITY file's over it.
func (f *modelFlags) webConfig(getenv func(string) string) (app.WebConfig, error) {
	fc, err := f.readFile()
	if err != nil {
		return app.WebConfig{}, err
	}
	or := func(env, file string) string {
		if v := strings.TrimSpace(getenv(env)); v != "" {
			return v
		}
		return file
	}
	c := app.WebConfig{SearxNGURL: or("QUARRY_SEARXNG_URL", fc.Web.SearxNGURL), BraveKey: getenv("QUARRY_BRAVE_API_KEY"),
		BraveURL: or("QUARRY_BRAVE_URL", fc.Web.BraveURL), Credibility: map[string]float64{}, AllowPrivate: fc.Web.AllowPrivate}
	maps.Copy(c.Credibility, fc.Web.Credibility)
	if path := strings.TrimSpace(getenv("QUARRY_WEB_CREDIBILITY")); path != "" {
		m, err := websearch.ReadCredibility(path)
		if err != nil {
			return app.WebConfig{}, err
		}
		maps.Copy(c.Credibility, m)
	}
	if v := strings.TrimSpace(getenv("QUARRY_WEB_ALLOW_PRIVATE")); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return app.WebConfig{}, quarry.Errorf(quarry.ECodeInvalid, "QUARRY_WEB_ALLOW_PRIVATE is %q; want true or false", v)
		}
		c.AllowPrivate = b
	}
	return c, nil
}

// config merges the file, the environment and the flags.
func (f *modelFlags) config(getenv func(string) string) (llm.Config, llm.EmbedConfig, error) {
	fc, err := f.readFile()
	if err != nil {
		return llm.Config{}, llm.EmbedConfig{}, err
	}
	// Each setting: the flag, else the environment, else the file.
	layers := map[string][2]string{
		llm.EnvProvider:     {f.provider, fc.LLM.Provider},
		llm.EnvModel:        {f.model, fc.LLM.Model},
		llm.EnvBaseURL:      {f.baseURL, fc.LLM.BaseURL},
		llm.EnvEmbedModel:   {f.embedModel, fc.Embed.Model},
		llm.EnvEmbedBaseURL: {f.embedBaseURL, fc.Embed.BaseURL},
	}
	layered := func(name string) string {
		l := layers[name]
		if l[0] != "" {
			return l[0]
		}
		if v := getenv(name); v != "" {
			return v
		}
		return l[1]
	}
	return llm.ConfigFromEnv(layered).WithDefaults(), llm.EmbedConfigFromEnv(layered), nil
}

// wiredModel is what the model settings give a command.
type wiredModel struct {
	model llm.Model // nil offline
	// dial connects the model's Python to a code sandbox; nil without one.
	dial func(context.Context) (investigations.CodeSession, error)
	// local is true when the model runs on this machine.
	local bool
	// embedder embeds text with the model embedModel names; nil without
	// one.
	embedder   llm.Embedder
	embedModel string
}

// open returns the configured model and, when a model is configured, the
// code sandbox dialer.
func (f *modelFlags) open(getenv func(string) string) (wiredModel, error) {
	if f.wired != nil {
		return *f.wired, nil
	}
	w, err := f.wire(getenv)
	if err == nil {
		f.wired = &w
	}
	return w, err
}

func (f *modelFlags) wire(getenv func(string) string) (wiredModel, error) {
	c, ec, err := f.config(getenv)
	if err != nil {
		return wiredModel{}, err
	}
	emb, err := app.NewEmbedder(ec)
	if err != nil {
		return wiredModel{}, err
	}
	w := wiredModel{embedder: emb, embedModel: ec.Model}
	m, err := app.NewModel(c)
	if err != nil || m == nil {
		return w, err
	}
	dial, err := app.CodeDialer(getenv)
	if err != nil {
		return wiredModel{}, err
	}
	w.model, w.dial, w.local = m, dial, c.Local()
	return w, nil
}

// memoryFlag is --memory-mb, the memory budget of a command that runs
// work in its process (serve, mcp, investigate, analyze).
type memoryFlag int64

func (m *memoryFlag) register(fs *flag.FlagSet) {
	fs.Int64Var((*int64)(m), "memory-mb", app.DefaultMemoryMB,
		"memory in MB this process may use: a quarter for its heap, the rest for its SQL engines; work beyond it waits its turn, and work that would exceed it ends with RESOURCE_LIMIT")
}

// limits is a command's memory budget in force.
type limits struct {
	split budget.Split
	guard *budget.Guard
	stop  func()
}

// start shares the budget (budget.SplitMemory) between the Go heap and
// up to maxEngines engines, sets the Go heap's limit unless GOMEMLIMIT is
// set, and runs the memory watchdog until stop or ctx's end.
func (m memoryFlag) start(ctx context.Context, maxEngines, maxRunning int, getenv func(string) string, log *slog.Logger) (limits, error) {
	if m <= 0 {
		return limits{}, &usageError{"--memory-mb must be positive"}
	}
	split := budget.SplitMemory(int64(m), maxEngines, maxRunning, runtime.NumCPU())
	budget.SetGoLimit(split, getenv)
	g := budget.NewGuard(budget.GuardOptions{MemoryMB: int64(m), Log: log})
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); g.Run(ctx) }()
	return limits{split: split, guard: g, stop: func() { cancel(); <-done }}, nil
}

// appFlags are the settings of the commands that run the session manager
// (serve, mcp).
type appFlags struct {
	dataDir    string
	maxRunning int
	maxMB      int64
	memoryMB   memoryFlag
	model      modelFlags
	// rooms and auth, when set, serve the data rooms (serve).
	rooms    room.Service
	auth     web.Authenticator
	research research.Service
	// runner, when set, is the bound on background work that research
	// shares with the investigations and analyses app.Open wires.
	runner *runner.Runner
}

func (f *appFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&f.dataDir, "data-dir", defaultDataDir(getenv), "where sessions and the index are stored (env QUARRY_DATA_DIR)")
	fs.IntVar(&f.maxRunning, "max-running", 2, "investigations, analyses and researches running at once, together; more wait their turn")
	fs.Int64Var(&f.maxMB, "max-file-mb", 50, "largest accepted upload in MB")
	f.memoryMB.register(fs)
	f.model.register(fs, getenv)
}

// open wires the app with its log on stderr and starts the expiry
// sweeper; close stops the sweeper and then the app.
func (f *appFlags) open(ctx context.Context, getenv func(string) string, stderr io.Writer) (a *app.App, closeApp func(), err error) {
	w, err := f.model.open(getenv)
	if err != nil {
		return nil, nil, err
	}
	timeout, err := sessionTimeout(getenv)
	if err != nil {
		return nil, nil, err
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if w.model != nil {
		log.Info("model configured", "model", w.model.Name(), "local", w.local, "code_sandbox", w.dial != nil)
	}
	if w.embedder != nil {
		log.Info("embedder configured", "model", w.embedModel)
	}
	if f.maxRunning <= 0 {
		f.maxRunning = 2 // app.Open's default, which the split must know
	}
	mem, err := f.memoryMB.start(ctx, f.maxRunning+2, f.maxRunning, getenv, log)
	if err != nil {
		return nil, nil, err
	}
	a, err = app.Open(ctx, app.Options{DataDir: f.dataDir, SessionTimeout: timeout, MaxUploadBytes: f.maxMB << 20,
		MaxRunning: f.maxRunning, MemoryMB: int64(f.memoryMB), Guard: mem.guard, Log: log, OpenSource: openSource, Model: w.model, ModelLocal: w.local, DialCode: w.dial,
		Embedder: w.embedder, EmbeddingModel: w.embedModel, Rooms: f.rooms, Auth: f.auth, Research: f.research, Runner: f.runner})
	if err != nil {
		mem.stop()
		return nil, nil, err
	}
	sweepCtx, stopSweep := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.Investigations.SweepEvery(sweepCtx, sweepInterval(timeout))
	}()
	return a, func() {
		stopSweep()
		<-done
		a.Close()
		mem.stop()
	}, nil
}
