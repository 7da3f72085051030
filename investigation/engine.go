package investigation

import (
	"context"

	"github.com/quarry-dev/quarry"
)

// Engine runs SQL over a session's tables. The embedded implementation is
// duckdb.Engine.
type Engine interface {
	// LoadCSV validates the CSV file at path and registers it as table name.
	// Errors: NO_HEADERS, EMPTY_FILE, MALFORMED_CSV, INVALID_FILE_TYPE.
	LoadCSV(ctx context.Context, name, path string) (*quarry.FileSchema, int64, error)
	// Query runs one read-only statement and returns its whole result.
	// Errors: INVALID for SQL that does not parse or bind, FORBIDDEN for
	// statements that are not read-only queries.
	Query(ctx context.Context, sql string) (*quarry.QueryResult, error)
	// ParseMetric parses the metric SQL against the loaded tables. Errors:
	// METRIC_SQL_REQUIRED, INVALID_METRIC_SQL, UNSUPPORTED_METRIC.
	ParseMetric(ctx context.Context, sql string) (*Metric, error)
	Close() error
}

// ModelMaxRows is how many rows of a model-written query are kept and
// shown back to the model: the most of a table a model sees at once.
const ModelMaxRows = 200
