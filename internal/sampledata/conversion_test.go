package sampledata

import (
	"testing"
)

// cell is a segment's sessions and conversions in each period.
type cell struct{ n0, n1, c0, c1 float64 }

// effects splits a ratio metric's change over the values of a partition
// into rate and mix effects that add up to the whole change exactly:
//
//	rate_s = w̄_s (r1_s - r0_s)
//	mix_s  = (w1_s - w0_s) (r̄_s - R̄)
//
// where w is a segment's share of the denominator, r its ratio, R the
// overall ratio and a bar the mean of the two periods. testdata/README.md
// documents the same definition.
func effects(cells map[string]cell) (r0, r1 float64, rate, mix map[string]float64) {
	var tot cell
	for _, c := range cells {
		tot.n0, tot.n1, tot.c0, tot.c1 = tot.n0+c.n0, tot.n1+c.n1, tot.c0+c.c0, tot.c1+c.c1
	}
	r0, r1 = tot.c0/tot.n0, tot.c1/tot.n1
	rbar := (r0 + r1) / 2
	rate, mix = map[string]float64{}, map[string]float64{}
	for k, c := range cells {
		w0, w1 := c.n0/tot.n0, c.n1/tot.n1
		var s0, s1 float64
		if c.n0 > 0 {
			s0 = c.c0 / c.n0
		}
		if c.n1 > 0 {
			s1 = c.c1 / c.n1
		}
		rate[k] = (w0 + w1) / 2 * (s1 - s0)
		mix[k] = (w1 - w0) * ((s0+s1)/2 - rbar)
	}
	return r0, r1, rate, mix
}

// sessionCells groups sessions by key into cells.
func sessionCells(tb *table, s Scenario, key func(i int) string) map[string]cell {
	out := map[string]cell{}
	for i := range tb.rows {
		d := tb.get(i, "session_date")
		conv := tb.num(i, "converted")
		c := out[key(i)]
		switch day := mustDate(d); {
		case s.Baseline.Contains(day):
			c.n0++
			c.c0 += conv
		case s.Comparison.Contains(day):
			c.n1++
			c.c1 += conv
		}
		out[key(i)] = c
	}
	return out
}

func TestCheckoutConversion(t *testing.T) {
	s, _ := Get("checkout_conversion")
	sessions := loadTable(t, s, "sessions.csv")
	bySource := sessionCells(sessions, s, func(i int) string { return sessions.get(i, "traffic_source") })
	r0, r1, rate, mix := effects(bySource)
	change := r1 - r0
	t.Logf("conversion: baseline %.4f comparison %.4f change %+.4f (%.1f%%)", r0, r1, change, 100*change/r0)
	totalMix := 0.0
	for k, c := range bySource {
		totalMix += mix[k]
		t.Logf("traffic_source=%-12s sessions %6.0f -> %6.0f share %.3f -> %.3f conv %.4f -> %.4f rate %+.5f mix %+.5f",
			k, c.n0, c.n1, c.n0/sumN(bySource, 0), c.n1/sumN(bySource, 1), c.c0/c.n0, c.c1/c.n1, rate[k], mix[k])
	}
	mixShare := totalMix / change
	t.Logf("mix effect of traffic_source: %+.5f, share %.3f", totalMix, mixShare)

	isIOSDE := func(i int) string {
		if sessions.get(i, "device") == "ios" && sessions.get(i, "country") == "DE" {
			return "ios_de"
		}
		return "rest"
	}
	_, _, rate2, _ := effects(sessionCells(sessions, s, isIOSDE))
	c := sessionCells(sessions, s, isIOSDE)["ios_de"]
	rateShare := rate2["ios_de"] / change
	t.Logf("device=ios AND country=DE: sessions %.0f -> %.0f conv %.4f -> %.4f rate effect %+.5f share %.3f",
		c.n0, c.n1, c.c0/c.n0, c.c1/c.n1, rate2["ios_de"], rateShare)

	if r0 < 0.039 || r0 > 0.043 || r1 < 0.034 || r1 > 0.038 {
		t.Errorf("conversion %.4f -> %.4f; want about 0.041 -> 0.036", r0, r1)
	}
	checkShares(t, []shareCheck{{s.Planted[0], mixShare, 0.25, 1}, {s.Planted[1], rateShare, 0.25, 1}})
}

func sumN(cells map[string]cell, period int) float64 {
	t := 0.0
	for _, c := range cells {
		if period == 0 {
			t += c.n0
		} else {
			t += c.n1
		}
	}
	return t
}
