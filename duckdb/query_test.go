package duckdb

import (
	"context"
	"database/sql"
	"errors"
	"reflect"
	"testing"

	"github.com/quarry-dev/quarry"
)

// TestQueryScan: QueryScan reads the same values as QueryFunc, text into
// strings and the rest, normalised, into *any; fn's error stops it, and
// only a SELECT runs.
func TestQueryScan(t *testing.T) {
	e := mustOpen(t)
	ctx := context.Background()
	q := "SELECT * FROM (VALUES ('a', 1::INTEGER, 2.5, 10::HUGEINT), (NULL, 2, NULL, 20), ('', 3, 1.0, 30)) AS t(s, i, d, h) ORDER BY i"
	var want [][]any
	if err := e.QueryFunc(ctx, q, func(row []any) error { want = append(want, row); return nil }); err != nil {
		t.Fatal(err)
	}
	var s sql.NullString
	cells := make([]any, 4)
	var types []string
	dest := func(tt []string) []any {
		types = tt
		return []any{&s, &cells[1], &cells[2], &cells[3]}
	}
	var got [][]any
	err := e.QueryScan(ctx, q, dest, func() error {
		row := append([]any(nil), cells...)
		row[0] = nil
		if s.Valid {
			row[0] = s.String
		}
		got = append(got, row)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("QueryScan(%s) = %v; want %v as QueryFunc reads it", q, got, want)
	}
	if wantTypes := []string{"VARCHAR", "INTEGER", "DECIMAL(2,1)", "HUGEINT"}; !reflect.DeepEqual(types, wantTypes) {
		t.Errorf("QueryScan types = %v; want %v", types, wantTypes)
	}
	stop := errors.New("stop")
	n := 0
	err = e.QueryScan(ctx, "SELECT * FROM range(1000)", func([]string) []any { return []any{new(any)} }, func() error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("QueryScan(fn error) = %d rows, %v; want 1 row, stop", n, err)
	}
	err = e.QueryScan(ctx, "SELECT 1, 2", func([]string) []any { return []any{new(any)} }, func() error { return nil })
	if err == nil {
		t.Errorf("QueryScan(2 columns, 1 destination) = nil; want an error")
	}
	if err := e.QueryScan(ctx, "DROP TABLE x", func([]string) []any { return nil }, func() error { return nil }); quarry.ErrorCode(err) != quarry.ECodeForbidden {
		t.Errorf("QueryScan(DROP) = %v; want FORBIDDEN", err)
	}
}
