package analyze_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/duckdb"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/llmtest"
)

const peopleCSV = "name,email,ssn,region,amount\n" +
	"Ann,ann@example.com,123-45-6789,west,10\n" +
	"Bob,bob@example.org,987-65-4321,east,20\n" +
	"Cy,none,111-22-3333,west,5\n"

// hrCSV has allowed columns first (region, amount, order_date), then the
// forbidden ones, whose values no refused query may carry anywhere.
const hrCSV = "region,amount,order_date,salary,secret,full_name,email,hired\n" +
	"west,10,2024-01-05,91234,s3cr3t-ann,Ann,ann@example.com,2019-03-01\n" +
	"east,20,2024-02-07,87654,s3cr3t-bob,Bob,bob@example.org,2018-07-15\n" +
	"west,5,2024-02-09,65432,s3cr3t-cy,Cy,cy@example.net,2017-11-30\n"

const regionsCSV = "region,label,manager\nwest,West Coast,Mia\neast,East Coast,Noah\n"

// hrPolicy allows three columns of any table and one of regions.
var hrPolicy = analysis.Policy{AllowedColumns: []string{"region", "amount", "order_date", "regions.label"}}

// policyCase is one query of the battery: refused naming what (a column
// or table function), or run when what is "".
type policyCase struct {
	name, query, what string
}

// bypasses are queries that read a forbidden column without naming it
// where a check of the SQL text would look: every one is refused from the
// bound plan. The first column outside the policy is salary, so a query
// that reads the whole row is refused naming it.
var bypasses = []policyCase{
	{"direct", "SELECT salary FROM people", "column salary"},
	{"to_json of the row", "SELECT to_json(p) FROM people AS p", "column salary"},
	{"field of the row", "SELECT (p).secret FROM people AS p", "column salary"},
	{"struct_extract of the row", "SELECT struct_extract(p, 'salary') FROM people p", "column salary"},
	{"row cast to text", "SELECT CAST(p AS VARCHAR) FROM people AS p", "column salary"},
	{"row :: text", "SELECT p::VARCHAR AS region FROM people p", "column salary"},
	{"string function over the row", "SELECT concat_ws(',', p) AS region FROM people p", "column salary"},
	{"hash of the row", "SELECT md5(p::VARCHAR) AS region FROM people p", "column salary"},
	{"length of the row", "SELECT length(p::VARCHAR) AS amount FROM people p", "column salary"},
	{"shadowing aliases", "SELECT p.salary, p.secret FROM people AS p, (SELECT 1 AS salary, 2 AS secret) AS d", "column salary"},
	{"USING a forbidden column", "SELECT p.region FROM people AS p JOIN (SELECT 1 AS salary) AS d USING (salary)", "column salary"},
	{"self-join USING", "SELECT a.region FROM people a JOIN people b USING (secret)", "column secret"},
	{"star", "SELECT * FROM people", "column salary"},
	{"qualified star", "SELECT p.* FROM people p", "column salary"},
	{"star EXCLUDE short of the forbidden", "SELECT * EXCLUDE (salary) FROM people", "column secret"},
	{"COLUMNS(*)", "SELECT COLUMNS(*) FROM people", "column salary"},
	{"COLUMNS regex", "SELECT COLUMNS('s.*') FROM people", "column salary"},
	{"star in a subquery", "SELECT region FROM (SELECT * FROM people) s", "column salary"},
	{"subquery renaming", "SELECT region FROM (SELECT secret AS region FROM people) s", "column secret"},
	{"CTE renaming", "WITH c AS (SELECT salary AS amount FROM people) SELECT sum(amount) AS amount FROM c", "column salary"},
	{"CTE column list renaming", "WITH c(region) AS (SELECT full_name FROM people) SELECT region FROM c", "column full_name"},
	{"lateral", "SELECT u.x AS region FROM people p, LATERAL (SELECT p.secret AS x) AS u", "column secret"},
	{"UNNEST of a list", "SELECT unnest([p.amount, p.salary]) AS amount FROM people p", "column salary"},
	{"UNNEST of the row", "SELECT u AS region FROM people p, unnest([p]) AS t(u)", "column salary"},
	{"filter", "SELECT count(*) AS n FROM people WHERE salary > 90000", "column salary"},
	{"order", "SELECT region FROM people ORDER BY secret", "column secret"},
	{"having", "SELECT region FROM people GROUP BY region HAVING max(salary) > 0", "column salary"},
	{"exists", "SELECT region FROM people WHERE EXISTS (SELECT 1 FROM people q WHERE q.salary > 90000)", "column salary"},
	{"union", "SELECT region FROM people UNION ALL SELECT secret FROM people", "column secret"},
	{"join on a forbidden key", "SELECT r.label FROM people p JOIN regions r ON p.full_name = r.manager", "column full_name"},
	{"other table's column", "SELECT manager AS label FROM regions", "column manager"},
	{"query()", "SELECT * FROM query('SELECT secret FROM people')", "column secret"},
	{"query_table()", "SELECT region FROM query_table('people')", "column salary"},
	{"SUMMARIZE", "SELECT * FROM (SUMMARIZE people)", "column salary"},
	{"storage statistics", "SELECT stats AS region FROM pragma_storage_info('people')", "table function pragma_storage_info"},
	{"serialized SQL", "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT salary FROM people'))", "table function json_execute_serialized_sql"},
	{"PIVOT", "SELECT * FROM (PIVOT people ON secret USING sum(amount))", "only read-only SELECT"},
}

// legitimate are queries on allowed columns only: they run.
var legitimate = []policyCase{
	{"aggregate", "SELECT region, SUM(amount) AS total FROM people GROUP BY region ORDER BY total", ""},
	{"CTE", "WITH t AS (SELECT region, amount AS a FROM people) SELECT region, SUM(a) AS s FROM t GROUP BY region", ""},
	{"star over a CTE of allowed columns", "WITH t AS (SELECT region, amount FROM people) SELECT * FROM t", ""},
	{"star EXCLUDE of every forbidden column", "SELECT * EXCLUDE (salary, secret, full_name, email, hired) FROM people", ""},
	{"join on an allowed key", "SELECT r.label, SUM(p.amount) AS total FROM people p JOIN regions r ON p.region = r.region GROUP BY r.label", ""},
	{"USING an allowed key", "SELECT region, count(*) AS n FROM people JOIN regions USING (region) GROUP BY region", ""},
	{"subquery", "SELECT region, amount FROM people WHERE amount > (SELECT avg(amount) FROM people)", ""},
	{"window", "SELECT region, order_date, sum(amount) OVER (PARTITION BY region ORDER BY order_date) AS running FROM people", ""},
	{"count", "SELECT count(*) AS n FROM people", ""},
	{"month", "SELECT date_trunc('month', order_date) AS month, sum(amount) AS total FROM people GROUP BY 1 ORDER BY 1", ""},
	{"an alias that is only an alias", "SELECT d.salary FROM people AS p, (SELECT 1 AS salary) AS d WHERE p.amount > 5", ""},
	{"UNNEST of allowed values", "SELECT unnest([min(amount), max(amount)]) AS bound FROM people", ""},
	{"range", "SELECT r.range AS k, count(p.region) AS n FROM range(3) r LEFT JOIN people p ON p.amount = r.range GROUP BY 1", ""},
}

// forbiddenValues are what no refused query may carry into a result, an
// artifact or the log.
var forbiddenValues = []string{"91234", "s3cr3t-ann", "87654", "Noah", "2017-11-30"}

// The column policy is enforced from the bound plan: each bypass is
// refused once (FORBIDDEN, not retried), logged as one "deny" decision
// naming the column by the safety actor, and none of its data reaches
// the result or the log; each legitimate query runs with one "allow".
func TestAllowedColumns(t *testing.T) {
	people := writeCSV(t, "people.csv", hrCSV)
	regions := writeCSV(t, "regions.csv", regionsCSV)
	// A misspelled allowed column does not bind: no decision, and the
	// repaired query runs with one "allow".
	repaired := policyCase{"a misspelled allowed column, repaired", "SELECT regin, SUM(amount) AS total FROM people GROUP BY regin", ""}
	for _, tt := range append(append([]policyCase{repaired}, bypasses...), legitimate...) {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.a.Planner = planOf(analysis.Subtask{TaskID: "q", Description: tt.name, ToolName: analysis.ToolSQL, Arguments: map[string]any{"query": tt.query}, Deliverable: analysis.DeliverTables})
			res, err := e.a.Run(context.Background(), analysis.Request{Intent: "test", DataSources: []analysis.DataSource{csvSource(people), csvSource(regions)},
				Policy: hrPolicy, Deliverables: []string{analysis.DeliverTables}})
			if err != nil {
				t.Fatal(err)
			}
			checkDecisions(t, e, res, tt)
		})
	}
	// The same battery straight on the workspace: the exact code.
	ctx := context.Background()
	ws, err := duckdb.Open(duckdb.Options{MemoryLimit: "256MB"})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	for name, path := range map[string]string{"people": people, "regions": regions} {
		if _, _, err := ws.LoadFile(ctx, name, path); err != nil {
			t.Fatal(err)
		}
	}
	if err := ws.Lock(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tt := range append(append([]policyCase(nil), bypasses...), legitimate...) {
		scans, err := ws.Scans(ctx, tt.query)
		if err == nil {
			err = hrPolicy.CheckScans(scans)
		}
		if tt.what == "" && err != nil || tt.what != "" && quarry.ErrorCode(err) != quarry.ECodeForbidden {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// checkDecisions asserts the outcome of one battery case on a finished
// analysis: its status, its policy decisions and that no forbidden value
// left the data.
func checkDecisions(t *testing.T, e *env, res *analysis.Result, tt policyCase) {
	t.Helper()
	var decisions, reasons []string
	entries := readLog(t, e.store.AuditLog())
	for _, ev := range entries {
		if ev.EventType == quarry.EventPolicyDecision {
			if ev.Actor != "safety" {
				t.Errorf("policy decision by %s", ev.Actor)
			}
			decisions = append(decisions, ev.EventData["decision"].(string))
			reasons = append(reasons, ev.EventData["reason"].(string))
		}
	}
	if tt.what == "" {
		if res.Status != analysis.StatusCompleted || !slices.Equal(decisions, []string{"allow"}) {
			t.Fatalf("status %s, decisions %v %v, observations %+v; want it run", res.Status, decisions, reasons, res.Observations)
		}
		return
	}
	if res.Status != analysis.StatusFailed || len(res.Observations) != 1 {
		t.Fatalf("status %s with %d attempts; want refused once, not retried", res.Status, len(res.Observations))
	}
	if msg := *res.Observations[0].ErrorMessage; !strings.Contains(msg, tt.what) {
		t.Errorf("refusal says %q; want it to name %s", msg, tt.what)
	}
	if !slices.Equal(decisions, []string{"deny"}) || !strings.Contains(reasons[0], tt.what) {
		t.Errorf("policy decisions %v %v; want one deny naming %s", decisions, reasons, tt.what)
	}
	// Hashes and ids are hex, and times and durations have many digits:
	// a value's digits may turn up inside one by chance, which is not the
	// value. A value counts only standing on its own.
	all := hexRuns.ReplaceAllString(stringOf(res)+stringOf(entries), "")
	for _, v := range forbiddenValues {
		if regexp.MustCompile(`(^|[^0-9A-Za-z.])` + regexp.QuoteMeta(v) + `($|[^0-9A-Za-z])`).MatchString(all) {
			t.Errorf("the result or the log carries the forbidden value %s", v)
		}
	}
	for _, a := range res.Artifacts {
		if a.ArtifactType == analysis.ArtifactTable {
			t.Errorf("a refused query left the table artifact %s", a.ContentRef)
		}
	}
}

// A SQLite source is held to the same policy, from SQLite's own
// resolution of each query (its authorizer): the bypasses that SQLite's
// SQL can write are refused and logged "deny", and queries on allowed
// columns run there.
func TestAllowedColumnsSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hr.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"CREATE TABLE people (region TEXT, amount REAL, order_date DATE, salary INTEGER, secret TEXT)",
		"INSERT INTO people VALUES ('west', 10, '2024-01-05', 91234, 's3cr3t-ann'), ('east', 20, '2024-02-07', 87654, 's3cr3t-bob')",
		"CREATE TABLE regions (region TEXT, label TEXT, manager TEXT)",
		"INSERT INTO regions VALUES ('west', 'West Coast', 'Mia'), ('east', 'East Coast', 'Noah')",
		"CREATE VIEW pay AS SELECT region, salary AS amount FROM people",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	cases := []policyCase{
		{"direct", "SELECT salary FROM people", "column salary"},
		{"star", "SELECT * FROM people", "column salary"},
		{"qualified star", "SELECT p.* FROM people p", "column salary"},
		{"shadowing aliases", "SELECT p.salary FROM people p, (SELECT 1 AS salary) d", "column salary"},
		{"USING a forbidden column", "SELECT p.region FROM people p JOIN (SELECT 1 AS salary) d USING (salary)", "USING"},
		{"NATURAL join", "SELECT p.region FROM people p NATURAL JOIN (SELECT 1 AS salary) d", "NATURAL"},
		{"view renaming", "SELECT region, amount FROM pay", "column salary"},
		{"CTE renaming", "WITH c AS (SELECT secret AS region FROM people) SELECT region FROM c", "column secret"},
		{"string function", "SELECT json_object('s', secret) AS region FROM people", "column secret"},
		{"filter", "SELECT count(*) AS n FROM people WHERE salary > 90000", "column salary"},
		{"other table's column", "SELECT manager AS label FROM regions", "column manager"},
		{"the schema", "SELECT sql AS region FROM sqlite_schema", "sqlite_master"},
		{"a pragma", "SELECT name AS region FROM pragma_table_info('people')", "pragma_table_info"},
		{"aggregate", "SELECT region, SUM(amount) AS total FROM people GROUP BY region ORDER BY region", ""},
		{"join on an allowed key", "SELECT r.label, SUM(p.amount) AS total FROM people p JOIN regions r ON p.region = r.region GROUP BY r.label", ""},
		{"CTE", "WITH t AS (SELECT region, amount FROM people) SELECT * FROM t", ""},
		{"count", "SELECT count(*) AS n FROM people", ""},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.a.Planner = planOf(analysis.Subtask{TaskID: "q", Description: tt.name, ToolName: analysis.ToolSQL, Arguments: map[string]any{"query": tt.query, "source": "hr"}, Deliverable: analysis.DeliverTables})
			res, err := e.a.Run(context.Background(), analysis.Request{Intent: "test", DataSources: []analysis.DataSource{{Type: analysis.SourceSQL, Name: "hr", ConnectionString: "sqlite:" + path}},
				Policy: hrPolicy, Deliverables: []string{analysis.DeliverTables}})
			if err != nil {
				t.Fatal(err)
			}
			checkDecisions(t, e, res, tt)
		})
	}
}

// The model's planning prompt lists the allowed columns with their values
// and ranges, and no forbidden column: neither its name nor any value.
func TestPlanningPromptPolicy(t *testing.T) {
	people := writeCSV(t, "people.csv", hrCSV)
	regions := writeCSV(t, "regions.csv", regionsCSV)
	plan := map[string]any{"reasoning": "total by region", "subtasks": []any{map[string]any{
		"task_id": "by_region", "description": "Amount by region", "tool_name": "sql.run", "dependencies": []any{},
		"arguments":              map[string]any{"query": "SELECT region, SUM(amount) AS total FROM people GROUP BY region ORDER BY region"},
		"estimated_cost_seconds": 1, "deliverable": "tables"}}}
	m := &llmtest.Model{ModelName: "test/planner", Reply: func(*llm.Request) (*llm.Response, error) { return llmtest.JSON(plan), nil }}
	e := newEnv(t)
	e.a.Model = m
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: "total amount by region", DataSources: []analysis.DataSource{csvSource(people), csvSource(regions)},
		Policy: hrPolicy, Deliverables: []string{analysis.DeliverTables}})
	if err != nil || res.Status != analysis.StatusCompleted {
		t.Fatalf("%+v %v", res, err)
	}
	calls := m.Calls()
	if len(calls) == 0 {
		t.Fatal("the model was not asked for a plan")
	}
	prompt := calls[0].Request.System
	for _, msg := range calls[0].Request.Messages {
		prompt += "\n" + msg.Content
	}
	for _, want := range []string{"region (string, values: east, west)", "amount (integer, 5 to 20)", "order_date (date, 2024-01-05 to 2024-02-09)", "label (string, values: East Coast, West Coast)"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, prompt)
		}
	}
	forbidden := []string{"salary", "secret", "full_name", "email", "hired", "manager", "Ann", "ann@example.com", "Mia", "2019-03-01"}
	for _, v := range append(forbidden, forbiddenValues...) {
		if strings.Contains(prompt, v) {
			t.Errorf("the prompt carries %q, of a forbidden column:\n%s", v, prompt)
		}
	}
}

// Values matching blocked patterns (by default e-mail addresses and
// national ids) are masked in results, and each masked column is logged.
func TestBlockedPatternsMask(t *testing.T) {
	e := newEnv(t)
	data := writeCSV(t, "people.csv", peopleCSV)
	e.a.Planner = planOf(analysis.Subtask{TaskID: "q", Description: "names", ToolName: analysis.ToolSQL, Arguments: map[string]any{"query": "SELECT name, email, ssn, region FROM people ORDER BY name"}, Deliverable: analysis.DeliverTables})
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: "test", DataSources: []analysis.DataSource{csvSource(data)}, Deliverables: []string{analysis.DeliverTables}})
	if err != nil || res.Status != analysis.StatusCompleted {
		t.Fatalf("%v %v", res, err)
	}
	rows := observationOf(t, res, "q").Data.(map[string]any)["rows"].([][]any)
	if rows[0][1] != "[masked]" || rows[0][2] != "[masked]" || rows[2][1] != "none" || rows[0][0] != "Ann" || rows[0][3] != "west" {
		t.Errorf("rows %v; want e-mails and SSNs masked, the rest kept", rows)
	}
	masks := 0
	for _, ev := range readLog(t, e.store.AuditLog()) {
		if ev.EventType == quarry.EventPolicyDecision && ev.EventData["decision"] == "mask" {
			masks++
		}
		if strings.Contains(stringOf(ev.EventData), "ann@example.com") {
			t.Errorf("entry %d carries an e-mail address", ev.SequenceNumber)
		}
	}
	if masks != 2 {
		t.Errorf("%d mask decisions; want one per column (email, ssn)", masks)
	}
}

func stringOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// hexRuns are the hashes and ids of a result and a log.
var hexRuns = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32,}`)
