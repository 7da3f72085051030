package report

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Plot is a chart of a result table, as an analysis draws it: a line or
// bar chart of values over categories (dates or names), one series per
// group; a histogram of values; or a scatter of pairs.
type Plot struct {
	Type           string // "line", "bar", "histogram", "scatter"
	Title          string
	XLabel, YLabel string
	// Categories are the x positions of a line or bar chart, in order.
	Categories []string
	// Series hold one value per category (NaN where a group has none).
	Series []PlotSeries
	// X are a histogram's values, or a scatter's x values with Y.
	X, Y []float64
}

// PlotSeries is one line or set of bars.
type PlotSeries struct {
	Name   string
	Values []float64
}

// seriesColors are told apart by the common forms of colour blindness
// (Okabe and Ito's palette).
var seriesColors = []color.RGBA{
	rgb(0x00, 0x72, 0xb2), rgb(0xe6, 0x9f, 0x00), rgb(0x00, 0x9e, 0x73), rgb(0xd5, 0x5e, 0x00),
	rgb(0xcc, 0x79, 0xa7), rgb(0x56, 0xb4, 0xe9), rgb(0xf0, 0xe4, 0x42), rgb(0x00, 0x00, 0x00),
}

// maxCategoryTicks is the most category labels the x axis shows.
const maxCategoryTicks = 12

// WritePNG draws the plot as a 900x500 PNG. It draws at most
// maxCategories categories and maxScatterPoints pairs, and leaves out
// values that are not finite. Errors: INVALID when there is nothing to
// draw or the type is unknown.
func (pl *Plot) WritePNG(w io.Writer) error {
	cats, series, title := pl.Categories, pl.Series, pl.Title
	if pl.Type == "line" || pl.Type == "bar" {
		cats, series, title = pl.firstOf()
	}
	p := newPlot(title)
	p.X.Label.Text, p.Y.Label.Text = pl.XLabel, pl.YLabel
	var ys []float64
	switch pl.Type {
	case "line", "bar":
		if len(cats) == 0 || len(series) == 0 {
			return quarry.Errorf(quarry.ECodeInvalid, "chart %q has no values to draw", pl.Title)
		}
		width := vg.Points(math.Max(2, math.Min(24, 600/float64(len(cats)*len(series)))))
		for s, ser := range series {
			c := seriesColors[s%len(seriesColors)]
			if pl.Type == "bar" {
				vals := make(plotter.Values, len(ser.Values))
				for i, v := range ser.Values {
					if !isFinite(v) {
						v = 0
					}
					vals[i] = v
				}
				bars, err := plotter.NewBarChart(vals, width)
				if err != nil {
					return quarry.Errorf(quarry.ECodeInvalid, "chart %q: %v", pl.Title, err)
				}
				bars.Color, bars.LineStyle.Width = c, 0
				bars.Offset = width * vg.Length(float64(s)-float64(len(series)-1)/2)
				p.Add(bars)
				if len(series) > 1 {
					p.Legend.Add(ser.Name, bars)
				}
			} else {
				for _, run := range runsOf(ser.Values) {
					l, err := plotter.NewLine(run)
					if err != nil {
						return quarry.Errorf(quarry.ECodeInvalid, "chart %q: %v", pl.Title, err)
					}
					l.Color, l.Width = c, vg.Points(2)
					p.Add(l)
					if len(run) == 1 || len(cats) <= maxMarkedDays {
						sc, _ := plotter.NewScatter(run)
						sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
						p.Add(sc)
					}
				}
				if len(series) > 1 {
					p.Legend.Add(ser.Name, &plotter.Line{LineStyle: draw.LineStyle{Color: c, Width: vg.Points(2)}})
				}
			}
			ys = append(ys, finite(ser.Values)...)
		}
		p.X.Tick.Marker = categoryTicks(cats)
		p.X.Min, p.X.Max = -0.6, float64(len(cats))-0.4
		if pl.Type == "bar" {
			ys = append(ys, 0) // bars start at zero
		}
	case "histogram":
		vals := finite(pl.X)
		if len(vals) == 0 {
			return quarry.Errorf(quarry.ECodeInvalid, "histogram %q has no values to draw", pl.Title)
		}
		h := histogram(vals)
		p.Add(h)
		for _, b := range h.Bins {
			ys = append(ys, b.Weight)
		}
		ys = append(ys, 0)
		p.X.Min, p.X.Max = h.Bins[0].Min, h.Bins[len(h.Bins)-1].Max
		p.X.Tick.Marker = valueTicks{newNumberFormat(&investigation.Metric{}, p.X.Min, p.X.Max)}
		if pl.YLabel == "" {
			p.Y.Label.Text = "rows"
		}
	case "scatter":
		var xys plotter.XYs
		var xs []float64
		for i := range min(len(pl.X), len(pl.Y)) {
			if x, y := pl.X[i], pl.Y[i]; isFinite(x) && isFinite(y) {
				xys = append(xys, plotter.XY{X: x, Y: y})
				xs, ys = append(xs, x), append(ys, y)
			}
		}
		if len(xys) == 0 {
			return quarry.Errorf(quarry.ECodeInvalid, "scatter %q has no pairs to draw", pl.Title)
		}
		if k := (len(xys) + maxScatterPoints - 1) / maxScatterPoints; k > 1 {
			var every plotter.XYs
			for i := 0; i < len(xys); i += k {
				every = append(every, xys[i])
			}
			p.Title.Text = fmt.Sprintf("%s (every %s of %s pairs)", title, ordinal(k), grouped(float64(len(xys)), 0))
			xys = every
		}
		lo, hi, _ := finiteRange(xs)
		p.X.Min, p.X.Max = paddedRange(lo, hi, 0, 0)
		p.X.Tick.Marker = valueTicks{newNumberFormat(&investigation.Metric{}, lo, hi)}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return quarry.Errorf(quarry.ECodeInvalid, "scatter %q: %v", pl.Title, err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: seriesColors[0], Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
		p.Add(sc)
	default:
		return quarry.Errorf(quarry.ECodeInvalid, "unknown chart type %q", pl.Type)
	}
	lo, hi, ok := finiteRange(ys)
	if !ok {
		return quarry.Errorf(quarry.ECodeInvalid, "chart %q has no finite values to draw", pl.Title)
	}
	p.Y.Tick.Marker = valueTicks{newNumberFormat(&investigation.Metric{}, lo, hi)}
	// Room above the data for the legend, a row per series, so it never
	// covers a line; a flat series gets an axis around it.
	legend := 0.0
	if n := len(series); n > 1 && pl.Type != "histogram" && pl.Type != "scatter" {
		legend = 0.07 * float64(n)
	}
	p.Y.Min, p.Y.Max = paddedRange(lo, hi, 0, legend)
	p.Legend.Top = true
	p.Legend.Padding = vg.Points(3)
	return writePNG(w, p)
}

// runsOf splits values into unbroken runs of finite points, x being the
// category's index: a missing value is a gap, not a zero.
func runsOf(values []float64) []plotter.XYs {
	var out []plotter.XYs
	var cur plotter.XYs
	for i, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			if len(cur) > 0 {
				out = append(out, cur)
				cur = nil
			}
			continue
		}
		cur = append(cur, plotter.XY{X: float64(i), Y: v})
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// categoryTicks labels at most maxCategoryTicks evenly spaced categories.
// Every category has a tick mark up to maxAxisTicks categories; more get
// their labelled ticks only.
func categoryTicks(cats []string) plot.ConstantTicks {
	step := max(1, (len(cats)+maxCategoryTicks-1)/maxCategoryTicks)
	every := 1
	if len(cats) > maxAxisTicks {
		every = step
	}
	var ticks plot.ConstantTicks
	for i := 0; i < len(cats); i += every {
		label := ""
		if i%step == 0 {
			label = truncate(cats[i], maxLabelRunes)
		}
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: label})
	}
	return ticks
}

// histBins follows Sturges' rule, between 5 and 50 bins.
func histBins(n int) int {
	return min(50, max(5, int(math.Ceil(math.Log2(float64(n))))+1))
}

// histogram bins finite values into histBins equal bins. It does not use
// the plot package's binning, which panics when a value's bin index
// rounds past the last bin or the range overflows (-1e308 to 1e308):
// positions are computed on halves and clamped to the bins. Flat values
// fall into one bin around them.
func histogram(vals []float64) *plotter.Histogram {
	lo, hi, _ := finiteRange(vals)
	n := histBins(len(vals))
	if isFlat(lo, hi) {
		n = 1
		lo, hi = paddedRange(lo, hi, 1, 1)
	}
	half := hi/2 - lo/2 // the half span, which cannot overflow
	bins := make([]plotter.HistogramBin, n)
	// Bin edges as weighted means of the ends, which cannot overflow.
	edge := func(i int) float64 {
		f := float64(i) / float64(n)
		return clampFloat(lo*(1-f) + hi*f)
	}
	for i := range bins {
		bins[i].Min, bins[i].Max = edge(i), edge(i+1)
	}
	bins[0].Min, bins[n-1].Max = lo, hi
	for _, v := range vals {
		pos := (v/2 - lo/2) / half * float64(n)
		bins[min(n-1, max(0, int(pos)))].Weight++
	}
	h := &plotter.Histogram{Bins: bins, Width: clampFloat(half / float64(n) * 2), FillColor: seriesColors[0]}
	h.LineStyle = plotter.DefaultLineStyle
	h.LineStyle.Color = color.White
	return h
}

// ordinal writes k as "3rd", "12th".
func ordinal(k int) string {
	suffix := "th"
	switch {
	case k%100 >= 11 && k%100 <= 13:
	case k%10 == 1:
		suffix = "st"
	case k%10 == 2:
		suffix = "nd"
	case k%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", k, suffix)
}

func finite(xs []float64) []float64 {
	var out []float64
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			out = append(out, x)
		}
	}
	return out
}
