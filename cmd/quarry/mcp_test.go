package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-dev/quarry/internal/sampledata"
)

// asCommand is the environment variable that makes the test binary run as
// the quarry command (see TestMain), so tests can start it as a process.
const asCommand = "QUARRY_TEST_AS_COMMAND"

// TestMain runs the test binary as the quarry command when asCommand is
// set: a process test starts this binary with quarry's arguments.
func TestMain(m *testing.M) {
	if os.Getenv(asCommand) == "1" {
		main() // exits
	}
	os.Exit(m.Run())
}

// quarryCommand returns the quarry command with args, as a process.
func quarryCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), asCommand+"=1")
	return cmd
}

// mcpTools is every tool quarry mcp offers: the investigation's, the
// analyses' and the data rooms'.
var mcpTools = []string{"ask_investigation", "ask_room", "create_investigation", "delete_room", "describe_investigation_table", "get_analysis",
	"get_investigation", "get_investigation_explanations", "get_investigation_report", "get_room_page",
	"list_analysis_recipes", "list_investigation_tables", "list_investigations", "list_rooms",
	"remove_room_member", "run_investigation_sql", "run_research", "start_analysis", "start_investigation"}

// callText calls a tool and returns its text and whether it failed.
func callText(t *testing.T, cs *mcpsdk.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var text string
	for _, c := range res.Content {
		if tc, ok := c.(*mcpsdk.TextContent); ok {
			text += tc.Text
		}
	}
	return text, res.IsError
}

func toolNames(t *testing.T, cs *mcpsdk.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// TestMCPStdio starts quarry mcp as a process the way an MCP client does
// and talks to it over its stdin and stdout.
func TestMCPStdio(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "sales.csv")
	if err := os.WriteFile(csv, []byte("day,store,sales\n2024-01-01,a,10\n2024-01-01,b,12.5\n2024-01-02,a,7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := quarryCommand(t, "mcp", "--data-dir", filepath.Join(dir, "data"))
	var stderr syncBuffer
	cmd.Stderr = &stderr
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "quarry-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcpsdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("initialize: %v\nstderr:\n%s", err, stderr.String())
	}
	if info := cs.InitializeResult(); info.ServerInfo.Name != "quarry" || !strings.Contains(info.Instructions, "start_investigation") {
		t.Errorf("server info %+v, instructions %q", info.ServerInfo, info.Instructions)
	}
	if names := toolNames(t, cs); !slices.Equal(names, mcpTools) {
		t.Errorf("tools %v, want %v", names, mcpTools)
	}
	if text, failed := callText(t, cs, "list_investigations", map[string]any{}); failed || text != "0 investigation(s)" {
		t.Errorf("list_investigations on an empty data dir: %q (failed %v)", text, failed)
	}
	// Over stdio the client runs on the user's machine: files go by path.
	text, failed := callText(t, cs, "create_investigation", map[string]any{"files": []map[string]string{{"path": csv, "description": "sales per store and day"}}})
	id := regexp.MustCompile(`Created session (\S+) with 1 table`).FindStringSubmatch(text)
	if failed || id == nil {
		t.Fatalf("create_investigation by path: %s", text)
	}
	if text, failed := callText(t, cs, "run_investigation_sql", map[string]string{"session_id": id[1], "sql": "SELECT store, SUM(sales) AS sales FROM sales GROUP BY 1 ORDER BY 1"}); failed ||
		!strings.Contains(text, "| a | 17 |\n| b | 12.5 |") {
		t.Errorf("run_investigation_sql: %s", text)
	}
	if text, _ := callText(t, cs, "list_investigations", map[string]any{}); !strings.HasPrefix(text, "1 investigation(s)\n"+id[1]+"  has_files") {
		t.Errorf("list_investigations: %q", text)
	}
	if err := cs.Close(); err != nil {
		t.Fatal(err)
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 || strings.Contains(stderr.String(), "level=ERROR") {
		t.Errorf("quarry mcp exited %d when its stdin closed; stderr:\n%s", code, stderr.String())
	}
}

// TestMCPHTTP serves the tools over streamable HTTP at /mcp, where files
// come as text only.
func TestMCPHTTP(t *testing.T) {
	url := startMCPHTTP(t, "--data-dir", t.TempDir())
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "quarry-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcpsdk.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if names := toolNames(t, cs); !slices.Equal(names, mcpTools) {
		t.Errorf("tools %v, want %v", names, mcpTools)
	}
	if text, failed := callText(t, cs, "create_investigation", map[string]any{"files": []map[string]string{{"name": "x.csv", "path": "/etc/hosts"}}}); !failed || !strings.HasPrefix(text, "INVALID: ") {
		t.Errorf("a path over HTTP: %q", text)
	}
	if text, failed := callText(t, cs, "create_investigation", map[string]any{"files": []map[string]string{{"name": "x.csv", "csv": "a,b\n1,2\n"}}}); failed || !strings.Contains(text, "- x (x.csv, 1 rows): a, b") {
		t.Errorf("a file as text over HTTP: %q", text)
	}
	cs.Close()
}

// startMCPHTTP runs quarry mcp --http on a free port with args and returns
// its URL. When the test ends it is stopped, and must return cleanly.
func startMCPHTTP(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"mcp", "--http", "127.0.0.1:0"}, args...), func(string) string { return "" }, nil, &stdout, &stderr)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("quarry mcp --http returned %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("quarry mcp --http did not stop after its context was cancelled")
		}
	})
	listening := regexp.MustCompile(`Quarry MCP server on (http://\S+/mcp) `)
	return waitForURL(t, done, &stdout, listening, "the server's URL")
}

func TestMCPListensOnLocalhostByDefault(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{":8765", "localhost:8765"},
		{"localhost:8765", "localhost:8765"},
		{"0.0.0.0:8765", "0.0.0.0:8765"},
		{"[::1]:0", "[::1]:0"},
	} {
		if got := localByDefault(tt.in); got != tt.want {
			t.Errorf("localByDefault(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestInspectorCLI checks quarry mcp with the official MCP Inspector's
// command line, pinned in tools/inspector (npm ci --prefix tools/inspector;
// $QUARRY_MCP_INSPECTOR names its mcp-inspector). Without it the test
// skips, except under CI=true, where it fails.
func TestInspectorCLI(t *testing.T) {
	inspector := os.Getenv("QUARRY_MCP_INSPECTOR")
	if inspector == "" {
		inspector = filepath.Join("..", "..", "tools", "inspector", "node_modules", ".bin", "mcp-inspector")
	}
	if _, err := os.Stat(inspector); err != nil {
		msg := fmt.Sprintf("MCP Inspector not found at %s; install it with: npm ci --prefix tools/inspector (or set QUARRY_MCP_INSPECTOR)", inspector)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dataDir := t.TempDir()
	inspect := func(args ...string) []byte {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		// The Inspector starts the server with a minimal environment plus
		// what -e gives, so the test binary is told to act as quarry.
		args = append([]string{"--cli", "-e", asCommand + "=1", exe, "mcp", "--data-dir", dataDir}, args...)
		cmd := exec.CommandContext(ctx, inspector, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("mcp-inspector %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out, stderr.String())
		}
		return out
	}

	// --strict fails on schemas that are not portable across model
	// providers' schema dialects.
	var list struct {
		Tools []struct {
			Name         string
			Description  string
			InputSchema  map[string]any
			OutputSchema map[string]any
		}
	}
	if err := json.Unmarshal(inspect("--method", "tools/list", "--strict"), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" || tool.InputSchema["type"] != "object" || tool.OutputSchema["type"] != "object" {
			t.Errorf("tool %s: description %q, input schema %v, output schema %v", tool.Name, tool.Description, tool.InputSchema, tool.OutputSchema)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, mcpTools) {
		t.Errorf("tools/list names %v, want %v", names, mcpTools)
	}

	var call struct {
		Content []struct {
			Type, Text string
		}
		StructuredContent struct {
			Sessions []any
		}
		IsError bool
	}
	if err := json.Unmarshal(inspect("--method", "tools/call", "--tool-name", "list_investigations"), &call); err != nil {
		t.Fatal(err)
	}
	if call.IsError || len(call.Content) != 1 || call.Content[0].Text != "0 investigation(s)" || call.StructuredContent.Sessions == nil {
		t.Errorf("tools/call list_investigations: %+v", call)
	}
}

// TestMCPOneShotClient: a client that starts an investigation and hangs up
// at once finds it completed later, not RUN_INTERRUPTED; a client that asks
// to wait gets the result in the same call.
func TestMCPOneShotClient(t *testing.T) {
	dir := t.TempDir()
	s, _ := sampledata.Get("revenue_drop")
	paths, err := sampledata.WriteScenario(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	connect := func() (*mcpsdk.ClientSession, *exec.Cmd, *syncBuffer) {
		cmd := quarryCommand(t, "mcp", "--data-dir", data)
		stderr := &syncBuffer{}
		cmd.Stderr = stderr
		client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "one-shot", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &mcpsdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Minute}, nil)
		if err != nil {
			t.Fatalf("initialize: %v\n%s", err, stderr.String())
		}
		return cs, cmd, stderr
	}
	start := func(cs *mcpsdk.ClientSession, wait bool) string {
		var files []map[string]string
		for _, p := range paths {
			files = append(files, map[string]string{"path": p})
		}
		text, failed := callText(t, cs, "create_investigation", map[string]any{"files": files})
		id := regexp.MustCompile(`Created session (\S+)`).FindStringSubmatch(text)
		if failed || id == nil {
			t.Fatalf("create_investigation: %s", text)
		}
		text, failed = callText(t, cs, "start_investigation", map[string]any{"session_id": id[1], "metric_sql": s.MetricSQL, "wait": wait,
			"baseline_period":   map[string]string{"start": s.Baseline.Start.String(), "end": s.Baseline.End.String()},
			"comparison_period": map[string]string{"start": s.Comparison.Start.String(), "end": s.Comparison.End.String()}})
		if failed {
			t.Fatalf("start_investigation: %s", text)
		}
		if wait && (!strings.Contains(text, "**Answer:**") || !strings.Contains(text, "1. [Most Likely]")) {
			t.Errorf("start_investigation with wait returned %q", text)
		}
		return id[1]
	}

	cs, cmd, stderr := connect()
	id := start(cs, false)
	if err := cs.Close(); err != nil { // hang up at once
		t.Fatal(err)
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("quarry mcp exited %d\n%s", code, stderr.String())
	}
	raw, err := os.ReadFile(filepath.Join(data, "sessions", id, "metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Status string
		Error  *struct{ Code string }
	}
	json.Unmarshal(raw, &meta)
	if meta.Status != "completed" || meta.Error != nil {
		t.Errorf("after the client hung up the session is %s %+v; want completed", meta.Status, meta.Error)
	}

	cs, _, _ = connect()
	start(cs, true)
	cs.Close()
}
