package researches

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/quarry-dev/quarry"
	vocab "github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/sqlite"
)

// TestInterruptedResearchReadsAsFailed: a research saved unfinished whose
// process died reads, by its id, as failed with RUN_INTERRUPTED and is
// saved so; one whose process still holds its claim reads as it is; to
// another user both are NOT_FOUND.
func TestInterruptedResearchReadsAsFailed(t *testing.T) {
	dir := t.TempDir()
	store, err := sqlite.OpenResearch(filepath.Join(dir, "db", "research.db"))
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Store: store, RunDir: filepath.Join(dir, "db", "research-runs")})
	defer s.Close()
	ctx := context.Background()
	save := func(status vocab.Status) string {
		req, err := vocab.NewRequest("Who founded Kestrel Dynamics and when?", "quick", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		req.UserID, req.Status = "alice", status
		if err := store.Save(ctx, &vocab.Result{Request: req}); err != nil {
			t.Fatal(err)
		}
		return req.ID
	}
	dead, live := save(vocab.StatusExecuting), save(vocab.StatusPlanning)
	if err := os.MkdirAll(s.cfg.RunDir, 0o755); err != nil {
		t.Fatal(err)
	}
	lock := flock.New(filepath.Join(s.cfg.RunDir, live+".lock"))
	if ok, err := lock.TryLock(); !ok || err != nil {
		t.Fatalf("claim the live research: %v %v", ok, err)
	}
	defer lock.Close()

	res, err := s.Get(ctx, "alice", dead)
	if err != nil {
		t.Fatal(err)
	}
	if res.Request.Status != vocab.StatusFailed || !strings.Contains(res.Request.Error, quarry.ECodeRunInterrupted) {
		t.Errorf("interrupted research = %s %q; want failed, RUN_INTERRUPTED", res.Request.Status, res.Request.Error)
	}
	if saved, err := store.Get(ctx, dead); err != nil || saved.Request.Status != vocab.StatusFailed {
		t.Errorf("saved research = %+v, %v; want failed", saved, err)
	}
	if res, err := s.Get(ctx, "alice", live); err != nil || res.Request.Status != vocab.StatusPlanning {
		t.Errorf("research another process runs = %+v, %v; want planning, untouched", res, err)
	}
	list, err := s.List(ctx, "alice")
	if err != nil || len(list) != 2 {
		t.Fatalf("List = %+v, %v; want both", list, err)
	}
	for _, q := range list {
		if want := map[string]vocab.Status{dead: vocab.StatusFailed, live: vocab.StatusPlanning}[q.ID]; q.Status != want {
			t.Errorf("List: %s is %s; want %s", q.ID, q.Status, want)
		}
	}
	for _, id := range []string{dead, live} {
		if _, err := s.Get(ctx, "bob", id); quarry.ErrorCode(err) != quarry.ECodeNotFound {
			t.Errorf("bob reads alice's research: %v; want NOT_FOUND", err)
		}
	}
}
