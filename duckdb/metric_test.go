package duckdb

import (
	"context"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

const (
	ordersCSV = "order_id,order_date,customer_id,status,amount,quantity,converted\n" +
		"1,2024-01-01,10,paid,5.5,1,1\n" +
		"2,2024-01-02,11,refunded,7,2,0\n" +
		"3,2024-01-02,10,paid,1,1,1\n" +
		"4,2024-01-03,12,paid,2.5,3,0\n"
	customersCSV = "customer_id,segment,signup_date\n10,smb,2023-05-01\n11,enterprise,2023-06-01\n12,smb,2023-07-01\n13,smb,2023-08-01\n"
)

// metricEngine returns an engine with orders and customers loaded.
func metricEngine(t testing.TB) *Engine {
	t.Helper()
	e := mustOpen(t)
	mustLoad(t, e, "orders", ordersCSV)
	mustLoad(t, e, "customers", customersCSV)
	return e
}

func TestParseMetric(t *testing.T) {
	e := metricEngine(t)
	tests := []struct {
		sql   string
		want  investigation.Metric
		value float64 // the metric over the sample data
	}{
		{"SELECT SUM(amount) FROM orders",
			investigation.Metric{Kind: investigation.MetricSum, Numerator: "sum(amount)", Scale: 1, From: "orders", RowValue: "amount"}, 16},
		{"select sum(amount) as revenue from orders;",
			investigation.Metric{Kind: investigation.MetricSum, Numerator: "sum(amount)", Scale: 1, From: "orders", RowValue: "amount"}, 16},
		{"SELECT COUNT(*) FROM orders",
			investigation.Metric{Kind: investigation.MetricCount, Numerator: "count_star()", Scale: 1, From: "orders"}, 4},
		{"SELECT COUNT(order_id) FROM orders",
			investigation.Metric{Kind: investigation.MetricCount, Numerator: "count(order_id)", Scale: 1, From: "orders"}, 4},
		{"SELECT COUNT(DISTINCT customer_id) FROM orders",
			investigation.Metric{Kind: investigation.MetricDistinct, Numerator: "count(DISTINCT customer_id)", DistinctExpr: "customer_id", Scale: 1, From: "orders"}, 3},
		{"SELECT COUNT(DISTINCT customer_id) FILTER (WHERE status = 'paid') FROM orders",
			investigation.Metric{Kind: investigation.MetricDistinct, Numerator: "count(DISTINCT customer_id) FILTER (WHERE (status = 'paid'))",
				DistinctExpr: "CASE WHEN (status = 'paid') THEN customer_id END", Scale: 1, From: "orders"}, 2},
		{"SELECT AVG(amount) FROM orders",
			investigation.Metric{Kind: investigation.MetricAverage, Numerator: "sum(amount)", Denominator: "count(amount)", Scale: 1, From: "orders"}, 4},
		{"SELECT SUM(amount)::DOUBLE / SUM(quantity) FROM orders",
			investigation.Metric{Kind: investigation.MetricRatio, Numerator: "sum(amount)", Denominator: "sum(quantity)", Scale: 1, From: "orders"}, 16.0 / 7},
		{"SELECT SUM(converted)*1.0/COUNT(*) FROM orders",
			investigation.Metric{Kind: investigation.MetricRatio, Numerator: "sum(converted)", Denominator: "count_star()", Scale: 1, From: "orders"}, 0.5},
		{"SELECT 100.0 * SUM(amount) / NULLIF(SUM(quantity), 0) FROM orders",
			investigation.Metric{Kind: investigation.MetricRatio, Numerator: "sum(amount)", Denominator: "sum(quantity)", Scale: 100, From: "orders"}, 1600.0 / 7},
		{"SELECT COALESCE(SUM(amount), 0) / 1000 FROM orders",
			investigation.Metric{Kind: investigation.MetricSum, Numerator: "sum(amount)", Scale: 0.001, From: "orders", RowValue: "amount"}, 0.016},
		{"SELECT SUM(amount) FILTER (WHERE status = 'paid') FROM orders",
			investigation.Metric{Kind: investigation.MetricSum, Numerator: "sum(amount) FILTER (WHERE (status = 'paid'))", Scale: 1, From: "orders"}, 9},
		{"SELECT SUM(CASE WHEN status = 'refunded' THEN 1 ELSE 0 END) FROM orders",
			investigation.Metric{Kind: investigation.MetricSum, Numerator: "sum(CASE  WHEN ((status = 'refunded')) THEN (1) ELSE 0 END)", Scale: 1, From: "orders",
				RowValue: "CASE  WHEN ((status = 'refunded')) THEN (1) ELSE 0 END"}, 1},
		{"SELECT COUNT(*) FILTER (WHERE status = 'refunded') * 1.0 / COUNT(*) FROM orders",
			investigation.Metric{Kind: investigation.MetricRatio, Numerator: "count_star() FILTER (WHERE (status = 'refunded'))", Denominator: "count_star()", Scale: 1, From: "orders"}, 0.25},
		{"SELECT SUM(amount) - SUM(amount) FILTER (WHERE status = 'refunded') FROM orders",
			investigation.Metric{Kind: investigation.MetricSum, Numerator: "(sum(amount) - sum(amount) FILTER (WHERE (status = 'refunded')))", Scale: 1, From: "orders"}, 9},
		{"SELECT SUM(amount) / SUM(quantity) * 100 FROM orders WHERE status = 'paid'",
			investigation.Metric{Kind: investigation.MetricRatio, Numerator: "sum(amount)", Denominator: "sum(quantity)", Scale: 100, From: "orders", Where: "(status = 'paid')"}, 900.0 / 5},
		{"SELECT -SUM(amount) FROM orders",
			investigation.Metric{Kind: investigation.MetricSum, Numerator: "sum(amount)", Scale: -1, From: "orders", RowValue: "amount"}, -16},
		{"SELECT SUM(o.amount) FROM orders o JOIN customers c ON o.customer_id = c.customer_id WHERE c.segment = 'smb' AND o.status <> 'refunded'",
			investigation.Metric{Kind: investigation.MetricSum, Numerator: "sum(o.amount)", Scale: 1, RowValue: "o.amount",
				From:  "orders AS o INNER JOIN customers AS c ON ((o.customer_id = c.customer_id))",
				Where: "((c.segment = 'smb') AND (o.status != 'refunded'))", Tables: []string{"orders", "customers"}}, 9},
		{"SELECT COUNT(*) FROM orders LEFT JOIN customers USING (customer_id)",
			investigation.Metric{Kind: investigation.MetricCount, Numerator: "count_star()", Scale: 1,
				From: "orders LEFT JOIN customers USING (customer_id)", Tables: []string{"orders", "customers"}}, 4},
	}
	ctx := context.Background()
	for _, tt := range tests {
		m, err := e.ParseMetric(ctx, tt.sql)
		if err != nil {
			t.Errorf("ParseMetric(%q): %v", tt.sql, err)
			continue
		}
		want := tt.want
		want.SQL = strings.TrimSpace(tt.sql)
		if want.Tables == nil {
			want.Tables = []string{"orders"}
		}
		if !sameMetric(m, &want) {
			t.Errorf("ParseMetric(%q) =\n  %+v\nwant\n  %+v", tt.sql, *m, want)
			continue
		}
		if got := metricValue(t, e, m); !near(got, tt.value) {
			t.Errorf("ParseMetric(%q) evaluates to %v; want %v", tt.sql, got, tt.value)
		}
	}
}

func sameMetric(a, b *investigation.Metric) bool {
	return a.SQL == b.SQL && a.Kind == b.Kind && a.Numerator == b.Numerator && a.Denominator == b.Denominator &&
		near(a.Scale, b.Scale) && a.DistinctExpr == b.DistinctExpr && a.RowValue == b.RowValue && a.From == b.From && a.Where == b.Where &&
		strings.Join(a.Tables, ",") == strings.Join(b.Tables, ",")
}

func near(a, b float64) bool {
	d := a - b
	return d < 1e-9 && d > -1e-9
}

// metricValue computes the metric the way callers do: numerator and
// denominator in SQL, the rest with quarry.Metric.Value.
func metricValue(t testing.TB, e *Engine, m *investigation.Metric) float64 {
	t.Helper()
	q := "SELECT " + m.Numerator
	if m.Denominator != "" {
		q += ", " + m.Denominator
	}
	q += " FROM " + m.From
	if m.Where != "" {
		q += " WHERE " + m.Where
	}
	res, err := e.Query(context.Background(), q)
	if err != nil {
		t.Fatalf("Query(%q): %v", q, err)
	}
	den := 1.0
	if m.Denominator != "" {
		den = res.Float(0, 1)
	}
	return m.Value(res.Float(0, 0), den)
}

func TestParseMetricErrors(t *testing.T) {
	e := metricEngine(t)
	tests := []struct {
		sql  string
		code string
		msg  string
	}{
		{"", quarry.ECodeMetricSQLRequired, "required"},
		{"   \n ", quarry.ECodeMetricSQLRequired, "required"},
		{"SELEC SUM(amount) FROM orders", quarry.ECodeInvalidMetricSQL, "does not parse"},
		{"SELECT SUM(amount) FROM order_lines", quarry.ECodeInvalidMetricSQL, "table order_lines does not exist; the loaded tables are orders, customers"},
		{"SELECT SUM(amt) FROM orders", quarry.ECodeInvalidMetricSQL, "column amt does not exist; orders has order_id, order_date"},
		{"SELECT SUM(o.revenue) FROM orders o JOIN customers c USING (customer_id)", quarry.ECodeInvalidMetricSQL, "customers has customer_id, segment"},
		{"SELECT SUM(status) FROM orders", quarry.ECodeInvalidMetricSQL, "not valid"},
		{"SELECT SUM(amount) FROM orders WHERE " + strings.Repeat("amount > 0 AND ", 200) + "true", quarry.ECodeInvalidMetricSQL, "limit is 2000"},
		{"DELETE FROM orders", quarry.ECodeUnsupportedMetric, "SELECT statement"},
		{"SELECT SUM(amount) FROM orders; SELECT 1", quarry.ECodeUnsupportedMetric, "one SELECT statement"},
		{"SELECT status, SUM(amount) FROM orders GROUP BY status", quarry.ECodeUnsupportedMetric, "GROUP BY"},
		{"SELECT status, SUM(amount) FROM orders", quarry.ECodeUnsupportedMetric, "exactly one expression"},
		{"SELECT SUM(amount) FROM orders GROUP BY status", quarry.ECodeUnsupportedMetric, "GROUP BY"},
		{"SELECT SUM(amount), COUNT(*) FROM orders", quarry.ECodeUnsupportedMetric, "exactly one expression"},
		{"SELECT SUM(amount) OVER () FROM orders", quarry.ECodeUnsupportedMetric, "window functions"},
		{"SELECT SUM(amount) FROM (SELECT * FROM orders)", quarry.ECodeUnsupportedMetric, "subquery"},
		{"SELECT SUM(amount) FROM orders WHERE customer_id IN (SELECT customer_id FROM customers)", quarry.ECodeUnsupportedMetric, "subqueries"},
		{"SELECT SUM(amount) FROM orders UNION SELECT 1", quarry.ECodeUnsupportedMetric, "UNION"},
		{"WITH x AS (SELECT * FROM orders) SELECT SUM(amount) FROM x", quarry.ECodeUnsupportedMetric, "WITH"},
		{"SELECT MEDIAN(amount) FROM orders", quarry.ECodeUnsupportedMetric, "MEDIAN"},
		{"SELECT quantile_cont(amount, 0.9) FROM orders", quarry.ECodeUnsupportedMetric, "QUANTILE_CONT"},
		{"SELECT MIN(amount) FROM orders", quarry.ECodeUnsupportedMetric, "MIN"},
		{"SELECT MAX(amount) FROM orders", quarry.ECodeUnsupportedMetric, "MAX"},
		{"SELECT DISTINCT SUM(amount) FROM orders", quarry.ECodeUnsupportedMetric, "SELECT DISTINCT"},
		{"SELECT SUM(DISTINCT amount) FROM orders", quarry.ECodeUnsupportedMetric, "SUM(DISTINCT"},
		{"SELECT COUNT(*) / COUNT(DISTINCT customer_id) FROM orders", quarry.ECodeUnsupportedMetric, "COUNT(DISTINCT"},
		{"SELECT AVG(amount) / AVG(quantity) FROM orders", quarry.ECodeUnsupportedMetric, "AVG"},
		{"SELECT SUM(amount) * SUM(quantity) FROM orders", quarry.ECodeUnsupportedMetric, "operator *"},
		{"SELECT ROUND(SUM(amount), 2) FROM orders", quarry.ECodeUnsupportedMetric, "ROUND"},
		{"SELECT SUM(amount) + 1 FROM orders", quarry.ECodeUnsupportedMetric, "constant"},
		{"SELECT amount FROM orders", quarry.ECodeUnsupportedMetric, "column amount"},
		{"SELECT 42 FROM orders", quarry.ECodeUnsupportedMetric, "constant"},
		{"SELECT 42", quarry.ECodeUnsupportedMetric, "FROM clause"},
		{"SELECT COUNT(*)", quarry.ECodeUnsupportedMetric, "FROM clause"},
		{"SELECT SUM(amount) FROM orders ORDER BY 1", quarry.ECodeUnsupportedMetric, "ORDER BY"},
		{"SELECT SUM(amount) FROM orders LIMIT 1", quarry.ECodeUnsupportedMetric, "LIMIT"},
		{"SELECT COUNT(*) FROM read_csv('/etc/passwd')", quarry.ECodeUnsupportedMetric, "table function"},
		{"SELECT SUM(amount) FROM orders WHERE amount > $1", quarry.ECodeUnsupportedMetric, "parameters"},
		{"SELECT SUM(amount) FROM orders HAVING SUM(amount) > 0", quarry.ECodeUnsupportedMetric, "HAVING"},
	}
	ctx := context.Background()
	for _, tt := range tests {
		_, err := e.ParseMetric(ctx, tt.sql)
		if got := quarry.ErrorCode(err); got != tt.code {
			t.Errorf("ParseMetric(%.80q) code = %s (%v); want %s", tt.sql, got, err, tt.code)
			continue
		}
		if msg := quarry.ErrorMessage(err); !strings.Contains(msg, tt.msg) {
			t.Errorf("ParseMetric(%.80q) message = %q; want it to contain %q", tt.sql, msg, tt.msg)
		}
	}
}

func TestParseMetricTableRefs(t *testing.T) {
	e := metricEngine(t)
	tests := []struct {
		sql  string
		want map[string]string
	}{
		{"SELECT SUM(amount) FROM orders", map[string]string{"orders": "orders"}},
		{"SELECT SUM(o.amount) FROM orders o JOIN customers AS c ON o.customer_id = c.customer_id",
			map[string]string{"orders": "o", "customers": "c"}},
	}
	for _, tt := range tests {
		m, err := e.ParseMetric(context.Background(), tt.sql)
		if err != nil {
			t.Fatalf("ParseMetric(%q): %v", tt.sql, err)
		}
		if len(m.TableRefs) != len(tt.want) {
			t.Errorf("ParseMetric(%q).TableRefs = %v; want %v", tt.sql, m.TableRefs, tt.want)
		}
		for k, v := range tt.want {
			if m.TableRefs[k] != v {
				t.Errorf("ParseMetric(%q).TableRefs[%s] = %q; want %q", tt.sql, k, m.TableRefs[k], v)
			}
		}
	}
}
