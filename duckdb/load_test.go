package duckdb

import (
	"context"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
)

func TestLoadCSVErrors(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		content string
		code    string
		msg     string // substring of the message
	}{
		{"not csv", "orders.xlsx", "a,b\n1,2\n", quarry.ECodeInvalidFileType, "orders.xlsx"},
		{"zero bytes", "z.csv", "", quarry.ECodeEmptyFile, "z.csv is empty"},
		{"whitespace", "w.csv", "  \n\n\t\n", quarry.ECodeEmptyFile, "w.csv is empty"},
		{"header only", "h.csv", "id,amount\n", quarry.ECodeEmptyFile, "has a header but no rows"},
		{"header only no newline", "h2.csv", "id,amount", quarry.ECodeEmptyFile, "has a header but no rows"},
		{"header and blank lines", "h3.csv", "id,amount\n\n\n", quarry.ECodeEmptyFile, "has a header but no rows"},
		{"numeric first row", "n.csv", "1,2.5,3\n4,5,6\n", quarry.ECodeNoHeaders, "n.csv"},
		{"date first row", "d.csv", "2024-01-01,5\n2024-01-02,6\n", quarry.ECodeNoHeaders, "looks like data"},
		{"data row with text", "p.csv", "alice,30,NY\nbob,25,LA\n", quarry.ECodeNoHeaders, "column 2"},
		{"empty name", "e.csv", "id,,amount\n1,x,2\n", quarry.ECodeNoHeaders, "column 2 has no name"},
		{"duplicate name", "dup.csv", "id,Amount,amount\n1,2,3\n", quarry.ECodeNoHeaders, "both named"},
		{"short row", "s.csv", "a,b,c\n1,2,3\n4,5\n6,7,8\n", quarry.ECodeMalformedCSV, "s.csv line 3 has 2 fields; the header has 3"},
		{"long row", "l.csv", "a,b,c\n1,2,3\n4,5,6\n7,8,9,10\n", quarry.ECodeMalformedCSV, "line 4 has 4 fields"},
		{"ragged after quoted newline", "q.csv", "a,b\n1,\"x\ny\"\n2,z,3\n", quarry.ECodeMalformedCSV, "line 4 has 3 fields"},
		{"ragged crlf", "c.csv", "a,b\r\n1,2\r\n3\r\n", quarry.ECodeMalformedCSV, "line 3 has 1 field;"},
		{"invalid utf8", "u.csv", "a,b\n1,ok\n2,\xff\xfe\n", quarry.ECodeMalformedCSV, "invalid byte on line 3"},
		{"latin1", "lat.csv", "name,city\nJos\xe9,M\xfcnchen\n", quarry.ECodeMalformedCSV, "not valid UTF-8"},
		{"unclosed quote", "uq.csv", "a,b\n1,\"open\n2,3\n", quarry.ECodeMalformedCSV, "never closed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustOpen(t)
			_, _, err := e.LoadCSV(context.Background(), "t", writeFile(t, tt.file, tt.content))
			if got := quarry.ErrorCode(err); got != tt.code {
				t.Fatalf("LoadCSV(%q) code = %s (%v); want %s", tt.content, got, err, tt.code)
			}
			if msg := quarry.ErrorMessage(err); !strings.Contains(msg, tt.msg) {
				t.Errorf("LoadCSV(%q) message = %q; want it to contain %q", tt.content, msg, tt.msg)
			}
			if n := tableCount(t, e); n != 0 {
				t.Errorf("after failed LoadCSV(%q) %d tables exist; want 0", tt.content, n)
			}
		})
	}
}

func tableCount(t *testing.T, e *Engine) int64 {
	t.Helper()
	var n int64
	if err := e.db.QueryRow("SELECT count(*) FROM duckdb_tables()").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestLoadCSVAccepts(t *testing.T) {
	tests := []struct {
		name    string
		content string
		rows    int64
		cols    []string
	}{
		{"plain", "id,amount\n1,2\n3,4\n", 2, []string{"id", "amount"}},
		{"no final newline", "id,amount\n1,2\n3,4", 2, []string{"id", "amount"}},
		{"crlf", "id,amount\r\n1,2\r\n3,4\r\n", 2, []string{"id", "amount"}},
		{"bom", "\xef\xbb\xbfid,amount\n1,2\n", 1, []string{"id", "amount"}},
		{"blank lines", "id,amount\n1,2\n\n3,4\n\n", 2, []string{"id", "amount"}},
		{"quoted delimiters and newlines", "id,note\n1,\"a, b\"\n2,\"line\nbreak\"\n3,\"say \"\"hi\"\"\"\n", 3, []string{"id", "note"}},
		{"semicolons", "id;amount;city\n1;2,5;Paris\n2;3;Lyon\n", 2, []string{"id", "amount", "city"}},
		{"tabs", "id\tcity\n1\tParis\n", 1, []string{"id", "city"}},
		{"single column", "city\nParis\nLyon\n", 2, []string{"city"}},
		{"single column blank line", "city\nParis\n\nLyon\n", 3, []string{"city"}}, // a NULL, as DuckDB reads it
		{"single column blank last line", "city\nParis\nLyon\n\n", 3, []string{"city"}},
		{"single column quoted empty", "city\nParis\n\"\"\nLyon\n", 3, []string{"city"}},
		{"empty fields", "a,b,c\n,,\n1,,\n", 2, []string{"a", "b", "c"}},
		{"stray quote inside field", "id,size\n1,5\" screen\n2,7\n", 2, []string{"id", "size"}},
		{"quoted header", "\"id\",\"the, amount\"\n1,2\n", 1, []string{"id", "the, amount"}},
		{"names with spaces", "Order ID,Total Amount\n1,2\n", 1, []string{"Order ID", "Total Amount"}},
		{"utf8 text", "name,city\nJosé,München\n", 1, []string{"name", "city"}},
		{"title line alone", "Sales report\nregion,amount\nwest,10\neast,20\n", 2, []string{"region", "amount"}},
		{"title line padded", "\xef\xbb\xbfSales report,,\nregion,amount,units\nwest,10,1\n", 1, []string{"region", "amount", "units"}},
		{"title then blank line", "Sales report\n\nregion,amount\nwest,10\n", 1, []string{"region", "amount"}},
		{"empty spacer column", "region,,amount\nwest,,10\neast,,20\n", 2, []string{"region", "amount"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustOpen(t)
			schema, rows, err := e.LoadCSV(context.Background(), "t", writeFile(t, "t.csv", tt.content))
			if err != nil {
				t.Fatalf("LoadCSV(%q): %v", tt.content, err)
			}
			if rows != tt.rows {
				t.Errorf("LoadCSV(%q) rows = %d; want %d", tt.content, rows, tt.rows)
			}
			var names []string
			for _, c := range schema.Columns {
				names = append(names, c.Name)
			}
			if strings.Join(names, "|") != strings.Join(tt.cols, "|") {
				t.Errorf("LoadCSV(%q) columns = %q; want %q", tt.content, names, tt.cols)
			}
		})
	}
}

func TestLoadCSVTableState(t *testing.T) {
	e := mustOpen(t)
	ctx := context.Background()
	mustLoad(t, e, "orders", "id,amount\n1,2\n")
	if _, _, err := e.LoadCSV(ctx, "orders", writeFile(t, "o.csv", "id\n1\n")); quarry.ErrorCode(err) != quarry.ECodeConflict {
		t.Errorf("LoadCSV(existing name) = %v; want CONFLICT", err)
	}
	if _, _, err := e.LoadCSV(ctx, "Bad Name", writeFile(t, "b.csv", "id\n1\n")); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("LoadCSV(bad name) = %v; want INVALID", err)
	}
	if _, _, err := e.LoadCSV(ctx, "missing", "/nonexistent/x.csv"); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("LoadCSV(missing file) = %v; want NOT_FOUND", err)
	}
	// A failed load must not take the name.
	if _, _, err := e.LoadCSV(ctx, "later", writeFile(t, "bad.csv", "a,b\n1\n")); err == nil {
		t.Fatal("LoadCSV(ragged) succeeded")
	}
	mustLoad(t, e, "later", "a,b\n1,2\n")
	if err := e.Lock(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.LoadCSV(ctx, "after", writeFile(t, "a.csv", "id\n1\n")); quarry.ErrorCode(err) != quarry.ECodeForbidden {
		t.Errorf("LoadCSV after Lock = %v; want FORBIDDEN", err)
	}
}

func TestLoadCSVLateTypeChange(t *testing.T) {
	// DuckDB samples about 20k rows to guess types; a value that breaks the
	// guess later must not fail the load.
	var b strings.Builder
	b.WriteString("id,code\n")
	for i := 0; i < 30000; i++ {
		b.WriteString("1,")
		b.WriteString("42\n")
	}
	b.WriteString("2,N/A\n")
	e := mustOpen(t)
	schema, rows, err := e.LoadCSV(context.Background(), "t", writeFile(t, "t.csv", b.String()))
	if err != nil {
		t.Fatalf("LoadCSV: %v", err)
	}
	// N/A is a missing number, as exports write it: the numbers stay
	// numbers.
	if rows != 30001 || schema.Columns[1].DataType != quarry.TypeInteger || !strings.Contains(schema.Columns[1].Note, "missing") {
		t.Errorf("LoadCSV rows = %d, code type = %s (%q); want 30001, integer with N/A missing", rows, schema.Columns[1].DataType, schema.Columns[1].Note)
	}
	res, err := e.Query(context.Background(), "SELECT count(code), sum(code) FROM t")
	if err != nil || res.Float(0, 0) != 30000 || res.Float(0, 1) != 42*30000 {
		t.Errorf("count, sum of code = %v, %v; want 30000, %d", res, err, 42*30000)
	}
}

// A title above the column names is skipped, and the schema says so; a
// first line that is a name followed by data is not mistaken for one.
func TestTitleLine(t *testing.T) {
	e := mustOpen(t)
	schema, rows, err := e.LoadCSV(context.Background(), "logan", writeFile(t, "logan.csv",
		"TEAM RESULTS,,,,\nWins,Name,,,Weight\n5,Gatlin,,,0.8\n4,Gupta,,,\n"))
	if err != nil || rows != 2 || len(schema.Columns) != 3 {
		t.Fatalf("LoadCSV = %+v, %d, %v; want Wins, Name, Weight and 2 rows", schema, rows, err)
	}
	if !strings.Contains(schema.Note, `"TEAM RESULTS"`) {
		t.Errorf("note %q does not name the skipped title", schema.Note)
	}
	res, err := e.Query(context.Background(), "SELECT SUM(Wins) FROM logan")
	if err != nil || res.Float(0, 0) != 9 {
		t.Fatalf("sum = %v, %v", res, err)
	}
	// One named column then data rows with values under unnamed columns:
	// still refused, not read as a title.
	_, _, err = e.LoadCSV(context.Background(), "bad", writeFile(t, "bad.csv", "id,,\n1,2,3\n4,5,6\n"))
	if quarry.ErrorCode(err) != quarry.ECodeNoHeaders {
		t.Errorf("a header naming one of three columns: %v; want NO_HEADERS", err)
	}
	_, _, err = e.LoadCSV(context.Background(), "bad2", writeFile(t, "bad2.csv", "city\nParis,France\nLyon,France\n"))
	if quarry.ErrorCode(err) != quarry.ECodeMalformedCSV {
		t.Errorf("a one-column header above two-field rows: %v; want MALFORMED_CSV", err)
	}
}

// A delimiter closing every line ("a,b,c,") makes an unnamed, empty last
// column: it is dropped. An unnamed last column that holds values is
// refused like any column without a name.
func TestTrailingDelimiter(t *testing.T) {
	e := mustOpen(t)
	schema, rows, err := e.LoadCSV(context.Background(), "trail", writeFile(t, "trail.csv", "day,region,amount,\n2024-01-01,west,10,\n2024-01-02,east,20,\n"))
	if err != nil || rows != 2 || len(schema.Columns) != 3 || schema.Columns[2].Name != "amount" {
		t.Fatalf("LoadCSV = %+v, %d, %v; want day, region, amount", schema, rows, err)
	}
	res, err := e.Query(context.Background(), "SELECT SUM(amount) FROM trail")
	if err != nil || res.Float(0, 0) != 30 {
		t.Fatalf("sum = %v, %v", res, err)
	}
	_, _, err = e.LoadCSV(context.Background(), "held", writeFile(t, "held.csv", "day,amount,\n2024-01-01,10,x\n2024-01-02,20,\n"))
	if quarry.ErrorCode(err) != quarry.ECodeNoHeaders || !strings.Contains(err.Error(), "column 3") {
		t.Errorf("an unnamed column with values: %v; want NO_HEADERS naming column 3", err)
	}
}
