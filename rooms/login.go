package rooms

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// Sign-in limits. A password check costs argon2id's 19 MiB and about
// 30 ms of a core, so whoever can reach the sign-in form could spend a
// server's memory and cores with made-up names: the checks run a few at a
// time (SignInLimits), and failures are counted in the store, by name and
// by client, where every server of the store and a restart see them.
const (
	// MaxLoginFailures failed sign-ins for one name within
	// LoginFailureWindow make further tries for it wait for the window to
	// end, with the right password too. They are counted whether or not
	// the user exists, so the limit says nothing about who does.
	MaxLoginFailures = 10
	// MaxClientFailures failed sign-ins from one client (an IPv4 address
	// or an IPv6 /64, as the web layer names it) within LoginFailureWindow
	// refuse its further tries, whatever the name: made-up names each
	// fail once, and this is the budget that stops them.
	MaxClientFailures  = 50
	LoginFailureWindow = 15 * time.Minute
)

// SignInLimits bound the password checks of sign-ins in one process.
// Zero values take the defaults.
type SignInLimits struct {
	// Concurrent checks run at once (default: the cores, at most 4).
	Concurrent int
	// Queue checks wait for a turn (default 8); a sign-in beyond them is
	// refused at once.
	Queue int
	// Wait is the longest a check waits for its turn (default 2 s).
	Wait time.Duration
}

// DefaultSignInWait is SignInLimits.Wait's default.
const DefaultSignInWait = 2 * time.Second

// gate lets a bounded number of callers in at once, with a bounded
// queue that waits a bounded time.
type gate struct {
	slots   chan struct{}
	waiting atomic.Int64
	queue   int64
	wait    time.Duration
}

func newGate(l SignInLimits) *gate {
	if l.Concurrent <= 0 {
		l.Concurrent = min(runtime.NumCPU(), 4)
	}
	if l.Queue <= 0 {
		l.Queue = 8
	}
	if l.Wait <= 0 {
		l.Wait = DefaultSignInWait
	}
	return &gate{slots: make(chan struct{}, l.Concurrent), queue: int64(l.Queue), wait: l.Wait}
}

// enter waits for a turn and returns the function that ends it. Errors:
// RATE_LIMITED (a *RateLimited) when the queue is full or the wait is
// over, ctx's error when it ends first.
func (g *gate) enter(ctx context.Context) (func(), error) {
	release := func() { <-g.slots }
	select {
	case g.slots <- struct{}{}:
		return release, nil
	default:
	}
	if g.waiting.Add(1) > g.queue {
		g.waiting.Add(-1)
		return nil, errBusy()
	}
	defer g.waiting.Add(-1)
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return release, nil
	case <-t.C:
		return nil, errBusy()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// errBusy refuses a sign-in that found every turn taken.
func errBusy() error {
	return &room.RateLimited{RetryAfter: 1, Err: quarry.Errorf(quarry.ECodeRateLimited, "too many sign-ins at once").
		WithHint("try again in a moment")}
}

// signInGate returns the service's gate, made on first use from
// s.SignIns.
func (s *Service) signInGate() *gate {
	s.signInOnce.Do(func() { s.signIns = newGate(s.SignIns) })
	return s.signIns
}

// loginKey names a counter of failures in the store: a hash, so that
// what people type in the name field (a password, by mistake) is not
// kept.
func loginKey(kind, value string) string {
	sum := sha256.Sum256([]byte("quarry sign-in failures\x00" + kind + "\x00" + value))
	return kind + ":" + hex.EncodeToString(sum[:16])
}

// lockout is a failure counter and the failures that lock it.
type lockout struct {
	key  string
	max  int
	what string // "this name", "your address"
}

func loginLockouts(client, name string) []lockout {
	ls := []lockout{{loginKey("name", strings.ToLower(name)), MaxLoginFailures, "this name"}}
	if client != "" {
		ls = append(ls, lockout{loginKey("client", client), MaxClientFailures, "your address"})
	}
	return ls
}

// lockedOut returns RATE_LIMITED (a *RateLimited saying when the window
// ends) when any of ls has failed its max within the window.
func (s *Service) lockedOut(ctx context.Context, ls []lockout) error {
	now := s.now()
	for _, l := range ls {
		f, err := s.Store.LoginFailures(ctx, l.key, now, LoginFailureWindow)
		if err != nil {
			return err
		}
		if f.Count < l.max {
			continue
		}
		wait := f.Since.Add(LoginFailureWindow).Sub(now)
		secs := max(1, int(math.Ceil(wait.Seconds())))
		return &room.RateLimited{RetryAfter: secs, Err: quarry.Errorf(quarry.ECodeRateLimited, "too many failed sign-ins from %s", l.what).
			WithHint(fmt.Sprintf("try again in %d minutes", (secs+59)/60))}
	}
	return nil
}

// LoginFrom is Login for a sign-in from client (an address, or "" when
// there is none to count, as from the command line). Failures count
// against the name and the client; past MaxLoginFailures for the name or
// MaxClientFailures for the client within LoginFailureWindow, sign-ins
// are refused until the window ends. The password check waits for a turn
// among SignInLimits.Concurrent. Errors: UNAUTHORIZED as Login's,
// RATE_LIMITED (a *RateLimited with the seconds to wait) when locked out
// or when every turn is taken.
func (s *Service) LoginFrom(ctx context.Context, client, name, password string) (*room.User, error) {
	ctx = act(ctx, room.System)
	if len(password) > MaxPasswordBytes || len(name) > 200 {
		return nil, errLogin()
	}
	name = strings.TrimSpace(name)
	ls := loginLockouts(client, name)
	// A locked-out client is refused before it takes a turn or a place
	// in the queue, and again once it has one, for the failures counted
	// while it waited.
	if err := s.lockedOut(ctx, ls); err != nil {
		return nil, err
	}
	release, err := s.signInGate().enter(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.lockedOut(ctx, ls); err != nil {
		release()
		return nil, err
	}
	u, err := s.checkLogin(ctx, name, password)
	release()
	// The count must not depend on the client waiting for the answer.
	ctx = context.WithoutCancel(ctx)
	if quarry.ErrorCode(err) == quarry.ECodeUnauthorized {
		for _, l := range ls {
			if _, ferr := s.Store.FailLogin(ctx, l.key, s.now(), LoginFailureWindow); ferr != nil {
				return nil, ferr
			}
		}
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	// A success clears the name's failures, not the client's: signing in
	// to one account of one's own must not buy guesses at others.
	if err := s.Store.ClearLoginFailures(ctx, ls[0].key); err != nil {
		return nil, err
	}
	return u, nil
}
