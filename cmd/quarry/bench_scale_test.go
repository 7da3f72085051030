package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestBenchScaleSideBySide: the investigation and the floors, each in a
// process of its own, side by side; the report's shape, never its times.
func TestBenchScaleSideBySide(t *testing.T) {
	t.Setenv(asCommand, "1") // the measuring processes are this test binary
	if testing.Short() {
		t.Skip("runs an investigation and two floors")
	}
	var stdout, stderr bytes.Buffer
	if err := runBenchScale(context.Background(), []string{"--rows", "40000", "--json"}, noEnv, &stdout, &stderr); err != nil {
		t.Fatalf("bench scale: %v\n%s", err, stderr.String())
	}
	var out struct{ Runs []scaleResult }
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("bench scale --json printed %q: %v", stdout.String(), err)
	}
	if len(out.Runs) != 1 {
		t.Fatalf("bench scale --rows 40000 gave %d runs; want 1", len(out.Runs))
	}
	r := out.Runs[0]
	inv := r.Investigation
	if r.Rows != 40000 || r.FileMB <= 0 || inv.Seconds <= 0 || inv.CPUSeconds <= 0 || inv.PeakRSSMB <= 0 {
		t.Errorf("run = %+v; want rows, file size, and the investigation's time, CPU and memory", r)
	}
	if inv.Status != "completed" || !inv.FoundPlanted {
		t.Errorf("investigation = %+v; want completed with the planted cause first", inv)
	}
	// 2 periods x (3 platforms + 40 countries + the cities + 8 channels +
	// 24 categories + 8 app versions).
	floors := map[string]*scaleCost{"duckdb": &r.DuckDB}
	if r.Pandas != nil {
		floors["pandas"] = r.Pandas
	} else if r.PandasSkipped == "" {
		t.Errorf("no pandas floor and no reason why")
	}
	for name, c := range floors {
		if c.Seconds <= 0 || c.CPUSeconds <= 0 || c.PeakRSSMB <= 0 {
			t.Errorf("%s floor = %+v; want its time, CPU and memory", name, c)
		}
		if c.Groups < 2*(3+40+250+8+24+8) || c.Groups > 2*(3+40+300+8+24+8) {
			t.Errorf("%s floor grouped %d rows; want one per value of each dimension in each period", name, c.Groups)
		}
		if c.Groups != r.DuckDB.Groups {
			t.Errorf("%s floor grouped %d rows, duckdb %d; want the same work", name, c.Groups, r.DuckDB.Groups)
		}
		for what, got := range map[string][2]float64{
			"time":   {c.TimeRatio, inv.Seconds / c.Seconds},
			"CPU":    {c.CPURatio, inv.CPUSeconds / c.CPUSeconds},
			"memory": {c.MemoryRatio, inv.PeakRSSMB / c.PeakRSSMB},
		} {
			if math.Abs(got[0]-got[1]) > 1e-9*got[1] {
				t.Errorf("%s floor: %s ratio %v; want the investigation's over the floor's, %v", name, what, got[0], got[1])
			}
		}
	}
}

// TestPrintScale: the text report puts the runs side by side and says
// when pandas was skipped.
func TestPrintScale(t *testing.T) {
	r := scaleResult{Rows: 500000, FileMB: 29.8,
		Investigation: scaleInvestigation{Seconds: 6, processCost: processCost{PeakRSSMB: 300, CPUSeconds: 9}, Status: "completed", TopExplanation: "a=b", FoundPlanted: true},
		DuckDB:        scaleCost{Seconds: 1, processCost: processCost{PeakRSSMB: 200, CPUSeconds: 1.5}, TimeRatio: 6, CPURatio: 6, MemoryRatio: 1.5},
		PandasSkipped: "no python with pandas",
	}
	var b bytes.Buffer
	printScale(&b, []scaleResult{r})
	for _, want := range []string{"500000 rows", "investigation", "duckdb floor", "6.0x the time (6.0x the CPU), 1.5x the memory",
		"pandas floor   skipped: no python with pandas", "completed: a=b (planted cause found: true)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("printScale = %q; want it to hold %q", b.String(), want)
		}
	}
}

// TestBenchScaleMeasureNeedsFile: the measuring mode refuses to guess.
func TestBenchScaleMeasureNeedsFile(t *testing.T) {
	for _, args := range [][]string{{"--measure", "duckdb"}, {"--measure", "nothing", "--file", "x.csv"}} {
		var stdout, stderr bytes.Buffer
		err := runBenchScale(context.Background(), args, noEnv, &stdout, &stderr)
		if _, ok := err.(*usageError); !ok {
			t.Errorf("bench scale %v = %v; want a usage error", args, err)
		}
	}
}

func noEnv(string) string { return "" }
