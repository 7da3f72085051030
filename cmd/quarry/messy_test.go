package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/investigation"
)

// TestMessyExports investigates each file of testdata/messy through the CLI,
// as a new user would, and checks the outcome and the first explanation.
func TestMessyExports(t *testing.T) {
	tests := []struct {
		file, metric, base, cmp string
		outcome                 string
		kind, segment           string // of the first explanation
		grain                   string
	}{
		{"pandas_export.csv", "SELECT SUM(amount) FROM pandas_export", "2017-05-01..2017-05-14", "2017-05-15..2017-05-28",
			investigation.OutcomeCompleted, investigation.KindRate, "group=west", investigation.GrainDay},
		{"yearly.csv", "SELECT SUM(sales) FROM yearly", "2010-01-01..2016-12-31", "2017-01-01..2023-12-31",
			investigation.OutcomeCompleted, investigation.KindRate, "country=Spain", investigation.GrainYear},
		{"monthly.csv", "SELECT SUM(revenue) FROM monthly", "2022-01-01..2022-12-31", "2023-01-01..2023-12-31",
			investigation.OutcomeCompleted, investigation.KindDataQuality, "store=C", investigation.GrainMonth},
		{"uniform.csv", "SELECT SUM(amount) FROM uniform", "2024-01-01..2024-01-14", "2024-01-15..2024-01-28",
			investigation.OutcomeCompleted, investigation.KindUniform, "", investigation.GrainDay},
		{"onedim.csv", "SELECT SUM(amount) FROM onedim", "2024-01-01..2024-01-14", "2024-01-15..2024-01-28",
			investigation.OutcomeCompleted, investigation.KindRate, "region=west", investigation.GrainDay},
		// The World rows are the sum of the countries; location, iso_code
		// and vaccines name the same country, so only location is used.
		{"vaccinations.csv", "SELECT SUM(daily_vaccinations) FROM vaccinations", "2021-06-01..2021-06-14", "2021-06-15..2021-06-28",
			investigation.OutcomeCompleted, investigation.KindDataQuality, "", investigation.GrainDay},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			dir := t.TempDir()
			stdout, stderr, code := runCLI(t, "investigate", "--data-dir", dir, "--json",
				"--file", filepath.Join("..", "..", "testdata", "messy", tt.file),
				"--metric", tt.metric, "--baseline", tt.base, "--comparison", tt.cmp)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			var res investigation.Result
			if err := json.Unmarshal([]byte(stdout), &res); err != nil {
				t.Fatalf("decode: %v\n%s", err, stdout)
			}
			if res.Overall.Grain != tt.grain {
				t.Errorf("grain %q; want %q", res.Overall.Grain, tt.grain)
			}
			if res.Status != tt.outcome || len(res.Explanations) == 0 {
				t.Fatalf("outcome %s with %d explanations; want %s\n%s", res.Status, len(res.Explanations), tt.outcome, stderr)
			}
			top := res.Explanations[0]
			if top.Kind != tt.kind || segmentKey(top.Segment) != tt.segment {
				t.Errorf("first explanation %s %q (%s); want %s %q", top.Kind, segmentKey(top.Segment), top.Title, tt.kind, tt.segment)
			}
			checkVerdictsAgree(t, dir)
			if tt.kind == investigation.KindRate {
				// Wording follows the sign: a segment that rose was worth more.
				want := map[bool]string{true: "more on average", false: "less on average"}[top.Change > 0]
				if !strings.Contains(top.CausalStory, want) {
					t.Errorf("story %q; want %q", top.CausalStory, want)
				}
			}
			if tt.file == "vaccinations.csv" {
				if !strings.Contains(top.Title, "location=World") {
					t.Errorf("first explanation %q; want the World rows named as totals", top.Title)
				}
				if len(res.Explanations) < 2 || segmentKey(res.Explanations[1].Segment) != "location=China" {
					t.Errorf("second explanation is not location=China alone: %+v", res.Explanations)
				}
			}
			for _, e := range res.Explanations {
				if k := segmentKey(e.Segment); strings.Contains(k, "iso_code") || strings.Contains(k, "vaccines") {
					t.Errorf("segment %s named by an equivalent column", k)
				}
			}
			for _, e := range res.Explanations {
				if strings.Contains(e.Title, "Days missing") && tt.grain != investigation.GrainDay {
					t.Errorf("%s data reported as missing days: %s", tt.grain, e.Title)
				}
			}
		})
	}
}

// checkVerdictsAgree fails when a hypothesis that the change is concentrated
// somewhere and the uniform-shift hypothesis are both confirmed.
func checkVerdictsAgree(t *testing.T, dataDir string) {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dataDir, "sessions", "*", "analysis", "hypotheses", "hyp_*.json"))
	if len(paths) == 0 {
		t.Fatal("no hypotheses written")
	}
	confirmed := map[string][]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var h investigation.Hypothesis
		if err := json.Unmarshal(b, &h); err != nil {
			t.Fatal(err)
		}
		if h.Status == investigation.HypConfirmed {
			confirmed[h.Kind] = append(confirmed[h.Kind], h.Title)
		}
	}
	if len(confirmed["uniform"]) > 0 && len(confirmed["dimension"])+len(confirmed["interaction"]) > 0 {
		t.Errorf("contradicting verdicts: %v", confirmed)
	}
}

// TestWarnings: a metric with no values in a period and overlapping periods
// are said, in the result and in the report, not silently shown as numbers.
func TestWarnings(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "sales.csv")
	os.WriteFile(csv, []byte("day,region,amount\n2024-01-01,a,\n2024-01-02,b,\n2024-01-08,a,5\n2024-01-09,b,6\n"), 0o644)
	stdout, stderr, code := runCLI(t, "investigate", "--data-dir", filepath.Join(dir, "data"), "--json", "--file", csv,
		"--metric", "SELECT SUM(amount) FROM sales", "--baseline", "2024-01-01..2024-01-07", "--comparison", "2024-01-05..2024-01-14")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var res investigation.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(res.Warnings, "\n")
	for _, want := range []string{"NULL on every row of the baseline period", "overlap (2024-01-05..2024-01-07)"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings %q lack %q", all, want)
		}
	}
	report, _ := os.ReadFile(res.ReportPath)
	if !strings.Contains(string(report), "**Warning:** The baseline and comparison periods overlap") {
		t.Errorf("the report does not warn about the overlap")
	}
}

// TestDuplicatesSayWhereTheyAre: rows loaded twice on one day of one
// region are reported with that day and that region.
func TestDuplicatesSayWhereTheyAre(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("order_id,day,region,amount\n")
	id := 0
	for d := 1; d <= 28; d++ {
		for _, reg := range []string{"north", "south", "east", "west"} {
			for k := 0; k < 5; k++ {
				id++
				line := fmt.Sprintf("%d,2024-01-%02d,%s,%d\n", id, d, reg, 100+(id*37)%50)
				b.WriteString(line)
				if d == 20 && reg == "west" {
					b.WriteString(line + line + line) // loaded four times
				}
			}
		}
	}
	csv := filepath.Join(dir, "orders.csv")
	os.WriteFile(csv, []byte(b.String()), 0o644)
	stdout, stderr, code := runCLI(t, "investigate", "--data-dir", filepath.Join(dir, "data"), "--json", "--file", csv,
		"--metric", "SELECT SUM(amount) FROM orders", "--baseline", "2024-01-01..2024-01-14", "--comparison", "2024-01-15..2024-01-28")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var res investigation.Result
	json.Unmarshal([]byte(stdout), &res)
	report, _ := os.ReadFile(res.ReportPath)
	if !strings.Contains(string(report), "all 15 extra rows are on 2024-01-20, in region=west") {
		t.Errorf("the report does not place the duplicates:\n%s", report)
	}
}
