package sampledata

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// shopTables loads a shop scenario's orders with each order's customer
// segment and region joined in, as a "segment" and "region" column.
func shopTables(t *testing.T, s Scenario) *table {
	orders, customers := loadTable(t, s, "orders.csv"), loadTable(t, s, "customers.csv")
	byID := map[string][]string{}
	for i := range customers.rows {
		byID[customers.get(i, "customer_id")] = []string{customers.get(i, "segment"), customers.get(i, "region")}
	}
	n := len(orders.cols)
	orders.cols["segment"], orders.cols["region"] = n, n+1
	for i, row := range orders.rows {
		c, ok := byID[orders.get(i, "customer_id")]
		if !ok {
			t.Fatalf("order %s: customer %s not in customers.csv", orders.get(i, "order_id"), orders.get(i, "customer_id"))
		}
		orders.rows[i] = append(row, c...)
	}
	return orders
}

// surprise returns, for every value of each column and every pair of
// values of two columns, its share of the change minus its share of the
// baseline: how much more of the change it explains than its size
// predicts. Keys are "col=value" and "col=value&col2=value2".
func surprise(tb *table, s Scenario, dateCol, measure string, cols []string) map[string]float64 {
	base, comp := tb.sums(s, dateCol, measure, nil)
	b, c := map[string]float64{}, map[string]float64{}
	keys := make([]string, 0, len(cols)*len(cols))
	for i := range tb.rows {
		d := mustDate(tb.get(i, dateCol))
		sums := b
		switch {
		case s.Comparison.Contains(d):
			sums = c
		case !s.Baseline.Contains(d):
			continue
		}
		keys = keys[:0]
		for x, cx := range cols {
			kx := cx + "=" + tb.get(i, cx)
			keys = append(keys, kx)
			for _, cy := range cols[x+1:] {
				keys = append(keys, kx+"&"+cy+"="+tb.get(i, cy))
			}
		}
		for _, k := range keys {
			sums[k] += tb.num(i, measure)
		}
	}
	out := map[string]float64{}
	for k := range b {
		out[k] = (c[k]-b[k])/(comp-base) - b[k]/base
	}
	return out
}

func TestRevenueDrop(t *testing.T) {
	s, _ := Get("revenue_drop")
	orders := shopTables(t, s)
	base, comp := orders.sums(s, "order_date", "amount", nil)
	change := comp - base
	pct := change / base
	t.Logf("revenue: baseline %.2f comparison %.2f change %.2f (%.2f%%)", base, comp, change, 100*pct)
	if pct < -0.12 || pct > -0.08 {
		t.Errorf("revenue change = %.2f%%; want between -12%% and -8%%", 100*pct)
	}

	b, c := orders.sums(s, "order_date", "amount", orders.in(s.Planted[0].Segment))
	nb, nc := orders.sums(s, "order_date", "", orders.in(s.Planted[0].Segment))
	android := (c - b) / change
	t.Logf("android 5.2: orders %v -> %v (%.1f%%), revenue %.2f -> %.2f, change %.2f, share %.3f",
		nb, nc, 100*(nc-nb)/nb, b, c, c-b, android)

	eb, ec := orders.sums(s, "order_date", "amount", orders.in(s.Planted[1].Segment))
	enb, enc := orders.sums(s, "order_date", "", orders.in(s.Planted[1].Segment))
	enterprise := (ec - eb) / change
	t.Logf("enterprise: orders %v -> %v, average order %.2f -> %.2f (%.1f%%), revenue %.2f -> %.2f, change %.2f, share %.3f",
		enb, enc, eb/enb, ec/enc, 100*(ec/enc-eb/enb)/(eb/enb), eb, ec, ec-eb, enterprise)

	checkShares(t, []shareCheck{
		{s.Planted[0], android, 0.50, 0.70},
		{s.Planted[1], enterprise, 0.25, 0.35},
	})

	// Apart from the causes and the segments that contain them or are
	// contained in them, no single value or pair of values explains much
	// more of the drop than its size predicts.
	causal := []string{"platform=android", "app_version=5.2", "segment=enterprise"}
	sur := surprise(orders, s, "order_date", "amount", []string{"platform", "app_version", "country", "channel", "segment", "region"})
	for _, k := range slices.Sorted(maps.Keys(sur)) {
		if slices.ContainsFunc(causal, func(c string) bool { return slices.Contains(strings.Split(k, "&"), c) }) {
			continue
		}
		if sur[k] > 0.1 {
			t.Errorf("%s explains %+.3f more of the change than its baseline share; want at most +0.1", k, sur[k])
		}
	}
}
