package report

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
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
	Metric *investigation.Metric
	// Start and End are the baseline and comparison totals.
	Start, End Bar
	// Steps are the contributions in drawing order. When they do not add
	// up to End-Start, an "Unattributed" bar closes the gap.
	Steps []Bar
}

// WritePNG draws the chart as a 900x500 PNG, taller (up to
// maxChartHeight) for labels of many lines. It draws at most
// maxWaterfallSteps contributions, the smallest rest as one bar. Errors:
// INVALID when a total or a contribution is not a finite number.
func (wc *WaterfallChart) WritePNG(w io.Writer) error {
	m := wc.Metric
	if m == nil {
		m = &investigation.Metric{}
	}
	if !isFinite(wc.Start.Value) || !isFinite(wc.End.Value) {
		return quarry.Errorf(quarry.ECodeInvalid, "waterfall %q: a total is not a finite number", wc.Title)
	}
	for _, s := range wc.Steps {
		if !isFinite(s.Value) {
			return quarry.Errorf(quarry.ECodeInvalid, "waterfall %q: contribution %q is not a finite number", wc.Title, truncate(s.Label, maxLabelRunes))
		}
	}
	f := newNumberFormat(m, wc.Start.Value, wc.End.Value)
	steps := fewestSteps(waterfallSteps(wc.Start.Value, wc.End.Value, wc.Steps))
	if !isFinite(wc.End.Value - wc.Start.Value) {
		return quarry.Errorf(quarry.ECodeInvalid, "waterfall %q: the change is too large to draw", wc.Title)
	}

	levels := []float64{wc.Start.Value}
	run := wc.Start.Value
	for _, s := range steps {
		run += s.Value
		levels = append(levels, run)
	}
	levels = append(levels, wc.End.Value)
	lo, hi := slices.Min(levels), slices.Max(levels)
	if !isFinite(lo) || !isFinite(hi) {
		return quarry.Errorf(quarry.ECodeInvalid, "waterfall %q: the running total is too large to draw", wc.Title)
	}
	floor, zoomed := waterfallFloor(lo, hi)
	// Totals stand on zero, or on the bottom of a zoomed axis.
	base := 0.0
	if zoomed {
		base = floor
	}

	bars := &waterfallBars{width: 0.62}
	labels := []string{wc.Start.Label}
	bars.add(base, wc.Start.Value, wc.Start.Value, colorTotal, f.compact(wc.Start.Value, false), true)
	run = wc.Start.Value
	for _, s := range steps {
		bars.add(run, run+s.Value, run+s.Value, stepColor(s), f.compact(s.Value, true), false)
		run += s.Value
		label := s.Label
		if s.Kind == investigation.KindDataQuality {
			label += "\n(data quality)"
		}
		labels = append(labels, label)
	}
	bars.add(base, wc.End.Value, wc.End.Value, colorTotal, f.compact(wc.End.Value, false), true)
	labels = append(labels, wc.End.Label)
	names, tickFont, extra := waterfallLabels(labels)

	p := newPlot(wc.Title)
	p.X.Tick.Label.Font = tickFont
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
	// Room above the highest bar for its label, and below a negative one;
	// totals and contributions all zero get an axis around zero.
	below := 0.0
	if lo < 0 {
		below = 0.05
	}
	p.Y.Min, p.Y.Max = paddedRange(min(floor, lo), top, below, 0.12)
	if lo >= 0 {
		p.Y.Min = floor
	}
	if zoomed {
		p.X.Label.Text = "The value axis starts at " + f.compact(floor, false) + ", not at zero, so the contributions are visible."
	}
	return writePNGHeight(w, p, min(chartHeight+extra, maxChartHeight))
}

// fewestSteps keeps the maxWaterfallSteps-1 largest contributions, in
// their order, and draws the rest as one bar, so a waterfall has a
// bounded number of bars.
func fewestSteps(steps []Bar) []Bar {
	if len(steps) <= maxWaterfallSteps {
		return steps
	}
	bySize := make([]int, len(steps))
	for i := range bySize {
		bySize[i] = i
	}
	slices.SortStableFunc(bySize, func(a, b int) int { return cmp.Compare(math.Abs(steps[b].Value), math.Abs(steps[a].Value)) })
	keep := map[int]bool{}
	for _, i := range bySize[:maxWaterfallSteps-1] {
		keep[i] = true
	}
	var out []Bar
	rest := Bar{Kind: KindOther}
	n := 0
	for i, s := range steps {
		if keep[i] {
			out = append(out, s)
			continue
		}
		rest.Value += s.Value
		n++
	}
	rest.Label = fmt.Sprintf("%d smaller contributions", n)
	return append(out, rest)
}

// Bar labels: the most lines a label gets before a smaller font is tried,
// and the fonts tried, largest first.
const maxLabelLines = 4

var labelSizes = []vg.Length{11, 10, 9, 8}

// waterfallLabels wraps the bar labels to their slots, whole: in the
// largest font that keeps every label within maxLabelLines lines, or the
// smallest font with as many lines as the longest label needs. extra is
// the height to add to the chart for lines past the three the chart's
// height allows for, so long labels do not squeeze the bars.
func waterfallLabels(labels []string) (wrapped []string, f font.Font, extra vg.Length) {
	// The data area is the chart less the value axis and the paddings;
	// each bar has one slot of it, less a gap between neighbouring labels.
	slot := (chartWidth-2*chartMargin-60)/vg.Length(len(labels)) - 6
	for i, size := range labelSizes {
		f = sans(size, false)
		sty := text.Style{Font: f, Handler: plot.DefaultTextHandler}
		fits := func(s string) bool { return sty.Width(s) <= slot }
		wrapped = wrapped[:0]
		most := 0
		for _, l := range labels {
			var lines []string
			for _, part := range strings.Split(truncate(l, maxLabelRunes), "\n") {
				lines = append(lines, wrapLabel(part, fits)...)
			}
			most = max(most, len(lines))
			wrapped = append(wrapped, strings.Join(lines, "\n"))
		}
		if most <= maxLabelLines || i == len(labelSizes)-1 {
			if most > 3 {
				extra = sty.Height(strings.Repeat("X\n", most-1)+"X") - sty.Height("X\nX\nX")
			}
			return wrapped, f, extra
		}
	}
	return wrapped, f, extra
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
	case b.Kind == investigation.KindDataQuality:
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
