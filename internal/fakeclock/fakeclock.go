// Package fakeclock is a settable time source for tests that must move
// time forward (session expiry, sweeps) without waiting.
package fakeclock

import (
	"sync"
	"time"
)

// Clock is a time source that only moves when told to. It is safe for
// concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// New returns a clock stopped at t.
func New(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Add moves the clock forward by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
