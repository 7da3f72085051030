package investigations_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/investigate"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/duckdb"
	"github.com/quarry-dev/quarry/fsstore"
	"github.com/quarry-dev/quarry/investigations"
	"github.com/quarry-dev/quarry/sqlite"
)

// countedEngines opens real engines and counts how many are open at once.
// While gate is set, loading a file waits for it to close.
type countedEngines struct {
	mu         sync.Mutex
	open, peak int
	loads      int // files read by an engine
	gate       chan struct{}
}

func (c *countedEngines) newEngine() (investigate.Engine, error) {
	eng, err := duckdb.Open(duckdb.Options{MemoryLimit: "256MB"})
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.open++
	c.peak = max(c.peak, c.open)
	return &countedEngine{Engine: eng, c: c, gate: c.gate}, nil
}

func (c *countedEngines) counts() (open, peak int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.open, c.peak
}

type countedEngine struct {
	investigate.Engine
	c    *countedEngines
	gate chan struct{}
	once sync.Once
}

func (e *countedEngine) LoadCSV(ctx context.Context, table, path string) (*quarry.FileSchema, int64, error) {
	if e.gate != nil {
		select {
		case <-e.gate:
		case <-ctx.Done():
			return nil, 0, ctx.Err()
		}
	}
	e.c.mu.Lock()
	e.c.loads++
	e.c.mu.Unlock()
	return e.Engine.LoadCSV(ctx, table, path)
}

func (e *countedEngine) Close() error {
	e.once.Do(func() {
		e.c.mu.Lock()
		e.c.open--
		e.c.mu.Unlock()
	})
	return e.Engine.Close()
}

func newBudgetManager(t *testing.T, maxEngines int, engines *countedEngines) *investigations.Service {
	t.Helper()
	dir := t.TempDir()
	return newManager(t, dir, fsstore.New(dir, fsstore.Options{}), engines.newEngine, maxEngines)
}

// newManager wires a manager over dir and store by hand, with its own
// engine factory, for tests that replace a part of the stack.
func newManager(t *testing.T, dir string, store investigations.Store, newEngine func() (investigate.Engine, error), maxEngines int) *investigations.Service {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(dir, "quarry.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	m := investigations.New(investigations.Config{
		Store:     store,
		NewEngine: newEngine,
		OpenAudit: func(id string) (investigations.Audit, error) {
			path, err := store.Path(id, "audit.jsonl")
			if err != nil {
				return nil, err
			}
			return audit.Open(path, id, nil)
		},
		TableName:  duckdb.TableName,
		Index:      db,
		MaxEngines: maxEngines,
	})
	t.Cleanup(func() { m.Close() })
	return m
}

func sessionWithFile(t *testing.T, m *investigations.Service, amount int) string {
	t.Helper()
	ctx := context.Background()
	s, err := m.Create(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf("day,amount\n2024-03-04,%d\n2024-03-05,%d\n", amount, amount)
	if _, err := m.AddFile(ctx, s.SessionID, "orders.csv", "", strings.NewReader(body)); err != nil {
		t.Fatal(err)
	}
	return s.SessionID
}

// Queries, upload checks and runs share one bound on open engines: five
// concurrent queries over five sessions never have more than two engines
// open, each answers, and the engines the cache keeps give way to an
// upload that needs a place.
func TestEngineBudget(t *testing.T) {
	engines := &countedEngines{}
	m := newBudgetManager(t, 2, engines)
	var ids []string
	for i := range 5 {
		ids = append(ids, sessionWithFile(t, m, i+1))
	}
	var wg sync.WaitGroup
	errs := make([]error, len(ids))
	sums := make([]float64, len(ids))
	for i, id := range ids {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := m.Query(ctx, id, "SELECT SUM(amount) FROM orders")
			if err == nil {
				sums[i] = quarry.AsFloat(res.Rows[0][0])
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i := range ids {
		if errs[i] != nil || sums[i] != float64(2*(i+1)) {
			t.Errorf("query %d: sum %v, %v; want %d", i, sums[i], errs[i], 2*(i+1))
		}
	}
	if _, peak := engines.counts(); peak > 2 {
		t.Errorf("%d engines were open at once; the budget is 2", peak)
	}
	// Two more queries, one after the other, fill the cache: it holds
	// every place.
	for _, id := range ids[:2] {
		if _, err := m.Query(context.Background(), id, "SELECT 1"); err != nil {
			t.Fatal(err)
		}
	}
	if open, _ := engines.counts(); open != 2 {
		t.Fatalf("%d engines open after the queries; want the 2 cached", open)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := m.Create(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.AddFile(ctx, s.SessionID, "more.csv", "", strings.NewReader("day,amount\n2024-03-04,1\n")); err != nil {
		t.Fatalf("an upload with the cache full: %v; want the cache to give way", err)
	}
	if _, peak := engines.counts(); peak > 2 {
		t.Errorf("%d engines were open at once; the budget is 2", peak)
	}
}

// A caller waits its turn while every place is taken, and gives up when
// its context ends, leaving nothing open.
func TestEngineBudgetWaitEndsWithContext(t *testing.T) {
	engines := &countedEngines{}
	m := newBudgetManager(t, 1, engines)
	id := sessionWithFile(t, m, 3)
	// An upload holds the only place while its file loads.
	engines.mu.Lock()
	engines.gate = make(chan struct{})
	engines.mu.Unlock()
	s, err := m.Create(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	uploaded := make(chan error, 1)
	go func() {
		_, err := m.AddFile(context.Background(), s.SessionID, "slow.csv", "", strings.NewReader("day,amount\n2024-03-04,1\n"))
		uploaded <- err
	}()
	for {
		if open, _ := engines.counts(); open == 1 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := m.Query(ctx, id, "SELECT 1"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("query with every place taken = %v; want it to wait until its deadline", err)
	}
	engines.mu.Lock()
	close(engines.gate)
	engines.gate = nil
	engines.mu.Unlock()
	if err := <-uploaded; err != nil {
		t.Fatalf("the upload holding the place: %v", err)
	}
	// Its place is free again: the query runs.
	res, err := m.Query(context.Background(), id, "SELECT SUM(amount) FROM orders")
	if err != nil || quarry.AsFloat(res.Rows[0][0]) != 6 {
		t.Fatalf("query after the upload = %v, %v; want 6", res, err)
	}
	if _, peak := engines.counts(); peak > 1 {
		t.Errorf("%d engines were open at once; the budget is 1", peak)
	}
}
