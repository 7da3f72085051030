package hub

import "testing"

type event struct {
	Step      string
	Iteration int
}

func TestHubReplaysAndEnds(t *testing.T) {
	h := New[event]()
	h.Publish(event{Step: "load"})
	past, live, cancel := h.Subscribe()
	defer cancel()
	if len(past) != 1 || past[0].Step != "load" {
		t.Fatalf("late subscriber replayed %v", past)
	}
	h.Publish(event{Step: "loop", Iteration: 1})
	if e := <-live; e.Iteration != 1 {
		t.Fatalf("live event %v", e)
	}
	h.Close()
	if _, ok := <-live; ok {
		t.Fatal("the channel stays open after the run ended")
	}
	past, live, _ = h.Subscribe()
	if _, ok := <-live; ok || len(past) != 2 {
		t.Fatalf("after the end: %d past events, channel open %v", len(past), ok)
	}
	h.Publish(event{Step: "late"}) // after close: ignored, no panic
}

func TestHubDropsSlowSubscriber(t *testing.T) {
	h := New[event]()
	_, slow, _ := h.Subscribe()
	_, fast, cancel := h.Subscribe()
	defer cancel()
	got := 0
	for i := range subscriberBuffer + 10 {
		h.Publish(event{Iteration: i})
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
