package duckdb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
)

// loadSchema loads content as table name and returns the column called col
// of its schema.
func loadColumn(t *testing.T, e *Engine, name, content, col string) quarry.Column {
	t.Helper()
	schema, _, err := e.LoadCSV(context.Background(), name, writeFile(t, name+".csv", content))
	if err != nil {
		t.Fatalf("LoadCSV(%s): %v", name, err)
	}
	for _, c := range schema.Columns {
		if c.Name == col {
			return c
		}
	}
	t.Fatalf("%s has no column %s: %+v", name, col, schema.Columns)
	return quarry.Column{}
}

// firstAndLast returns min and max of expr over table as text.
func minMax(t *testing.T, e *Engine, expr, table string) (string, string) {
	t.Helper()
	res, err := e.Query(context.Background(), "SELECT CAST(min("+expr+") AS VARCHAR), CAST(max("+expr+") AS VARCHAR) FROM "+table)
	if err != nil {
		t.Fatalf("min/max %s: %v", expr, err)
	}
	return res.String(0, 0), res.String(0, 1)
}

func TestTextDatesAreReadByLayout(t *testing.T) {
	tests := []struct {
		name, values string // values one per row
		format       string
		typ          string
		lo, hi       string
	}{
		{"year-month", "2017-05|2017-06|2018-01", "%Y-%m", quarry.TypeDate, "2017-05-01", "2018-01-01"},
		{"day-mon-year", "15-May-2017|01-Jun-2017|3-Dec-2016", "%d-%b-%Y", quarry.TypeDate, "2016-12-03", "2017-06-01"},
		{"mon day, year", `"Sep 17, 2017"|"Oct 1, 2017"`, "%b %d, %Y", quarry.TypeDate, "2017-09-17", "2017-10-01"},
		{"midnight times are dates", "01/01/2015 00:00|01/02/2015 00:00|12/31/2015 00:00", "%m/%d/%Y %H:%M", quarry.TypeDate, "2015-01-01", "2015-12-31"},
		{"times stay timestamps", "01/01/2015 10:30|01/02/2015 00:00", "%m/%d/%Y %H:%M", quarry.TypeDatetime, "2015-01-01 10:30:00", "2015-01-02 00:00:00"},
		{"day first decided by one value", "01/02/2024|13/02/2024|05/03/2024", "%d/%m/%Y", quarry.TypeDate, "2024-02-01", "2024-03-05"},
		{"month first decided by one value", "01/02/2024|02/13/2024|05/03/2024", "%m/%d/%Y", quarry.TypeDate, "2024-01-02", "2024-05-03"},
		{"two-digit years", "5/1/17|12/31/17", "%m/%d/%y", quarry.TypeDate, "2017-05-01", "2017-12-31"},
		{"iso", "2024-03-01|2024-03-02", isoFormat, quarry.TypeDate, "2024-03-01", "2024-03-02"},
		{"quarters", "2017-Q1|2017 Q4|Q2 2018", quarterFormat, quarry.TypeDate, "2017-01-01", "2018-04-01"},
		{"dotted", "15.05.2017|01.06.2017", "%d.%m.%Y", quarry.TypeDate, "2017-05-15", "2017-06-01"},
		{"month name and time", "Aug 10 2023 01:00|Sep 07 2023 15:30", "%b %d %Y %H:%M", quarry.TypeDatetime, "2023-08-10 01:00:00", "2023-09-07 15:30:00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustOpen(t)
			var b strings.Builder
			b.WriteString("day,amount\n")
			for _, v := range strings.Split(tt.values, "|") {
				b.WriteString(v + ",1\n")
			}
			c := loadColumn(t, e, "t", b.String(), "day")
			if c.Format != tt.format || c.DataType != tt.typ || c.InferredType != quarry.RoleTimestamp {
				t.Fatalf("day read as %s (%s, %s), note %q; want %s (%s)", c.Format, c.DataType, c.InferredType, c.Note, tt.format, tt.typ)
			}
			if tt.format != isoFormat && !strings.Contains(c.Note, tt.format) {
				t.Errorf("note %q does not name the layout %s", c.Note, tt.format)
			}
			if lo, hi := minMax(t, e, "day", "t"); lo != tt.lo || hi != tt.hi {
				t.Errorf("day runs %s..%s, want %s..%s", lo, hi, tt.lo, tt.hi)
			}
		})
	}
}

func TestTextThatIsNotDatesStaysText(t *testing.T) {
	e := mustOpen(t)
	for _, content := range []string{
		"code,amount\nA-100,1\nB-200,2\n",
		"v,amount\n2024-01-01,1\nnot a date,2\n", // one value is not a date
		"v,amount\n01/02/0017,1\n01/03/0017,2\n", // years out of range
		"v,amount\n1700-01-01,1\n2024-01-02,2\n", // ISO, a year out of range
		"v,amount\n1-2,1\n3-4,2\n",               // ranges, not dates
		"v,amount\n\"1,2,3\",1\n\"4,5\",2\n",     // lists, not numbers
		"v,amount\n$12 each,1\n$3,2\n",           // words
	} {
		c := loadColumn(t, e, "t"+time.Now().Format("150405.000000000")[7:], content, strings.SplitN(content, ",", 2)[0])
		if c.DataType != quarry.TypeString || c.Format != "" {
			t.Errorf("%q: column read as %s (%s); want text", content, c.DataType, c.Format)
		}
	}
}

func TestAmbiguousDayMonthIsReadMonthFirstAndSaysSo(t *testing.T) {
	e := metricEngine(t)
	mustLoad(t, e, "visits", "day,n\n01/02/2024,1\n03/04/2024,2\n12/11/2024,3\n")
	c, _ := e.lookup("visits")
	col, _ := c.column("day")
	if col.Read == nil || col.Read.Format != "%m/%d/%Y" || col.Read.Swap != "%d/%m/%Y" {
		t.Fatalf("day read as %+v; want month-first with a day-first swap", col.Read)
	}
	ctx := context.Background()
	m, err := e.ParseMetric(ctx, "SELECT SUM(n) FROM visits")
	if err != nil {
		t.Fatal(err)
	}
	// The user says it is day-first: day and month swap exactly.
	expr, err := e.TimeColumn(ctx, m, "visits.day", "%d/%m/%Y")
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := minMax(t, e, expr, "visits"); lo != "2024-02-01" || hi != "2024-11-12" {
		t.Errorf("after --time-format %%d/%%m/%%Y the days run %s..%s; want 2024-02-01..2024-11-12", lo, hi)
	}
	// A layout that never read the values is refused.
	if _, err := e.TimeColumn(ctx, m, "visits.day", "%Y-%m-%d"); quarry.ErrorCode(err) != quarry.ECodeInvalidTimeColumn {
		t.Errorf("--time-format %%Y-%%m-%%d on a %%m/%%d/%%Y column: %v; want INVALID_TIME_COLUMN", err)
	}
}

func TestUTCOffsetsKeepTheFilesLocalDate(t *testing.T) {
	e := mustOpen(t)
	c := loadColumn(t, e, "t", "at,amount\n2024-03-01T23:30:00-05:00,1\n2024-03-02T08:00:00+09:00,2\n", "at")
	if c.DataType != quarry.TypeDatetime || !strings.Contains(c.Note, "local time") {
		t.Fatalf("at: %s, note %q", c.DataType, c.Note)
	}
	if lo, hi := minMax(t, e, `CAST("at" AS DATE)`, "t"); lo != "2024-03-01" || hi != "2024-03-02" {
		t.Errorf("dates %s..%s; want the file's own 2024-03-01..2024-03-02", lo, hi)
	}
}

func TestNumbersWrittenForPeople(t *testing.T) {
	tests := []struct {
		name, values string
		format       string
		sum          float64
		note         string
	}{
		{"thousands", `"1,234.50"|"12,000"|7`, numberUS, 13241.5, "thousands separators"},
		{"currency", `"$1,200.00"|$5|"-$2.50"`, numberUS, 1202.5, "currency signs ($)"},
		{"accounting negatives", `"(1,000)"|"2,500"`, numberUS, 1500, "thousands"},
		{"percent", "12.5%|50%|-2.5%", numberUS, 60, "percentages"},
		{"european", `"1.234,50"|"2,5"|"10.000"`, numberEU, 11237, "European"},
		{"euro sign after", `"1.234,50 €"|"3,50 €"`, numberEU, 1238, "€"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustOpen(t)
			var b strings.Builder
			b.WriteString("id,amount\n")
			for i, v := range strings.Split(tt.values, "|") {
				b.WriteString(string(rune('a'+i)) + "," + v + "\n")
			}
			c := loadColumn(t, e, "t", b.String(), "amount")
			if c.DataType != quarry.TypeFloat || c.Format != tt.format || !strings.Contains(c.Note, tt.note) {
				t.Fatalf("amount: %s %s %q; want float %s with %q", c.DataType, c.Format, c.Note, tt.format, tt.note)
			}
			res, err := e.Query(context.Background(), "SELECT SUM(amount) FROM t")
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Rows[0][0].(float64); got < tt.sum-1e-9 || got > tt.sum+1e-9 {
				t.Errorf("SUM(amount) = %v, want %v", got, tt.sum)
			}
		})
	}
}

func TestUnnamedFirstColumnIsAnIndex(t *testing.T) {
	e := mustOpen(t)
	c := loadColumn(t, e, "t", ",day,amount\n0,2024-01-01,5\n1,2024-01-02,6\n", "row_index")
	if !strings.Contains(c.Note, "no name") {
		t.Errorf("note %q", c.Note)
	}
	// A column called row_index already: the index gets another name.
	c = loadColumn(t, e, "t2", ",row_index,amount\n0,7,5\n1,8,6\n", "row_index_2")
	if c.DataType != quarry.TypeInteger {
		t.Errorf("row_index_2 is %s", c.DataType)
	}
	// Only the first column may be unnamed.
	_, _, err := e.LoadCSV(context.Background(), "t3", writeFile(t, "t3.csv", "a,,b\n1,2,3\n"))
	if quarry.ErrorCode(err) != quarry.ECodeNoHeaders {
		t.Errorf("a second unnamed column: %v; want NO_HEADERS", err)
	}
	// A first row of data under an empty first name is still refused.
	_, _, err = e.LoadCSV(context.Background(), "t4", writeFile(t, "t4.csv", ",2024-01-01,5\n1,2024-01-02,6\n"))
	if quarry.ErrorCode(err) != quarry.ECodeNoHeaders {
		t.Errorf("data in the first row: %v; want NO_HEADERS", err)
	}
}

func TestIntegerTimeColumns(t *testing.T) {
	e := mustOpen(t)
	mustLoad(t, e, "yearly", "year,country,sales\n2015,fr,1\n2016,fr,2\n2017,es,3\n")
	mustLoad(t, e, "clicks", "ts,n\n1700000000,1\n1700086400,2\n")
	mustLoad(t, e, "clicks_ms", "event_time,n\n1700000000000,1\n1700086400000,2\n")
	mustLoad(t, e, "counts", "id,n\n1700000000,1\n2015,2\n")
	// A year and a month beside it are monthly data; a month column of
	// store numbers is not a month.
	mustLoad(t, e, "bls", "series,year,month,n\nA,2008,1,1\nA,2008,12,2\nA,2009,3,3\n")
	mustLoad(t, e, "bls_names", "year,period,n\n2008,Jan,1\n2009,December,2\n")
	mustLoad(t, e, "stores", "year,month_store,n\n2008,40,1\n2009,3,2\n")
	ctx := context.Background()
	tests := []struct {
		metric, hint, format string
		lo, hi, code         string
	}{
		{"SELECT SUM(sales) FROM yearly", "", "", "2015-01-01", "2017-01-01", ""},
		{"SELECT SUM(n) FROM clicks", "", "", "2023-11-14", "2023-11-15", ""},
		{"SELECT SUM(n) FROM clicks_ms", "", "", "2023-11-14", "2023-11-15", ""},
		{"SELECT SUM(n) FROM counts", "", "", "", "", quarry.ECodeInvalidTimeColumn},
		{"SELECT SUM(n) FROM counts", "counts.id", "", "", "", quarry.ECodeInvalidTimeColumn},
		{"SELECT SUM(sales) FROM yearly", "yearly.year", "%Y", "2015-01-01", "2017-01-01", ""},
		{"SELECT SUM(sales) FROM yearly", "yearly.year", "%s", "", "", quarry.ECodeInvalidTimeColumn},
		{"SELECT SUM(n) FROM bls", "", "", "2008-01-01", "2009-03-01", ""},
		{"SELECT SUM(n) FROM bls_names", "", "", "2008-01-01", "2009-12-01", ""},
		{"SELECT SUM(n) FROM stores", "", "", "2008-01-01", "2009-01-01", ""},
	}
	for _, tt := range tests {
		m, err := e.ParseMetric(ctx, tt.metric)
		if err != nil {
			t.Fatal(err)
		}
		expr, err := e.TimeColumn(ctx, m, tt.hint, tt.format)
		if quarry.ErrorCode(err) != tt.code {
			t.Errorf("%s (%q, %q): %v; want code %q", tt.metric, tt.hint, tt.format, err, tt.code)
			continue
		}
		if err != nil {
			continue
		}
		if lo, hi := minMax(t, e, expr, m.From); lo != tt.lo || hi != tt.hi {
			t.Errorf("%s: %s runs %s..%s; want %s..%s", tt.metric, expr, lo, hi, tt.lo, tt.hi)
		}
	}
}

func TestTextTimeColumnWithSomeBadValues(t *testing.T) {
	e := mustOpen(t)
	var b strings.Builder
	b.WriteString("day,n\nN/A,1\n")
	for d := 1; d <= 28; d++ {
		b.WriteString(time.Date(2017, 5, d, 0, 0, 0, 0, time.UTC).Format("02-Jan-2006") + ",1\n")
	}
	mustLoad(t, e, "t", b.String())
	ctx := context.Background()
	m, _ := e.ParseMetric(ctx, "SELECT SUM(n) FROM t")
	expr, err := e.TimeColumn(ctx, m, "t.day", "")
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := minMax(t, e, expr, "t"); lo != "2017-05-01" || hi != "2017-05-28" {
		t.Errorf("%s runs %s..%s", expr, lo, hi)
	}
	if _, err := e.TimeColumn(ctx, m, "t.day", "%Y-%m-%d"); quarry.ErrorCode(err) != quarry.ECodeInvalidTimeColumn {
		t.Errorf("a layout that reads nothing: %v", err)
	}
}

func TestSyntaxErrorsHintAtQuoting(t *testing.T) {
	e := mustOpen(t)
	mustLoad(t, e, "sales", "day,order,group,AT,Unit Price\n2024-01-01,1,a,2,3\n")
	ctx := context.Background()
	var qe *quarry.Error
	for _, tt := range []struct{ sql, hint string }{
		{"SELECT SUM(order) FROM sales", `"order"`},
		{"SELECT SUM(amount) FROM sales GROUP BY group", `"group"`},
		{`SELECT SUM("order") FROM sales WHERE AT > 1 AND 1 = 1 AND`, `"AT"`},
	} {
		_, err := e.ParseMetric(ctx, tt.sql)
		if !errors.As(err, &qe) || qe.Code != quarry.ECodeInvalidMetricSQL || !strings.Contains(qe.Hint, tt.hint) {
			t.Errorf("ParseMetric(%q) = %v; want INVALID_METRIC_SQL hinting %s", tt.sql, err, tt.hint)
		}
		_, err = e.Query(ctx, tt.sql)
		if !errors.As(err, &qe) || !strings.Contains(qe.Hint, tt.hint) {
			t.Errorf("Query(%q) = %v; want a hint naming %s", tt.sql, err, tt.hint)
		}
	}
	// Quoted, the metric parses.
	if _, err := e.ParseMetric(ctx, `SELECT SUM("order") FROM sales WHERE "group" = 'a' AND "AT" > 1`); err != nil {
		t.Errorf("quoted: %v", err)
	}
	// A table that does not exist says how tables are named.
	_, err := e.ParseMetric(ctx, "SELECT SUM(x) FROM 2014_q4")
	if err == nil {
		t.Fatal("unknown table accepted")
	}
	_, err = e.ParseMetric(ctx, "SELECT SUM(x) FROM q4_2014")
	if !errors.As(err, &qe) || !strings.Contains(qe.Hint, "t_2014_q4") || !strings.Contains(qe.Message, "sales") {
		t.Errorf("unknown table: %v", err)
	}
}

// A time-of-day column loads as DuckDB's TIME and is left alone by the
// text readings (trim(TIME) does not bind).
func TestTimeOfDayColumn(t *testing.T) {
	e := mustOpen(t)
	schema, rows, err := e.LoadCSV(context.Background(), "shifts", writeFile(t, "shifts.csv", "day,start,staff\n2024-01-02,08:30:00,3\n2024-01-03,09:15:00,4\n"))
	if err != nil || rows != 2 {
		t.Fatalf("LoadCSV = %v, %d, %v", schema, rows, err)
	}
	res, err := e.Query(context.Background(), "SELECT count(*) FROM shifts WHERE start > '09:00:00'")
	if err != nil || res.Float(0, 0) != 1 {
		t.Fatalf("query over the time column = %v, %v", res, err)
	}
}

// TestTextColumnsPastTheFirstRows: a column is text without a full scan
// only when a plain word is among its first rows; what comes after them
// still decides every other column.
func TestTextColumnsPastTheFirstRows(t *testing.T) {
	var b strings.Builder
	b.WriteString("name,late_word,late_na,late_money,day\n")
	const rows = witnessRows + 500
	for i := range rows {
		word, na, money := "7", "3", "1.5"
		if i == rows-1 {
			word, na, money = "seven", "NA", "$1,234.50"
		}
		fmt.Fprintf(&b, "shop%d,%s,%s,%q,2024-01-%02d\n", i%3, word, na, money, i%28+1)
	}
	e := mustOpen(t)
	schema, _, err := e.LoadCSV(context.Background(), "t", writeFile(t, "t.csv", b.String()))
	if err != nil {
		t.Fatalf("LoadCSV: %v", err)
	}
	want := map[string]string{"name": quarry.TypeString, "late_word": quarry.TypeString, "late_na": quarry.TypeInteger,
		"late_money": quarry.TypeFloat, "day": quarry.TypeDate}
	for _, c := range schema.Columns {
		if c.DataType != want[c.Name] {
			t.Errorf("column %s read as %s (%s); want %s", c.Name, c.DataType, c.Note, want[c.Name])
		}
	}
}

// DuckDB's reader reads ISO dates itself (see createTable), from a sample
// of the rows; a value further on that is not a date leaves the column
// text, as reading it from text does.
func TestISODatesPastTheReadersSample(t *testing.T) {
	var b strings.Builder
	b.WriteString("day,bad_day,amount\n")
	const rows = 30_000
	for i := range rows {
		bad := fmt.Sprintf("2024-01-%02d", i%28+1)
		if i == rows-1 {
			bad = "2024-02-30"
		}
		fmt.Fprintf(&b, "2024-01-%02d,%s,1\n", i%28+1, bad)
	}
	e := mustOpen(t)
	schema, _, err := e.LoadCSV(context.Background(), "t", writeFile(t, "t.csv", b.String()))
	if err != nil {
		t.Fatalf("LoadCSV: %v", err)
	}
	want := map[string]string{"day": quarry.TypeDate, "bad_day": quarry.TypeString, "amount": quarry.TypeInteger}
	for _, c := range schema.Columns {
		if c.DataType != want[c.Name] {
			t.Errorf("column %s read as %s (%s); want %s", c.Name, c.DataType, c.Format, want[c.Name])
		}
		if c.Name == "day" && c.Format != isoFormat {
			t.Errorf("column day read as %q; want %q", c.Format, isoFormat)
		}
	}
}
