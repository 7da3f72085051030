package app_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/internal/app"
	vocab "github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/sqlite"
)

// finished reports whether a research with status has ended.
func finished(status vocab.Status) bool {
	return status == vocab.StatusCompleted || status == vocab.StatusFailed
}

// heldStore is a research store whose save of a finished result waits
// until release is closed, saying on saving that it has begun.
type heldStore struct {
	app.ResearchStore
	saving, release chan struct{}
}

func (h *heldStore) Save(ctx context.Context, r *vocab.Result) error {
	if finished(r.Request.Status) {
		close(h.saving)
		<-h.release
	}
	return h.ResearchStore.Save(ctx, r)
}

// TestResearchEndsWithItsResult: a background research reads as finished,
// by Get and by its event stream, only once its result is kept. Until
// then it reads as still running, so that a page reloaded on the end, or
// one that stops refreshing when it reads completed, shows the facts and
// the report rather than a completed research without them (found by the
// race detector's slower run of web's TestResearchPagesWithoutJavaScript).
func TestResearchEndsWithItsResult(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	svc, alice, closeRooms, err := app.OpenRooms(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer closeRooms()
	kestrel, err := svc.CreateRoom(ctx, alice.ID, "kestrel", "")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../sampleresearch/kestrel/*.md")
	if len(files) == 0 {
		t.Fatal("no sample corpus")
	}
	if err := app.IngestFiles(ctx, svc, alice.ID, kestrel.ID, files); err != nil {
		t.Fatal(err)
	}
	store, err := sqlite.OpenResearch(filepath.Join(dir, "db", "research.db"))
	if err != nil {
		t.Fatal(err)
	}
	held := &heldStore{ResearchStore: store, saving: make(chan struct{}), release: make(chan struct{})}
	s := app.NewResearches(held, svc, nil, nil)
	defer s.Close()
	released := false
	defer func() {
		if !released {
			close(held.release)
		}
	}()

	req, err := s.Start(ctx, alice.ID, "What was Kestrel Dynamics' revenue for fiscal 2024?", "quick", "kestrel")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-held.saving:
	case <-time.After(2 * time.Minute):
		t.Fatal("the research never saved its result")
	}
	got, err := s.Get(ctx, alice.ID, req.ID)
	if err != nil {
		t.Fatal(err)
	}
	if finished(got.Request.Status) {
		t.Errorf("while its result is being saved, Get = %s with %d facts; want still running", got.Request.Status, len(got.Facts))
	}
	past, live, stop, err := s.Subscribe(ctx, alice.ID, req.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for _, st := range past {
		if finished(st.Status) {
			t.Errorf("while its result is being saved, the stages so far end with %s: %q", st.Status, st.Message)
		}
	}

	close(held.release)
	released = true
	var last vocab.Status
	for st := range live {
		last = st.Status
	}
	if last != vocab.StatusCompleted {
		t.Errorf("the last stage = %q; want completed", last)
	}
	got, err = s.Get(ctx, alice.ID, req.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Request.Status != vocab.StatusCompleted || len(got.Facts) == 0 || got.Report == nil {
		t.Errorf("the finished research = %s (%s), %d facts; want completed with facts and a report", got.Request.Status, got.Request.Error, len(got.Facts))
	}
}
