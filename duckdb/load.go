package duckdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	duckdbdriver "github.com/duckdb/duckdb-go/v2"
	"github.com/quarry-dev/quarry"
)

// LoadCSV validates the CSV file at path, loads it into a new table called
// name (a plain identifier, normally from TableName) with DuckDB's type
// detection, and profiles its columns. It returns the schema and the number
// of data rows. On any error no table is left behind.
//
// Errors, each naming the file:
//   - INVALID_FILE_TYPE: the path does not end in .csv, or is a directory
//   - EMPTY_FILE: no bytes, only blanks, or a header without rows
//   - NO_HEADERS: the first row has an empty or repeated name, or looks
//     like data (see checkHeader)
//   - MALFORMED_CSV: a row with a different number of fields than the
//     header (the message gives its line), invalid UTF-8, a NUL byte, an
//     unclosed quote, or values DuckDB cannot read
//   - RESOURCE_LIMIT: more than MaxColumns columns, or a load that needs
//     more memory than Options.MemoryLimit
//   - NOT_FOUND: no file at path
//   - INVALID: name is not a plain lower-case identifier
//   - CONFLICT: a table called name exists
//   - FORBIDDEN: the engine is locked
func (e *Engine) LoadCSV(ctx context.Context, name, path string) (*quarry.FileSchema, int64, error) {
	file := filepath.Base(path)
	if !strings.EqualFold(filepath.Ext(path), ".csv") {
		return nil, 0, quarry.Errorf(quarry.ECodeInvalidFileType, "%s is not a .csv file", file).
			WithHint("upload data as CSV files")
	}
	if !plainIdent(name) {
		return nil, 0, quarry.Errorf(quarry.ECodeInvalid, "table name %q is not a plain lower-case identifier", name)
	}
	if err := e.reserve(name); err != nil {
		return nil, 0, err
	}
	schema, rows, err := e.load(ctx, name, path, file)
	if err != nil {
		e.release(name)
		if duckType(err) == duckdbdriver.ErrorTypeOutOfMemory {
			err = e.outOfMemory("loading " + file)
		}
		return nil, 0, err
	}
	return schema, rows, nil
}

// reserve claims name for a load in progress.
func (e *Engine) reserve(name string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.locked {
		return quarry.Errorf(quarry.ECodeForbidden, "files cannot be loaded after the engine is locked")
	}
	if _, taken := e.tables[name]; taken {
		return quarry.Errorf(quarry.ECodeConflict, "a table called %s is already loaded", name)
	}
	e.tables[name] = nil
	return nil
}

// loaded records the table a reservation became.
func (e *Engine) loaded(name string, t *table) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.tables[name] = t
	e.order = append(e.order, name)
}

// release gives up a reservation after a failed load.
func (e *Engine) release(name string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.tables, name)
}

func (e *Engine) load(ctx context.Context, name, path, file string) (*quarry.FileSchema, int64, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, quarry.Errorf(quarry.ECodeNotFound, "%s does not exist", file)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("duckdb: load %s: %w", file, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, 0, quarry.Errorf(quarry.ECodeInvalidFileType, "%s is a directory, not a .csv file", file)
	}
	if st, err := f.Stat(); err == nil && st.Size() == 0 {
		return nil, 0, quarry.Errorf(quarry.ECodeEmptyFile, "%s is empty", file)
	}
	shape, err := checkCSV(f, file)
	if err != nil {
		return nil, 0, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, 0, fmt.Errorf("duckdb: load %s: %w", file, err)
	}
	if err := e.createTable(ctx, name, abs, file, shape); err != nil {
		return nil, 0, err
	}
	if err := e.dropUnnamed(ctx, name, file, shape); err != nil {
		e.dropTable(name)
		return nil, 0, err
	}
	reads, grouped, err := e.readTextColumns(ctx, name)
	if err != nil {
		e.dropTable(name)
		return nil, 0, err
	}
	t, schema, err := e.profile(ctx, name, grouped)
	if err == nil {
		annotate(t, schema, reads, shape.Renamed)
		keepUndated(t, grouped)
		if shape.Title != "" {
			schema.Note = fmt.Sprintf("the first line, %q, is a title above the column names; it was skipped", shape.Title)
		}
	}
	if err == nil && t.Rows != shape.Rows {
		// Two readers disagreeing means one of them split rows wrongly;
		// better to refuse than to analyse misaligned values.
		err = quarry.Errorf(quarry.ECodeMalformedCSV, "%s could not be read consistently: %d rows found, but DuckDB read %d", file, shape.Rows, t.Rows)
	}
	if err != nil {
		e.dropTable(name)
		return nil, 0, err
	}
	e.loaded(name, t)
	return schema, t.Rows, nil
}

// createTable runs DuckDB's CSV reader with the dialect checkCSV found, so
// only the column types are left to DuckDB's detection. When a value far
// into the file does not fit the type guessed from the sample, it retries
// once with the whole file as the sample.
//
// Dates stay text for DuckDB's reader, for readTextColumns to read in many
// more layouts with one rule for every column, except ISO dates
// (2017-05-15): the reader reads them as that rule would, for a fraction
// of the cost of reading them as text and then as dates (a text sample,
// the tests of every layout, and a rewrite of the column). A column the
// reader cannot take as ISO dates after all (a value past the sample),
// or whose years are outside what readTextColumns accepts, sends the file
// back to the reading without them, as does any other failure, so that a
// file that does not load says why as before.
func (e *Engine) createTable(ctx context.Context, name, path, file string, shape *csvShape) error {
	// The path and the column names come from outside: parameters.
	args := []any{sql.Named("path", path)}
	var opts string
	if shape.Renamed != "" || len(shape.Unnamed) > 0 {
		names := append([]string(nil), shape.Header...)
		if shape.Renamed != "" {
			names[0] = shape.Renamed
		}
		for _, i := range shape.Unnamed {
			names[i] = unnamedName(i)
		}
		list, ok := textList(names)
		if !ok {
			return quarry.Errorf(quarry.ECodeMalformedCSV, "%s: the column names are not valid UTF-8 text", file)
		}
		opts += ", names = $names"
		args = append(args, sql.Named("names", list))
	}
	create := func(extra string) error {
		q := fmt.Sprintf("CREATE TABLE %s AS SELECT * FROM read_csv($path, header = true, delim = %s, quote = '\"', escape = '\"', skip = %d, strict_mode = true, null_padding = false%s%s)",
			quoteIdent(name), quoteString(string(shape.Delim)), shape.Skip, opts, extra)
		_, err := e.db.ExecContext(ctx, q, args...)
		return err
	}
	err := create(isoDateTypes)
	if err == nil {
		var ok bool
		if ok, err = e.datesInRange(ctx, name); err == nil && ok {
			return nil
		}
	}
	if ctx.Err() != nil {
		return e.createFailed(ctx, name, path, file, err)
	}
	e.dropTable(name)
	err = create(textTypes)
	if conversionError(err) {
		e.dropTable(name)
		err = create(textTypes + ", sample_size = -1")
	}
	if err == nil {
		return nil
	}
	return e.createFailed(ctx, name, path, file, err)
}

// The types DuckDB's reader may give a column: textTypes leaves dates and
// timestamps text, isoDateTypes reads ISO dates (and no other layout).
const (
	textTypes    = ", auto_type_candidates = ['BIGINT', 'DOUBLE', 'TIME', 'VARCHAR']"
	isoDateTypes = ", auto_type_candidates = ['BIGINT', 'DOUBLE', 'TIME', 'DATE', 'VARCHAR'], dateformat = '%Y-%m-%d'"
)

// conversionError reports whether err is DuckDB's reader meeting a value
// that does not fit the type it chose for its column from the sample.
func conversionError(err error) bool {
	return err != nil && (duckType(err) == duckdbdriver.ErrorTypeConversion || strings.Contains(duckMessage(err), "Could not convert"))
}

// createFailed drops what a failed createTable left and says why it
// failed.
func (e *Engine) createFailed(ctx context.Context, name, path, file string, err error) error {
	e.dropTable(name)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if duckType(err) == duckdbdriver.ErrorTypeOutOfMemory {
		return e.outOfMemory("reading " + file)
	}
	return quarry.Errorf(quarry.ECodeMalformedCSV, "%s could not be read: %s", file, readMessage(err, path, file))
}

// datesInRange reports whether every DATE column of table name, as
// DuckDB's reader read them, holds years between 1800 and 2200 only, as
// readTextColumns requires of any column it reads as dates.
func (e *Engine) datesInRange(ctx context.Context, name string) (bool, error) {
	cols, err := e.catalogColumns(ctx, name)
	if err != nil {
		return false, err
	}
	var bad []string
	for _, c := range cols {
		if strings.EqualFold(c.Type, "DATE") {
			q := quoteIdent(c.Name)
			bad = append(bad, fmt.Sprintf("count(*) FILTER (WHERE year(%s) NOT BETWEEN 1800 AND 2200)", q))
		}
	}
	if len(bad) == 0 {
		return true, nil
	}
	var n int64
	if err := e.db.QueryRowContext(ctx, "SELECT "+strings.Join(bad, " + ")+" FROM "+quoteIdent(name)).Scan(&n); err != nil {
		return false, fmt.Errorf("duckdb: dates of %s: %w", name, err)
	}
	return n == 0, nil
}

// unnamedName is the placeholder name of unnamed column i (0-based).
func unnamedName(i int) string { return fmt.Sprintf("__quarry_unnamed_%d", i) }

// dropUnnamed drops the unnamed columns (a delimiter at the end of every
// line, a spacer column) when they hold nothing. Errors: NO_HEADERS for an
// unnamed column that holds values.
func (e *Engine) dropUnnamed(ctx context.Context, name, file string, shape *csvShape) error {
	for _, i := range shape.Unnamed {
		col := quoteIdent(unnamedName(i))
		var n int64
		q := fmt.Sprintf("SELECT count(*) FROM %s WHERE nullif(trim(%s::VARCHAR), '') IS NOT NULL", quoteIdent(name), col)
		if err := e.db.QueryRowContext(ctx, q).Scan(&n); err != nil {
			return fmt.Errorf("duckdb: check column %d of %s: %w", i+1, file, err)
		}
		if n > 0 {
			return quarry.Errorf(quarry.ECodeNoHeaders, "%s: column %d has no name in the first row but holds values in %d rows", file, i+1, n).
				WithHint("the first row must name every column")
		}
		if _, err := e.db.ExecContext(ctx, fmt.Sprintf("ALTER TABLE %s DROP COLUMN %s", quoteIdent(name), col)); err != nil {
			return fmt.Errorf("duckdb: drop column %d of %s: %w", i+1, file, err)
		}
	}
	return nil
}

// dropTable removes a half-made table; errors are moot because the table
// may not exist.
func (e *Engine) dropTable(name string) {
	e.db.Exec("DROP TABLE IF EXISTS " + quoteIdent(name))
}

// firstLine returns the first non-empty line of DuckDB's multi-line error
// text, which carries the reason; the rest repeats options.
func firstLine(msg string) string {
	var out []string
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			if len(out) > 0 {
				break
			}
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, " ")
}

// maxReadMessage caps DuckDB's reason for a file it could not read, and
// maxQuotedLine the line of the file it quotes: a line can be megabytes.
const (
	maxReadMessage = 500
	maxQuotedLine  = 120
)

// readMessage returns DuckDB's reason for not reading the file at path, for
// the user: its first paragraph, the line of the file it quotes cut short,
// and the server's path replaced by the file's name.
func readMessage(err error, path, file string) string {
	var out []string
	for _, l := range strings.Split(duckMessage(err), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			if len(out) > 0 {
				break
			}
			continue
		}
		if strings.HasPrefix(l, "Original Line:") {
			l = clip(l, maxQuotedLine)
		}
		out = append(out, l)
	}
	msg := strings.Join(out, " ")
	if path != "" {
		msg = strings.ReplaceAll(msg, path, file)
	}
	return clip(msg, maxReadMessage)
}

// clip cuts s to at most n bytes, at a character boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
