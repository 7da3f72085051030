package investigations

import (
	"testing"
	"time"

	"github.com/quarry-dev/quarry/agent/investigate"
)

// fakeEngine counts its Close calls; nothing else of it is used.
type fakeEngine struct {
	investigate.Engine
	name   string
	closes int
}

func (f *fakeEngine) Close() error { f.closes++; return nil }

func TestEngineCache(t *testing.T) {
	t0 := time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)
	a, b, c := &fakeEngine{name: "a"}, &fakeEngine{name: "b"}, &fakeEngine{name: "c"}
	var cache engineCache

	cache.put("s1", "f1", a, t0)
	if got := cache.take("s1", "other files", t0); got != nil {
		t.Fatalf("take with other files = %v; want nil", got)
	}
	if a.closes != 1 {
		t.Fatalf("the engine of the session's old files was closed %d times; want 1", a.closes)
	}

	cache.put("s1", "f1", b, t0)
	cache.put("s2", "f2", c, t0.Add(time.Minute))
	if got := cache.take("s1", "f1", t0.Add(2*time.Minute)); got != b {
		t.Fatalf("take = %v; want engine b", got)
	}
	if b.closes != 0 {
		t.Fatal("an engine taken out of the cache was closed")
	}
	// Taken engines are out of the cache: filling it does not close b.
	d, e := &fakeEngine{name: "d"}, &fakeEngine{name: "e"}
	cache.put("s3", "f3", d, t0.Add(3*time.Minute))
	cache.put("s4", "f4", e, t0.Add(4*time.Minute))
	if b.closes != 0 || c.closes != 1 || d.closes != 0 || e.closes != 0 {
		t.Fatalf("closes b=%d c=%d d=%d e=%d; want only the least recently used (c) closed", b.closes, c.closes, d.closes, e.closes)
	}

	cache.drop("s3")
	if d.closes != 1 {
		t.Fatalf("drop closed d %d times; want 1", d.closes)
	}
	if got := cache.take("s9", "f9", t0.Add(4*time.Minute+engineIdle+time.Second)); got != nil || e.closes != 1 {
		t.Fatalf("take left another session's idle engine open (%d closes)", e.closes)
	}
	f := &fakeEngine{name: "f"}
	cache.put("s6", "f6", f, t0)
	cache.closeIdle(t0.Add(engineIdle))
	if f.closes != 0 {
		t.Fatal("closeIdle closed an engine used exactly engineIdle ago")
	}
	cache.closeIdle(t0.Add(engineIdle + time.Second))
	if f.closes != 1 || len(cache.entries) != 0 {
		t.Fatalf("closeIdle: f closed %d times, %d cached; want 1, 0", f.closes, len(cache.entries))
	}

	cache.put("s1", "f1", b, t0)
	cache.close()
	late := &fakeEngine{name: "late"}
	cache.put("s5", "f5", late, t0)
	if b.closes != 1 || late.closes != 1 || len(cache.entries) != 0 {
		t.Fatalf("after close: b closed %d, late closed %d, %d cached; want 1, 1, 0", b.closes, late.closes, len(cache.entries))
	}
}
