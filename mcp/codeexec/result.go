package codeexec

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Result is what a run of Python produced. OK is false when the server
// reported a tool error (an uncaught exception, a non-zero exit); the error
// text is then in Stderr. Each of Stdout and Stderr is cut to
// Config.MaxOutput bytes, ending in a "[truncated N bytes]" marker.
type Result struct {
	Stdout string
	Stderr string
	OK     bool
}

// Output returns Stdout followed by Stderr, on a new line, for a reader who
// wants one text.
func (r Result) Output() string {
	if r.Stdout == "" || r.Stderr == "" {
		return r.Stdout + r.Stderr
	}
	if strings.HasSuffix(r.Stdout, "\n") {
		return r.Stdout + r.Stderr
	}
	return r.Stdout + "\n" + r.Stderr
}

// resultFrom converts a tool result. A server that returns structured
// content with string fields "stdout" and "stderr" keeps the two apart;
// otherwise all text content is stdout, or stderr for a tool error.
func resultFrom(res *mcp.CallToolResult, maxOutput int) Result {
	r := Result{OK: !res.IsError}
	if stdout, stderr, ok := streams(res.StructuredContent); ok {
		r.Stdout, r.Stderr = stdout, stderr
	} else if r.OK {
		r.Stdout = contentText(res.Content)
	} else {
		r.Stderr = contentText(res.Content)
	}
	r.Stdout = truncate(r.Stdout, maxOutput)
	r.Stderr = truncate(r.Stderr, maxOutput)
	return r
}

// streams reads stdout and stderr from structured content decoded as JSON;
// ok is false unless it is an object with at least one of them as a string
// and neither as anything else.
func streams(structured any) (stdout, stderr string, ok bool) {
	m, isObject := structured.(map[string]any)
	if !isObject {
		return "", "", false
	}
	out, outOK := m["stdout"].(string)
	errText, errOK := m["stderr"].(string)
	_, hasOut := m["stdout"]
	_, hasErr := m["stderr"]
	if (hasOut && !outOK) || (hasErr && !errOK) || (!hasOut && !hasErr) {
		return "", "", false
	}
	return out, errText, true
}

// contentText concatenates the text of contents, starting each on a new
// line, and marks content that has no text.
func contentText(contents []mcp.Content) string {
	var b strings.Builder
	for _, c := range contents {
		var text string
		switch c := c.(type) {
		case *mcp.TextContent:
			text = c.Text
		case *mcp.EmbeddedResource:
			if c.Resource != nil && c.Resource.Text != "" {
				text = c.Resource.Text
			} else {
				text = "[binary resource omitted]"
			}
		case *mcp.ImageContent:
			text = fmt.Sprintf("[%s image omitted]", c.MIMEType)
		case *mcp.AudioContent:
			text = fmt.Sprintf("[%s audio omitted]", c.MIMEType)
		case *mcp.ResourceLink:
			text = "[resource " + c.URI + "]"
		default:
			text = fmt.Sprintf("[%T content omitted]", c)
		}
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString(text)
	}
	return b.String()
}

// truncate cuts s to at most max bytes, on a character boundary, and says
// how many bytes it dropped.
func truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s\n[truncated %d bytes]", s[:cut], len(s)-cut)
}
