package postgres_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/analyze"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/duckdb"
	"github.com/quarry-dev/quarry/fsstore"
	"github.com/quarry-dev/quarry/internal/pgtest"
	"github.com/quarry-dev/quarry/postgres"
)

// hr is the policy fixture: people with allowed columns first, regions,
// a view renaming a forbidden column, a table outside the search path, a
// function that reads people and an operator built on it.
var hr = []string{
	`CREATE TABLE people (region text, amount numeric, order_date date, salary int, secret text)`,
	`INSERT INTO people VALUES ('west', 10, '2024-01-05', 91234, 's3cr3t-ann'), ('east', 20, '2024-02-07', 87654, 's3cr3t-bob'), ('west', 5, '2024-02-09', 65432, 's3cr3t-cy')`,
	`CREATE TABLE regions (region text, label text, manager text)`,
	`INSERT INTO regions VALUES ('west', 'West Coast', 'Mia'), ('east', 'East Coast', 'Noah')`,
	`CREATE VIEW pay AS SELECT region, salary AS amount FROM people`,
	`CREATE SCHEMA hidden`,
	`CREATE TABLE hidden.notes (region text, amount numeric)`,
	`CREATE VIEW hidden_notes AS SELECT region, amount FROM hidden.notes`,
	`CREATE FUNCTION top_salary() RETURNS int LANGUAGE sql STABLE AS 'SELECT max(salary) FROM people'`,
	`CREATE FUNCTION salary_gt(text, int) RETURNS boolean LANGUAGE sql STABLE AS 'SELECT EXISTS (SELECT 1 FROM people WHERE region = $1 AND salary > $2)'`,
	`CREATE OPERATOR ### (LEFTARG = text, RIGHTARG = int, FUNCTION = salary_gt)`,
	`ANALYZE`,
}

// hrPolicy allows three columns of any table and one of regions.
var hrPolicy = analysis.Policy{AllowedColumns: []string{"region", "amount", "order_date", "regions.label"}}

type policyCase struct{ name, query, what string }

// pgBypasses read a forbidden column without naming it where a text check
// would look, or through something PostgreSQL's analysis cannot see into.
var pgBypasses = []policyCase{
	{"direct", "SELECT salary FROM people", "column salary"},
	{"row_to_json", "SELECT row_to_json(p) FROM people p", "column salary"},
	{"to_jsonb", "SELECT to_jsonb(p) AS region FROM people AS p", "column salary"},
	{"field of the row", "SELECT (p).secret FROM people AS p", "column secret"},
	{"row cast to text", "SELECT p::text AS region FROM people p", "column salary"},
	{"string function over the row", "SELECT concat_ws(',', p) AS region FROM people p", "column salary"},
	{"shadowing aliases", "SELECT p.salary, p.secret FROM people AS p, (SELECT 1 AS salary, 2 AS secret) AS d", "column salary"},
	{"USING a forbidden column", "SELECT p.region FROM people AS p JOIN (SELECT 1 AS salary) AS d USING (salary)", "column salary"},
	{"NATURAL join", "SELECT region FROM people NATURAL JOIN (SELECT 1 AS salary) AS d", "column salary"},
	{"star", "SELECT * FROM people", "column salary"},
	{"qualified star", "SELECT p.* FROM people p", "column salary"},
	{"view renaming", "SELECT region, amount FROM pay", "column salary"},
	{"CTE renaming", "WITH c AS (SELECT salary AS amount FROM people) SELECT sum(amount) AS amount FROM c", "column salary"},
	{"lateral", "SELECT u.x AS region FROM people p, LATERAL (SELECT p.secret AS x) u", "column secret"},
	{"unnest", "SELECT unnest(ARRAY[p.amount, p.salary]) AS amount FROM people p", "column salary"},
	{"filter", "SELECT count(*) AS n FROM people WHERE salary > 90000", "column salary"},
	{"order", "SELECT region FROM people ORDER BY secret", "column secret"},
	{"exists", "SELECT region FROM regions r WHERE EXISTS (SELECT 1 FROM people q WHERE q.salary > 90000)", "column salary"},
	{"other table's column", "SELECT manager AS label FROM regions", "column manager"},
	{"query_to_xml", "SELECT query_to_xml('SELECT salary FROM people', true, false, '') AS region", "the function pg_catalog.query_to_xml"},
	{"a function of the database", "SELECT top_salary() AS amount", "the function public.top_salary"},
	{"an operator of the database", "SELECT count(*) AS n FROM regions WHERE region ### 90000", "operator public.###"},
	{"statistics", "SELECT most_common_vals::text AS region FROM pg_stats WHERE attname = 'secret'", "the table pg_catalog."},
	{"a table off the search path", "SELECT region, amount FROM hidden_notes", "the table hidden.notes"},
	{"data-modifying CTE", "WITH d AS (DELETE FROM people RETURNING region) SELECT region FROM d", "WITH"},
}

var pgLegitimate = []policyCase{
	{"aggregate", "SELECT region, SUM(amount) AS total FROM people GROUP BY region ORDER BY region", ""},
	{"count", "SELECT count(*) AS n FROM people", ""},
	{"CTE and star", "WITH t AS (SELECT region, amount FROM people) SELECT * FROM t", ""},
	{"join on an allowed key", "SELECT r.label, SUM(p.amount) AS total FROM people p JOIN regions r ON p.region = r.region GROUP BY r.label", ""},
	{"USING an allowed key", "SELECT region, count(*) AS n FROM people JOIN regions USING (region) GROUP BY region", ""},
	{"subquery", "SELECT region, amount FROM people WHERE amount > (SELECT avg(amount) FROM people)", ""},
	{"window", "SELECT region, order_date, sum(amount) OVER (PARTITION BY region ORDER BY order_date) AS running FROM people", ""},
	{"month", "SELECT date_trunc('month', order_date)::date AS month, sum(amount) AS total FROM people GROUP BY 1 ORDER BY 1", ""},
	{"an alias that is only an alias", "SELECT d.salary FROM people AS p, (SELECT 1 AS salary) AS d WHERE p.amount > 5", ""},
	{"duplicate output names", "SELECT p.region, r.region FROM people p JOIN regions r ON p.region = r.region", ""},
}

// PostgreSQL's own analysis of each query decides: every bypass is
// refused with FORBIDDEN naming the column, table, function or operator,
// and every legitimate query passes, at the source and through an
// analysis, which logs one "deny" or "allow" and never a forbidden value.
func TestScansPolicy(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.Start(t)
	pgtest.Exec(t, dsn, hr...)
	src, err := postgres.OpenSource(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	all := append(append([]policyCase(nil), pgBypasses...), pgLegitimate...)
	for _, tt := range all {
		scans, err := src.Scans(ctx, tt.query)
		if err == nil {
			err = hrPolicy.CheckScans(scans)
		}
		switch {
		case tt.what == "" && err != nil:
			t.Errorf("%s: %v (scans %+v)", tt.name, err, scans)
		case tt.what != "" && (quarry.ErrorCode(err) != quarry.ECodeForbidden && tt.what != "WITH" || err == nil || !strings.Contains(err.Error(), tt.what)):
			t.Errorf("%s: %v (scans %+v); want FORBIDDEN naming %s", tt.name, err, scans, tt.what)
		}
	}
	// The count reads no column; the view is followed to its table.
	if scans, err := src.Scans(ctx, "SELECT count(*) FROM pay"); err != nil || len(scans) != 1 || scans[0].Table != "people" || !slices.Equal(scans[0].Columns, []string{"region", "salary"}) {
		t.Errorf("count over the view: %+v, %v", scans, err)
	}
	if _, err := src.Scans(ctx, "SELECT amont FROM people"); quarry.ErrorCode(err) != quarry.ECodeInvalid || !strings.Contains(err.Error(), `column "amont" does not exist`) {
		t.Errorf("misspelled column: %v; want INVALID with PostgreSQL's words", err)
	}
	// Nothing was left behind, and nothing ran: the rows are all there.
	res, err := src.Query(ctx, "SELECT count(*), to_regclass('pg_temp.quarry_scan') IS NULL FROM people", 1)
	if err != nil || res.Rows[0][0] != int64(3) || res.Rows[0][1] != true {
		t.Errorf("after the checks: %v, %v", res, err)
	}

	// Through an analysis: the deny and allow decisions, and no value of a
	// forbidden column in the result or the log.
	for _, tt := range []policyCase{pgBypasses[1], pgBypasses[7], pgBypasses[20], pgLegitimate[0], pgLegitimate[3]} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			store := fsstore.Analyses{Root: dir}
			if err := os.MkdirAll(filepath.Dir(store.AuditLog()), 0o755); err != nil {
				t.Fatal(err)
			}
			log, err := audit.Open(store.AuditLog(), "", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer log.Close()
			a := &analyze.Analyzer{
				NewWorkspace: func(context.Context) (analyze.Workspace, error) {
					return duckdb.Open(duckdb.Options{MemoryLimit: "256MB"})
				},
				OpenSource: func(ctx context.Context, ds analysis.DataSource) (analysis.Source, error) {
					return postgres.OpenSource(ctx, ds.ConnectionString)
				},
				TableName: duckdb.TableName, Audit: log, Store: store,
				Planner: func(context.Context, *analysis.Request, []analysis.SourceTable) (*analysis.Plan, error) {
					return &analysis.Plan{Reasoning: "test plan", Subtasks: []analysis.Subtask{{TaskID: "q", Description: tt.name, ToolName: analysis.ToolSQL,
						Arguments: map[string]any{"query": tt.query, "source": "hr"}, Dependencies: []string{}, EstimatedCostSeconds: 0.1, Deliverable: analysis.DeliverTables}}}, nil
				},
			}
			res, err := a.Run(ctx, analysis.Request{Intent: "test", DataSources: []analysis.DataSource{{Type: analysis.SourceSQL, Name: "hr", ConnectionString: dsn}},
				Policy: hrPolicy, Deliverables: []string{analysis.DeliverTables}})
			if err != nil {
				t.Fatal(err)
			}
			entries, err := audit.ReadFile(store.AuditLog())
			if err != nil {
				t.Fatal(err)
			}
			var decisions []string
			for _, ev := range entries {
				if ev.EventType == quarry.EventPolicyDecision {
					decisions = append(decisions, ev.EventData["decision"].(string))
				}
			}
			want, status := []string{"deny"}, analysis.StatusFailed
			if tt.what == "" {
				want, status = []string{"allow"}, analysis.StatusCompleted
			}
			if res.Status != status || !slices.Equal(decisions, want) {
				t.Fatalf("status %s, decisions %v; want %s, %v", res.Status, decisions, status, want)
			}
			b, _ := json.Marshal(res)
			l, _ := json.Marshal(entries)
			for _, v := range []string{"91234", "s3cr3t", "Noah"} {
				if strings.Contains(string(b)+string(l), v) {
					t.Errorf("the result or the log carries %s, of a forbidden column", v)
				}
			}
		})
	}
}
