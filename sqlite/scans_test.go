package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/sqlite"
)

// hrDB writes a SQLite database of people (allowed columns first) with a
// view that renames a forbidden column, and returns its path.
func hrDB(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hr.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE TABLE people (id INTEGER PRIMARY KEY, region TEXT, amount REAL, salary INTEGER, secret TEXT)",
		"INSERT INTO people (region, amount, salary, secret) VALUES ('west', 10, 91234, 's3cr3t-ann'), ('east', 20, 87654, 's3cr3t-bob')",
		"CREATE VIEW pay AS SELECT region, salary AS amount FROM people",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// flat writes scans as sorted "table.column" and "fn:name" strings.
func flat(scans []analysis.Scan) []string {
	var out []string
	for _, s := range scans {
		if s.Opaque != "" {
			out = append(out, "fn:"+strings.TrimPrefix(s.Opaque, "the table "))
		}
		for _, c := range s.Columns {
			out = append(out, s.Table+"."+c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// SQLite's authorizer reports the columns each query reads after stars,
// views, aliases, USING and subqueries are resolved; reads of SQLite's own
// tables and pragmas are reported as functions; nothing runs.
func TestSourceScans(t *testing.T) {
	ctx := context.Background()
	src, err := sqlite.OpenSource(ctx, hrDB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	tests := []struct {
		query string
		want  []string
	}{
		{"SELECT region, sum(amount) AS total FROM people GROUP BY region", []string{"people.amount", "people.region"}},
		{"SELECT count(*) FROM people", []string{}},
		{"SELECT * FROM people", []string{"people.amount", "people.id", "people.region", "people.salary", "people.secret"}},
		{"SELECT p.* FROM people p", []string{"people.amount", "people.id", "people.region", "people.salary", "people.secret"}},
		{"SELECT amount FROM pay", []string{"pay.amount", "people.region", "people.salary"}},
		{"SELECT p.salary FROM people p, (SELECT 1 AS salary) d", []string{"people.salary"}},
		{"SELECT p.region FROM people p JOIN (SELECT 1 AS salary) d ON p.salary = d.salary", []string{"people.region", "people.salary"}},
		{"SELECT 'USING', \"natural\" FROM (SELECT 1 AS \"natural\") -- USING\n", nil},
		{"WITH c AS (SELECT secret AS region FROM people) SELECT region FROM c", []string{"people.secret"}},
		{"SELECT region FROM people WHERE salary > 90000", []string{"people.region", "people.salary"}},
		{"SELECT json_object('r', region, 's', secret) AS region FROM people", []string{"people.region", "people.secret"}},
		{"SELECT sql FROM sqlite_schema", []string{"fn:sqlite_master"}},
		{"SELECT name FROM pragma_table_info('people')", []string{"fn:pragma_table_info"}},
	}
	for _, tt := range tests {
		scans, err := src.Scans(ctx, tt.query)
		if err != nil {
			t.Errorf("Scans(%s): %v", tt.query, err)
			continue
		}
		if got := flat(scans); !slices.Equal(got, tt.want) {
			t.Errorf("Scans(%s) = %v; want %v", tt.query, got, tt.want)
		}
	}
	if _, err := src.Scans(ctx, "SELECT amont FROM people"); quarry.ErrorCode(err) != quarry.ECodeInvalid || !strings.Contains(err.Error(), "no such column: amont") {
		t.Errorf("misspelled column: %v; want INVALID with SQLite's words", err)
	}
	// SQLite compares the columns of USING and NATURAL without reporting
	// them: those joins are refused.
	for _, q := range []string{
		"SELECT p.region FROM people p JOIN (SELECT 91234 AS salary) d USING (salary)",
		"SELECT p.region FROM people p NATURAL JOIN (SELECT 91234 AS salary) d",
		"SELECT p.region FROM people p join people q using(secret)",
	} {
		if _, err := src.Scans(ctx, q); quarry.ErrorCode(err) != quarry.ECodeForbidden {
			t.Errorf("Scans(%s) = %v; want FORBIDDEN", q, err)
		}
	}
	if _, err := src.Scans(ctx, "SELECT 1; SELECT salary FROM people"); quarry.ErrorCode(err) != quarry.ECodeForbidden {
		t.Errorf("two statements: %v; want FORBIDDEN", err)
	}
	// The authorizer is gone afterwards: queries run on the pool as before.
	for range 3 {
		res, err := src.Query(ctx, "SELECT count(*) FROM people", 10)
		if err != nil || res.Rows[0][0] != int64(2) {
			t.Fatalf("Query after Scans = %v, %v", res, err)
		}
	}
}

// FuzzSourceScansPolicy checks the policy's promise on SQLite for any
// text: a query that Scans and CheckScans allow (salary and secret
// forbidden) returns no value of salary or secret, and Scans answers every
// query with scans or a documented code.
func FuzzSourceScansPolicy(f *testing.F) {
	for _, s := range []string{
		"SELECT region, sum(amount) AS total FROM people GROUP BY region",
		"SELECT * FROM people",
		"SELECT p.region FROM people p JOIN (SELECT 91234 AS salary) d USING (salary)",
		"SELECT p.region FROM people p NATURAL JOIN (SELECT 91234 AS salary) d",
		"SELECT amount FROM pay",
		"WITH c AS (SELECT secret AS region FROM people) SELECT region FROM c",
		"SELECT json_object('s', secret) AS region FROM people",
		"SELECT sql FROM sqlite_schema",
		"SELECT p.salary FROM people p, (SELECT 1 AS salary) d",
		"SELECT d.salary FROM people p, (SELECT 1 AS salary) d",
		"SELECT region FROM people WHERE rowid IN (SELECT rowid FROM people ORDER BY salary)",
	} {
		f.Add(s)
	}
	ctx := context.Background()
	src, err := sqlite.OpenSource(ctx, hrDB(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { src.Close() })
	pol := analysis.Policy{AllowedColumns: []string{"region", "amount", "id"}}
	f.Fuzz(func(t *testing.T, query string) {
		if len(query) > 4096 {
			return
		}
		scans, err := src.Scans(ctx, query)
		switch quarry.ErrorCode(err) {
		case "":
		case quarry.ECodeInvalid, quarry.ECodeForbidden:
			return
		default:
			t.Fatalf("Scans(%q) error = %v; want scans or a documented code", query, err)
		}
		if pol.CheckScans(scans) != nil {
			return
		}
		res, err := src.Query(ctx, query, 1000)
		if err != nil {
			return
		}
		text := fmt.Sprint(res.Rows)
		for _, v := range []string{"91234", "87654", "s3cr3t"} {
			if strings.Contains(text, v) && !strings.Contains(query, v[:4]) {
				t.Fatalf("Scans(%q) = %+v was allowed, and the result carries %s: %s", query, scans, v, text)
			}
		}
	})
}
