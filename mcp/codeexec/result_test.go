package codeexec

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func text(s string) mcp.Content { return &mcp.TextContent{Text: s} }

func TestResultFrom(t *testing.T) {
	tests := []struct {
		name string
		res  *mcp.CallToolResult
		want Result
	}{
		{"text is stdout",
			&mcp.CallToolResult{Content: []mcp.Content{text("42\n")}},
			Result{Stdout: "42\n", OK: true}},
		{"tool error text is stderr",
			&mcp.CallToolResult{IsError: true, Content: []mcp.Content{text("Traceback ...\nKeyError: 'x'\n")}},
			Result{Stderr: "Traceback ...\nKeyError: 'x'\n"}},
		{"texts start on new lines",
			&mcp.CallToolResult{Content: []mcp.Content{text("a"), text("b\n"), text("c")}},
			Result{Stdout: "a\nb\nc", OK: true}},
		{"structured streams win over text",
			&mcp.CallToolResult{Content: []mcp.Content{text("1\nwarn\n")}, StructuredContent: map[string]any{"stdout": "1\n", "stderr": "warn\n", "exit_code": 0.0}},
			Result{Stdout: "1\n", Stderr: "warn\n", OK: true}},
		{"structured streams on error",
			&mcp.CallToolResult{IsError: true, Content: []mcp.Content{text("x")}, StructuredContent: map[string]any{"stdout": "partial\n", "stderr": "boom\n"}},
			Result{Stdout: "partial\n", Stderr: "boom\n"}},
		{"structured stdout only",
			&mcp.CallToolResult{StructuredContent: map[string]any{"stdout": "7\n"}},
			Result{Stdout: "7\n", OK: true}},
		{"structured without streams falls back to text",
			&mcp.CallToolResult{Content: []mcp.Content{text(`{"rows":3}`)}, StructuredContent: map[string]any{"rows": 3.0}},
			Result{Stdout: `{"rows":3}`, OK: true}},
		{"non-string stdout falls back to text",
			&mcp.CallToolResult{Content: []mcp.Content{text("t")}, StructuredContent: map[string]any{"stdout": 5.0}},
			Result{Stdout: "t", OK: true}},
		{"image is marked",
			&mcp.CallToolResult{Content: []mcp.Content{text("plot:"), &mcp.ImageContent{MIMEType: "image/png", Data: []byte("x")}}},
			Result{Stdout: "plot:\n[image/png image omitted]", OK: true}},
		{"embedded text resource is read",
			&mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///o.txt", Text: "out"}}}},
			Result{Stdout: "out", OK: true}},
		{"truncates each stream",
			&mcp.CallToolResult{StructuredContent: map[string]any{"stdout": strings.Repeat("a", 42), "stderr": "short"}},
			Result{Stdout: strings.Repeat("a", 40) + "\n[truncated 2 bytes]", Stderr: "short", OK: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resultFrom(tt.res, 40); got != tt.want {
				t.Errorf("resultFrom = %#v; want %#v", got, tt.want)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		s    string
		max  int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc\n[truncated 1 bytes]"},
		// "é" is two bytes; a cut inside it moves back to its start.
		{"aé", 2, "a\n[truncated 2 bytes]"},
		{"éé", 3, "é\n[truncated 2 bytes]"},
		{"", 0, ""},
	}
	for _, tt := range tests {
		if got := truncate(tt.s, tt.max); got != tt.want {
			t.Errorf("truncate(%q, %d) = %q; want %q", tt.s, tt.max, got, tt.want)
		}
	}
}

func TestResultOutput(t *testing.T) {
	tests := []struct {
		r    Result
		want string
	}{
		{Result{Stdout: "1\n"}, "1\n"},
		{Result{Stderr: "boom"}, "boom"},
		{Result{Stdout: "1\n", Stderr: "boom"}, "1\nboom"},
		{Result{Stdout: "1", Stderr: "boom"}, "1\nboom"},
	}
	for _, tt := range tests {
		if got := tt.r.Output(); got != tt.want {
			t.Errorf("%#v.Output() = %q; want %q", tt.r, got, tt.want)
		}
	}
}

func TestTailBuffer(t *testing.T) {
	b := &tailBuffer{max: 5}
	b.Write([]byte("abc"))
	b.Write([]byte("defg"))
	if got := b.String(); got != "cdefg" {
		t.Errorf("tail = %q; want %q", got, "cdefg")
	}
}
