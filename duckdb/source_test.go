package duckdb

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/quarry-dev/quarry"
)

func TestFileSource(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shop.duckdb")
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"CREATE TABLE orders (order_date DATE, state VARCHAR, amount DOUBLE)",
		"INSERT INTO orders VALUES ('2021-01-05', 'Arizona', 10.5), ('2021-02-01', 'Nevada', 4), ('2021-03-09', 'Arizona', 2)",
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
	tables, err := src.Tables(ctx)
	if err != nil || len(tables) != 1 || tables[0].Rows != 3 || len(tables[0].Columns) != 3 {
		t.Fatalf("Tables = %+v, %v", tables, err)
	}
	cols := tables[0].Columns
	if cols[0].Type != quarry.TypeDate || cols[0].Min != "2021-01-05" || cols[0].Max != "2021-03-09" || len(cols[1].Values) != 2 || cols[2].Type != quarry.TypeFloat {
		t.Errorf("columns %+v", cols)
	}
	res, err := src.Query(ctx, "SELECT state, sum(amount) AS total FROM orders GROUP BY state ORDER BY state", 10)
	if err != nil || res.Float(0, 1) != 12.5 || res.String(1, 0) != "Nevada" {
		t.Fatalf("Query = %v, %v", res, err)
	}
	if _, err := src.Query(ctx, "SELECT * FROM orders", 2); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("over the row limit: %v", err)
	}
	if _, err := src.Query(ctx, "DELETE FROM orders", 10); quarry.ErrorCode(err) != quarry.ECodeForbidden {
		t.Errorf("a write: %v", err)
	}
	if _, err := src.Query(ctx, "SELECT * FROM read_csv('/etc/passwd')", 10); err == nil {
		t.Error("a query read a file outside the database")
	}
	if _, err := OpenFileSource(ctx, filepath.Join(t.TempDir(), "nope.duckdb")); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("a missing file: %v", err)
	}
	if _, err := OpenFileSource(ctx, writeFile(t, "not.duckdb", "hello")); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("not a database: %v", err)
	}
}
