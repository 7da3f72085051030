package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry"
)

// Plan states.
const (
	PlanDraft      = "draft"
	PlanValidated  = "validated"
	PlanExecuting  = "executing"
	PlanCompleted  = "completed"
	PlanAbandoned  = "abandoned"
	maxSubtasks    = 50
	maxTaskIDBytes = 64
)

// Subtask states.
const (
	TaskPending   = "pending"
	TaskRunning   = "running"
	TaskSucceeded = "succeeded"
	TaskFailed    = "failed"
	TaskSkipped   = "skipped" // a dependency failed
)

// Plan is an ordered set of subtasks forming a DAG.
type Plan struct {
	PlanID                string    `json:"plan_id"`
	RequestID             string    `json:"request_id"`
	Subtasks              []Subtask `json:"subtasks"`
	TotalEstimatedSeconds float64   `json:"total_estimated_seconds"`
	CreatedAt             string    `json:"created_at"`
	Reasoning             string    `json:"reasoning"`
	Status                string    `json:"status"`
}

// Subtask is one step of a plan: one tool call with its arguments.
type Subtask struct {
	TaskID               string         `json:"task_id"`
	Description          string         `json:"description"`
	ToolName             string         `json:"tool_name"`
	Dependencies         []string       `json:"dependencies"`
	Invariants           []string       `json:"invariants"`
	EstimatedCostSeconds float64        `json:"estimated_cost_seconds"`
	Arguments            map[string]any `json:"arguments"`
	// Deliverable is what the step's output is kept as, if anything:
	// tables (a result table), charts, reports or summary.
	Deliverable string `json:"deliverable,omitempty"`
	Status      string `json:"status"`
}

// Task returns the subtask with the given id, or nil.
func (p *Plan) Task(id string) *Subtask {
	for i := range p.Subtasks {
		if p.Subtasks[i].TaskID == id {
			return &p.Subtasks[i]
		}
	}
	return nil
}

// Validate checks the plan's rules: at least one subtask, unique ids,
// dependencies that exist and form no cycle, registered tools whose
// arguments fit their schemas, and a total estimated cost within
// timeoutSeconds. It sets TotalEstimatedSeconds and, when valid, the
// status "validated". Errors are INVALID and name the subtask.
func (p *Plan) Validate(tools Registry, timeoutSeconds int) error {
	if len(p.Subtasks) == 0 {
		return quarry.Errorf(quarry.ECodeInvalid, "the plan has no steps")
	}
	if len(p.Subtasks) > maxSubtasks {
		return quarry.Errorf(quarry.ECodeInvalid, "the plan has %d steps; at most %d", len(p.Subtasks), maxSubtasks)
	}
	ids := map[string]bool{}
	total := 0.0
	for _, t := range p.Subtasks {
		if t.TaskID == "" || len(t.TaskID) > maxTaskIDBytes || strings.ContainsFunc(t.TaskID, func(r rune) bool {
			return !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) {
			return quarry.Errorf(quarry.ECodeInvalid, "task id %q must be 1-%d letters, digits, _ or -", t.TaskID, maxTaskIDBytes)
		}
		if ids[t.TaskID] {
			return quarry.Errorf(quarry.ECodeInvalid, "two steps are called %s", t.TaskID)
		}
		ids[t.TaskID] = true
		if t.EstimatedCostSeconds < 0 {
			return quarry.Errorf(quarry.ECodeInvalid, "step %s has a negative estimated cost", t.TaskID)
		}
		total += t.EstimatedCostSeconds
	}
	for _, t := range p.Subtasks {
		tool, ok := tools.Tool(t.ToolName)
		if !ok {
			return quarry.Errorf(quarry.ECodeInvalid, "step %s uses the unknown tool %q; the tools are %s", t.TaskID, t.ToolName, strings.Join(tools.Names(), ", "))
		}
		for _, d := range t.Dependencies {
			if !ids[d] {
				return quarry.Errorf(quarry.ECodeInvalid, "step %s depends on %q, which is not a step of the plan", t.TaskID, d)
			}
			if d == t.TaskID {
				return quarry.Errorf(quarry.ECodeInvalid, "step %s depends on itself", t.TaskID)
			}
		}
		if err := tool.Check(t.Arguments); err != nil {
			return fmt.Errorf("step %s: %w", t.TaskID, err)
		}
		if in := inputOf(t.Arguments); in != "" && !slices.Contains(t.Dependencies, in) {
			return quarry.Errorf(quarry.ECodeInvalid, "step %s reads the output of %s but does not depend on it", t.TaskID, in)
		}
	}
	if cycle := p.cycle(); cycle != nil {
		return quarry.Errorf(quarry.ECodeInvalid, "the plan's steps depend on each other in a cycle: %s", strings.Join(cycle, " -> "))
	}
	p.TotalEstimatedSeconds = total
	if total > float64(timeoutSeconds) {
		return quarry.Errorf(quarry.ECodeInvalid, "the plan is estimated at %.1f s, over the %d s timeout", total, timeoutSeconds).
			WithHint("raise the timeout or ask for less")
	}
	p.Status = PlanValidated
	return nil
}

// inputOf is the task id a step reads its data from ("input" argument).
func inputOf(args map[string]any) string {
	s, _ := args["input"].(string)
	return s
}

// cycle returns one dependency cycle (its task ids, the first repeated at
// the end), or nil when the plan is acyclic.
func (p *Plan) cycle() []string {
	const (
		unseen = iota
		onPath
		done
	)
	state := map[string]int{}
	var path []string
	var visit func(id string) []string
	visit = func(id string) []string {
		switch state[id] {
		case onPath:
			i := slices.Index(path, id)
			return append(slices.Clone(path[i:]), id)
		case done:
			return nil
		}
		state[id] = onPath
		path = append(path, id)
		if t := p.Task(id); t != nil {
			for _, d := range t.Dependencies {
				if c := visit(d); c != nil {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		state[id] = done
		return nil
	}
	for _, t := range p.Subtasks {
		if c := visit(t.TaskID); c != nil {
			slices.Reverse(c) // dependencies point backwards; say it in run order
			return c
		}
	}
	return nil
}

// Levels groups the (validated, acyclic) plan's task ids into levels: each
// level's steps depend only on earlier levels, so they can run at once.
func (p *Plan) Levels() [][]string {
	level := map[string]int{}
	var depth func(id string) int
	depth = func(id string) int {
		if l, ok := level[id]; ok {
			return l
		}
		l := 0
		if t := p.Task(id); t != nil {
			for _, d := range t.Dependencies {
				l = max(l, depth(d)+1)
			}
		}
		level[id] = l
		return l
	}
	var out [][]string
	for _, t := range p.Subtasks {
		l := depth(t.TaskID)
		for len(out) <= l {
			out = append(out, nil)
		}
		out[l] = append(out[l], t.TaskID)
	}
	return out
}

// StepTable is the workspace table that holds the result of task id, for
// the steps after it to read.
func StepTable(taskID string) string {
	return "step_" + strings.ToLower(strings.ReplaceAll(taskID, "-", "_"))
}
