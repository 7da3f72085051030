package postgres

import "time"

// SetConnectTimeout shortens OpenSource's wait for tests; the returned
// func restores it.
func SetConnectTimeout(d time.Duration) (restore func()) {
	old := connectTimeout
	connectTimeout = d
	return func() { connectTimeout = old }
}

// Scan is scan, for its table test.
var Scan = scan
