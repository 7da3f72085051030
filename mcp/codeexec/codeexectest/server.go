// Package codeexectest provides a small code-execution MCP server for tests
// of package codeexec and its users. It offers the tools codeexec expects:
// execute_python, which runs `python3 -I -c code` in the server's private
// working directory, and (unless disabled) upload_file, which writes a
// base64-encoded file into that directory. It serves in process over an
// in-memory pipe, over streamable HTTP, or over stdio.
package codeexectest

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// RequirePython skips t when python3, which runs the server's code, is not
// installed, except in CI (CI=true), where it fails t instead: there the
// tests that run Python must run.
func RequirePython(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 is required in CI to run the code-execution server")
		}
		t.Skip("python3 not installed")
	}
}

// Options configure a Server.
type Options struct {
	// Dir is the working directory of every run and where uploads go. It
	// must exist; tests pass t.TempDir().
	Dir string
	// Timeout bounds each run of Python (default 30s); a run that exceeds it
	// is a tool error.
	Timeout time.Duration
	// NoUpload leaves out upload_file, like a local stdio server that shares
	// the client's file system.
	NoUpload bool
}

// Server is a code-execution MCP server.
type Server struct {
	opts Options
	mcp  *mcp.Server
}

// RunInput is execute_python's argument.
type RunInput struct {
	Code string `json:"code" jsonschema:"Python source to run"`
}

// RunOutput is execute_python's structured result.
type RunOutput struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exit_code"`
}

// UploadInput is upload_file's argument.
type UploadInput struct {
	Name          string `json:"name" jsonschema:"base name of the file"`
	ContentBase64 string `json:"content_base64" jsonschema:"file content, base64-encoded"`
}

// New returns a server with the tools described in the package comment.
func New(opts Options) *Server {
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	s := &Server{opts: opts, mcp: mcp.NewServer(&mcp.Implementation{Name: "codeexectest", Version: "1"}, nil)}
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "execute_python", Description: "Run Python 3 code and return its stdout and stderr."}, s.run)
	if !opts.NoUpload {
		mcp.AddTool(s.mcp, &mcp.Tool{Name: "upload_file", Description: "Store a file in the working directory and return its path."}, s.upload)
	}
	return s
}

// InMemory connects the server to one end of an in-memory pipe and returns
// the other end for a client.
func (s *Server) InMemory(ctx context.Context) (mcp.Transport, error) {
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	if _, err := s.mcp.Connect(ctx, serverEnd, nil); err != nil {
		return nil, err
	}
	return clientEnd, nil
}

// Handler serves the server over streamable HTTP, for httptest.NewServer.
func (s *Server) Handler() http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp },
		&mcp.StreamableHTTPOptions{MaxRequestBodyBytes: 128 << 20})
}

// ServeStdio serves one client over stdin and stdout until it disconnects
// or ctx ends.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.mcp.Run(ctx, &mcp.StdioTransport{})
}

func (s *Server) run(ctx context.Context, _ *mcp.CallToolRequest, in RunInput) (*mcp.CallToolResult, RunOutput, error) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "python3", "-I", "-c", in.Code)
	cmd.Dir = s.opts.Dir
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, RunOutput{}, fmt.Errorf("python did not finish within %v", s.opts.Timeout)
	}
	out := RunOutput{Stdout: stdout.String(), Stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		out.ExitCode = exit.ExitCode()
	case err != nil:
		return nil, RunOutput{}, err
	}
	text := out.Stdout + out.Stderr
	res := &mcp.CallToolResult{IsError: out.ExitCode != 0, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	return res, out, nil
}

func (s *Server) upload(_ context.Context, _ *mcp.CallToolRequest, in UploadInput) (*mcp.CallToolResult, any, error) {
	if in.Name == "" || in.Name != filepath.Base(in.Name) || in.Name == "." || in.Name == ".." || strings.Contains(in.Name, `\`) {
		return nil, nil, fmt.Errorf("name %q is not a plain file name", in.Name)
	}
	data, err := base64.StdEncoding.DecodeString(in.ContentBase64)
	if err != nil {
		return nil, nil, fmt.Errorf("content_base64: %v", err)
	}
	path := filepath.Join(s.opts.Dir, in.Name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: path}}}, nil, nil
}
