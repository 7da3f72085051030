// Package mcp serves Quarry to AI agents over the Model Context Protocol:
// tools to create an investigation from CSV data, look at its tables, run
// sandboxed read-only SQL, investigate why a metric moved, follow it, and
// read its explanations, report and chat answers; and tools for analyses,
// data rooms and research. It calls each job only through its
// vocabulary's Service interface and builds on the official Go SDK;
// cmd/quarry serves it over stdio or streamable HTTP.
package mcp

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/quarry-dev/quarry/research"

	"github.com/google/jsonschema-go/jsonschema"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/room"
)

// DefaultMaxRows is how many result rows run_investigation_sql returns by default.
const DefaultMaxRows = 200

// MaxRequestBytes bounds one request from a client, over HTTP and stdio
// alike. create_investigation carries CSV files as text, so it is well above the
// SDK's defaults; larger data goes by path over stdio, or through the web
// app's upload.
const MaxRequestBytes = 64 << 20

// Options configure the server; zero values take the defaults.
type Options struct {
	// AllowPaths lets create_investigation read CSV files from the server's disk
	// by path. Set it only when the client runs on the same machine as the
	// user it acts for (stdio); over HTTP files come as text.
	AllowPaths bool
	// MaxRows is how many rows run_investigation_sql returns; the total is reported
	// (default DefaultMaxRows).
	MaxRows int
	// Version is the server version reported to clients (default "dev").
	Version string
	// Analyses serves the analyze, get_analysis and list_analysis_recipes tools;
	// nil leaves them out.
	Analyses analysis.Service
	// Rooms serves the list_rooms, ask_room, get_room_page, delete_room
	// and remove_room_member tools; nil leaves them out. They act for the
	// user of the request's Bearer token when the HTTP handler checks one
	// (RequireToken), else for RoomUser: the local owner over stdio. With
	// neither they answer UNAUTHORIZED.
	Rooms    room.Service
	RoomUser *room.User
	// Research serves the research tool, for the same user as the room
	// tools; nil leaves it out.
	Research research.Service
	// Log receives failures the client sees only as INTERNAL.
	Log *slog.Logger
}

// instructions tell a connecting model how the tools fit together.
const instructions = `Quarry is a data analyst that explains why a metric moved between two periods, with evidence: every number comes from SQL recorded in an audit log.

Typical flow:
1. create_investigation with the CSV files and a description of each.
2. list_investigation_tables and describe_investigation_table to learn the tables and columns; run_investigation_sql for read-only SELECT queries to explore (results are capped; aggregate rather than list rows).
3. start_investigation with the metric as one SQL aggregate (e.g. SELECT SUM(amount) FROM orders), a baseline and a comparison period, and what the business is. It returns at once; the investigation runs in the background.
4. get_investigation until its status is completed (or failed); it usually takes seconds to a minute.
5. get_investigation_explanations for the ranked causes with their evidence, get_investigation_report for the full Markdown report, and ask for follow-up questions about the finished investigation.

To analyze data without a metric question ("monthly sales by region in 2021, with charts"), call analyze with the files (or PostgreSQL connection strings) and the request in plain words; it returns the summary and the paths of the tables, charts and report.

Errors come back as "CODE: message", e.g. "FORBIDDEN: only read-only SELECT statements are allowed".`

// NewServer returns an MCP server with Quarry's tools over svc.
func NewServer(svc investigation.Service, opt Options) *mcpsdk.Server {
	if opt.MaxRows <= 0 {
		opt.MaxRows = DefaultMaxRows
	}
	if opt.Version == "" {
		opt.Version = "dev"
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	instr := instructions
	if opt.Rooms != nil {
		instr += roomInstructions
	}
	s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "quarry", Title: "Quarry data analyst", Version: opt.Version},
		&mcpsdk.ServerOptions{Instructions: instr, Logger: slog.New(minLevel{opt.Log.Handler(), slog.LevelWarn}),
			Capabilities: &mcpsdk.ServerCapabilities{}})
	s.AddReceivingMiddleware(codeArgumentErrors)
	// The tools reach investigations and analyses through the access rule
	// (owner.go): with tokens, each user's own only.
	if opt.Analyses != nil {
		opt.Analyses = ownedAnalyses{opt.Analyses}
	}
	t := &tools{svc: owned{svc}, opt: opt}
	t.addSessionTools(s)
	t.addDataTools(s)
	t.addInvestigationTools(s)
	t.addAnalysisTools(s)
	t.addRoomTools(s)
	t.addResearchTools(s)
	return s
}

// NewHTTPHandler serves s over streamable HTTP, with the SDK's DNS
// rebinding protection for localhost and cross-origin protection, so a web
// page in the user's browser cannot drive the server.
func NewHTTPHandler(s *mcpsdk.Server, log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return s }, &mcpsdk.StreamableHTTPOptions{
		Logger:              slog.New(minLevel{log.Handler(), slog.LevelWarn}),
		MaxRequestBodyBytes: MaxRequestBytes,
		SessionTimeout:      time.Hour,
	})
	return http.NewCrossOriginProtection().Handler(h)
}

// NewIOTransport serves over r and w, a process's stdin and stdout: one
// JSON-RPC message per line. Nothing else may write to w.
func NewIOTransport(r io.Reader, w io.Writer) mcpsdk.Transport {
	return &mcpsdk.IOTransport{Reader: io.NopCloser(r), Writer: nopWriteCloser{w}, MaxLineLength: MaxRequestBytes}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// minLevel drops records below a level: the SDK reports every session's
// start and end at Info, which is noise in Quarry's log.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}
func (h minLevel) WithAttrs(as []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(as), h.min}
}
func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.min}
}

// tools holds what every tool handler needs.
type tools struct {
	svc investigation.Service
	opt Options
}

// handler is a tool's logic: the structured result, the same result as
// text for a model to read, or an error.
type handler[In, Out any] func(ctx context.Context, in In) (out Out, text string, err error)

// add registers a tool whose input and output schemas come from In and
// Out, unless the tool has its own.
func add[In, Out any](s *mcpsdk.Server, t *tools, tool *mcpsdk.Tool, h handler[In, Out]) {
	if tool.InputSchema == nil {
		tool.InputSchema = schemaFor[In]()
	}
	if tool.OutputSchema == nil {
		tool.OutputSchema = schemaFor[Out]()
	}
	mcpsdk.AddTool(s, tool, func(ctx context.Context, req *mcpsdk.CallToolRequest, in In) (*mcpsdk.CallToolResult, Out, error) {
		out, text, err := h(withRequest(ctx, req), in)
		if err != nil {
			var zero Out
			return nil, zero, t.toolError(tool.Name, err)
		}
		return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: text}}}, out, nil
	})
}

// schemaFor is the JSON schema of T as the SDK infers it, except that
// slices, maps and pointers are not nullable: Quarry's tools never send or
// take null for them (an absent optional field is omitted), and a single
// type per property is what every model provider's schema dialect accepts.
func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[cellValue](): {Description: "text, number, true/false or null", AnyOf: []*jsonschema.Schema{
			{Type: "string"}, {Type: "number"}, {Type: "boolean"}, {Type: "null"}}},
	}})
	if err != nil {
		panic(err) // a tool type that has no schema is a programming error
	}
	notNull(s)
	return s
}

func notNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for _, p := range s.Properties {
		notNull(p)
	}
	notNull(s.Items)
	notNull(s.AdditionalProperties)
}

// toolError turns err into the text of an MCP tool error, "CODE: message"
// with the hint on a second line. An error that is not a *quarry.Error is
// logged and shown only as INTERNAL: its detail is not for the client.
func (t *tools) toolError(tool string, err error) error {
	code, msg := quarry.ErrorCode(err), quarry.ErrorMessage(err)
	if code == quarry.ECodeInternal {
		t.opt.Log.Error("tool failed", "tool", tool, "err", err)
	}
	var b strings.Builder
	b.WriteString(code + ": " + msg)
	if h := hint(err); h != "" {
		b.WriteString("\nHint: " + h)
	}
	return &codedError{b.String()}
}

// codedError is a tool error in "CODE: message" form.
type codedError struct{ text string }

func (e *codedError) Error() string { return e.text }

// codeArgumentErrors gives the tool errors the SDK makes itself, for
// arguments that do not fit a tool's input schema, the code INVALID, so
// that every tool error reads "CODE: message".
func codeArgumentErrors(next mcpsdk.MethodHandler) mcpsdk.MethodHandler {
	return func(ctx context.Context, method string, req mcpsdk.Request) (mcpsdk.Result, error) {
		res, err := next(ctx, method, req)
		r, ok := res.(*mcpsdk.CallToolResult)
		if err != nil || !ok || !r.IsError {
			return res, err
		}
		var ce *codedError
		if errors.As(r.GetError(), &ce) {
			return res, err
		}
		for _, c := range r.Content {
			if tc, ok := c.(*mcpsdk.TextContent); ok {
				tc.Text = quarry.ECodeInvalid + ": " + tc.Text
			}
		}
		return res, err
	}
}

// hint is the hint of the first *quarry.Error in err's chain, if any.
func hint(err error) string {
	var qe *quarry.Error
	if errors.As(err, &qe) {
		return qe.Hint
	}
	return ""
}

// ptr returns a pointer to v, for the optional hints of tool annotations.
func ptr[T any](v T) *T { return &v }

// readOnly annotates a tool that changes nothing a user sees.
func readOnly(title string) *mcpsdk.ToolAnnotations {
	return &mcpsdk.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
}

// destroys annotates a tool that deletes what cannot be had back.
func destroys(title string) *mcpsdk.ToolAnnotations {
	return &mcpsdk.ToolAnnotations{Title: title, DestructiveHint: ptr(true), OpenWorldHint: ptr(false)}
}

// changes annotates a tool that adds to a session without destroying
// anything.
func changes(title string) *mcpsdk.ToolAnnotations {
	return &mcpsdk.ToolAnnotations{Title: title, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}
}
