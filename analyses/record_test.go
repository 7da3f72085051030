package analyses_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/analyze"
	"github.com/quarry-dev/quarry/analyses"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/fsstore"
)

// TestRecoveredRecordIsHashed: the record of an analysis whose process
// died is saved as failed with its SHA-256 in the audit log, so that an
// edit to it afterwards is reported.
func TestRecoveredRecordIsHashed(t *testing.T) {
	store, m, id := interrupted(t, false)
	if res, err := m.Get(context.Background(), id); err != nil || res.Status != analysis.StatusFailed {
		t.Fatalf("Get(interrupted) = %v, %v; want it recorded as failed", res, err)
	}
	rep, err := audit.CheckIn(store.AuditLog(), store.Root)
	if err != nil || !rep.OK() || rep.Records != 1 {
		t.Fatalf("CheckIn = %+v, %v; want the one record checked and intact", rep, err)
	}
	p := filepath.Join(store.Root, filepath.FromSlash(analyze.RecordPath(id)))
	raw, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(raw), `"failed"`, `"completed"`, -1)), 0o644)
	rep, err = audit.CheckIn(store.AuditLog(), store.Root)
	want := "analyses/" + id + "/result.json was changed after it was recorded"
	if err != nil || rep.OK() || len(rep.Problems) != 1 || !strings.HasPrefix(rep.Problems[0], want) {
		t.Fatalf("CheckIn after the record was edited = %+v, %v; want %q", rep.Problems, err, want)
	}
}

// TestEditedRecordIsNotServed: Get (and so the API, the page and Replay)
// refuses a finished record whose bytes are not those its last
// record_saved entry hashed.
func TestEditedRecordIsNotServed(t *testing.T) {
	store, m, id := interrupted(t, true)
	// Recorded as failed (its process is gone), with its hash in the log.
	if res, err := m.Get(context.Background(), id); err != nil || res.Status != analysis.StatusFailed {
		t.Fatalf("Get(interrupted) = %v, %v", res, err)
	}
	if _, err := m.Get(context.Background(), id); err != nil {
		t.Fatalf("Get(intact record) = %v", err)
	}
	p := filepath.Join(store.Root, filepath.FromSlash(analyze.RecordPath(id)))
	raw, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(raw), `"failed"`, `"completed"`, -1)), 0o644)
	_, err := m.Get(context.Background(), id)
	if quarry.ErrorCode(err) != quarry.ECodeConflict || !strings.Contains(err.Error(), "was changed after it was written") {
		t.Fatalf("Get(edited record) = %v; want CONFLICT, changed after it was written", err)
	}
	if _, _, err := m.Replay(context.Background(), id); quarry.ErrorCode(err) != quarry.ECodeConflict {
		t.Errorf("Replay(edited record) = %v; want CONFLICT", err)
	}
}

// interrupted returns a service over a fresh store holding the record of
// one analysis left executing by a process that is gone, and its id. With
// entries, the service reads the log's entries (and so checks records).
func interrupted(t *testing.T, entries bool) (fsstore.Analyses, *analyses.Service, string) {
	t.Helper()
	store := fsstore.Analyses{Root: t.TempDir()}
	cfg := analyses.Config{Analyzer: &analyze.Analyzer{}, Store: store,
		OpenLog: func() (analyses.Log, error) {
			os.MkdirAll(filepath.Dir(store.AuditLog()), 0o755)
			return audit.OpenShared(store.AuditLog(), nil)
		}}
	if entries {
		cfg.Entries = func(id string) ([]quarry.AuditEntry, error) {
			all, err := audit.ReadFile(store.AuditLog())
			var out []quarry.AuditEntry
			for _, e := range all {
				if e.RequestID == id {
					out = append(out, e)
				}
			}
			return out, err
		}
	}
	m := analyses.New(cfg)
	t.Cleanup(func() { m.Close() })
	id := quarry.NewID()
	req := &analysis.Request{RequestID: id, Intent: "monthly revenue by region", Status: analysis.StatusExecuting}
	if err := store.SaveJSON(analyze.RecordPath(id), &analysis.Result{RequestID: id, Status: req.Status, Request: req,
		Observations: []analysis.Observation{}, Artifacts: []analysis.Artifact{}}); err != nil {
		t.Fatal(err)
	}
	return store, m, id
}
