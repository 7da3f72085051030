package duckdb

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
)

func lockedEngine(t *testing.T) *Engine {
	t.Helper()
	e := metricEngine(t)
	if err := e.Lock(context.Background()); err != nil {
		t.Fatalf("Lock: %v", err)
	}
	return e
}

func TestLockForbids(t *testing.T) {
	e := lockedEngine(t)
	dir := t.TempDir()
	tests := []string{
		"SELECT * FROM read_csv('/etc/passwd')",
		"SELECT * FROM read_text('/etc/hostname')",
		"SELECT * FROM glob('/etc/*')",
		"SELECT * FROM read_parquet('/tmp/x.parquet')",
		"ATTACH '" + dir + "/x.db' AS x",
		"INSTALL httpfs",
		"LOAD httpfs",
		"SET threads = 8",
		"SET enable_external_access = true",
		"RESET lock_configuration",
		"PRAGMA threads = 8",
		"COPY orders TO '" + dir + "/out.csv'",
		"COPY (SELECT 1) TO '" + dir + "/out.csv'",
		"EXPORT DATABASE '" + dir + "'",
		"CREATE TABLE x AS SELECT 1",
		"CREATE VIEW v AS SELECT 1",
		"DROP TABLE orders",
		"DELETE FROM orders",
		"UPDATE orders SET amount = 0",
		"INSERT INTO orders (order_id) VALUES (99)",
		"SELECT 1; DROP TABLE orders",
		"CALL pragma_version()",
		"EXPLAIN SELECT 1",
		"CHECKPOINT",
		"DETACH memory",
	}
	ctx := context.Background()
	for _, q := range tests {
		_, err := e.Query(ctx, q)
		if code := quarry.ErrorCode(err); code != quarry.ECodeForbidden {
			t.Errorf("Query(%q) = %v (code %q); want FORBIDDEN", q, err, code)
		}
	}
	// DuckDB's query() table function runs SQL text; it refuses all but
	// SELECT itself.
	if _, err := e.Query(ctx, "SELECT * FROM query('DROP TABLE orders')"); err == nil {
		t.Error("Query(query('DROP TABLE orders')) succeeded")
	}
	// The data and the settings survived.
	res, err := e.Query(ctx, "SELECT count(*), current_setting('threads'), current_setting('enable_external_access') FROM orders")
	if err != nil {
		t.Fatalf("Query after attempts: %v", err)
	}
	if got := res.Rows[0]; got[0] != int64(4) || got[1] != int64(2) || got[2] != false {
		t.Errorf("count, threads, external access = %v; want [4 2 false]", got)
	}
}

func TestQuery(t *testing.T) {
	e := lockedEngine(t)
	ctx := context.Background()
	res, err := e.Query(ctx, "SELECT status, SUM(quantity) AS q, SUM(amount) AS a, AVG(amount::DECIMAL(10,2)) AS d, MIN(order_date) AS first, true AS b, NULL AS n FROM orders GROUP BY status ORDER BY status")
	if err != nil {
		t.Fatalf("Query: %v", err)
	}
	if got := strings.Join(res.Columns, ","); got != "status,q,a,d,first,b,n" {
		t.Errorf("Columns = %s; want status,q,a,d,first,b,n", got)
	}
	want := []any{"paid", int64(5), 9.0, 3.0, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), true, nil}
	for i, w := range want {
		if got := res.Rows[0][i]; got != w {
			t.Errorf("Rows[0][%d] = %#v (%T); want %#v (%T)", i, got, got, w, w)
		}
	}
	if _, err := e.Query(ctx, "SELECT nope FROM orders"); quarry.ErrorCode(err) != quarry.ECodeInvalid || !strings.Contains(err.Error(), "nope") {
		t.Errorf("Query(unknown column) = %v; want INVALID naming the column", err)
	}
	if _, err := e.Query(ctx, "SELEC 1"); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("Query(syntax error) = %v; want INVALID", err)
	}
	if _, err := e.Query(ctx, " "); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("Query(empty) = %v; want INVALID", err)
	}
	res, err = e.Query(ctx, "FROM orders LIMIT 1")
	if err != nil || len(res.Rows) != 1 {
		t.Errorf("Query(FROM-first) = %v, %v; want 1 row", res, err)
	}
}

func TestQueryMaxRows(t *testing.T) {
	e, err := Open(Options{MaxRows: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	if res, err := e.Query(ctx, "SELECT * FROM range(10)"); err != nil || len(res.Rows) != 10 {
		t.Errorf("Query(10 rows) = %d rows, %v; want 10 rows", len(res.Rows), err)
	}
	if _, err := e.Query(ctx, "SELECT * FROM range(11)"); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("Query(11 rows) = %v; want INVALID", err)
	}
	n := 0
	err = e.QueryFunc(ctx, "SELECT * FROM range(1000)", func(row []any) error { n++; return nil })
	if err != nil || n != 1000 {
		t.Errorf("QueryFunc(1000 rows) = %d rows, %v; want 1000 rows", n, err)
	}
	stop := errors.New("stop")
	n = 0
	err = e.QueryFunc(ctx, "SELECT * FROM range(1000)", func(row []any) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("QueryFunc(fn error) = %d rows, %v; want 1 row, stop", n, err)
	}
	if err := e.QueryFunc(ctx, "DROP TABLE x", func([]any) error { return nil }); quarry.ErrorCode(err) != quarry.ECodeForbidden {
		t.Errorf("QueryFunc(DROP) = %v; want FORBIDDEN", err)
	}
}

func TestQueryTimeout(t *testing.T) {
	e, err := Open(Options{QueryTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	_, err = e.Query(context.Background(), "SELECT count(*) FROM range(1000000000000) a")
	if quarry.ErrorCode(err) != quarry.ECodeInvalid || !strings.Contains(err.Error(), "did not finish") {
		t.Errorf("Query(endless) = %v; want INVALID timeout", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Query(ctx, "SELECT 1"); !errors.Is(err, context.Canceled) {
		t.Errorf("Query(cancelled ctx) = %v; want context.Canceled", err)
	}
	// The engine still works after an interrupted query.
	if res, err := e.Query(context.Background(), "SELECT 42"); err != nil || res.Rows[0][0] != int64(42) {
		t.Errorf("Query after timeout = %v, %v; want 42", res, err)
	}
}

func TestOpenRejectsBadOptions(t *testing.T) {
	if e, err := Open(Options{MemoryLimit: "lots"}); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		if e != nil {
			e.Close()
		}
		t.Errorf("Open(MemoryLimit lots) = %v; want INVALID", err)
	}
}
