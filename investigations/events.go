package investigations

import (
	"context"

	"github.com/quarry-dev/quarry/investigation"

	"github.com/quarry-dev/quarry/internal/hub"
)

// progress is the event stream of one investigation.
type progress = hub.Hub[investigation.Event]

// Subscribe returns the progress events of a session's investigation so
// far and a channel of the ones to come, closed when the run ends. For a
// session that is not running the channel is closed at once; past holds
// the events of a run this process saw, if any.
func (m *Service) Subscribe(ctx context.Context, id string) (past []investigation.Event, live <-chan investigation.Event, cancel func(), err error) {
	if _, err := m.cfg.Store.Session(id); err != nil {
		return nil, nil, nil, err
	}
	m.mu.Lock()
	h := m.hubs[id]
	m.mu.Unlock()
	if h == nil {
		c := make(chan investigation.Event)
		close(c)
		return nil, c, func() {}, nil
	}
	past, live, cancel = h.Subscribe()
	return past, live, cancel, nil
}

func (m *Service) dropEvents(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.hubs, id)
}
