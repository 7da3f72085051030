package quarry

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// QueryResult is the whole result of a query. Values are nil, bool, int64,
// float64, string or time.Time.
type QueryResult struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
}

// Float returns row r, column c as a float64 (0 for NULL or non-numbers).
func (q *QueryResult) Float(r, c int) float64 { return AsFloat(q.Rows[r][c]) }

// String returns row r, column c formatted as text ("" for NULL).
func (q *QueryResult) String(r, c int) string { return AsText(q.Rows[r][c]) }

// AsFloat converts a result value to a float64 (0 for NULL or non-numbers).
func AsFloat(v any) float64 {
	switch v := v.(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	case int32:
		return float64(v)
	case bool:
		if v {
			return 1
		}
	}
	return 0
}

// AsText formats a result value as text ("" for NULL); dates without a
// time of day print as YYYY-MM-DD, and numbers as plain decimals unless
// they are below 1e-6 or from 1e21 up.
func AsText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case time.Time:
		if v.Hour() == 0 && v.Minute() == 0 && v.Second() == 0 && v.Nanosecond() == 0 {
			return v.Format(time.DateOnly)
		}
		return v.Format(time.RFC3339)
	case float64:
		// Plain decimals, as people write them (8894061.9, not
		// 8.8940619e+06); exponents only for the very large and very small.
		if a := math.Abs(v); a == 0 || (a >= 1e-6 && a < 1e21) {
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	default:
		return fmt.Sprint(v)
	}
}

// JSONRows copies result rows into values JSON can carry: times as RFC 3339
// text, NaN and infinities as null.
func JSONRows(rows [][]any) [][]any {
	out := make([][]any, len(rows))
	for i, row := range rows {
		out[i] = make([]any, len(row))
		for j, v := range row {
			switch x := v.(type) {
			case time.Time:
				out[i][j] = x.Format(time.RFC3339)
			case float64:
				if math.IsNaN(x) || math.IsInf(x, 0) {
					out[i][j] = nil
				} else {
					out[i][j] = x
				}
			default:
				out[i][j] = v
			}
		}
	}
	return out
}
