package investigations

import (
	"context"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// EmptySessionTimeout is how long a session without files is kept: a form
// opened and left does not stay on the home page for a day.
const EmptySessionTimeout = time.Hour

// Sweep deletes sessions that got no file within EmptySessionTimeout, and
// expires the sessions past their expiry time: a running
// investigation is stopped, and the session's files, artifacts, index
// entries and chat history are deleted. metadata.json stays behind with
// status expired, so the session's ID answers SESSION_EXPIRED rather than
// SESSION_NOT_FOUND. It also closes the query engines left idle. It
// returns how many sessions it expired.
func (m *Service) Sweep(ctx context.Context) (int, error) {
	m.engines.closeIdle(m.now())
	all, err := m.cfg.Store.Sessions()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, s := range all {
		if s.Status == investigation.StatusCreated && m.now().Sub(s.CreatedAt) > EmptySessionTimeout {
			// Opened and abandoned before any upload: nothing to keep.
			if err := m.Delete(ctx, s.SessionID); err != nil && quarry.ErrorCode(err) != quarry.ECodeConflict {
				return n, err
			}
			n++
			continue
		}
		if s.Status == investigation.StatusExpired || !m.now().After(s.ExpiresAt) {
			continue
		}
		expired, err := m.expire(ctx, s.SessionID)
		if err != nil {
			return n, err
		}
		if expired {
			n++
		}
	}
	return n, nil
}

// expire stops session id's run in this process and purges the session. A
// session another process is running or querying is left for a later
// sweep; expire then reports false.
func (m *Service) expire(ctx context.Context, id string) (bool, error) {
	m.cancelRun(id)
	unlock := m.lock(id)
	defer unlock()
	release, err := m.claim(id)
	if quarry.ErrorCode(err) == quarry.ECodeConflict {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer release()
	s, err := m.cfg.Store.Session(id)
	if err != nil {
		return false, err
	}
	if err := m.cfg.Index.Delete(ctx, id); err != nil {
		return false, err
	}
	m.dropEvents(id)
	m.engines.drop(id)
	m.facts.drop(id)
	if err := m.cfg.Store.Purge(id); err != nil {
		return false, err
	}
	if err := s.Move(investigation.StatusExpired); err != nil {
		return false, err
	}
	s.FileCount, s.ReportReady = 0, false
	return true, m.cfg.Store.SaveSession(s)
}

// SweepEvery runs Sweep every interval until ctx is done.
func (m *Service) SweepEvery(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if n, err := m.Sweep(ctx); err != nil {
			m.cfg.Log.Error("expiry sweep", "err", err)
		} else if n > 0 {
			m.cfg.Log.Info("expired sessions", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
