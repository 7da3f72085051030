package web_test

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/fsstore"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/fakeclock"
	"github.com/quarry-dev/quarry/internal/sampledata"
	"github.com/quarry-dev/quarry/investigation"
)

// env is one server over a fresh data dir.
type env struct {
	t     testing.TB
	dir   string
	clock *fakeclock.Clock
	opt   app.Options
	app   *app.App
	srv   *httptest.Server
}

// newEnv starts a server with a settable clock and a 4 MB upload limit.
func newEnv(t testing.TB) *env {
	t.Helper()
	return newEnvWith(t, app.Options{MaxUploadBytes: 4 << 20})
}

func newEnvWith(t testing.TB, opt app.Options) *env {
	t.Helper()
	e := &env{t: t, dir: t.TempDir(), clock: fakeclock.New(time.Now().UTC()), opt: opt}
	e.opt.DataDir, e.opt.Now = e.dir, e.clock.Now
	e.start()
	return e
}

func (e *env) start() {
	a, err := app.Open(context.Background(), e.opt)
	if err != nil {
		e.t.Fatal(err)
	}
	e.app, e.srv = a, httptest.NewServer(a.Handler)
	e.t.Cleanup(e.stop)
}

func (e *env) stop() {
	if e.srv != nil {
		e.srv.Close()
		e.app.Close()
		e.srv = nil
	}
}

// response is a decoded reply.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, r.body)
	}
	return m
}

// code is the error code of an error envelope.
func (r response) code(t testing.TB) string {
	t.Helper()
	m := r.json(t)
	e, ok := m["error"].(map[string]any)
	if !ok {
		t.Fatalf("no error envelope in %s", r.body)
	}
	for _, k := range []string{"code", "message", "details"} {
		if _, ok := e[k]; !ok {
			t.Fatalf("error envelope lacks %q: %s", k, r.body)
		}
	}
	return e["code"].(string)
}

func (e *env) do(method, path, contentType string, body io.Reader) response {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{status: res.StatusCode, header: res.Header, body: b}
}

func (e *env) jsonReq(method, path string, v any) response {
	e.t.Helper()
	var body io.Reader
	if v != nil {
		b, _ := json.Marshal(v)
		body = bytes.NewReader(b)
	}
	return e.do(method, path, "application/json", body)
}

// upload sends one file as multipart field "file" with a description.
func (e *env) upload(id, name string, content io.Reader, description string) response {
	e.t.Helper()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		fw, err := mw.CreateFormFile("file", name)
		if err == nil {
			_, err = io.Copy(fw, content)
		}
		if err == nil && description != "" {
			err = mw.WriteField("description", description)
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	return e.do(http.MethodPost, "/api/sessions/"+id+"/files", mw.FormDataContentType(), pr)
}

func (e *env) newSession() string {
	e.t.Helper()
	r := e.jsonReq(http.MethodPost, "/api/sessions", nil)
	if r.status != http.StatusCreated {
		e.t.Fatalf("create session: %d %s", r.status, r.body)
	}
	return r.json(e.t)["session_id"].(string)
}

func sampleFile(t testing.TB, scenario, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", scenario, file))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// revenueDrop is the sample scenario's investigation request.
func revenueDrop() map[string]any {
	s, _ := sampledata.Get("revenue_drop")
	return map[string]any{
		"metric_sql":           s.MetricSQL,
		"baseline_period":      map[string]string{"start": s.Baseline.Start.String(), "end": s.Baseline.End.String()},
		"comparison_period":    map[string]string{"start": s.Comparison.Start.String(), "end": s.Comparison.End.String()},
		"business_context":     s.Context,
		"investigation_prompt": s.Prompt,
	}
}

// withFiles returns a session holding the revenue_drop files.
func (e *env) withFiles() string {
	e.t.Helper()
	id := e.newSession()
	for _, f := range []string{"orders.csv", "customers.csv"} {
		if r := e.upload(id, f, bytes.NewReader(sampleFile(e.t, "revenue_drop", f)), "the "+f); r.status != http.StatusCreated {
			e.t.Fatalf("upload %s: %d %s", f, r.status, r.body)
		}
	}
	return id
}

// investigated returns a session whose investigation of the revenue_drop
// files has run to its end.
func (e *env) investigated() string {
	e.t.Helper()
	id := e.withFiles()
	if r := e.jsonReq(http.MethodPost, "/api/sessions/"+id+"/investigate", revenueDrop()); r.status != http.StatusAccepted {
		e.t.Fatalf("investigate: %d %s", r.status, r.body)
	}
	e.waitDone(id)
	return id
}

// waitDone follows the event stream until the run ends and returns the
// progress events and the end event.
func (e *env) waitDone(id string) (progress []map[string]any, end map[string]any) {
	e.t.Helper()
	res, err := http.Get(e.srv.URL + "/api/sessions/" + id + "/events")
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		e.t.Fatalf("events content type %q", ct)
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var event string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var m map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &m); err != nil {
				e.t.Fatalf("event data: %v", err)
			}
			if event == "end" {
				return progress, m
			}
			progress = append(progress, m)
		}
	}
	e.t.Fatalf("event stream ended without an end event (%d progress events)", len(progress))
	return nil, nil
}

func TestSessionLifecycle(t *testing.T) {
	e := newEnv(t)
	r := e.jsonReq(http.MethodPost, "/api/sessions", nil)
	if r.status != http.StatusCreated {
		t.Fatalf("POST /api/sessions: %d", r.status)
	}
	s := r.json(t)
	created, _ := time.Parse(time.RFC3339Nano, s["created_at"].(string))
	expires, _ := time.Parse(time.RFC3339Nano, s["expires_at"].(string))
	if s["status"] != "created" || expires.Sub(created) != 24*time.Hour || s["report_ready"] != false {
		t.Fatalf("new session: %s", r.body)
	}
	id := s["session_id"].(string)
	list := e.jsonReq(http.MethodGet, "/api/sessions", nil).json(t)["sessions"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["session_id"] != id {
		t.Fatalf("GET /api/sessions: %v", list)
	}

	r = e.upload(id, "orders.csv", bytes.NewReader(sampleFile(t, "revenue_drop", "orders.csv")), "one row per order")
	if r.status != http.StatusCreated {
		t.Fatalf("upload: %d %s", r.status, r.body)
	}
	f := r.json(t)
	if f["original_name"] != "orders.csv" || f["row_count"].(float64) != 34179 || f["description"] != "one row per order" || f["table_name"] != "orders" {
		t.Fatalf("upload response: %s", r.body)
	}
	if cols := f["schema"].(map[string]any)["columns"].([]any); len(cols) != 8 {
		t.Fatalf("schema has %d columns, want 8", len(cols))
	}
	fid := f["file_id"].(string)
	r = e.jsonReq(http.MethodGet, "/api/sessions/"+id, nil)
	if got := r.json(t); got["status"] != "has_files" || got["file_count"].(float64) != 1 || len(got["files"].([]any)) != 1 {
		t.Fatalf("after upload: %s", r.body)
	}
	r = e.jsonReq(http.MethodPut, "/api/sessions/"+id+"/files/"+fid, map[string]string{"description": "orders, March 2024"})
	if r.status != http.StatusOK || r.json(t)["success"] != true {
		t.Fatalf("describe: %d %s", r.status, r.body)
	}
	r = e.jsonReq(http.MethodDelete, "/api/sessions/"+id+"/files/"+fid, nil)
	if r.status != http.StatusOK {
		t.Fatalf("remove: %d %s", r.status, r.body)
	}
	if got := e.jsonReq(http.MethodGet, "/api/sessions/"+id, nil).json(t); got["status"] != "created" || got["file_count"].(float64) != 0 {
		t.Fatalf("removing the last file should return the session to created: %v", got)
	}
	if r = e.jsonReq(http.MethodDelete, "/api/sessions/"+id, nil); r.status != http.StatusOK {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	if r = e.jsonReq(http.MethodGet, "/api/sessions/"+id, nil); r.status != http.StatusNotFound || r.code(t) != quarry.ECodeSessionNotFound {
		t.Fatalf("deleted session: %d %s", r.status, r.body)
	}
}

// endless is a reader of infinite CSV rows that counts what was read.
type endless struct {
	mu sync.Mutex
	n  int64
}

func (r *endless) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range p {
		p[i] = "a,1\n"[(r.n+int64(i))%4]
	}
	r.n += int64(len(p))
	return len(p), nil
}

func (r *endless) read() int64 { r.mu.Lock(); defer r.mu.Unlock(); return r.n }

func TestUploadErrors(t *testing.T) {
	e := newEnv(t)
	id := e.newSession()
	tests := []struct {
		name, file string
		content    string
		status     int
		code       string
	}{
		{"not csv", "notes.txt", "a,b\n1,2\n", http.StatusUnsupportedMediaType, quarry.ECodeInvalidFileType},
		{"empty", "empty.csv", "", http.StatusUnprocessableEntity, quarry.ECodeEmptyFile},
		{"no headers", "numbers.csv", "1,2,3\n4,5,6\n", http.StatusUnprocessableEntity, quarry.ECodeNoHeaders},
		{"ragged", "ragged.csv", "a,b\n1,2\n3,4,5,6\n", http.StatusUnprocessableEntity, quarry.ECodeMalformedCSV},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.upload(id, tt.file, strings.NewReader(tt.content), "")
			if r.status != tt.status || r.code(t) != tt.code {
				t.Fatalf("got %d %s, want %d %s", r.status, r.body, tt.status, tt.code)
			}
		})
	}
	t.Run("too large, streamed", func(t *testing.T) {
		src := &endless{}
		r := e.upload(id, "huge.csv", io.LimitReader(src, 2<<30), "")
		if r.status != http.StatusRequestEntityTooLarge || r.code(t) != quarry.ECodeFileTooLarge {
			t.Fatalf("got %d %s", r.status, r.body)
		}
		if n := src.read(); n > 64<<20 {
			t.Fatalf("the client got to send %d MB of a 2 GB upload past a 4 MB limit", n>>20)
		}
	})
	t.Run("no file field", func(t *testing.T) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		mw.WriteField("description", "just words")
		mw.Close()
		r := e.do(http.MethodPost, "/api/sessions/"+id+"/files", mw.FormDataContentType(), &b)
		if r.status != http.StatusUnprocessableEntity || r.code(t) != quarry.ECodeInvalid {
			t.Fatalf("got %d %s", r.status, r.body)
		}
	})
	t.Run("two files", func(t *testing.T) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		for _, name := range []string{"a.csv", "b.csv"} {
			fw, _ := mw.CreateFormFile("file", name)
			fw.Write([]byte("day,amount\n2024-01-01,5\n"))
		}
		mw.Close()
		r := e.do(http.MethodPost, "/api/sessions/"+id+"/files", mw.FormDataContentType(), &b)
		if r.status != http.StatusUnprocessableEntity || r.code(t) != quarry.ECodeInvalid {
			t.Fatalf("got %d %s", r.status, r.body)
		}
	})
	t.Run("errors name the user's file", func(t *testing.T) {
		r := e.upload(id, "Q4 export.csv", strings.NewReader("a,b\n1,2\n3\n"), "")
		msg, _ := r.json(t)["error"].(map[string]any)["message"].(string)
		if r.code(t) != quarry.ECodeMalformedCSV || !strings.Contains(msg, "Q4 export.csv") || regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}`).MatchString(msg) {
			t.Fatalf("got %d %s", r.status, r.body)
		}
	})
	t.Run("not multipart", func(t *testing.T) {
		r := e.do(http.MethodPost, "/api/sessions/"+id+"/files", "text/csv", strings.NewReader("a,b\n1,2\n"))
		if r.status != http.StatusBadRequest || r.code(t) != "BAD_REQUEST" {
			t.Fatalf("got %d %s", r.status, r.body)
		}
	})
	// Nothing of the rejected uploads is left behind.
	if got := e.jsonReq(http.MethodGet, "/api/sessions/"+id, nil).json(t); got["status"] != "created" || got["file_count"].(float64) != 0 {
		t.Fatalf("rejected uploads changed the session: %v", got)
	}
	files, _ := filepath.Glob(filepath.Join(e.dir, "sessions", id, "files", "*"))
	if len(files) != 0 {
		t.Fatalf("rejected uploads left %v", files)
	}

	t.Run("eleventh file", func(t *testing.T) {
		for i := range quarry.MaxFilesPerSession {
			if r := e.upload(id, fmt.Sprintf("f%d.csv", i), strings.NewReader("a,b\nx,1\n"), ""); r.status != http.StatusCreated {
				t.Fatalf("file %d: %d %s", i, r.status, r.body)
			}
		}
		r := e.upload(id, "f11.csv", strings.NewReader("a,b\nx,1\n"), "")
		if r.status != http.StatusUnprocessableEntity || r.code(t) != quarry.ECodeMaxFilesExceeded {
			t.Fatalf("got %d %s", r.status, r.body)
		}
	})
	t.Run("file name never becomes a path", func(t *testing.T) {
		id := e.newSession()
		r := e.upload(id, "../../escape.csv", strings.NewReader("a,b\nx,1\n"), "")
		if r.status != http.StatusCreated {
			t.Fatalf("got %d %s", r.status, r.body)
		}
		fid := r.json(t)["file_id"].(string)
		if _, err := os.Stat(filepath.Join(e.dir, "sessions", id, "files", fid+".csv")); err != nil {
			t.Fatalf("the file is not stored under its id: %v", err)
		}
		if m, _ := filepath.Glob(filepath.Join(e.dir, "*.csv")); len(m) > 0 {
			t.Fatalf("upload escaped the session: %v", m)
		}
	})
}

func TestRequestErrors(t *testing.T) {
	e := newEnv(t)
	id := e.withFiles()
	files := e.jsonReq(http.MethodGet, "/api/sessions/"+id+"/files", nil).json(t)["files"].([]any)
	fid := files[0].(map[string]any)["file_id"].(string)
	good := revenueDrop()
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for k, v := range good {
			m[k] = v
		}
		m[k] = v
		return m
	}
	tests := []struct {
		name, method, path string
		body               any
		raw                string
		status             int
		code               string
	}{
		{"unknown session", "GET", "/api/sessions/00000000-0000-4000-8000-000000000000", nil, "", 404, quarry.ECodeSessionNotFound},
		{"malformed session id", "GET", "/api/sessions/..%2f..%2fetc", nil, "", 404, quarry.ECodeSessionNotFound},
		{"unknown endpoint", "GET", "/api/nothing", nil, "", 404, quarry.ECodeNotFound},
		{"wrong method", "PATCH", "/api/sessions/" + id, nil, "", 405, "METHOD_NOT_ALLOWED"},
		{"unknown file", "PUT", "/api/sessions/" + id + "/files/00000000-0000-4000-8000-000000000000", map[string]string{"description": "x"}, "", 404, quarry.ECodeNotFound},
		{"description too long", "PUT", "/api/sessions/" + id + "/files/" + fid, map[string]string{"description": strings.Repeat("x", 2001)}, "", 422, quarry.ECodeInvalid},
		{"description missing", "PUT", "/api/sessions/" + id + "/files/" + fid, map[string]string{}, "", 422, quarry.ECodeInvalid},
		{"not JSON", "PUT", "/api/sessions/" + id + "/files/" + fid, nil, "{description:", 400, "BAD_REQUEST"},
		{"unknown field", "POST", "/api/sessions/" + id + "/investigate", nil, `{"metric":"x"}`, 400, "BAD_REQUEST"},
		{"metric missing", "POST", "/api/sessions/" + id + "/investigate", with("metric_sql", " "), "", 422, quarry.ECodeMetricSQLRequired},
		{"metric not SQL", "POST", "/api/sessions/" + id + "/investigate", with("metric_sql", "revenue please"), "", 422, quarry.ECodeInvalidMetricSQL},
		{"metric without aggregate", "POST", "/api/sessions/" + id + "/investigate", with("metric_sql", "SELECT amount FROM orders"), "", 422, quarry.ECodeUnsupportedMetric},
		{"metric on unknown table", "POST", "/api/sessions/" + id + "/investigate", with("metric_sql", "SELECT SUM(x) FROM nowhere"), "", 422, quarry.ECodeInvalidMetricSQL},
		{"period missing", "POST", "/api/sessions/" + id + "/investigate", with("baseline_period", nil), "", 422, quarry.ECodeInvalidDateRange},
		{"not a date", "POST", "/api/sessions/" + id + "/investigate", with("baseline_period", map[string]string{"start": "March 1", "end": "2024-03-17"}), "", 422, quarry.ECodeInvalidDateRange},
		{"end before start", "POST", "/api/sessions/" + id + "/investigate", with("comparison_period", map[string]string{"start": "2024-03-31", "end": "2024-03-18"}), "", 422, quarry.ECodeInvalidDateRange},
		{"bad time column", "POST", "/api/sessions/" + id + "/investigate", with("time_column", "orders.platform"), "", 422, quarry.ECodeInvalidTimeColumn},
		{"unknown column to ignore", "POST", "/api/sessions/" + id + "/investigate", with("ignore_columns", []string{"platform", "industry"}), "", 422, quarry.ECodeInvalid},
		{"chat before run", "POST", "/api/sessions/" + id + "/chat", map[string]string{"message": "why?"}, "", 409, quarry.ECodeInvestigationNotComplete},
		{"report before run", "GET", "/api/sessions/" + id + "/report", nil, "", 409, quarry.ECodeInvestigationNotComplete},
		{"explanations before run", "GET", "/api/sessions/" + id + "/explanations", nil, "", 409, quarry.ECodeInvestigationNotComplete},
		{"download before run", "GET", "/api/sessions/" + id + "/report/download", nil, "", 409, quarry.ECodeInvestigationNotComplete},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r response
			if tt.raw != "" {
				r = e.do(tt.method, tt.path, "application/json", strings.NewReader(tt.raw))
			} else {
				r = e.jsonReq(tt.method, tt.path, tt.body)
			}
			if r.status != tt.status || r.code(t) != tt.code {
				t.Fatalf("got %d %s, want %d %s", r.status, r.body, tt.status, tt.code)
			}
		})
	}
	// None of the rejected requests moved the session.
	if got := e.jsonReq(http.MethodGet, "/api/sessions/"+id, nil).json(t); got["status"] != "has_files" {
		t.Fatalf("rejected requests changed the session: %v", got)
	}
	empty := e.newSession()
	if r := e.jsonReq(http.MethodPost, "/api/sessions/"+empty+"/investigate", good); r.status != 422 || r.code(t) != quarry.ECodeNoFilesUploaded {
		t.Fatalf("investigate without files: %d %s", r.status, r.body)
	}
}

// TestForbiddenTransitions puts a session in each state and tries every
// action the state machine forbids there.
func TestForbiddenTransitions(t *testing.T) {
	e := newEnv(t)
	store := fsstore.New(e.dir, fsstore.Options{})
	setStatus := func(id string, st investigation.Status) {
		s, err := store.Session(id)
		if err != nil {
			t.Fatal(err)
		}
		s.Status = st
		if err := store.SaveSession(s); err != nil {
			t.Fatal(err)
		}
	}
	actions := map[string]func(id, fid string) response{
		"upload": func(id, _ string) response { return e.upload(id, "more.csv", strings.NewReader("a,b\nx,1\n"), "") },
		"describe": func(id, fid string) response {
			return e.jsonReq("PUT", "/api/sessions/"+id+"/files/"+fid, map[string]string{"description": "x"})
		},
		"remove": func(id, fid string) response { return e.jsonReq("DELETE", "/api/sessions/"+id+"/files/"+fid, nil) },
		"investigate": func(id, _ string) response {
			return e.jsonReq("POST", "/api/sessions/"+id+"/investigate", revenueDrop())
		},
		"chat": func(id, _ string) response {
			return e.jsonReq("POST", "/api/sessions/"+id+"/chat", map[string]string{"message": "why?"})
		},
		"report": func(id, _ string) response { return e.jsonReq("GET", "/api/sessions/"+id+"/report", nil) },
	}
	tests := []struct {
		state  investigation.Status
		action string
		status int
		code   string
	}{
		{investigation.StatusRunning, "upload", 409, quarry.ECodeConflict},
		{investigation.StatusRunning, "describe", 409, quarry.ECodeConflict},
		{investigation.StatusRunning, "remove", 409, quarry.ECodeConflict},
		{investigation.StatusRunning, "investigate", 409, quarry.ECodeConflict},
		{investigation.StatusRunning, "chat", 409, quarry.ECodeInvestigationNotComplete},
		{investigation.StatusRunning, "report", 409, quarry.ECodeInvestigationNotComplete},
		{investigation.StatusFailed, "upload", 409, quarry.ECodeConflict},
		{investigation.StatusFailed, "investigate", 409, quarry.ECodeConflict},
		{investigation.StatusFailed, "chat", 409, quarry.ECodeInvestigationNotComplete},
		{investigation.StatusFailed, "report", 409, quarry.ECodeInvestigationNotComplete},
		{investigation.StatusCompleted, "upload", 409, quarry.ECodeConflict},
		{investigation.StatusCompleted, "describe", 409, quarry.ECodeConflict},
		{investigation.StatusCompleted, "remove", 409, quarry.ECodeConflict},
		{investigation.StatusCompleted, "investigate", 409, quarry.ECodeConflict},
		{investigation.StatusExpired, "upload", 410, quarry.ECodeSessionExpired},
		{investigation.StatusExpired, "investigate", 410, quarry.ECodeSessionExpired},
		{investigation.StatusExpired, "chat", 410, quarry.ECodeSessionExpired},
		{investigation.StatusExpired, "report", 410, quarry.ECodeSessionExpired},
	}
	for _, tt := range tests {
		t.Run(string(tt.state)+"/"+tt.action, func(t *testing.T) {
			id := e.newSession()
			r := e.upload(id, "data.csv", strings.NewReader("day,v\n2024-01-01,1\n"), "")
			fid := r.json(t)["file_id"].(string)
			setStatus(id, tt.state)
			r = actions[tt.action](id, fid)
			if r.status != tt.status || r.code(t) != tt.code {
				t.Fatalf("got %d %s, want %d %s", r.status, r.body, tt.status, tt.code)
			}
			if got, _ := store.Session(id); got.Status != tt.state {
				t.Fatalf("status moved from %s to %s", tt.state, got.Status)
			}
		})
	}
}

func TestInvestigationOverHTTP(t *testing.T) {
	e := newEnv(t)
	id := e.withFiles()
	r := e.jsonReq(http.MethodPost, "/api/sessions/"+id+"/investigate", revenueDrop())
	if r.status != http.StatusAccepted || r.json(t)["status"] != "running" {
		t.Fatalf("investigate: %d %s", r.status, r.body)
	}
	progress, end := e.waitDone(id)
	if end["status"] != "completed" || end["outcome"] != "completed" {
		t.Fatalf("end event: %v", end)
	}
	iterations := 0
	for _, p := range progress {
		if p["step"] == "loop" && p["iteration"] != nil {
			iterations++
			if p["decision"] == "" || p["finding"] == nil {
				t.Errorf("loop event without decision or finding: %v", p)
			}
		}
	}
	if iterations < 5 {
		t.Fatalf("%d loop events, want one per iteration (>= 5): %v", iterations, progress)
	}

	s := e.jsonReq(http.MethodGet, "/api/sessions/"+id, nil).json(t)
	if s["status"] != "completed" || s["report_ready"] != true {
		t.Fatalf("session after run: %v", s)
	}
	rep := e.jsonReq(http.MethodGet, "/api/sessions/"+id+"/report", nil)
	rj := rep.json(t)
	if rep.status != 200 || rj["status"] != "completed" || !strings.Contains(rj["content"].(string), "## Explanations") || rj["generated_at"] == "" {
		t.Fatalf("report: %d %.300s", rep.status, rep.body)
	}
	ex := e.jsonReq(http.MethodGet, "/api/sessions/"+id+"/explanations", nil).json(t)["explanations"].([]any)
	first := ex[0].(map[string]any)
	if !strings.Contains(first["title"].(string), "platform=android AND app_version=5.2") || first["likelihood"] != "Most Likely" || first["rank"].(float64) != 1 {
		t.Fatalf("first explanation: %v", first["title"])
	}

	res, err := http.Get(e.srv.URL + "/api/sessions/" + id + "/report/download")
	if err != nil {
		t.Fatal(err)
	}
	zb, _ := io.ReadAll(res.Body)
	res.Body.Close()
	zr, err := zip.NewReader(bytes.NewReader(zb), int64(len(zb)))
	if err != nil {
		t.Fatalf("download is not a zip: %v", err)
	}
	names := map[string]bool{}
	for _, f := range zr.File {
		names[f.Name] = true
	}
	for _, want := range []string{"report.md", "charts/waterfall.png", "results/explanations.json"} {
		if !names[want] {
			t.Errorf("download lacks %s (has %v)", want, names)
		}
	}

	// Chat: grounded answers with references, and the history on disk.
	chat := e.jsonReq(http.MethodPost, "/api/sessions/"+id+"/chat", map[string]string{"message": "Which hypotheses were ruled out and why?"})
	cj := chat.json(t)
	refs, _ := cj["artifacts_referenced"].([]any)
	if chat.status != 200 || len(refs) == 0 || !strings.Contains(cj["response"].(string), "hyp_001") {
		t.Fatalf("chat: %d %s", chat.status, chat.body)
	}
	for _, tt := range []struct {
		msg  string
		code string
	}{{"  ", quarry.ECodeInvalid}, {strings.Repeat("é", quarry.MaxChatMessageLen+1), quarry.ECodeInvalid}} {
		if r := e.jsonReq(http.MethodPost, "/api/sessions/"+id+"/chat", map[string]string{"message": tt.msg}); r.status != 422 || r.code(t) != tt.code {
			t.Errorf("chat %.10q: %d %s", tt.msg, r.status, r.body)
		}
	}
	var hist []investigation.ChatMessage
	b, err := os.ReadFile(filepath.Join(e.dir, "sessions", id, "chat", "history.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &hist); err != nil || len(hist) != 2 || hist[0].Role != investigation.ChatUser || hist[1].Role != investigation.ChatAssistant || len(hist[1].ArtifactsReferenced) == 0 {
		t.Fatalf("history: %v %s", err, b)
	}
}

func TestRestartMarksRunningFailed(t *testing.T) {
	e := newEnv(t)
	id := e.withFiles()
	e.stop()
	store := fsstore.New(e.dir, fsstore.Options{})
	s, _ := store.Session(id)
	s.Status = investigation.StatusRunning // a process died in the middle of the run
	store.SaveSession(s)
	e.start()
	got := e.jsonReq(http.MethodGet, "/api/sessions/"+id, nil).json(t)
	errInfo, _ := got["error"].(map[string]any)
	if got["status"] != "failed" || errInfo["code"] != quarry.ECodeRunInterrupted {
		t.Fatalf("after restart: %v", got)
	}
	// The event stream of a session nothing runs ends at once.
	if _, end := e.waitDone(id); end["status"] != "failed" {
		t.Fatalf("end event: %v", end)
	}
}

func TestExpirySweepsEverything(t *testing.T) {
	e := newEnv(t)
	id := e.withFiles()
	if r := e.jsonReq(http.MethodPost, "/api/sessions/"+id+"/investigate", revenueDrop()); r.status != 202 {
		t.Fatalf("investigate: %d %s", r.status, r.body)
	}
	e.waitDone(id)
	if r := e.jsonReq(http.MethodPost, "/api/sessions/"+id+"/chat", map[string]string{"message": "what about android?"}); r.status != 200 {
		t.Fatalf("chat: %d %s", r.status, r.body)
	}
	e.clock.Add(24*time.Hour + time.Minute)
	if got := e.jsonReq(http.MethodGet, "/api/sessions/"+id, nil).json(t); got["status"] != "expired" {
		t.Fatalf("past its expiry the session reads %v", got["status"])
	}
	n, err := e.app.Investigations.Sweep(context.Background())
	if err != nil || n != 1 {
		t.Fatalf("sweep: %d, %v", n, err)
	}
	// What is left is the record and the run's (empty) lock file.
	left, _ := filepath.Glob(filepath.Join(e.dir, "sessions", id, "*"))
	if len(left) != 2 || filepath.Base(left[0]) != ".run.lock" || filepath.Base(left[1]) != "metadata.json" {
		t.Fatalf("after the sweep the session dir holds %v", left)
	}
	if st, err := os.Stat(left[0]); err != nil || st.Size() != 0 {
		t.Fatalf("the lock file holds data: %v %v", st, err)
	}
	if r := e.jsonReq(http.MethodPost, "/api/sessions/"+id+"/chat", map[string]string{"message": "android?"}); r.status != 410 || r.code(t) != quarry.ECodeSessionExpired {
		t.Fatalf("chat after expiry: %d %s", r.status, r.body)
	}
	if hits, err := e.app.Index.Search(context.Background(), id, "android hypothesis change", 10); err != nil || len(hits) != 0 {
		t.Fatalf("the index still holds %d passages of the expired session (%v)", len(hits), err)
	}
	if n, _ := e.app.Investigations.Sweep(context.Background()); n != 0 {
		t.Fatalf("a second sweep expired %d sessions again", n)
	}
}

// TestShutdownFailsQueuedRuns stops the server while one investigation
// waits for a worker: after the restart it reads failed, RUN_INTERRUPTED,
// never running.
func TestShutdownFailsQueuedRuns(t *testing.T) {
	e := newEnvWith(t, app.Options{MaxUploadBytes: 4 << 20, MaxRunning: 1})
	first, queued := e.withFiles(), e.withFiles()
	for _, id := range []string{first, queued} {
		if r := e.jsonReq(http.MethodPost, "/api/sessions/"+id+"/investigate", revenueDrop()); r.status != http.StatusAccepted {
			t.Fatalf("investigate: %d %s", r.status, r.body)
		}
	}
	e.stop()
	e.start()
	for _, id := range []string{first, queued} {
		got := e.jsonReq(http.MethodGet, "/api/sessions/"+id, nil).json(t)
		if got["status"] == "running" {
			t.Fatalf("session %s still claims to be running after a restart", id)
		}
	}
	got := e.jsonReq(http.MethodGet, "/api/sessions/"+queued, nil).json(t)
	errInfo, _ := got["error"].(map[string]any)
	if got["status"] != "failed" || errInfo["code"] != quarry.ECodeRunInterrupted {
		t.Fatalf("the queued run after shutdown: %v", got)
	}
}

// TestReindexOnStart: a finished investigation whose chat index is gone
// (run by the command line, or quarry.db deleted) is indexed again when the
// server starts, so its chat answers from the memory.
func TestReindexOnStart(t *testing.T) {
	e := newEnv(t)
	id := e.investigated()
	if err := e.app.Index.Delete(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	ask := func() map[string]any {
		return e.jsonReq(http.MethodPost, "/api/sessions/"+id+"/chat", map[string]string{"message": "Which hypotheses were ruled out?"}).json(t)
	}
	if refs, _ := ask()["artifacts_referenced"].([]any); len(refs) != 0 {
		t.Fatalf("without an index the chat still cites %v", refs)
	}
	e.stop()
	e.start()
	got := ask()
	if refs, _ := got["artifacts_referenced"].([]any); len(refs) == 0 || !strings.Contains(got["response"].(string), "hyp_001") {
		t.Fatalf("after the restart the chat answers %v", got)
	}
	// The history kept both exchanges.
	hist := e.jsonReq(http.MethodGet, "/api/sessions/"+id+"/chat", nil).json(t)["messages"].([]any)
	if len(hist) != 4 {
		t.Fatalf("history has %d messages, want 4", len(hist))
	}
}

// TestAbandonedEmptySessionsGo: a session opened and left without a file is
// deleted after an hour; one with files stays until it expires.
func TestAbandonedEmptySessionsGo(t *testing.T) {
	e := newEnv(t)
	empty := e.newSession()
	withFiles := e.withFiles()
	e.clock.Add(30 * time.Minute)
	if n, err := e.app.Investigations.Sweep(context.Background()); err != nil || n != 0 {
		t.Fatalf("sweep after 30 minutes: %d, %v", n, err)
	}
	e.clock.Add(31 * time.Minute)
	if n, err := e.app.Investigations.Sweep(context.Background()); err != nil || n != 1 {
		t.Fatalf("sweep after an hour: %d, %v", n, err)
	}
	if r := e.jsonReq(http.MethodGet, "/api/sessions/"+empty, nil); r.status != http.StatusNotFound {
		t.Errorf("the abandoned session answers %d", r.status)
	}
	if r := e.jsonReq(http.MethodGet, "/api/sessions/"+withFiles, nil); r.status != http.StatusOK {
		t.Errorf("the session with files answers %d", r.status)
	}
}
