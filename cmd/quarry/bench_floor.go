package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	_ "github.com/duckdb/duckdb-go/v2" // the driver the duckdb package uses, plain

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/sampledata"
)

// The floor of "quarry bench scale" is the least work that answers the
// investigation's first question: the orders file read into a table, then
// the metric summed per value of each dimension in each period. An
// investigation does that and much more; its cost is reported as a
// multiple of the floor's.

// floorMeasure is what one floor run reports about itself: the seconds of
// its work (the process's start and imports left out) and the groups its
// GROUP BYs returned, which every floor must agree on.
type floorMeasure struct {
	Seconds float64 `json:"seconds"`
	Groups  int     `json:"groups"`
}

// floorPeriods are the periods the floor groups, in order.
var floorPeriods = []quarry.DateRange{sampledata.OrdersBaseline, sampledata.OrdersComparison}

// duckdbFloor loads the orders file at path with a plain read_csv into an
// in-memory DuckDB through the driver the duckdb package uses, with
// DuckDB's default settings, and runs one GROUP BY per dimension and
// period.
func duckdbFloor(ctx context.Context, path string) (floorMeasure, error) {
	start := time.Now()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return floorMeasure{}, err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "CREATE TABLE orders AS SELECT * FROM read_csv($path)", sql.Named("path", path)); err != nil {
		return floorMeasure{}, fmt.Errorf("floor: load: %w", err)
	}
	m := floorMeasure{}
	for _, p := range floorPeriods {
		for _, dim := range sampledata.OrdersDimensions {
			n, err := countRows(ctx, db, fmt.Sprintf(
				"SELECT %s, sum(amount) FROM orders WHERE order_date BETWEEN $lo AND $hi GROUP BY %s", dim, dim),
				sql.Named("lo", p.Start.String()), sql.Named("hi", p.End.String()))
			if err != nil {
				return m, fmt.Errorf("floor: group by %s: %w", dim, err)
			}
			m.Groups += n
		}
	}
	m.Seconds = time.Since(start).Seconds()
	return m, nil
}

// countRows runs q and reads every row of its result, as a caller of a
// GROUP BY would, returning how many there were.
func countRows(ctx context.Context, db *sql.DB, q string, args ...any) (int, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var (
		key any
		sum sql.NullFloat64
		n   int
	)
	for rows.Next() {
		if err := rows.Scan(&key, &sum); err != nil {
			return n, err
		}
		n++
	}
	return n, rows.Err()
}

// pandasFloor is the same work in pandas: read_csv with the date column
// parsed, as DuckDB's reader detects it, then one groupby per dimension
// and period. It prints a floorMeasure as JSON. Arguments: the file, the
// periods' four bounds, then the dimensions.
const pandasFloor = `
import json, sys, time
import pandas as pd
start = time.perf_counter()
path, b0, b1, c0, c1 = sys.argv[1:6]
df = pd.read_csv(path, parse_dates=["order_date"])
groups = 0
for lo, hi in ((b0, b1), (c0, c1)):
    part = df[(df["order_date"] >= lo) & (df["order_date"] <= hi)]
    for dim in sys.argv[6:]:
        groups += len(part.groupby(dim)["amount"].sum())
print(json.dumps({"seconds": time.perf_counter() - start, "groups": groups}))
`

// pandasArgs are the arguments of python's pandasFloor over path.
func pandasArgs(path string) []string {
	args := []string{"-c", pandasFloor, path}
	for _, p := range floorPeriods {
		args = append(args, p.Start.String(), p.End.String())
	}
	return append(args, sampledata.OrdersDimensions...)
}

// pandasPythons are the interpreters tried for the pandas floor when
// --python names none: the one on PATH, then the system's, which a
// version manager's python3 often hides.
var pandasPythons = []string{"python3", "/usr/bin/python3"}

// findPandas returns the first of pythons that imports pandas, or why
// none does.
func findPandas(ctx context.Context, pythons []string) (string, error) {
	var why []string
	for _, py := range pythons {
		out, err := exec.CommandContext(ctx, py, "-c", "import pandas").CombinedOutput()
		if err == nil {
			return py, nil
		}
		msg := lastLine(string(out))
		if msg == "" {
			msg = err.Error()
		}
		why = append(why, py+": "+msg)
	}
	return "", errors.New("no python with pandas (" + strings.Join(why, "; ") + ")")
}

// lastLine is the last line of a Python error's text, which says what
// failed, or s itself.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// decodeMeasure reads the JSON line a measuring process printed last.
func decodeMeasure(out []byte, v any) error {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), v); err != nil {
		return fmt.Errorf("reading the measurement %q: %w", lines[len(lines)-1], err)
	}
	return nil
}
