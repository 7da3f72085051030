package room

import "github.com/quarry-dev/quarry"

// RateLimited is RATE_LIMITED with when to try again, for a Retry-After
// header.
type RateLimited struct {
	RetryAfter int // seconds
	Err        *quarry.Error
}

func (e *RateLimited) Error() string { return e.Err.Error() }
func (e *RateLimited) Unwrap() error { return e.Err }
