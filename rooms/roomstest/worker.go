package roomstest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/room/roomtest"
	"github.com/quarry-dev/quarry/rooms"
)

// leaseText is a document of one chunk.
const leaseText = "# Lease\n\nThe tenant may terminate the lease for convenience with ninety days' written notice to the landlord.\n"

// embedder gives every text the same 3-dimensional vector; with block
// set, it waits for its context to end instead, after saying it was
// called.
type embedder struct {
	block  bool
	called chan struct{}
	once   sync.Once
}

func (e *embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if e.block {
		e.once.Do(func() { close(e.called) })
		<-ctx.Done()
		return nil, ctx.Err()
	}
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = []float32{1, 0.5, 0.25}
	}
	return out, nil
}

// queued records what a Queue was given.
type queued struct {
	mu   sync.Mutex
	jobs []string
}

func (q *queued) Enqueue(ctx context.Context, documentID string, round int) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.jobs = append(q.jobs, fmt.Sprintf("%s#%d", documentID, round))
	return nil
}

// testWorkers: processing survives its worker. A worker stopped mid-way
// hands the document back pending, never failed, and the next one
// completes it; a live worker keeps its lease however long it works,
// while the document of a dead one is rescued and queued in its next
// round; a process without the room's embedding model refuses the
// document, leaving it pending, rather than storing it without vectors.
func testWorkers(t *testing.T, f *fixture) {
	svc := f.svc
	sys := room.WithActor(f.ctx, room.System)
	svc.Lease = time.Second
	svc.Log = slog.New(slog.DiscardHandler)
	svc.EmbeddingModel = "nomic-embed-text"
	blocking := &embedder{block: true, called: make(chan struct{})}
	svc.Embedder = blocking
	d, err := svc.Upload(f.ctx, f.owner.ID, f.a.ID, "lease.md", strings.NewReader(leaseText))
	roomtest.Must(t, err)
	if d.EmbeddingModel != "nomic-embed-text" {
		t.Errorf("uploaded document's model %q; want the process's nomic-embed-text", d.EmbeddingModel)
	}

	// A worker stopped while it embeds hands the document back.
	ctx, stop := context.WithCancel(f.ctx)
	done := make(chan error, 1)
	go func() { done <- svc.Process(ctx, d.ID) }()
	select {
	case <-blocking.called:
	case err := <-done:
		t.Fatalf("Process returned %v before embedding", err)
	}
	// Three lease lengths pass: the live worker's renewals keep it, so
	// no rescuer takes the document from it.
	time.Sleep(3 * svc.Lease)
	if n, err := svc.Rescue(f.ctx); err != nil || n != 0 {
		t.Errorf("Rescue while the worker is alive = %d, %v; want 0: its lease is renewed", n, err)
	}
	stop()
	err = <-done
	if !errors.Is(err, rooms.ErrHandedBack) {
		t.Errorf("Process stopped = %v; want ErrHandedBack", err)
	}
	got, err := svc.Store.Document(sys, d.ID)
	roomtest.Must(t, err)
	if got.Status != room.StatusPending || got.Round != 1 || got.Error != "" {
		t.Errorf("document after the stop = %s round %d (%s); want pending in round 1, no error", got.Status, got.Round, got.Error)
	}

	// The next worker completes it, with vectors.
	svc.Embedder = &embedder{}
	roomtest.Must(t, svc.Process(f.ctx, d.ID))
	got, err = svc.Store.Document(sys, d.ID)
	roomtest.Must(t, err)
	if got.Status != room.StatusCompleted {
		t.Fatalf("document = %s (%s); want completed", got.Status, got.Error)
	}
	hits, err := svc.Store.SearchVectors(sys, f.a.ID, room.VectorQuery{Vector: []float32{1, 0.5, 0.25}, Model: "nomic-embed-text", DocumentIDs: []string{d.ID}, Limit: 5})
	if err != nil || len(hits) == 0 {
		t.Errorf("SearchVectors = %v, %v; want the document's chunk, embedded", hits, err)
	}

	// A process without the room's embedder takes an upload for the room's
	// model and refuses to process it.
	svc.Embedder, svc.EmbeddingModel = nil, ""
	q := &queued{}
	svc.Queue = q
	second, err := svc.Upload(f.ctx, f.owner.ID, f.a.ID, "second.md", strings.NewReader(strings.ReplaceAll(leaseText, "ninety", "sixty")))
	roomtest.Must(t, err)
	if second.EmbeddingModel != "nomic-embed-text" {
		t.Errorf("document uploaded without an embedder: model %q; want the room's nomic-embed-text", second.EmbeddingModel)
	}
	err = svc.ProcessQueued(f.ctx, second.ID)
	var retry *rooms.Retry
	if !errors.As(err, &retry) || retry.After != rooms.RefusedRetry || quarry.ErrorCode(err) != quarry.ECodeUnavailable ||
		!strings.Contains(err.Error(), "nomic-embed-text") || !strings.Contains(err.Error(), "no embedding model") {
		t.Errorf("ProcessQueued without the embedder = %v; want a Retry after %v, UNAVAILABLE, naming the model and what is missing", err, rooms.RefusedRetry)
	}
	svc.Embedder, svc.EmbeddingModel = &embedder{}, "other-model"
	roomtest.WantCode(t, "Process with another embedding model", svc.Process(f.ctx, second.ID), quarry.ECodeUnavailable)
	got, err = svc.Store.Document(sys, second.ID)
	roomtest.Must(t, err)
	if got.Status != room.StatusPending || got.ChunkCount != 0 {
		t.Errorf("refused document = %s with %d chunks; want pending, nothing stored", got.Status, got.ChunkCount)
	}
	svc.EmbeddingModel = "nomic-embed-text"
	roomtest.Must(t, svc.ProcessQueued(f.ctx, second.ID))
	if got, err := svc.Store.Document(sys, second.ID); err != nil || got.Status != room.StatusCompleted {
		t.Errorf("document with the room's embedder = %+v, %v; want completed", got, err)
	}

	// A worker that died leaves its lease to run out: the rescuer hands
	// the document back and queues it in its next round, once.
	third, err := svc.Upload(f.ctx, f.owner.ID, f.a.ID, "third.md", strings.NewReader(strings.ReplaceAll(leaseText, "ninety", "thirty")))
	roomtest.Must(t, err)
	_, err = svc.Store.ClaimDocument(sys, third.ID, "dead-worker", -time.Second)
	roomtest.Must(t, err)
	q.jobs = nil
	if n, err := svc.Rescue(f.ctx); err != nil || n != 1 {
		t.Fatalf("Rescue = %d, %v; want the dead worker's document", n, err)
	}
	if n, err := svc.Rescue(f.ctx); err != nil || n != 0 {
		t.Errorf("Rescue again = %d, %v; want 0", n, err)
	}
	if len(q.jobs) != 1 || q.jobs[0] != third.ID+"#1" {
		t.Errorf("queued %v; want %s in round 1", q.jobs, third.ID)
	}
	roomtest.Must(t, svc.ProcessQueued(f.ctx, third.ID))
	if got, err := svc.Store.Document(sys, third.ID); err != nil || got.Status != room.StatusCompleted {
		t.Errorf("rescued document = %+v, %v; want completed", got, err)
	}
	// A job delivered again, or for a document another worker holds,
	// does nothing.
	roomtest.Must(t, svc.ProcessQueued(f.ctx, third.ID))
	fourth, err := svc.Upload(f.ctx, f.owner.ID, f.a.ID, "fourth.md", strings.NewReader(strings.ReplaceAll(leaseText, "ninety", "twenty")))
	roomtest.Must(t, err)
	_, err = svc.Store.ClaimDocument(sys, fourth.ID, "live-worker", time.Hour)
	roomtest.Must(t, err)
	roomtest.Must(t, svc.ProcessQueued(f.ctx, fourth.ID))
	if got, err := svc.Store.Document(sys, fourth.ID); err != nil || got.Status != room.StatusProcessing {
		t.Errorf("document held by another worker = %+v, %v; want left processing to it", got, err)
	}
}

// testUploadNames: a name longer than the file systems allow is INVALID
// with no server path in the message, and leaves neither a row nor a
// folder; the longest allowed name is stored.
func testUploadNames(t *testing.T, f *fixture) {
	before := f.folders(t)
	for _, n := range []int{256, 299, 1000} {
		name := strings.Repeat("a", n-len(".md")) + ".md"
		_, err := f.svc.Upload(f.ctx, f.owner.ID, f.a.ID, name, strings.NewReader(leaseText))
		roomtest.WantCode(t, "Upload of a name of "+strconv.Itoa(n)+" bytes", err, quarry.ECodeInvalid)
		if err != nil && strings.Contains(err.Error(), f.svc.Dir) {
			t.Errorf("Upload error %q names the server's path", err)
		}
	}
	// Names are measured in bytes: 150 two-byte characters are 300.
	_, err := f.svc.Upload(f.ctx, f.owner.ID, f.a.ID, strings.Repeat("é", 150)+".md", strings.NewReader(leaseText))
	roomtest.WantCode(t, "Upload of a name of 150 two-byte characters", err, quarry.ECodeInvalid)
	ds, err := f.svc.Documents(f.ctx, f.owner.ID, f.a.ID)
	roomtest.Must(t, err)
	if len(ds) != 1 {
		t.Errorf("documents after refused uploads: %d; want the sample alone", len(ds))
	}
	if after := f.folders(t); after != before {
		t.Errorf("document folders %d after refused uploads; want %d: nothing left behind", after, before)
	}
	longest := strings.Repeat("b", rooms.MaxNameBytes-len(".md")) + ".md"
	d, err := f.svc.Upload(f.ctx, f.owner.ID, f.a.ID, longest, strings.NewReader(leaseText))
	roomtest.Must(t, err)
	if _, err := os.Stat(filepath.Join(f.svc.Dir, "rooms", f.a.ID, "documents", d.ID, longest)); err != nil {
		t.Errorf("a name of %d bytes: %v; want the file stored", rooms.MaxNameBytes, err)
	}
}

// testPartialUploads: what an upload cut short by its process's death
// left (its folder, locked by no one, with a partial file and no row) is
// removed by the next start; an upload in progress, whose lock is held,
// is left alone, and so is a recorded document.
func testPartialUploads(t *testing.T, f *fixture) {
	docs := filepath.Join(f.svc.Dir, "rooms", f.a.ID, "documents")
	partial := func(id string) string {
		dir := filepath.Join(docs, id)
		roomtest.Must(t, os.MkdirAll(dir, 0o755))
		roomtest.Must(t, os.WriteFile(filepath.Join(dir, ".upload.tmp"), []byte("# Half a docu"), 0o644))
		roomtest.Must(t, os.WriteFile(filepath.Join(dir, ".upload.lock"), nil, 0o644))
		return dir
	}
	dead := partial(quarry.NewID())
	live := partial(quarry.NewID())
	lock := flock.New(filepath.Join(live, ".upload.lock"))
	if ok, err := lock.TryLock(); err != nil || !ok {
		t.Fatalf("lock the live upload: %v %v", ok, err)
	}
	defer lock.Close()
	n, err := f.svc.CleanUploads(f.ctx)
	roomtest.Must(t, err)
	if n != 1 {
		t.Errorf("CleanUploads = %d; want the dead upload alone", n)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the dead upload's folder: %v; want it removed", err)
	}
	if _, err := os.Stat(filepath.Join(live, ".upload.tmp")); err != nil {
		t.Errorf("the live upload's file: %v; want it kept", err)
	}
	p, _, err := f.svc.FilePath(f.ctx, f.owner.ID, f.docA.ID)
	roomtest.Must(t, err)
	if _, err := os.Stat(p); err != nil {
		t.Errorf("the sample's file: %v; want it kept", err)
	}
}

// folders counts the document folders of every room.
func (f *fixture) folders(t *testing.T) int {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(f.svc.Dir, "rooms", "*", "documents", "*"))
	roomtest.Must(t, err)
	return len(m)
}
