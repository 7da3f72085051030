package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/sqlite"
	"github.com/quarry-dev/quarry/websearch/websearchtest"
)

// runCLIEnv is runCLI with environment variables.
func runCLIEnv(t *testing.T, env map[string]string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, func(k string) string { return env[k] }, strings.NewReader(""), &out, &errb)
	code := exitCode(err, &errb)
	return out.String(), errb.String(), code
}

// TestResearchWeb runs quarry research --web over a local SearxNG-like
// search whose pages plant a contradiction: it is found and resolved to
// the filing's figure, and the pages not read are named.
func TestResearchWeb(t *testing.T) {
	web := websearchtest.Start(t, websearchtest.Kestrel(), false)
	dir := t.TempDir()
	env := map[string]string{"QUARRY_SEARXNG_URL": web.SearchURL(), "QUARRY_WEB_ALLOW_PRIVATE": "true"}
	stdout, stderr, code := runCLIEnv(t, env, "research", "--data-dir", dir, "--web", "--depth", "quick", websearchtest.KestrelQuestion, "--json")
	if code != 0 {
		t.Fatalf("quarry research --web exited %d\n%s", code, stderr)
	}
	var out research.View
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout)
	}
	if out.Status != "completed" || len(out.Discrepancies) != 1 {
		t.Fatalf("status %s with discrepancies %+v; want completed with the planted one", out.Status, out.Discrepancies)
	}
	d := out.Discrepancies[0]
	if !strings.Contains(d.Topic, "revenue") || !strings.HasPrefix(d.Preferred, "$46.9 million") {
		t.Errorf("discrepancy %s resolved to %q by %s; want revenue at $46.9 million", d.Topic, d.Preferred, d.Strategy)
	}
	for _, f := range out.Facts {
		if !strings.HasPrefix(f.SourceURL, web.URL+"/") {
			t.Errorf("fact %q from %s; want the local web's pages", f.Text, f.SourceURL)
		}
	}
	lim := strings.Join(out.Report.Limitations, "\n")
	for _, want := range []string{"kestrel-annual-report.pdf was not read: the page is application/pdf", "kestrel-revenue-2024 was not read: the site's robots.txt disallows"} {
		if !strings.Contains(lim, want) || !strings.Contains(stderr, want) {
			t.Errorf("limitations and progress lack %q:\n%s\n%s", want, lim, stderr)
		}
	}
	// Without the permission to read private addresses, the local pages
	// are refused and the report says why.
	stdout, stderr, code = runCLIEnv(t, map[string]string{"QUARRY_SEARXNG_URL": web.SearchURL()}, "research", "--data-dir", dir, "--web", "--depth", "quick", websearchtest.KestrelQuestion, "--json")
	if code != 0 || !strings.Contains(stdout, "QUARRY_WEB_ALLOW_PRIVATE") {
		t.Errorf("research --web over private pages exited %d; want a report naming QUARRY_WEB_ALLOW_PRIVATE\n%s", code, stderr)
	}
	// The config file's web section does the same as the environment,
	// its credibility map included.
	config := filepath.Join(dir, "quarry.json")
	os.WriteFile(config, []byte(`{"web": {"searxng_url": "`+web.SearchURL()+`", "allow_private": true, "credibility": {"127.0.0.1": 0.8}}}`), 0o644)
	stdout, stderr, code = runCLIEnv(t, nil, "research", "--data-dir", dir, "--config", config, "--web", "--depth", "quick", websearchtest.KestrelQuestion, "--json")
	var viaFile research.View
	if code != 0 || json.Unmarshal([]byte(stdout), &viaFile) != nil || len(viaFile.Discrepancies) != 1 {
		t.Fatalf("research --web from the config file exited %d\n%s", code, stderr)
	}
	store, err := sqlite.OpenResearch(filepath.Join(dir, "db", "research.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	saved, err := store.Get(context.Background(), viaFile.ID)
	if err != nil || len(saved.Sources) == 0 {
		t.Fatalf("the research from the config file was not saved: %v", err)
	}
	for _, s := range saved.Sources {
		if s.CredibilityScore != 0.8 {
			t.Errorf("source %s has credibility %v; want the config file's 0.8", s.URL, s.CredibilityScore)
		}
	}
}

// TestResearchWebFailures: no provider configured is a clear error
// naming the settings, before anything is written; a provider that is
// down leaves the folder's research complete with a limitation naming
// it; a provider answering garbage alone fails the research with the
// reason.
func TestResearchWebFailures(t *testing.T) {
	dir := t.TempDir()
	_, stderr, code := runCLIEnv(t, nil, "research", "--data-dir", dir, "--web", kestrelQuestion)
	if code != 1 || !strings.Contains(stderr, "QUARRY_SEARXNG_URL") || !strings.Contains(stderr, "QUARRY_BRAVE_API_KEY") {
		t.Errorf("--web without a provider: exit %d, %q; want 1 naming the settings", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "db")); err == nil {
		t.Error("--web without a provider wrote the data dir")
	}
	_, stderr, code = runCLIEnv(t, map[string]string{"QUARRY_SEARXNG_URL": "localhost:8888"}, "research", "--data-dir", dir, "--web", kestrelQuestion)
	if code != 1 || !strings.Contains(stderr, "not an http(s) URL") {
		t.Errorf("--web with a bad URL: exit %d, %q", code, stderr)
	}

	bad := filepath.Join(t.TempDir(), "cred.json")
	os.WriteFile(bad, []byte(`{"example.com": "high"}`), 0o644)
	_, stderr, code = runCLIEnv(t, map[string]string{"QUARRY_BRAVE_API_KEY": "k", "QUARRY_WEB_CREDIBILITY": bad}, "research", "--data-dir", dir, "--web", kestrelQuestion)
	if code != 1 || !strings.Contains(stderr, "credibility map") {
		t.Errorf("--web with a broken credibility map: exit %d, %q", code, stderr)
	}

	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	stdout, stderr, code := runCLIEnv(t, map[string]string{"QUARRY_SEARXNG_URL": closed.URL}, "research", "--data-dir", dir, "--corpus", kestrelCorpus, "--web", kestrelQuestion, "--json")
	if code != 0 {
		t.Fatalf("--corpus with --web down exited %d; want the research completed from the folder\n%s", code, stderr)
	}
	var out research.View
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	want := "Source the web (SearxNG at " + closed.URL + ") failed and the research went on without it: SearxNG at " + closed.URL + " cannot be reached"
	if !strings.Contains(strings.Join(out.Report.Limitations, "\n"), want) || !strings.Contains(stderr, want) {
		t.Errorf("limitations %q and progress lack %q\n%s", out.Report.Limitations, want, stderr)
	}
	if out.Status != "completed" || len(out.Discrepancies) != 4 {
		t.Errorf("status %s with %d discrepancies; want completed with the folder's 4 planted ones", out.Status, len(out.Discrepancies))
	}

	garbage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>It works!</html>")) }))
	defer garbage.Close()
	stdout, stderr, code = runCLIEnv(t, map[string]string{"QUARRY_SEARXNG_URL": garbage.URL}, "research", "--data-dir", dir, "--web", kestrelQuestion)
	if code != 1 || !strings.Contains(stderr, "UNAVAILABLE") || !strings.Contains(stderr, "not its search JSON") || stdout != "" {
		t.Errorf("--web alone with garbage: exit %d, stdout %q, stderr %q; want 1 with the reason and no report", code, stdout, stderr)
	}
}

// TestServeAndMCPResearchTheWeb: quarry serve and quarry mcp take the
// web settings research --web takes (here the config file's web
// section), and research the web when a request asks for it; without a
// provider they refuse it naming the settings, and a provider setting
// that is wrong stops them at the start.
func TestServeAndMCPResearchTheWeb(t *testing.T) {
	web := websearchtest.Start(t, websearchtest.Kestrel(), false)
	config := filepath.Join(t.TempDir(), "quarry.json")
	os.WriteFile(config, []byte(`{"web": {"searxng_url": "`+web.SearchURL()+`", "allow_private": true}}`), 0o644)
	body := `{"question": "` + websearchtest.KestrelQuestion + `", "depth": "quick", "web": true}`

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--sample", "", "--data-dir", t.TempDir(), "--config", config},
			func(string) string { return "" }, nil, &stdout, &stderr)
	}()
	base := serverURL(t, done, &stdout)
	if !strings.Contains(stderr.String(), "research may search the web") {
		t.Errorf("serve's log does not say it may search the web:\n%s", stderr.String())
	}
	res, err := http.Post(base+"/api/research", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var started struct{ ID string }
	json.NewDecoder(res.Body).Decode(&started)
	res.Body.Close()
	if res.StatusCode != http.StatusAccepted || started.ID == "" {
		t.Fatalf("POST /api/research with web: %d", res.StatusCode)
	}
	var v research.View
	waitFor(t, done, "the research over the web", func() bool {
		res, err := http.Get(base + "/api/research/" + started.ID)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		v = research.View{}
		json.NewDecoder(res.Body).Decode(&v)
		return v.Status == "completed" || v.Status == "failed"
	})
	if v.Status != "completed" || len(v.Facts) == 0 || !strings.HasPrefix(v.Facts[0].SourceURL, web.URL+"/") {
		t.Errorf("serve's research over the web: %s with %d facts; want completed from the local web", v.Status, len(v.Facts))
	}

	url := startMCPHTTP(t, "--data-dir", t.TempDir(), "--config", config)
	offline := startMCPHTTP(t, "--data-dir", t.TempDir())
	for _, tc := range []struct {
		url, want string
		fails     bool
	}{{url, ", completed).", false}, {offline, "QUARRY_SEARXNG_URL", true}} {
		client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "quarry-test", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &mcpsdk.StreamableClientTransport{Endpoint: tc.url, DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		text, failed := callText(t, cs, "run_research", map[string]any{"question": websearchtest.KestrelQuestion, "depth": "quick", "web": true})
		if failed != tc.fails || !strings.Contains(text, tc.want) {
			t.Errorf("quarry mcp's research over the web (failing %v): %q; want %q", tc.fails, text, tc.want)
		}
		cs.Close()
	}

	for _, args := range [][]string{
		{"serve", "--addr", "127.0.0.1:0", "--sample", "", "--data-dir", t.TempDir()},
		{"mcp", "--data-dir", t.TempDir()},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		var stdout, stderr syncBuffer
		err := run(ctx, args, func(k string) string { return map[string]string{"QUARRY_SEARXNG_URL": "localhost:8888"}[k] }, strings.NewReader(""), &stdout, &stderr)
		cancel()
		if quarry.ErrorCode(err) != quarry.ECodeInvalid || !strings.Contains(err.Error(), "not an http(s) URL") {
			t.Errorf("quarry %s with a SearxNG URL that is not one = %v; want INVALID before it serves", args[0], err)
		}
	}
}

// TestHelpNamesResearchWeb: quarry help shows research's --web and the
// settings it needs, and doctor's check of the web search.
func TestHelpNamesResearchWeb(t *testing.T) {
	stdout, stderr, code := runCLI(t, "help")
	if code != 0 {
		t.Fatalf("quarry help exited %d\n%s", code, stderr)
	}
	for _, want := range []string{"quarry research [--room R | --corpus DIR] [--web]", "QUARRY_SEARXNG_URL or QUARRY_BRAVE_API_KEY", "web search) and whether it answers"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("quarry help lacks %q:\n%s", want, stdout)
		}
	}
}
