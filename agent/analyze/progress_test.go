package analyze_test

import (
	"context"
	"slices"
	"testing"

	"github.com/quarry-dev/quarry/analysis"
)

// TestProgressOneCallAtATime: steps with no dependency between them run
// at once, yet Progress hears their events one call at a time, so that a
// caller may write them to a plain writer (quarry analyze prints them to
// its standard error). The race detector (.ci/race) fails this test when
// two calls overlap; without it, every step's events are still there.
func TestProgressOneCallAtATime(t *testing.T) {
	e := newEnv(t)
	data := writeCSV(t, "orders.csv", "order,region,amount\n1,west,10\n2,east,20\n3,west,5\n")
	var steps []analysis.Subtask
	for _, id := range []string{"a", "b", "c", "d"} {
		steps = append(steps, analysis.Subtask{TaskID: id, Description: "step " + id, ToolName: analysis.ToolSQL,
			Arguments: map[string]any{"query": "SELECT region, SUM(amount) AS v FROM orders GROUP BY region"}, Deliverable: analysis.DeliverTables})
	}
	e.a.Planner = planOf(steps...)
	var heard []string // unguarded: Progress must not be called twice at once
	e.a.Progress = func(ev analysis.Event) {
		if ev.Step == "task" {
			heard = append(heard, ev.TaskID+" "+ev.Status)
		}
	}
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: "test", DataSources: []analysis.DataSource{csvSource(data)},
		Constraints: analysis.Constraints{RowLimit: 100}, Deliverables: []string{analysis.DeliverTables}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s; want completed", res.Status)
	}
	for _, s := range steps {
		for _, status := range []string{analysis.TaskRunning, analysis.TaskSucceeded} {
			if !slices.Contains(heard, s.TaskID+" "+status) {
				t.Errorf("Progress never heard step %s %s; heard %q", s.TaskID, status, heard)
			}
		}
	}
}
