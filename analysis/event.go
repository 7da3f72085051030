package analysis

import "time"

// Event is one progress report of a running
type Event struct {
	Time    time.Time `json:"time"`
	Step    string    `json:"step"` // "plan", "task", "artifact", "done", "failed"
	TaskID  string    `json:"task_id,omitempty"`
	Status  string    `json:"status,omitempty"`
	Message string    `json:"message"`
	// Plan is the validated plan, on the "plan" event.
	Plan *Plan `json:"plan,omitempty"`
}
