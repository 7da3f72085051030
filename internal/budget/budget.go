// Package budget keeps a process within its memory budget (--memory-mb).
// SplitMemory shares the budget between the Go heap (a soft limit,
// SetGoLimit) and the SQL engines; a Pool bounds how many engines are
// open at once, each within its own memory limit, so that investigations,
// upload checks, queries and analyses share the engines' part; and a
// Guard, the watchdog, ends the newest work with RESOURCE_LIMIT when the
// process's memory passes the budget all the same.
package budget

import (
	"context"
	"sync/atomic"
	"time"
)

// Pool is a number of places for open engines. A caller beyond it first
// asks its evict function to close idle engines (a cache's), then waits
// its turn, first come first served, until a place is given back or its
// context ends.
type Pool struct {
	slots   chan struct{}
	waiting atomic.Int32
}

// New returns a pool of n places.
func New(n int) *Pool { return &Pool{slots: make(chan struct{}, max(n, 1))} }

// Acquire takes a place. While none is free it calls evict, which closes
// one idle engine and reports whether there was one, until it has none;
// then it waits, and calls evict again every second, for an engine cached
// just as the wait began. evict may be nil.
func (p *Pool) Acquire(ctx context.Context, evict func() bool) error {
	if evict == nil {
		evict = func() bool { return false }
	}
	for {
		select {
		case p.slots <- struct{}{}:
			return nil
		default:
		}
		if !evict() {
			break
		}
	}
	p.waiting.Add(1)
	defer p.waiting.Add(-1)
	for {
		evict()
		select {
		case p.slots <- struct{}{}:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// Release gives a place back.
func (p *Pool) Release() { <-p.slots }

// Crowded reports whether someone waits for a place, in which case an
// engine done with its work should be closed rather than cached.
func (p *Pool) Crowded() bool { return p.waiting.Load() > 0 }
