package investigate_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// TestOverflowingMetricFails: a column of 1e308 values sums to +Inf. The
// run once reported "no findings" (or failed drawing a chart) and --json
// could not encode +Inf; it fails with UNSUPPORTED_METRIC, says which
// period overflowed and how to scale the metric, and writes no artifact
// holding the infinite value.
func TestOverflowingMetricFails(t *testing.T) {
	var lines []string
	lines = append(lines, "day,region,v")
	for d := 1; d <= 28; d++ {
		for _, r := range []string{"a", "b"} {
			lines = append(lines, fmt.Sprintf("2024-01-%02d,%s,1e308", d, r))
		}
	}
	iv, err := runFilesErr(t, "SELECT SUM(v) FROM big", "2024-01-01..2024-01-14", "2024-01-15..2024-01-28", writeCSV(t, "big.csv", lines))
	if code := quarry.ErrorCode(err); code != quarry.ECodeUnsupportedMetric {
		t.Fatalf("Run(SUM of 1e308 values) error = %v (%s); want %s", err, code, quarry.ECodeUnsupportedMetric)
	}
	var qe *quarry.Error
	if !asError(err, &qe) || !strings.Contains(qe.Message, "not a finite number in the baseline period 2024-01-01..2024-01-14 (first on 2024-01-01)") ||
		!strings.Contains(qe.Hint, "SUM(x / 1e6)") {
		t.Errorf("error = %q, hint %q; want the period, the first day and how to scale", qe.Message, qe.Hint)
	}
	if strings.Contains(qe.Message, "SELECT") || strings.Contains(qe.Message, iv.dir) {
		t.Errorf("error %q shows SQL or a server path", qe.Message)
	}
	// Whatever was written before the failure is valid JSON.
	filepath.WalkDir(iv.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return nil
		}
		data, _ := os.ReadFile(p)
		if !json.Valid(data) {
			t.Errorf("%s is not valid JSON", p)
		}
		return nil
	})
}

// TestChangeBelowPrecisionIsNoChange: baseline 1000000.0000000 against
// comparison 1000000.0000016, a relative change of 1.6e-12 with no
// day-to-day noise, was called "statistically significant ... a uniform
// shift". It is no change beyond floating-point precision: no findings,
// no explanation, and the report and result say so.
func TestChangeBelowPrecisionIsNoChange(t *testing.T) {
	lines := []string{"day,region,v"}
	for d := 1; d <= 20; d++ {
		v := "50000.0"
		if d > 10 {
			v = "50000.00000008"
		}
		for _, r := range []string{"a", "b"} {
			lines = append(lines, fmt.Sprintf("2024-01-%02d,%s,%s", d, r, v))
		}
	}
	iv := runFiles(t, "SELECT SUM(v) FROM noise", "2024-01-01..2024-01-10", "2024-01-11..2024-01-20", writeCSV(t, "noise.csv", lines))
	o := iv.res.Overall
	if rel := (o.ComparisonValue - o.BaselineValue) / o.BaselineValue; rel <= 0 || rel > 1e-11 {
		t.Fatalf("overall %v -> %v: the sample no longer differs by rounding (relative %v)", o.BaselineValue, o.ComparisonValue, rel)
	}
	if o.Significant || o.PValue != 1 {
		t.Errorf("overall significant=%v p=%v; want not significant, p = 1", o.Significant, o.PValue)
	}
	if iv.res.Status != investigation.OutcomeNoFindings || len(iv.res.Explanations) != 0 {
		t.Errorf("status %s with %d explanations; want no findings and none", iv.res.Status, len(iv.res.Explanations))
	}
	report := iv.read(t, "report.md")
	for _, want := range []string{"**Overall change:** none beyond floating-point precision", "did not move beyond floating-point precision", "no change beyond floating-point precision"} {
		if !strings.Contains(report, want) {
			t.Errorf("report.md does not say %q", want)
		}
	}
	for _, bad := range []string{"statistically significant", "Uniform shift", "rose"} {
		if strings.Contains(report, bad) {
			t.Errorf("report.md says %q about a rounding difference", bad)
		}
	}
}

// TestPeriodBudget: periods of three centuries at a daily grain would
// fill a value for every day of the overall series and of every segment;
// the run stops with RESOURCE_LIMIT before filling them.
func TestPeriodBudget(t *testing.T) {
	lines := []string{"day,v", "1800-01-01,1", "1800-01-02,2", "2200-01-01,3", "2200-01-02,4"}
	_, err := runFilesErr(t, "SELECT SUM(v) FROM long", "1800-01-01..2099-12-31", "2100-01-01..2399-12-31", writeCSV(t, "long.csv", lines))
	var qe *quarry.Error
	if !asError(err, &qe) || qe.Code != quarry.ECodeResourceLimit || !strings.Contains(qe.Message, "the baseline period 1800-01-01..2099-12-31 has 109573 days") {
		t.Fatalf("Run(300-year periods) error = %v; want %s naming the baseline period", err, quarry.ECodeResourceLimit)
	}
}

func asError(err error, target **quarry.Error) bool {
	e, ok := err.(*quarry.Error)
	if ok {
		*target = e
	} else {
		*target = &quarry.Error{}
	}
	return ok
}
