package budget

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync"
	"time"

	"github.com/quarry-dev/quarry"
)

// Usage is one reading of the process's memory, in bytes.
type Usage struct {
	// RSS is the resident set: the Go heap, DuckDB's allocations and
	// everything else the process holds in memory.
	RSS int64
	// GoHeap is the Go heap's objects, live and not yet swept.
	GoHeap int64
}

// ReadUsage reads the process's resident set from /proc/self/statm and
// the Go heap from runtime/metrics. Where /proc is missing RSS is 0, and
// only the Go heap is watched.
func ReadUsage() Usage {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	u := Usage{GoHeap: int64(s[0].Value.Uint64())}
	if b, err := os.ReadFile("/proc/self/statm"); err == nil {
		// size resident shared text lib data dt, in pages.
		if f := bytes.Fields(b); len(f) > 1 {
			pages, _ := strconv.ParseInt(string(f[1]), 10, 64)
			u.RSS = pages * int64(os.Getpagesize())
		}
	}
	return u
}

// GuardOptions configure a Guard.
type GuardOptions struct {
	// MemoryMB is the process's budget (--memory-mb): its memory, the
	// resident set or, where that cannot be read, the Go heap, may not
	// pass it. The Go heap's own part (SetGoLimit) is not enforced here:
	// a heap beyond it makes the collector work harder, and is ended
	// only when the process as a whole passes the budget.
	MemoryMB int64
	// Interval is how often the memory is read (default 100 ms).
	Interval time.Duration
	// Read reads the memory (default ReadUsage).
	Read func() Usage
	Log  *slog.Logger
}

// Guard is the process's memory watchdog. Work that may grow without
// bound (an investigation, a query, an analysis) registers with Watch for
// the time it runs; when the process's memory passes its budget, the
// Guard ends the newest registered work by cancelling its context with a
// RESOURCE_LIMIT cause, and waits for it to end and its memory to be
// freed before it ends another. The server and older work go on.
//
// The newest work is ended first because memory cannot be attributed to
// work: Go does not count allocations per goroutine, and a DuckDB
// engine's own count (duckdb_memory()) cannot be read while its single
// connection runs the query that grows. The newest work has done the
// least, so ending it loses the least, and when it was not the cause the
// memory stays over the budget and the next newest is ended in turn.
//
// A nil *Guard watches nothing: Watch returns the context as it is.
type Guard struct {
	opt GuardOptions

	mu   sync.Mutex
	jobs []*job // in registration order: the newest last
}

// job is one registered piece of work.
type job struct {
	what   string
	cancel context.CancelCauseFunc
	done   chan struct{} // closed when the work unregisters
	ended  bool
}

// NewGuard returns a Guard of opt; Run starts it.
func NewGuard(opt GuardOptions) *Guard {
	if opt.Interval <= 0 {
		opt.Interval = 100 * time.Millisecond
	}
	if opt.Read == nil {
		opt.Read = ReadUsage
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	return &Guard{opt: opt}
}

// Watch registers work described by what ("the investigation", "the
// query") for the Guard to end should the memory pass its budget. It
// returns the context to run the work in, whose cause (context.Cause)
// is then a RESOURCE_LIMIT *quarry.Error that is also context.Canceled,
// and done, which the work calls when it ends.
func (g *Guard) Watch(ctx context.Context, what string) (context.Context, func()) {
	if g == nil {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	j := &job{what: what, cancel: cancel, done: make(chan struct{})}
	g.mu.Lock()
	g.jobs = append(g.jobs, j)
	g.mu.Unlock()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			g.mu.Lock()
			for i, o := range g.jobs {
				if o == j {
					g.jobs = append(g.jobs[:i], g.jobs[i+1:]...)
					break
				}
			}
			g.mu.Unlock()
			close(j.done)
			cancel(context.Canceled)
		})
	}
}

// Running returns how many registered pieces of work are running.
func (g *Guard) Running() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.jobs)
}

// Run reads the memory every Interval until ctx ends, ending work while
// it is over the budget.
func (g *Guard) Run(ctx context.Context) {
	tick := time.NewTicker(g.opt.Interval)
	defer tick.Stop()
	warned := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		u := g.opt.Read()
		if !g.over(u) {
			warned = false
			continue
		}
		j := g.newest()
		if j == nil {
			if !warned {
				g.opt.Log.Warn("memory over --memory-mb with no work to end", "rss_mb", u.RSS>>20, "go_heap_mb", u.GoHeap>>20, "memory_mb", g.opt.MemoryMB)
				warned = true
			}
			continue
		}
		g.end(j, u)
		// The work's memory is freed once it has stopped: wait for that
		// (a DuckDB query stops within about half a second), but not
		// forever, then give the freed memory back to the system so that
		// the next reading sees it gone.
		wait := time.NewTimer(20 * g.opt.Interval)
		select {
		case <-ctx.Done():
			wait.Stop()
			return
		case <-j.done:
		case <-wait.C:
		}
		wait.Stop()
		runtime.GC()
		debug.FreeOSMemory()
	}
}

// over reports whether u passes the budget.
func (g *Guard) over(u Usage) bool {
	return g.opt.MemoryMB > 0 && u.total() > g.opt.MemoryMB<<20
}

// total is the process's memory: the resident set, which holds the Go
// heap, or the Go heap where the resident set could not be read.
func (u Usage) total() int64 { return max(u.RSS, u.GoHeap) }

// newest returns the newest work not yet ended, or nil.
func (g *Guard) newest() *job {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i := len(g.jobs) - 1; i >= 0; i-- {
		if !g.jobs[i].ended {
			return g.jobs[i]
		}
	}
	return nil
}

// end cancels j's context with a RESOURCE_LIMIT cause.
func (g *Guard) end(j *job, u Usage) {
	g.mu.Lock()
	j.ended = true
	g.mu.Unlock()
	g.opt.Log.Warn("memory over budget: ending the newest work", "work", j.what, "rss_mb", u.RSS>>20, "go_heap_mb", u.GoHeap>>20, "memory_mb", g.opt.MemoryMB)
	j.cancel(Exceeded(quarry.Errorf(quarry.ECodeResourceLimit, "%s was stopped: the process's memory use (%d MB) passed --memory-mb %d",
		j.what, u.total()>>20, g.opt.MemoryMB).
		WithHint("raise --memory-mb, or narrow the data: fewer rows or columns, a shorter period")))
}

// Exceeded returns e as the cause of a context ended for exceeding a
// budget: it is e for quarry.ErrorCode and errors.As, and also
// context.Canceled, so code that asks whether its context was cancelled
// still learns that it was.
func Exceeded(e *quarry.Error) error { return exceeded{e} }

type exceeded struct{ err *quarry.Error }

func (e exceeded) Error() string   { return e.err.Error() }
func (e exceeded) Unwrap() []error { return []error{e.err, context.Canceled} }

// Cause returns why ctx ended when that is a *quarry.Error (a Guard's
// RESOURCE_LIMIT), and err otherwise: work that fails because its
// context was cancelled reports the reason, with its hint, not "context
// canceled".
func Cause(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	var qe *quarry.Error
	if errors.As(context.Cause(ctx), &qe) {
		return qe
	}
	return err
}
