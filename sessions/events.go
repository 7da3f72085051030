package sessions

import (
	"context"
	"sync"

	"github.com/quarry-dev/quarry/agent/investigate"
)

// hub keeps the progress events of one investigation and fans them out to
// subscribers. Past events are replayed to late subscribers, so a page
// opened mid-run shows everything from the start.
type hub struct {
	mu     sync.Mutex
	past   []investigate.Event
	subs   map[chan investigate.Event]struct{}
	done   chan struct{}
	closed bool
}

// subscriberBuffer is how many events a slow subscriber may fall behind
// before it is dropped; it can reconnect and replay.
const subscriberBuffer = 256

func newHub() *hub {
	return &hub{subs: map[chan investigate.Event]struct{}{}, done: make(chan struct{})}
}

func (h *hub) publish(e investigate.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.past = append(h.past, e)
	for c := range h.subs {
		select {
		case c <- e:
		default: // too slow: drop it rather than stall the investigation
			delete(h.subs, c)
			close(c)
		}
	}
}

func (h *hub) close() {
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

// subscribe returns the events so far and a channel of the ones to come,
// closed when the run ends; cancel stops the subscription.
func (h *hub) subscribe() (past []investigate.Event, live <-chan investigate.Event, cancel func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	past = append([]investigate.Event(nil), h.past...)
	c := make(chan investigate.Event, subscriberBuffer)
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

// Subscribe returns the progress events of a session's investigation so
// far and a channel of the ones to come, closed when the run ends. For a
// session that is not running the channel is closed at once; past holds
// the events of a run this process saw, if any.
func (m *Manager) Subscribe(ctx context.Context, id string) (past []investigate.Event, live <-chan investigate.Event, cancel func(), err error) {
	if _, err := m.cfg.Store.Session(id); err != nil {
		return nil, nil, nil, err
	}
	m.mu.Lock()
	h := m.hubs[id]
	m.mu.Unlock()
	if h == nil {
		c := make(chan investigate.Event)
		close(c)
		return nil, c, func() {}, nil
	}
	past, live, cancel = h.subscribe()
	return past, live, cancel, nil
}

func (m *Manager) dropEvents(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.hubs, id)
}
