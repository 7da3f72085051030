package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/pgtest"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
	"github.com/quarry-dev/quarry/sqlite"
)

// The kill tests run quarry serve and quarry worker as processes, catch
// them mid-work, kill them (SIGKILL) or stop them (SIGTERM), start new
// ones, and check that no document, analysis or research is left stuck
// or failed for it. What holds the work in place is a slow dependency,
// not a test hook in the code: an OpenAI-compatible server whose
// embeddings wait while hold is set and whose chat completions never
// answer, so documents wait in their embedding and analyses and
// researches in their model call.

// testLease is the documents' lease in these tests: a killed worker's
// document is processed again about a second later.
const testLease = "1s"

// guard bounds every wait for a document to end, a hang guard well
// above the lease, the rescuer's period and rooms.RefusedRetry (a
// document one process refused waits that long for another worker: on a
// loaded machine the process without the embedder may take it first).
const guard = 3 * rooms.RefusedRetry

// slowAPI is the OpenAI-compatible server the processes are configured
// with.
type slowAPI struct {
	*httptest.Server
	hold     atomic.Bool
	embeds   atomic.Int32 // embedding requests held so far
	chats    atomic.Int32 // chat requests received
	released chan struct{}
}

func newSlowAPI(t *testing.T) *slowAPI {
	s := &slowAPI{released: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/embeddings":
			if s.hold.Load() {
				s.embeds.Add(1)
				for s.hold.Load() {
					select {
					case <-r.Context().Done():
						return
					case <-s.released:
						return
					case <-time.After(20 * time.Millisecond):
					}
				}
			}
			embeddings(w, r)
		case "/v1/chat/completions":
			s.chats.Add(1)
			select {
			case <-r.Context().Done():
			case <-s.released:
			}
			http.Error(w, `{"error":{"message":"stopped"}}`, http.StatusServiceUnavailable)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(func() {
		close(s.released)
		s.Close()
	})
	return s
}

// env is the processes' settings: the embedder and the model at s, and
// the short lease. Without embed, no embedder.
func (s *slowAPI) env(embed bool) []string {
	env := []string{envLease + "=" + testLease, llm.EnvProvider + "=openai", llm.EnvModel + "=llama3.2",
		llm.EnvBaseURL + "=" + s.URL + "/v1", llm.EnvOpenAIKey + "=test"}
	if embed {
		env = append(env, llm.EnvEmbedModel+"=nomic-embed-text", llm.EnvEmbedBaseURL+"="+s.URL+"/v1")
	}
	return env
}

// process is a quarry command running as a child process.
type process struct {
	cmd            *exec.Cmd
	stdout, stderr *syncBuffer
	done           chan error
}

// startProcess runs quarry with args and env added to the test's
// environment (without any QUARRY_ setting of its own).
func startProcess(t *testing.T, env []string, args ...string) *process {
	t.Helper()
	p := &process{cmd: quarryCommand(t, args...), stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan error, 1)}
	var clean []string
	for _, kv := range p.cmd.Env {
		if !strings.HasPrefix(kv, "QUARRY_") || strings.HasPrefix(kv, asCommand+"=") {
			clean = append(clean, kv)
		}
	}
	p.cmd.Env = append(clean, env...)
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
	})
	return p
}

// kill ends the process with sig and waits for it to exit.
func (p *process) kill(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.done:
		p.done <- nil // for the cleanup
	case <-time.After(guard):
		t.Fatalf("the process did not end after %v\n%s", sig, p.stderr.String())
	}
}

// wait polls cond until it holds, failing after guard.
func (p *process) wait(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for !cond() {
		select {
		case err := <-p.done:
			p.done <- err
			t.Fatalf("the process ended (%v) while waiting for %s\n%s", err, what, p.stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s\n%s", what, p.stderr.String())
		}
	}
}

var serving = regexp.MustCompile(`Quarry is serving on (http://\S+)`)

// serve starts quarry serve on dir (and db, when set) and returns it
// with its address.
func serve(t *testing.T, api *slowAPI, embed bool, dir, db string) (*process, string) {
	t.Helper()
	args := []string{"serve", "--addr", "127.0.0.1:0", "--data-dir", dir, "--sample", ""}
	if db != "" {
		args = append(args, "--db", db)
	}
	p := startProcess(t, api.env(embed), args...)
	var base string
	p.wait(t, "the server's address", func() bool {
		m := serving.FindStringSubmatch(p.stdout.String())
		if m != nil {
			base = m[1]
		}
		return m != nil
	})
	return p, base
}

// call sends a request and decodes the JSON answer into out, returning
// the status.
func call(t *testing.T, method, url, contentType string, body io.Reader, out any) int {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %d %s", method, url, res.StatusCode, data)
		}
	}
	return res.StatusCode
}

// multipartBody is a form with one file and other fields.
func multipartBody(t *testing.T, name string, content []byte, fields map[string]string) (string, io.Reader) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	fw, err := w.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(content)
	w.Close()
	return w.FormDataContentType(), &b
}

// docText is a document of one chunk about n.
func docText(n int) []byte {
	return fmt.Appendf(nil, "# Kestrel note %d\n\nKestrel Dynamics was founded in 2011 by Mara Quint in Leeds; note %d says its first plant opened in 2013.\n", n, n)
}

type apiError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// TestKillServe kills quarry serve (SIGKILL) while a document waits for
// its embedding, an analysis and a research for their model, then stops
// the next one (SIGTERM) mid-document, on SQLite and on PostgreSQL. The
// documents end completed, never failed; the analysis and the research
// read, by their ids, as failed with RUN_INTERRUPTED. A server without
// the room's embedding model refuses its documents and says why. A file
// name too long is 422 INVALID without the server's path, leaving
// nothing behind.
func TestKillServe(t *testing.T) {
	for _, store := range []string{"sqlite", "postgres"} {
		t.Run(store, func(t *testing.T) {
			db := ""
			if store == "postgres" {
				db, _ = pgtest.AppDatabase(t)
			}
			testKillServe(t, db)
		})
	}
}

func testKillServe(t *testing.T, db string) {
	api := newSlowAPI(t)
	dir := t.TempDir()
	srv, base := serve(t, api, true, dir, db)

	var rm room.Room
	if code := call(t, "POST", base+"/api/rooms", "application/json", strings.NewReader(`{"name":"kestrel"}`), &rm); code != 201 {
		t.Fatalf("create room: %d", code)
	}
	// The closures read base, the running server's address.
	docsAPI := func() string { return base + "/api/rooms/" + rm.ID + "/documents" }
	upload := func(name string, content []byte) room.Document {
		t.Helper()
		ct, body := multipartBody(t, name, content, nil)
		var d room.Document
		if code := call(t, "POST", docsAPI(), ct, body, &d); code != 202 {
			t.Fatalf("upload %s: %d", name, code)
		}
		return d
	}
	document := func(id string) room.Document {
		t.Helper()
		var d room.Document
		call(t, "GET", docsAPI()+"/"+id, "", nil, &d)
		return d
	}
	completed := func(p *process, id string) {
		t.Helper()
		p.wait(t, "document "+id+" completed", func() bool {
			d := document(id)
			if d.Status == room.StatusFailed {
				t.Fatalf("document %s failed: %s %s", d.Name, d.ErrorCode, d.Error)
			}
			return d.Status == room.StatusCompleted
		})
	}

	// A name longer than a file system allows: 422 INVALID, no path,
	// nothing left.
	ct, body := multipartBody(t, strings.Repeat("n", 270)+".md", docText(0), nil)
	var bad apiError
	if code := call(t, "POST", docsAPI(), ct, body, &bad); code != 422 || bad.Error.Code != quarry.ECodeInvalid || strings.Contains(bad.Error.Message, dir) {
		t.Errorf("upload of a 273-byte name: %d %+v; want 422 INVALID without the server's path", code, bad.Error)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "rooms", rm.ID, "documents", "*")); len(m) != 0 {
		t.Errorf("document folders after the refused upload: %v; want none", m)
	}

	// A research needs a processed document.
	first := upload("first.md", docText(1))
	completed(srv, first.ID)

	// Catch the server mid-work: a document in its embedding, an
	// analysis and a research in their model call.
	api.hold.Store(true)
	caught := upload("caught.md", docText(2))
	srv.wait(t, "the document's embedding", func() bool { return api.embeds.Load() > 0 })
	ct, body = multipartBody(t, "sales.csv", []byte("day,region,revenue\n2025-01-01,north,10\n2025-01-02,south,12\n2025-01-03,north,9\n"),
		map[string]string{"intent": "total revenue by region"})
	var an struct {
		RequestID string `json:"request_id"`
	}
	if code := call(t, "POST", base+"/api/analyses", ct, body, &an); code != 202 || an.RequestID == "" {
		t.Fatalf("start analysis: %d %+v", code, an)
	}
	srv.wait(t, "the analysis's model call", func() bool { return api.chats.Load() > 0 })
	var rs struct {
		ID string `json:"id"`
	}
	if code := call(t, "POST", base+"/api/research", "application/json",
		strings.NewReader(`{"question":"Who founded Kestrel Dynamics and when?","depth":"quick","room":"kestrel"}`), &rs); code != 202 || rs.ID == "" {
		t.Fatalf("start research: %d %+v", code, rs)
	}
	srv.wait(t, "the research's model call", func() bool { return api.chats.Load() > 1 })
	srv.kill(t, syscall.SIGKILL)

	// The next server finishes the document, and says what became of
	// the analysis and the research.
	api.hold.Store(false)
	srv, base = serve(t, api, true, dir, db)
	completed(srv, caught.ID)
	var analysisView struct {
		Status string            `json:"status"`
		Error  *quarry.ErrorInfo `json:"error"`
	}
	if code := call(t, "GET", base+"/api/analyses/"+an.RequestID, "", nil, &analysisView); code != 200 || analysisView.Status != "failed" ||
		analysisView.Error == nil || analysisView.Error.Code != quarry.ECodeRunInterrupted {
		t.Errorf("the killed analysis: %d %+v %+v; want failed, RUN_INTERRUPTED", code, analysisView.Status, analysisView.Error)
	}
	var researchView struct {
		Status string `json:"status"`
		Error  string `json:"error"`
	}
	if code := call(t, "GET", base+"/api/research/"+rs.ID, "", nil, &researchView); code != 200 || researchView.Status != "failed" ||
		!strings.Contains(researchView.Error, quarry.ECodeRunInterrupted) {
		t.Errorf("the killed research: %d %+v; want failed, RUN_INTERRUPTED", code, researchView)
	}

	// Stopped mid-document, the server hands it back: pending, not failed.
	api.hold.Store(true)
	held := api.embeds.Load()
	stopped := upload("stopped.md", docText(3))
	srv.wait(t, "the document's embedding", func() bool { return api.embeds.Load() > held })
	srv.kill(t, syscall.SIGTERM)
	api.hold.Store(false)
	if d := storedDocument(t, dir, db, stopped.ID); d.Status != room.StatusPending {
		t.Errorf("document after SIGTERM = %s (%s %s); want pending, handed back", d.Status, d.ErrorCode, d.Error)
	}

	// A server without the room's embedding model refuses it, saying
	// why, and leaves it pending; one with the model completes it.
	srv, base = serve(t, api, false, dir, db)
	srv.wait(t, "the refusal in the log", func() bool {
		return strings.Contains(srv.stderr.String(), "must be embedded with nomic-embed-text")
	})
	if d := document(stopped.ID); d.Status != room.StatusPending || d.ChunkCount != 0 {
		t.Errorf("document on a server without the embedder = %s with %d chunks; want pending, nothing stored", d.Status, d.ChunkCount)
	}
	srv.kill(t, syscall.SIGTERM)
	srv, base = serve(t, api, true, dir, db)
	completed(srv, stopped.ID)
	for _, id := range []string{first.ID, caught.ID, stopped.ID} {
		if d := document(id); d.Status != room.StatusCompleted || d.EmbeddingModel != "nomic-embed-text" {
			t.Errorf("document %s = %s, model %q; want completed with nomic-embed-text", d.Name, d.Status, d.EmbeddingModel)
		}
	}
	srv.kill(t, syscall.SIGTERM)
}

// storedDocument reads a document from the store of dir (or db) while
// no server runs.
func storedDocument(t *testing.T, dir, db, id string) *room.Document {
	t.Helper()
	ctx := room.WithActor(context.Background(), room.System)
	if db == "" {
		st, err := sqlite.OpenRooms(app.RoomsPath(dir))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		d, err := st.Document(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	svc, _, closeRooms, err := app.OpenRoomsDB(ctx, app.RoomsOptions{DataDir: dir, DB: db})
	if err != nil {
		t.Fatal(err)
	}
	defer closeRooms()
	d, err := svc.Store.Document(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestKillWorker kills a quarry worker (SIGKILL) mid-document on
// PostgreSQL: another worker completes the document once its lease runs
// out, though the dead one's River job still reads as running. Then it
// stops a worker (SIGTERM) mid-document: the document is pending, never
// failed, and the next worker completes it.
func TestKillWorker(t *testing.T) {
	db, _ := pgtest.AppDatabase(t)
	api := newSlowAPI(t)
	dir := t.TempDir()
	ctx := room.WithActor(context.Background(), room.System)
	front, owner, closeFront, err := app.OpenRoomsDB(ctx, app.RoomsOptions{DataDir: dir, DB: db})
	if err != nil {
		t.Fatal(err)
	}
	defer closeFront()
	// Its documents need the model, as those of an ingest --embed-model do.
	front.Embedder, front.EmbeddingModel = unusedEmbedder{}, "nomic-embed-text"
	rm, err := front.CreateRoom(ctx, owner.ID, "kestrel", "")
	if err != nil {
		t.Fatal(err)
	}
	worker := func() *process {
		return startProcess(t, api.env(true), "worker", "--db", db, "--data-dir", dir, "--workers", "1", "--lease", testLease)
	}
	status := func(id string) *room.Document {
		d, err := front.Store.Document(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	completed := func(p *process, id string) {
		t.Helper()
		p.wait(t, "document "+id+" completed", func() bool {
			d := status(id)
			if d.Status == room.StatusFailed {
				t.Fatalf("document %s failed: %s %s", d.Name, d.ErrorCode, d.Error)
			}
			return d.Status == room.StatusCompleted
		})
	}

	api.hold.Store(true)
	w := worker()
	caught, err := front.Upload(ctx, owner.ID, rm.ID, "caught.md", bytes.NewReader(docText(1)))
	if err != nil {
		t.Fatal(err)
	}
	if caught.EmbeddingModel != "nomic-embed-text" {
		t.Errorf("uploaded document's model %q; want nomic-embed-text", caught.EmbeddingModel)
	}
	w.wait(t, "the document's embedding", func() bool { return api.embeds.Load() > 0 })
	w.kill(t, syscall.SIGKILL)
	if d := status(caught.ID); d.Status != room.StatusProcessing {
		t.Errorf("document after SIGKILL = %s; want processing, under the dead worker's lease", d.Status)
	}
	api.hold.Store(false)
	w = worker()
	completed(w, caught.ID)
	if d := status(caught.ID); d.Round != 1 {
		t.Errorf("rescued document's round = %d; want 1", d.Round)
	}

	api.hold.Store(true)
	held := api.embeds.Load()
	stopped, err := front.Upload(ctx, owner.ID, rm.ID, "stopped.md", bytes.NewReader(docText(2)))
	if err != nil {
		t.Fatal(err)
	}
	w.wait(t, "the document's embedding", func() bool { return api.embeds.Load() > held })
	w.kill(t, syscall.SIGTERM)
	if d := status(stopped.ID); d.Status != room.StatusPending {
		t.Errorf("document after SIGTERM = %s (%s %s); want pending, handed back", d.Status, d.ErrorCode, d.Error)
	}
	if !strings.Contains(w.stdout.String(), "handed back") {
		t.Errorf("the stopping worker's output:\n%s\nwant it to say documents are handed back", w.stdout.String())
	}
	api.hold.Store(false)
	w = worker()
	completed(w, stopped.ID)
	w.kill(t, syscall.SIGTERM)
	for _, id := range []string{caught.ID, stopped.ID} {
		if d := status(id); d.Status != room.StatusCompleted || d.ChunkCount == 0 {
			t.Errorf("document %s = %s with %d chunks; want completed", d.Name, d.Status, d.ChunkCount)
		}
	}
}

// unusedEmbedder lets a process that only takes uploads in name the
// embedding model its documents need; it never embeds.
type unusedEmbedder struct{}

func (unusedEmbedder) Embed(context.Context, []string) ([][]float32, error) {
	return nil, fmt.Errorf("not used")
}
