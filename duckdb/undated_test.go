package duckdb

import (
	"context"
	"slices"
	"testing"
)

func TestUndatedRows(t *testing.T) {
	e := mustOpen(t)
	mustLoad(t, e, "t", "word,code,sex,day,n\n"+
		"android,A1,female,2024-01-01,1\n"+
		"May,B2,NA,2024-01-02,2\n"+
		"mon.,c,male,2024-01-03,3\n"+
		"web,d4,female,2024-01-04,4\n"+
		"Sunday,e,male,2024-01-05,5\n"+
		"t-u-e,x,female,2024-01-06,6\n")
	tests := []struct {
		column string
		rows   int64
		ok     bool
	}{
		{"word", 2, true}, // May, mon., Sunday and t-u-e write a month or a weekday
		{"code", 3, true}, // A1, B2 and d4 have digits
		{"sex", 0, false}, // NA read as missing: not the values grouped
		{"day", 0, false}, // dates
		{"n", 0, false},   // numbers
		{"missing", 0, false},
	}
	for _, tt := range tests {
		rows, ok := e.UndatedRows("t", tt.column)
		if rows != tt.rows || ok != tt.ok {
			t.Errorf("UndatedRows(t, %s) = %d, %v; want %d, %v", tt.column, rows, ok, tt.rows, tt.ok)
		}
	}
	if _, ok := e.UndatedRows("nope", "word"); ok {
		t.Errorf("UndatedRows(nope, word) ok; want not")
	}
}

// partWords must hold every word DuckDB writes for a month or a weekday,
// as the investigation's time-part check writes them (upper-cased
// monthname, dayname, %b and %a), or a column of those words would be
// found to restate no part of the date.
func TestPartWordsAreDuckDBs(t *testing.T) {
	e := mustOpen(t)
	res, err := e.Query(context.Background(), `SELECT DISTINCT w FROM (
  SELECT unnest([upper(monthname(d)), upper(strftime(d, '%b')), upper(dayname(d)), upper(strftime(d, '%a'))]) AS w
  FROM (SELECT DATE '2024-01-01' + CAST(i AS INTEGER) AS d FROM range(366) r(i))) ORDER BY w`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, row := range res.Rows {
		got = append(got, row[0].(string))
	}
	want := slices.Clone(partWords)
	slices.Sort(want)
	want = slices.Compact(want)
	if !slices.Equal(got, want) {
		t.Errorf("DuckDB's month and weekday words = %v; partWords = %v", got, want)
	}
}
