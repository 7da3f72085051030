package drill

import (
	"fmt"
	"math"
	"testing"
)

// binomTail is P(Bin(n, x) >= a), which equals I_x(a, n-a+1) for whole a.
func binomTail(a, n int, x float64) float64 {
	var p float64
	for j := a; j <= n; j++ {
		lc, _ := math.Lgamma(float64(n + 1))
		l1, _ := math.Lgamma(float64(j + 1))
		l2, _ := math.Lgamma(float64(n - j + 1))
		p += math.Exp(lc-l1-l2) * math.Pow(x, float64(j)) * math.Pow(1-x, float64(n-j))
	}
	return p
}

func TestRegIncBeta(t *testing.T) {
	tests := []struct {
		a, b, x, want float64
	}{
		{2, 3, 0.5, 0.6875},
		{3, 1, 0.4, 0.064},                // x^a
		{1, 4, 0.2, 1 - math.Pow(0.8, 4)}, // 1-(1-x)^b
		{0.5, 0.5, 0.3, 2 / math.Pi * math.Asin(math.Sqrt(0.3))},
		{7.5, 7.5, 0.5, 0.5},
		{5, 10, 0.3, binomTail(5, 14, 0.3)},
		{40, 60, 0.45, binomTail(40, 99, 0.45)},
		{200, 3, 0.99, binomTail(200, 202, 0.99)},
		{2, 3, 0, 0},
		{2, 3, 1, 1},
	}
	for _, tt := range tests {
		if got := RegIncBeta(tt.a, tt.b, tt.x); !approx(got, tt.want, 1e-12) {
			t.Errorf("RegIncBeta(%v, %v, %v) = %v; want %v", tt.a, tt.b, tt.x, got, tt.want)
		}
	}
	for _, bad := range [][3]float64{{0, 1, 0.5}, {1, -1, 0.5}, {1, 1, 1.5}, {1, 1, math.NaN()}} {
		if got := RegIncBeta(bad[0], bad[1], bad[2]); !math.IsNaN(got) {
			t.Errorf("RegIncBeta(%v) = %v; want NaN", bad, got)
		}
	}
}

func TestStudentTwoSided(t *testing.T) {
	tests := []struct {
		t, df, want float64
	}{
		{1.5, 1, 1 - 2/math.Pi*math.Atan(1.5)}, // Cauchy
		{-3, 2, 1 - 3/math.Sqrt(11)},           // closed form for df = 2
		{2.228138851986, 10, 0.05},             // table values
		{2.570581835636, 5, 0.05},
		{2.845339709786, 20, 0.01},
		{2.042272456301, 30, 0.05},
		{1.959963984540, math.Inf(1), 0.05},
		{0, 7, 1},
		{math.Inf(-1), 3, 0},
	}
	for _, tt := range tests {
		if got := StudentTwoSided(tt.t, tt.df); !approx(got, tt.want, 1e-9) {
			t.Errorf("StudentTwoSided(%v, %v) = %v; want %v", tt.t, tt.df, got, tt.want)
		}
	}
}

// days builds a series with one day per value; den is the same every day.
func days(num []float64, den float64) []Day {
	out := make([]Day, len(num))
	for i, n := range num {
		out[i] = Day{Date: "2026-01-01", Num: n, Den: den}
	}
	return out
}

func TestChangeTestWelch(t *testing.T) {
	// Means 12 and 20, sample variances 2.5 and 2.5 over 5 days each:
	// se = sqrt(0.5+0.5) = 1, t = 8, df = 8.
	r := ChangeTest(days([]float64{10, 11, 12, 13, 14}, 0), days([]float64{18, 19, 20, 21, 22}, 0), false, 1)
	if r.Method != MethodWelch || r.Effect != 8 || !approx(r.StdErr, 1, 1e-12) || !approx(r.DF, 8, 1e-9) ||
		!approx(r.PValue, StudentTwoSided(8, 8), 1e-15) || r.Total0 != 60 || r.Total1 != 100 {
		t.Errorf("ChangeTest(additive) = %+v; want welch, effect 8, se 1, df 8, totals 60 and 100", r)
	}
	if r.PValue > 1e-4 {
		t.Errorf("ChangeTest(additive) p = %v; want < 1e-4", r.PValue)
	}
	noise := ChangeTest(days([]float64{10, 20, 12, 18, 15}, 0), days([]float64{16, 11, 19, 14, 17}, 0), false, 1)
	if noise.PValue < 0.5 {
		t.Errorf("ChangeTest(noise) p = %v; want > 0.5", noise.PValue)
	}
}

func TestChangeTestPeriodLengths(t *testing.T) {
	// Same daily level, twice as many days: totals double, no change per day.
	base := days([]float64{100, 102, 98, 101, 99, 100, 100}, 0)
	cmp := append(append([]Day(nil), base...), base...)
	r := ChangeTest(base, cmp, false, 1)
	if !approx(r.Effect, 0, 1e-12) || r.PValue < 0.99 || r.Total1 != 2*r.Total0 {
		t.Errorf("ChangeTest(7 vs 14 days) = %+v; want effect 0, p ~1, totals doubled", r)
	}
}

func TestChangeTestRatio(t *testing.T) {
	// Daily conversion ~10% then ~14%, 1000 visits a day.
	base := days([]float64{98, 103, 101, 97, 100, 102, 99}, 1000)
	cmp := days([]float64{139, 141, 143, 138, 140, 142, 137}, 1000)
	r := ChangeTest(base, cmp, true, 100)
	if r.Method != MethodWelch || !approx(r.Value0, 10, 1e-12) || !approx(r.Value1, 14, 1e-12) || r.PValue > 1e-6 {
		t.Errorf("ChangeTest(ratio) = %+v; want welch, 10%% -> 14%%, p < 1e-6", r)
	}
	// Weighted: a tiny day with an extreme ratio barely moves the pooled value
	// (305/3005 = 0.1015; the unweighted mean of daily ratios would be 0.325).
	cmp = append(days([]float64{100, 101, 99}, 1000), Day{Num: 5, Den: 5})
	r = ChangeTest(base, cmp, true, 1)
	if math.Abs(r.Value1-0.1) > 0.002 || r.PValue < 0.05 {
		t.Errorf("ChangeTest(ratio with tiny outlier day) = %+v; want value ~0.1, not significant", r)
	}
	// Days without a denominator are left out.
	r = ChangeTest(append(base, Day{Num: 0, Den: 0}), cmp, true, 1)
	if r.DaysBase != 7 {
		t.Errorf("ChangeTest(zero-den day).DaysBase = %d; want 7", r.DaysBase)
	}
}

func TestChangeTestFallbacks(t *testing.T) {
	tests := []struct {
		name       string
		base, cmp  []Day
		ratio      bool
		wantMethod string
		wantP      float64 // NaN: no test; otherwise the exact z-test p-value
	}{
		// Poisson: 100 vs 144 events in one day each; pooled rate 122,
		// se = sqrt(122*2), z = 44/sqrt(244).
		{"poisson counts", days([]float64{100}, 0), days([]float64{144}, 0), false, MethodPoisson,
			math.Erfc(44 / math.Sqrt(244) / math.Sqrt2)},
		// Binomial: 100/1000 vs 150/1000; pooled 0.125.
		{"binomial", days([]float64{50, 50}, 500), days([]float64{150}, 1000), true, MethodBinomial,
			math.Erfc(0.05 / math.Sqrt(0.125*0.875*0.002) / math.Sqrt2)},
		// Items per order above 1: Poisson on rates 2 and 2.5 per order.
		{"poisson rate", days([]float64{200}, 100), days([]float64{250}, 100), true, MethodPoisson,
			math.Erfc(0.5 / math.Sqrt(2.25*0.02) / math.Sqrt2)},
		{"money", days([]float64{10.5}, 0), days([]float64{12.25}, 0), false, MethodNone, math.NaN()},
		{"no baseline", nil, days([]float64{1, 2, 3}, 0), false, MethodNone, math.NaN()},
	}
	for _, tt := range tests {
		r := ChangeTest(tt.base, tt.cmp, tt.ratio, 1)
		if r.Method != tt.wantMethod || !approx(r.PValue, tt.wantP, 1e-12) {
			t.Errorf("ChangeTest(%s) = %s p %v; want %s p %v", tt.name, r.Method, r.PValue, tt.wantMethod, tt.wantP)
		}
	}
}

func TestChangeTestNoNoise(t *testing.T) {
	same := ChangeTest(days([]float64{5, 5, 5}, 0), days([]float64{5, 5, 5}, 0), false, 1)
	moved := ChangeTest(days([]float64{5, 5, 5}, 0), days([]float64{6, 6, 6}, 0), false, 1)
	if same.PValue != 1 || moved.PValue != 0 {
		t.Errorf("ChangeTest(constant days) p = %v, %v; want 1 and 0", same.PValue, moved.PValue)
	}
}

func TestBenjaminiHochberg(t *testing.T) {
	// The 15 p-values of Benjamini and Hochberg (1995), section 4; at
	// q = 0.05 the first four are rejected.
	p := []float64{0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344,
		0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000}
	want := []float64{0.0015, 0.003, 0.0095, 0.035625, 0.0603, 0.0298 * 15 / 7, 0.0298 * 15 / 7,
		0.0645, 0.0765, 0.486, 0.4262 * 15 / 11, 0.5719 * 15 / 12, 0.6528 * 15 / 13, 0.7590 * 15 / 14, 1}
	// Shuffle to check that the order is kept.
	perm := []int{14, 3, 0, 9, 7, 1, 12, 5, 10, 2, 13, 6, 11, 4, 8}
	pp, ww := make([]float64, 15), make([]float64, 15)
	for i, j := range perm {
		pp[i], ww[i] = p[j], want[j]
	}
	got := BenjaminiHochberg(pp)
	rejected := 0
	for i := range got {
		if !approx(got[i], ww[i], 1e-12) {
			t.Errorf("BenjaminiHochberg(%v)[%d] = %v; want %v", pp[i], i, got[i], ww[i])
		}
		if got[i] <= 0.05 {
			rejected++
		}
	}
	if rejected != 4 {
		t.Errorf("BenjaminiHochberg rejects %d at 0.05; want 4", rejected)
	}
}

func TestHolm(t *testing.T) {
	tests := []struct {
		p, want []float64
	}{
		{[]float64{0.01, 0.04, 0.03, 0.005}, []float64{0.03, 0.06, 0.06, 0.02}},
		{[]float64{0.5, math.NaN(), 0.01}, []float64{0.5, math.NaN(), 0.02}},
		{[]float64{0.9, 0.8}, []float64{1, 1}},
		{nil, []float64{}},
	}
	for _, tt := range tests {
		got := Holm(tt.p)
		if len(got) != len(tt.want) {
			t.Errorf("Holm(%v) = %v; want %v", tt.p, got, tt.want)
			continue
		}
		for i := range got {
			if !approx(got[i], tt.want[i], 1e-12) {
				t.Errorf("Holm(%v) = %v; want %v", tt.p, got, tt.want)
				break
			}
		}
	}
	if q := BenjaminiHochberg([]float64{math.NaN(), 0.01}); !math.IsNaN(q[0]) || q[1] != 0.01 {
		t.Errorf("BenjaminiHochberg(NaN, 0.01) = %v; want [NaN 0.01]", q)
	}
}

func TestSegmentTest(t *testing.T) {
	flat := days([]float64{50, 52, 48, 51, 49}, 0)
	up := days([]float64{80, 82, 78, 81, 79}, 0)
	segs := []SegmentSeries{{"a", flat, flat}, {"b", flat, up}, {"c", flat, nil}}
	got := SegmentTest(segs, false, 1)
	if got[0].QValue < 0.5 || got[1].QValue > 0.001 || !math.IsNaN(got[2].QValue) || got[1].Name != "b" {
		t.Errorf("SegmentTest = %+v; want a quiet, b significant, c untestable", got)
	}
}

func TestBootstrap(t *testing.T) {
	base := days([]float64{10, 11, 12, 13, 14, 12, 11}, 0)
	up := days([]float64{18, 19, 20, 21, 22, 20, 19}, 0)
	noise := days([]float64{13, 10, 12, 14, 11, 12, 12}, 0)
	tests := []struct {
		name       string
		cmp        []Day
		maxP, minP float64
	}{
		{"clear rise", up, 2.0 / 2001, 0},
		{"noise", noise, 1, 0.3},
	}
	for _, tt := range tests {
		r := Bootstrap(base, tt.cmp, false, 1, 2000, 7)
		if r.Method != MethodBootstrap || r.PValue > tt.maxP || r.PValue < tt.minP {
			t.Errorf("Bootstrap(%s) = %s p %v; want bootstrap p in [%v, %v]", tt.name, r.Method, r.PValue, tt.minP, tt.maxP)
		}
		if again := Bootstrap(base, tt.cmp, false, 1, 2000, 7); again != r {
			t.Errorf("Bootstrap(%s) with the same seed = %+v, then %+v; want equal", tt.name, r, again)
		}
	}
	// The resampled standard error is close to the analytic one.
	r, w := Bootstrap(base, up, false, 1, 4000, 1), ChangeTest(base, up, false, 1)
	if math.Abs(r.StdErr/w.StdErr-1) > 0.2 {
		t.Errorf("Bootstrap stderr %v; want within 20%% of Welch's %v", r.StdErr, w.StdErr)
	}
	if r := Bootstrap(days([]float64{1}, 0), days([]float64{3}, 0), false, 1, 100, 1); r.Method != MethodPoisson {
		t.Errorf("Bootstrap(1 day each).Method = %s; want the ChangeTest fallback %s", r.Method, MethodPoisson)
	}
}

func TestBootstrapRatio(t *testing.T) {
	base := append(days([]float64{98, 103, 101, 97, 100, 102, 99}, 1000), Day{Num: 0, Den: 0})
	cmp := days([]float64{139, 141, 143, 138, 140, 142, 137}, 1000)
	r := Bootstrap(base, cmp, true, 1, 1000, 3)
	if r.Method != MethodBootstrap || r.DaysBase != 7 || !approx(r.Effect, 0.04, 1e-12) || r.PValue > 2.0/1001 {
		t.Errorf("Bootstrap(ratio) = %+v; want bootstrap over 7 base days, effect 0.04, p at its floor", r)
	}
}

// TestChangeBelowPrecision: days without noise make any difference
// certain, so a difference of floating-point rounding (1.6e-12 of the
// value) once came out "significant, p = 0". It is no change; a real
// difference of a millionth still is one.
func TestChangeBelowPrecision(t *testing.T) {
	days := func(v float64, n int) []Day {
		var out []Day
		for i := range n {
			out = append(out, Day{Date: fmt.Sprintf("2024-01-%02d", i+1), Num: v})
		}
		return out
	}
	tests := []struct {
		base, cmp float64
		below     bool
		p         float64
	}{
		{100000.0, 100000.00000016, true, 1},
		{1000000.0, 1000000.0000016, true, 1},
		{100000.0, 100000.1, false, 0},
		{0, 0, false, 1},
	}
	for _, tt := range tests {
		for _, r := range []TestResult{ChangeTest(days(tt.base, 10), days(tt.cmp, 10), false, 1), Bootstrap(days(tt.base, 10), days(tt.cmp, 10), false, 1, 200, 1)} {
			if r.BelowPrecision != tt.below || r.PValue != tt.p && !(r.Method == MethodBootstrap && !tt.below) {
				t.Errorf("%s(%v vs %v) = below %v, p %v; want below %v, p %v", r.Method, tt.base, tt.cmp, r.BelowPrecision, r.PValue, tt.below, tt.p)
			}
		}
	}
	// Ratios: 0.5 against 0.5 plus rounding.
	base := []Day{{Date: "a", Num: 1, Den: 2}, {Date: "b", Num: 1, Den: 2}, {Date: "c", Num: 1, Den: 2}}
	cmp := []Day{{Date: "d", Num: 1.0000000000001, Den: 2}, {Date: "e", Num: 1.0000000000001, Den: 2}, {Date: "f", Num: 1.0000000000001, Den: 2}}
	if r := ChangeTest(base, cmp, true, 1); !r.BelowPrecision || r.PValue != 1 {
		t.Errorf("ChangeTest(ratio 0.5 vs 0.5+5e-14) = below %v, p %v; want below, p 1", r.BelowPrecision, r.PValue)
	}
	for _, c := range []struct {
		a, b, mag float64
		want      bool
	}{
		{1e6, 1e6 + 1.6e-6, 0, true},
		{1e6, 1e6 + 1, 0, false},
		{0, 1e-12, 1e6, true},
		{math.Inf(1), math.Inf(1), 0, false},
		{math.NaN(), 1, 0, false},
	} {
		if got := WithinPrecision(c.a, c.b, c.mag); got != c.want {
			t.Errorf("WithinPrecision(%v, %v, %v) = %v; want %v", c.a, c.b, c.mag, got, c.want)
		}
	}
}
