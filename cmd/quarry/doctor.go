package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/duckdb"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/investigations"
	"github.com/quarry-dev/quarry/llm"
)

// runDoctor tells a user what is configured and whether each part answers:
// the data directory, the SQL engine, the web search provider (one
// search), the model (a plain and a structured request) and the code
// sandbox. It exits 1 when something configured
// does not work; offline is a working configuration.
func runDoctor(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", defaultDataDir(getenv), "where sessions are stored (env QUARRY_DATA_DIR)")
	var mf modelFlags
	mf.register(fs, getenv)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	failed := 0
	report := func(name string, err error, ok string) {
		if err != nil {
			failed++
			fmt.Fprintf(stdout, "%-13s FAIL  %s\n", name, oneLineError(err))
			return
		}
		fmt.Fprintf(stdout, "%-13s ok    %s\n", name, ok)
	}

	report("data dir", writable(*dataDir), *dataDir)
	version, err := duckVersion(ctx)
	report("sql engine", err, "DuckDB "+version+" (embedded)")

	checkWeb(ctx, stdout, &mf, getenv, report)

	cfg, ecfg, err := mf.config(getenv)
	if err != nil {
		report("model", err, "")
		return doctorResult(failed)
	}
	checkEmbedder(ctx, stdout, ecfg, report)
	if cfg.Offline() {
		report("model", nil, "offline: the deterministic analyst does every step (set "+llm.EnvProvider+" to use a model)")
		return doctorResult(failed)
	}
	model, err := app.NewModel(cfg)
	if err != nil {
		report("model", err, "")
		return doctorResult(failed)
	}
	fmt.Fprintf(stdout, "%-13s       %s\n", "model config", cfg)
	answer, err := askPlain(ctx, model)
	report("model", err, answer)
	if err == nil {
		report("json output", askJSON(ctx, model), "structured output parses")
	}

	dial, err := app.CodeDialer(getenv)
	switch {
	case err != nil:
		report("code sandbox", err, "")
	case dial == nil:
		fmt.Fprintf(stdout, "%-13s -     none configured: the model writes SQL only (QUARRY_CODE_MCP_COMMAND or _URL)\n", "code sandbox")
	default:
		out, err := runPython(ctx, dial)
		report("code sandbox", err, "print(6*7) printed "+strings.TrimSpace(out))
	}
	return doctorResult(failed)
}

// checkEmbedder embeds one sentence with the configured embedder.
func checkEmbedder(ctx context.Context, stdout io.Writer, c llm.EmbedConfig, report func(string, error, string)) {
	if !c.Configured() {
		fmt.Fprintf(stdout, "%-13s -     none configured: retrieval and recipes are lexical (%s)\n", "embedder", llm.EnvEmbedModel)
		return
	}
	emb, err := app.NewEmbedder(c)
	if err != nil {
		report("embedder", err, "")
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	vs, err := emb.Embed(ctx, []string{"What was capital expenditure in FY2022?"})
	if err != nil {
		report("embedder", err, "")
		return
	}
	report("embedder", nil, fmt.Sprintf("%s: %d dimensions", c, len(vs[0])))
}

// webCheckTimeout bounds doctor's one search: a provider slower than
// this would make every research over the web slow.
const webCheckTimeout = 5 * time.Second

// checkWeb searches once with the web search provider research --web,
// serve and mcp would use.
func checkWeb(ctx context.Context, stdout io.Writer, mf *modelFlags, getenv func(string) string, report func(string, error, string)) {
	wc, err := mf.webConfig(getenv)
	if err != nil {
		report("web search", err, "")
		return
	}
	if !wc.Configured() {
		fmt.Fprintf(stdout, "%-13s -     none configured: research reads rooms and folders only (QUARRY_SEARXNG_URL or QUARRY_BRAVE_API_KEY for --web)\n", "web search")
		return
	}
	// The corpus checks the whole configuration (the credibility map
	// too); the provider is what answers.
	if _, err := app.OpenWebCorpus(wc); err != nil {
		report("web search", err, "")
		return
	}
	p, err := wc.Provider()
	if err != nil {
		report("web search", err, "")
		return
	}
	ctx, cancel := context.WithTimeout(ctx, webCheckTimeout)
	defer cancel()
	start := time.Now()
	results, err := p.Search(ctx, "annual report", 5)
	if err == nil && ctx.Err() != nil {
		err = quarry.Errorf(quarry.ECodeUnavailable, "%s did not answer within %s", p.Name(), webCheckTimeout)
	}
	if err != nil {
		report("web search", err, "")
		return
	}
	private := ""
	if wc.AllowPrivate {
		private = "; pages on private addresses are read"
	}
	report("web search", nil, fmt.Sprintf("%s answered %d results in %d ms%s", p.Name(), len(results), time.Since(start).Milliseconds(), private))
}

func doctorResult(failed int) error {
	if failed > 0 {
		return fmt.Errorf("%d check(s) failed", failed)
	}
	return nil
}

func oneLineError(err error) string {
	var qe *quarry.Error
	if errors.As(err, &qe) {
		s := qe.Code + ": " + qe.Message
		if qe.Hint != "" {
			s += " (hint: " + qe.Hint + ")"
		}
		return s
	}
	return strings.ReplaceAll(err.Error(), "\n", " ")
}

func writable(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".doctor-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(filepath.Clean(f.Name()))
}

func duckVersion(ctx context.Context) (string, error) {
	e, err := duckdb.Open(duckdb.Options{})
	if err != nil {
		return "", err
	}
	defer e.Close()
	res, err := e.Query(ctx, "SELECT version()")
	if err != nil {
		return "", err
	}
	return res.String(0, 0), nil
}

// askPlain sends a tiny request and describes the answer.
func askPlain(ctx context.Context, m llm.Model) (string, error) {
	start := time.Now()
	resp, err := m.Complete(ctx, &llm.Request{Purpose: "doctor", MaxTokens: 16,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "Reply with the single word: ok"}}})
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(resp.Text) == "" {
		return "", fmt.Errorf("the model answered with no text")
	}
	return fmt.Sprintf("%s answered %q in %d ms (%d input, %d output tokens)", m.Name(), strings.TrimSpace(resp.Text),
		time.Since(start).Milliseconds(), resp.Usage.InputTokens, resp.Usage.OutputTokens), nil
}

func askJSON(ctx context.Context, m llm.Model) error {
	resp, err := m.Complete(ctx, &llm.Request{Purpose: "doctor", MaxTokens: 64,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: `Answer with {"ok": true}.`}},
		Output:   &llm.Schema{Name: "check", Schema: json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{"ok":{"type":"boolean"}},"required":["ok"]}`)}})
	if err != nil {
		return err
	}
	var v struct {
		OK bool `json:"ok"`
	}
	if err := json.Unmarshal([]byte(resp.Text), &v); err != nil {
		return fmt.Errorf("structured output is not JSON (%v): %.80q; investigations will run those steps offline", err, resp.Text)
	}
	return nil
}

// runPython runs one line of Python in the configured sandbox.
func runPython(ctx context.Context, dial func(context.Context) (investigations.CodeSession, error)) (string, error) {
	code, err := dial(ctx)
	if err != nil {
		return "", err
	}
	defer code.Close()
	out, ok, err := code.RunPython(ctx, "print(6*7)")
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("python failed: %s", out)
	}
	return out, nil
}
