package investigate

import (
	"context"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// Engine is the SQL engine an investigation runs on: quarry.Engine plus the
// sandbox and schema helpers the investigation needs. duckdb.Engine is the
// embedded implementation.
type Engine interface {
	investigation.Engine
	// Lock locks the sandbox down once every file is loaded.
	Lock(ctx context.Context) error
	// QueryFunc streams the rows of a read-only query to fn.
	QueryFunc(ctx context.Context, sql string, fn func(row []any) error) error
	// QueryScan streams the rows of a read-only query into the typed
	// destinations dest returns for the result's type names, calling fn
	// after each row (see duckdb.Engine.QueryScan).
	QueryScan(ctx context.Context, sql string, dest func(types []string) []any, fn func() error) error
	// TimeColumn returns the qualified time column of the metric, checking
	// hint ("TABLE.COLUMN") and reading it in format when given. Errors:
	// INVALID_TIME_COLUMN.
	TimeColumn(ctx context.Context, m *investigation.Metric, hint, format string) (string, error)
	// Relationships detects links between the tables.
	Relationships(ctx context.Context, tables []string) ([]investigation.Relationship, error)
	// IntegerRange returns the smallest and largest values of an integer
	// column of a loaded table, as its load measured them; ok is false
	// when they are not known exactly (see duckdb.Engine.IntegerRange).
	IntegerRange(table, column string) (lo, hi int64, ok bool)
	// UndatedRows returns how many rows of a text column of a loaded
	// table hold a value that writes no part of any date (no digit, and
	// no English month or weekday name); ok is false when the load did
	// not count them (see duckdb.Engine.UndatedRows).
	UndatedRows(table, column string) (rows int64, ok bool)
}

// Artifacts is where one session's artifacts are written. Paths are
// relative to the session directory and use forward slashes.
type Artifacts interface {
	WriteJSON(rel string, v any) error
	WriteFile(rel string, data []byte) error
	// Dir is the session directory on disk, for writers that need a path.
	Dir() string
}

// Auditor appends entries to the session's hash-chained audit log.
type Auditor interface {
	Append(eventType, actor string, data map[string]any) (quarry.AuditEntry, error)
}
