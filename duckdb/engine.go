package duckdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	duckdbdriver "github.com/duckdb/duckdb-go/v2"
	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// Defaults for zero Options fields.
const (
	DefaultMemoryLimit  = "2GB"
	DefaultThreads      = 2
	DefaultMaxRows      = 1_000_000
	DefaultQueryTimeout = 60 * time.Second
)

// Options configures an Engine. Zero fields take the defaults above.
type Options struct {
	// MemoryLimit is DuckDB's memory_limit, for example "2GB".
	MemoryLimit string
	// Threads is DuckDB's worker thread count.
	Threads int
	// TempDir is where DuckDB spills when a query exceeds MemoryLimit. When
	// empty, Open creates a private directory under TempRoot (default the
	// system's, which may be memory itself: a tmpfs) and Close removes it.
	TempDir, TempRoot string
	// MaxTempSize bounds what DuckDB spills to TempDir, for example
	// "2GB" (default DuckDB's: 90% of the disk's free space); a query
	// that would spill more fails with RESOURCE_LIMIT.
	MaxTempSize string
	// MaxRows is the most rows Query returns; bigger results are an error.
	MaxRows int
	// QueryTimeout bounds every Query and QueryFunc call.
	QueryTimeout time.Duration
}

func (o *Options) setDefaults() {
	if o.MemoryLimit == "" {
		o.MemoryLimit = DefaultMemoryLimit
	}
	if o.Threads <= 0 {
		o.Threads = DefaultThreads
	}
	if o.MaxRows <= 0 {
		o.MaxRows = DefaultMaxRows
	}
	if o.QueryTimeout <= 0 {
		o.QueryTimeout = DefaultQueryTimeout
	}
}

// Engine is a session's in-memory DuckDB database. It is safe for concurrent
// use; statements run one at a time on a single connection.
type Engine struct {
	db      *sql.DB
	opt     Options
	ownTemp string // temp dir created by Open, removed by Close

	mu     sync.Mutex
	locked bool
	tables map[string]*table // by lower-case name
	order  []string          // table names in load order
}

var _ investigation.Engine = (*Engine)(nil)

// table is what the engine remembers about a loaded table.
type table struct {
	Name    string
	Rows    int64
	Columns []column
}

// column is a loaded column with its DuckDB type name.
type column struct {
	Name string
	Type string // DuckDB type, e.g. BIGINT, VARCHAR, DATE
	// Read is how a column that was text in the file was read, when it
	// was (dates in another layout, numbers with separators).
	Read *textReading
	// Min and Max are an integer column's smallest and largest values as
	// the load's profile found them, when HasRange.
	Min, Max float64
	HasRange bool
	// Undated is how many rows of a text column hold a value that
	// writes no part of a date, when HasUndated (see UndatedRows).
	Undated    int64
	HasUndated bool
}

func (t *table) column(name string) (column, bool) {
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, name) {
			return c, true
		}
	}
	return column{}, false
}

func (t *table) columnNames() []string {
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	return names
}

// Open starts an empty in-memory database configured by opt.
// Errors: INVALID for options DuckDB rejects (a bad MemoryLimit, an
// unusable TempDir), INTERNAL when DuckDB cannot start.
func Open(opt Options) (*Engine, error) {
	opt.setDefaults()
	e := &Engine{opt: opt, tables: map[string]*table{}}
	if e.opt.TempDir == "" {
		if opt.TempRoot != "" {
			if err := os.MkdirAll(opt.TempRoot, 0o755); err != nil {
				return nil, fmt.Errorf("duckdb: temp dir: %w", err)
			}
		}
		dir, err := os.MkdirTemp(opt.TempRoot, "quarry-duckdb-")
		if err != nil {
			return nil, fmt.Errorf("duckdb: temp dir: %w", err)
		}
		e.opt.TempDir, e.ownTemp = dir, dir
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		e.removeTemp()
		return nil, fmt.Errorf("duckdb: open: %w", err)
	}
	// One connection that lives as long as the engine: SET applies per
	// connection for some settings, and the sandbox must cover every query.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	e.db = db
	settings := []struct{ name, sql string }{
		{"memory limit " + strconv.Quote(opt.MemoryLimit), "SET memory_limit = " + quoteString(opt.MemoryLimit)},
		{fmt.Sprintf("%d threads", e.opt.Threads), fmt.Sprintf("SET threads = %d", e.opt.Threads)},
		{"the temp directory", "SET temp_directory = " + quoteString(e.opt.TempDir)},
		// Without jemalloc (not in the static library) freed memory
		// stays with malloc unless DuckDB flushes it: with background
		// threads flushing past 8 MB, an engine's peak on a 3M-row table
		// is 30 to 60 MB lower.
		{"allocator background threads", "SET allocator_background_threads = true"},
		{"allocator flush threshold", "SET allocator_flush_threshold = '8MB'"},
		// Extensions that are not compiled in could only come from the
		// network, which is neither available nor wanted.
		{"no extension installs", "SET autoinstall_known_extensions = false"},
		{"no extension loads", "SET autoload_known_extensions = false"},
	}
	if opt.MaxTempSize != "" {
		settings = append(settings, struct{ name, sql string }{"max temp directory size " + strconv.Quote(opt.MaxTempSize), "SET max_temp_directory_size = " + quoteString(opt.MaxTempSize)})
	}
	for _, s := range settings {
		if _, err := db.Exec(s.sql); err != nil {
			e.Close()
			return nil, quarry.Errorf(quarry.ECodeInvalid, "duckdb refused %s: %s", s.name, readMessage(err, e.opt.TempDir, "the temp directory"))
		}
	}
	return e, nil
}

// Lock seals the sandbox once every file is loaded: no file system or
// network access, no extension installs or loads, and no further
// configuration changes. LoadCSV fails after Lock. Lock is idempotent.
// Errors: INTERNAL when DuckDB refuses a setting.
func (e *Engine) Lock(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.locked {
		return nil
	}
	settings := []string{
		"SET enable_external_access = false",
		"SET allow_community_extensions = false",
		"SET autoinstall_known_extensions = false",
		"SET autoload_known_extensions = false",
		// Must come last: after it no SET is accepted, ours included.
		"SET lock_configuration = true",
	}
	for _, s := range settings {
		if _, err := e.db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("duckdb: lock: %s: %w", s, err)
		}
	}
	e.locked = true
	return nil
}

// Close releases the database and removes the private temp directory.
func (e *Engine) Close() error {
	var err error
	if e.db != nil {
		err = e.db.Close()
	}
	e.removeTemp()
	return err
}

func (e *Engine) removeTemp() {
	if e.ownTemp != "" {
		os.RemoveAll(e.ownTemp)
	}
}

// lookup returns the loaded table called name (case-insensitive).
func (e *Engine) lookup(name string) (*table, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	t := e.tables[strings.ToLower(name)]
	return t, t != nil // nil marks a load in progress
}

// tableNames returns the loaded tables in load order.
func (e *Engine) tableNames() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.order...)
}

// duckMessage returns the DuckDB error text of err, or err's own text.
func duckMessage(err error) string {
	var de *duckdbdriver.Error
	if errors.As(err, &de) {
		return strings.TrimSpace(de.Msg)
	}
	return err.Error()
}

// duckType returns the DuckDB error type of err, or -1 for other errors.
func duckType(err error) duckdbdriver.ErrorType {
	var de *duckdbdriver.Error
	if errors.As(err, &de) {
		return de.Type
	}
	return -1
}
