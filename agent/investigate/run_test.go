package investigate_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/investigate"
	"github.com/quarry-dev/quarry/duckdb"
	"github.com/quarry-dev/quarry/investigation"
)

// dirArtifacts writes a session's artifacts under a directory.
type dirArtifacts string

func (d dirArtifacts) Dir() string { return string(d) }

func (d dirArtifacts) WriteFile(rel string, data []byte) error {
	p := filepath.Join(string(d), filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

func (d dirArtifacts) WriteJSON(rel string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return d.WriteFile(rel, b)
}

// countingAudit numbers entries without writing them.
type countingAudit struct {
	mu sync.Mutex
	n  int
}

func (a *countingAudit) Append(eventType, actor string, data map[string]any) (quarry.AuditEntry, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n++
	return quarry.AuditEntry{SequenceNumber: a.n, EventType: eventType, Actor: actor, EventData: data}, nil
}

// investigation is a finished run and the directory holding its artifacts.
type investigationRun struct {
	res *investigation.Result
	dir string
}

func (iv investigationRun) read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(iv.dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// runFiles investigates the CSV files at paths (copied into a fresh
// session directory) on the embedded engine, offline.
func runFiles(t *testing.T, metric, base, cmp string, paths ...string) investigationRun {
	t.Helper()
	iv, err := runFilesErr(t, metric, base, cmp, paths...)
	if err != nil {
		t.Fatal(err)
	}
	return iv
}

// runFilesErr is runFiles for a run that may fail: it returns the run's
// error, with the directory of what it wrote.
func runFilesErr(t *testing.T, metric, base, cmp string, paths ...string) (investigationRun, error) {
	t.Helper()
	b, err := quarry.ParseDateRange(base)
	if err != nil {
		t.Fatal(err)
	}
	c, err := quarry.ParseDateRange(cmp)
	if err != nil {
		t.Fatal(err)
	}
	return runContextErr(t, investigation.Context{MetricSQL: metric, BaselinePeriod: b, ComparisonPeriod: c}, paths...)
}

// runContextErr is runFilesErr for a whole request: the prompt, the
// columns to ignore, the time column.
func runContextErr(t *testing.T, ic investigation.Context, paths ...string) (investigationRun, error) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs a whole investigation")
	}
	dir := t.TempDir()
	taken := map[string]bool{}
	var files []*investigation.UploadedFile
	for i, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel := "files/" + quarry.NewID() + ".csv"
		if err := dirArtifacts(dir).WriteFile(rel, data); err != nil {
			t.Fatal(err)
		}
		name := duckdb.TableName(filepath.Base(p), taken)
		taken[name] = true
		files = append(files, &investigation.UploadedFile{FileID: quarry.NewID(), OriginalName: filepath.Base(p), Path: rel,
			TableName: name, SizeBytes: int64(len(data)), UploadedAt: time.Unix(int64(i), 0)})
	}
	eng, err := duckdb.Open(duckdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	inv := &investigate.Investigator{Engine: eng, Out: dirArtifacts(dir), Audit: &countingAudit{},
		Now: func() time.Time { return time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC) }}
	ic.SessionID = quarry.NewID()
	res, err := inv.Run(context.Background(), investigate.Input{SessionID: ic.SessionID, Files: files, Context: ic})
	return investigationRun{res: res, dir: dir}, err
}

// sample is the path of a committed sample file.
func sample(parts ...string) string {
	return filepath.Join(append([]string{"..", "..", "testdata"}, parts...)...)
}

// writeCSV writes a CSV file into a temporary directory.
func writeCSV(t *testing.T, name string, lines []string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
