package audit_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/internal/otherprocess"
)

// holderEnv names the log a second process holds (otherprocess.Start): it
// opens the log, appends one entry and keeps it open.
const holderEnv = "QUARRY_AUDIT_TEST_HOLD"

func TestMain(m *testing.M) {
	otherprocess.Main(m, holderEnv, func(path string) (func() error, error) {
		l, err := audit.Open(path, "holder", nil)
		if err != nil {
			return nil, err
		}
		if _, err := l.Append(quarry.EventToolCalled, "holder", map[string]any{"from": "other process"}); err != nil {
			return nil, err
		}
		return l.Close, nil
	})
}

// TestOneWriterAcrossProcesses: while another process has the log open,
// Open waits and then fails with CONFLICT, writing nothing; when that
// process dies without closing, the log opens and continues its chain.
func TestOneWriterAcrossProcesses(t *testing.T) {
	defer audit.SetLockWait(200 * time.Millisecond)()
	path := writeLog(t, 2)
	holder := otherprocess.Start(t, holderEnv, path)

	if _, err := audit.Open(path, "req-1", nil); quarry.ErrorCode(err) != quarry.ECodeConflict {
		t.Fatalf("Open while another process writes: %v; want %s", err, quarry.ECodeConflict)
	}
	holder.Process.Kill()
	holder.Wait()

	l, err := audit.Open(path, "req-1", nil)
	if err != nil {
		t.Fatalf("Open after the holder died: %v", err)
	}
	e, err := l.Append(quarry.EventObservationRecorded, "actor", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if res, _ := audit.VerifyFile(path); !res.OK() || res.Entries != 4 || e.SequenceNumber != 4 {
		t.Fatalf("after the holder: %+v, last sequence %d; want 4 intact entries", res, e.SequenceNumber)
	}
}

// TestOpenWaitsForTheWriter: a second Open in the same process waits for
// the first Log to close and then continues after its last entry, so two
// writers never interleave their chains.
func TestOpenWaitsForTheWriter(t *testing.T) {
	path := writeLog(t, 1)
	first, err := audit.Open(path, "req-1", nil)
	if err != nil {
		t.Fatal(err)
	}
	opened := make(chan *audit.Log)
	go func() {
		l, err := audit.Open(path, "req-2", nil)
		if err != nil {
			t.Error(err)
		}
		opened <- l
	}()
	select {
	case <-opened:
		t.Fatal("a second writer opened the log while the first had it")
	case <-time.After(100 * time.Millisecond):
	}
	if _, err := first.Append(quarry.EventToolCalled, "actor", nil); err != nil {
		t.Fatal(err)
	}
	first.Close()
	second := <-opened
	if second == nil {
		t.FailNow()
	}
	e, err := second.Append(quarry.EventObservationRecorded, "actor", nil)
	if err != nil {
		t.Fatal(err)
	}
	second.Close()
	if res, _ := audit.VerifyFile(path); !res.OK() || e.SequenceNumber != 3 {
		t.Fatalf("%+v, second writer's entry %d; want an intact chain of 3", res, e.SequenceNumber)
	}
}

// TestSharedLogs: two shared Logs on one file (as a server and a
// command-line run hold the analyses' log) append in turns and at once;
// each chains onto the other's entries and the file verifies whole. A
// change made between appends is caught by the next one.
func TestSharedLogs(t *testing.T) {
	path := writeLog(t, 1)
	a, err := audit.OpenShared(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := audit.OpenShared(path, nil)
	if err != nil {
		t.Fatalf("a second shared Log waits for nobody: %v", err)
	}
	defer b.Close()
	done := make(chan error, 2)
	for _, l := range []*audit.Log{a, b} {
		go func() {
			for range 40 {
				if _, err := l.AppendFor("req", quarry.EventToolCalled, "actor", nil); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	e, err := a.AppendFor("req", quarry.EventObservationRecorded, "actor", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := audit.VerifyFile(path); !res.OK() || res.Entries != 82 || e.SequenceNumber != 82 {
		t.Fatalf("%+v, last sequence %d; want 82 intact entries", res, e.SequenceNumber)
	}

	// Someone appends a forged line: the next append refuses to chain
	// onto it.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"entry_id":"x","sequence_number":83,"parent_hash":"forged","hash":"forged"}` + "\n")
	f.Close()
	if _, err := b.AppendFor("req", quarry.EventToolCalled, "actor", nil); quarry.ErrorCode(err) != quarry.ECodeConflict || !strings.Contains(err.Error(), "entry 83") {
		t.Errorf("append after a forged entry: %v; want CONFLICT naming entry 83", err)
	}
}
