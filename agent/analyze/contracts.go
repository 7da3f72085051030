// Package analyze is the analyze job's agent: a request in plain words
// over data sources becomes a validated plan of tool calls (sql.run,
// df.transform, plot.render, profiler.analyze), run step by step with
// retries that repair the call by the category of its failure, each call
// and observation in the hash-chained audit log, and the requested
// deliverables written as hashed artifacts.
//
// Offline, the plan comes from the deterministic planner (Plan), built on
// the intent parser; every number in the summary comes from an
// observation. The agent talks to engines, stores and the log through the
// interfaces below; cmd/quarry wires the concrete ones.
package analyze

import (
	"context"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// Workspace is the local SQL engine of one analysis: the file sources as
// tables, and each step's result kept as a table named after its task
// (duckdb.Engine).
type Workspace interface {
	LoadFile(ctx context.Context, name, path string) (*quarry.FileSchema, int64, error)
	Lock(ctx context.Context) error
	Query(ctx context.Context, sql string) (*quarry.QueryResult, error)
	Materialize(ctx context.Context, name, sql string) (int64, error)
	Register(ctx context.Context, name string, res *quarry.QueryResult) error
	Columns(ctx context.Context, table string) ([]quarry.Column, error)
	// Keys returns the many-to-one joins between the loaded tables, found
	// by their names and by their values.
	Keys(ctx context.Context) ([]analysis.Key, error)
	// References reads what a query reaches from its parse tree, for the
	// column policy.
	References(ctx context.Context, sql string) (*analysis.SQLRefs, error)
	// MaskMatches masks the values of a step's table that match blocked
	// patterns and counts them per column.
	MaskMatches(ctx context.Context, table string, patterns []string) (map[string]int64, error)
	Close() error
}

// Auditor appends to the shared, hash-chained log of analyses
// (audit.Log).
type Auditor interface {
	AppendFor(requestID, eventType, actor string, data map[string]any) (quarry.AuditEntry, error)
}

// Store keeps an analysis's records and artifacts under the data dir.
type Store interface {
	// WriteArtifact writes data to rel (artifacts/tables/ID/x.csv ...)
	// through a temporary file and a rename, and returns its path.
	WriteArtifact(rel string, data []byte) (string, error)
	// SaveJSON writes the analysis record rel (analyses/ID/result.json).
	SaveJSON(rel string, v any) error
}

// OpenSource opens a database source from its connection string
// (sqlite:PATH, duckdb:PATH, postgres://...).
type OpenSource func(ctx context.Context, ds analysis.DataSource) (analysis.Source, error)
