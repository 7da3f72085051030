// Package research is the research job's vocabulary: a question becomes a
// ResearchRequest, planned into SubQuestions, answered by SearchResults from
// which Facts are extracted, compared into Discrepancies, and written up as
// a NarrativeReport whose sections cite facts with [cite:fact-id] markers.
//
// The types follow the research-agent data model (their fields, enums,
// validation rules and status transitions); Validate methods and Move
// return *quarry.Error values (INVALID for input that breaks a rule,
// CONFLICT for a status change the state machine forbids). Store is the
// persistence contract that sqlite.Research implements.
package research

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
)

// Limits of the data model.
const (
	MinQueryChars       = 10
	MaxQueryChars       = 500
	MinSubQuestionChars = 10
	MaxSubQuestionChars = 200
	MinFactChars        = 10
	MaxFactChars        = 500
	MaxTitleChars       = 200
	MaxContentChars     = 10000
	// MaxDepth is how deep follow-up sub-questions may nest (0 = root).
	MaxDepth = 3
	// MaxResults is how many search results one sub-question keeps.
	MaxResults = 10
	// MaxPriority is the lowest priority (1 is the highest).
	MaxPriority = 10
	// MaxSections is how many sections a report may have.
	MaxSections = 10
)

// Depth is how thoroughly a request is researched.
type Depth string

// Depths.
const (
	DepthQuick         Depth = "quick"
	DepthStandard      Depth = "standard"
	DepthComprehensive Depth = "comprehensive"
)

// ParseDepth returns the depth s names; "" is standard. Errors: INVALID.
func ParseDepth(s string) (Depth, error) {
	switch d := Depth(strings.ToLower(strings.TrimSpace(s))); d {
	case "":
		return DepthStandard, nil
	case DepthQuick, DepthStandard, DepthComprehensive:
		return d, nil
	}
	return "", quarry.Errorf(quarry.ECodeInvalid, "unknown depth %q", s).WithHint("use quick, standard or comprehensive")
}

// SubQuestions returns how many sub-questions a plan of depth d has:
// 3-5 quick, 5-7 standard, 7-10 comprehensive.
func (d Depth) SubQuestions() (lo, hi int) {
	switch d {
	case DepthQuick:
		return 3, 5
	case DepthComprehensive:
		return 7, 10
	}
	return 5, 7
}

// FollowUps is how many levels of follow-up sub-questions depth d allows
// below the root questions: 1 for quick and standard, 2 for comprehensive.
func (d Depth) FollowUps() int {
	if d == DepthComprehensive {
		return 2
	}
	return 1
}

// Status is where a request is in its pipeline.
type Status string

// Statuses, in pipeline order; Failed may follow any of the first four.
const (
	StatusPlanning     Status = "planning"
	StatusExecuting    Status = "executing"
	StatusVerifying    Status = "verifying"
	StatusSynthesizing Status = "synthesizing"
	StatusCompleted    Status = "completed"
	StatusFailed       Status = "failed"
)

var transitions = map[Status][]Status{
	StatusPlanning:     {StatusExecuting, StatusFailed},
	StatusExecuting:    {StatusVerifying, StatusFailed},
	StatusVerifying:    {StatusSynthesizing, StatusFailed},
	StatusSynthesizing: {StatusCompleted, StatusFailed},
}

// Request is a user's research question.
type Request struct {
	ID        string    `json:"id"`
	Query     string    `json:"query"`
	Depth     Depth     `json:"depth_level"`
	UserID    string    `json:"user_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	Status    Status    `json:"status"`
	// CompletionTimeSeconds is set when the request completes.
	CompletionTimeSeconds *float64 `json:"completion_time_seconds,omitempty"`
	// Error says why a failed request failed.
	Error string `json:"error,omitempty"`
}

// NewRequest validates query and depth and returns a request in status
// planning. Errors: INVALID for a query outside 10-500 characters (after
// trimming) or an unknown depth.
func NewRequest(query, depth string, now time.Time) (*Request, error) {
	d, err := ParseDepth(depth)
	if err != nil {
		return nil, err
	}
	r := &Request{ID: quarry.NewID(), Query: strings.TrimSpace(query), Depth: d, CreatedAt: now.UTC(), Status: StatusPlanning}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return r, nil
}

// Validate checks the request's query, depth and status.
func (r *Request) Validate() error {
	if strings.TrimSpace(r.Query) == "" {
		return quarry.Errorf(quarry.ECodeInvalid, "the question is empty")
	}
	if err := checkLength("the question", r.Query, MinQueryChars, MaxQueryChars); err != nil {
		return err
	}
	if _, err := ParseDepth(string(r.Depth)); err != nil || r.Depth == "" {
		return quarry.Errorf(quarry.ECodeInvalid, "unknown depth %q", r.Depth).WithHint("use quick, standard or comprehensive")
	}
	if _, ok := transitions[r.Status]; !ok && r.Status != StatusCompleted && r.Status != StatusFailed {
		return quarry.Errorf(quarry.ECodeInvalid, "unknown status %q", r.Status)
	}
	return nil
}

// Move changes the request's status along the pipeline. Errors: CONFLICT
// for a move the state machine forbids (back, skipping a stage, or out of
// completed or failed).
func (r *Request) Move(to Status) error {
	for _, ok := range transitions[r.Status] {
		if ok == to {
			r.Status = to
			return nil
		}
	}
	return quarry.Errorf(quarry.ECodeConflict, "a research request that is %s cannot become %s", r.Status, to)
}

// checkLength returns INVALID unless s has lo to hi characters.
func checkLength(what, s string, lo, hi int) error {
	if n := utf8.RuneCountInString(s); n < lo || n > hi {
		return quarry.Errorf(quarry.ECodeInvalid, "%s is %d characters; it must be %d to %d", what, n, lo, hi)
	}
	return nil
}

func invalidf(format string, args ...any) error {
	return quarry.Errorf(quarry.ECodeInvalid, format, args...)
}
