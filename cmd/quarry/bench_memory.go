package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/sampledata"
)

// memoryQueries are the heavy queries of "quarry bench memory": a window
// over every row, a self-join on the key, a group by the key, a distinct
// count of built strings and a sort of every row, each the kind that
// holds the whole table in an operator's state.
var memoryQueries = []struct{ name, sql string }{
	{"window", `SELECT max(s) FROM (SELECT sum(amount) OVER (PARTITION BY city ORDER BY order_date, order_id ROWS UNBOUNDED PRECEDING) AS s FROM orders)`},
	{"join", `SELECT count(*), sum(b.amount) FROM orders a JOIN orders b ON a.order_id = b.order_id`},
	{"group", `SELECT count(*) FROM (SELECT order_id, city, max(amount) AS m FROM orders GROUP BY order_id, city)`},
	{"distinct", `SELECT count(DISTINCT order_id::VARCHAR || city || platform || category) FROM orders`},
	{"sort", `SELECT order_id FROM orders ORDER BY city, amount DESC, order_id LIMIT 5 OFFSET 1000000`},
}

// memoryResult is one run of "quarry bench memory".
type memoryResult struct {
	Rows      int             `json:"rows"`
	FileMB    float64         `json:"file_mb"`
	MemoryMB  int64           `json:"memory_mb"`
	PeakRSSMB float64         `json:"peak_rss_mb"`
	PeakGoMB  float64         `json:"peak_go_heap_mb"`
	Seconds   float64         `json:"seconds"`
	Queries   []memoryOutcome `json:"queries"`
}

type memoryOutcome struct {
	Name    string  `json:"name"`
	Code    string  `json:"code"` // "" when it succeeded
	Seconds float64 `json:"seconds"`
}

// runBenchMemory runs the heavy queries at once, each on its own session
// of one generated orders file, through the server's stack (internal/app)
// at --memory-mb, and reports the process's peak resident memory while
// they run: what issue 20 measured ("five heavy queries reached 1.77 GB
// at --memory-mb 1024").
func runBenchMemory(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench memory", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rows := fs.Int("rows", 3_000_000, "rows of the generated orders file")
	memoryMB := fs.Int64("memory-mb", 1024, "the process's memory budget, as quarry serve's --memory-mb")
	dir := fs.String("dir", "", "work directory (default: a temporary directory, removed afterwards)")
	asJSON := fs.Bool("json", false, "print JSON")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *rows <= 0 || *memoryMB <= 0 {
		return &usageError{"--rows and --memory-mb must be positive"}
	}
	work, cleanup, err := benchWorkDir(*dir, "quarry-bench-memory")
	if err != nil {
		return err
	}
	defer cleanup()
	res := memoryResult{Rows: *rows, MemoryMB: *memoryMB}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	path := filepath.Join(work, "orders.csv")
	if err := writeOrdersFile(path, *rows); err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	res.FileMB = float64(st.Size()) / (1 << 20)
	fmt.Fprintf(stderr, "generated %d rows (%.0f MB)\n", *rows, res.FileMB)

	// The budget as quarry serve applies it (appFlags.open).
	const maxRunning = 2
	mem, err := memoryFlag(*memoryMB).start(ctx, maxRunning+2, maxRunning, getenv, slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		return err
	}
	defer mem.stop()
	fmt.Fprintf(stderr, "budget: %+v\n", mem.split)
	a, err := app.Open(ctx, app.Options{DataDir: filepath.Join(work, "data"), MemoryMB: *memoryMB, MaxRunning: maxRunning, Guard: mem.guard, MaxUploadBytes: st.Size() + 1})
	if err != nil {
		return err
	}
	defer a.Close()
	ids := make([]string, len(memoryQueries))
	for i := range ids {
		s, err := a.Investigations.Create(ctx, "")
		if err != nil {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		_, err = a.Investigations.AddFile(ctx, s.SessionID, "orders.csv", "", f)
		f.Close()
		if err != nil {
			return err
		}
		ids[i] = s.SessionID
	}
	// The peak counts from here: the queries, not the uploads' checks.
	resetPeakRSS()
	stopSampling := sampleGoHeap(&res.PeakGoMB)
	start := time.Now()
	res.Queries = make([]memoryOutcome, len(memoryQueries))
	var wg sync.WaitGroup
	for i, q := range memoryQueries {
		wg.Go(func() {
			t := time.Now()
			_, err := a.Investigations.Query(ctx, ids[i], q.sql)
			res.Queries[i] = memoryOutcome{Name: q.name, Code: quarry.ErrorCode(err), Seconds: time.Since(t).Seconds()}
			if err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", q.name, err)
			}
		})
	}
	wg.Wait()
	stopSampling()
	res.Seconds = time.Since(start).Seconds()
	res.PeakRSSMB = peakRSSMB()
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	fmt.Fprintf(stdout, "%d rows (%.0f MB), --memory-mb %d: peak RSS %.0f MB (%.2fx the budget), peak Go heap %.0f MB, %.1fs\n",
		res.Rows, res.FileMB, res.MemoryMB, res.PeakRSSMB, res.PeakRSSMB/float64(res.MemoryMB), res.PeakGoMB, res.Seconds)
	for _, q := range res.Queries {
		fmt.Fprintf(stdout, "  %-8s %-14s %6.1fs\n", q.Name, or(q.Code, "ok"), q.Seconds)
	}
	return nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func writeOrdersFile(path string, rows int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := sampledata.WriteOrders(w, rows, 1); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// resetPeakRSS starts the process's peak resident set size (VmHWM) again
// from its current size; Linux does so on "5" written to clear_refs.
func resetPeakRSS() { os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// sampleGoHeap records the largest Go heap (live and not yet swept
// objects) seen every 10 ms in *peakMB until stop is called.
func sampleGoHeap(peakMB *float64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			*peakMB = max(*peakMB, float64(s[0].Value.Uint64())/(1<<20))
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	return func() { close(done); wg.Wait() }
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
