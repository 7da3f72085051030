package runner

import (
	"context"
	"errors"
	"testing"
)

func TestAcquireWaitsForRelease(t *testing.T) {
	r := New(1)
	if err := r.Acquire(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	queued := make(chan struct{})
	got := make(chan error, 1)
	go func() { got <- r.Acquire(context.Background(), func() { close(queued) }) }()
	<-queued
	select {
	case err := <-got:
		t.Fatalf("second Acquire returned %v while the only slot was held", err)
	default:
	}
	r.Release()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	if r.TryAcquire() {
		t.Fatal("TryAcquire took a slot the second Acquire holds")
	}
	r.Release()
	if !r.TryAcquire() {
		t.Fatal("TryAcquire found no slot after both were released")
	}
}

func TestAcquireHonoursCancel(t *testing.T) {
	r := New(1)
	r.TryAcquire()
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan error, 1)
	go func() { got <- r.Acquire(ctx, cancel) }()
	if err := <-got; !errors.Is(err, context.Canceled) {
		t.Fatalf("Acquire = %v, want context.Canceled", err)
	}
	r.Release()
	if !r.TryAcquire() {
		t.Fatal("a cancelled Acquire kept a slot")
	}
}

func TestDefaults(t *testing.T) {
	if got := New(0).Max(); got != DefaultMax {
		t.Fatalf("New(0).Max() = %d, want %d", got, DefaultMax)
	}
	r := New(3)
	if Or(r, 1) != r {
		t.Fatal("Or replaced a given Runner")
	}
	if got := Or(nil, 5).Max(); got != 5 {
		t.Fatalf("Or(nil, 5).Max() = %d", got)
	}
}
