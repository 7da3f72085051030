package audit

import "time"

// SetLockWait changes how long Open waits for the lock, for the duration of
// a test.
func SetLockWait(d time.Duration) (restore func()) {
	old := lockWait
	lockWait = d
	return func() { lockWait = old }
}
