package codeexec_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/mcp/codeexec"
	"github.com/quarry-dev/quarry/mcp/codeexec/codeexectest"
)

// helperEnv makes the test binary act as a server process instead of
// running tests: "stdio" serves codeexectest over stdin/stdout without an
// upload tool, "fail" prints to stderr and exits 1.
const helperEnv = "QUARRY_CODEEXEC_TEST_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "stdio":
		dir, err := os.MkdirTemp("", "codeexec-stdio")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		err = codeexectest.New(codeexectest.Options{Dir: dir, NoUpload: true}).ServeStdio(context.Background())
		os.RemoveAll(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	default:
		fmt.Fprintln(os.Stderr, "cannot start: docker daemon not running")
		os.Exit(1)
	}
}

// server is one way to reach a fresh codeexectest server. It returns a
// connected runner and the server's working directory.
type server struct {
	name string
	dial func(t *testing.T, cfg codeexec.Config) (*codeexec.Runner, string, error)
}

var servers = []server{
	{"in-memory", func(t *testing.T, cfg codeexec.Config) (*codeexec.Runner, string, error) {
		dir := t.TempDir()
		tr, err := codeexectest.New(codeexectest.Options{Dir: dir, Timeout: 20 * time.Second}).InMemory(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		r, err := codeexec.Connect(context.Background(), cfg, tr)
		return r, dir, err
	}},
	{"streamable-http", func(t *testing.T, cfg codeexec.Config) (*codeexec.Runner, string, error) {
		dir := t.TempDir()
		srv := httptest.NewServer(codeexectest.New(codeexectest.Options{Dir: dir, Timeout: 20 * time.Second}).Handler())
		t.Cleanup(srv.Close)
		cfg.URL = srv.URL
		r, err := codeexec.Dial(context.Background(), cfg)
		return r, dir, err
	}},
}

// forEachServer runs f against every server, connected with cfg.
func forEachServer(t *testing.T, cfg codeexec.Config, f func(t *testing.T, r *codeexec.Runner, dir string)) {
	codeexectest.RequirePython(t)
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			r, dir, err := s.dial(t, cfg)
			if err != nil {
				t.Fatalf("dial: %v", err)
			}
			t.Cleanup(func() { r.Close() })
			f(t, r, dir)
		})
	}
}

// writeCSV writes a small sales file whose amounts sum to 62.5.
func writeCSV(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "local-sales.csv")
	if err := os.WriteFile(path, []byte("region,amount\nnorth,10\nsouth,20\neast,32.5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// sumScript returns Python that prints the sum of the amount column of the
// CSV file at path, using only the standard library.
func sumScript(path string) string {
	quoted, _ := json.Marshal(path) // a JSON string is a Python string literal
	return fmt.Sprintf(`import csv
with open(%s, newline="") as f:
    print(sum(float(row["amount"]) for row in csv.DictReader(f)))
`, quoted)
}

func TestUploadAndRun(t *testing.T) {
	forEachServer(t, codeexec.Config{}, func(t *testing.T, r *codeexec.Runner, dir string) {
		ctx := context.Background()
		remote, err := r.Upload(ctx, "sales.csv", writeCSV(t))
		if err != nil {
			t.Fatalf("Upload: %v", err)
		}
		if want := filepath.Join(dir, "sales.csv"); remote != want {
			t.Errorf("Upload = %q; want %q", remote, want)
		}
		got, err := r.Run(ctx, sumScript(remote))
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		if want := (codeexec.Result{Stdout: "62.5\n", OK: true}); got != want {
			t.Errorf("Run = %#v; want %#v", got, want)
		}
		// Code runs in the server's directory, so the base name works too.
		out, ok, err := r.RunPython(ctx, sumScript("sales.csv"))
		if out != "62.5\n" || !ok || err != nil {
			t.Errorf("RunPython = %q, %v, %v; want %q, true, nil", out, ok, err, "62.5\n")
		}
	})
}

func TestRunPythonError(t *testing.T) {
	forEachServer(t, codeexec.Config{}, func(t *testing.T, r *codeexec.Runner, _ string) {
		got, err := r.Run(context.Background(), "print('before')\nraise ValueError('no such region: west')\n")
		if err != nil {
			t.Fatalf("Run: %v; want a result with OK false", err)
		}
		if got.OK || got.Stdout != "before\n" {
			t.Errorf("Run = %#v; want OK false and Stdout %q", got, "before\n")
		}
		for _, want := range []string{"Traceback (most recent call last):", "ValueError: no such region: west"} {
			if !strings.Contains(got.Stderr, want) {
				t.Errorf("Stderr = %q; want it to contain %q", got.Stderr, want)
			}
		}
	})
}

func TestRunTimeout(t *testing.T) {
	forEachServer(t, codeexec.Config{Timeout: 2 * time.Second}, func(t *testing.T, r *codeexec.Runner, _ string) {
		ctx := context.Background()
		_, err := r.Run(ctx, "import time\ntime.sleep(60)\n")
		if code := quarry.ErrorCode(err); code != quarry.ECodeUnavailable {
			t.Fatalf("Run(sleep) error = %v; want code %s", err, quarry.ECodeUnavailable)
		}
		// The session survives a timed-out call.
		got, err := r.Run(ctx, "print(6 * 7)")
		if err != nil || got.Stdout != "42\n" {
			t.Errorf("Run after timeout = %#v, %v; want Stdout %q", got, err, "42\n")
		}
	})
}

func TestRunCanceled(t *testing.T) {
	forEachServer(t, codeexec.Config{}, func(t *testing.T, r *codeexec.Runner, _ string) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := r.Run(ctx, "print(1)"); !errors.Is(err, context.Canceled) {
			t.Errorf("Run(canceled ctx) error = %v; want context.Canceled", err)
		}
	})
}

func TestRunTruncatesOutput(t *testing.T) {
	forEachServer(t, codeexec.Config{MaxOutput: 100}, func(t *testing.T, r *codeexec.Runner, _ string) {
		got, err := r.Run(context.Background(), "print('x' * 250)")
		if err != nil {
			t.Fatal(err)
		}
		// 250 x's and a newline: 100 bytes kept, 151 dropped.
		if want := strings.Repeat("x", 100) + "\n[truncated 151 bytes]"; got.Stdout != want {
			t.Errorf("Stdout = %q; want %q", got.Stdout, want)
		}
	})
}

func TestDialChecksTools(t *testing.T) {
	tests := []struct {
		name    string
		cfg     codeexec.Config
		message string
	}{
		{"missing tool", codeexec.Config{Tool: "run_sql"},
			`code execution server has no tool "run_sql"; it has execute_python, upload_file`},
		{"missing code argument", codeexec.Config{CodeArg: "script"},
			`tool "execute_python" has no argument "script"; it takes code`},
	}
	for _, tt := range tests {
		for _, s := range servers {
			t.Run(tt.name+"/"+s.name, func(t *testing.T) {
				r, _, err := s.dial(t, tt.cfg)
				if err == nil {
					r.Close()
					t.Fatal("dial succeeded; want an error")
				}
				if code, msg := quarry.ErrorCode(err), quarry.ErrorMessage(err); code != quarry.ECodeUnavailable || msg != tt.message {
					t.Errorf("dial error = %s %q; want %s %q", code, msg, quarry.ECodeUnavailable, tt.message)
				}
			})
		}
	}
}

func TestUploadErrors(t *testing.T) {
	forEachServer(t, codeexec.Config{MaxUpload: 10}, func(t *testing.T, r *codeexec.Runner, dir string) {
		local := t.TempDir()
		write := func(name string, size int) string {
			path := filepath.Join(local, name)
			if err := os.WriteFile(path, []byte(strings.Repeat("a", size)), 0o600); err != nil {
				t.Fatal(err)
			}
			return path
		}
		ctx := context.Background()
		if got, err := r.Upload(ctx, "ten.csv", write("ten.csv", 10)); err != nil || got != filepath.Join(dir, "ten.csv") {
			t.Errorf("Upload(10 bytes) = %q, %v; want it stored", got, err)
		}
		tests := []struct {
			name, path, code string
		}{
			{"eleven.csv", write("eleven.csv", 11), quarry.ECodeFileTooLarge},
			{"../escape.csv", write("escape.csv", 1), quarry.ECodeInvalid},
			{"", write("blank.csv", 1), quarry.ECodeInvalid},
			{"missing.csv", filepath.Join(local, "missing.csv"), quarry.ECodeNotFound},
		}
		for _, tt := range tests {
			if _, err := r.Upload(ctx, tt.name, tt.path); quarry.ErrorCode(err) != tt.code {
				t.Errorf("Upload(%q) error = %v; want code %s", tt.name, err, tt.code)
			}
		}
	})
}

// TestStdioSubprocess starts this test binary as a stdio server, which
// shares the file system and so offers no upload tool.
func TestStdioSubprocess(t *testing.T) {
	codeexectest.RequirePython(t)
	t.Setenv(helperEnv, "stdio")
	// A race-enabled child otherwise sleeps a second on exit, which on a
	// loaded machine can outlast the SDK's grace period before SIGTERM.
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	ctx := context.Background()
	r, err := codeexec.Dial(ctx, codeexec.Config{Command: []string{os.Args[0]}})
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer r.Close()
	local := writeCSV(t)
	remote, err := r.UploadFile(ctx, local)
	if err != nil || remote != local {
		t.Fatalf("UploadFile = %q, %v; want the local path %q", remote, err, local)
	}
	got, err := r.Run(ctx, sumScript(remote))
	if want := (codeexec.Result{Stdout: "62.5\n", OK: true}); err != nil || got != want {
		t.Errorf("Run = %#v, %v; want %#v", got, err, want)
	}
	got, err = r.Run(ctx, "import sys\nsys.exit(3)")
	if err != nil || got.OK {
		t.Errorf("Run(exit 3) = %#v, %v; want OK false", got, err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestDialCommandFails(t *testing.T) {
	t.Setenv(helperEnv, "fail")
	tests := []struct {
		name    string
		command []string
		want    string // in the message
	}{
		{"exits", []string{os.Args[0]}, "server stderr: cannot start: docker daemon not running"},
		{"no such program", []string{filepath.Join(t.TempDir(), "no-such-server")}, "no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := codeexec.Dial(context.Background(), codeexec.Config{Command: tt.command, Timeout: 20 * time.Second})
			if code := quarry.ErrorCode(err); code != quarry.ECodeUnavailable || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Dial error = %v; want %s containing %q", err, quarry.ECodeUnavailable, tt.want)
			}
		})
	}
}

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want codeexec.Config
		ok   bool
	}{
		{"unset", nil, codeexec.Config{}, false},
		{"command split on spaces",
			map[string]string{codeexec.EnvCommand: "  docker run -i --rm  quarry/pandas-mcp "},
			codeexec.Config{Command: []string{"docker", "run", "-i", "--rm", "quarry/pandas-mcp"}}, true},
		{"url with tool and argument",
			map[string]string{codeexec.EnvURL: "http://localhost:8811/mcp", codeexec.EnvTool: "run_python", codeexec.EnvCodeArg: "script"},
			codeexec.Config{URL: "http://localhost:8811/mcp", Tool: "run_python", CodeArg: "script"}, true},
		{"tool alone configures nothing",
			map[string]string{codeexec.EnvTool: "run_python"},
			codeexec.Config{Tool: "run_python"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := codeexec.ConfigFromEnv(func(k string) string { return tt.env[k] })
			want := tt.want
			if want.Tool == "" {
				want.Tool = codeexec.DefaultTool
			}
			if want.CodeArg == "" {
				want.CodeArg = codeexec.DefaultCodeArg
			}
			want.UploadTool = codeexec.DefaultUploadTool
			want.Timeout = codeexec.DefaultTimeout
			want.MaxOutput = codeexec.DefaultMaxOutput
			want.MaxUpload = codeexec.DefaultMaxUpload
			if !reflect.DeepEqual(got, want) || ok != tt.ok {
				t.Errorf("ConfigFromEnv = %+v, %v; want %+v, %v", got, ok, want, tt.ok)
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		cfg  codeexec.Config
		code string
	}{
		{"command", codeexec.Config{Command: []string{"server"}}, ""},
		{"url", codeexec.Config{URL: "https://exec.example/mcp"}, ""},
		{"neither", codeexec.Config{}, quarry.ECodeInvalid},
		{"both", codeexec.Config{Command: []string{"server"}, URL: "http://localhost/mcp"}, quarry.ECodeInvalid},
		{"not http", codeexec.Config{URL: "localhost:8811"}, quarry.ECodeInvalid},
		{"negative timeout", codeexec.Config{URL: "http://localhost/mcp", Timeout: -time.Second}, quarry.ECodeInvalid},
	}
	for _, tt := range tests {
		if got := quarry.ErrorCode(tt.cfg.Validate()); got != tt.code {
			t.Errorf("%s: Validate() code = %q; want %q", tt.name, got, tt.code)
		}
	}
	// Dial reports the same error before starting anything.
	if _, err := codeexec.Dial(context.Background(), codeexec.Config{}); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("Dial(Config{}) error = %v; want code %s", err, quarry.ECodeInvalid)
	}
}
