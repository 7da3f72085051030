package investigations_test

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/investigate"
	"github.com/quarry-dev/quarry/duckdb"
	"github.com/quarry-dev/quarry/fsstore"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/investigations"
)

// fillingStore is a store on a disk that fills up: from the first write
// of fillAt on, every write fails with ENOSPC, as a full disk does (only
// that one write when brief is set). The failure note is written over
// space reserved before the run, so it still succeeds, as it does on a
// full disk.
type fillingStore struct {
	*fsstore.Store
	fillAt string
	brief  bool
	full   atomic.Bool
}

func (s *fillingStore) check(rel string) error {
	if rel == s.fillAt {
		if s.brief {
			return &fs.PathError{Op: "write", Path: filepath.Join("/srv/data/sessions/x", rel), Err: syscall.ENOSPC}
		}
		s.full.Store(true)
	}
	if s.full.Load() {
		return &fs.PathError{Op: "write", Path: filepath.Join("/srv/data/sessions/x", rel), Err: syscall.ENOSPC}
	}
	return nil
}

func (s *fillingStore) WriteJSON(id, rel string, v any) error {
	if err := s.check(rel); err != nil {
		return err
	}
	return s.Store.WriteJSON(id, rel, v)
}

func (s *fillingStore) WriteFile(id, rel string, data []byte) error {
	if err := s.check(rel); err != nil {
		return err
	}
	return s.Store.WriteFile(id, rel, data)
}

func (s *fillingStore) SaveSession(sess *investigation.Investigation) error {
	if err := s.check("metadata.json"); err != nil {
		return err
	}
	return s.Store.SaveSession(sess)
}

func openEngine() (investigate.Engine, error) {
	return duckdb.Open(duckdb.Options{MemoryLimit: "256MB"})
}

// runUntilEnd starts the investigation of the session holding ordersCSV and
// waits for its progress stream to end.
func runUntilEnd(t *testing.T, m *investigations.Service, id string) []investigation.Event {
	t.Helper()
	ctx := context.Background()
	base, _ := quarry.ParseDateRange("2024-03-04..2024-03-04")
	comp, _ := quarry.ParseDateRange("2024-03-05..2024-03-06")
	if err := m.Investigate(ctx, id, investigation.Context{MetricSQL: "SELECT SUM(amount) FROM orders", BaselinePeriod: base, ComparisonPeriod: comp}); err != nil {
		t.Fatal(err)
	}
	past, live, cancel, err := m.Subscribe(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	events := past
	for e := range live {
		events = append(events, e)
	}
	return events
}

// A disk that fills up during the run: the session cannot even be marked
// failed, so it stays "running" on disk, but the run says why it failed,
// and the next start reports the full disk, not an interruption.
func TestFullDiskDuringRun(t *testing.T) {
	dir := t.TempDir()
	store := &fillingStore{Store: fsstore.New(dir, fsstore.Options{}), fillAt: "results/explanations.json"}
	m := newManager(t, dir, store, openEngine, 0)
	ctx := context.Background()
	s, err := m.Create(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.AddFile(ctx, s.SessionID, "orders.csv", "", strings.NewReader(ordersCSV)); err != nil {
		t.Fatal(err)
	}
	events := runUntilEnd(t, m, s.SessionID)
	last := events[len(events)-1]
	if last.Step != "failed" || !strings.Contains(last.Message, "no space") || strings.Contains(last.Message, "/srv") {
		t.Errorf("last event %+v; want failed for lack of space, without a server path", last)
	}
	m.Close()
	if got, _ := store.Store.Session(s.SessionID); got.Status != investigation.StatusRunning {
		t.Fatalf("status on the full disk = %s; the test expects the final save to have failed", got.Status)
	}

	// The next start, with space again.
	m2 := newManager(t, dir, fsstore.New(dir, fsstore.Options{}), openEngine, 0)
	if n, err := m2.Recover(ctx); err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v; want 1", n, err)
	}
	got, err := m2.Session(ctx, s.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != investigation.StatusFailed || got.Error == nil || got.Error.Code != quarry.ECodeStorageFull || !strings.Contains(got.Error.Message, "explanations.json") {
		t.Fatalf("after restart: %s %+v; want failed STORAGE_FULL naming explanations.json", got.Status, got.Error)
	}
	// The note is spent: nothing is reported twice.
	if note, err := fsstore.New(dir, fsstore.Options{}).FailureNote(s.SessionID); note != nil || err != nil {
		t.Errorf("failure note after recovery = %+v, %v; want empty", note, err)
	}
}

// A write that fails for lack of space, when the session can still be
// saved, ends the run failed with STORAGE_FULL at once.
func TestFullDiskArtifactFailsTheRun(t *testing.T) {
	dir := t.TempDir()
	// Space comes back just after (a log rotated, say): only the explanations'
	// write fails.
	store := &fillingStore{Store: fsstore.New(dir, fsstore.Options{}), fillAt: "results/explanations.json", brief: true}
	m := newManager(t, dir, store, openEngine, 0)
	ctx := context.Background()
	s, err := m.Create(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.AddFile(ctx, s.SessionID, "orders.csv", "", strings.NewReader(ordersCSV)); err != nil {
		t.Fatal(err)
	}
	events := runUntilEnd(t, m, s.SessionID)
	if last := events[len(events)-1]; last.Step != "failed" {
		t.Errorf("last event %+v; want failed", last)
	}
	got, _ := m.Session(ctx, s.SessionID)
	if got.Status != investigation.StatusFailed || got.Error == nil || got.Error.Code != quarry.ECodeStorageFull {
		t.Fatalf("session %s %+v; want failed STORAGE_FULL", got.Status, got.Error)
	}
}
