package duckdb

import (
	"context"
	"reflect"
	"testing"
)

// TestRetypeChecked: a reading that reads every non-empty value is kept
// (a timestamp of midnights as a DATE), and one that misses a value
// leaves the column's type and values as they were.
func TestRetypeChecked(t *testing.T) {
	e := mustOpen(t)
	ctx := context.Background()
	if _, err := e.db.ExecContext(ctx, `CREATE TABLE t AS SELECT * FROM (VALUES
		('2024-01-05 00:00', '1,234', '2024-01-05'),
		('', '', 'soon'),
		('2024-01-06', '5', NULL)) AS v(a, b, c)`); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		col    string
		r      textReading
		values int64
		ok     bool
		typ    string
	}{
		{"a", textReading{Type: "TIMESTAMP", Format: isoFormat}, 2, true, "DATE"},
		{"b", textReading{Type: "DOUBLE", Format: numberUS}, 2, true, "DOUBLE"},
		{"c", textReading{Type: "DATE", Format: isoFormat}, 2, false, "VARCHAR"},
	}
	for _, tt := range tests {
		r := tt.r
		ok, err := e.retypeChecked(ctx, "t", tt.col, &r, tt.values)
		if err != nil || ok != tt.ok {
			t.Errorf("retypeChecked(%s, %s) = %v, %v; want %v", tt.col, tt.r.Format, ok, err, tt.ok)
		}
		var typ string
		if err := e.db.QueryRowContext(ctx, "SELECT data_type FROM duckdb_columns() WHERE table_name = 't' AND column_name = ?", tt.col).Scan(&typ); err != nil {
			t.Fatal(err)
		}
		if typ != tt.typ {
			t.Errorf("after retypeChecked(%s, %s) the column is %s; want %s", tt.col, tt.r.Format, typ, tt.typ)
		}
		if tt.ok && r.Type != tt.typ {
			t.Errorf("retypeChecked(%s, %s) reading type = %s; want %s", tt.col, tt.r.Format, r.Type, tt.typ)
		}
	}
	res, err := e.Query(ctx, "SELECT c FROM t ORDER BY rowid")
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]any{{"2024-01-05"}, {"soon"}, {nil}}; !reflect.DeepEqual(res.Rows, want) {
		t.Errorf("column c after a reading that missed a value = %v; want %v", res.Rows, want)
	}
}
