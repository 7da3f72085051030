package report

import (
	"image/color"
	"io"
	"math"
	"slices"

	"github.com/quarry-dev/quarry"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// WaterfallChart is a contribution waterfall: the baseline total, one
// floating bar per contribution, and the comparison total.
type WaterfallChart struct {
	Title string
	// Metric picks the number format of the labels; nil prints plain
	// numbers.
	Metric *quarry.Metric
	// Start and End are the baseline and comparison totals.
	Start, End Bar
	// Steps are the contributions in drawing order. When they do not add
	// up to End-Start, an "Unattributed" bar closes the gap.
	Steps []Bar
}

// WritePNG draws the chart as a 900x500 PNG.
func (wc *WaterfallChart) WritePNG(w io.Writer) error {
	m := wc.Metric
	if m == nil {
		m = &quarry.Metric{}
	}
	f := newNumberFormat(m, wc.Start.Value, wc.End.Value)
	steps := waterfallSteps(wc.Start.Value, wc.End.Value, wc.Steps)

	levels := []float64{wc.Start.Value}
	run := wc.Start.Value
	for _, s := range steps {
		run += s.Value
		levels = append(levels, run)
	}
	levels = append(levels, wc.End.Value)
	lo, hi := slices.Min(levels), slices.Max(levels)
	floor, zoomed := waterfallFloor(lo, hi)
	// Totals stand on zero, or on the bottom of a zoomed axis.
	base := 0.0
	if zoomed {
		base = floor
	}

	// About 6.5 pixels per character at 9 points; leave a margin per slot.
	wrap := min(max(int(780/float64(len(steps)+2)/6.5), 8), 26)
	bars := &waterfallBars{width: 0.62}
	names := []string{wrapLabel(wc.Start.Label, wrap)}
	bars.add(base, wc.Start.Value, wc.Start.Value, colorTotal, f.compact(wc.Start.Value, false), true)
	run = wc.Start.Value
	for _, s := range steps {
		bars.add(run, run+s.Value, run+s.Value, stepColor(s), f.compact(s.Value, true), false)
		run += s.Value
		name := wrapLabel(s.Label, wrap)
		if s.Kind == quarry.KindDataQuality {
			name += "\n(data quality)"
		}
		names = append(names, name)
	}
	bars.add(base, wc.End.Value, wc.End.Value, colorTotal, f.compact(wc.End.Value, false), true)
	names = append(names, wrapLabel(wc.End.Label, wrap))

	p := newPlot(wc.Title)
	if lo < 0 {
		p.Add(zeroLine{})
	}
	p.Add(bars)
	ticks := make([]plot.Tick, len(names))
	for i, n := range names {
		ticks[i] = plot.Tick{Value: float64(i), Label: n}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Tick.Length = 0
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
	p.Y.Tick.Marker = valueTicks{f}
	top := max(hi, 0)
	span := top - min(floor, lo)
	if span == 0 {
		span = math.Max(math.Abs(top), 1)
	}
	// Room above the highest bar for its label, and below a negative one.
	p.Y.Max = top + 0.12*span
	p.Y.Min = floor
	if lo < 0 {
		p.Y.Min = lo - 0.05*span
	}
	if zoomed {
		p.X.Label.Text = "The value axis starts at " + f.compact(floor, false) + ", not at zero, so the contributions are visible."
	}
	return writePNG(w, p)
}

// waterfallFloor picks where total bars start. When the contributions are
// small against totals far from zero, bars from zero would leave them a
// few pixels tall, so the axis starts just below the lowest level instead.
func waterfallFloor(lo, hi float64) (floor float64, zoomed bool) {
	if lo <= 0 || hi-lo >= 0.5*hi {
		return math.Min(0, lo), false
	}
	floor = math.Max(0, lo-math.Max((hi-lo)*0.6, hi*0.01))
	return floor, floor > 0
}

// stepColor colours a contribution by direction and kind.
func stepColor(b Bar) color.Color {
	switch {
	case b.Kind == quarry.KindDataQuality:
		return colorDataQuality
	case b.Kind == KindOther && b.Value < 0:
		return colorDownMuted
	case b.Kind == KindOther:
		return colorUpMuted
	case b.Value < 0:
		return colorDown
	}
	return colorUp
}

// waterfallSteps returns the contributions, with an "Unattributed" bar when
// they miss the overall change by more than rounding (half a percent).
func waterfallSteps(base, cmp float64, bars []Bar) []Bar {
	sum := 0.0
	for _, b := range bars {
		sum += b.Value
	}
	change := cmp - base
	rest := change - sum
	tol := math.Max(0.005*math.Abs(change), 1e-9*math.Max(math.Abs(base), math.Abs(cmp)))
	out := slices.Clone(bars)
	if math.Abs(rest) > tol {
		out = append(out, Bar{Label: "Unattributed", Value: rest, Kind: KindOther})
	}
	return out
}

// zeroLine marks zero when the axis spans negative values, so totals and
// bars can be read as above or below it.
type zeroLine struct{}

// Plot implements plot.Plotter.
func (zeroLine) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	c.StrokeLine2(draw.LineStyle{Color: colorText, Width: vg.Points(0.75)}, c.Min.X, trY(0), c.Max.X, trY(0))
}

// waterfallBars draws floating bars at x = 0, 1, 2, ... with a dashed
// connector from each bar's closing level to the next bar and a value
// label above each bar.
type waterfallBars struct {
	width float64 // bar width in X data units
	bars  []waterfallBar
}

type waterfallBar struct {
	from, to float64 // the bar's vertical extent
	level    float64 // the running total after the bar, where the connector starts
	fill     color.Color
	label    string
	bold     bool
}

func (wb *waterfallBars) add(from, to, level float64, fill color.Color, label string, bold bool) {
	wb.bars = append(wb.bars, waterfallBar{from: from, to: to, level: level, fill: fill, label: label, bold: bold})
}

// Plot implements plot.Plotter.
func (wb *waterfallBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	half := (trX(wb.width) - trX(0)) / 2
	connector := draw.LineStyle{Color: colorBaseline, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}
	for i, b := range wb.bars {
		x := trX(float64(i))
		y0, y1 := trY(math.Min(b.from, b.to)), trY(math.Max(b.from, b.to))
		if y1-y0 < 1 {
			y1 = y0 + 1 // a zero contribution still shows as a line
		}
		box := []vg.Point{{X: x - half, Y: y0}, {X: x - half, Y: y1}, {X: x + half, Y: y1}, {X: x + half, Y: y0}}
		c.FillPolygon(b.fill, c.ClipPolygonY(box))
		if i+1 < len(wb.bars) {
			y := trY(b.level)
			c.StrokeLines(connector, c.ClipLinesY([]vg.Point{{X: x + half, Y: y}, {X: trX(float64(i+1)) - half, Y: y}})...)
		}
		sty := labelStyle(b.bold)
		sty.YAlign = text.YBottom
		c.FillText(sty, vg.Point{X: x, Y: y1 + vg.Points(3)}, b.label)
	}
}
