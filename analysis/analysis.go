// Package analysis is the vocabulary of Quarry's analyze job
// (data-agent-data-model.md): a request in plain words over data sources
// becomes a validated plan of tool calls, whose observations and artifacts
// are hashed into the audit trace, and whose successful shape is kept as a
// recipe for the next request on the same schema.
//
// It holds the entities with the specification's field names and values,
// their validation (limits, the plan's DAG, the tools' argument schemas)
// and the contracts that have more than one implementation (Source). It
// imports only the standard library and the root vocabulary.
package analysis

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
)

// Request states (AnalysisRequest).
const (
	StatusSubmitted      = "submitted"
	StatusPlanning       = "planning"
	StatusExecuting      = "executing"
	StatusCompleted      = "completed"
	StatusFailed         = "failed"
	StatusPartialSuccess = "partial_success"
)

// Deliverables.
const (
	DeliverTables  = "tables"
	DeliverCharts  = "charts"
	DeliverReports = "reports"
	DeliverSummary = "summary"
)

// AllDeliverables is the default deliverable set, in the spec's order.
var AllDeliverables = []string{DeliverTables, DeliverCharts, DeliverReports, DeliverSummary}

// Data source types. The spec names sql, csv and json; parquet files are
// read the same way. An "sql" source is a database named by its
// connection string: sqlite:PATH, duckdb:PATH or postgres://...
const (
	SourceSQL     = "sql"
	SourceCSV     = "csv"
	SourceJSON    = "json"
	SourceParquet = "parquet"
)

// Limits (FR-022, FR-023) and defaults.
const (
	MaxIntentLen          = 2000
	DefaultRowLimit       = 200_000
	MaxRowLimit           = 200_000
	DefaultTimeoutSeconds = 30
	MaxTimeoutSeconds     = 180
	MaxAttempts           = 3 // per tool call (FR-030)
)

// Request is an AnalysisRequest.
type Request struct {
	RequestID    string       `json:"request_id"`
	Intent       string       `json:"intent"`
	DataSources  []DataSource `json:"data_sources"`
	Constraints  Constraints  `json:"constraints"`
	Deliverables []string     `json:"deliverables"`
	Policy       Policy       `json:"policy"`
	Timestamp    string       `json:"timestamp"`
	Status       string       `json:"status"`
	// OwnerID is the id of the user who made the request (a room.User's),
	// set by the service, never by the client; empty for a request made
	// before analyses had owners, or by the CLI or MCP, which act as the
	// local owner.
	OwnerID string `json:"owner_id,omitempty"`
}

// DataSource is one source of a request.
type DataSource struct {
	Type string `json:"type"`
	// Name is the source's name in SQL: the table a file becomes, or the
	// schema a database's tables are reached under.
	Name             string `json:"name"`
	ConnectionString string `json:"connection_string,omitempty"`
	FilePath         string `json:"file_path,omitempty"`
	// SchemaFingerprint is the SHA-256 of the source's normalized schema
	// (Fingerprint), set when the source is opened.
	SchemaFingerprint string `json:"schema_fingerprint,omitempty"`
}

// Constraints are the user's limits.
type Constraints struct {
	RowLimit       int `json:"row_limit"`
	TimeoutSeconds int `json:"timeout_seconds"`
}

// Policy is the request's access control.
type Policy struct {
	// AllowedColumns, when set, are the only columns a query may reach
	// (bare names, or table.column).
	AllowedColumns []string `json:"allowed_columns,omitempty"`
	// BlockedPatterns are regular expressions for personal data; a
	// referenced column whose values match is masked in outputs.
	BlockedPatterns []string `json:"blocked_patterns,omitempty"`
}

// DefaultBlockedPatterns catch e-mail addresses, phone numbers (with a
// country code, or written with separators), payment card numbers and
// national ids (US SSN, UK NINO). They apply when a request names none.
var DefaultBlockedPatterns = []string{
	`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`,
	`\+\d{1,3}[ .-]?\(?\d{1,4}\)?[ .-]?\d{3,4}[ .-]?\d{3,4}`,
	`\(?\b\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b`,
	`\b(?:\d[ -]?){13,19}\b`,
	`\b\d{3}-\d{2}-\d{4}\b`,
	`\b[A-CEGHJ-PR-TW-Z]{2}\d{6}[A-D]\b`,
}

// Normalize fills the defaults of zero fields: the limits, every
// deliverable, the submission time and status.
func (r *Request) Normalize(now time.Time) {
	if r.Constraints.RowLimit == 0 {
		r.Constraints.RowLimit = DefaultRowLimit
	}
	if r.Constraints.TimeoutSeconds == 0 {
		r.Constraints.TimeoutSeconds = DefaultTimeoutSeconds
	}
	if len(r.Deliverables) == 0 {
		r.Deliverables = slices.Clone(AllDeliverables)
	}
	if r.Timestamp == "" {
		r.Timestamp = now.UTC().Format(time.RFC3339Nano)
	}
	if r.Status == "" {
		r.Status = StatusSubmitted
	}
}

// Validate checks the request against the specification's rules. Errors
// are INVALID with a message naming the field.
func (r *Request) Validate() error {
	if strings.TrimSpace(r.Intent) == "" {
		return quarry.Errorf(quarry.ECodeInvalid, "the request is empty").
			WithHint(`say what to analyze, for example "monthly sales trend by region"`)
	}
	if err := quarry.CheckText("the request", r.Intent, MaxIntentLen, quarry.ECodeInvalid); err != nil {
		return err
	}
	if len(r.DataSources) == 0 {
		return quarry.Errorf(quarry.ECodeInvalid, "the request has no data source").
			WithHint("give at least one file or database")
	}
	names := map[string]bool{}
	for _, s := range r.DataSources {
		if err := s.validate(); err != nil {
			return err
		}
		key := strings.ToLower(s.Name)
		if s.Name != "" && names[key] {
			return quarry.Errorf(quarry.ECodeInvalid, "two data sources are named %s", s.Name).
				WithHint("name each source differently (NAME=PATH)")
		}
		names[key] = true
	}
	if n := r.Constraints.RowLimit; n < 1 || n > MaxRowLimit {
		return quarry.Errorf(quarry.ECodeInvalid, "row_limit %d is out of range: it must be between 1 and %d", n, MaxRowLimit)
	}
	if n := r.Constraints.TimeoutSeconds; n < 1 || n > MaxTimeoutSeconds {
		return quarry.Errorf(quarry.ECodeInvalid, "timeout_seconds %d is out of range: it must be between 1 and %d", n, MaxTimeoutSeconds)
	}
	for _, d := range r.Deliverables {
		if !slices.Contains(AllDeliverables, d) {
			return quarry.Errorf(quarry.ECodeInvalid, "unknown deliverable %q: want tables, charts, reports or summary", d)
		}
	}
	for _, p := range r.Policy.BlockedPatterns {
		if _, err := regexp.Compile(p); err != nil {
			return quarry.Errorf(quarry.ECodeInvalid, "blocked pattern %q is not a regular expression: %w", p, err)
		}
	}
	return nil
}

// Wants reports whether the request asked for deliverable d.
func (r *Request) Wants(d string) bool { return slices.Contains(r.Deliverables, d) }

func (s DataSource) validate() error {
	switch s.Type {
	case SourceCSV, SourceJSON, SourceParquet:
		if s.FilePath == "" {
			return quarry.Errorf(quarry.ECodeInvalid, "a %s source needs a file_path", s.Type)
		}
	case SourceSQL:
		if s.ConnectionString == "" {
			return quarry.Errorf(quarry.ECodeInvalid, "an sql source needs a connection_string").
				WithHint("sqlite:PATH, duckdb:PATH or postgres://user@host/db")
		}
	default:
		return quarry.Errorf(quarry.ECodeInvalid, "unknown data source type %q: want csv, json, parquet or sql", s.Type)
	}
	if err := quarry.CheckText("the source name", s.Name, 100, quarry.ECodeInvalid); err != nil {
		return err
	}
	return nil
}

// SQLRefs is what one query names, read from its parse tree: every
// column reference (its name parts, e.g. ["t", "ssn"]), whether it selects
// * or COLUMNS(*), the names it defines itself (select aliases, CTE and
// subquery column names) and the tables it reads. Names in the text are
// not what the query reads (a table alias is the whole row): the column
// policy goes by Scan, from the bound plan.
type SQLRefs struct {
	Columns [][]string
	Star    bool
	Defined []string
	Tables  []string
}

// Scan is one read of stored data in a query's bound plan: a table and
// the columns the database's binder resolved for it, whatever the SQL
// text called them (an alias, a whole-row reference, a view, USING), or
// something the query reads through whose columns the plan does not show
// (Opaque, described: "the table function pragma_storage_info", "the
// function public.top_salary", "the table pg_catalog.pg_stats").
type Scan struct {
	Table   string   `json:"table,omitempty"`
	Columns []string `json:"columns,omitempty"`
	Opaque  string   `json:"opaque,omitempty"`
}

// Allows reports whether column of table may be read: AllowedColumns is
// empty, or names the column bare or as table.column (case-insensitive).
func (p Policy) Allows(table, column string) bool {
	if len(p.AllowedColumns) == 0 {
		return true
	}
	for _, a := range p.AllowedColumns {
		if strings.EqualFold(a, column) || strings.EqualFold(a, table+"."+column) {
			return true
		}
	}
	return false
}

// CheckScans enforces AllowedColumns on what a query reads, from the
// database's bound plan rather than the names in its text: every column
// of every table scan must be allowed, so a whole row (to_json(t),
// t::VARCHAR, (t).x), a star, a shadowing alias or USING on a forbidden
// column is refused, since the binder resolves each to the table's
// columns. Anything the plan cannot see through (Opaque) is refused too.
// Errors: FORBIDDEN, naming the first column or function refused.
func (p Policy) CheckScans(scans []Scan) error {
	if len(p.AllowedColumns) == 0 {
		return nil
	}
	hint := "the allowed columns are " + strings.Join(p.AllowedColumns, ", ")
	for _, s := range scans {
		if s.Opaque != "" {
			return quarry.Errorf(quarry.ECodeForbidden, "the query reads through %s, whose columns cannot be checked against the allowed ones", s.Opaque).
				WithHint("read the tables directly: " + hint)
		}
		for _, c := range s.Columns {
			if !p.Allows(s.Table, c) {
				return quarry.Errorf(quarry.ECodeForbidden, "the query reads column %s of table %s, which is not among the allowed columns", c, s.Table).
					WithHint(hint)
			}
		}
	}
	return nil
}

// Redacted is a copy of r safe to record and show: connection strings
// without their passwords.
func (r *Request) Redacted() *Request {
	c := *r
	c.DataSources = append([]DataSource(nil), r.DataSources...)
	for i := range c.DataSources {
		c.DataSources[i].ConnectionString = RedactDSN(c.DataSources[i].ConnectionString)
	}
	return &c
}

// RedactDSN hides the password of a connection string, in URL form
// (postgres://user:secret@host/db) or key=value form (password=secret).
func RedactDSN(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
			dsn = u.String()
		}
	}
	if u, err := url.Parse(dsn); err == nil && u.RawQuery != "" {
		q := u.Query()
		if q.Has("password") {
			q.Set("password", "xxxxx")
			u.RawQuery = q.Encode()
			dsn = u.String()
		}
	}
	return passwordField.ReplaceAllString(dsn, "${1}xxxxx")
}

var passwordField = regexp.MustCompile(`(?i)(\bpassword\s*=\s*)('[^']*'|[^\s&]+)`)
