package investigation

import (
	"fmt"
	"time"

	"github.com/quarry-dev/quarry"
)

// Status is an investigation's place in the state machine:
// created -> has_files -> running -> completed | failed; expired from any.
type Status string

const (
	StatusCreated   Status = "created"
	StatusHasFiles  Status = "has_files"
	StatusRunning   Status = "running"
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
	StatusExpired   Status = "expired"
)

// Investigation is one investigation, stored as metadata.json: the
// specification's Session entity (its id keeps the name session_id, and
// the API its path /api/sessions).
type Investigation struct {
	SessionID   string    `json:"session_id"`
	Status      Status    `json:"status"`
	CreatedAt   time.Time `json:"created_at"`
	ExpiresAt   time.Time `json:"expires_at"`
	FileCount   int       `json:"file_count"`
	ReportReady bool      `json:"report_ready"`
	// Outcome is "completed" or "no_findings" once the run has finished.
	Outcome string `json:"outcome,omitempty"`
	// Error holds the code and message of the failure of a failed session.
	Error *quarry.ErrorInfo `json:"error,omitempty"`
	// StartedAt and FinishedAt bound the investigation run.
	StartedAt  *time.Time `json:"started_at,omitempty"`
	FinishedAt *time.Time `json:"finished_at,omitempty"`
	// OwnerID is the id of the user who created the investigation (a
	// room.User's); empty for one made before investigations had owners,
	// or by the CLI or MCP, which act as the local owner.
	OwnerID string `json:"owner_id,omitempty"`
}

// UploadedFile is a CSV file and its metadata, stored as
// files/{file_id}_meta.json beside files/{file_id}.csv.
type UploadedFile struct {
	FileID       string             `json:"file_id"`
	SessionID    string             `json:"session_id"`
	OriginalName string             `json:"original_name"`
	Description  string             `json:"description"`
	Path         string             `json:"path"`
	TableName    string             `json:"table_name"`
	RowCount     int64              `json:"row_count"`
	SizeBytes    int64              `json:"size_bytes"`
	Schema       *quarry.FileSchema `json:"schema,omitempty"`
	UploadedAt   time.Time          `json:"uploaded_at"`
}

// Context is what the user asked, stored as context.json: the
// specification's InvestigationContext entity.
type Context struct {
	SessionID           string           `json:"session_id"`
	BusinessContext     string           `json:"business_context"`
	MetricSQL           string           `json:"metric_sql"`
	BaselinePeriod      quarry.DateRange `json:"baseline_period"`
	ComparisonPeriod    quarry.DateRange `json:"comparison_period"`
	InvestigationPrompt string           `json:"investigation_prompt"`
	// TimeColumn optionally names the time column as TABLE.COLUMN.
	TimeColumn string `json:"time_column,omitempty"`
	// TimeFormat optionally says how the time column's text reads, as a
	// strptime layout ("%d/%m/%Y"), or for a column of numbers "%Y"
	// (years), "%s" (epoch seconds) or "%ms" (epoch milliseconds). It
	// overrides the layout detected from the values.
	TimeFormat string `json:"time_format,omitempty"`
	// IgnoreColumns names columns the investigation leaves out (never a
	// segment, never checked), each as COLUMN or TABLE.COLUMN.
	IgnoreColumns []string  `json:"ignore_columns,omitempty"`
	SubmittedAt   time.Time `json:"submitted_at"`
}

// MaxIgnoredColumns bounds Context.IgnoreColumns.
const MaxIgnoredColumns = 200

// Validate checks the fields the user typed, in the order a form shows
// them, and returns the first problem.
func (c *Context) Validate() error {
	if err := quarry.CheckText("business context", c.BusinessContext, quarry.MaxBusinessContextLen, quarry.ECodeInvalid); err != nil {
		return err
	}
	if c.MetricSQL == "" {
		return quarry.Errorf(quarry.ECodeMetricSQLRequired, "a metric definition is required").
			WithHint("give the metric as SQL, for example SELECT SUM(amount) FROM orders")
	}
	if err := quarry.CheckText("metric SQL", c.MetricSQL, quarry.MaxMetricSQLLen, quarry.ECodeInvalidMetricSQL); err != nil {
		return err
	}
	if err := c.BaselinePeriod.Validate("baseline"); err != nil {
		return err
	}
	if err := c.ComparisonPeriod.Validate("comparison"); err != nil {
		return err
	}
	if err := quarry.CheckText("investigation prompt", c.InvestigationPrompt, quarry.MaxInvestigationPrompt, quarry.ECodeInvalid); err != nil {
		return err
	}
	if err := quarry.CheckText("time column", c.TimeColumn, quarry.MaxOriginalNameLen, quarry.ECodeInvalidTimeColumn); err != nil {
		return err
	}
	if len(c.IgnoreColumns) > MaxIgnoredColumns {
		return quarry.Errorf(quarry.ECodeInvalid, "%d columns to ignore; at most %d", len(c.IgnoreColumns), MaxIgnoredColumns)
	}
	for _, name := range c.IgnoreColumns {
		if err := quarry.CheckText("column to ignore", name, quarry.MaxOriginalNameLen, quarry.ECodeInvalid); err != nil {
			return err
		}
	}
	return quarry.CheckText("time format", c.TimeFormat, quarry.MaxTimeFormatLen, quarry.ECodeInvalidTimeColumn)
}

// Describe returns a one-line summary of the two periods.
func (c *Context) Describe() string {
	return fmt.Sprintf("baseline %s vs comparison %s", c.BaselinePeriod, c.ComparisonPeriod)
}

// transitions lists the moves the state machine allows; expired is
// reachable from every state and handled in Move.
var transitions = map[Status][]Status{
	StatusCreated:   {StatusHasFiles},
	StatusHasFiles:  {StatusHasFiles, StatusCreated, StatusRunning},
	StatusRunning:   {StatusCompleted, StatusFailed},
	StatusCompleted: {},
	StatusFailed:    {},
}

// Move changes the investigation's status if the state machine allows it, and
// returns CONFLICT otherwise.
func (s *Investigation) Move(to Status) error {
	if to == StatusExpired && s.Status != StatusExpired {
		s.Status = to
		return nil
	}
	for _, ok := range transitions[s.Status] {
		if ok == to {
			s.Status = to
			return nil
		}
	}
	return quarry.Errorf(quarry.ECodeConflict, "a session that is %s cannot become %s", s.Status, to)
}
