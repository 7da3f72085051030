package analyze_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/llmtest"
)

// A model writes the plan; an invalid one goes back with its errors and
// the fixed one runs; a model that keeps failing leaves the plan to the
// offline planner.
func TestModelPlans(t *testing.T) {
	bad := map[string]any{"reasoning": "one query", "subtasks": []any{map[string]any{
		"task_id": "by_state", "description": "Amount by state", "tool_name": "sql.run", "dependencies": []any{},
		"arguments":              map[string]any{"query": "SELECT state, SUM(amount) AS amount FROM sales GROUP BY state", "rows": 10},
		"estimated_cost_seconds": 1, "deliverable": "tables"}}}
	good := map[string]any{"reasoning": "one query and its chart", "subtasks": []any{
		map[string]any{"task_id": "by_state", "description": "Amount by state", "tool_name": "sql.run", "dependencies": []any{},
			"arguments": map[string]any{"query": "SELECT state, SUM(amount) AS amount FROM sales GROUP BY state ORDER BY state"}, "estimated_cost_seconds": 1, "deliverable": "tables"},
		map[string]any{"task_id": "chart", "description": "Chart", "tool_name": "plot.render", "dependencies": []any{"by_state"},
			"arguments": map[string]any{"input": "by_state", "type": "bar", "x_col": "state", "y_col": "amount", "title": "Amount by state"}, "estimated_cost_seconds": 1, "deliverable": "charts"},
	}}
	replies := []*llm.Response{llmtest.JSON(bad), llmtest.JSON(good)}
	m := &llmtest.Model{ModelName: "test/planner", Reply: func(req *llm.Request) (*llm.Response, error) {
		r := replies[0]
		replies = replies[1:]
		return r, nil
	}}
	e := newEnv(t)
	e.a.Model = m
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: "amount by state, as a chart", DataSources: []analysis.DataSource{csvSource(salesCSV)}})
	if err != nil || res.Status != analysis.StatusCompleted {
		t.Fatalf("%v %v", res, err)
	}
	calls := m.Calls()
	if len(calls) != 2 || !strings.Contains(calls[1].Request.Messages[2].Content, `unknown argument "rows"`) {
		t.Fatalf("%d calls; the repair said %q", len(calls), calls[len(calls)-1].Request.Messages[len(calls[len(calls)-1].Request.Messages)-1].Content)
	}
	if !strings.Contains(calls[0].Request.Messages[0].Content, "state (string, values: Arizona, California, Nevada, New York, Texas)") {
		t.Errorf("the prompt lacks the table's columns:\n%s", calls[0].Request.Messages[0].Content)
	}
	if len(res.Plan.Subtasks) != 2 || res.Plan.Reasoning != "one query and its chart" {
		t.Errorf("plan %+v; want the model's", res.Plan)
	}
	// Both calls are in the shared log as the planner's, of this request,
	// each a tool_called and an observation_recorded entry, and the log
	// verifies.
	var planner []string
	for _, ev := range readLog(t, e.store.AuditLog()) {
		if ev.Actor != "planner" || ev.EventType == quarry.EventPlanCreated {
			continue
		}
		k := ev.EventType
		if args, ok := ev.EventData["arguments"].(map[string]any); ok {
			k += fmt.Sprintf(" %v attempt %v", args["purpose"], args["attempt_number"])
		}
		if ev.RequestID != res.RequestID {
			t.Errorf("planner entry %d is for request %q; want %q", ev.SequenceNumber, ev.RequestID, res.RequestID)
		}
		planner = append(planner, k)
	}
	want := []string{"tool_called analysis_plan attempt 1", "observation_recorded", "tool_called analysis_plan attempt 2", "observation_recorded"}
	if !reflect.DeepEqual(planner, want) {
		t.Errorf("planner entries %q; want %q", planner, want)
	}
	if rep, err := audit.CheckIn(e.store.AuditLog(), e.dir); err != nil || !rep.OK() {
		t.Errorf("audit check: %+v, %v", rep, err)
	}

	// A model that is down: the offline planner plans.
	e2 := newEnv(t)
	e2.a.Model = &llmtest.Model{ModelName: "test/down", Reply: llmtest.Fail(errors.New("unavailable"))}
	res, err = e2.a.Run(context.Background(), analysis.Request{Intent: "amount by state", DataSources: []analysis.DataSource{csvSource(salesCSV)}})
	if err != nil || res.Status != analysis.StatusCompleted || !strings.HasPrefix(res.Plan.Reasoning, "Offline planner") {
		t.Fatalf("with the model down: %v %v", res.Plan.Reasoning, err)
	}
}
