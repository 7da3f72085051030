package duckdb

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"time"

	duckdbdriver "github.com/duckdb/duckdb-go/v2"
)

// normalize converts a value scanned from the DuckDB driver into one of the
// types quarry.QueryResult promises: nil, bool, int64, float64, string or
// time.Time. SUM over integers is a HUGEINT (*big.Int) and AVG over
// decimals a DECIMAL, so both conversions matter for ordinary metrics.
func normalize(v any) any {
	switch x := v.(type) {
	case nil, bool, int64, float64, string, time.Time:
		return x
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int:
		return int64(x)
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x)
		}
		return float64(x)
	case float32:
		return float64(x)
	case *big.Int:
		if x == nil {
			return nil
		}
		if x.IsInt64() {
			return x.Int64()
		}
		f, _ := new(big.Float).SetInt(x).Float64()
		return f
	case duckdbdriver.Decimal:
		if x.Value == nil {
			return nil
		}
		return x.Float64()
	case duckdbdriver.UUID:
		return x.String()
	case *duckdbdriver.UUID:
		return x.String()
	case []byte:
		return string(x)
	case duckdbdriver.Interval:
		return fmt.Sprintf("%d months %d days %dus", x.Months, x.Days, x.Micros)
	}
	// Lists, structs and maps: JSON text keeps them readable.
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	return fmt.Sprint(v)
}

// toInt64 reads a count scanned from DuckDB.
func toInt64(v any) int64 {
	switch x := normalize(v).(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	}
	return 0
}

// toFloat reads a number scanned from DuckDB; ok is false for NULL.
func toFloat(v any) (f float64, ok bool) {
	switch x := normalize(v).(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}
