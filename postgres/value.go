package postgres

import (
	"database/sql/driver"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
)

// value normalizes a value pgx decoded to the kinds quarry's results hold:
// nil, bool, int64, float64, string and time.Time (UTC). Numeric and
// decimal are float64; infinite dates and timestamps are nil; other types
// (intervals, UUIDs, JSON, arrays, network addresses) are their text.
func value(v any) any {
	switch x := v.(type) {
	case nil, bool, int64, float64, string:
		return x
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int8:
		return int64(x)
	case int:
		return int64(x)
	case uint32: // oid, xid
		return int64(x)
	case float32:
		f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(x), 'g', -1, 32), 64)
		return f
	case time.Time:
		return x.UTC()
	case pgtype.Numeric:
		f, err := x.Float64Value()
		if err != nil || !f.Valid {
			return nil
		}
		return f.Float64
	case pgtype.InfinityModifier:
		return nil
	case []byte: // bytea, as PostgreSQL prints it
		return `\x` + hex.EncodeToString(x)
	case [16]byte: // uuid
		return pgtype.UUID{Bytes: x, Valid: true}.String()
	case map[string]any, []any:
		b, err := json.Marshal(x)
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	case driver.Valuer:
		d, err := x.Value()
		if err != nil {
			return fmt.Sprint(x)
		}
		if _, again := d.(driver.Valuer); again {
			return fmt.Sprint(d)
		}
		return value(d)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}
