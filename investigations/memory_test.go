package investigations_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/investigate"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/duckdb"
	"github.com/quarry-dev/quarry/fsstore"
	"github.com/quarry-dev/quarry/internal/budget"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/investigations"
	"github.com/quarry-dev/quarry/sqlite"
	"github.com/quarry-dev/quarry/web"
)

// runawayCap bounds what a runaway engine allocates before it gives up,
// so that a watchdog that never ends it fails the test rather than the
// machine.
const runawayCap = 1 << 30

// runawayEngines open real engines whose queries, once runaway is set,
// read a result that grows without end into the Go heap, as a query of a
// huge table into memory would, checking their context between chunks.
type runawayEngines struct {
	runaway atomic.Bool
	started chan struct{} // closed when a runaway query starts
	once    atomic.Bool
}

func (r *runawayEngines) newEngine() (investigate.Engine, error) {
	eng, err := duckdb.Open(duckdb.Options{MemoryLimit: "256MB"})
	if err != nil {
		return nil, err
	}
	return &runawayEngine{Engine: eng, r: r}, nil
}

type runawayEngine struct {
	investigate.Engine
	r *runawayEngines
}

// grow allocates 1 MB chunks and keeps them until ctx ends, returning
// the context's cause as the real engine does.
func (e *runawayEngine) grow(ctx context.Context) error {
	if e.r.once.CompareAndSwap(false, true) {
		close(e.r.started)
	}
	var held [][]byte
	for len(held) < runawayCap>>20 {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		chunk := make([]byte, 1<<20)
		for i := 0; i < len(chunk); i += 4096 {
			chunk[i] = 1
		}
		held = append(held, chunk)
		time.Sleep(time.Millisecond)
	}
	return errors.New("the runaway query was never stopped")
}

func (e *runawayEngine) Query(ctx context.Context, sql string) (*quarry.QueryResult, error) {
	if e.r.runaway.Load() {
		return nil, e.grow(ctx)
	}
	return e.Engine.Query(ctx, sql)
}

func (e *runawayEngine) QueryFunc(ctx context.Context, sql string, fn func([]any) error) error {
	if e.r.runaway.Load() {
		return e.grow(ctx)
	}
	return e.Engine.QueryFunc(ctx, sql, fn)
}

// startGuard runs a watchdog whose budget is what the process holds now
// and 128 MB more.
func startGuard(t *testing.T) *budget.Guard {
	t.Helper()
	u := budget.ReadUsage()
	g := budget.NewGuard(budget.GuardOptions{MemoryMB: max(u.RSS, u.GoHeap)>>20 + 128})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); g.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return g
}

// TestMemoryRunawayInvestigation is issue 20's "done when": an
// investigation whose query allocates without end is ended by the memory
// watchdog with RESOURCE_LIMIT, its session says so, and the server
// answers for another session while it runs and after.
func TestMemoryRunawayInvestigation(t *testing.T) {
	dir := t.TempDir()
	store := fsstore.New(dir, fsstore.Options{})
	db, err := sqlite.Open(filepath.Join(dir, "quarry.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	engines := &runawayEngines{started: make(chan struct{})}
	m := investigations.New(investigations.Config{
		Store:     store,
		NewEngine: engines.newEngine,
		OpenAudit: func(id string) (investigations.Audit, error) {
			path, err := store.Path(id, "audit.jsonl")
			if err != nil {
				return nil, err
			}
			return audit.Open(path, id, nil)
		},
		TableName: duckdb.TableName,
		Index:     db,
		Guard:     startGuard(t),
	})
	t.Cleanup(func() { m.Close() })
	srv := httptest.NewServer(web.New(m, web.Options{}))
	t.Cleanup(srv.Close)

	ctx := context.Background()
	other := sessionWithFile(t, m, 1)
	runaway := sessionWithPeriods(t, m)
	engines.runaway.Store(true)
	base, _ := quarry.ParseDateRange("2024-03-01..2024-03-31")
	cmp, _ := quarry.ParseDateRange("2024-04-01..2024-04-30")
	if err := m.Investigate(ctx, runaway, investigation.Context{
		MetricSQL: "SELECT SUM(amount) FROM orders", BaselinePeriod: base, ComparisonPeriod: cmp,
	}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-engines.started:
	case <-time.After(60 * time.Second):
		t.Fatal("the investigation never ran its query")
	}
	// While it runs, the server answers for another session.
	if code, _ := getSession(t, srv.URL, other); code != http.StatusOK {
		t.Fatalf("GET another session during the runaway = %d; want 200", code)
	}
	var s sessionJSON
	deadline := time.Now().Add(60 * time.Second) // a hang guard only
	for {
		var code int
		code, s = getSession(t, srv.URL, runaway)
		if code != http.StatusOK {
			t.Fatalf("GET the runaway's session = %d; want 200", code)
		}
		if s.Status != string(investigation.StatusRunning) || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if s.Status != string(investigation.StatusFailed) || s.Error == nil || s.Error.Code != quarry.ECodeResourceLimit {
		t.Fatalf("the runaway's session = %+v; want failed with RESOURCE_LIMIT", s)
	}
	if !strings.HasPrefix(s.Error.Message, "the investigation was stopped: the process's memory use (") || !strings.Contains(s.Error.Hint, "--memory-mb") {
		t.Errorf("error %+v; want the investigation stopped for the process's memory, with a hint naming --memory-mb", s.Error)
	}
	if code, _ := getSession(t, srv.URL, other); code != http.StatusOK {
		t.Fatalf("GET another session after the runaway = %d; want 200", code)
	}

	// A runaway query ends with RESOURCE_LIMIT too, and the next query
	// of the same session answers.
	_, err = m.Query(ctx, other, "SELECT SUM(amount) FROM orders")
	if quarry.ErrorCode(err) != quarry.ECodeResourceLimit {
		t.Fatalf("runaway Query = %v; want RESOURCE_LIMIT", err)
	}
	var qe *quarry.Error
	if !errors.As(err, &qe) || qe.Hint == "" || !strings.HasPrefix(qe.Message, "the query was stopped") {
		t.Errorf("runaway Query error = %#v; want the query stopped, with a hint", err)
	}
	engines.runaway.Store(false)
	res, err := m.Query(ctx, other, "SELECT SUM(amount) FROM orders")
	if err != nil || len(res.Rows) != 1 {
		t.Fatalf("Query after the runaway = %v, %v; want an answer", res, err)
	}
}

// sessionWithPeriods is a session with a file of rows in March and April
// 2024, ready to investigate.
func sessionWithPeriods(t *testing.T, m *investigations.Service) string {
	t.Helper()
	ctx := context.Background()
	s, err := m.Create(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("day,region,amount\n")
	for _, day := range []string{"2024-03-04", "2024-03-11", "2024-04-08", "2024-04-15"} {
		for _, region := range []string{"north", "south"} {
			b.WriteString(day + "," + region + ",10\n")
		}
	}
	if _, err := m.AddFile(ctx, s.SessionID, "orders.csv", "", strings.NewReader(b.String())); err != nil {
		t.Fatal(err)
	}
	return s.SessionID
}

type sessionJSON struct {
	Status string            `json:"status"`
	Error  *quarry.ErrorInfo `json:"error"`
}

func getSession(t *testing.T, base, id string) (int, sessionJSON) {
	t.Helper()
	res, err := http.Get(base + "/api/sessions/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var s sessionJSON
	json.NewDecoder(res.Body).Decode(&s)
	return res.StatusCode, s
}
