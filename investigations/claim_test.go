package investigations_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/fsstore"
	"github.com/quarry-dev/quarry/internal/otherprocess"
	"github.com/quarry-dev/quarry/investigation"
)

// claimEnv names the session whose run a second process claims
// (otherprocess.Start), as "data dir/session id".
const claimEnv = "QUARRY_SESSIONS_TEST_CLAIM"

func TestMain(m *testing.M) {
	otherprocess.Main(m, claimEnv, func(arg string) (func() error, error) {
		dir, id := filepath.Split(arg)
		return fsstore.New(filepath.Clean(dir), fsstore.Options{}).ClaimRun(id)
	})
}

// claimInOtherProcess starts a process that claims the run of session id
// in dataDir and returns it once it holds the claim.
func claimInOtherProcess(t *testing.T, dataDir, id string) *exec.Cmd {
	t.Helper()
	return otherprocess.Start(t, claimEnv, filepath.Join(dataDir, id))
}

// markRunning saves the session as running, as the process that claimed it
// would.
func (e *queryEnv) markRunning(t *testing.T) {
	t.Helper()
	store := fsstore.New(e.dir, fsstore.Options{})
	s, err := store.Session(e.id)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Move(investigation.StatusRunning); err != nil {
		t.Fatal(err)
	}
	if err := store.SaveSession(s); err != nil {
		t.Fatal(err)
	}
}

func (e *queryEnv) status(t *testing.T) *investigation.Investigation {
	t.Helper()
	s, err := e.m.Session(context.Background(), e.id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRecoverLeavesAnotherProcessRunAlone: a session another Quarry process
// is running on the same data dir (quarry serve beside quarry mcp) stays
// running when this process starts; once that process has died, the
// session is marked interrupted.
func TestRecoverLeavesAnotherProcessRunAlone(t *testing.T) {
	e := newQueryEnv(t)
	ctx := context.Background()
	e.markRunning(t)
	other := claimInOtherProcess(t, e.dir, e.id)

	if n, err := e.m.Recover(ctx); n != 0 || err != nil {
		t.Fatalf("Recover while another process runs the session = %d, %v; want 0", n, err)
	}
	if s := e.status(t); s.Status != investigation.StatusRunning {
		t.Fatalf("status %s; the other process is still running it", s.Status)
	}

	other.Process.Kill()
	other.Wait()
	if n, err := e.m.Recover(ctx); n != 1 || err != nil {
		t.Fatalf("Recover after the other process died = %d, %v; want 1", n, err)
	}
	s := e.status(t)
	if s.Status != investigation.StatusFailed || s.Error == nil || s.Error.Code != quarry.ECodeRunInterrupted || s.FinishedAt == nil {
		t.Fatalf("session %+v; want failed with %s", s, quarry.ECodeRunInterrupted)
	}
}

// TestInvestigateRefusesARunClaimedElsewhere: a session whose run another
// process holds cannot be started here; it is left as it was.
func TestInvestigateRefusesARunClaimedElsewhere(t *testing.T) {
	e := newQueryEnv(t)
	claimInOtherProcess(t, e.dir, e.id)
	base, _ := quarry.ParseDateRange("2024-03-04..2024-03-04")
	comp, _ := quarry.ParseDateRange("2024-03-05..2024-03-06")
	c := investigation.Context{MetricSQL: "SELECT SUM(amount) FROM orders_2024", BaselinePeriod: base, ComparisonPeriod: comp}
	err := e.m.Investigate(context.Background(), e.id, c)
	if quarry.ErrorCode(err) != quarry.ECodeConflict {
		t.Fatalf("Investigate = %v; want %s", err, quarry.ECodeConflict)
	}
	if s := e.status(t); s.Status != investigation.StatusHasFiles {
		t.Errorf("status %s after a refused start; want %s", s.Status, investigation.StatusHasFiles)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "sessions", e.id, "context.json")); !os.IsNotExist(err) {
		t.Errorf("a refused start wrote context.json (%v)", err)
	}
}

// TestSessionInUseElsewhere: while another process holds a session (its
// query or its run), this process neither queries, deletes nor expires it;
// expiry waits for a later sweep.
func TestSessionInUseElsewhere(t *testing.T) {
	e := newQueryEnv(t)
	ctx := context.Background()
	other := claimInOtherProcess(t, e.dir, e.id)

	if _, err := e.m.Query(ctx, e.id, "SELECT 1"); quarry.ErrorCode(err) != quarry.ECodeConflict {
		t.Errorf("Query = %v; want %s", err, quarry.ECodeConflict)
	}
	if err := e.m.Delete(ctx, e.id); quarry.ErrorCode(err) != quarry.ECodeConflict {
		t.Errorf("Delete = %v; want %s", err, quarry.ECodeConflict)
	}
	e.clock.Add(25 * time.Hour)
	if n, err := e.m.Sweep(ctx); n != 0 || err != nil {
		t.Fatalf("Sweep = %d, %v; want the session left for later", n, err)
	}
	files, _ := filepath.Glob(filepath.Join(e.dir, "sessions", e.id, "files", "*.csv"))
	if len(files) != 2 {
		t.Fatalf("the sweep purged a session in use: %d files left", len(files))
	}

	other.Process.Kill()
	other.Wait()
	if n, err := e.m.Sweep(ctx); n != 1 || err != nil {
		t.Fatalf("Sweep after the other process died = %d, %v; want 1", n, err)
	}
}

// TestRunGivesUpItsClaimBeforeItsEnd: when a run's event stream has ended,
// the session can be claimed at once, by this process or another.
func TestRunGivesUpItsClaimBeforeItsEnd(t *testing.T) {
	e := newQueryEnv(t)
	ctx := context.Background()
	base, _ := quarry.ParseDateRange("2024-03-04..2024-03-04")
	comp, _ := quarry.ParseDateRange("2024-03-05..2024-03-06")
	_, live, cancel, err := func() ([]investigation.Event, <-chan investigation.Event, func(), error) {
		if err := e.m.Investigate(ctx, e.id, investigation.Context{MetricSQL: "SELECT SUM(amount) FROM orders_2024", BaselinePeriod: base, ComparisonPeriod: comp}); err != nil {
			return nil, nil, nil, err
		}
		return e.m.Subscribe(ctx, e.id)
	}()
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	for range live {
	}
	release, err := fsstore.New(e.dir, fsstore.Options{}).ClaimRun(e.id)
	if err != nil {
		t.Fatalf("claim after the run's end: %v", err)
	}
	release()
	if s := e.status(t); s.Status != investigation.StatusCompleted && s.Status != investigation.StatusFailed {
		t.Fatalf("status %s after the run's end", s.Status)
	}
}
