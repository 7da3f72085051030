package sampledata

import (
	"encoding/csv"
	"fmt"
	"os"
	"strconv"
)

// Table is a CSV file parsed in plain Go, so a test can recompute a number
// from the bytes a user uploads, without the SQL engine it is checking.
type Table struct {
	Cols map[string]int // column index by header name
	Rows [][]string     // data rows, header excluded
}

// ReadTable reads and parses the CSV file at path.
func ReadTable(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("sampledata: %s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("sampledata: %s is empty", path)
	}
	t := &Table{Cols: map[string]int{}, Rows: recs[1:]}
	for i, c := range recs[0] {
		t.Cols[c] = i
	}
	return t, nil
}

// Get returns column col of row i; it panics on an unknown column, which
// is a mistake in the test.
func (t *Table) Get(i int, col string) string {
	c, ok := t.Cols[col]
	if !ok {
		panic("sampledata: no column " + col)
	}
	return t.Rows[i][c]
}

// Num returns column col of row i as a number, 0 when it is not one.
func (t *Table) Num(i int, col string) float64 {
	v, _ := strconv.ParseFloat(t.Get(i, col), 64)
	return v
}
