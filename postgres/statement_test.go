package postgres_test

import (
	"testing"

	"github.com/quarry-dev/quarry/postgres"
)

func TestScan(t *testing.T) {
	for _, tc := range []struct {
		q     string
		n     int
		first string
	}{
		{"SELECT 1", 1, "select"},
		{"  select 1 ;  ; ", 1, "select"},
		{"SELECT 1; SELECT 2", 2, "select"},
		{"SELECT ';'", 1, "select"},
		{"SELECT 'it''s; fine'", 1, "select"},
		{`SELECT E'\'; DROP TABLE t; --'`, 1, "select"},
		{`SELECT 'a\'; DROP TABLE t`, 2, "select"}, // standard strings: \ is no escape
		{`SELECT 1 AS "a;b"`, 1, "select"},
		{"SELECT $$;$$, $x$ $$; $x$", 1, "select"},
		{"SELECT $1; DROP TABLE t", 2, "select"},
		{"-- ;\nCOMMIT", 1, "commit"},
		{"/* ; /* nested ; */ ; */ set x = 1", 1, "set"},
		{"(SELECT 1) UNION (SELECT 2)", 1, ""},
		{"WITH a AS (SELECT 1) SELECT * FROM a", 1, "with"},
		{"", 0, ""},
		{";", 0, ""},
		{"SELECT 'unterminated; DROP", 1, "select"},
	} {
		n, first := postgres.Scan(tc.q)
		if n != tc.n || first != tc.first {
			t.Errorf("scan(%q) = %d, %q; want %d, %q", tc.q, n, first, tc.n, tc.first)
		}
	}
}
