package investigations

import (
	"context"
	"sync"

	"github.com/quarry-dev/quarry/agent/investigate"
)

// The engine budget is an internal/budget Pool, shared with the analyses
// when internal/app gives one (Config.Budget).

// openEngine opens an engine within the budget. Closing the engine gives
// its place back.
func (m *Service) openEngine(ctx context.Context) (investigate.Engine, error) {
	b := m.budget
	if err := b.Acquire(ctx, m.engines.evictOldest); err != nil {
		return nil, err
	}
	eng, err := m.cfg.NewEngine()
	if err != nil {
		b.Release()
		return nil, err
	}
	return &budgetedEngine{Engine: eng, free: b.Release}, nil
}

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
