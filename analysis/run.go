package analysis

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry"
)

// ToolCall is one attempt at a subtask's tool.
type ToolCall struct {
	CallID        string         `json:"call_id"`
	TaskID        string         `json:"task_id"`
	ToolName      string         `json:"tool_name"`
	Arguments     map[string]any `json:"arguments"`
	Timestamp     string         `json:"timestamp"`
	AttemptNumber int            `json:"attempt_number"`
}

// Observation statuses.
const (
	ObsSuccess       = "success"
	ObsError         = "error"
	ObsTimeout       = "timeout"
	ObsResourceLimit = "resource_limit"
)

// Error categories, for repair before the next attempt (FR-029).
const (
	CategorySQLSyntax         = "sql_syntax"
	CategoryTypeMismatch      = "type_mismatch"
	CategoryMissingColumn     = "missing_column"
	CategoryResourceExhausted = "resource_exhausted"
)

// Observation is the result of one tool call.
type Observation struct {
	ObservationID        string  `json:"observation_id"`
	CallID               string  `json:"call_id"`
	TaskID               string  `json:"task_id"`
	Status               string  `json:"status"`
	Data                 any     `json:"data"`
	ErrorMessage         *string `json:"error_message"`
	ErrorCategory        *string `json:"error_category"`
	ExecutionTimeSeconds float64 `json:"execution_time_seconds"`
	RowCount             *int    `json:"row_count"`
	Timestamp            string  `json:"timestamp"`
}

// Artifact types.
const (
	ArtifactTable   = "table"
	ArtifactChart   = "chart"
	ArtifactReport  = "report"
	ArtifactSummary = "summary"
)

// Artifact is a table, chart, report or summary written for a request.
type Artifact struct {
	ArtifactID   string         `json:"artifact_id"`
	RequestID    string         `json:"request_id"`
	ArtifactType string         `json:"artifact_type"`
	TaskID       string         `json:"task_id,omitempty"`
	ContentRef   string         `json:"content_ref"`
	ContentHash  string         `json:"content_hash"`
	Metadata     map[string]any `json:"metadata"`
	SizeBytes    int64          `json:"size_bytes"`
	CreatedAt    string         `json:"created_at"`
}

// Result is everything an analysis produced, as `quarry analyze --json`
// prints it and the API returns it.
type Result struct {
	RequestID    string        `json:"request_id"`
	Status       string        `json:"status"`
	Request      *Request      `json:"request,omitempty"`
	Plan         *Plan         `json:"plan"`
	Calls        []ToolCall    `json:"tool_calls,omitempty"`
	Observations []Observation `json:"observations"`
	Artifacts    []Artifact    `json:"artifacts"`
	Summary      string        `json:"summary"`
	// Undelivered says which requested deliverables could not be
	// produced and why (partial_success).
	Undelivered []string `json:"undelivered,omitempty"`
	RecipeID    string   `json:"recipe_id,omitempty"`
	// RecipeNote says which recipes were considered, reused or skipped
	// and why.
	RecipeNote string `json:"recipe_note,omitempty"`
	// ReplayOf is the request a replay re-ran.
	ReplayOf string            `json:"replay_of,omitempty"`
	AuditLog string            `json:"audit_log"`
	Error    *quarry.ErrorInfo `json:"error,omitempty"`
	// Clarification says how the request was read when it could not be
	// answered as asked (status failed, error NEEDS_CLARIFICATION): what
	// was understood, what was not, and the nearest columns and values.
	Clarification *Clarification `json:"clarification,omitempty"`
}

// Clarification is how a request was read, for one that could not be
// answered as asked.
type Clarification struct {
	// Understood are the phrases applied, each with what it became
	// ("high temperature -> temp_max", "2015 -> year = 2015").
	Understood []string `json:"understood"`
	// NotUnderstood are the words that would change the answer and that
	// could not be applied.
	NotUnderstood []UnknownWord `json:"not_understood"`
}

// UnknownWord is one word or phrase of a request that could not be
// applied, why, and the nearest things the data or the tools have.
type UnknownWord struct {
	Word string `json:"word"`
	// Reason says why in words ("no column or value is called that",
	// "no tool forecasts").
	Reason string `json:"reason,omitempty"`
	// Nearest are the closest column names or values, best first.
	Nearest []string `json:"nearest,omitempty"`
}

// Key is a many-to-one join between two tables of an analysis: every
// value of FromTable.FromColumn (or nearly) names one row of ToTable by
// ToColumn (flights.origin -> airports.iata).
type Key struct {
	FromTable  string `json:"from_table"`
	FromColumn string `json:"from_column"`
	ToTable    string `json:"to_table"`
	ToColumn   string `json:"to_column"`
}

// SourceTable is one table of a source's schema.
type SourceTable struct {
	Name string `json:"name"`
	// Source is the database source holding the table; "" for the
	// workspace (file sources).
	Source  string         `json:"source,omitempty"`
	Rows    int64          `json:"rows"`
	Columns []SourceColumn `json:"columns"`
	// From is the SQL a planner reads the table from when it is not a
	// table of its own: a table widened with the columns of the tables its
	// keys join ("" for a table as loaded).
	From string `json:"from,omitempty"`
	// Joined are the tables From joins in.
	Joined []string `json:"joined,omitempty"`
	// Aliases are other names the data gives the table: the name of the
	// file it was loaded from when the request named it otherwise
	// ("seattle-weather" for a table called weather). A request naming
	// them names the table.
	Aliases []string `json:"aliases,omitempty"`
}

// SourceColumn is one column: its name and its type in the source
// (normalized to quarry's data types for the fingerprint).
type SourceColumn struct {
	Name string `json:"name"`
	Type string `json:"type"` // integer, float, string, date, timestamp, boolean
	// Values are the distinct values of a low-cardinality text column.
	Values []string `json:"values,omitempty"`
	// Min and Max are the first and last dates of a date column, the
	// lowest and highest number of a numeric one.
	Min string `json:"min,omitempty"`
	Max string `json:"max,omitempty"`
	// Within is the column that tells apart rows sharing a value of this
	// one, a label that repeats (county names across states): grouped
	// with it, each group is one thing. "" for a column whose values each
	// name one thing, or whose repeats are the same thing.
	Within string `json:"within,omitempty"`
	// Via is the table a column joined in comes from ("" for the table's
	// own columns).
	Via string `json:"via,omitempty"`
	// Blanks is how many rows have no value in a date column (0 when
	// none, or not known).
	Blanks int64 `json:"blanks,omitempty"`
}

// Fingerprint is the SHA-256 (hex) of a schema normalized as the spec
// asks: table and column names (lower case) with their types, independent
// of the order of tables and columns.
func Fingerprint(tables []SourceTable) string {
	var lines []string
	for _, t := range tables {
		for _, c := range t.Columns {
			lines = append(lines, strings.ToLower(t.Name)+"."+strings.ToLower(c.Name)+":"+c.Type)
		}
	}
	sort.Strings(lines)
	h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(h[:])
}

// Source is a database a request queries in place: SQL runs there,
// read-only and bounded in time, and only its result (at most the row
// limit) comes back. sqlite.Source and the PostgreSQL source implement it.
type Source interface {
	// Tables describes the tables the source offers.
	Tables(ctx context.Context) ([]SourceTable, error)
	// Query runs one read-only statement and returns at most limit rows;
	// more is CategoryResourceExhausted. Errors are classified with
	// Classify.
	Query(ctx context.Context, sql string, limit int) (*quarry.QueryResult, error)
	// Dialect names the SQL the source speaks: "sqlite", "duckdb",
	// "postgres".
	Dialect() string
	Close() error
}

// Closest returns the candidate nearest to name by edit distance (case
// folded), when it is near enough to be a likely misspelling, else "".
func Closest(name string, candidates []string) string {
	best, bestD := "", 1<<30
	n := strings.ToLower(name)
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := quarry.EditDistance(n, lc)
		// One name cut short of the other ("y_col", "y_column") is near.
		if len(lc) >= 3 && len(n) >= 3 && (strings.HasPrefix(n, lc) || strings.HasPrefix(lc, n)) {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" || bestD > max(2, len([]rune(name))/3) {
		return ""
	}
	return best
}

// Upload is a file sent with a request (the API's multipart form).
type Upload struct {
	Name string
	Body io.Reader
}

// Summary is one analysis in a list.
type Summary struct {
	RequestID string `json:"request_id"`
	Intent    string `json:"intent"`
	Status    string `json:"status"`
	Timestamp string `json:"timestamp"`
	Artifacts int    `json:"artifact_count"`
	// ErrorCode is the code of a failed analysis's error
	// (NEEDS_CLARIFICATION, RESOURCE_LIMIT ...).
	ErrorCode string `json:"error_code,omitempty"`
	// OwnerID is the request's (Request.OwnerID).
	OwnerID string `json:"owner_id,omitempty"`
}

// AuditCheck is what verifying the analyses' log found: the chain, its
// anchor and every artifact's hash.
type AuditCheck struct {
	OK        bool     `json:"ok"`
	Entries   int      `json:"entries"`
	Artifacts int      `json:"artifacts_checked"`
	Anchored  bool     `json:"anchored"`
	Problems  []string `json:"problems"`
}
