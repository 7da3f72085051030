package report

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// axisPairs are value ranges that once made the ticker loop forever or
// the plot package panic: equal, one ULP apart, NaN, infinite, huge, tiny
// (denormal) and of mixed sign.
var axisPairs = [][2]float64{
	{5, 5},
	{5.0, 5.000000000000001},
	{5.000000000000001, 5.0},
	{1e15, math.Nextafter(1e15, 2e15)},
	{144, 144},
	{0, 0},
	{math.NaN(), 1},
	{1, math.NaN()},
	{math.Inf(-1), math.Inf(1)},
	{0, math.Inf(1)},
	{-1e308, 1e308},
	{math.MaxFloat64, math.MaxFloat64},
	{-math.MaxFloat64, -math.MaxFloat64},
	{1e308, 1.7e308},
	{0, 5e-324},
	{5e-324, 1e-323},
	{-5e-324, 5e-324},
	{1e-310, 3e-310},
	{-3, 7},
	{-1e-300, 1e300},
	{820, 1340},
}

// checkTicks fails t unless ticks of [lo, hi] are bounded, finite,
// increasing and within the range (up to the rounding of a multiple).
func checkTicks(t *testing.T, lo, hi float64) int {
	t.Helper()
	ticks := valueTicks{newNumberFormat(&investigation.Metric{}, lo, hi)}.Ticks(lo, hi)
	if len(ticks) > maxValueTicks {
		t.Fatalf("Ticks(%v, %v) gave %d ticks; want at most %d", lo, hi, len(ticks), maxValueTicks)
	}
	a, b := math.Min(lo, hi), math.Max(lo, hi)
	tol := 1e-9 * math.Max(math.Abs(a), math.Abs(b))
	for i, tk := range ticks {
		if !isFinite(tk.Value) {
			t.Fatalf("Ticks(%v, %v)[%d] = %v; want a finite value", lo, hi, i, tk.Value)
		}
		if tk.Value < a-tol || tk.Value > b+tol {
			t.Fatalf("Ticks(%v, %v)[%d] = %v; want it within the range", lo, hi, i, tk.Value)
		}
		if i > 0 && !(tk.Value > ticks[i-1].Value) {
			t.Fatalf("Ticks(%v, %v) = %v; want increasing values", lo, hi, ticks)
		}
	}
	return len(ticks)
}

func TestValueTicksBounded(t *testing.T) {
	for _, p := range axisPairs {
		n := checkTicks(t, p[0], p[1])
		if isFinite(p[0]) && isFinite(p[1]) && n == 0 {
			t.Errorf("Ticks(%v, %v) gave no tick for a finite range", p[0], p[1])
		}
	}
}

// TestFlatAxisIsPadded: a flat or near-flat series sits in a padded axis
// with a few round ticks, not in an axis one rounding error wide.
func TestFlatAxisIsPadded(t *testing.T) {
	for _, p := range [][2]float64{{5, 5}, {5.0, 5.000000000000001}, {144, 144}, {0, 0}, {1e308, 1e308}, {0, 5e-324}, {1e6, 1e6 + 1.6e-6}} {
		lo, hi := paddedRange(p[0], p[1], 0.1, 0.35)
		if !isFinite(lo) || !isFinite(hi) || !(hi > lo) {
			t.Fatalf("paddedRange(%v, %v) = %v, %v; want a finite non-empty range", p[0], p[1], lo, hi)
		}
		if lo > p[0] || hi < p[1] {
			t.Errorf("paddedRange(%v, %v) = %v, %v; want it to hold the values", p[0], p[1], lo, hi)
		}
		if n := checkTicks(t, lo, hi); n < 3 {
			t.Errorf("flat %v..%v has %d ticks on its padded axis %v..%v; want at least 3", p[0], p[1], n, lo, hi)
		}
	}
	// A range that is not flat is left as it is.
	if lo, hi := paddedRange(820, 1340, 0, 0); lo != 820 || hi != 1340 {
		t.Errorf("paddedRange(820, 1340, 0, 0) = %v, %v; want 820, 1340", lo, hi)
	}
}

// flatSeriesInput is a run whose overall series is flat: one reading
// counted per day for 16,684 days, as COUNT(*) over regular readings
// gives, and a segment whose values differ by one ULP.
func flatSeriesInput() *Input {
	const n = 16684
	start := day("1980-01-01")
	base := quarry.DateRange{Start: start, End: start.AddDays(n/2 - 1)}
	cmp := quarry.DateRange{Start: start.AddDays(n / 2), End: start.AddDays(n - 1)}
	var all Series
	all.Name = "all rows"
	for i := range n {
		pt := Point{Date: start.AddDays(i), Value: 144}
		if i < n/2 {
			all.Baseline = append(all.Baseline, pt)
		} else {
			all.Comparison = append(all.Comparison, pt)
		}
	}
	ulp := Series{Name: "station=north",
		Baseline:   []Point{{Date: start, Value: 5.0}, {Date: start.AddDays(1), Value: 5.000000000000001}},
		Comparison: []Point{{Date: cmp.Start, Value: 5.000000000000001}, {Date: cmp.Start.AddDays(1), Value: 5.0}}}
	return &Input{
		Title:   "Rows",
		Context: investigation.Context{MetricSQL: "SELECT COUNT(*) FROM weather", BaselinePeriod: base, ComparisonPeriod: cmp},
		Metric:  investigation.Metric{Kind: investigation.MetricCount, Numerator: "COUNT(*)", SQL: "SELECT COUNT(*) FROM weather"},
		Overall: investigation.OverallChange{BaselineValue: 144 * n / 2, ComparisonValue: 144 * n / 2, PValue: 1, Grain: investigation.GrainDay},
		Status:  investigation.OutcomeNoFindings,
		Series:  []Series{all, ulp},
		// A waterfall whose bars are all one ULP: flat as well.
		Waterfall:   []Bar{{Label: "station=north", Value: 0, Kind: investigation.KindRate}, {Label: "everything else", Value: 0, Kind: KindOther}},
		GeneratedAt: fixedTime,
	}
}

// TestNearFlatSeriesRenders renders flat and one-ULP series through Write,
// the entry point the investigation uses: it returns (the ticker once
// looped forever on them, growing without bound), and every chart is a
// readable 900x500 PNG.
func TestNearFlatSeriesRenders(t *testing.T) {
	dir := t.TempDir()
	in := flatSeriesInput()
	type result struct {
		charts Charts
		err    error
	}
	done := make(chan result, 1)
	go func() {
		_, charts, err := Write(dir, in)
		done <- result{charts, err}
	}()
	var res result
	select {
	case res = <-done:
	case <-time.After(2 * time.Minute): // a hang guard, not a timing assertion
		t.Fatal("Write of a flat series did not return")
	}
	if res.err != nil {
		t.Fatalf("Write: %v", res.err)
	}
	if len(res.charts.Series) != 2 || res.charts.Series[0] == "" || res.charts.Series[1] == "" || res.charts.Waterfall == "" {
		t.Fatalf("Write charts = %+v; want a waterfall and both series charts", res.charts)
	}
	for _, p := range append([]string{res.charts.Waterfall}, res.charts.Series...) {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil || img.Bounds().Dx() != 900 || img.Bounds().Dy() != 500 {
			t.Errorf("%s is not a 900x500 PNG: %v", p, err)
		}
	}
	// The axes those charts drew: a padded axis with a few ticks.
	for _, s := range in.Series {
		xys, _ := dayPoints(append(s.Baseline, s.Comparison...), quarry.DateRange{}, "")
		var ys []float64
		for _, xy := range xys {
			ys = append(ys, xy.Y)
		}
		lo, hi, _ := finiteRange(ys)
		a, b := paddedRange(lo, hi, 0.1, 0.35)
		if n := checkTicks(t, a, b); n < 3 {
			t.Errorf("series %s: %d ticks on %v..%v; want a few", s.Name, n, a, b)
		}
	}
}

// TestChartsOfAnyRange draws every chart type over the axis pairs: no
// panic, no hang, and a PNG or an INVALID error (nothing finite to draw).
func TestChartsOfAnyRange(t *testing.T) {
	if testing.Short() {
		t.Skip("draws a hundred charts")
	}
	for _, p := range axisPairs {
		a, b := p[0], p[1]
		d := day("2024-01-01")
		charts := map[string]interface{ WritePNG(*bytes.Buffer) error }{
			"series":    seriesOf(SeriesChart{Series: Series{Name: "s", Baseline: []Point{{d, a}, {d.AddDays(1), b}}, Comparison: []Point{{d.AddDays(2), b}}}}),
			"waterfall": waterfallOf(WaterfallChart{Start: Bar{Label: "Baseline", Value: a}, End: Bar{Label: "Comparison", Value: b}, Steps: []Bar{{Label: "x", Value: b - a}}}),
			"line":      plotOf(Plot{Type: "line", Categories: []string{"a", "b"}, Series: []PlotSeries{{Values: []float64{a, b}}, {Values: []float64{b, a}}}}),
			"bar":       plotOf(Plot{Type: "bar", Categories: []string{"a", "b"}, Series: []PlotSeries{{Values: []float64{a, b}}}}),
			"histogram": plotOf(Plot{Type: "histogram", X: []float64{a, b, a}}),
			"scatter":   plotOf(Plot{Type: "scatter", X: []float64{a, b}, Y: []float64{b, a}}),
		}
		for name, c := range charts {
			var buf bytes.Buffer
			err := c.WritePNG(&buf)
			if err != nil {
				if quarry.ErrorCode(err) != quarry.ECodeInvalid {
					t.Errorf("%s of %v..%v: %v; want a chart or INVALID", name, a, b, err)
				}
				continue
			}
			if _, err := png.Decode(&buf); err != nil {
				t.Errorf("%s of %v..%v: %v", name, a, b, err)
			}
		}
	}
}

type seriesOf SeriesChart

func (s seriesOf) WritePNG(b *bytes.Buffer) error { c := SeriesChart(s); return c.WritePNG(b) }

type waterfallOf WaterfallChart

func (w waterfallOf) WritePNG(b *bytes.Buffer) error { c := WaterfallChart(w); return c.WritePNG(b) }

type plotOf Plot

func (p plotOf) WritePNG(b *bytes.Buffer) error { c := Plot(p); return c.WritePNG(b) }

// TestRenderingBudget: long lines are decimated, long axes get their
// labelled ticks only, many bars are merged, and many series get at most
// maxSeriesCharts charts.
func TestRenderingBudget(t *testing.T) {
	var xys xyRun
	for i := range 100000 {
		xys = append(xys, xyOf(float64(i+1), float64(i%97)))
	}
	xys[5000].Y = 1e6 // a spike the reduced line keeps
	got, gap := decimate(xys)
	if len(got) > maxLinePoints || gap <= 1.5 {
		t.Errorf("decimate(100,000 points) = %d points, gap %v; want at most %d and a wider gap", len(got), gap, maxLinePoints)
	}
	spike := false
	for _, xy := range got {
		spike = spike || xy.Y == 1e6
	}
	if !spike {
		t.Error("decimate lost the spike")
	}
	if n := len(runs(got, gap)); n != 1 {
		t.Errorf("decimated unbroken line has %d runs; want 1", n)
	}
	if n := len(dayTicks(106751)); n > maxAxisTicks {
		t.Errorf("dayTicks(106751) = %d ticks; want at most %d", n, maxAxisTicks)
	}
	if n := len(dayTicks(300)); n != 300 {
		t.Errorf("dayTicks(300) = %d ticks; want one a day", n)
	}
	cats := make([]string, 50000)
	if n := len(categoryTicks(cats)); n > maxAxisTicks {
		t.Errorf("categoryTicks(50,000) = %d ticks; want at most %d", n, maxAxisTicks)
	}
	var steps []Bar
	for i := range 100 {
		steps = append(steps, Bar{Label: "s", Value: float64(i + 1)})
	}
	few := fewestSteps(steps)
	sum := 0.0
	for _, b := range few {
		sum += b.Value
	}
	if len(few) != maxWaterfallSteps || sum != 5050 || few[len(few)-1].Label != "85 smaller contributions" {
		t.Errorf("fewestSteps(100 bars) = %d bars summing to %v, last %q; want %d summing to 5050", len(few), sum, few[len(few)-1].Label, maxWaterfallSteps)
	}
	in := completedInput()
	for range 30 {
		in.Series = append(in.Series, in.Series[0])
	}
	files, charts, err := renderCharts(in)
	if err != nil {
		t.Fatal(err)
	}
	drawn := 0
	for _, p := range charts.Series {
		if p != "" {
			drawn++
		}
	}
	if drawn != maxSeriesCharts || len(files) != maxSeriesCharts+1 {
		t.Errorf("renderCharts(31 series) drew %d series charts, %d files; want %d and the waterfall", drawn, len(files), maxSeriesCharts)
	}
	big := Plot{Type: "line", Categories: make([]string, 10000), Series: []PlotSeries{{Values: make([]float64, 10000)}}}
	if _, _, title := big.firstOf(); title != " (first 2,000 of 10,000)" {
		t.Errorf("firstOf title = %q", title)
	}
}

// TestReportSizeBudget: a report past maxReportBytes is cut at a line,
// closes an open code block and says it was cut.
func TestReportSizeBudget(t *testing.T) {
	in := completedInput()
	in.Explanations[0].Evidence[0].SQL = string(bytes.Repeat([]byte("SELECT 1 -- a long line of SQL\n"), maxReportBytes/16))
	md := Markdown(in, Charts{})
	if len(md) > maxReportBytes {
		t.Fatalf("Markdown is %d bytes; want at most %d", len(md), maxReportBytes)
	}
	if !bytes.HasSuffix([]byte(md), []byte("audit log.*\n")) || openFence(md) != "" {
		t.Errorf("a cut report ends %q; want a closed code block and the note", md[len(md)-200:])
	}
}

func xyOf(x, y float64) struct{ X, Y float64 } { return struct{ X, Y float64 }{x, y} }
