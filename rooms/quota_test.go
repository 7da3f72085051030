package rooms_test

import (
	"context"
	"testing"
	"time"
)

// A user's first question of an hour removes the rate-limit windows more
// than two hours old, as the specification keeps them.
func TestAskSweepsOldRateLimitWindows(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 10, 15, 0, 0, time.UTC)
	e.svc.Now = func() time.Time { return now }
	for _, at := range []time.Duration{0, time.Hour, 2*time.Hour + 15*time.Minute} {
		e.svc.Now = func() time.Time { return now.Add(at) }
		if _, err := e.svc.Ask(ctx, e.owner.ID, e.a.ID, "capital expenditures?"); err != nil {
			t.Fatal(err)
		}
	}
	// At 12:30 the window of 10:00 is past two hours; 11:00 and 12:00
	// stay.
	if n, err := e.svc.Store.CleanQuotas(ctx, now.Add(24*time.Hour)); err != nil || n != 2 {
		t.Fatalf("windows left: %d (%v), want 2", n, err)
	}
}
