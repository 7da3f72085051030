package analyze_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/internal/budget"
)

// An analysis the memory watchdog ends fails with RESOURCE_LIMIT and its
// hint, whatever its running step made of the cancellation.
func TestResourceLimitEndsAnalysis(t *testing.T) {
	e := newEnv(t)
	data := writeCSV(t, "t.csv", "x\n1\n")
	e.a.Planner = planOf(analysis.Subtask{TaskID: "slow", Description: "a query that would run for minutes", ToolName: analysis.ToolSQL,
		Arguments: map[string]any{"query": "SELECT count(*) AS n FROM range(100000000000) a WHERE a.range % 7 = 3"}})
	// The watchdog reads the memory over the budget once the query runs.
	var once sync.Once
	started := make(chan struct{})
	e.a.Progress = func(ev analysis.Event) {
		if ev.Step == "task" {
			once.Do(func() { close(started) })
		}
	}
	g := budget.NewGuard(budget.GuardOptions{MemoryMB: 512, Interval: time.Millisecond, Read: func() budget.Usage {
		select {
		case <-started:
			return budget.Usage{RSS: 600 << 20}
		default:
			return budget.Usage{RSS: 100 << 20}
		}
	}})
	gctx, stop := context.WithCancel(context.Background())
	defer stop()
	go g.Run(gctx)
	ctx, done := g.Watch(context.Background(), "the analysis")
	defer done()
	res, err := e.a.Run(ctx, analysis.Request{Intent: "test", DataSources: []analysis.DataSource{csvSource(data)},
		Constraints: analysis.Constraints{TimeoutSeconds: 120}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != analysis.StatusFailed || res.Error == nil || res.Error.Code != quarry.ECodeResourceLimit || res.Error.Hint == "" {
		t.Fatalf("status %s, error %+v; want failed with RESOURCE_LIMIT and a hint", res.Status, res.Error)
	}
}
