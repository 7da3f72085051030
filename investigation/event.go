package investigation

import "time"

// Event is one progress report of a running
type Event struct {
	Time      time.Time `json:"time"`
	Step      string    `json:"step"`                // load, schema, metric, plan, hypotheses, loop, explain, memory, report, done
	Message   string    `json:"message"`             // one line for a person
	Iteration int       `json:"iteration,omitempty"` // memory-loop iteration, 1-based
	Decision  string    `json:"decision,omitempty"`  // the loop's decision
	Finding   string    `json:"finding,omitempty"`   // the condensed finding
}
