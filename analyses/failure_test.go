package analyses_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/analyze"
	"github.com/quarry-dev/quarry/analyses"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/duckdb"
	"github.com/quarry-dev/quarry/fsstore"
)

// slowLoad is a workspace whose files take longer to load than any
// analysis may: LoadFile returns when ctx ends, with ctx's error, as the
// engine's does when its load is interrupted.
type slowLoad struct{ analyze.Workspace }

func (w slowLoad) LoadFile(ctx context.Context, name, path string) (*quarry.FileSchema, int64, error) {
	<-ctx.Done()
	return nil, 0, ctx.Err()
}

// TestLoadTimeoutIsRecorded: an analysis whose sources do not load within
// its timeout reads, by its id, as failed with RESOURCE_LIMIT in words
// (not an engine's message), and its audit trail holds its request with
// the error; a replay says there is no plan to replay.
func TestAnalysisLoadTimeoutIsRecorded(t *testing.T) {
	dir := t.TempDir()
	store := fsstore.Analyses{Root: dir}
	logPath := store.AuditLog()
	m := analyses.New(analyses.Config{
		Analyzer: &analyze.Analyzer{
			NewWorkspace: func(context.Context) (analyze.Workspace, error) {
				ws, err := duckdb.Open(duckdb.Options{MemoryLimit: "256MB"})
				return slowLoad{ws}, err
			},
			TableName: duckdb.TableName,
			Store:     store,
		},
		Store: store,
		OpenLog: func() (analyses.Log, error) {
			if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
				return nil, err
			}
			return audit.OpenShared(logPath, nil)
		},
		Entries: func(id string) ([]quarry.AuditEntry, error) {
			all, err := audit.ReadFile(logPath)
			var out []quarry.AuditEntry
			for _, e := range all {
				if e.RequestID == id {
					out = append(out, e)
				}
			}
			return out, err
		},
	})
	defer m.Close()
	data := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(data, []byte("x\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	rec, err := m.StartLocal(ctx, analysis.Request{Intent: "total x", DataSources: []analysis.DataSource{{Type: analysis.SourceCSV, FilePath: data}},
		Constraints: analysis.Constraints{TimeoutSeconds: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Wait(ctx, rec.RequestID); err != nil {
		t.Fatal(err)
	}
	res, err := m.Get(ctx, rec.RequestID)
	if err != nil {
		t.Fatal(err)
	}
	want := "the analysis stopped at its 1 s timeout while loading the sources"
	if res.Status != analysis.StatusFailed || res.Error == nil || res.Error.Code != quarry.ECodeResourceLimit || res.Error.Message != want {
		t.Fatalf("analysis %s %+v; want failed, %s: %q", res.Status, res.Error, quarry.ECodeResourceLimit, want)
	}
	entries, err := m.Audit(ctx, rec.RequestID)
	if err != nil || len(entries) != 2 || entries[0].EventType != quarry.EventRequestSubmitted || entries[1].EventType != quarry.EventRecordSaved {
		t.Fatalf("audit trail %+v (%v); want the request's entry and its record's hash", entries, err)
	}
	if info, _ := entries[0].EventData["error"].(map[string]any); info["code"] != quarry.ECodeResourceLimit || entries[0].EventData["stage"] != "loading" {
		t.Errorf("request entry %v; want stage loading and the %s error", entries[0].EventData, quarry.ECodeResourceLimit)
	}
	if _, _, err := m.Replay(ctx, rec.RequestID); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("Replay = %v; want INVALID: no plan to replay", err)
	}
}
