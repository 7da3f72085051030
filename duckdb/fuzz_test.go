package duckdb

import (
	"context"
	"testing"

	"github.com/quarry-dev/quarry"
)

// FuzzParseMetric checks that ParseMetric never panics and always answers
// with a metric or one of its documented error codes.
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
	} {
		f.Add(s)
	}
	e := metricEngine(f)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, sql string) {
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
