package postgres_test

import (
	"context"
	"errors"
	"math"
	"net"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/analyze"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/internal/pgtest"
	"github.com/quarry-dev/quarry/postgres"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// shop is the fixture: 3,000 sales from 2020-07-01 to 2022-12-17 in three
// states, five stores, a view, and a table outside the search_path.
var shop = []string{
	`CREATE TABLE stores (id int PRIMARY KEY, name text NOT NULL, state text, opened_at timestamptz, active boolean)`,
	`INSERT INTO stores SELECT i, 'Store ' || i, (ARRAY['Arizona', 'California', 'Nevada'])[i % 3 + 1],
		timestamptz '2019-03-01 10:00:00+00' + (i * interval '100 days'), i % 2 = 0 FROM generate_series(1, 5) i`,
	`CREATE TABLE sales (id serial PRIMARY KEY, date date NOT NULL, store_id int REFERENCES stores, state text,
		amount numeric(10, 2), quantity int, ref text)`,
	`INSERT INTO sales (date, store_id, state, amount, quantity, ref)
		SELECT date '2020-07-01' + (i % 900), i % 5 + 1, (ARRAY['Arizona', 'California', 'Nevada'])[i % 3 + 1],
			((i * 37) % 1000) / 10.0 + 5, i % 7, 'R' || i FROM generate_series(1, 3000) i`,
	`CREATE VIEW big_sales AS SELECT id, date, amount FROM sales WHERE amount > 50`,
	`CREATE SCHEMA hidden`,
	`CREATE TABLE hidden.secret (x int)`,
	`ANALYZE`,
}

var fixture struct {
	once sync.Once
	dsn  string
}

// shopDSN is the DSN of the shared fixture database, which no test
// changes.
func shopDSN(t *testing.T) string {
	t.Helper()
	fixture.once.Do(func() {
		dsn := pgtest.Start(t)
		pgtest.Exec(t, dsn, shop...)
		fixture.dsn = dsn
	})
	if fixture.dsn == "" {
		t.Fatal("no fixture database")
	}
	return fixture.dsn
}

func openShop(t *testing.T) *postgres.Source {
	t.Helper()
	src, err := postgres.OpenSource(context.Background(), shopDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

func TestTables(t *testing.T) {
	src := openShop(t)
	tables, err := src.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]analysis.SourceTable{}
	var names []string
	for _, tb := range tables {
		byName[tb.Name] = tb
		names = append(names, tb.Name)
	}
	if want := []string{"big_sales", "sales", "stores"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("Tables() names = %v; want %v", names, want)
	}
	sales := byName["sales"]
	if sales.Rows != 3000 {
		t.Errorf("sales rows = %d; want 3000", sales.Rows)
	}
	cols := map[string]analysis.SourceColumn{}
	var types []string
	for _, c := range sales.Columns {
		cols[c.Name] = c
		types = append(types, c.Name+":"+c.Type)
	}
	if want := []string{"id:integer", "date:date", "store_id:integer", "state:string", "amount:float", "quantity:integer", "ref:string"}; !reflect.DeepEqual(types, want) {
		t.Errorf("sales columns = %v; want %v", types, want)
	}
	if got, want := cols["state"].Values, []string{"Arizona", "California", "Nevada"}; !reflect.DeepEqual(got, want) {
		t.Errorf("state values = %v; want %v", got, want)
	}
	if v := cols["ref"].Values; v != nil {
		t.Errorf("ref (3,000 distinct values) has %d values; want none", len(v))
	}
	if c := cols["date"]; c.Min != "2020-07-01" || c.Max != "2022-12-17" {
		t.Errorf("date range = %s..%s; want 2020-07-01..2022-12-17", c.Min, c.Max)
	}
	stores := byName["stores"]
	var st []string
	for _, c := range stores.Columns {
		st = append(st, c.Name+":"+c.Type)
		if c.Name == "opened_at" && (c.Min != "2019-06-09" || c.Max != "2020-07-13") {
			t.Errorf("opened_at range = %s..%s; want 2019-06-09..2020-07-13", c.Min, c.Max)
		}
		if c.Name == "name" && len(c.Values) != 5 {
			t.Errorf("store names = %v; want 5", c.Values)
		}
	}
	if want := []string{"id:integer", "name:string", "state:string", "opened_at:timestamp", "active:boolean"}; !reflect.DeepEqual(st, want) {
		t.Errorf("stores columns = %v; want %v", st, want)
	}
	if v := byName["big_sales"]; v.Rows == 0 || v.Rows >= 3000 || len(v.Columns) != 3 {
		t.Errorf("view big_sales = %d rows, %d columns", v.Rows, len(v.Columns))
	}
}

// Values come back as quarry's kinds: int64, float64 (numeric too), bool,
// string, time.Time in UTC, nil.
func TestQueryTypes(t *testing.T) {
	src := openShop(t)
	res, err := src.Query(context.Background(), `SELECT 1::int2 AS a, 2::int4 AS b, 3::int8 AS c, 1.5::float4 AS d, 0.1::float4 AS d2,
		2.25::float8 AS e, 12.34::numeric(10, 2) AS f, 'x'::text AS g, 'y'::varchar(3) AS h, 'z'::char(2) AS i, true AS j,
		date '2021-03-04' AS k, timestamp '2021-03-04 05:06:07' AS l, timestamptz '2021-03-04 05:06:07+02' AS m,
		NULL::int AS n, interval '1 day' AS o, '123e4567-e89b-12d3-a456-426614174000'::uuid AS p, '{"a": 1}'::jsonb AS q,
		ARRAY[1, 2] AS r, 'NaN'::numeric AS s`, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 || strings.Join(res.Columns, "") != "abcdd2efghijklmnopqrs" {
		t.Fatalf("Query = %v %v", res.Columns, res.Rows)
	}
	want := []any{int64(1), int64(2), int64(3), 1.5, 0.1, 2.25, 12.34, "x", "y", "z ", true,
		time.Date(2021, 3, 4, 0, 0, 0, 0, time.UTC), time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC), time.Date(2021, 3, 4, 3, 6, 7, 0, time.UTC),
		nil, nil, "123e4567-e89b-12d3-a456-426614174000", `{"a":1}`, "[1,2]", math.NaN()}
	for i, w := range want {
		got := res.Rows[0][i]
		if res.Columns[i] == "o" {
			if s, ok := got.(string); !ok || s == "" {
				t.Errorf("column o = %#v; want the interval as text", got)
			}
			continue
		}
		if f, ok := w.(float64); ok && math.IsNaN(f) {
			if g, ok := got.(float64); !ok || !math.IsNaN(g) {
				t.Errorf("column %s = %#v; want NaN", res.Columns[i], got)
			}
			continue
		}
		if tm, ok := got.(time.Time); ok && tm.Location() != time.UTC {
			t.Errorf("column %s = %v; want UTC", res.Columns[i], tm)
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("column %s = %#v (%T); want %#v (%T)", res.Columns[i], got, got, w, w)
		}
	}
}

// More rows than the limit is refused, not cut; the source still works
// after the refusal.
func TestQueryLimit(t *testing.T) {
	src := openShop(t)
	ctx := context.Background()
	_, err := src.Query(ctx, "SELECT * FROM sales", 100)
	if quarry.ErrorCode(err) != quarry.ECodeInvalid || !strings.Contains(quarry.ErrorMessage(err), "more than the row limit of 100 rows") {
		t.Fatalf("Query over the limit = %v; want INVALID, more than the row limit", err)
	}
	if c := analyze.Classify(err); c != analysis.CategoryResourceExhausted {
		t.Errorf("Classify(%v) = %s; want %s", err, c, analysis.CategoryResourceExhausted)
	}
	for range 3 { // more than the pool's connections
		res, err := src.Query(ctx, "SELECT id FROM sales ORDER BY id LIMIT 100", 100)
		if err != nil || len(res.Rows) != 100 {
			t.Fatalf("Query of exactly the limit = %v, %v", res, err)
		}
	}
	res, err := src.Query(ctx, "SELECT sum(amount) AS total, count(*) AS n FROM sales;", 1)
	if err != nil || res.Rows[0][1] != int64(3000) {
		t.Fatalf("Query = %v, %v", res, err)
	}
}

// One statement only; statements that write fail in the read-only
// transaction; transaction and session control is refused before it is
// sent. All FORBIDDEN, and nothing changed.
func TestQueryReadOnly(t *testing.T) {
	src := openShop(t)
	ctx := context.Background()
	for _, q := range []string{
		"SELECT 1; SELECT 2",
		"SELECT 1; DROP TABLE sales",
		"SELECT 1 /* ; */; DELETE FROM sales",
		"INSERT INTO sales (date, state, amount) VALUES ('2021-01-01', 'Utah', 1)",
		"UPDATE sales SET amount = 0",
		"DELETE FROM sales",
		"TRUNCATE sales",
		"CREATE TABLE t (x int)",
		"CREATE TEMP TABLE t (x int)",
		"DROP TABLE sales",
		"ALTER TABLE sales ADD COLUMN x int",
		"WITH gone AS (DELETE FROM sales RETURNING *) SELECT count(*) FROM gone",
		"SELECT nextval('sales_id_seq')",
		"COMMIT",
		"BEGIN READ WRITE",
		"SET default_transaction_read_only = off",
		"set session characteristics as transaction read write",
		"COPY sales TO '/tmp/sales.csv'",
		"DO $$ BEGIN DELETE FROM sales; END $$",
	} {
		_, err := src.Query(ctx, q, 100)
		if quarry.ErrorCode(err) != quarry.ECodeForbidden {
			t.Errorf("Query(%q) = %v; want FORBIDDEN", q, err)
		}
	}
	// Semicolons in quotes and comments are not separators.
	for _, q := range []string{"SELECT ';' AS x", "SELECT 1 -- ; DROP TABLE sales\n", `SELECT $$;$$ AS "a;b"`, "SELECT E'\\';' AS x ;; "} {
		if _, err := src.Query(ctx, q, 100); err != nil {
			t.Errorf("Query(%q) = %v; want a result", q, err)
		}
	}
	conn, err := pgx.Connect(ctx, shopDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	var amount float64
	if err := conn.QueryRow(ctx, "SELECT count(*), sum(amount)::float8 FROM sales").Scan(&n, &amount); err != nil || n != 3000 || amount == 0 {
		t.Errorf("sales after the refusals: %d rows, %v, %v; want 3000 unchanged", n, amount, err)
	}
	var exists bool
	conn.QueryRow(ctx, "SELECT to_regclass('t') IS NOT NULL").Scan(&exists)
	if exists {
		t.Error("table t was created")
	}
}

// PostgreSQL's own messages are kept, and the analysis classifies them.
func TestQueryErrorsClassified(t *testing.T) {
	src := openShop(t)
	for _, tc := range []struct {
		query, message, category string
	}{
		{"SELECT amont FROM sales", `column "amont" does not exist`, analysis.CategoryMissingColumn},
		{`SELECT sum("amont") FROM sales`, `column "amont" does not exist`, analysis.CategoryMissingColumn},
		{"SELECT sum(state) FROM sales", "function sum(text) does not exist", analysis.CategoryTypeMismatch},
		{"SELECT * FROM sales WHERE state = 1", "operator does not exist: text = integer", analysis.CategoryTypeMismatch},
		{"SELECT 'abc'::int", `invalid input syntax for type integer: "abc"`, analysis.CategoryTypeMismatch},
		{"SELEC amount FROM sales", `syntax error at or near "SELEC"`, analysis.CategorySQLSyntax},
		{"SELECT amount FROM sales WHERE", "syntax error at end of input", analysis.CategorySQLSyntax},
	} {
		_, err := src.Query(context.Background(), tc.query, 100)
		if err == nil {
			t.Errorf("Query(%q) succeeded; want an error", tc.query)
			continue
		}
		if !strings.Contains(quarry.ErrorMessage(err), tc.message) || quarry.ErrorCode(err) != quarry.ECodeInvalid {
			t.Errorf("Query(%q) = %v; want INVALID %q", tc.query, err, tc.message)
		}
		if c := analyze.Classify(err); c != tc.category {
			t.Errorf("Classify(%v) = %s; want %s", err, c, tc.category)
		}
	}
}

// A query that outlives its context is cancelled by its deadline.
func TestQueryTimeout(t *testing.T) {
	src := openShop(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := src.Query(ctx, "SELECT pg_sleep(10)", 10)
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("a 300 ms query took %v", took)
	}
	if err == nil {
		t.Fatal("pg_sleep(10) finished within 300 ms")
	}
	if c := analyze.Classify(err); c != analysis.CategoryResourceExhausted {
		t.Errorf("Classify(%v) = %s; want %s", err, c, analysis.CategoryResourceExhausted)
	}
	// Without a deadline, the statement timeout is the source's.
	src.StatementTimeout = 100 * time.Millisecond
	_, err = src.Query(context.Background(), "SELECT pg_sleep(10)", 10)
	if err == nil || !strings.Contains(quarry.ErrorMessage(err), "canceling statement due to statement timeout") {
		t.Fatalf("Query past the statement timeout = %v; want PostgreSQL's message", err)
	}
	if c := analyze.Classify(err); c != analysis.CategoryResourceExhausted {
		t.Errorf("Classify(%v) = %s; want %s", err, c, analysis.CategoryResourceExhausted)
	}
	src.StatementTimeout = 0
	// The pool still serves.
	if _, err := src.Query(context.Background(), "SELECT 1", 1); err != nil {
		t.Fatal(err)
	}
	// A context that has already expired is not sent.
	done, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	if _, err := src.Query(done, "SELECT 1", 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Query with an expired context = %v; want the deadline", err)
	}
}

// Connection failures say what is wrong, never the password.
func TestOpenSourceErrors(t *testing.T) {
	dsn := shopDSN(t)
	u := strings.SplitN(strings.TrimPrefix(dsn, "postgres://"), "@", 2)
	host := strings.SplitN(u[1], "/", 2)[0]
	const pw = "Wr0ngSecret"
	for _, tc := range []struct {
		name, dsn, code, message string
	}{
		{"wrong password", "postgres://postgres:" + pw + "@" + host + "/postgres", quarry.ECodeInvalid, "password authentication failed"},
		{"wrong password, key=value", "host=127.0.0.1 port=" + strings.SplitN(host, ":", 2)[1] + " user=postgres password=" + pw + " dbname=postgres", quarry.ECodeInvalid, "password authentication failed"},
		{"no such database", strings.Replace(dsn, "/test_", "/nope_", 1), quarry.ECodeNotFound, `database "nope_`},
		{"bad port", "postgres://postgres:" + pw + "@127.0.0.1:notaport/db", quarry.ECodeInvalid, "not valid"},
		{"not a DSN", "postgres://postgres:" + pw + "@[::1/db", quarry.ECodeInvalid, "not valid"},
		{"nothing listening", "postgres://postgres:" + pw + "@127.0.0.1:1/db", quarry.ECodeUnavailable, "connection refused"},
	} {
		start := time.Now()
		src, err := postgres.OpenSource(context.Background(), tc.dsn)
		if err == nil {
			src.Close()
			t.Errorf("%s: OpenSource succeeded", tc.name)
			continue
		}
		t.Logf("%s: %v", tc.name, err)
		if took := time.Since(start); took > postgres.ConnectTimeout+time.Second {
			t.Errorf("%s: OpenSource took %v", tc.name, took)
		}
		if quarry.ErrorCode(err) != tc.code || !strings.Contains(err.Error(), tc.message) {
			t.Errorf("%s: OpenSource = %v; want %s with %q", tc.name, err, tc.code, tc.message)
		}
		if strings.Contains(err.Error(), pw) {
			t.Errorf("%s: OpenSource = %v; it shows the password", tc.name, err)
		}
	}
}

// A server that does not answer is given up within the connect timeout.
func TestOpenSourceNoAnswer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close() // silent until the listener closes
		}
	}()
	defer postgres.SetConnectTimeout(300 * time.Millisecond)()
	start := time.Now()
	_, err = postgres.OpenSource(context.Background(), "postgres://postgres:Secret99@"+l.Addr().String()+"/shop")
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("OpenSource took %v; want about 300 ms", took)
	}
	if quarry.ErrorCode(err) != quarry.ECodeUnavailable || !strings.Contains(err.Error(), "no answer within 300ms") || strings.Contains(err.Error(), "Secret99") {
		t.Errorf("OpenSource = %v; want UNAVAILABLE, no answer within 300ms, without the password", err)
	}
}

func TestMask(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"postgres://u:s3cret@db:5432/shop", "postgres://u:xxxxx@db:5432/shop"},
		{"postgresql://u:p@ss@db/shop?sslmode=disable", "postgresql://u:xxxxx@db/shop?sslmode=disable"},
		{"postgres://u@db/shop?password=s3cret&sslmode=disable", "postgres://u@db/shop?password=xxxxx&sslmode=disable"},
		{"host=db user=u password=s3cret dbname=shop", "host=db user=u password=xxxxx dbname=shop"},
		{"host=db password='s3 cret' dbname=shop", "host=db password=xxxxx dbname=shop"},
		{"postgres://db/shop", "postgres://db/shop"},
	} {
		if got := postgres.Mask(tc.in); got != tc.want {
			t.Errorf("Mask(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestDialect(t *testing.T) {
	if d := openShop(t).Dialect(); d != "postgres" {
		t.Errorf("Dialect() = %q", d)
	}
}
