package report

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/atomicfile"
)

// ChartsDir is the directory, relative to the report, that holds the charts.
const ChartsDir = "charts"

// Write renders the charts and the report into dir: dir/charts/*.png, then
// dir/report.md. Every chart is rendered in memory before anything is
// written, and each file is replaced by a rename, so a failure leaves the
// previous report (or none) rather than one that links missing charts. It
// returns the report's path and the chart paths the report links to.
func Write(dir string, in *Input) (reportPath string, charts Charts, err error) {
	files, charts, err := renderCharts(in)
	if err != nil {
		return "", Charts{}, err
	}
	sub := dir
	if len(files) > 0 {
		sub = filepath.Join(dir, ChartsDir)
	}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return "", Charts{}, fmt.Errorf("report: create directory: %w", err)
	}
	for _, f := range files {
		if err := writeAtomic(filepath.Join(dir, filepath.FromSlash(f.path)), f.data); err != nil {
			return "", Charts{}, err
		}
	}
	reportPath = filepath.Join(dir, "report.md")
	if err := writeAtomic(reportPath, []byte(Markdown(in, charts))); err != nil {
		return "", Charts{}, err
	}
	return reportPath, charts, nil
}

// chartFile is a rendered chart and its path relative to the report.
type chartFile struct {
	path string
	data []byte
}

// renderCharts draws the waterfall and one chart per series with values,
// at most maxSeriesCharts of them. A chart with nothing finite to draw (a
// metric that overflowed, a series without a value) is left out, as its
// section of the report is; only a failure to draw what can be drawn is
// an error.
func renderCharts(in *Input) ([]chartFile, Charts, error) {
	var files []chartFile
	var charts Charts
	title := strings.TrimSpace(in.Title)
	if title == "" {
		title = "Metric"
	}
	if len(in.Waterfall) > 0 {
		var buf bytes.Buffer
		wc := WaterfallChart{
			Title:  title + ": contributions to the change",
			Metric: &in.Metric,
			Start:  Bar{Label: "Baseline", Value: in.Overall.BaselineValue},
			End:    Bar{Label: "Comparison", Value: in.Overall.ComparisonValue},
			Steps:  in.Waterfall,
		}
		switch err := wc.WritePNG(&buf); {
		case quarry.ErrorCode(err) == quarry.ECodeInvalid:
		case err != nil:
			return nil, Charts{}, fmt.Errorf("report: draw waterfall: %w", err)
		default:
			charts.Waterfall = path.Join(ChartsDir, "waterfall.png")
			files = append(files, chartFile{charts.Waterfall, buf.Bytes()})
		}
	}
	charts.Series = make([]string, len(in.Series))
	for i, s := range in.Series {
		if i >= maxSeriesCharts || !hasFinite(s.Baseline) && !hasFinite(s.Comparison) {
			continue
		}
		var buf bytes.Buffer
		sc := SeriesChart{
			Title:      fmt.Sprintf("%s: %s", perPeriod(in.Overall.Grain, title), s.Name),
			Metric:     &in.Metric,
			Series:     s,
			Baseline:   in.Context.BaselinePeriod,
			Comparison: in.Context.ComparisonPeriod,
			Grain:      in.Overall.Grain,
		}
		if err := sc.WritePNG(&buf); err != nil {
			return nil, Charts{}, fmt.Errorf("report: draw series %q: %w", s.Name, err)
		}
		charts.Series[i] = path.Join(ChartsDir, fmt.Sprintf("series_%d_%s.png", i+1, slug(s.Name)))
		files = append(files, chartFile{charts.Series[i], buf.Bytes()})
	}
	return files, charts, nil
}

// hasFinite reports whether a point of pts has a finite value.
func hasFinite(pts []Point) bool {
	for _, p := range pts {
		if isFinite(p.Value) && !p.Date.IsZero() {
			return true
		}
	}
	return false
}

// writeAtomic replaces name with data, so readers see the old file or the
// new one, never a part.
func writeAtomic(name string, data []byte) error {
	if err := atomicfile.Write(name, data); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// slug turns a segment name into a short file-name part:
// "device=mobile AND region=EU" gives "device-mobile-and-region-eu".
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	out := b.String()
	if len(out) > 40 {
		out = strings.TrimRight(out[:40], "-")
	}
	if out == "" {
		return "segment"
	}
	return out
}
