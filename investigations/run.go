package investigations

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/investigate"
	"github.com/quarry-dev/quarry/internal/budget"
	"github.com/quarry-dev/quarry/internal/hub"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/retrieve"
)

// runState is one investigation running in the background.
type runState struct {
	cancel context.CancelFunc
	hub    *progress
}

// Investigate checks the investigation request and the metric against the
// session's files, then starts the investigation in the background and
// returns. Errors: NO_FILES_UPLOADED, METRIC_SQL_REQUIRED,
// INVALID_DATE_RANGE, INVALID_METRIC_SQL, UNSUPPORTED_METRIC,
// INVALID_TIME_COLUMN, INVALID for a column to ignore that no file has,
// CONFLICT when the session is not waiting to run.
// A rejected request leaves the session as it was.
func (m *Service) Investigate(ctx context.Context, id string, c investigation.Context) error {
	unlock := m.lock(id)
	defer unlock()
	// Claim the session before reading it, so that no other process can
	// start, finish or query it between the checks and the start.
	release, err := m.claim(id)
	if err != nil {
		return err
	}
	launched := false
	defer func() {
		if !launched {
			release()
		}
	}()
	s, err := m.active(ctx, id)
	if err != nil {
		return err
	}
	switch s.Status {
	case investigation.StatusCreated:
		return quarry.Errorf(quarry.ECodeNoFilesUploaded, "upload at least one CSV file before starting the investigation")
	case investigation.StatusHasFiles:
	default:
		return quarry.Errorf(quarry.ECodeConflict, "the investigation of this session has already %s", map[investigation.Status]string{
			investigation.StatusRunning: "started", investigation.StatusCompleted: "completed", investigation.StatusFailed: "failed",
		}[s.Status]).WithHint("start a new session to investigate again")
	}
	c.SessionID = id
	if err := c.Validate(); err != nil {
		return err
	}
	files, err := m.cfg.Store.Files(id)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return quarry.Errorf(quarry.ECodeNoFilesUploaded, "upload at least one CSV file before starting the investigation")
	}
	if _, err := c.IgnoredColumns(files); err != nil {
		return err
	}
	eng, err := m.preflight(ctx, files, &c)
	if err != nil {
		return err
	}
	defer func() {
		if !launched {
			eng.Close()
		}
	}()
	c.SubmittedAt = m.now()
	if err := m.cfg.Store.ReserveFailureNote(id); err != nil {
		return quarry.StorageError(err)
	}
	if err := m.cfg.Store.WriteJSON(id, "context.json", c); err != nil {
		return quarry.StorageError(err)
	}
	if err := s.Move(investigation.StatusRunning); err != nil {
		return err
	}
	started := m.now()
	s.StartedAt, s.Error = &started, nil

	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return quarry.Errorf(quarry.ECodeUnavailable, "the server is shutting down")
	}
	h := hub.New[investigation.Event]()
	m.hubs[id] = h
	if err := m.cfg.Store.SaveSession(s); err != nil {
		delete(m.hubs, id)
		return quarry.StorageError(err)
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	// The memory watchdog may end the run with RESOURCE_LIMIT.
	runCtx, unwatch := m.cfg.Guard.Watch(runCtx, "the investigation")
	m.runs[id] = &runState{cancel: cancel, hub: h}
	m.wg.Add(1)
	launched = true
	go func() {
		defer m.wg.Done()
		defer cancel()
		defer unwatch()
		m.run(runCtx, id, files, c, h, release, eng)
	}()
	return nil
}

// preflight loads the files (or takes the engine the uploads kept
// loaded) and parses the metric against them, so that a metric that
// cannot run is refused with its code before anything starts. It returns
// the loaded engine, for the run.
func (m *Service) preflight(ctx context.Context, files []*investigation.UploadedFile, c *investigation.Context) (*preloaded, error) {
	eng := m.takeLoaded(files[0].SessionID, files)
	if eng == nil {
		var err error
		if eng, err = m.loadFiles(ctx, files); err != nil {
			return nil, err
		}
	}
	metric, err := eng.ParseMetric(ctx, c.MetricSQL)
	if err == nil {
		_, err = eng.TimeColumn(ctx, metric, c.TimeColumn, c.TimeFormat)
	}
	if err != nil {
		eng.Close()
		return nil, err
	}
	return eng, nil
}

// run is the background investigation. Whatever happens, the session ends
// completed or failed, the run's claim is given up, and then the event
// stream ends with a "done" or "failed" event: whoever waits for the
// stream's end finds the session free.
func (m *Service) run(ctx context.Context, id string, files []*investigation.UploadedFile, c investigation.Context, h *progress, release func() error, eng *preloaded) {
	res, err := m.investigate(ctx, id, files, c, h, eng)
	if err == nil {
		err = m.index(context.WithoutCancel(ctx), id, res)
	}
	m.mu.Lock()
	delete(m.runs, id)
	m.mu.Unlock()

	unlock := m.lock(id)
	defer unlock()
	s, serr := m.cfg.Store.Session(id)
	if serr != nil { // deleted while running
		release()
		h.Close()
		return
	}
	finished := m.now()
	s.FinishedAt = &finished
	last := investigation.Event{Time: finished, Step: "done"}
	if err != nil {
		err = quarry.StorageError(err)
		switch {
		case ctx.Err() == nil:
		case quarry.ErrorCode(context.Cause(ctx)) == quarry.ECodeResourceLimit:
			// The memory watchdog ended it: say so, whatever step
			// noticed the cancellation first.
			err = budget.Cause(ctx, err)
		case quarry.ErrorCode(err) != quarry.ECodeRunInterrupted:
			err = quarry.Errorf(quarry.ECodeRunInterrupted, "the investigation was stopped before it finished")
		}
		s.Status, s.Error = investigation.StatusFailed, quarry.NewErrorInfo(err)
		last.Step, last.Message = "failed", s.Error.Message
		m.cfg.Log.Warn("investigation failed", "session", id, "code", s.Error.Code, "err", err)
	} else {
		s.Status, s.Outcome, s.ReportReady = investigation.StatusCompleted, res.Status, res.ReportPath != ""
		last.Message = fmt.Sprintf("%s with %d explanations", res.Status, len(res.Explanations))
	}
	saveErr := m.cfg.Store.SaveSession(s)
	if saveErr == nil && err == nil {
		// Kept for Wait, without the memory document, which the chat
		// index holds.
		kept := *res
		kept.Memory = nil
		m.mu.Lock()
		m.results[id] = &kept
		m.mu.Unlock()
	}
	if err := saveErr; err != nil {
		// The session stays "running" on disk. Say why it failed in the
		// space set aside for that, for the next start to report.
		info := s.Error
		if info == nil {
			info = quarry.NewErrorInfo(quarry.StorageError(fmt.Errorf("the investigation finished but its status could not be saved: %w", err)))
		}
		last.Step, last.Message = "failed", info.Message
		m.cfg.Log.Error("save session", "session", id, "err", err)
		if nerr := m.cfg.Store.NoteFailure(id, info); nerr != nil {
			m.cfg.Log.Error("note the failure", "session", id, "err", nerr)
		}
	} else if err := m.cfg.Store.NoteFailure(id, nil); err != nil {
		m.cfg.Log.Warn("empty the failure note", "session", id, "err", err)
	}
	release()
	h.Publish(last)
	h.Close()
}

// investigate runs the investigation on pre, the preflight's engine, or
// on a new one when it had to wait for a worker: a waiting run gives its
// engine's memory back.
func (m *Service) investigate(ctx context.Context, id string, files []*investigation.UploadedFile, c investigation.Context, h *progress, pre *preloaded) (*investigation.Result, error) {
	var eng investigate.Engine = pre
	queued := func() {
		eng.Close()
		eng = nil
		h.Publish(investigation.Event{Time: m.now(), Step: "queued", Message: "waiting for a free worker"})
	}
	if err := m.slots.Acquire(ctx, queued); err != nil {
		if eng != nil {
			eng.Close()
		}
		return nil, err
	}
	defer m.slots.Release()
	if eng == nil {
		var err error
		if eng, err = m.openEngine(ctx); err != nil {
			return nil, err
		}
	}
	defer eng.Close()

	log, err := m.cfg.OpenAudit(id)
	if err != nil {
		return nil, err
	}
	defer log.Close()
	out, err := m.artifacts(id)
	if err != nil {
		return nil, err
	}
	inv := &investigate.Investigator{Engine: eng, Out: out, Audit: log, Progress: h.Publish, Now: m.cfg.Now, Model: m.cfg.Model}
	if m.cfg.Model != nil && m.cfg.DialCode != nil {
		code, err := m.cfg.DialCode(ctx)
		if err != nil {
			m.cfg.Log.Warn("code sandbox unavailable; the model writes SQL only", "session", id, "err", err)
			h.Publish(investigation.Event{Time: m.now(), Step: "load", Message: "the code sandbox is unavailable; the model writes SQL only"})
		} else {
			defer code.Close()
			inv.Code = code
		}
	}
	return inv.Run(ctx, investigate.Input{SessionID: id, Files: files, Context: c})
}

// index puts the memory document and the report into the chat index.
func (m *Service) index(ctx context.Context, id string, res *investigation.Result) error {
	var chunks []retrieve.Chunk
	if res.Memory != nil {
		chunks = retrieve.MemoryChunks(*res.Memory)
	}
	if res.ReportPath != "" {
		if content, _, err := m.reportText(id); err == nil {
			chunks = append(chunks, retrieve.SplitMarkdown(id, "report.md", content)...)
		}
	}
	return m.cfg.Index.Put(ctx, id, chunks)
}

// Reindex puts into the chat index the completed sessions it lacks: those
// run by the command line (quarry investigate, quarry demo), or indexed in
// a quarry.db that has since been deleted. It returns how many it added.
func (m *Service) Reindex(ctx context.Context) (int, error) {
	all, err := m.cfg.Store.Sessions()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, s := range all {
		if s.Status != investigation.StatusCompleted {
			continue
		}
		// Every memory has a Context section naming the metric.
		if hits, err := m.cfg.Index.Search(ctx, s.SessionID, "metric", 1); err != nil || len(hits) > 0 {
			if err != nil {
				return n, err
			}
			continue
		}
		mem, err := readOptional[investigation.MemoryDocument](m.cfg.Store, s.SessionID, "analysis/memory.json")
		if err != nil || mem == nil {
			continue // a session from before memory.json existed: nothing to index
		}
		res := &investigation.Result{SessionID: s.SessionID, Memory: mem}
		if s.ReportReady {
			res.ReportPath = "report.md"
		}
		if err := m.index(ctx, s.SessionID, res); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// cancelRun stops a session's investigation, if one is running, and waits
// briefly for it to record its end.
func (m *Service) cancelRun(id string) {
	m.mu.Lock()
	r := m.runs[id]
	m.mu.Unlock()
	if r == nil {
		return
	}
	r.cancel()
	select {
	case <-r.hub.Done():
	case <-time.After(30 * time.Second):
	}
}

// Recover marks the sessions left running by a previous process failed:
// an investigation does not survive a restart, and a session must not
// claim to be running when nothing runs it.
func (m *Service) Recover(ctx context.Context) (int, error) {
	all, err := m.cfg.Store.Sessions()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, s := range all {
		if s.Status != investigation.StatusRunning {
			continue
		}
		m.mu.Lock()
		_, live := m.runs[s.SessionID]
		m.mu.Unlock()
		if live {
			continue
		}
		release, err := m.cfg.Store.ClaimRun(s.SessionID)
		if quarry.ErrorCode(err) == quarry.ECodeConflict {
			continue // another process is running it
		}
		if err != nil {
			return n, err
		}
		err = m.markInterrupted(s.SessionID)
		release()
		if errors.Is(err, errNotRunning) {
			continue // it finished between the listing and the claim
		}
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

var errNotRunning = errors.New("session not running")

// markInterrupted records that the investigation of session id stopped
// with the process that ran it. The caller holds the run's claim, so the
// session is read again: it may have finished since it was listed.
func (m *Service) markInterrupted(id string) error {
	s, err := m.cfg.Store.Session(id)
	if err != nil {
		return err
	}
	if s.Status != investigation.StatusRunning {
		return errNotRunning
	}
	now := m.now()
	s.Status, s.FinishedAt = investigation.StatusFailed, &now
	s.Error = quarry.NewErrorInfo(quarry.Errorf(quarry.ECodeRunInterrupted,
		"the server stopped while this investigation was running").WithHint("start a new session with the same files to run it again"))
	// A run whose end could not be saved (a full disk) said why.
	if note, err := m.cfg.Store.FailureNote(id); err != nil {
		m.cfg.Log.Warn("read the failure note", "session", id, "err", err)
	} else if note != nil {
		s.Error = note
	}
	if err := m.cfg.Store.SaveSession(s); err != nil {
		return quarry.StorageError(err)
	}
	if err := m.cfg.Store.NoteFailure(id, nil); err != nil {
		m.cfg.Log.Warn("empty the failure note", "session", id, "err", err)
	}
	return nil
}

// claim takes the session's run claim (Store.ClaimRun) for this process.
// Another process holds it while it runs the session's investigation or
// answers a query on it; either is CONFLICT, said in the user's terms.
func (m *Service) claim(id string) (release func() error, err error) {
	release, err = m.cfg.Store.ClaimRun(id)
	if quarry.ErrorCode(err) != quarry.ECodeConflict {
		return release, err
	}
	if s, serr := m.cfg.Store.Session(id); serr == nil && s.Status == investigation.StatusRunning {
		return nil, quarry.Errorf(quarry.ECodeConflict, "the investigation of session %s is running in another Quarry process", id)
	}
	return nil, quarry.Errorf(quarry.ECodeConflict, "session %s is in use by another Quarry process", id).WithHint("try again in a moment")
}

// notComplete is the error for reading results before they exist.
func notComplete(s *investigation.Investigation) error {
	msg := "the investigation has not finished"
	switch s.Status {
	case investigation.StatusCreated, investigation.StatusHasFiles:
		msg = "the investigation has not been started"
	case investigation.StatusFailed:
		msg = "the investigation failed"
		if s.Error != nil {
			msg += ": " + s.Error.Message
		}
	}
	return quarry.Errorf(quarry.ECodeInvestigationNotComplete, "%s", msg)
}
