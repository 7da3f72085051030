package report

import (
	"image/color"
	"io"
	"math"
	"slices"

	"github.com/quarry-dev/quarry"
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

// WritePNG draws the plot as a 900x500 PNG. Errors: INVALID when there is
// nothing to draw or the type is unknown.
func (pl *Plot) WritePNG(w io.Writer) error {
	p := newPlot(pl.Title)
	p.X.Label.Text, p.Y.Label.Text = pl.XLabel, pl.YLabel
	var ys []float64
	switch pl.Type {
	case "line", "bar":
		if len(pl.Categories) == 0 || len(pl.Series) == 0 {
			return quarry.Errorf(quarry.ECodeInvalid, "chart %q has no values to draw", pl.Title)
		}
		width := vg.Points(math.Max(2, math.Min(24, 600/float64(len(pl.Categories)*len(pl.Series)))))
		for s, ser := range pl.Series {
			c := seriesColors[s%len(seriesColors)]
			if pl.Type == "bar" {
				vals := make(plotter.Values, len(ser.Values))
				for i, v := range ser.Values {
					if math.IsNaN(v) {
						v = 0
					}
					vals[i] = v
				}
				bars, err := plotter.NewBarChart(vals, width)
				if err != nil {
					return quarry.Errorf(quarry.ECodeInvalid, "chart %q: %v", pl.Title, err)
				}
				bars.Color, bars.LineStyle.Width = c, 0
				bars.Offset = width * vg.Length(float64(s)-float64(len(pl.Series)-1)/2)
				p.Add(bars)
				if len(pl.Series) > 1 {
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
					if len(run) == 1 || len(pl.Categories) <= maxMarkedDays {
						sc, _ := plotter.NewScatter(run)
						sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
						p.Add(sc)
					}
				}
				if len(pl.Series) > 1 {
					p.Legend.Add(ser.Name, &plotter.Line{LineStyle: draw.LineStyle{Color: c, Width: vg.Points(2)}})
				}
			}
			for _, v := range ser.Values {
				if !math.IsNaN(v) {
					ys = append(ys, v)
				}
			}
		}
		p.X.Tick.Marker = categoryTicks(pl.Categories)
		p.X.Min, p.X.Max = -0.6, float64(len(pl.Categories))-0.4
		if pl.Type == "bar" {
			ys = append(ys, 0) // bars start at zero
		}
	case "histogram":
		vals := finite(pl.X)
		if len(vals) == 0 {
			return quarry.Errorf(quarry.ECodeInvalid, "histogram %q has no values to draw", pl.Title)
		}
		h, err := plotter.NewHist(plotter.Values(vals), histBins(len(vals)))
		if err != nil {
			return quarry.Errorf(quarry.ECodeInvalid, "histogram %q: %v", pl.Title, err)
		}
		h.FillColor, h.LineStyle.Color = seriesColors[0], color.White
		p.Add(h)
		for _, b := range h.Bins {
			ys = append(ys, b.Weight)
		}
		ys = append(ys, 0)
		if pl.YLabel == "" {
			p.Y.Label.Text = "rows"
		}
	case "scatter":
		var xys plotter.XYs
		for i := range min(len(pl.X), len(pl.Y)) {
			if x, y := pl.X[i], pl.Y[i]; !math.IsNaN(x) && !math.IsNaN(y) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
				xys = append(xys, plotter.XY{X: x, Y: y})
				ys = append(ys, y)
			}
		}
		if len(xys) == 0 {
			return quarry.Errorf(quarry.ECodeInvalid, "scatter %q has no pairs to draw", pl.Title)
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return quarry.Errorf(quarry.ECodeInvalid, "scatter %q: %v", pl.Title, err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: seriesColors[0], Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
		p.Add(sc)
	default:
		return quarry.Errorf(quarry.ECodeInvalid, "unknown chart type %q", pl.Type)
	}
	if len(ys) > 0 {
		lo, hi := slices.Min(ys), slices.Max(ys)
		f := newNumberFormat(&quarry.Metric{}, lo, hi)
		p.Y.Tick.Marker = valueTicks{f}
		if n := len(pl.Series); n > 1 {
			// Room above the data for the legend, a row per series, so
			// it never covers a line.
			p.Y.Min, p.Y.Max = lo, hi+(hi-lo)*0.07*float64(n)
		}
	}
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
func categoryTicks(cats []string) plot.ConstantTicks {
	step := max(1, (len(cats)+maxCategoryTicks-1)/maxCategoryTicks)
	var ticks plot.ConstantTicks
	for i, c := range cats {
		label := ""
		if i%step == 0 {
			label = c
		}
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: label})
	}
	return ticks
}

// histBins follows Sturges' rule, between 5 and 50 bins.
func histBins(n int) int {
	return min(50, max(5, int(math.Ceil(math.Log2(float64(n))))+1))
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
