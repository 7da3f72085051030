package report

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// keepCharts copies the charts of TestWrite to this directory, for looking
// at them: go test ./report -run TestWrite -charts /tmp/charts
var keepCharts = flag.String("charts", "", "copy the charts written by TestWrite to this directory")

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	in := completedInput()
	reportPath, charts, err := Write(dir, in)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	if want := filepath.Join(dir, "report.md"); reportPath != want {
		t.Errorf("Write report path = %q; want %q", reportPath, want)
	}
	md, err := os.ReadFile(reportPath)
	if err != nil {
		t.Fatal(err)
	}
	if want := Markdown(in, charts); string(md) != want {
		t.Errorf("report.md differs from Markdown(in, %+v)", charts)
	}
	paths := append([]string{charts.Waterfall}, charts.Series...)
	if len(paths) != 2 || paths[0] != "charts/waterfall.png" || paths[1] != "charts/series_1_device-mobile.png" {
		t.Fatalf("Write charts = %+v; want the waterfall and one series chart", charts)
	}
	for _, p := range paths {
		if !strings.Contains(string(md), "]("+p+")") {
			t.Errorf("report.md does not link %s", p)
		}
		data, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatalf("chart %s: %v", p, err)
		}
		checkPNG(t, p, data)
		if *keepCharts != "" {
			if err := os.MkdirAll(*keepCharts, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(*keepCharts, filepath.Base(p)), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	assertNoTempFiles(t, dir)
}

func TestWriteNoCharts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "session")
	_, charts, err := Write(dir, noFindingsInput())
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	if charts.Waterfall != "" || len(charts.Series) != 0 {
		t.Errorf("Write(no findings) charts = %+v; want none", charts)
	}
	if _, err := os.Stat(filepath.Join(dir, ChartsDir)); !os.IsNotExist(err) {
		t.Errorf("Write(no findings) made a charts directory (stat error %v); want none", err)
	}
}

// TestWriteFailedChartLeavesNoReport blocks the charts directory with a
// file: the chart write fails, and no report may link the missing charts.
func TestWriteFailedChartLeavesNoReport(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ChartsDir), []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Write(dir, completedInput()); err == nil {
		t.Fatal("Write with a blocked charts directory succeeded; want an error")
	}
	if _, err := os.Stat(filepath.Join(dir, "report.md")); !os.IsNotExist(err) {
		t.Errorf("report.md exists after a failed chart write (stat error %v)", err)
	}
	assertNoTempFiles(t, dir)
}

// TestWriteFailedRewriteKeepsOld checks that a failed rewrite leaves the
// previous report whole. A non-empty directory where a chart goes makes
// the chart's rename fail, even for root.
func TestWriteFailedRewriteKeepsOld(t *testing.T) {
	dir := t.TempDir()
	_, charts, err := Write(dir, completedInput())
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocked := filepath.Join(dir, filepath.FromSlash(charts.Series[0]))
	if err := os.Remove(blocked); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(blocked, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	in := completedInput()
	in.Title = "Changed"
	if _, _, err := Write(dir, in); err == nil {
		t.Fatal("Write over a blocked chart path succeeded; want an error")
	}
	now, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(now, old) {
		t.Error("report.md changed after a failed Write; want the previous report")
	}
	assertNoTempFiles(t, dir)
}

func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".tmp") {
			t.Errorf("temp file %s left behind", p)
		}
		return nil
	})
}

// checkPNG decodes a chart and checks its size and that it is not blank:
// it must hold white background, dark text and several colours of data.
func checkPNG(t *testing.T, name string, data []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("png.Decode(%s): %v", name, err)
	}
	// A waterfall grows taller for bar labels of many lines.
	if b := img.Bounds(); b.Dx() != 900 || b.Dy() < 500 || b.Dy() > 640 || b.Dy() != 500 && !strings.Contains(name, "waterfall") {
		t.Errorf("%s is %dx%d; want 900x500 (a waterfall up to 900x640)", name, b.Dx(), b.Dy())
	}
	colors := map[[3]uint32]int{}
	dark := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colors[[3]uint32{r >> 12, g >> 12, bl >> 12}]++
			if r+g+bl < 3*0x5000 {
				dark++
			}
		}
	}
	if len(colors) < 8 || dark < 200 {
		t.Errorf("%s looks blank: %d colours, %d dark pixels", name, len(colors), dark)
	}
}

func TestWaterfallPNGColours(t *testing.T) {
	var buf bytes.Buffer
	wc := WaterfallChart{
		Title:  "Revenue: contributions to the change",
		Metric: &investigation.Metric{Kind: investigation.MetricSum, Scale: 1},
		Start:  Bar{Label: "Baseline", Value: 1000},
		End:    Bar{Label: "Comparison", Value: 1300},
		Steps: []Bar{
			{Label: "region=west", Value: 500, Kind: investigation.KindVolume},
			{Label: "region=east", Value: -300, Kind: investigation.KindVolume},
			{Label: "duplicated orders on one day", Value: 100, Kind: investigation.KindDataQuality},
		},
	}
	if err := wc.WritePNG(&buf); err != nil {
		t.Fatalf("WritePNG: %v", err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		want [3]uint8
	}{
		{"up", [3]uint8{colorUp.R, colorUp.G, colorUp.B}},
		{"down", [3]uint8{colorDown.R, colorDown.G, colorDown.B}},
		{"data quality", [3]uint8{colorDataQuality.R, colorDataQuality.G, colorDataQuality.B}},
		{"total", [3]uint8{colorTotal.R, colorTotal.G, colorTotal.B}},
	} {
		if n := countColor(img, c.want); n < 500 {
			t.Errorf("waterfall has %d %s pixels; want a bar of them", n, c.name)
		}
	}
}

func countColor(img image.Image, want [3]uint8) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if uint8(r>>8) == want[0] && uint8(g>>8) == want[1] && uint8(bl>>8) == want[2] {
				n++
			}
		}
	}
	return n
}

func TestSeriesPNGNoValues(t *testing.T) {
	sc := SeriesChart{Series: Series{Name: "device=tv"}}
	err := sc.WritePNG(&bytes.Buffer{})
	if quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("WritePNG(empty series) error = %v; want %s", err, quarry.ECodeInvalid)
	}
}

// TestWaterfallLabelsAreWhole: bar labels are never shortened and never
// wider than their bar's slot, however long the segment names and however
// many bars, and the chart grows to show them rather than cut them.
func TestWaterfallLabelsAreWhole(t *testing.T) {
	labels := []string{
		"platform=android AND customers.segment=smb AND channel=organic",
		"source_system=eu_batch_nightly_export_v2",
		"customers.segment=enterprise",
		"traffic_source=paid_social AND device=ios AND country=DE",
		"country=United Kingdom of Great Britain and Northern Ireland",
		"app_version=5.2",
		"channel=organic_search_with_a_very_long_single_token_value",
	}
	var steps []Bar
	for i, l := range labels {
		steps = append(steps, Bar{Label: l, Value: -float64(1000 * (i + 1)), Kind: investigation.KindVolume})
	}
	steps[1].Kind = investigation.KindDataQuality
	all := append(append([]string{"Baseline"}, labels...), "Comparison")
	wrapped, f, _ := waterfallLabels(all)
	slot := (chartWidth-2*chartMargin-60)/vg.Length(len(all)) - 6
	sty := text.Style{Font: f, Handler: plot.DefaultTextHandler}
	for i, w := range wrapped {
		if strings.Contains(w, "…") || strings.ReplaceAll(strings.ReplaceAll(w, "\n", ""), " ", "") != strings.ReplaceAll(all[i], " ", "") {
			t.Errorf("label %q became %q", all[i], w)
		}
		for _, line := range strings.Split(w, "\n") {
			if sty.Width(line) > slot {
				t.Errorf("line %q of %q is %.0f points wide; its slot %.0f", line, all[i], sty.Width(line), slot)
			}
		}
	}
	if f.Size < 8 {
		t.Errorf("labels in %v-point type are not legible", f.Size)
	}

	var buf bytes.Buffer
	wc := WaterfallChart{Title: "Revenue: contributions to the change", Metric: &investigation.Metric{Kind: investigation.MetricSum},
		Start: Bar{Label: "Baseline", Value: 947000}, End: Bar{Label: "Comparison", Value: 947000 - 28000}, Steps: steps}
	if err := wc.WritePNG(&buf); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	if b.Dy() <= 500 {
		t.Errorf("chart is %d pixels high; want it taller for labels of many lines", b.Dy())
	}
	// Nothing is drawn on the chart's edges: no text runs off it.
	for x := b.Min.X; x < b.Max.X; x++ {
		for _, y := range []int{b.Min.Y, b.Max.Y - 1} {
			if r, g, bl, _ := img.At(x, y).RGBA(); r>>8 < 0xf0 || g>>8 < 0xf0 || bl>>8 < 0xf0 {
				t.Fatalf("pixel (%d, %d) on the edge is drawn on: a label is cut off", x, y)
			}
		}
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for _, x := range []int{b.Min.X, b.Max.X - 1} {
			if r, g, bl, _ := img.At(x, y).RGBA(); r>>8 < 0xf0 || g>>8 < 0xf0 || bl>>8 < 0xf0 {
				t.Fatalf("pixel (%d, %d) on the edge is drawn on: a label is cut off", x, y)
			}
		}
	}
}
