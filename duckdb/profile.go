package duckdb

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/quarry-dev/quarry"
)

// exactDistinctRows is the table size up to which cardinalities are exact
// COUNT(DISTINCT); bigger tables use HyperLogLog (approx_count_distinct,
// within a few percent), which keeps profiling one fast scan.
const exactDistinctRows = 100_000

// profile reads a loaded table's columns from the catalog and profiles
// them in aggregate queries of up to profileBatch columns each. A table
// of more than exactDistinctRows rows takes the count of values, the
// distinct count and the most frequent values of the columns in grouped
// (text, and dates the reader read) from there, exact and without
// scanning them again.
func (e *Engine) profile(ctx context.Context, name string, grouped map[string]textValues) (*table, *quarry.FileSchema, error) {
	cols, err := e.catalogColumns(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	t := &table{Name: name, Columns: cols}
	var rows int64
	if err := e.db.QueryRowContext(ctx, "SELECT count(*) FROM "+quoteIdent(name)).Scan(&rows); err != nil {
		return nil, nil, fmt.Errorf("duckdb: count %s: %w", name, err)
	}
	t.Rows = rows
	distinct := "count(DISTINCT %s)"
	if rows > exactDistinctRows {
		distinct = "approx_count_distinct(%s)"
	} else {
		// The exact count is one scan for every column anyway, and
		// approx_top_k's picks are what the samples have always been.
		grouped = nil
	}
	// Per column: non-null count, distinct count, five most frequent
	// values as text, and min/max (numbers only, for the 0/1 flag rule),
	// profileBatch columns per query: each aggregate holds its state per
	// column, and a thousand columns in one query run out of memory.
	schema := &quarry.FileSchema{Columns: make([]quarry.Column, len(cols))}
	for start := 0; start < len(cols); start += profileBatch {
		batch := t.Columns[start:min(start+profileBatch, len(cols))]
		if err := e.profileColumns(ctx, name, rows, distinct, batch, grouped, schema.Columns[start:]); err != nil {
			return nil, nil, err
		}
	}
	return t, schema, nil
}

// profileBatch is the most columns profiled in one query. Each thread
// holds every aggregate's state for the batch: a 1,000-column file peaked
// at 475 MB with batches of 64 and 220 MB with batches of 16, no slower.
const profileBatch = 16

// profileColumns profiles cols of table name in one aggregate query into
// out[:len(cols)], and keeps each integer column's range in cols. The
// count of values, distinct count and most frequent values of a column
// in grouped are taken from there; a batch of only such columns is not
// scanned. The integer columns of a large table are counted after the
// query has found their ranges (see integerValues).
func (e *Engine) profileColumns(ctx context.Context, name string, rows int64, distinct string, cols []column, grouped map[string]textValues, out []quarry.Column) error {
	const perCol = 5
	var sel []string
	scan := false // whether a column needs the table scanned
	later := make([]bool, len(cols))
	for i, c := range cols {
		q := quoteIdent(c.Name)
		lo, hi := "NULL::DOUBLE", "NULL::DOUBLE"
		dt := dataType(c.Type)
		if dt == quarry.TypeInteger || dt == quarry.TypeFloat {
			lo, hi = "min("+q+")::DOUBLE", "max("+q+")::DOUBLE"
		}
		nonNull, count, top := "count("+q+")", fmt.Sprintf(distinct, q), fmt.Sprintf("approx_top_k(%s, %d)::VARCHAR[]", q, quarry.MaxSampleValues)
		if _, ok := grouped[c.Name]; ok {
			nonNull, count, top = "NULL::BIGINT", "NULL::BIGINT", "NULL::VARCHAR[]"
		} else {
			scan = true
		}
		if dt == quarry.TypeInteger && rows > exactDistinctRows && rangedTypes[strings.ToUpper(c.Type)] {
			count, top, later[i] = "NULL::BIGINT", "NULL::VARCHAR[]", true
		}
		scan = scan || lo != "NULL::DOUBLE"
		sel = append(sel, nonNull, count, top, lo, hi)
	}
	dest := make([]any, len(sel))
	vals := make([]any, len(sel))
	for i := range dest {
		dest[i] = &vals[i]
	}
	if scan {
		q := "SELECT " + strings.Join(sel, ", ") + " FROM " + quoteIdent(name)
		if err := e.db.QueryRowContext(ctx, q).Scan(dest...); err != nil {
			return fmt.Errorf("duckdb: profile %s: %w", name, err)
		}
	}
	ps := make([]colProfile, len(cols))
	for i, c := range cols {
		v := vals[i*perCol : (i+1)*perCol]
		p := colProfile{
			Name:     c.Name,
			Type:     dataType(c.Type),
			Rows:     rows,
			NonNull:  toInt64(v[0]),
			Distinct: toInt64(v[1]),
			Samples:  toStrings(v[2]),
		}
		if g, ok := grouped[c.Name]; ok {
			p.NonNull, p.Distinct, p.Samples = g.NonNull, g.Distinct, g.Top
		}
		p.Min, p.HasMin = toFloat(v[3])
		p.Max, _ = toFloat(v[4])
		if p.Type == quarry.TypeInteger {
			cols[i].Min, cols[i].Max, cols[i].HasRange = p.Min, p.Max, p.HasMin
		}
		ps[i] = p
	}
	if err := e.integerValues(ctx, name, cols, later, ps); err != nil {
		return err
	}
	for i, p := range ps {
		out[i] = quarry.Column{
			Name:         p.Name,
			InferredType: p.role(),
			DataType:     p.Type,
			Cardinality:  p.Distinct,
			SampleValues: p.Samples,
			Nullable:     p.NonNull < rows,
			NullCount:    rows - p.NonNull,
		}
	}
	return nil
}

// maxBitRange is the most values the integer columns of one profile
// query may span together to be counted as bits: a bitmap of 8 MB a
// thread at most, whatever the number of columns.
const maxBitRange = 1 << 26

// integerValues counts the distinct values of the integer columns of cols
// marked later, whose ranges ps holds, and finds their most frequent
// values. A column whose range fits in what is left of maxBitRange is
// counted exactly, as the bits set in a bitmap of its range
// (bitstring_agg, a tenth of HyperLogLog's cost at 5M rows); when every
// value is distinct, as in a key, each occurs once and the most frequent
// are the smallest (ties in value order, as for text columns),
// min(column, 5), which approx_top_k would have picked among at random.
// The others are estimated as before: approx_count_distinct and
// approx_top_k.
func (e *Engine) integerValues(ctx context.Context, name string, cols []column, later []bool, ps []colProfile) error {
	const exact = 1 << 53
	var sel []string
	var idx []int
	bits := make([]bool, len(cols))
	left := float64(maxBitRange)
	for i, c := range cols {
		if !later[i] {
			continue
		}
		p, q := ps[i], quoteIdent(c.Name)
		idx = append(idx, i)
		if p.HasMin && math.Abs(p.Min) < exact && math.Abs(p.Max) < exact && p.Max-p.Min < left {
			bits[i], left = true, left-(p.Max-p.Min+1)
			sel = append(sel, fmt.Sprintf("coalesce(bit_count(bitstring_agg(%s, %d, %d)), 0)", q, int64(p.Min), int64(p.Max)),
				fmt.Sprintf("min(%s, %d)::VARCHAR[]", q, quarry.MaxSampleValues))
			continue
		}
		sel = append(sel, fmt.Sprintf("approx_count_distinct(%s)", q), fmt.Sprintf("approx_top_k(%s, %d)::VARCHAR[]", q, quarry.MaxSampleValues))
	}
	if len(idx) == 0 {
		return nil
	}
	vals, err := e.aggregates(ctx, name, sel)
	if err != nil {
		return err
	}
	var tops []string
	var again []int
	for k, i := range idx {
		ps[i].Distinct, ps[i].Samples = toInt64(vals[2*k]), toStrings(vals[2*k+1])
		if bits[i] && ps[i].Distinct < ps[i].NonNull {
			// Some value repeats: the smallest are not the most frequent.
			tops = append(tops, fmt.Sprintf("approx_top_k(%s, %d)::VARCHAR[]", quoteIdent(cols[i].Name), quarry.MaxSampleValues))
			again = append(again, i)
		}
	}
	if len(tops) == 0 {
		return nil
	}
	if vals, err = e.aggregates(ctx, name, tops); err != nil {
		return err
	}
	for k, i := range again {
		ps[i].Samples = toStrings(vals[k])
	}
	return nil
}

// aggregates runs one query of the aggregates sel over table name and
// returns its row.
func (e *Engine) aggregates(ctx context.Context, name string, sel []string) ([]any, error) {
	vals := make([]any, len(sel))
	dest := make([]any, len(sel))
	for i := range dest {
		dest[i] = &vals[i]
	}
	q := "SELECT " + strings.Join(sel, ", ") + " FROM " + quoteIdent(name)
	if err := e.db.QueryRowContext(ctx, q).Scan(dest...); err != nil {
		return nil, fmt.Errorf("duckdb: profile %s: %w", name, err)
	}
	return vals, nil
}

// IntegerRange returns the smallest and largest values of the integer
// column of table as the load measured them, which a query can use to
// count distinct values without hashing them (bitstring_agg). ok is
// false for a column that is not an integer one, holds no value, or
// whose bounds a float64 does not hold exactly.
func (e *Engine) IntegerRange(table, column string) (lo, hi int64, ok bool) {
	t, found := e.lookup(table)
	if !found {
		return 0, 0, false
	}
	c, found := t.column(column)
	const exact = 1 << 53
	if !found || !c.HasRange || !rangedTypes[strings.ToUpper(c.Type)] || math.Abs(c.Min) >= exact || math.Abs(c.Max) >= exact {
		return 0, 0, false
	}
	return int64(c.Min), int64(c.Max), true
}

// rangedTypes are the integer types whose bitstring_agg takes integer
// literals as its bounds (UHUGEINT's takes none).
var rangedTypes = map[string]bool{
	"TINYINT": true, "SMALLINT": true, "INTEGER": true, "BIGINT": true, "HUGEINT": true,
	"UTINYINT": true, "USMALLINT": true, "UINTEGER": true, "UBIGINT": true,
}

// catalogColumns returns a table's columns and DuckDB types in order.
func (e *Engine) catalogColumns(ctx context.Context, name string) ([]column, error) {
	rows, err := e.db.QueryContext(ctx,
		"SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = ? ORDER BY column_index", name)
	if err != nil {
		return nil, fmt.Errorf("duckdb: columns of %s: %w", name, err)
	}
	defer rows.Close()
	var cols []column
	for rows.Next() {
		var c column
		if err := rows.Scan(&c.Name, &c.Type); err != nil {
			return nil, err
		}
		cols = append(cols, c)
	}
	return cols, rows.Err()
}

// dataType maps a DuckDB type name to a quarry.Type constant.
func dataType(duck string) string {
	t := strings.ToUpper(duck)
	switch {
	case t == "BOOLEAN":
		return quarry.TypeBoolean
	case strings.HasSuffix(t, "INT") || t == "HUGEINT" || t == "UHUGEINT" || strings.HasSuffix(t, "INTEGER"):
		// TINYINT .. BIGINT, UTINYINT .. UBIGINT, HUGEINT, INTEGER
		return quarry.TypeInteger
	case t == "DOUBLE" || t == "FLOAT" || t == "REAL" || strings.HasPrefix(t, "DECIMAL"):
		return quarry.TypeFloat
	case t == "DATE":
		return quarry.TypeDate
	case strings.HasPrefix(t, "TIMESTAMP"):
		return quarry.TypeDatetime
	}
	return quarry.TypeString
}

func toStrings(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
