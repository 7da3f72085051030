package report

import (
	"bytes"
	"image/png"
	"math"
	"testing"

	"github.com/quarry-dev/quarry"
)

func TestPlotKinds(t *testing.T) {
	months := []string{"2021-01", "2021-02", "2021-03", "2021-04"}
	tests := []Plot{
		{Type: "line", Title: "Sales by month", Categories: months, Series: []PlotSeries{{Name: "Arizona", Values: []float64{10, 12, math.NaN(), 15}}, {Name: "Nevada", Values: []float64{5, 6, 7, 8}}}},
		{Type: "bar", Title: "Sales by state", Categories: []string{"Arizona", "Nevada"}, Series: []PlotSeries{{Values: []float64{10, 5}}}},
		{Type: "histogram", Title: "Amounts", X: []float64{1, 2, 2, 3, 3, 3, 4, 4, 5, math.NaN()}},
		{Type: "scatter", Title: "Price and quantity", X: []float64{1, 2, 3}, Y: []float64{3, 2, 1}},
	}
	for _, pl := range tests {
		var b bytes.Buffer
		if err := pl.WritePNG(&b); err != nil {
			t.Fatalf("%s: %v", pl.Type, err)
		}
		img, err := png.Decode(&b)
		if err != nil || img.Bounds().Dx() != 900 || img.Bounds().Dy() != 500 {
			t.Errorf("%s: not a 900x500 PNG: %v", pl.Type, err)
		}
	}
	for _, bad := range []Plot{{Type: "pie", Title: "x"}, {Type: "line", Title: "empty"}, {Type: "histogram", Title: "nan", X: []float64{math.NaN()}}} {
		if err := bad.WritePNG(&bytes.Buffer{}); quarry.ErrorCode(err) != quarry.ECodeInvalid {
			t.Errorf("%s %q: %v; want INVALID", bad.Type, bad.Title, err)
		}
	}
}
