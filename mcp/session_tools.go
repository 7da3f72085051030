package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// sessionInfo is a session as the tools show it.
type sessionInfo struct {
	SessionID   string     `json:"session_id"`
	Status      string     `json:"status" jsonschema:"created, has_files, running, completed, failed or expired"`
	CreatedAt   time.Time  `json:"created_at"`
	ExpiresAt   time.Time  `json:"expires_at" jsonschema:"when the session and its data are deleted"`
	FileCount   int        `json:"file_count"`
	ReportReady bool       `json:"report_ready"`
	Outcome     string     `json:"outcome,omitempty" jsonschema:"completed or no_findings, once the investigation has finished"`
	Error       *errorInfo `json:"error,omitempty" jsonschema:"why the investigation failed"`
}

// errorInfo is a failure's code and message.
type errorInfo struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

func newSessionInfo(s *investigation.Investigation) sessionInfo {
	out := sessionInfo{SessionID: s.SessionID, Status: string(s.Status), CreatedAt: s.CreatedAt, ExpiresAt: s.ExpiresAt,
		FileCount: s.FileCount, ReportReady: s.ReportReady, Outcome: s.Outcome}
	if s.Error != nil {
		out.Error = &errorInfo{Code: s.Error.Code, Message: s.Error.Message, Hint: s.Error.Hint}
	}
	return out
}

// line is the session in one line of text.
func (s sessionInfo) line() string {
	l := fmt.Sprintf("%s  %s  %d file(s)  created %s", s.SessionID, s.Status, s.FileCount, s.CreatedAt.Format(time.RFC3339))
	if s.Outcome != "" {
		l += "  outcome " + s.Outcome
	}
	if s.Error != nil {
		l += fmt.Sprintf("  error %s: %s", s.Error.Code, s.Error.Message)
	}
	return l
}

type listSessionsIn struct{}

type listSessionsOut struct {
	Sessions []sessionInfo `json:"sessions" jsonschema:"newest first"`
}

// csvFile is a file given as text.
type csvFile struct {
	Name        string `json:"name" jsonschema:"file name ending in .csv, e.g. orders.csv; the SQL table is named after it (orders)"`
	CSV         string `json:"csv" jsonschema:"the whole file: a header row, then comma-separated rows, UTF-8"`
	Description string `json:"description,omitempty" jsonschema:"what one row is and what the columns mean; it guides the investigation"`
}

// localFile is a file given as text or as a path on the server's disk.
type localFile struct {
	Name        string `json:"name,omitempty" jsonschema:"file name ending in .csv, e.g. orders.csv; the SQL table is named after it. Defaults to the base name of path"`
	CSV         string `json:"csv,omitempty" jsonschema:"the whole file as text: a header row, then comma-separated rows, UTF-8. Give csv or path, not both"`
	Path        string `json:"path,omitempty" jsonschema:"absolute path of a .csv file on this machine. Give csv or path, not both"`
	Description string `json:"description,omitempty" jsonschema:"what one row is and what the columns mean; it guides the investigation"`
}

type createSessionIn[F csvFile | localFile] struct {
	Files []F `json:"files" jsonschema:"the CSV files to analyse, 1 to 10, at most 50 MB each"`
}

type createSessionOut struct {
	Session sessionInfo    `json:"session"`
	Tables  []tableSummary `json:"tables"`
}

type sessionIn struct {
	SessionID string `json:"session_id" jsonschema:"the session's ID, as create_session or list_sessions gave it"`
}

type getSessionOut struct {
	Session       sessionInfo        `json:"session"`
	Tables        []tableSummary     `json:"tables"`
	Investigation *investigationInfo `json:"investigation,omitempty" jsonschema:"the investigation request, once one was made"`
	Progress      []string           `json:"progress,omitempty" jsonschema:"the latest steps of a running or just finished investigation"`
	Next          string             `json:"next" jsonschema:"what to do next"`
}

// investigationInfo is the investigation request of a session.
type investigationInfo struct {
	MetricSQL        string `json:"metric_sql"`
	BaselinePeriod   period `json:"baseline_period"`
	ComparisonPeriod period `json:"comparison_period"`
	BusinessContext  string `json:"business_context,omitempty"`
	Prompt           string `json:"prompt,omitempty"`
	TimeColumn       string `json:"time_column,omitempty"`
}

// progressShown is how many of the latest progress events get_session
// shows.
const progressShown = 5

func (t *tools) addSessionTools(s *mcpsdk.Server) {
	add(s, t, &mcpsdk.Tool{
		Name:        "list_sessions",
		Description: "List Quarry's analysis sessions, newest first, with their status (created, has_files, running, completed, failed, expired) and file count. Use it to find a session made earlier; a new analysis starts with create_session.",
		Annotations: readOnly("List sessions"),
	}, t.listSessions)

	createDesc := "Create an analysis session from CSV files given as text, each with a short description of what a row is. " +
		"Each file becomes one SQL table named after the file (\"Orders 2024.csv\" -> orders_2024) and is profiled: column types, roles and sample values. " +
		"A bad file (no header, not CSV, empty) fails the whole call and nothing is kept. " +
		"Returns the session ID and its tables; then use describe_table, run_sql and start_investigation."
	if t.opt.AllowPaths {
		createDesc = strings.Replace(createDesc, "given as text", "given as text (csv) or as absolute paths on this machine (path)", 1)
		add(s, t, &mcpsdk.Tool{Name: "create_session", Description: createDesc, Annotations: changes("Create session")}, createSession[localFile](t))
	} else {
		add(s, t, &mcpsdk.Tool{Name: "create_session", Description: createDesc, Annotations: changes("Create session")}, createSession[csvFile](t))
	}

	add(s, t, &mcpsdk.Tool{
		Name: "get_session",
		Description: "Get a session's status, tables, investigation request and latest progress. " +
			"After start_investigation, call it every few seconds until status is completed (then get_explanations, get_report, ask) or failed (the error says why).",
		Annotations: readOnly("Get session"),
	}, t.getSession)
}

func (t *tools) listSessions(ctx context.Context, _ listSessionsIn) (listSessionsOut, string, error) {
	all, err := t.svc.Sessions(ctx)
	if err != nil {
		return listSessionsOut{}, "", err
	}
	out := listSessionsOut{Sessions: make([]sessionInfo, 0, len(all))}
	var b strings.Builder
	fmt.Fprintf(&b, "%d session(s)", len(all))
	for _, s := range all {
		info := newSessionInfo(s)
		out.Sessions = append(out.Sessions, info)
		b.WriteString("\n" + info.line())
	}
	return out, b.String(), nil
}

// fileSource is one file of a create_session call, opened.
type fileSource struct {
	name, description string
	r                 io.ReadCloser
}

// open checks a file of create_session and opens its content.
func open(f localFile) (fileSource, error) {
	switch {
	case f.CSV != "" && f.Path != "":
		return fileSource{}, quarry.Errorf(quarry.ECodeInvalid, "file %q has both csv and path; give one", f.Name)
	case f.Path != "":
		if !filepath.IsAbs(f.Path) {
			return fileSource{}, quarry.Errorf(quarry.ECodeInvalid, "path %q is not absolute", f.Path)
		}
		name := f.Name
		if name == "" {
			name = filepath.Base(f.Path)
		}
		r, err := os.Open(f.Path)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return fileSource{}, quarry.Errorf(quarry.ECodeNotFound, "cannot open %s: %v", f.Path, err)
		}
		if st, err := r.Stat(); err != nil || !st.Mode().IsRegular() {
			r.Close()
			return fileSource{}, quarry.Errorf(quarry.ECodeInvalid, "%s is not a regular file", f.Path)
		}
		return fileSource{name: name, description: f.Description, r: r}, nil
	case f.CSV == "":
		return fileSource{}, quarry.Errorf(quarry.ECodeEmptyFile, "file %q has no content", f.Name)
	}
	return fileSource{name: f.Name, description: f.Description, r: io.NopCloser(strings.NewReader(f.CSV))}, nil
}

// createSession makes the create_session handler for files of type F.
func createSession[F csvFile | localFile](t *tools) handler[createSessionIn[F], createSessionOut] {
	return func(ctx context.Context, in createSessionIn[F]) (createSessionOut, string, error) {
		if len(in.Files) == 0 {
			return createSessionOut{}, "", quarry.Errorf(quarry.ECodeNoFilesUploaded, "give at least one CSV file")
		}
		if len(in.Files) > quarry.MaxFilesPerSession {
			return createSessionOut{}, "", quarry.Errorf(quarry.ECodeMaxFilesExceeded, "%d files given; a session holds at most %d", len(in.Files), quarry.MaxFilesPerSession)
		}
		files := make([]localFile, len(in.Files))
		for i, f := range in.Files {
			switch f := any(f).(type) {
			case csvFile:
				files[i] = localFile{Name: f.Name, CSV: f.CSV, Description: f.Description}
			case localFile:
				files[i] = f
			}
		}
		sess, err := t.svc.Create(ctx)
		if err != nil {
			return createSessionOut{}, "", err
		}
		if err := t.addFiles(ctx, sess.SessionID, files); err != nil {
			if derr := t.svc.Delete(context.WithoutCancel(ctx), sess.SessionID); derr != nil {
				t.opt.Log.Error("delete half-made session", "session", sess.SessionID, "err", derr)
			}
			return createSessionOut{}, "", err
		}
		if sess, err = t.svc.Session(ctx, sess.SessionID); err != nil {
			return createSessionOut{}, "", err
		}
		tables, err := t.svc.Tables(ctx, sess.SessionID)
		if err != nil {
			return createSessionOut{}, "", err
		}
		out := createSessionOut{Session: newSessionInfo(sess), Tables: summarizeTables(tables)}
		text := fmt.Sprintf("Created session %s with %d table(s):\n%s\nNext: describe_table for the columns, run_sql to explore, start_investigation to explain a change.",
			sess.SessionID, len(tables), tablesText(out.Tables))
		return out, text, nil
	}
}

// addFiles adds the files to a session in order, naming the file that
// fails in the error.
func (t *tools) addFiles(ctx context.Context, id string, files []localFile) error {
	for i, f := range files {
		src, err := open(f)
		if err != nil {
			return err
		}
		_, err = t.svc.AddFile(ctx, id, src.name, src.description, src.r)
		src.r.Close()
		if err != nil {
			return withPrefix(err, fmt.Sprintf("file %d (%s)", i+1, src.name))
		}
	}
	return nil
}

// withPrefix puts where an error happened in front of its message.
func withPrefix(err error, where string) error {
	code, msg := quarry.ErrorCode(err), quarry.ErrorMessage(err)
	if code == quarry.ECodeInternal {
		return err
	}
	out := quarry.Errorf(code, "%s: %s", where, msg)
	if h := hint(err); h != "" {
		out = out.WithHint(h)
	}
	return out
}

func (t *tools) getSession(ctx context.Context, in sessionIn) (getSessionOut, string, error) {
	sess, err := t.svc.Session(ctx, in.SessionID)
	if err != nil {
		return getSessionOut{}, "", err
	}
	out := getSessionOut{Session: newSessionInfo(sess), Tables: []tableSummary{}}
	if sess.Status != investigation.StatusExpired {
		tables, err := t.svc.Tables(ctx, in.SessionID)
		if err != nil {
			return getSessionOut{}, "", err
		}
		out.Tables = summarizeTables(tables)
	}
	c, err := t.svc.Context(ctx, in.SessionID)
	if err != nil {
		return getSessionOut{}, "", err
	}
	if c != nil {
		out.Investigation = &investigationInfo{MetricSQL: c.MetricSQL, BaselinePeriod: newPeriod(c.BaselinePeriod),
			ComparisonPeriod: newPeriod(c.ComparisonPeriod), BusinessContext: c.BusinessContext, Prompt: c.InvestigationPrompt, TimeColumn: c.TimeColumn}
	}
	past, _, cancel, err := t.svc.Subscribe(ctx, in.SessionID)
	if err != nil {
		return getSessionOut{}, "", err
	}
	cancel()
	for _, e := range past[max(0, len(past)-progressShown):] {
		out.Progress = append(out.Progress, e.Step+": "+e.Message)
	}
	out.Next = nextStep(sess)

	var b strings.Builder
	b.WriteString("Session " + out.Session.line())
	if out.Session.Error != nil && out.Session.Error.Hint != "" {
		b.WriteString("\nHint: " + out.Session.Error.Hint)
	}
	if len(out.Tables) > 0 {
		b.WriteString("\nTables:\n" + tablesText(out.Tables))
	}
	if inv := out.Investigation; inv != nil {
		fmt.Fprintf(&b, "\nInvestigation: %s, baseline %s..%s vs comparison %s..%s", inv.MetricSQL,
			inv.BaselinePeriod.Start, inv.BaselinePeriod.End, inv.ComparisonPeriod.Start, inv.ComparisonPeriod.End)
	}
	if len(out.Progress) > 0 {
		b.WriteString("\nLatest progress:\n- " + strings.Join(out.Progress, "\n- "))
	}
	b.WriteString("\nNext: " + out.Next)
	return out, b.String(), nil
}

// nextStep says what a client can do with a session in its state.
func nextStep(s *investigation.Investigation) string {
	switch s.Status {
	case investigation.StatusCreated:
		return "this session has no files; create a new session with create_session"
	case investigation.StatusHasFiles:
		return "explore with describe_table and run_sql, then start_investigation"
	case investigation.StatusRunning:
		return "the investigation is running; call get_session again in a few seconds"
	case investigation.StatusCompleted:
		return "read get_explanations and get_report; ask follow-up questions with ask"
	case investigation.StatusFailed:
		return "the investigation failed (see error); fix the request and start a new session with create_session"
	}
	return "the session has expired and its data was deleted; create a new session with create_session"
}
