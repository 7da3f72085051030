package analyses_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gofrs/flock"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/analyze"
	"github.com/quarry-dev/quarry/analyses"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/fsstore"
)

// TestInterruptedAnalysisReadsAsFailed: an analysis whose record a
// process left unfinished reads, by its id, as failed with
// RUN_INTERRUPTED and a hint to run it again, and is recorded so; one
// whose process still holds its claim reads as it is; an unknown id is
// NOT_FOUND.
func TestInterruptedAnalysisReadsAsFailed(t *testing.T) {
	store := fsstore.Analyses{Root: t.TempDir()}
	m := analyses.New(analyses.Config{Analyzer: &analyze.Analyzer{}, Store: store})
	defer m.Close()
	ctx := context.Background()
	record := func(id, status string) {
		req := &analysis.Request{RequestID: id, Intent: "monthly revenue by region", Status: status}
		if err := store.SaveJSON(filepath.Join("analyses", id, "result.json"), &analysis.Result{RequestID: id, Status: status, Request: req,
			Observations: []analysis.Observation{}, Artifacts: []analysis.Artifact{}}); err != nil {
			t.Fatal(err)
		}
	}
	dead, live := quarry.NewID(), quarry.NewID()
	record(dead, analysis.StatusExecuting)
	record(live, analysis.StatusPlanning)
	lock := flock.New(filepath.Join(store.Root, "analyses", live, ".run.lock"))
	if ok, err := lock.TryLock(); !ok || err != nil {
		t.Fatalf("claim the live analysis: %v %v", ok, err)
	}
	defer lock.Close()

	res, err := m.Get(ctx, dead)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != analysis.StatusFailed || res.Error == nil || res.Error.Code != quarry.ECodeRunInterrupted || res.Error.Hint == "" ||
		res.Request.Status != analysis.StatusFailed {
		t.Errorf("interrupted analysis = %s %+v; want failed, RUN_INTERRUPTED with a hint", res.Status, res.Error)
	}
	var saved analysis.Result
	if err := store.ReadJSON(filepath.Join("analyses", dead, "result.json"), &saved); err != nil || saved.Status != analysis.StatusFailed {
		t.Errorf("saved record = %s, %v; want failed", saved.Status, err)
	}
	if res, err := m.Get(ctx, live); err != nil || res.Status != analysis.StatusPlanning || res.Error != nil {
		t.Errorf("analysis another process runs = %+v, %v; want planning, untouched", res, err)
	}
	list, err := m.List(ctx)
	if err != nil || len(list) != 2 {
		t.Fatalf("List = %+v, %v; want both", list, err)
	}
	for _, s := range list {
		if want := map[string]string{dead: analysis.StatusFailed, live: analysis.StatusPlanning}[s.RequestID]; s.Status != want {
			t.Errorf("List: %s is %s; want %s", s.RequestID, s.Status, want)
		}
	}
	if _, err := m.Get(ctx, quarry.NewID()); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("Get(unknown) = %v; want NOT_FOUND", err)
	}
}
