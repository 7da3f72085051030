package sampledata

import (
	"math"
	"testing"
)

func TestSteady(t *testing.T) {
	s, _ := Get("steady")
	if len(s.Planted) != 0 {
		t.Fatalf("steady plants %d causes; want none", len(s.Planted))
	}
	orders := shopTables(t, s)
	base, comp := orders.sums(s, "order_date", "amount", nil)
	pct := (comp - base) / base
	t.Logf("revenue: baseline %.2f comparison %.2f change %+.2f%%", base, comp, 100*pct)
	if math.Abs(pct) >= 0.02 {
		t.Errorf("revenue change = %+.2f%%; want within ±2%%", 100*pct)
	}

	// No value of any dimension moves by more than its noise: the change
	// over its standard error (sum of squared amounts, as for a compound
	// Poisson total) stays under 3.5 for every value.
	for _, col := range []string{"platform", "app_version", "country", "channel", "segment", "region"} {
		values := map[string]bool{}
		for i := range orders.rows {
			values[orders.get(i, col)] = true
		}
		for v := range values {
			match := func(i int) bool { return orders.get(i, col) == v }
			b, c := orders.sums(s, "order_date", "amount", match)
			var sq float64
			for i := range orders.rows {
				if match(i) {
					a := orders.num(i, "amount")
					sq += a * a
				}
			}
			z := (c - b) / math.Sqrt(sq)
			if math.Abs(z) > 3.5 {
				t.Errorf("%s=%s: %.2f -> %.2f, z = %.2f; want |z| <= 3.5", col, v, b, c, z)
			}
		}
	}
}
