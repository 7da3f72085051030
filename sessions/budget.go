package sessions

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quarry-dev/quarry/agent/investigate"
)

// The engine budget. Each SQL engine may use up to its own memory limit
// (internal/app gives each an equal part of the process's), so the process
// stays within its total by bounding how many engines are open at once:
// Config.MaxEngines. A caller beyond it first makes the query-engine cache
// give its idle engines back, then waits its turn (first come, first
// served) until an engine closes or its context ends.
type engineBudget struct {
	slots   chan struct{}
	waiting atomic.Int32
}

func newEngineBudget(n int) *engineBudget {
	return &engineBudget{slots: make(chan struct{}, n)}
}

// openEngine opens an engine within the budget. Closing the engine gives
// its place back.
func (m *Manager) openEngine(ctx context.Context) (investigate.Engine, error) {
	b := m.budget
	if err := b.acquire(ctx, m.engines.evictOldest); err != nil {
		return nil, err
	}
	eng, err := m.cfg.NewEngine()
	if err != nil {
		<-b.slots
		return nil, err
	}
	return &budgetedEngine{Engine: eng, free: func() { <-b.slots }}, nil
}

// acquire takes a place. While none is free it has the cache close its
// least recently used idle engine (evict reports whether there was one),
// one at a time; with none left it waits, and asks again every second, for
// an engine cached by a query that finished just as the wait began.
func (b *engineBudget) acquire(ctx context.Context, evict func() bool) error {
	for {
		select {
		case b.slots <- struct{}{}:
			return nil
		default:
		}
		if !evict() {
			break
		}
	}
	b.waiting.Add(1)
	defer b.waiting.Add(-1)
	for {
		evict()
		select {
		case b.slots <- struct{}{}:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// crowded reports whether someone waits for a place in the budget, in which
// case an engine done with its work is closed rather than cached.
func (b *engineBudget) crowded() bool { return b.waiting.Load() > 0 }

// budgetedEngine gives its place in the budget back when it closes.
type budgetedEngine struct {
	investigate.Engine
	once sync.Once
	free func()
}

func (e *budgetedEngine) Close() error {
	err := e.Engine.Close()
	e.once.Do(e.free)
	return err
}
