// Package codeexec runs Python on an external code-execution server that
// speaks the Model Context Protocol: the specification's "Docker MCP server
// with pandas", reached over stdio (a command Quarry starts) or streamable
// HTTP (a server already running).
//
// Dial connects and checks that the server has the configured tool; Upload
// makes a local file readable by the server's Python; Run executes code and
// returns its output. The investigation agent consumes a Runner through an
// interface of its own, satisfied by RunPython and UploadFile.
package codeexec

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-dev/quarry"
)

// Argument names of the upload tool: the file's base name and its content,
// base64-encoded. The tool replies with the path where the server's Python
// can open the file, as text.
const (
	UploadNameArg    = "name"
	UploadContentArg = "content_base64"
)

// Runner runs Python on a connected code-execution server. It is safe for
// concurrent use.
type Runner struct {
	cfg       Config
	session   *mcp.ClientSession
	canUpload bool
}

// Dial starts or reaches the server cfg describes, connects, and checks its
// tools. Errors are INVALID for a bad Config and UNAVAILABLE when the server
// cannot be reached or lacks the configured tool.
func Dial(ctx context.Context, cfg Config) (*Runner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.URL != "" {
		return Connect(ctx, cfg, &mcp.StreamableClientTransport{Endpoint: cfg.URL, DisableStandaloneSSE: true})
	}
	// Keep the end of the server's stderr to explain a failed start.
	stderr := &tailBuffer{max: 4 << 10}
	cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
	cmd.Stderr = stderr
	r, err := Connect(ctx, cfg, &mcp.CommandTransport{Command: cmd})
	if err != nil && stderr.Len() > 0 {
		var qe *quarry.Error
		if errors.As(err, &qe) {
			qe.Message += "; server stderr: " + strings.TrimSpace(stderr.String())
		}
	}
	return r, err
}

// Connect is Dial over a transport the caller built, such as one end of
// mcp.NewInMemoryTransports; cfg.Command and cfg.URL are ignored.
func Connect(ctx context.Context, cfg Config, t mcp.Transport) (*Runner, error) {
	cfg = cfg.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "quarry", Version: "1"}, nil)
	session, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, unavailable("connect", err)
	}
	r := &Runner{cfg: cfg, session: session}
	if err := r.checkTools(ctx); err != nil {
		session.Close()
		return nil, err
	}
	return r, nil
}

// checkTools fails unless the server lists cfg.Tool taking cfg.CodeArg, and
// records whether it offers cfg.UploadTool.
func (r *Runner) checkTools(ctx context.Context) error {
	var names []string
	var run *mcp.Tool
	for tool, err := range r.session.Tools(ctx, nil) {
		if err != nil {
			return unavailable("list tools", err)
		}
		names = append(names, tool.Name)
		switch tool.Name {
		case r.cfg.Tool:
			run = tool
		case r.cfg.UploadTool:
			r.canUpload = true
		}
	}
	if run == nil {
		slices.Sort(names)
		return quarry.Errorf(quarry.ECodeUnavailable, "code execution server has no tool %q; it has %s", r.cfg.Tool, listOrNone(names)).
			WithHint("set " + EnvTool + " to the tool that runs Python")
	}
	if props := schemaProperties(run.InputSchema); props != nil && !slices.Contains(props, r.cfg.CodeArg) {
		slices.Sort(props)
		return quarry.Errorf(quarry.ECodeUnavailable, "tool %q has no argument %q; it takes %s", r.cfg.Tool, r.cfg.CodeArg, listOrNone(props)).
			WithHint("set " + EnvCodeArg + " to the argument that holds the code")
	}
	return nil
}

// Run executes code and returns what it printed. A program that fails (the
// server reports a tool error, such as an uncaught exception) is a Result
// with OK false and the error text in Stderr, not a Go error. Errors are
// UNAVAILABLE when the server cannot be reached, fails the call, or does not
// answer within the timeout, and ctx's own error when ctx ends first.
func (r *Runner) Run(ctx context.Context, code string) (Result, error) {
	res, err := r.call(ctx, "run code", r.cfg.Tool, map[string]any{r.cfg.CodeArg: code})
	if err != nil {
		return Result{}, err
	}
	return resultFrom(res, r.cfg.MaxOutput), nil
}

// Upload makes the local file at path readable by the server's Python under
// the base name name, and returns the path the code should open. If the
// server has the upload tool, the file is sent (at most cfg.MaxUpload bytes,
// else FILE_TOO_LARGE) and the server's path is returned; otherwise the
// server is assumed to share this machine's file system (a local stdio
// server) and the absolute local path is returned unchanged. Errors are
// INVALID for a name that is not a plain file name, NOT_FOUND for a missing
// file and UNAVAILABLE when the server fails.
func (r *Runner) Upload(ctx context.Context, name, path string) (string, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return "", quarry.Errorf(quarry.ECodeInvalid, "upload name %q is not a plain file name", name)
	}
	info, err := os.Stat(path)
	if err != nil {
		return "", quarry.Errorf(quarry.ECodeNotFound, "upload %s: %w", name, err)
	}
	if !r.canUpload {
		return filepath.Abs(path)
	}
	if info.Size() > r.cfg.MaxUpload {
		return "", quarry.Errorf(quarry.ECodeFileTooLarge, "file %s is %d bytes; the code execution server accepts at most %d", name, info.Size(), r.cfg.MaxUpload)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", quarry.Errorf(quarry.ECodeNotFound, "upload %s: %w", name, err)
	}
	res, err := r.call(ctx, "upload "+name, r.cfg.UploadTool, map[string]any{
		UploadNameArg:    name,
		UploadContentArg: base64.StdEncoding.EncodeToString(data),
	})
	if err != nil {
		return "", err
	}
	text := strings.TrimSpace(contentText(res.Content))
	if res.IsError {
		return "", quarry.Errorf(quarry.ECodeUnavailable, "code execution server: upload %s: %s", name, text)
	}
	if text == "" {
		return "", quarry.Errorf(quarry.ECodeUnavailable, "code execution server: upload %s: no path in reply", name)
	}
	return text, nil
}

// RunPython is Run for callers that want one text: the program's stdout
// followed by its stderr, and whether it succeeded.
func (r *Runner) RunPython(ctx context.Context, code string) (output string, ok bool, err error) {
	res, err := r.Run(ctx, code)
	if err != nil {
		return "", false, err
	}
	return res.Output(), res.OK, nil
}

// UploadFile is Upload under the file's own base name.
func (r *Runner) UploadFile(ctx context.Context, path string) (remotePath string, err error) {
	return r.Upload(ctx, filepath.Base(path), path)
}

// Close ends the session; for a stdio server it also stops the process.
func (r *Runner) Close() error {
	err := r.session.Close()
	if errors.Is(err, os.ErrProcessDone) {
		// The server exited while being told to stop, as it should.
		return nil
	}
	return err
}

// call calls tool with args under the configured timeout and maps failures
// to errors; a tool error comes back as a result with IsError set.
func (r *Runner) call(ctx context.Context, op, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	cctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	res, err := r.session.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	switch {
	case err == nil:
		return res, nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case cctx.Err() != nil:
		return nil, quarry.Errorf(quarry.ECodeUnavailable, "code execution server: %s: no answer within %v", op, r.cfg.Timeout)
	}
	return nil, unavailable(op, err)
}

func unavailable(op string, err error) error {
	return quarry.Errorf(quarry.ECodeUnavailable, "code execution server: %s: %w", op, err)
}

// schemaProperties returns the property names of a JSON Schema object as
// the client sees it (decoded JSON), or nil if it declares none.
func schemaProperties(schema any) []string {
	m, _ := schema.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	var names []string
	for name := range props {
		names = append(names, name)
	}
	return names
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if over := b.buf.Len() - b.max; over > 0 {
		b.buf.Next(over)
	}
	return len(p), nil
}

func (b *tailBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
