package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-dev/quarry/internal/sampledata"
	"github.com/quarry-dev/quarry/investigation"
)

// scaleResult is one measured run of "quarry bench scale".
type scaleResult struct {
	Rows            int     `json:"rows"`
	FileMB          float64 `json:"file_mb"`
	GenerateSeconds float64 `json:"generate_seconds"`
	Seconds         float64 `json:"seconds"`
	PeakRSSMB       float64 `json:"peak_rss_mb"`
	GoHeapPeakMB    float64 `json:"go_heap_sys_mb"`
	Status          string  `json:"status"`
	TopExplanation  string  `json:"top_explanation"`
	FoundPlanted    bool    `json:"found_planted_cause"`
}

// runBenchScale times whole investigations over generated orders files
// (six dimensions, one planted cause) and reports peak memory.
func runBenchScale(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench scale", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rowsFlag := fs.String("rows", "500000,5000000", "comma-separated row counts to run")
	dir := fs.String("dir", "", "work directory (default: a temporary directory, removed afterwards)")
	asJSON := fs.Bool("json", false, "print JSON")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	work, cleanup, err := benchWorkDir(*dir, "quarry-bench-scale")
	if err != nil {
		return err
	}
	defer cleanup()
	var results []scaleResult
	for _, s := range strings.Split(*rowsFlag, ",") {
		rows, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || rows <= 0 {
			return &usageError{fmt.Sprintf("--rows: %q is not a positive number", s)}
		}
		res, err := benchScaleOnce(ctx, work, rows, stderr)
		if err != nil {
			return err
		}
		results = append(results, res)
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{"runs": results})
	}
	fmt.Fprintf(stdout, "%10s %8s %9s %10s %10s  %-12s %s\n", "rows", "file MB", "gen s", "investig s", "peak RSS", "status", "top explanation")
	for _, r := range results {
		fmt.Fprintf(stdout, "%10d %8.1f %9.1f %10.2f %8.0fMB  %-12s %s (planted found: %v)\n", r.Rows, r.FileMB, r.GenerateSeconds, r.Seconds, r.PeakRSSMB, r.Status, r.TopExplanation, r.FoundPlanted)
	}
	return nil
}

func benchScaleOnce(ctx context.Context, work string, rows int, stderr io.Writer) (scaleResult, error) {
	res := scaleResult{Rows: rows}
	dir := filepath.Join(work, fmt.Sprintf("orders_%d", rows))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	path := filepath.Join(dir, "orders.csv")
	start := time.Now()
	f, err := os.Create(path)
	if err != nil {
		return res, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := sampledata.WriteOrders(w, rows, 1); err != nil {
		f.Close()
		return res, err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return res, err
	}
	f.Close()
	res.GenerateSeconds = time.Since(start).Seconds()
	st, _ := os.Stat(path)
	res.FileMB = float64(st.Size()) / (1 << 20)
	fmt.Fprintf(stderr, "generated %d rows (%.0f MB) in %.1fs\n", rows, res.FileMB, res.GenerateSeconds)

	inv := investigationRun{
		files:   []fileArg{{path: path, description: "orders with six dimensions"}},
		dataDir: filepath.Join(dir, "data"),
		maxMB:   int64(res.FileMB) + 1, // the 50 MB default is a setting; the benchmark raises it
		stderr:  stderr,
	}
	inv.context.MetricSQL = sampledata.OrdersMetricSQL
	inv.context.BaselinePeriod, inv.context.ComparisonPeriod = sampledata.OrdersBaseline, sampledata.OrdersComparison
	start = time.Now()
	out, err := inv.run(ctx)
	if err != nil {
		return res, err
	}
	res.Seconds = time.Since(start).Seconds()
	res.Status = out.Status
	if len(out.Explanations) > 0 {
		res.TopExplanation = out.Explanations[0].Segment.String()
		res.FoundPlanted = sameSegment(out.Explanations[0].Segment, sampledata.OrdersCause.Segment)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	res.GoHeapPeakMB = float64(ms.HeapSys) / (1 << 20)
	res.PeakRSSMB = peakRSSMB()
	return res, nil
}

// peakRSSMB reads the process's peak resident set size (VmHWM), which
// counts DuckDB's C allocations as well as Go's heap.
func peakRSSMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			fields := strings.Fields(line)
			if len(fields) >= 2 {
				kb, _ := strconv.ParseFloat(fields[1], 64)
				return kb / 1024
			}
		}
	}
	return 0
}

// sameSegment reports whether two segments hold the same conditions in any
// order.
func sameSegment(a, b investigation.Segment) bool {
	if len(a) != len(b) {
		return false
	}
	want := map[investigation.SegmentValue]bool{}
	for _, v := range b {
		want[v] = true
	}
	for _, v := range a {
		if !want[v] {
			return false
		}
	}
	return true
}

// benchWorkDir is a benchmark's working folder: dir when given, else a
// new temporary one that cleanup removes.
func benchWorkDir(dir, prefix string) (work string, cleanup func(), err error) {
	if dir != "" {
		return dir, func() {}, nil
	}
	tmp, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", nil, err
	}
	return tmp, func() { os.RemoveAll(tmp) }, nil
}
