package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
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
	Metric *investigation.Metric
	Series Series
	// Baseline and Comparison are the periods; their start is day 1. A
	// zero period starts at the line's first point.
	Baseline, Comparison quarry.DateRange
	// Grain is the spacing of the data (a quarry.Grain constant); the x
	// axis counts periods of it: months of the period for monthly data.
	Grain string
}

// WritePNG draws the chart as a 900x500 PNG. It reports an INVALID error
// when neither period has a finite point.
func (sc *SeriesChart) WritePNG(w io.Writer) error {
	base, baseRange := dayPoints(sc.Series.Baseline, sc.Baseline, sc.Grain)
	comp, compRange := dayPoints(sc.Series.Comparison, sc.Comparison, sc.Grain)
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
		m = &investigation.Metric{}
	}
	f := newNumberFormat(m, lo, hi)

	p := newPlot(sc.Title)
	nDays := 1.0
	for _, l := range []struct {
		xys   xyRun
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
		// A period without rows breaks the line: a gap, not a zero.
		var line *plotter.Line
		xys, gap := decimate(l.xys)
		for _, run := range runs(xys, gap) {
			seg, points, err := plotter.NewLinePoints(run)
			if err != nil {
				return err
			}
			seg.LineStyle = l.style
			points.Shape = draw.CircleGlyph{}
			points.Color = l.style.Color
			points.Radius = vg.Points(2)
			p.Add(seg)
			if len(l.xys) <= maxMarkedDays || len(run) == 1 {
				p.Add(points)
			}
			if line == nil {
				line = seg
			}
		}
		p.Legend.Add(fmt.Sprintf("%s  %s to %s", l.name, l.r.Start, l.r.End), line)
		nDays = max(nDays, float64(l.r.Days()), l.xys[len(l.xys)-1].X)
	}
	p.Legend.Top = true
	p.Legend.XOffs = -vg.Points(12) // keep the line samples off the image edge
	p.Legend.ThumbnailWidth = vg.Points(24)

	p.X.Label.Text = "Day of period"
	if n := grainNoun(sc.Grain); n != "day" {
		p.X.Label.Text = strings.ToUpper(n[:1]) + n[1:] + " of period"
		nDays = max(base.maxX(), comp.maxX(), 1)
	}
	p.X.Min, p.X.Max = 0.5, nDays+0.5
	p.X.Tick.Marker = dayTicks(int(nDays))
	p.Y.Tick.Marker = valueTicks{f}
	// Headroom at the top keeps the legend off the lines.
	p.Y.Min, p.Y.Max = paddedRange(lo, hi, 0.1, 0.35)
	if lo >= 0 && p.Y.Min < 0 {
		p.Y.Min = 0
	}
	return writePNG(w, p)
}

// dayPoints places each finite point at its day of period (1-based), or
// its month, quarter, year or week of period at a coarser grain, and
// returns the period the numbers count from.
func dayPoints(pts []Point, r quarry.DateRange, grain string) (xyRun, quarry.DateRange) {
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
		xys[i] = plotter.XY{X: periodIndex(r.Start, pt.Date, grain), Y: pt.Value}
	}
	return xyRun(xys), r
}

// xyRun is a line's points in order of x.
type xyRun plotter.XYs

func (x xyRun) maxX() float64 {
	if len(x) == 0 {
		return 0
	}
	return x[len(x)-1].X
}

// runs splits points into runs of consecutive x (1, 2, 3 | 5, 6): where a
// period is missing (the next x is more than gap further) the line stops
// and starts again.
func runs(xys xyRun, gap float64) []plotter.XYs {
	var out []plotter.XYs
	start := 0
	for i := 1; i <= len(xys); i++ {
		if i == len(xys) || xys[i].X-xys[i-1].X > gap {
			out = append(out, plotter.XYs(xys[start:i]))
			start = i
		}
	}
	return out
}

// periodIndex numbers d's period from start, 1-based, at the grain.
func periodIndex(start, d quarry.Date, grain string) float64 {
	a, b := start.Time(), d.Time()
	months := float64((b.Year()-a.Year())*12 + int(b.Month()) - int(a.Month()))
	switch grain {
	case investigation.GrainWeek:
		return math.Floor(b.Sub(a).Hours()/24/7) + 1
	case investigation.GrainMonth:
		return months + 1
	case investigation.GrainQuarter:
		return math.Floor(months/3) + 1
	case investigation.GrainYear:
		return float64(b.Year()-a.Year()) + 1
	}
	return math.Round(b.Sub(a).Hours()/24) + 1
}

// grainNoun is the grain's period in words, "day" by default.
func grainNoun(grain string) string {
	if grain == "" {
		return investigation.GrainDay
	}
	return grain
}

// dayTicks labels every day of a short period and every seventh day (1, 8,
// 15, ...) of a longer one, so labels fall on the same weekday; periods of
// more than ten weeks get a label every few weeks. Every day has a tick
// mark up to maxAxisTicks days; a longer period has its labelled ticks
// only (about ten).
func dayTicks(n int) plot.ConstantTicks {
	step := 1
	if n > 14 {
		step = 7 * ((n + 69) / 70)
	}
	every := 1
	if n > maxAxisTicks {
		every = step
	}
	var ticks []plot.Tick
	for d := 1; d <= n; d += every {
		label := ""
		if (d-1)%step == 0 {
			label = fmt.Sprint(d)
		}
		ticks = append(ticks, plot.Tick{Value: float64(d), Label: label})
	}
	return ticks
}
