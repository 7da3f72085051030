package rooms

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/sqlite"
)

// TestGate: Concurrent callers in at once, Queue more waiting up to Wait,
// and the rest refused at once, each refusal RATE_LIMITED with a
// Retry-After.
func TestGate(t *testing.T) {
	ctx := context.Background()
	g := newGate(SignInLimits{Concurrent: 1, Queue: 1, Wait: 50 * time.Millisecond})
	release, err := g.enter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	queued := make(chan error, 1)
	go func() {
		_, err := g.enter(ctx)
		queued <- err
	}()
	for i := 0; g.waiting.Load() != 1; i++ {
		if i == 10000 {
			t.Fatal("the second caller never queued")
		}
		time.Sleep(time.Millisecond)
	}
	wantBusy(t, "a caller past the queue", firstErr(g.enter(ctx)))
	wantBusy(t, "the queued caller after the wait", <-queued)
	release()
	release, err = g.enter(ctx)
	if err != nil {
		t.Fatalf("enter after a release: %v", err)
	}

	// A queued caller gets the turn when it is released. The wait is
	// long enough to outlast any test machine's pauses: a hang guard,
	// not a measure.
	g.wait = time.Minute
	got := make(chan error, 1)
	go func() {
		r, err := g.enter(ctx)
		if err == nil {
			r()
		}
		got <- err
	}()
	for i := 0; g.waiting.Load() != 1; i++ {
		if i == 10000 {
			t.Fatal("the caller never queued")
		}
		time.Sleep(time.Millisecond)
	}
	release()
	if err := <-got; err != nil {
		t.Errorf("a queued caller after the release: %v; want its turn", err)
	}

	// A caller whose context ends stops waiting.
	release, _ = g.enter(ctx)
	defer release()
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := g.enter(cctx); !errors.Is(err, context.Canceled) {
		t.Errorf("enter with a canceled context: %v; want context.Canceled", err)
	}
}

func wantBusy(t *testing.T, what string, err error) {
	t.Helper()
	var limited *room.RateLimited
	if !errors.As(err, &limited) || limited.Err.Code != quarry.ECodeRateLimited || limited.RetryAfter < 1 {
		t.Errorf("%s: %v; want RATE_LIMITED with a Retry-After", what, err)
	}
}

func firstErr[T any](_ T, err error) error { return err }

// TestLoginBusy: a sign-in that finds every turn taken is refused with
// RATE_LIMITED, and is not counted as a failure of its name.
func TestLoginBusy(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.OpenRooms(filepath.Join(t.TempDir(), "rooms.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := &Service{Store: st, Dir: t.TempDir(), SignIns: SignInLimits{Concurrent: 1, Queue: 1, Wait: 10 * time.Millisecond}}
	if _, err := svc.AddUser(ctx, "ann", "ann's long password"); err != nil {
		t.Fatal(err)
	}
	release, err := svc.signInGate().enter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, err = svc.LoginFrom(ctx, "192.0.2.1", "ann", "ann's long password")
	wantBusy(t, "LoginFrom with every turn taken", err)
	release()
	sys := room.WithActor(ctx, room.System)
	for _, key := range []string{loginKey("name", "ann"), loginKey("client", "192.0.2.1")} {
		if f, err := st.LoginFailures(sys, key, time.Now(), LoginFailureWindow); err != nil || f.Count != 0 {
			t.Errorf("failures of %s after a busy refusal = %+v, %v; want none", key, f, err)
		}
	}
	if u, err := svc.LoginFrom(ctx, "192.0.2.1", "ann", "ann's long password"); err != nil || u.Name != "ann" {
		t.Errorf("LoginFrom once the turn is free = %v, %v; want ann", u, err)
	}
}
