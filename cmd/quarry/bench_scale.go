package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/quarry-dev/quarry/internal/sampledata"
	"github.com/quarry-dev/quarry/investigation"
)

// scaleResult is one row count of "quarry bench scale": the investigation
// and the floors it is measured against, each in a process of its own so
// that each peak memory is its own.
type scaleResult struct {
	Rows            int                `json:"rows"`
	FileMB          float64            `json:"file_mb"`
	GenerateSeconds float64            `json:"generate_seconds"`
	Investigation   scaleInvestigation `json:"investigation"`
	DuckDB          scaleCost          `json:"duckdb_floor"`
	Pandas          *scaleCost         `json:"pandas_floor,omitempty"`
	// PandasSkipped says why there is no pandas floor.
	PandasSkipped string `json:"pandas_skipped,omitempty"`
}

// scaleCost is what one run cost. The ratios are the investigation's
// time and peak memory as multiples of this run's (a floor's).
type scaleCost struct {
	Seconds float64 `json:"seconds"`
	processCost
	Groups      int     `json:"groups,omitempty"`
	TimeRatio   float64 `json:"investigation_time_ratio,omitempty"`
	CPURatio    float64 `json:"investigation_cpu_ratio,omitempty"`
	MemoryRatio float64 `json:"investigation_memory_ratio,omitempty"`
}

// processCost is what the kernel counted for a finished process: its
// peak resident memory, which takes in DuckDB's and Python's allocations
// as well as Go's, and its CPU time (user and system), which other jobs
// on a shared machine disturb less than the wall clock.
type processCost struct {
	PeakRSSMB  float64 `json:"peak_rss_mb"`
	CPUSeconds float64 `json:"cpu_seconds"`
}

// scaleInvestigation is the measured investigation and what it found.
type scaleInvestigation struct {
	Seconds float64 `json:"seconds"`
	processCost
	Status         string `json:"status"`
	TopExplanation string `json:"top_explanation"`
	FoundPlanted   bool   `json:"found_planted_cause"`
}

// scaleOptions are bench scale's settings.
type scaleOptions struct {
	work    string
	python  string // "" tries pandasPythons
	profile string // a folder for the investigation's pprof profiles, or ""
}

// runBenchScale times whole investigations over generated orders files
// (six dimensions, one planted cause) beside the floor (a plain DuckDB
// load and pandas, each with one GROUP BY per dimension and period) and
// reports each one's peak memory. With --measure it is one of those runs,
// started by bench scale itself: it prints what it measured as JSON.
func runBenchScale(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench scale", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rowsFlag := fs.String("rows", "500000,5000000", "comma-separated row counts to run")
	dir := fs.String("dir", "", "work directory (default: a temporary directory, removed afterwards)")
	asJSON := fs.Bool("json", false, "print JSON")
	python := fs.String("python", "", "the python with pandas for the pandas floor (default: python3, then /usr/bin/python3)")
	profile := fs.String("profile", "", "write the investigation's CPU and heap profiles (pprof) into this folder")
	measure := fs.String("measure", "", "internal: measure one run (investigation or duckdb) of --file in this process")
	file := fs.String("file", "", "internal: the orders file of --measure")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *measure != "" {
		return measureScaleRun(ctx, *measure, *file, *dir, *profile, stdout, stderr)
	}
	var sizes []int
	for _, s := range strings.Split(*rowsFlag, ",") {
		rows, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || rows <= 0 {
			return &usageError{fmt.Sprintf("--rows: %q is not a positive number", s)}
		}
		sizes = append(sizes, rows)
	}
	work, cleanup, err := benchWorkDir(*dir, "quarry-bench-scale")
	if err != nil {
		return err
	}
	defer cleanup()
	opts := scaleOptions{work: work, python: *python, profile: *profile}
	var results []scaleResult
	for _, rows := range sizes {
		res, err := benchScaleOnce(ctx, opts, rows, stderr)
		if err != nil {
			return err
		}
		results = append(results, res)
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{"runs": results})
	}
	printScale(stdout, results)
	return nil
}

// printScale prints each row count's runs side by side.
func printScale(w io.Writer, results []scaleResult) {
	for _, r := range results {
		inv := r.Investigation
		fmt.Fprintf(w, "%d rows (%.1f MB, generated in %.1fs)\n", r.Rows, r.FileMB, r.GenerateSeconds)
		fmt.Fprintf(w, "  %-14s %9s %9s %9s   %s\n", "", "seconds", "CPU s", "peak RSS", "the investigation costs")
		fmt.Fprintf(w, "  %-14s %9.2f %9.2f %7.0fMB\n", "investigation", inv.Seconds, inv.CPUSeconds, inv.PeakRSSMB)
		floor := func(name string, c scaleCost) {
			fmt.Fprintf(w, "  %-14s %9.2f %9.2f %7.0fMB   %.1fx the time (%.1fx the CPU), %.1fx the memory\n",
				name, c.Seconds, c.CPUSeconds, c.PeakRSSMB, c.TimeRatio, c.CPURatio, c.MemoryRatio)
		}
		floor("duckdb floor", r.DuckDB)
		if r.Pandas != nil {
			floor("pandas floor", *r.Pandas)
		} else {
			fmt.Fprintf(w, "  %-14s skipped: %s\n", "pandas floor", r.PandasSkipped)
		}
		fmt.Fprintf(w, "  %s: %s (planted cause found: %v)\n", inv.Status, inv.TopExplanation, inv.FoundPlanted)
	}
}

// benchScaleOnce generates the orders file of rows and measures the
// investigation and the floors over it, one process each.
func benchScaleOnce(ctx context.Context, opts scaleOptions, rows int, stderr io.Writer) (scaleResult, error) {
	res := scaleResult{Rows: rows}
	dir := filepath.Join(opts.work, fmt.Sprintf("orders_%d", rows))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	path := filepath.Join(dir, "orders.csv")
	start := time.Now()
	if err := writeOrdersFile(path, rows); err != nil {
		return res, err
	}
	res.GenerateSeconds = time.Since(start).Seconds()
	st, err := os.Stat(path)
	if err != nil {
		return res, err
	}
	res.FileMB = float64(st.Size()) / (1 << 20)
	fmt.Fprintf(stderr, "generated %d rows (%.0f MB) in %.1fs\n", rows, res.FileMB, res.GenerateSeconds)

	args := []string{"bench", "scale", "--measure", "investigation", "--file", path, "--dir", filepath.Join(dir, "data")}
	if opts.profile != "" {
		args = append(args, "--profile", filepath.Join(opts.profile, strconv.Itoa(rows)))
	}
	if res.Investigation.processCost, err = measureProcess(ctx, self(ctx, args...), stderr, &res.Investigation); err != nil {
		return res, fmt.Errorf("investigation of %d rows: %w", rows, err)
	}
	if res.DuckDB.processCost, err = measureProcess(ctx, self(ctx, "bench", "scale", "--measure", "duckdb", "--file", path), stderr, &res.DuckDB); err != nil {
		return res, fmt.Errorf("duckdb floor of %d rows: %w", rows, err)
	}
	res.DuckDB.ratios(res.Investigation)
	pythons := pandasPythons
	if opts.python != "" {
		pythons = []string{opts.python}
	}
	py, err := findPandas(ctx, pythons)
	if err != nil {
		res.PandasSkipped = err.Error()
		return res, nil
	}
	var pandas scaleCost
	if pandas.processCost, err = measureProcess(ctx, exec.CommandContext(ctx, py, pandasArgs(path)...), stderr, &pandas); err != nil {
		return res, fmt.Errorf("pandas floor of %d rows: %w", rows, err)
	}
	pandas.ratios(res.Investigation)
	res.Pandas = &pandas
	return res, nil
}

// ratios sets c's ratios: the investigation's cost over c's.
func (c *scaleCost) ratios(inv scaleInvestigation) {
	if c.Seconds > 0 {
		c.TimeRatio = inv.Seconds / c.Seconds
	}
	if c.CPUSeconds > 0 {
		c.CPURatio = inv.CPUSeconds / c.CPUSeconds
	}
	if c.PeakRSSMB > 0 {
		c.MemoryRatio = inv.PeakRSSMB / c.PeakRSSMB
	}
}

// self is this program run with args.
func self(ctx context.Context, args ...string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	return exec.CommandContext(ctx, exe, args...)
}

// measureProcess runs cmd, decodes the JSON it prints last into v, and
// returns what the process cost.
func measureProcess(ctx context.Context, cmd *exec.Cmd, stderr io.Writer, v any) (processCost, error) {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return processCost{}, ctx.Err()
		}
		return processCost{}, err
	}
	if err := decodeMeasure(out.Bytes(), v); err != nil {
		return processCost{}, err
	}
	return costOf(cmd.ProcessState), nil
}

// costOf is what the kernel counted for a finished process; Linux counts
// ru_maxrss in KB.
func costOf(ps *os.ProcessState) processCost {
	c := processCost{CPUSeconds: (ps.UserTime() + ps.SystemTime()).Seconds()}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		c.PeakRSSMB = float64(ru.Maxrss) / 1024
	}
	return c
}

// measureScaleRun is one run of bench scale in this process: the
// investigation of file (its data under dir), or the DuckDB floor. It
// prints what it measured as one line of JSON.
func measureScaleRun(ctx context.Context, what, file, dir, profile string, stdout, stderr io.Writer) error {
	if file == "" {
		return &usageError{"--measure needs --file"}
	}
	var v any
	var err error
	switch what {
	case "investigation":
		stop, perr := startProfiles(profile)
		if perr != nil {
			return perr
		}
		v, err = measureInvestigation(ctx, file, dir, stderr)
		if perr := stop(); err == nil {
			err = perr
		}
	case "duckdb":
		v, err = duckdbFloor(ctx, file)
	default:
		return &usageError{fmt.Sprintf("--measure: %q is neither investigation nor duckdb", what)}
	}
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(v)
}

// measureInvestigation investigates the orders file at path as a user of
// the CLI would, its data under dir, and says whether the planted cause
// came first.
func measureInvestigation(ctx context.Context, path, dir string, stderr io.Writer) (scaleInvestigation, error) {
	var res scaleInvestigation
	st, err := os.Stat(path)
	if err != nil {
		return res, err
	}
	if dir == "" {
		return res, &usageError{"--measure investigation needs --dir"}
	}
	inv := investigationRun{
		files:   []fileArg{{path: path, description: "orders with six dimensions"}},
		dataDir: dir,
		maxMB:   st.Size()>>20 + 1, // the default is a setting; the benchmark raises it
		stderr:  stderr,
	}
	inv.context.MetricSQL = sampledata.OrdersMetricSQL
	inv.context.BaselinePeriod, inv.context.ComparisonPeriod = sampledata.OrdersBaseline, sampledata.OrdersComparison
	start := time.Now()
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
	return res, nil
}

// startProfiles starts a CPU profile into dir/cpu.pprof; stop ends it
// and writes the heap's allocations into dir/heap.pprof. With no dir it
// does nothing.
func startProfiles(dir string) (stop func() error, err error) {
	if dir == "" {
		return func() error { return nil }, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	cpu, err := os.Create(filepath.Join(dir, "cpu.pprof"))
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		cpu.Close()
		return nil, err
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := cpu.Close(); err != nil {
			return err
		}
		heap, err := os.Create(filepath.Join(dir, "heap.pprof"))
		if err != nil {
			return err
		}
		if err := pprof.Lookup("allocs").WriteTo(heap, 0); err != nil {
			heap.Close()
			return err
		}
		return heap.Close()
	}, nil
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
