package duckdb

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
)

// FuzzParseMetric checks that ParseMetric never panics and always answers
// with a metric or one of its documented error codes, for any text: NUL
// bytes, unclosed quotes, text past the length limit, deep nesting.
func FuzzParseMetric(f *testing.F) {
	for _, s := range []string{
		"SELECT SUM(amount) FROM orders",
		"SELECT 100.0 * SUM(amount) FILTER (WHERE status = 'paid') / NULLIF(COUNT(*), 0) FROM orders o WHERE o.amount > 0",
		"SELECT COUNT(DISTINCT customer_id) FROM orders JOIN customers USING (customer_id)",
		"SELECT AVG(amount) FROM orders",
		"SELECT -(-SUM(amount) / (2 * 3)) FROM orders",
		"SELECT SUM(amount)::VARCHAR FROM orders",
		"SELECT CAST(1 AS DOUBLE) * COUNT(*) FROM orders",
		"SELECT SUM(amount) / 0 FROM orders",
		"SELECT COUNT(*) FROM orders, customers",
		"SELECT 1e309 * SUM(amount) FROM orders",
		"SELECT SUM(x) FROM (VALUES (1)) t(x)",
		"PRAGMA version",
		"SELECT",
		"'",
		"SELECT SUM(amount) FROM orders WHERE status = 'a\x00b'",
		"SELECT SUM(amount) FROM \"ord\x00ers\"",
		"SELECT SUM(amount) FROM orders WHERE status = '" + strings.Repeat("x", 3000) + "'",
		"SELECT SUM(" + strings.Repeat("(", 600) + "amount" + strings.Repeat(")", 600) + ") FROM orders",
		"SELECT SUM(amount) FROM orders WHERE " + strings.Repeat("NOT ", 450) + "true",
		"SELECT SUM(" + strings.Repeat("abs(", 300) + "amount" + strings.Repeat(")", 300) + ") FROM orders",
		"SELECT SUM(amount) FROM orders WHERE amount IN (" + strings.Repeat("(SELECT ", 150) + "1" + strings.Repeat(")", 150) + ")",
	} {
		f.Add(s)
	}
	e := metricEngine(f)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, sql string) {
		if len(sql) > 3*quarry.MaxMetricSQLLen {
			sql = sql[:3*quarry.MaxMetricSQLLen] // past the limit is past the limit
		}
		m, err := e.ParseMetric(ctx, sql)
		switch quarry.ErrorCode(err) {
		case "":
			if m == nil || m.Numerator == "" || m.From == "" || len(m.Tables) == 0 {
				t.Fatalf("ParseMetric(%q) = %+v without error; want a complete metric", sql, m)
			}
		case quarry.ECodeMetricSQLRequired, quarry.ECodeInvalidMetricSQL, quarry.ECodeUnsupportedMetric:
		default:
			t.Fatalf("ParseMetric(%q) error = %v; want a metric error code", sql, err)
		}
	})
}

// FuzzCheckSelect checks that the guard in front of Query, Materialize and
// References answers any text with nil or its documented codes, never an
// internal error.
func FuzzCheckSelect(f *testing.F) {
	for _, s := range []string{
		"SELECT 1", "SELECT * FROM orders", "DROP TABLE orders", "SELECT 1; SELECT 2", "", " ",
		"SELECT 'a\x00b'", "COPY orders TO 'x.csv'", "SELECT 1e309", "WITH x AS (SELECT 1) SELECT * FROM x",
		"SELECT " + strings.Repeat("abs(", 2000) + "1" + strings.Repeat(")", 2000),
		"SELECT " + strings.Repeat("(SELECT ", 1200) + "1" + strings.Repeat(")", 1200),
		"PRAGMA version", "ATTACH 'x.db'", "SET threads = 1", "\"", "/*",
	} {
		f.Add(s)
	}
	e := metricEngine(f)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, sql string) {
		if len(sql) > 64<<10 {
			sql = sql[:64<<10]
		}
		err := e.checkSelect(ctx, sql)
		switch quarry.ErrorCode(err) {
		case "", quarry.ECodeInvalid, quarry.ECodeForbidden, quarry.ECodeResourceLimit:
		default:
			t.Fatalf("checkSelect(%q) error = %v; want nil, INVALID, FORBIDDEN or RESOURCE_LIMIT", sql, err)
		}
	})
}

// FuzzLoadCSV loads any file through LoadCSV, the path every upload
// takes: it answers with a table whose row count checkCSV agrees with, or
// with one of the load's codes and a message that shows no SQL or server
// path, and leaves no table behind.
func FuzzLoadCSV(f *testing.F) {
	for _, s := range []string{
		"day,amount\n2024-01-01,1\n2024-01-02,2\n",
		"day,amount\n2024-01-01,1\n2024-01-\x0002,2\n",
		"da\x00y,amount\n2024-01-01,1\n",
		"day,amount\n01/02/2024,1\n13/02/2024,2\n",
		"day,amount\n15-May-2017,\"$1,234.50\"\n16-May-2017,(12.00)\n",
		"q,amount\n2017 Q1,12%\nQ2-2017,7.5%\n",
		"when,n\n2024-01-01T10:00:00+05:00,1\n2024-01-01 23:30:00Z,2\n",
		"day,note\n2024-01-0'1,\"it's\"\n",
		",a,b\n0,1,2\n",
		"Report\nregion,amount\nwest,1\n",
		"a,b,\n1,2,\n",
		"a;b\n1,5;2\n",
		"a\tb\n1\t2\n",
		"a,b\n1,\"x\ny\"\n",
		"\xef\xbb\xbfid\n1\n",
		"d\x00a\x00y\x00\n\x00",
		"a,b\n\"open\n",
		"id,year\n1,2020\n2,1999\n",
		"id,ts\n1,1700000000\n2,1700000100\n",
		"x\n" + strings.Repeat("1,", 40) + "\n",
	} {
		f.Add(s)
	}
	ctx := context.Background()
	dir := f.TempDir()
	n := 0
	f.Fuzz(func(t *testing.T, content string) {
		if len(content) > 4096 {
			content = content[:4096]
		}
		n++
		e, err := Open(Options{MemoryLimit: "256MB", Threads: 1, TempDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		path := writeFile(t, fmt.Sprintf("f%d.csv", n), content)
		schema, rows, err := e.LoadCSV(ctx, "t", path)
		switch quarry.ErrorCode(err) {
		case "":
			shape, serr := checkCSV(strings.NewReader(content), "f.csv")
			if serr != nil || rows != shape.Rows || len(schema.Columns) == 0 || len(schema.Columns) > MaxColumns {
				t.Fatalf("LoadCSV(%q) = %d columns, %d rows; checkCSV = %+v, %v", content, len(schema.Columns), rows, shape, serr)
			}
			return
		case quarry.ECodeEmptyFile, quarry.ECodeNoHeaders, quarry.ECodeMalformedCSV, quarry.ECodeResourceLimit:
		default:
			t.Fatalf("LoadCSV(%q) error = %v; want a CSV validation code", content, err)
		}
		msg := quarry.ErrorMessage(err)
		for _, s := range append(internalText, path, dir) {
			if strings.Contains(msg, s) && !strings.Contains(content, s) { // a name may be SELECT
				t.Fatalf("LoadCSV(%q) message %q shows %q", content, msg, s)
			}
		}
		if n := tableCount(t, e); n != 0 {
			t.Fatalf("after LoadCSV(%q) failed, %d tables exist", content, n)
		}
	})
}

// FuzzReadText feeds any text values, one per line, to the reading of text
// columns as numbers and dates (layout sniffing, separators, currency,
// quarters, UTC offsets) and checks its contract: no error, and when a
// reading is chosen, every non-empty value reads (dates as years 1800 to
// 2200). It also checks that mayBeDates, the quick test in Go before the
// layouts are tried, passes every value one of them reads. The values reach DuckDB as parameters, so quotes and NUL bytes
// are data like any other.
func FuzzReadText(f *testing.F) {
	for _, s := range []string{
		"2024-01-01\n2024-01-02", "01/02/2024\n13/02/2024", "01/02/2024\n02/03/2024",
		"15-May-2017\nSep 17, 2017", "2017-05\n2017-06", "2017 Q1\nQ2-2017", "Jan 2020\nFeb 2020",
		"2024-01-01T10:00:00+05:00\n2024-01-01 23:30:00Z", "01/01/2015 00:00\n02/01/2015 00:00",
		"$1,234.50\n(12.00)\n-3", "1.234,5 €\n2,5 €", "12.5%\n7%", "20240131\n20240201",
		"2024-01-\x0002\n2024-01-01", "2024-01-0'1\n2024-01-02", "1,2\n3,4", "N/A\n2024-01-01",
		"0001-01-01\n9999-12-31", "99/99/9999", "2024-02-30\n2024-02-28", "1e309\n$1,000", "epoch\n2024-01-01",
		"SEPTEMBER 2017\nsep 2017", "MAY-0\nJun-7", "2024-01-01T10:00:00.000Z\n2024-01-01 10:00:00 UTC", "01/02/2024 10:00 PM\n01/03/2024 9:00 am",
		"2024-01-01 10:00:00 EST", "Sept 17, 2017", "SKU123\nSKU124", "A-17\nB-18", "2017q1\nq4 2018",
	} {
		f.Add(s)
	}
	e := mustOpen(f)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 2048 {
			in = in[:2048]
		}
		vals := strings.Split(in, "\n")
		if len(vals) > 64 {
			vals = vals[:64]
		}
		for i, v := range vals {
			// Text in DuckDB is UTF-8, as checkCSV makes files be.
			vals[i] = strings.ToValidUTF8(v, "\uFFFD")
		}
		ids := make([]int64, len(vals))
		for i := range ids {
			ids[i] = int64(i)
		}
		for _, q := range []string{"DROP TABLE IF EXISTS src", "DROP TABLE IF EXISTS t"} {
			if _, err := e.db.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := e.db.ExecContext(ctx, "CREATE TABLE src AS SELECT unnest(?::BIGINT[]) AS id, unnest(?::VARCHAR[]) AS v", ids, vals); err != nil {
			t.Fatal(err)
		}
		if _, err := e.db.ExecContext(ctx, "CREATE TABLE t AS SELECT * FROM src"); err != nil {
			t.Fatal(err)
		}
		// mayBeDates must pass every value some layout reads.
		var any []string
		for _, f := range append(append([]string{isoFormat}, strptimeLayouts...), quarterFormat) {
			x := readingExpr(textReading{Type: "TIMESTAMP", Format: f}, "trim(v)")
			if f == quarterFormat {
				x = "CAST(" + x + " AS TIMESTAMP)"
			}
			any = append(any, "coalesce(year("+x+") BETWEEN 1800 AND 2200, false)")
		}
		rows, err := e.db.QueryContext(ctx, "SELECT trim(v) FROM src WHERE "+strings.Join(any, " OR "))
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err != nil {
				t.Fatal(err)
			}
			// Values without a digit (epoch, today) or over 40 bytes
			// never reach the layouts (see readableColumns).
			if strings.ContainsAny(v, "0123456789") && len(v) <= 40 && !mayBeDates([]string{v}) {
				t.Errorf("a layout reads %q as a date, but mayBeDates refuses it", v)
			}
		}
		rows.Close()
		reads, _, err := e.readTextColumns(ctx, "t")
		if err != nil {
			t.Fatalf("readTextColumns(%q): %v", vals, err)
		}
		r, ok := reads["v"]
		if !ok {
			return
		}
		// every value reads, but the markers of a missing value
		ok2 := "t.v IS NOT NULL"
		switch r.Format {
		case missingFormat:
			ok2 += " OR trim(src.v) IN (" + missingList + ")"
		case missingTextFormat:
			ok2 += " OR trim(src.v) IN (" + missingTextList + ")"
		case numberUS, numberEU, truthFormat:
		default:
			ok2 = "year(t.v) BETWEEN 1800 AND 2200"
		}
		var bad int64
		if err := e.db.QueryRowContext(ctx, "SELECT count(*) FROM src JOIN t USING (id) WHERE nullif(trim(src.v), '') IS NOT NULL AND NOT coalesce("+ok2+", false)").Scan(&bad); err != nil {
			t.Fatal(err)
		}
		if bad > 0 {
			t.Fatalf("readTextColumns(%q) read them as %s %s, but %d values did not read", vals, r.Type, r.Format, bad)
		}
	})
}
