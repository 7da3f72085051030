package investigations

import (
	"context"
	"slices"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/hub"
	"github.com/quarry-dev/quarry/investigation"
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
	delete(m.results, id)
}

// Wait waits for the investigation of session id, run by this process, to
// end and returns its result: the whole of it, which the API serves in
// parts (Report, Explanations) and the command line prints at once. A
// failed investigation returns its recorded error, with its code and
// hint. Errors besides: SESSION_NOT_FOUND, SESSION_EXPIRED,
// INVESTIGATION_NOT_COMPLETE before the investigation was started,
// CONFLICT while another process runs it, NOT_FOUND for a result this
// process does not hold (another process ran it), ctx's error when ctx
// ends first.
func (m *Service) Wait(ctx context.Context, id string) (*investigation.Result, error) {
	if _, err := m.cfg.Store.Session(id); err != nil {
		return nil, err
	}
	m.mu.Lock()
	h := m.hubs[id]
	m.mu.Unlock()
	if h != nil {
		select {
		case <-h.Done():
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	s, err := m.active(ctx, id)
	if err != nil {
		return nil, err
	}
	switch s.Status {
	case investigation.StatusFailed:
		if s.Error == nil {
			return nil, notComplete(s)
		}
		return nil, &quarry.Error{Code: s.Error.Code, Message: s.Error.Message, Hint: s.Error.Hint}
	case investigation.StatusRunning:
		return nil, quarry.Errorf(quarry.ECodeConflict, "the investigation of session %s is running in another Quarry process", id)
	case investigation.StatusCompleted:
		m.mu.Lock()
		res := m.results[id]
		m.mu.Unlock()
		if res == nil {
			return nil, quarry.Errorf(quarry.ECodeNotFound, "the whole result of session %s is held only by the process that ran it", id).
				WithHint("read its report and explanations")
		}
		c := *res
		c.Explanations = slices.Clone(res.Explanations)
		c.Warnings = slices.Clone(res.Warnings)
		return &c, nil
	}
	return nil, notComplete(s)
}
