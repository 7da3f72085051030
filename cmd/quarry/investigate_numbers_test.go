package main

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

// writeDaily writes a CSV of two regions a day from 2024-01-01 for days
// days, with value(day) in column v.
func writeDaily(t *testing.T, name string, days int, value func(day int) string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("day,region,v\n")
	for d := 1; d <= days; d++ {
		for _, r := range []string{"a", "b"} {
			fmt.Fprintf(&b, "2024-01-%02d,%s,%s\n", d, r, value(d))
		}
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestInvestigateOverflowJSON: quarry investigate --json on a sum of
// 1e308 values exits 1 with UNSUPPORTED_METRIC and a hint, and prints no
// half-encoded JSON.
func TestInvestigateOverflowJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a whole investigation")
	}
	f := writeDaily(t, "big.csv", 28, func(int) string { return "1e308" })
	stdout, stderr, code := runCLI(t, "investigate", "--file", f, "--metric", "SELECT SUM(v) FROM big",
		"--baseline", "2024-01-01..2024-01-14", "--comparison", "2024-01-15..2024-01-28", "--data-dir", t.TempDir(), "--json")
	if code != 1 || !strings.Contains(strings.ToLower(stderr), strings.ToLower("error "+quarry.ECodeUnsupportedMetric+": the metric SUM(v) is not a finite number in the baseline period")) ||
		!strings.Contains(stderr, "hint: scale the values down") {
		t.Fatalf("exit %d, stderr:\n%s\nwant exit 1 with %s and a hint", code, stderr, quarry.ECodeUnsupportedMetric)
	}
	if strings.TrimSpace(stdout) != "" {
		t.Errorf("stdout = %q; want nothing on a failed run", stdout)
	}
}

// TestInvestigatePrecisionJSON: a relative change of 1.6e-12 with no
// day-to-day noise is no change: --json encodes a no-findings result, not
// significant, with p = 1.
func TestInvestigatePrecisionJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a whole investigation")
	}
	f := writeDaily(t, "noise.csv", 20, func(d int) string {
		if d > 10 {
			return "50000.00000008"
		}
		return "50000.0"
	})
	stdout, stderr, code := runCLI(t, "investigate", "--file", f, "--metric", "SELECT SUM(v) FROM noise",
		"--baseline", "2024-01-01..2024-01-10", "--comparison", "2024-01-11..2024-01-20", "--data-dir", t.TempDir(), "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var res investigation.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("decode --json: %v\n%s", err, stdout)
	}
	if !res.Overall.BelowPrecision {
		t.Error("--json does not flag the change as below_precision")
	}
	if res.Status != investigation.OutcomeNoFindings || res.Overall.Significant || res.Overall.PValue != 1 || len(res.Explanations) != 0 {
		t.Errorf("result %s, significant %v, p %v, %d explanations; want no findings, not significant, p = 1, none",
			res.Status, res.Overall.Significant, res.Overall.PValue, len(res.Explanations))
	}
	if !strings.Contains(stderr, "no change beyond floating-point precision") {
		t.Errorf("progress does not say the change is below floating-point precision:\n%s", stderr)
	}
}
