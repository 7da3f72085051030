package duckdb

import (
	"context"
	"fmt"
	"strings"
)

// Kinds of integer time columns.
const (
	yearNumbers  = "year"
	epochSeconds = "epoch seconds"
	epochMillis  = "epoch milliseconds"
)

// numericTimeKind says what an integer column's name promises: "year" for
// year, yr, fiscal_year; "epoch" for epoch, unix, timestamp, ts, *_time,
// *_at; "" otherwise. Without such a name an integer column is never taken
// as time unless the user names it.
func numericTimeKind(name string) string {
	words := nameWords(name)
	for _, w := range words {
		switch strings.ToLower(w) {
		case "year", "yr", "fy", "yyyy":
			return yearNumbers
		}
	}
	for _, w := range words {
		switch strings.ToLower(w) {
		case "epoch", "unix", "timestamp", "ts", "time", "at", "datetime":
			return "epoch"
		}
	}
	return ""
}

// numericTime decides from a column's range whether its integers are
// years (1800-2200), epoch seconds (1973-2100) or epoch milliseconds, and
// returns "" for anything else.
func (e *Engine) numericTime(ctx context.Context, tableName, col string) (string, error) {
	q := quoteIdent(col)
	var lo, hi *float64
	err := e.db.QueryRowContext(ctx, fmt.Sprintf("SELECT min(%s)::DOUBLE, max(%s)::DOUBLE FROM %s", q, q, quoteIdent(tableName))).Scan(&lo, &hi)
	if err != nil {
		return "", fmt.Errorf("duckdb: range of %s.%s: %w", tableName, col, err)
	}
	if lo == nil || hi == nil {
		return "", nil
	}
	switch {
	case *lo >= 1800 && *hi <= 2200:
		return yearNumbers, nil
	case *lo >= 1e8 && *hi <= 4.2e9:
		return epochSeconds, nil
	case *lo >= 1e11 && *hi <= 4.2e12:
		return epochMillis, nil
	}
	return "", nil
}

// numericDateExpr returns a DATE-valued expression for an integer time
// column of ref. Epoch values are instants; their date is taken in UTC.
func numericDateExpr(ref tableRef, c column, kind string) string {
	q := quoteIdent(ref.ref()) + "." + quoteIdent(c.Name)
	switch kind {
	case yearNumbers:
		return "make_date(CAST(" + q + " AS INTEGER), 1, 1)"
	case epochMillis:
		return "CAST(make_timestamp(CAST(" + q + " AS BIGINT) * 1000) AS DATE)"
	}
	return "CAST(make_timestamp(CAST(" + q + " AS BIGINT) * 1000000) AS DATE)"
}
