package report

import (
	"bufio"
	"image/color"
	"image/png"
	"io"
	"strings"

	"github.com/quarry-dev/quarry"
	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Chart size: 900 x 500 pixels at 96 dots per inch, wide enough for a
// dozen labelled bars and small enough to sit inline in a report.
const (
	chartDPI    = 96
	chartWidth  = 900 * vg.Inch / chartDPI
	chartHeight = 500 * vg.Inch / chartDPI
)

// chartMargin is the white space around every chart.
const chartMargin = 4

// Colours, picked to stay apart for the common forms of colour blindness
// as far as "green up, red down" allows.
var (
	colorTotal       = rgb(0x4a, 0x5d, 0x73)
	colorUp          = rgb(0x2e, 0x9e, 0x5b)
	colorDown        = rgb(0xd6, 0x45, 0x45)
	colorUpMuted     = rgb(0xa9, 0xd8, 0xbb)
	colorDownMuted   = rgb(0xf0, 0xb0, 0xb0)
	colorDataQuality = rgb(0xe6, 0x9f, 0x00)
	colorBaseline    = rgb(0x8c, 0x96, 0xa3)
	colorComparison  = rgb(0x1f, 0x6f, 0xb4)
	colorGrid        = rgb(0xe4, 0xe7, 0xeb)
	colorText        = rgb(0x22, 0x2b, 0x36)
)

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{R: r, G: g, B: b, A: 0xff} }

// sans returns a Liberation Sans face of the given size. The plot package's
// default is a serif face; sans reads better at chart sizes.
func sans(size vg.Length, bold bool) font.Font {
	f := font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
	if bold {
		f.Weight = xfont.WeightBold
	}
	return f
}

// newPlot returns a plot with the report's fonts, colours and a light
// horizontal grid.
func newPlot(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = sans(15, true)
	p.Title.TextStyle.Color = colorText
	p.Title.Padding = 10
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(12, false)
		a.Label.TextStyle.Color = colorText
		a.Tick.Label.Font = sans(11, false)
		a.Tick.Label.Color = colorText
		a.Color = colorGrid
		a.Tick.Color = colorGrid
	}
	p.Legend.TextStyle.Font = sans(11, false)
	p.Legend.TextStyle.Color = colorText
	p.Add(&hGrid{})
	return p
}

// writePNG draws p at the chart size and encodes it as PNG.
func writePNG(w io.Writer, p *plot.Plot) error {
	return writePNGHeight(w, p, chartHeight)
}

// writePNGHeight draws p at the chart's width and the given height. It
// reports an INVALID error, and draws nothing, when an axis's range is not
// finite or its width overflows: the plot package would map every point
// to NaN, and the rasterizer loops without end on NaN coordinates.
func writePNGHeight(w io.Writer, p *plot.Plot, height vg.Length) error {
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		if !isFinite(a.Min) || !isFinite(a.Max) || !isFinite(a.Max-a.Min) {
			return quarry.Errorf(quarry.ECodeInvalid, "chart %q: its values span more than the floating-point range and cannot be drawn", p.Title.Text)
		}
	}
	c := vgimg.NewWith(vgimg.UseWH(chartWidth, height), vgimg.UseDPI(chartDPI), vgimg.UseBackgroundColor(color.White))
	// A margin on every side, so no label touches the image's edge.
	p.Draw(draw.Crop(draw.New(c), chartMargin, -chartMargin, chartMargin, -chartMargin))
	// The fastest compression: a third less CPU than the default for
	// the same pixels in a file about 3% larger (a 900x500 chart).
	bw := bufio.NewWriter(w)
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(bw, c.Image()); err != nil {
		return err
	}
	return bw.Flush()
}

// hGrid draws light horizontal lines at the major Y ticks, behind the data.
type hGrid struct{}

// Plot implements plot.Plotter.
func (hGrid) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	sty := draw.LineStyle{Color: colorGrid, Width: vg.Points(0.75)}
	for _, t := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		if t.IsMinor() {
			continue
		}
		y := trY(t.Value)
		c.StrokeLine2(sty, c.Min.X, y, c.Max.X, y)
	}
}

// wrapLabel breaks a bar label into lines that each fit, by fits, in a
// bar's slot. It never shortens a label: words go to the next line, and a
// word too wide for one line (a long segment name) is broken after an
// '=', '.', '_', '-' or '/' sign where it has one, anywhere otherwise.
func wrapLabel(s string, fits func(string) bool) []string {
	var words []string
	for _, w := range strings.Fields(s) {
		words = append(words, splitLong(w, fits)...)
	}
	var lines []string
	cur := ""
	for _, w := range words {
		switch {
		case cur == "":
			cur = w
		case fits(cur + " " + w):
			cur += " " + w
		default:
			lines = append(lines, cur)
			cur = w
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// splitLong breaks a word that does not fit into pieces that do, after its
// last '=' within the piece, else its last '_', '-' or '/', else its last
// '.', where segment labels ("channel=paid_social") read naturally split.
func splitLong(w string, fits func(string) bool) []string {
	var parts []string
	for !fits(w) {
		r := []rune(w)
		n := 1
		for n < len(r) && fits(string(r[:n+1])) {
			n++
		}
		// Break after the last '=' that fits (between a column and its
		// value), else after the last '_', '-' or '/', else after a '.'.
		head := string(r[:n])
		for _, seps := range []string{"=", "_-/", "."} {
			if i := strings.LastIndexAny(head, seps); i > 0 {
				n = len([]rune(head[:i+1]))
				break
			}
		}
		if n >= len(r) {
			break
		}
		parts = append(parts, string(r[:n]))
		w = string(r[n:])
	}
	return append(parts, w)
}

// labelStyle is the style of value labels drawn on the data area.
func labelStyle(bold bool) text.Style {
	return text.Style{Font: sans(11, bold), Color: colorText, XAlign: text.XCenter, Handler: plot.DefaultTextHandler}
}
