package duckdb

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
)

func TestWorkspace(t *testing.T) {
	ctx := context.Background()
	e := mustOpen(t)
	dir := t.TempDir()
	jsonArray := writeFile(t, "sales.json", `[{"state":"Arizona","amount":10.5},{"state":"Nevada","amount":4}]`)
	jsonLines := writeFile(t, "events.jsonl", "{\"kind\":\"click\",\"n\":1}\n{\"kind\":\"view\",\"n\":3}\n")
	parquet := filepath.Join(dir, "stores.parquet")
	if _, err := e.db.Exec("COPY (SELECT 1 AS id, 'Phoenix' AS city UNION ALL SELECT 2, 'Reno') TO " + quoteString(parquet) + " (FORMAT parquet)"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name, path string
		rows       int64
	}{{"sales", jsonArray, 2}, {"events", jsonLines, 2}, {"stores", parquet, 2}} {
		schema, rows, err := e.LoadFile(ctx, f.name, f.path)
		if err != nil || rows != f.rows || len(schema.Columns) != 2 {
			t.Fatalf("LoadFile(%s) = %v, %d rows, %v", f.name, schema, rows, err)
		}
	}
	if _, _, err := e.LoadFile(ctx, "bad", writeFile(t, "bad.json", "{not json")); quarry.ErrorCode(err) != quarry.ECodeMalformedCSV {
		t.Errorf("LoadFile(bad json) = %v; want MALFORMED_CSV", err)
	}
	if _, _, err := e.LoadFile(ctx, "x", writeFile(t, "x.xlsx", "PK")); quarry.ErrorCode(err) != quarry.ECodeInvalidFileType {
		t.Errorf("LoadFile(xlsx) = %v; want INVALID_FILE_TYPE", err)
	}
	if err := e.Lock(ctx); err != nil {
		t.Fatal(err)
	}
	// A step's result becomes a table the next step reads.
	n, err := e.Materialize(ctx, "by_state", "SELECT state, SUM(amount) AS amount FROM sales GROUP BY state")
	if err != nil || n != 2 {
		t.Fatalf("Materialize = %d, %v", n, err)
	}
	res, err := e.Query(ctx, "SELECT amount FROM by_state WHERE state = 'Arizona'")
	if err != nil || res.Float(0, 0) != 10.5 {
		t.Fatalf("query of the materialized step = %v, %v", res, err)
	}
	if _, err := e.Materialize(ctx, "evil", "DROP TABLE sales"); quarry.ErrorCode(err) != quarry.ECodeForbidden {
		t.Errorf("Materialize(DROP) = %v; want FORBIDDEN", err)
	}
	// A database source's result registers as a table with fitting types.
	day := time.Date(2021, 1, 5, 0, 0, 0, 0, time.UTC)
	in := &quarry.QueryResult{Columns: []string{"day", "n", "x", "label"}, Rows: [][]any{
		{day, int64(3), int64(1), "a"}, {day.AddDate(0, 0, 1), nil, 2.5, nil},
	}}
	if err := e.Register(ctx, "remote", in); err != nil {
		t.Fatal(err)
	}
	cols, err := e.Columns(ctx, "remote")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{quarry.TypeDatetime, quarry.TypeInteger, quarry.TypeFloat, quarry.TypeString}
	for i, c := range cols {
		if c.DataType != want[i] {
			t.Errorf("column %s is %s; want %s", c.Name, c.DataType, want[i])
		}
	}
	res, err = e.Query(ctx, "SELECT SUM(x), COUNT(n), COUNT(*) FROM remote")
	if err != nil || res.Float(0, 0) != 3.5 || res.Float(0, 1) != 1 || res.Float(0, 2) != 2 {
		t.Fatalf("registered table sums = %v, %v", res, err)
	}
}

func TestJSONTextDatesAndNumbers(t *testing.T) {
	e := mustOpen(t)
	path := writeFile(t, "movies.json", `[{"Title":"A","Release Date":"Jun 12 1998","Gross":"$1,200"},`+
		`{"Title":"B","Release Date":"Dec 25 2005","Gross":"$3,400,000"},{"Title":"C","Release Date":null,"Gross":null}]`)
	schema, _, err := e.LoadFile(context.Background(), "movies", path)
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]string{}
	for _, c := range schema.Columns {
		types[c.Name] = c.DataType
	}
	if types["Release Date"] != quarry.TypeDate || types["Gross"] != quarry.TypeFloat {
		t.Errorf("types %v; want Release Date a date and Gross a number", types)
	}
	if lo, hi := minMax(t, e, `"Release Date"`, "movies"); lo != "1998-06-12" || hi != "2005-12-25" {
		t.Errorf("Release Date runs %s..%s; want 1998-06-12..2005-12-25", lo, hi)
	}
}
