// Package hub keeps the progress events of one background run (an
// investigation, an analysis) and fans them out to subscribers. Past
// events are replayed to late subscribers, so a page opened mid-run shows
// everything from the start; a subscriber too slow to keep up is dropped
// rather than stalling the run, and may reconnect and replay.
package hub

import "sync"

// Hub is the event stream of one run. It is safe for concurrent use.
type Hub[E any] struct {
	mu     sync.Mutex
	past   []E
	subs   map[chan E]struct{}
	done   chan struct{}
	closed bool
}

// subscriberBuffer is how many events a slow subscriber may fall behind
// before it is dropped.
const subscriberBuffer = 256

// New returns an open hub.
func New[E any]() *Hub[E] {
	return &Hub[E]{subs: map[chan E]struct{}{}, done: make(chan struct{})}
}

// Publish records e and sends it to every subscriber.
func (h *Hub[E]) Publish(e E) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.past = append(h.past, e)
	for c := range h.subs {
		select {
		case c <- e:
		default: // too slow: drop it rather than stall the run
			delete(h.subs, c)
			close(c)
		}
	}
}

// Close ends the stream: every subscriber's channel closes, and Done.
func (h *Hub[E]) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.closed = true
	for c := range h.subs {
		close(c)
	}
	h.subs = nil
	close(h.done)
}

// Done is closed when the stream ends.
func (h *Hub[E]) Done() <-chan struct{} { return h.done }

// Subscribe returns the events so far and a channel of the ones to come,
// closed when the run ends; cancel stops the subscription.
func (h *Hub[E]) Subscribe() (past []E, live <-chan E, cancel func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	past = append([]E(nil), h.past...)
	c := make(chan E, subscriberBuffer)
	if h.closed {
		close(c)
		return past, c, func() {}
	}
	h.subs[c] = struct{}{}
	return past, c, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if _, ok := h.subs[c]; ok {
			delete(h.subs, c)
			close(c)
		}
	}
}
