package report

import (
	"fmt"
	"math"

	"gonum.org/v1/plot/plotter"
)

// The rendering budget. Charts and the report are drawn from data and
// from text a model wrote, so what they cost is bounded here by counts,
// whatever the input holds. Past a budget the chart or report says what
// it left out (or reduces the data as described) instead of drawing it
// all; the numbers themselves stay in the artifacts.
const (
	// maxLinePoints is the most points drawn for one line of a series
	// chart. A longer line is reduced to the lowest and highest value of
	// each of maxLinePoints/2 equal spans of the x axis, which keeps its
	// spikes: 900 pixels cannot show more.
	maxLinePoints = 2000
	// maxCategories is the most categories (bars or line points per
	// series) a Plot draws; the first ones are drawn and the title says
	// how many there were.
	maxCategories = 2000
	// maxScatterPoints is the most points a scatter draws; past it every
	// k-th pair is drawn and the title says so.
	maxScatterPoints = 5000
	// maxAxisTicks is the most tick marks of a day or category axis;
	// longer axes get only their labelled ticks.
	maxAxisTicks = 400
	// maxSeriesCharts is the most series charts a report draws (the
	// waterfall is one more); later series get no chart.
	maxSeriesCharts = 12
	// maxWaterfallSteps is the most contribution bars of a waterfall; the
	// smaller rest are drawn as one bar.
	maxWaterfallSteps = 16
	// maxLabelRunes is the longest bar label drawn whole; a longer one is
	// cut with an ellipsis (the report's table beside the chart has it in
	// full).
	maxLabelRunes = 160
	// maxChartHeight bounds a chart grown for labels of many lines.
	maxChartHeight = 3 * chartHeight
	// maxReportBytes bounds report.md; past it the report is cut at a
	// line and says so.
	maxReportBytes = 8 << 20
)

// decimate reduces a line of points in increasing x to at most
// maxLinePoints: the x axis is cut into maxLinePoints/2 equal spans and
// each span with points keeps its lowest and highest point, in the order
// they came, both drawn at the span's centre. It returns the points and
// the x distance between neighbouring points beyond which the line has a
// gap: 1.5 periods for a line drawn whole, 1.5 spans for a reduced one.
func decimate(xys xyRun) (xyRun, float64) {
	if len(xys) <= maxLinePoints {
		return xys, 1.5
	}
	const buckets = maxLinePoints / 2
	x0, x1 := xys[0].X, xys[len(xys)-1].X
	width := (x1 - x0) / buckets
	if !(width > 0) || math.IsInf(width, 0) {
		// Points that all share an x (or an x axis too wide to cut) are
		// drawn as one span.
		width = math.Max(1, math.Abs(x1-x0))
	}
	var out xyRun
	for i := 0; i < len(xys); {
		b := min(buckets-1, int((xys[i].X-x0)/width))
		lo, hi := i, i
		j := i
		for ; j < len(xys) && min(buckets-1, int((xys[j].X-x0)/width)) == b; j++ {
			if xys[j].Y < xys[lo].Y {
				lo = j
			}
			if xys[j].Y > xys[hi].Y {
				hi = j
			}
		}
		centre := x0 + (float64(b)+0.5)*width
		first, second := lo, hi
		if hi < lo {
			first, second = hi, lo
		}
		out = append(out, plotter.XY{X: centre, Y: xys[first].Y})
		if second != first {
			out = append(out, plotter.XY{X: centre, Y: xys[second].Y})
		}
		i = j
	}
	return out, 1.5 * width
}

// firstOf keeps the first maxCategories categories of a line or bar plot
// and says in the title how many there were.
func (pl *Plot) firstOf() (cats []string, series []PlotSeries, title string) {
	cats, series, title = pl.Categories, pl.Series, pl.Title
	if len(cats) <= maxCategories {
		return cats, series, title
	}
	series = make([]PlotSeries, len(pl.Series))
	for i, s := range pl.Series {
		series[i] = PlotSeries{Name: s.Name, Values: s.Values[:min(len(s.Values), maxCategories)]}
	}
	return cats[:maxCategories], series, fmt.Sprintf("%s (first %s of %s)", title, grouped(maxCategories, 0), grouped(float64(len(cats)), 0))
}
