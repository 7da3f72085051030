package report

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/quarry-dev/quarry"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// maxMarkedDays is the longest period whose daily points get a marker;
// beyond it the markers crowd the lines.
const maxMarkedDays = 45

// SeriesChart shows a segment's daily metric in both periods, overlaid by
// day of period (day 1 of the baseline over day 1 of the comparison), so
// periods with different calendar dates can be compared.
type SeriesChart struct {
	Title string
	// Metric picks the number format of the value axis; nil prints plain
	// numbers.
	Metric *quarry.Metric
	Series Series
	// Baseline and Comparison are the periods; their start is day 1. A
	// zero period starts at the line's first point.
	Baseline, Comparison quarry.DateRange
}

// WritePNG draws the chart as a 900x500 PNG. It reports an INVALID error
// when neither period has a finite point.
func (sc *SeriesChart) WritePNG(w io.Writer) error {
	base, baseRange := dayPoints(sc.Series.Baseline, sc.Baseline)
	comp, compRange := dayPoints(sc.Series.Comparison, sc.Comparison)
	if len(base)+len(comp) == 0 {
		return quarry.Errorf(quarry.ECodeInvalid, "series %q has no values to draw", sc.Series.Name)
	}
	var ys []float64
	for _, xy := range slices.Concat(base, comp) {
		ys = append(ys, xy.Y)
	}
	lo, hi := slices.Min(ys), slices.Max(ys)
	m := sc.Metric
	if m == nil {
		m = &quarry.Metric{}
	}
	f := newNumberFormat(m, lo, hi)

	p := newPlot(sc.Title)
	nDays := 1.0
	for _, l := range []struct {
		xys   plotter.XYs
		name  string
		r     quarry.DateRange
		style draw.LineStyle
	}{
		{base, "Baseline", baseRange, draw.LineStyle{Color: colorBaseline, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}},
		{comp, "Comparison", compRange, draw.LineStyle{Color: colorComparison, Width: vg.Points(2)}},
	} {
		if len(l.xys) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(l.xys)
		if err != nil {
			return err
		}
		line.LineStyle = l.style
		points.Shape = draw.CircleGlyph{}
		points.Color = l.style.Color
		points.Radius = vg.Points(2)
		p.Add(line)
		if l.r.Days() <= maxMarkedDays {
			p.Add(points)
		}
		p.Legend.Add(fmt.Sprintf("%s  %s to %s", l.name, l.r.Start, l.r.End), line)
		nDays = max(nDays, float64(l.r.Days()), l.xys[len(l.xys)-1].X)
	}
	p.Legend.Top = true
	p.Legend.XOffs = -vg.Points(12) // keep the line samples off the image edge
	p.Legend.ThumbnailWidth = vg.Points(24)

	p.X.Label.Text = "Day of period"
	p.X.Min, p.X.Max = 0.5, nDays+0.5
	p.X.Tick.Marker = dayTicks(int(nDays))
	p.Y.Tick.Marker = valueTicks{f}
	span := hi - lo
	if span == 0 {
		span = math.Max(math.Abs(hi)*0.1, 1)
	}
	// Headroom at the top keeps the legend off the lines.
	p.Y.Min, p.Y.Max = lo-0.1*span, hi+0.35*span
	if lo >= 0 && p.Y.Min < 0 {
		p.Y.Min = 0
	}
	return writePNG(w, p)
}

// dayPoints places each finite point at its day of period (1-based) and
// returns the period the day numbers count from.
func dayPoints(pts []Point, r quarry.DateRange) (plotter.XYs, quarry.DateRange) {
	var kept []Point
	for _, pt := range pts {
		if !math.IsNaN(pt.Value) && !math.IsInf(pt.Value, 0) && !pt.Date.IsZero() {
			kept = append(kept, pt)
		}
	}
	slices.SortFunc(kept, func(a, b Point) int { return a.Date.Time().Compare(b.Date.Time()) })
	if len(kept) == 0 {
		return nil, r
	}
	if r.Start.IsZero() || r.End.IsZero() {
		r = quarry.DateRange{Start: kept[0].Date, End: kept[len(kept)-1].Date}
	}
	xys := make(plotter.XYs, len(kept))
	for i, pt := range kept {
		day := math.Round(pt.Date.Time().Sub(r.Start.Time()).Hours()/24) + 1
		xys[i] = plotter.XY{X: day, Y: pt.Value}
	}
	return xys, r
}

// dayTicks labels every day of a short period and every seventh day (1, 8,
// 15, ...) of a longer one, so labels fall on the same weekday; periods of
// more than ten weeks get a label every few weeks.
func dayTicks(n int) plot.ConstantTicks {
	step := 1
	if n > 14 {
		step = 7 * ((n + 69) / 70)
	}
	var ticks []plot.Tick
	for d := 1; d <= n; d++ {
		label := ""
		if (d-1)%step == 0 {
			label = fmt.Sprint(d)
		}
		ticks = append(ticks, plot.Tick{Value: float64(d), Label: label})
	}
	return ticks
}
