// Package runner bounds the background work of a process: the
// investigations, analyses and researches it runs at once share one
// Runner, made in the wiring (internal/app), so that a burst of one job
// cannot starve the machine of memory and cores the others need, and
// the bound set with --max-running holds for all of them together.
package runner

import "context"

// DefaultMax is the size of a Runner made by a service given none.
const DefaultMax = 2

// Runner hands out a fixed number of slots. It is safe for concurrent
// use.
type Runner struct {
	slots chan struct{}
}

// New returns a Runner of max slots (DefaultMax when max <= 0).
func New(max int) *Runner {
	if max <= 0 {
		max = DefaultMax
	}
	return &Runner{slots: make(chan struct{}, max)}
}

// Or returns r, or a new Runner of max slots when r is nil: a service
// given no Runner bounds its own work as it did before they shared one.
func Or(r *Runner, max int) *Runner {
	if r != nil {
		return r
	}
	return New(max)
}

// Max is how many slots r has.
func (r *Runner) Max() int { return cap(r.slots) }

// TryAcquire takes a slot when one is free and reports whether it did.
func (r *Runner) TryAcquire() bool {
	select {
	case r.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

// Acquire waits for a free slot. waiting, when set, is called once
// before it waits, when no slot is free at once, so that a job can say
// it is queued. Errors: ctx's when it ends first; no slot is held then.
func (r *Runner) Acquire(ctx context.Context, waiting func()) error {
	if r.TryAcquire() {
		return nil
	}
	if waiting != nil {
		waiting()
	}
	select {
	case r.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Release gives back a slot taken by Acquire or TryAcquire.
func (r *Runner) Release() { <-r.slots }
