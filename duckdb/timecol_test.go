package duckdb

import (
	"context"
	"testing"

	"github.com/quarry-dev/quarry"
)

func TestTimeColumn(t *testing.T) {
	e := metricEngine(t)
	mustLoad(t, e, "events", "event_id,created_at,updated_at,day_text,note\n1,2024-01-01 10:00:00,2024-02-01 10:00:00,2024-01-01,x\n2,2024-01-02 11:00:00,2024-02-02 10:00:00,2024-01-02,y\n")
	mustLoad(t, e, "shipments", "order_id,ship_date,delivery_date\n1,2024-01-01,2024-01-03\n")
	mustLoad(t, e, "twodates", "id,alpha_date,beta_date\n1,2024-01-01,2024-01-03\n")
	mustLoad(t, e, "nodates", "id,amount\n1,2\n")
	mustLoad(t, e, "quarters", "qtr,dt,amount\n2024-Q1,2024-01-05,1\n2024-Q1,2024-02-05,2\n2024-Q2,2024-04-05,3\n")
	ctx := context.Background()
	tests := []struct {
		metric, hint string
		want         string
		code         string
	}{
		{"SELECT SUM(amount) FROM orders", "", "orders.order_date", ""},
		{"SELECT SUM(o.amount) FROM orders o JOIN customers c USING (customer_id)", "", "o.order_date", ""},
		{"SELECT SUM(o.amount) FROM orders o JOIN customers c USING (customer_id)", "customers.signup_date", "c.signup_date", ""},
		{"SELECT SUM(o.amount) FROM orders o JOIN customers c USING (customer_id)", "C.SIGNUP_DATE", "c.signup_date", ""},
		{"SELECT COUNT(*) FROM events", "", "CAST(events.created_at AS DATE)", ""},
		{"SELECT COUNT(*) FROM events", "events.day_text", "events.day_text", ""}, // DuckDB typed it DATE
		{"SELECT COUNT(*) FROM shipments", "", "shipments.ship_date", ""},
		{"SELECT COUNT(*) FROM twodates", "", "", quarry.ECodeInvalidTimeColumn},
		{"SELECT COUNT(*) FROM twodates", "twodates.beta_date", "twodates.beta_date", ""},
		{"SELECT COUNT(*) FROM nodates", "", "", quarry.ECodeInvalidTimeColumn},
		{"SELECT COUNT(*) FROM events", "events.note", "", quarry.ECodeInvalidTimeColumn},
		{"SELECT COUNT(*) FROM events", "events.nope", "", quarry.ECodeInvalidTimeColumn},
		{"SELECT COUNT(*) FROM events", "orders.order_date", "", quarry.ECodeInvalidTimeColumn},
		{"SELECT COUNT(*) FROM events", "created_at", "CAST(events.created_at AS DATE)", ""},
		{"SELECT COUNT(*) FROM twodates", "BETA_DATE", "twodates.beta_date", ""},
		{"SELECT SUM(o.amount) FROM orders o JOIN customers c USING (customer_id)", "customer_id", "", quarry.ECodeInvalidTimeColumn},
		{"SELECT COUNT(*) FROM events", "nope", "", quarry.ECodeInvalidTimeColumn},
		// The quarters restate the days: the days are the time.
		{"SELECT SUM(amount) FROM quarters", "", "quarters.dt", ""},
	}
	for _, tt := range tests {
		m, err := e.ParseMetric(ctx, tt.metric)
		if err != nil {
			t.Fatalf("ParseMetric(%q): %v", tt.metric, err)
		}
		got, err := e.TimeColumn(ctx, m, tt.hint, "")
		if code := quarry.ErrorCode(err); code != tt.code || got != tt.want {
			t.Errorf("TimeColumn(%q, %q) = %q, %v; want %q, code %q", tt.metric, tt.hint, got, err, tt.want, tt.code)
			continue
		}
		if err != nil {
			continue
		}
		// The expression must work against the metric's FROM clause.
		if _, err := e.Query(ctx, "SELECT min("+got+") FROM "+m.From); err != nil {
			t.Errorf("TimeColumn(%q, %q) = %q does not run: %v", tt.metric, tt.hint, got, err)
		}
	}
}

func TestTimeColumnText(t *testing.T) {
	e := mustOpen(t)
	// Mixed formats keep DuckDB from typing the column, but they still
	// read as timestamps.
	mustLoad(t, e, "visits", "visit_id,day\n1,2024-01-01\n2,2024-01-02 10:00:00\n3,2024-01-03\n")
	mustLoad(t, e, "bad", "id,day\n1,2024-01-01\n2,soon\n3,later\n")
	ctx := context.Background()
	m, err := e.ParseMetric(ctx, "SELECT COUNT(*) FROM visits")
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.TimeColumn(ctx, m, "visits.day", "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Query(ctx, "SELECT count(DISTINCT "+got+") FROM "+m.From)
	if err != nil || res.Rows[0][0] != int64(3) {
		t.Errorf("TimeColumn(visits.day) = %q gives %v, %v; want 3 dates", got, res, err)
	}
	m, err = e.ParseMetric(ctx, "SELECT COUNT(*) FROM bad")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.TimeColumn(ctx, m, "bad.day", ""); quarry.ErrorCode(err) != quarry.ECodeInvalidTimeColumn {
		t.Errorf("TimeColumn(bad.day) = %v; want INVALID_TIME_COLUMN", err)
	}
}
