package budget

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestPool(t *testing.T) {
	p := New(2)
	ctx := context.Background()
	if err := p.Acquire(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.Acquire(ctx, nil); err != nil {
		t.Fatal(err)
	}
	// Full: an idle engine closed by evict gives its place.
	idle := 1
	evict := func() bool {
		if idle == 0 {
			return false
		}
		idle--
		p.Release()
		return true
	}
	if err := p.Acquire(ctx, evict); err != nil || idle != 0 {
		t.Fatalf("Acquire with an idle engine to evict = %v (idle %d)", err, idle)
	}
	// Full and nothing to evict: the caller waits until its context ends,
	// and is counted as waiting meanwhile.
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- p.Acquire(short, nil) }()
	deadline := time.Now().Add(time.Second)
	for !p.Crowded() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if !p.Crowded() {
		t.Error("a waiting caller does not make the pool crowded")
	}
	if err := <-done; !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Acquire on a full pool = %v; want the context's end", err)
	}
	// A place given back goes to the next caller.
	go func() { time.Sleep(20 * time.Millisecond); p.Release() }()
	if err := p.Acquire(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if p.Crowded() {
		t.Error("crowded with nobody waiting")
	}
}
