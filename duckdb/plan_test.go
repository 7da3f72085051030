package duckdb

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
)

const peopleCSV = "name,salary,secret,region,amount,order_date\n" +
	"Ann,90000,s1,west,10,2024-01-02\n" +
	"Bob,70000,s2,east,20,2024-02-03\n"

// scanned flattens scans to "table.column" and "fn:name" strings, sorted.
func scanned(scans []analysis.Scan) []string {
	var out []string
	for _, s := range scans {
		if s.Opaque != "" {
			out = append(out, "fn:"+strings.TrimPrefix(s.Opaque, "the table function "))
			continue
		}
		if len(s.Columns) == 0 {
			out = append(out, s.Table+".")
		}
		for _, c := range s.Columns {
			out = append(out, s.Table+"."+c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Scans reports the columns the binder resolved, however the text reaches
// them: whole rows read every column, aliases and USING read the table's
// column, and step results (temporary tables) are not reported.
func TestScans(t *testing.T) {
	ctx := context.Background()
	e := mustOpen(t)
	mustLoad(t, e, "people", peopleCSV)
	mustLoad(t, e, "regions", "region,label\nwest,West\neast,East\n")
	if err := e.Lock(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Materialize(ctx, "step_a", "SELECT region, sum(amount) AS salary FROM people GROUP BY region"); err != nil {
		t.Fatal(err)
	}
	all := []string{"people.amount", "people.name", "people.order_date", "people.region", "people.salary", "people.secret"}
	tests := []struct {
		query string
		want  []string
	}{
		{"SELECT region, sum(amount) AS total FROM people GROUP BY region", []string{"people.amount", "people.region"}},
		{"SELECT count(*) FROM people", []string{"people."}},
		{"SELECT region FROM people WHERE salary > 1e9", []string{"people.region", "people.salary"}},
		{"SELECT to_json(p) FROM people AS p", all},
		{"SELECT (p).secret FROM people AS p", all},
		{"SELECT struct_extract(p, 'salary') FROM people p", all},
		{"SELECT CAST(p AS VARCHAR) FROM people AS p", all},
		{"SELECT p.salary, p.secret FROM people AS p, (SELECT 1 AS salary, 2 AS secret) AS d", []string{"people.salary", "people.secret"}},
		{"SELECT region FROM people JOIN (SELECT 1 AS salary) d USING (salary)", []string{"people.region", "people.salary"}},
		{"SELECT * EXCLUDE (salary) FROM people", []string{"people.amount", "people.name", "people.order_date", "people.region", "people.secret"}},
		{"SELECT * EXCLUDE (name, salary, secret, order_date) FROM people", []string{"people.amount", "people.region"}},
		{"SELECT COLUMNS('sal.*') FROM people", []string{"people.salary"}},
		{"WITH c AS (SELECT salary AS region FROM people) SELECT region FROM c", []string{"people.salary"}},
		{"SELECT u.x FROM people p, LATERAL (SELECT p.secret AS x) u", []string{"people.secret"}},
		{"SELECT r.label FROM people p JOIN regions r ON p.region = r.region", []string{"people.region", "regions.label", "regions.region"}},
		{"SELECT * FROM query('SELECT secret FROM people')", []string{"people.secret"}},
		{"SELECT * FROM step_a", nil},
		{"SELECT * FROM range(3), unnest([1, 2])", nil},
		{"SELECT * FROM pragma_storage_info('people')", []string{"fn:pragma_storage_info"}},
		{"SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT salary FROM people'))", []string{"fn:json_execute_serialized_sql"}},
	}
	for _, tt := range tests {
		scans, err := e.Scans(ctx, tt.query)
		if err != nil {
			t.Errorf("Scans(%s): %v", tt.query, err)
			continue
		}
		if got := scanned(scans); !slices.Equal(got, tt.want) {
			t.Errorf("Scans(%s) = %v; want %v", tt.query, got, tt.want)
		}
	}

	// A query that does not bind is INVALID with DuckDB's first line, so
	// that the step can be repaired; one whose plan cannot be read
	// (PIVOT plans as several statements) is FORBIDDEN; anything but a
	// SELECT is refused before planning.
	if _, err := e.Scans(ctx, "SELECT amont FROM people"); quarry.ErrorCode(err) != quarry.ECodeInvalid || !strings.Contains(err.Error(), `"amont" not found`) || strings.Contains(err.Error(), "\n") {
		t.Errorf("misspelled column: %v; want INVALID with DuckDB's first line", err)
	}
	if _, err := e.Scans(ctx, "SELECT * FROM (PIVOT people ON region USING sum(amount))"); quarry.ErrorCode(err) != quarry.ECodeForbidden {
		t.Errorf("PIVOT: %v; want FORBIDDEN", err)
	}
	if _, err := e.Scans(ctx, "DROP TABLE people"); quarry.ErrorCode(err) != quarry.ECodeForbidden {
		t.Errorf("DROP: %v; want FORBIDDEN", err)
	}
}

// A DuckDB file source reports the tables under its views.
func TestFileSourceScans(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hr.duckdb")
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"CREATE TABLE people (name VARCHAR, salary INTEGER, region VARCHAR)",
		"INSERT INTO people VALUES ('Ann', 90000, 'west')",
		"CREATE VIEW pay AS SELECT salary AS region FROM people",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	src, err := OpenFileSource(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for q, want := range map[string][]string{
		"SELECT region FROM pay":                         {"people.salary"},
		"SELECT region, count(*) FROM people GROUP BY 1": {"people.region"},
		"SELECT p::VARCHAR FROM people p":                {"people.name", "people.region", "people.salary"},
	} {
		scans, err := src.Scans(ctx, q)
		if got := scanned(scans); err != nil || !slices.Equal(got, want) {
			t.Errorf("Scans(%s) = %v, %v; want %v", q, got, err, want)
		}
	}
	if _, err := src.Scans(ctx, "SELECT 1; SELECT 2"); quarry.ErrorCode(err) != quarry.ECodeForbidden {
		t.Errorf("two statements: %v; want FORBIDDEN", err)
	}
}

// fuzzPeople holds forbidden values no arithmetic on the allowed ones
// makes by chance.
const fuzzPeople = "region,amount,order_date,salary,secret\n" +
	"west,10,2024-01-05,918273645,zq-secret-ann\n" +
	"east,20,2024-02-07,827364519,zq-secret-bob\n"

// FuzzScansPolicy checks the policy's promise on any text: a query that
// Scans and CheckScans allow (salary and secret forbidden) returns no
// value of salary or secret, however it is written, and Scans answers
// every query with scans or a documented code.
func FuzzScansPolicy(f *testing.F) {
	for _, s := range []string{
		"SELECT region, sum(amount) AS total FROM people GROUP BY region",
		"SELECT to_json(p) FROM people AS p",
		"SELECT (p).secret FROM people AS p",
		"SELECT struct_extract(p, 'salary') FROM people p",
		"SELECT CAST(p AS VARCHAR) FROM people AS p",
		"SELECT p.salary, p.secret FROM people AS p, (SELECT 1 AS salary, 2 AS secret) AS d",
		"SELECT p.region FROM people AS p JOIN (SELECT 1 AS salary) AS d USING (salary)",
		"SELECT * EXCLUDE (salary) FROM people",
		"SELECT COLUMNS('s.*') FROM people",
		"WITH c AS (SELECT secret AS region FROM people) SELECT region FROM c",
		"SELECT u.x FROM people p, LATERAL (SELECT p.secret AS x) u",
		"SELECT unnest([p.region, p.secret]) FROM people p",
		"SELECT * FROM query('SELECT secret FROM people')",
		"SELECT stats FROM pragma_storage_info('people')",
		"SELECT d.salary FROM people AS p, (SELECT 1 AS salary) AS d",
		"SELECT region, order_date, sum(amount) OVER (PARTITION BY region ORDER BY order_date) FROM people",
		"SELECT * EXCLUDE (salary, secret) FROM people",
	} {
		f.Add(s)
	}
	ctx := context.Background()
	e := mustOpen(f)
	mustLoad(f, e, "people", fuzzPeople)
	if err := e.Lock(ctx); err != nil {
		f.Fatal(err)
	}
	pol := analysis.Policy{AllowedColumns: []string{"region", "amount", "order_date"}}
	forbidden := []string{"918273645", "827364519", "zq-secret"}
	f.Fuzz(func(t *testing.T, query string) {
		if len(query) > 4096 {
			return
		}
		scans, err := e.Scans(ctx, query)
		switch quarry.ErrorCode(err) {
		case "":
		case quarry.ECodeInvalid, quarry.ECodeForbidden, quarry.ECodeResourceLimit:
			return
		default:
			t.Fatalf("Scans(%q) error = %v; want scans or a documented code", query, err)
		}
		if pol.CheckScans(scans) != nil {
			return
		}
		res, err := e.Query(ctx, query)
		if err != nil {
			return
		}
		text := fmt.Sprint(res.Rows)
		for _, v := range forbidden {
			if strings.Contains(text, v) && !strings.Contains(query, v[:6]) {
				t.Fatalf("Scans(%q) = %+v was allowed, and the result carries %s: %s", query, scans, v, text)
			}
		}
	})
}
