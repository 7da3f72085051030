package budget

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
)

func TestSplitMemory(t *testing.T) {
	for _, tc := range []struct {
		totalMB                int64
		maxEngines, maxRunning int
		cpus                   int
		want                   Split
	}{
		// The default budget keeps every engine place.
		{4096, 4, 2, 2, Split{TotalMB: 4096, GoMB: 1024, Engines: 4, EngineMB: 640, Threads: 1, TempMB: 5120}},
		// Issue 20's budget: two engines fit with their overhead.
		{1024, 4, 2, 2, Split{TotalMB: 1024, GoMB: 256, Engines: 2, EngineMB: 240, Threads: 1, TempMB: 1920}},
		// More processors: more threads, and more overhead an engine.
		{4096, 4, 2, 8, Split{TotalMB: 4096, GoMB: 1024, Engines: 4, EngineMB: 496, Threads: 4, TempMB: 3968}},
		// Too small for an engine's minimum: one engine at the minimum.
		{256, 4, 2, 2, Split{TotalMB: 256, GoMB: 64, Engines: 1, EngineMB: MinEngineMB, Threads: 1, TempMB: 8 * MinEngineMB}},
	} {
		got := SplitMemory(tc.totalMB, tc.maxEngines, tc.maxRunning, tc.cpus)
		if got != tc.want {
			t.Errorf("SplitMemory(%d, %d, %d, %d) = %+v; want %+v", tc.totalMB, tc.maxEngines, tc.maxRunning, tc.cpus, got, tc.want)
		}
		// Whenever the budget has room for them, the engines with their
		// overhead, the Go part and the process's base fit in it.
		if tc.totalMB >= 1024 {
			used := got.GoMB + baseMB + int64(got.Engines)*(got.EngineMB+engineBaseMB+engineThreadMB*int64(got.Threads))
			if used > tc.totalMB {
				t.Errorf("SplitMemory(%d, ...) plans %d MB", tc.totalMB, used)
			}
		}
	}
}

func TestReadUsage(t *testing.T) {
	u := ReadUsage()
	if u.GoHeap <= 0 || u.RSS <= u.GoHeap/2 {
		t.Errorf("ReadUsage() = %+v; want a Go heap and a resident set that holds it", u)
	}
}

// fakeMemory is a memory reading the test sets.
type fakeMemory struct{ rss, heap atomic.Int64 }

func (f *fakeMemory) read() Usage { return Usage{RSS: f.rss.Load(), GoHeap: f.heap.Load()} }

func startGuard(t *testing.T, opt GuardOptions) *Guard {
	t.Helper()
	opt.Interval = time.Millisecond
	g := NewGuard(opt)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); g.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return g
}

// ended waits for ctx to end, failing after a generous hang guard.
func ended(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatalf("%s was not ended", what)
	}
}

// TestGuardEndsNewestOverBudget: over the budget the newest work ends with
// RESOURCE_LIMIT, older work goes on; when the memory stays over once the
// newest has ended, the next newest ends too.
func TestGuardEndsNewestOverBudget(t *testing.T) {
	mem := &fakeMemory{}
	mem.rss.Store(100 << 20)
	g := startGuard(t, GuardOptions{MemoryMB: 512, Read: mem.read})
	older, doneOlder := g.Watch(context.Background(), "the investigation")
	defer doneOlder()
	newer, doneNewer := g.Watch(context.Background(), "the query")

	// Under the budget nothing ends, however many readings are taken.
	for range 50 {
		time.Sleep(time.Millisecond)
	}
	if older.Err() != nil || newer.Err() != nil {
		t.Fatal("work ended under the budget")
	}

	mem.rss.Store(600 << 20)
	ended(t, newer, "the newest work")
	cause := context.Cause(newer)
	if quarry.ErrorCode(cause) != quarry.ECodeResourceLimit {
		t.Fatalf("cause = %v; want RESOURCE_LIMIT", cause)
	}
	if !errors.Is(cause, context.Canceled) {
		t.Errorf("cause %v is not context.Canceled", cause)
	}
	var qe *quarry.Error
	errors.As(cause, &qe)
	if want := "the query was stopped: the process's memory use (600 MB) passed --memory-mb 512"; qe.Message != want || qe.Hint == "" {
		t.Errorf("message %q (hint %q); want %q with a hint", qe.Message, qe.Hint, want)
	}
	if err := Cause(newer, context.Canceled); err != error(qe) {
		t.Errorf("Cause = %#v; want the context's cause, %#v", err, qe)
	}
	if older.Err() != nil {
		t.Fatal("the older work ended with the newest")
	}
	// The memory falls once the newest work has stopped: the older goes on.
	mem.rss.Store(300 << 20)
	doneNewer()
	for range 50 {
		time.Sleep(time.Millisecond)
	}
	if older.Err() != nil {
		t.Fatal("the older work ended under the budget")
	}
	// Over again with the older alone: it ends in turn.
	mem.rss.Store(600 << 20)
	ended(t, older, "the older work")
	if quarry.ErrorCode(context.Cause(older)) != quarry.ECodeResourceLimit {
		t.Fatalf("cause = %v; want RESOURCE_LIMIT", context.Cause(older))
	}
	if g.Running() != 1 {
		t.Errorf("Running() = %d; want 1 (the ended work has not called done)", g.Running())
	}
}

// TestGuardGoHeap: where the resident set cannot be read (0), the Go
// heap is the process's memory; beyond its own part but within the
// budget, it ends nothing.
func TestGuardGoHeap(t *testing.T) {
	mem := &fakeMemory{}
	mem.heap.Store(900 << 20)
	g := startGuard(t, GuardOptions{MemoryMB: 1024, Read: mem.read})
	ctx, done := g.Watch(context.Background(), "the analysis")
	defer done()
	for range 50 {
		time.Sleep(time.Millisecond)
	}
	if ctx.Err() != nil {
		t.Fatal("work ended under the budget")
	}
	mem.heap.Store(1025 << 20)
	ended(t, ctx, "the work")
	var qe *quarry.Error
	if !errors.As(context.Cause(ctx), &qe) || qe.Code != quarry.ECodeResourceLimit {
		t.Fatalf("cause = %v; want RESOURCE_LIMIT", context.Cause(ctx))
	}
	if want := "the analysis was stopped: the process's memory use (1025 MB) passed --memory-mb 1024"; qe.Message != want {
		t.Errorf("message %q; want %q", qe.Message, want)
	}
}

// TestGuardDone: work that ends normally leaves the Guard, its context
// cancelled without a RESOURCE_LIMIT cause; a nil Guard watches nothing.
func TestGuardDone(t *testing.T) {
	g := NewGuard(GuardOptions{MemoryMB: 512})
	ctx, done := g.Watch(context.Background(), "the query")
	if g.Running() != 1 {
		t.Fatalf("Running() = %d; want 1", g.Running())
	}
	done()
	done()
	if g.Running() != 0 || ctx.Err() == nil {
		t.Fatalf("after done: Running() = %d, ctx.Err() = %v; want 0 and cancelled", g.Running(), ctx.Err())
	}
	if err := Cause(ctx, context.Canceled); err != context.Canceled {
		t.Errorf("Cause of a finished context = %v; want context.Canceled", err)
	}
	var none *Guard
	bg := context.Background()
	if ctx, done := none.Watch(bg, "x"); ctx != bg {
		t.Error("a nil Guard changed the context")
	} else {
		done()
	}
}
