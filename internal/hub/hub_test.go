package sessions

import (
	"testing"

	"github.com/quarry-dev/quarry/agent/investigate"
)

func TestHubReplaysAndEnds(t *testing.T) {
	h := newHub()
	h.publish(investigate.Event{Step: "load"})
	past, live, cancel := h.subscribe()
	defer cancel()
	if len(past) != 1 || past[0].Step != "load" {
		t.Fatalf("late subscriber replayed %v", past)
	}
	h.publish(investigate.Event{Step: "loop", Iteration: 1})
	if e := <-live; e.Iteration != 1 {
		t.Fatalf("live event %v", e)
	}
	h.close()
	if _, ok := <-live; ok {
		t.Fatal("the channel stays open after the run ended")
	}
	past, live, _ = h.subscribe()
	if _, ok := <-live; ok || len(past) != 2 {
		t.Fatalf("after the end: %d past events, channel open %v", len(past), ok)
	}
	h.publish(investigate.Event{Step: "late"}) // after close: ignored, no panic
}

func TestHubDropsSlowSubscriber(t *testing.T) {
	h := newHub()
	_, slow, _ := h.subscribe()
	_, fast, cancel := h.subscribe()
	defer cancel()
	got := 0
	for i := range subscriberBuffer + 10 {
		h.publish(investigate.Event{Iteration: i})
		<-fast // keeps up
		got++
	}
	n := 0
	for range slow {
		n++
	}
	if n != subscriberBuffer || got != subscriberBuffer+10 {
		t.Fatalf("slow subscriber got %d events before being dropped (buffer %d); fast got %d", n, subscriberBuffer, got)
	}
}
