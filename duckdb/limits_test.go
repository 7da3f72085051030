package duckdb

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
)

// internalText are pieces of DuckDB's and Quarry's own SQL and error
// decoration that a message for the user must never show.
var internalText = []string{"SELECT", "VALUES", "read_csv", "LINE 1", "Parser Error", "json_serialize_sql", "strptime"}

// checkUserMessage fails t when msg shows SQL text or a server path.
func checkUserMessage(t *testing.T, what, msg string) {
	t.Helper()
	for _, s := range append(internalText, os.TempDir()) {
		if strings.Contains(msg, s) {
			t.Errorf("%s message %q shows %q", what, msg, s)
		}
	}
}

// A NUL byte anywhere in a CSV file, a date-like value, a quoted value or
// a name, refuses the file as MALFORMED_CSV and says where, in words.
// Before, it reached DuckDB inside SQL text that sniffs date layouts and
// the upload answered with that SQL.
func TestLoadCSVNUL(t *testing.T) {
	tests := []struct {
		name    string
		content string
		where   string
	}{
		{"ISO date value", "day,amount\n2024-01-01,1\n2024-01-\x0002,2\n", "line 3, field 1"},
		{"day-first date value", "amount,day\n1,25/01/2024\n2,26/0\x001/2024\n", "line 3, field 2"},
		{"first value", "day,amount\n\x002024-01-01,1\n", "line 2, field 1"},
		{"quoted value over two lines", "day,note\n2024-01-01,\"a\nb\x00\"\n", "line 3, field 2"},
		{"header", "da\x00y,amount\n2024-01-01,1\n", "line 1, field 1"},
		{"second name", "day,amo\x00unt\n2024-01-01,1\n", "line 1, field 2"},
		{"UTF-16 without a byte-order mark", "d\x00a\x00y\x00,\x00n\x00\n\x00", "line 1, field 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustOpen(t)
			_, _, err := e.LoadCSV(context.Background(), "t", writeFile(t, "t.csv", tt.content))
			if got := quarry.ErrorCode(err); got != quarry.ECodeMalformedCSV {
				t.Fatalf("LoadCSV(%q) = %v; want MALFORMED_CSV", tt.content, err)
			}
			msg := quarry.ErrorMessage(err)
			if want := "t.csv holds a NUL byte on " + tt.where; !strings.Contains(msg, want) {
				t.Errorf("LoadCSV(%q) message = %q; want %q", tt.content, msg, want)
			}
			checkUserMessage(t, "LoadCSV", msg)
			if n := tableCount(t, e); n != 0 {
				t.Errorf("after LoadCSV(%q) %d tables exist; want 0", tt.content, n)
			}
		})
	}
}

// Text values that are not NUL but unusual in SQL (quotes, backslashes,
// control characters) are data: they load, and date sniffing over them
// neither fails nor misreads them.
func TestLoadCSVOddText(t *testing.T) {
	e := mustOpen(t)
	content := "day,note\n2024-01-01,\"it's\"\n2024-01-0'2,a\\b\n2024-01-03,\x01\x1f\n"
	schema, rows, err := e.LoadCSV(context.Background(), "t", writeFile(t, "t.csv", content))
	if err != nil || rows != 3 {
		t.Fatalf("LoadCSV(%q) = %d rows, %v; want 3 rows", content, rows, err)
	}
	if got := schema.Columns[0].DataType; got != quarry.TypeString {
		t.Errorf("day with a value 2024-01-0'2 read as %s; want string", got)
	}
	res, err := e.Query(context.Background(), "SELECT note FROM t WHERE day = '2024-01-03'")
	if err != nil || len(res.Rows) != 1 || res.Rows[0][0] != "\x01\x1f" {
		t.Errorf("control characters came back as %v, %v; want %q", res, err, "\x01\x1f")
	}
}

// wideCSV returns a CSV of about size bytes with cols columns: a date, an
// amount, then integers, words and decimals in turn.
func wideCSV(cols, size int) string {
	var b strings.Builder
	b.WriteString("day,amount")
	for i := 2; i < cols; i++ {
		fmt.Fprintf(&b, ",c%d", i)
	}
	b.WriteByte('\n')
	words := []string{"north", "south", "east", "west"}
	for r := 0; b.Len() < size; r++ {
		fmt.Fprintf(&b, "2024-01-%02d,%d", r%28+1, r*7%100)
		for i := 2; i < cols; i++ {
			switch i % 3 {
			case 0:
				fmt.Fprintf(&b, ",%d", (r+i)%10)
			case 1:
				b.WriteString("," + words[(r+i)%4])
			default:
				fmt.Fprintf(&b, ",%d.5", (r*i)%7)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// A 2 MB file of 1,000 columns loads and profiles (it once peaked at
// 500 MB here and at 13 GB in an investigation), and a file with more
// than MaxColumns columns is refused before DuckDB reads it.
func TestLoadCSVWide(t *testing.T) {
	ctx := context.Background()
	e := mustOpen(t)
	content := wideCSV(1000, 2<<20)
	schema, rows, err := e.LoadCSV(ctx, "wide", writeFile(t, "wide.csv", content))
	if err != nil {
		t.Fatalf("LoadCSV(1,000 columns): %v", err)
	}
	if want := int64(strings.Count(content, "\n") - 1); rows != want || len(schema.Columns) != 1000 {
		t.Fatalf("LoadCSV(1,000 columns) = %d columns, %d rows; want 1000, %d", len(schema.Columns), rows, want)
	}
	for i, want := range map[int]string{0: quarry.TypeDate, 1: quarry.TypeInteger, 3: quarry.TypeInteger, 4: quarry.TypeString, 5: quarry.TypeFloat, 999: quarry.TypeInteger} {
		if got := schema.Columns[i].DataType; got != want {
			t.Errorf("column %d (%s) is %s; want %s", i, schema.Columns[i].Name, got, want)
		}
	}
	if err := e.Lock(ctx); err != nil {
		t.Fatal(err)
	}
	m, err := e.ParseMetric(ctx, "SELECT SUM(amount) FROM wide WHERE c4 = 'north'")
	if err != nil || m.Where != "(c4 = 'north')" {
		t.Fatalf("ParseMetric over 1,000 columns = %+v, %v", m, err)
	}
	if x, err := e.TimeColumn(ctx, m, "", ""); err != nil || x != "wide.\"day\"" && x != "wide.day" {
		t.Errorf("TimeColumn = %q, %v; want wide.day", x, err)
	}

	for _, n := range []int{MaxColumns + 1, 5000} {
		e := mustOpen(t)
		_, _, err := e.LoadCSV(ctx, "wider", writeFile(t, "wider.csv", wideCSV(n, 2<<20)))
		if quarry.ErrorCode(err) != quarry.ECodeResourceLimit || !strings.Contains(err.Error(), "more than 2048 columns") {
			t.Errorf("LoadCSV(%d columns) = %v; want RESOURCE_LIMIT naming the 2048 columns", n, err)
		}
		if qe, ok := err.(*quarry.Error); !ok || qe.Hint == "" {
			t.Errorf("LoadCSV(%d columns) has no hint", n)
		}
	}
	// The limit itself is allowed.
	if _, _, err := mustOpen(t).LoadCSV(ctx, "widest", writeFile(t, "widest.csv", wideCSV(MaxColumns, 64<<10))); err != nil {
		t.Errorf("LoadCSV(%d columns): %v", MaxColumns, err)
	}
	// A row, not the header, with too many fields is a ragged row.
	ragged := "a,b\n1,2\n" + strings.Repeat("3,", MaxColumns+5) + "4\n"
	_, _, err = mustOpen(t).LoadCSV(ctx, "ragged", writeFile(t, "ragged.csv", ragged))
	if quarry.ErrorCode(err) != quarry.ECodeMalformedCSV || !strings.Contains(err.Error(), "line 3 has more than 2048 fields; the header has 2") {
		t.Errorf("LoadCSV(a row of %d fields) = %v; want MALFORMED_CSV for line 3", MaxColumns+6, err)
	}
}

// A line longer than DuckDB reads is refused with the line cut short in
// the message, and no server path.
func TestLoadCSVLongLine(t *testing.T) {
	e := mustOpen(t)
	path := writeFile(t, "long.csv", "a,b\n1,"+strings.Repeat("x", 3<<20)+"\n")
	_, _, err := e.LoadCSV(context.Background(), "long", path)
	if quarry.ErrorCode(err) != quarry.ECodeMalformedCSV {
		t.Fatalf("LoadCSV(a 3 MB line) = %.300v; want MALFORMED_CSV", err)
	}
	msg := quarry.ErrorMessage(err)
	if len(msg) > maxReadMessage+100 || strings.Contains(msg, path) {
		t.Errorf("LoadCSV(a 3 MB line) message is %d bytes: %.600s", len(msg), msg)
	}
}

// SQL text past MaxSQLLen is refused before DuckDB parses it (the parser
// takes hundreds of bytes of memory per byte of SQL, outside its limit).
func TestQueryTooLong(t *testing.T) {
	e := mustOpen(t)
	mustLoad(t, e, "t", "a,b\nx,y\n")
	ctx := context.Background()
	var b strings.Builder
	b.WriteString("SELECT ")
	for b.Len() <= MaxSQLLen {
		b.WriteString("count(DISTINCT a || b), ")
	}
	b.WriteString("1 FROM t")
	long := b.String()
	if _, err := e.Query(ctx, long); quarry.ErrorCode(err) != quarry.ECodeResourceLimit || !strings.Contains(err.Error(), "the limit is 128 KB") {
		t.Errorf("Query(%d bytes) = %v; want RESOURCE_LIMIT", len(long), err)
	}
	if _, err := e.Materialize(ctx, "step", long); quarry.ErrorCode(err) != quarry.ECodeResourceLimit {
		t.Errorf("Materialize(%d bytes) = %v; want RESOURCE_LIMIT", len(long), err)
	}
	if _, err := e.References(ctx, long); quarry.ErrorCode(err) != quarry.ECodeResourceLimit {
		t.Errorf("References(%d bytes) = %v; want RESOURCE_LIMIT", len(long), err)
	}
	if _, err := e.Scans(ctx, long); quarry.ErrorCode(err) != quarry.ECodeResourceLimit {
		t.Errorf("Scans(%d bytes) = %v; want RESOURCE_LIMIT", len(long), err)
	}
	// Just under the limit runs.
	short := long[:strings.LastIndex(long[:MaxSQLLen-10], ", ")] + " FROM t"
	if _, err := e.Query(ctx, short); err != nil {
		t.Errorf("Query(%d bytes): %v", len(short), err)
	}
}

// A query that needs more memory than the engine has ends with
// RESOURCE_LIMIT, not INTERNAL.
func TestQueryOutOfMemory(t *testing.T) {
	e, err := Open(Options{MemoryLimit: "64MB", Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	mustLoad(t, e, "t", "a\n1\n")
	_, err = e.Query(context.Background(), "SELECT list(i || repeat('x', 100)) FROM range(2000000) r(i)")
	if quarry.ErrorCode(err) != quarry.ECodeResourceLimit || !strings.Contains(err.Error(), "64MB") {
		t.Errorf("Query(a 200 MB list) = %v; want RESOURCE_LIMIT naming the 64MB limit", err)
	}
}

// A --time-format holding a NUL or another control character is refused
// before it becomes SQL text.
func TestTimeColumnFormatText(t *testing.T) {
	e := mustOpen(t)
	mustLoad(t, e, "t", "day,amount\n01/02/2024,1\n03/02/2024,2\n")
	ctx := context.Background()
	m, err := e.ParseMetric(ctx, "SELECT SUM(amount) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"%d/%m/%Y\x00", "%d\x01%m"} {
		_, err := e.TimeColumn(ctx, m, "t.day", f)
		if quarry.ErrorCode(err) != quarry.ECodeInvalidTimeColumn || !strings.Contains(err.Error(), "control character") {
			t.Errorf("TimeColumn(format %q) = %v; want INVALID_TIME_COLUMN for a control character", f, err)
		}
	}
	// A quote in a layout is text, not SQL.
	_, err = e.TimeColumn(ctx, m, "t.day", "%d/%m/%Y'")
	if quarry.ErrorCode(err) != quarry.ECodeInvalidTimeColumn {
		t.Errorf("TimeColumn(format with a quote) = %v; want INVALID_TIME_COLUMN", err)
	}
	checkUserMessage(t, "TimeColumn", quarry.ErrorMessage(err))
}

// Masking patterns go in as parameters: quotes in a pattern are pattern
// text.
func TestMaskMatchesQuotes(t *testing.T) {
	e := mustOpen(t)
	mustLoad(t, e, "people", "name,note\nann,it's secret\nbob,open\n")
	ctx := context.Background()
	if _, err := e.Materialize(ctx, "step", "SELECT * FROM people"); err != nil {
		t.Fatal(err)
	}
	masked, err := e.MaskMatches(ctx, "step", []string{`it's \w+`})
	if err != nil || masked["note"] != 1 {
		t.Fatalf("MaskMatches = %v, %v; want note: 1", masked, err)
	}
	res, err := e.Query(ctx, "SELECT note FROM step ORDER BY name")
	if err != nil || res.Rows[0][0] != "[masked]" || res.Rows[1][0] != "open" {
		t.Errorf("masked notes = %v, %v; want [masked], open", res, err)
	}
}

func TestQuoteNUL(t *testing.T) {
	for _, tt := range []struct{ in, ident, str string }{
		{"a\x00b", "\"a\uFFFDb\"", "'a\uFFFDb'"},
		{"it's", "\"it's\"", "'it''s'"},
		{`say "x"`, `"say ""x"""`, `'say "x"'`},
		{"plain", "plain", "'plain'"},
	} {
		if got := quoteIdent(tt.in); got != tt.ident {
			t.Errorf("quoteIdent(%q) = %q; want %q", tt.in, got, tt.ident)
		}
		if got := quoteString(tt.in); got != tt.str {
			t.Errorf("quoteString(%q) = %q; want %q", tt.in, got, tt.str)
		}
	}
}

// A list parameter holding text that is not UTF-8 crashes the driver, so
// date sniffing leaves such a sample out instead of binding it; the
// others are answered, NUL bytes and all.
func TestDateCandidatesNotUTF8(t *testing.T) {
	e := mustOpen(t)
	got, err := e.dateCandidates(context.Background(), [][]string{
		{"2024-01-01", "2024-01-\xff2"},
		{"2024-01-01", "2024-01-\x0002"},
		{"2024-01-01", "2024-01-02"},
	})
	if err != nil || len(got) != 3 || got[0] != nil || got[1] != nil || len(got[2]) == 0 || got[2][0] != isoFormat {
		t.Errorf("dateCandidates = %q, %v; want none, none, ISO first", got, err)
	}
}

// The hint to quote a column name finds the names a query that does not
// parse mentions bare, and only those.
func TestQuoteHint(t *testing.T) {
	e := mustOpen(t)
	mustLoad(t, e, "t", "order,Unit Price,group,#n,amount\n1,2,3,4,5\n")
	tests := []struct{ sql, want string }{
		{"SELECT SUM(Unit Price) FROM t", `"Unit Price"`},
		{"SELECT order, amount FROM t GROUP BY group", `"order", "group"`},
		{"SELECT \"order\", 'group' FROM t WHERE", ""},
		{"SELECT #n FROM t WHERE", `"#n"`},
		{"SELECT orders, grouping FROM t WHERE", ""},
	}
	for _, tt := range tests {
		_, err := e.Query(context.Background(), tt.sql)
		qe, ok := err.(*quarry.Error)
		if !ok {
			t.Fatalf("Query(%q) = %v; want a parse error", tt.sql, err)
		}
		got := strings.TrimPrefix(qe.Hint, "quote column names that are SQL keywords or hold other characters in double quotes: ")
		if got != tt.want {
			t.Errorf("Query(%q) hint = %q; want %q", tt.sql, got, tt.want)
		}
	}
}
