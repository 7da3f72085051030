package drill

import (
	"math"
	"testing"
)

// approx reports whether a and b agree within tol, treating two NaNs as equal.
func approx(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol
}

func TestAdditive(t *testing.T) {
	parts := []Part{
		{Name: "region=EU", Num0: 100, Num1: 80},
		{Name: "region=US", Num0: 300, Num1: 330},
	}
	d := Additive(parts, Part{Num0: 100, Num1: 90})
	if err := d.Check(); err != nil {
		t.Fatalf("Additive(%v).Check() = %v; want nil", parts, err)
	}
	tests := []struct {
		got, want float64
		what      string
	}{
		{d.Total0, 500, "Total0"},
		{d.Total1, 500, "Total1"},
		{d.Change, 0, "Change"},
		{d.Effects[0].Change, -20, "EU change"},
		{d.Effects[1].Change, 30, "US change"},
		{d.Remainder.Change, -10, "remainder change"},
		{d.Effects[0].Share0, 0.2, "EU share0"},
		{d.Effects[1].Share1, 0.66, "US share1"},
		{d.Effects[1].Value1, 330, "US value1"},
	}
	for _, tt := range tests {
		if !approx(tt.got, tt.want, 1e-12) {
			t.Errorf("Additive: %s = %v; want %v", tt.what, tt.got, tt.want)
		}
	}
	if d.Remainder.Name != restName {
		t.Errorf("Additive: remainder name = %q; want %q", d.Remainder.Name, restName)
	}
	if got := d.Effects[0].Driver(); got != "" {
		t.Errorf("Additive effect Driver() = %q; want \"\"", got)
	}
}

func TestAdditiveZeroTotal(t *testing.T) {
	d := Additive([]Part{{Name: "a", Num1: 5}}, Part{})
	if err := d.Check(); err != nil {
		t.Fatalf("Check() = %v; want nil", err)
	}
	if e := d.Effects[0]; e.Share0 != 0 || e.Share1 != 1 || e.Change != 5 {
		t.Errorf("Additive(appearing) effect = %+v; want share0 0, share1 1, change 5", e)
	}
}

func TestRatioHandComputed(t *testing.T) {
	// A: 30/100 -> 40/100, B: 10/100 -> 10/300. R0 = 0.2, R1 = 0.125.
	parts := []Part{
		{Name: "A", Num0: 30, Den0: 100, Num1: 40, Den1: 100},
		{Name: "B", Num0: 10, Den0: 100, Num1: 10, Den1: 300},
	}
	d := Ratio(parts, Part{}, 1)
	if err := d.Check(); err != nil {
		t.Fatalf("Check() = %v; want nil", err)
	}
	tests := []struct {
		got, want float64
		what      string
	}{
		{d.Total0, 0.2, "Total0"},
		{d.Total1, 0.125, "Total1"},
		{d.Change, -0.075, "Change"},
		{d.Effects[0].Rate, 0.375 * 0.1, "A rate"},
		{d.Effects[0].Mix, (0.35 - 0.1625) * -0.25, "A mix"},
		{d.Effects[1].Rate, 0.625 * (1.0/30 - 0.1), "B rate"},
		{d.Effects[1].Mix, ((0.1+1.0/30)/2 - 0.1625) * 0.25, "B mix"},
		{d.Effects[1].Share1, 0.75, "B share1"},
		{d.Effects[1].Value1, 1.0 / 30, "B value1"},
		{d.Remainder.Change, 0, "remainder"},
	}
	for _, tt := range tests {
		if !approx(tt.got, tt.want, 1e-12) {
			t.Errorf("Ratio: %s = %v; want %v", tt.what, tt.got, tt.want)
		}
	}
}

func TestRatioAddsUp(t *testing.T) {
	tests := []struct {
		name  string
		parts []Part
		rest  Part
		scale float64
	}{
		{"plain", []Part{{"a", 5, 50, 9, 60}, {"b", 7, 20, 3, 10}}, Part{"", 1, 30, 2, 30}, 100},
		{"appearing", []Part{{"new", 0, 0, 30, 100}, {"old", 10, 100, 12, 100}}, Part{}, 1},
		{"vanishing", []Part{{"gone", 40, 100, 0, 0}, {"old", 10, 100, 12, 100}}, Part{}, 1},
		{"all zero", []Part{{"a", 0, 0, 0, 0}, {"b", 0, 0, 0, 0}}, Part{}, 1},
		{"empty baseline", []Part{{"a", 0, 0, 3, 10}, {"b", 0, 0, 1, 10}}, Part{}, 1},
		{"empty comparison", []Part{{"a", 3, 10, 0, 0}}, Part{"x", 1, 10, 0, 0}, 1},
		{"orphan numerator", []Part{{"a", 5, 0, 7, 0}, {"b", 10, 100, 10, 100}}, Part{}, 1},
		{"negative numerators", []Part{{"loss", -20, 40, 5, 40}, {"b", 10, 100, -10, 50}}, Part{}, 1},
		{"zero scale means 1", []Part{{"a", 1, 2, 1, 4}}, Part{"r", 1, 2, 1, 1}, 0},
	}
	for _, tt := range tests {
		d := Ratio(tt.parts, tt.rest, tt.scale)
		if err := d.Check(); err != nil {
			t.Errorf("Ratio(%s).Check() = %v; want nil", tt.name, err)
		}
		scale := tt.scale
		if scale == 0 {
			scale = 1
		}
		var n0, d0, n1, d1 float64
		for _, p := range append(tt.parts, tt.rest) {
			n0, d0, n1, d1 = n0+p.Num0, d0+p.Den0, n1+p.Num1, d1+p.Den1
		}
		if want := scale * safeDiv(n0, d0); !approx(d.Total0, want, 1e-12) {
			t.Errorf("Ratio(%s).Total0 = %v; want %v", tt.name, d.Total0, want)
		}
		if want := scale * safeDiv(n1, d1); !approx(d.Total1, want, 1e-12) {
			t.Errorf("Ratio(%s).Total1 = %v; want %v", tt.name, d.Total1, want)
		}
	}
}

func TestRatioAppearingIsMix(t *testing.T) {
	parts := []Part{{"new", 0, 0, 30, 100}, {"old", 10, 100, 12, 100}}
	d := Ratio(parts, Part{}, 1)
	e := d.Effects[0]
	if e.Rate != 0 || e.Mix == 0 || e.Driver() != "mix" {
		t.Errorf("Ratio(appearing) new = %+v; want rate 0, nonzero mix, driver mix", e)
	}
	if !math.IsNaN(e.Value0) || e.Value1 != 0.3 {
		t.Errorf("Ratio(appearing) new values = %v, %v; want NaN, 0.3", e.Value0, e.Value1)
	}
}

func TestRatioSimpson(t *testing.T) {
	// Both segments improve their own rate, but traffic moves to the weak
	// segment, so the overall rate falls: the mix effect dominates.
	parts := []Part{
		{Name: "desktop", Num0: 400, Den0: 800, Num1: 110, Den1: 200},
		{Name: "mobile", Num0: 20, Den0: 200, Num1: 96, Den1: 800},
	}
	d := Ratio(parts, Part{}, 1)
	if err := d.Check(); err != nil {
		t.Fatalf("Check() = %v; want nil", err)
	}
	var rate, mix float64
	for _, e := range d.Effects {
		if e.Value1 <= e.Value0 {
			t.Errorf("%s: value %v -> %v; want an improvement", e.Name, e.Value0, e.Value1)
		}
		if e.Rate <= 0 {
			t.Errorf("%s: rate effect %v; want > 0", e.Name, e.Rate)
		}
		if got := e.Driver(); got != "mix" {
			t.Errorf("%s: Driver() = %q; want mix", e.Name, got)
		}
		rate, mix = rate+e.Rate, mix+e.Mix
	}
	if d.Change >= 0 || mix >= 0 || math.Abs(mix) <= math.Abs(rate) {
		t.Errorf("Simpson: change %v, rate %v, mix %v; want change < 0 driven by mix", d.Change, rate, mix)
	}
}

func TestRatioRateDominates(t *testing.T) {
	// Weights stay put; one segment's own rate collapses.
	parts := []Part{
		{Name: "checkout=new", Num0: 300, Den0: 1000, Num1: 150, Den1: 1000},
		{Name: "checkout=old", Num0: 200, Den0: 1000, Num1: 205, Den1: 1000},
	}
	d := Ratio(parts, Part{}, 1)
	e := d.Effects[0]
	if e.Mix != 0 || !approx(e.Rate, -0.075, 1e-12) || e.Driver() != "rate" {
		t.Errorf("Ratio(rate drop) = %+v; want mix 0, rate -0.075, driver rate", e)
	}
}

func TestRatioMixNeutralAtAverage(t *testing.T) {
	// A segment that grows its share at the average rate moves nothing.
	parts := []Part{
		{Name: "a", Num0: 30, Den0: 100, Num1: 90, Den1: 300},
		{Name: "b", Num0: 30, Den0: 100, Num1: 30, Den1: 100},
	}
	d := Ratio(parts, Part{}, 1)
	for _, e := range d.Effects {
		if !approx(e.Change, 0, 1e-15) {
			t.Errorf("Ratio(same rates).%s change = %v; want 0", e.Name, e.Change)
		}
	}
}

func TestRatioSymmetric(t *testing.T) {
	parts := []Part{{"a", 5, 50, 9, 60}, {"b", 7, 20, 3, 10}, {"c", 0, 0, 4, 8}}
	swapped := make([]Part, len(parts))
	for i, p := range parts {
		swapped[i] = Part{p.Name, p.Num1, p.Den1, p.Num0, p.Den0}
	}
	d, s := Ratio(parts, Part{}, 1), Ratio(swapped, Part{}, 1)
	for i := range parts {
		if !approx(d.Effects[i].Rate, -s.Effects[i].Rate, 1e-15) || !approx(d.Effects[i].Mix, -s.Effects[i].Mix, 1e-15) {
			t.Errorf("Ratio swapped %s = %+v; want the negation of %+v", parts[i].Name, s.Effects[i], d.Effects[i])
		}
	}
}

func TestDistinct(t *testing.T) {
	// 10 users only on web, 5 only on app, 3 on both -> 18; then 8, 9, 6 -> 23.
	d := Distinct([]Part{{Name: "web", Num0: 10, Num1: 8}, {Name: "app", Num0: 5, Num1: 9}}, Part{Num0: 3, Num1: 6})
	if err := d.Check(); err != nil {
		t.Fatalf("Check() = %v; want nil", err)
	}
	if d.Total0 != 18 || d.Total1 != 23 || d.Remainder.Change != 3 || d.Remainder.Name != "shared across segments" {
		t.Errorf("Distinct = %+v; want totals 18, 23 and a shared remainder of +3", d)
	}
}

func TestCheckCatchesErrors(t *testing.T) {
	good := Ratio([]Part{{"a", 5, 50, 9, 60}}, Part{"", 1, 30, 2, 30}, 1)
	tests := []struct {
		name   string
		mutate func(d *Decomposition)
	}{
		{"effect off", func(d *Decomposition) { d.Effects[0].Change += 1e-3; d.Effects[0].Rate += 1e-3 }},
		{"rate+mix", func(d *Decomposition) { d.Effects[0].Mix += 1e-3 }},
		{"totals", func(d *Decomposition) { d.Total1 += 1e-3 }},
		{"NaN", func(d *Decomposition) { d.Remainder.Change = math.NaN() }},
	}
	for _, tt := range tests {
		d := good
		d.Effects = append([]Effect(nil), good.Effects...)
		tt.mutate(&d)
		if err := d.Check(); err == nil {
			t.Errorf("Check(%s) = nil; want an error", tt.name)
		}
	}
}
