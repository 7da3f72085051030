package sampledata

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"sync"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// table is a parsed CSV file: the tests recompute every planted number from
// the bytes a user would upload, not from the generator's parameters.
type table struct {
	cols map[string]int
	rows [][]string
}

// generate returns the bytes of the scenario's file called name.
func generate(t testing.TB, s Scenario, name string) []byte {
	t.Helper()
	for _, f := range s.Files {
		if f.Name == name {
			var b bytes.Buffer
			if err := f.Write(&b); err != nil {
				t.Fatalf("%s/%s: Write = %v", s.Name, name, err)
			}
			return b.Bytes()
		}
	}
	t.Fatalf("%s has no file %s", s.Name, name)
	return nil
}

func parseTable(t testing.TB, data []byte) *table {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("parse CSV: %v", err)
	}
	tb := &table{cols: map[string]int{}, rows: recs[1:]}
	for i, c := range recs[0] {
		tb.cols[c] = i
	}
	return tb
}

func loadTable(t testing.TB, s Scenario, name string) *table {
	t.Helper()
	return parseTable(t, generate(t, s, name))
}

// get returns column col of row i.
func (tb *table) get(i int, col string) string {
	c, ok := tb.cols[col]
	if !ok {
		panic("no column " + col)
	}
	return tb.rows[i][c]
}

func (tb *table) num(i int, col string) float64 {
	v, err := strconv.ParseFloat(tb.get(i, col), 64)
	if err != nil {
		panic(err)
	}
	return v
}

// sums returns the sum of col (1 per row when col is "") over rows in each
// period that satisfy keep.
func (tb *table) sums(s Scenario, dateCol, col string, keep func(i int) bool) (base, comp float64) {
	for i := range tb.rows {
		if keep != nil && !keep(i) {
			continue
		}
		d := mustDate(tb.get(i, dateCol))
		v := 1.0
		if col != "" {
			v = tb.num(i, col)
		}
		switch {
		case s.Baseline.Contains(d):
			base += v
		case s.Comparison.Contains(d):
			comp += v
		}
	}
	return base, comp
}

// near reports whether got is within tol of want.
func near(got, want, tol float64) bool { return got >= want-tol && got <= want+tol }

// mustDate parses a generated date, caching the few distinct values: the
// tests parse hundreds of thousands of rows.
func mustDate(s string) quarry.Date {
	if d, ok := dateCache.Load(s); ok {
		return d.(quarry.Date)
	}
	d := quarry.MustParseDate(s)
	dateCache.Store(s, d)
	return d
}

var dateCache sync.Map

// in returns a row filter for the rows of seg.
func (tb *table) in(seg investigation.Segment) func(i int) bool {
	return func(i int) bool {
		for _, v := range seg {
			if tb.get(i, v.Column) != v.Value {
				return false
			}
		}
		return true
	}
}

// shareCheck is a planted cause's measured share of the change and the range
// the scenario promises.
type shareCheck struct {
	cause    Cause
	got      float64
	min, max float64
}

// checkShares fails when a measured share leaves its range or moves away
// from the cause's documented ApproxShare.
func checkShares(t *testing.T, cs []shareCheck) {
	t.Helper()
	for _, tc := range cs {
		if tc.got < tc.min || tc.got > tc.max {
			t.Errorf("share of %s effect of %v = %.3f; want between %.2f and %.2f", tc.cause.Kind, tc.cause.Segment, tc.got, tc.min, tc.max)
		}
		if !near(tc.got, tc.cause.ApproxShare, 0.01) {
			t.Errorf("share of %v = %.3f; documented ApproxShare %.3f", tc.cause.Segment, tc.got, tc.cause.ApproxShare)
		}
	}
}
