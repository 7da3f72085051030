// Package investigations is the investigate job's service: the life of an
// investigation for the server, the MCP tools and the CLI alike: files in,
// the run in the background, progress out, the report and the chat after.
// It enforces the specification's state machine (created -> has_files ->
// running -> completed | failed; expired from any state) and works on
// contracts only: the store, the SQL engine, the audit log and the
// retrieval index are given to it.
package investigations

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/chat"
	"github.com/quarry-dev/quarry/agent/investigate"
	"github.com/quarry-dev/quarry/internal/budget"
	"github.com/quarry-dev/quarry/internal/runner"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/retrieve"
)

// Store keeps sessions and their artifacts; fsstore.Store implements it.
type Store interface {
	// CreateSession makes a session owned by the user ownerID ("" for
	// the local owner).
	CreateSession(ownerID string) (*investigation.Investigation, error)
	Session(id string) (*investigation.Investigation, error)
	SaveSession(s *investigation.Investigation) error
	Sessions() ([]*investigation.Investigation, error)
	AddFile(id, originalName, description string, r io.Reader) (*investigation.UploadedFile, error)
	SaveFile(f *investigation.UploadedFile) error
	File(id, fileID string) (*investigation.UploadedFile, error)
	Files(id string) ([]*investigation.UploadedFile, error)
	RemoveFile(id, fileID string) error
	Purge(id string) error
	DeleteSession(id string) error
	WriteJSON(id, rel string, v any) error
	WriteFile(id, rel string, data []byte) error
	ReadJSON(id, rel string, v any) error
	Path(id, rel string) (string, error)
	// ClaimRun marks the session's investigation as run by this process
	// until release is called; a claim held elsewhere is CONFLICT. See
	// fsstore.Store.ClaimRun.
	ClaimRun(id string) (release func() error, err error)
	// UpdateJSON reads rel into v, lets change modify it and writes it
	// back, exclusively across processes (fsstore.Store.UpdateJSON).
	UpdateJSON(id, rel string, v any, change func() error) error
	// ReserveFailureNote sets aside space for why a run failed, before it
	// starts; NoteFailure writes over it (nil empties it) when the
	// session's status cannot be saved, a full disk; FailureNote reads it
	// back at the next start (fsstore.Store.ReserveFailureNote).
	ReserveFailureNote(id string) error
	NoteFailure(id string, info *quarry.ErrorInfo) error
	FailureNote(id string) (*quarry.ErrorInfo, error)
}

// Audit is a session's open audit log.
type Audit interface {
	investigate.Auditor
	Close() error
}

// Config wires a Manager. Store, NewEngine, OpenAudit and Index are
// required.
type Config struct {
	Store Store
	// NewEngine opens an empty SQL engine for one investigation or one
	// upload check.
	NewEngine func() (investigate.Engine, error)
	// OpenAudit opens (or creates) the audit log of a session.
	OpenAudit func(sessionID string) (Audit, error)
	// TableName names the SQL table of an uploaded file, avoiding the
	// names in taken (duckdb.TableName).
	TableName func(fileName string, taken map[string]bool) string
	// Index holds the chat passages of finished investigations.
	Index retrieve.Index
	// MaxRunning bounds the investigations running at once; more wait
	// their turn (default 2). It sizes a private Runner when Runner is
	// nil.
	MaxRunning int
	// Runner, when set, is the process's bound on background work,
	// shared with analyses and researches.
	Runner *runner.Runner
	// MaxEngines bounds the SQL engines open at once, for investigations,
	// upload checks and queries together, so that the process's memory is
	// bounded by MaxEngines times an engine's memory limit; more wait
	// their turn (default MaxRunning+2).
	MaxEngines int
	// Budget, when set, is the pool of engine places the manager shares
	// with the rest of the process (the analyses); MaxEngines is then
	// ignored.
	Budget *budget.Pool
	// Guard, when set, is the process's memory watchdog: each
	// investigation and query registers with it for the time it runs, and
	// ends with RESOURCE_LIMIT if the Guard stops it.
	Guard *budget.Guard
	// Model, when set, takes part in investigations and answers chat from
	// the retrieved passages; nil is offline.
	Model llm.Model
	// DialCode, when set, connects one investigation to an external
	// code-execution sandbox; if it fails, the model writes SQL only.
	DialCode func(ctx context.Context) (CodeSession, error)
	Now      func() time.Time
	Log      *slog.Logger
}

// CodeSession is a connection to a code-execution sandbox for one
// investigation.
type CodeSession interface {
	investigate.CodeRunner
	Close() error
}

// Manager runs sessions. It is safe for concurrent use.
type Service struct {
	cfg   Config
	chat  *chat.Answerer
	facts chatFacts
	slots *runner.Runner
	locks sync.Map // session id -> *sync.Mutex
	// engines keeps loaded query engines for the next Query.
	engines engineCache
	// budget bounds the engines open at once.
	budget *budget.Pool

	mu   sync.Mutex
	runs map[string]*runState // running investigations
	hubs map[string]*progress // progress of the runs this process started
	// results are the results of the runs this process finished, for
	// Wait; they live as long as the runs' progress events.
	results map[string]*investigation.Result
	wg      sync.WaitGroup
	closed  bool
}

// New returns a Manager. Call Recover before serving and Close when done.
func New(cfg Config) *Service {
	if cfg.MaxRunning <= 0 {
		cfg.MaxRunning = 2
	}
	if cfg.MaxEngines <= 0 {
		cfg.MaxEngines = cfg.MaxRunning + 2
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	m := &Service{
		cfg:     cfg,
		chat:    &chat.Answerer{Index: cfg.Index, Model: cfg.Model},
		slots:   runner.Or(cfg.Runner, cfg.MaxRunning),
		budget:  cfg.Budget,
		runs:    map[string]*runState{},
		hubs:    map[string]*progress{},
		results: map[string]*investigation.Result{},
	}
	if m.budget == nil {
		m.budget = budget.New(cfg.MaxEngines)
	}
	m.chat.Data = m.chatData
	return m
}

// lock serializes the state changes of one session.
func (m *Service) lock(id string) func() {
	v, _ := m.locks.LoadOrStore(id, &sync.Mutex{})
	mu := v.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

func (m *Service) now() time.Time { return m.cfg.Now().UTC() }

// Create starts a new, empty session owned by the user ownerID: the
// signed-in user of the server, or "" for the local owner (the CLI, MCP,
// and sessions of single-user mode). The manager records the owner and
// answers every caller alike; the server shows a session only to its
// owner.
func (m *Service) Create(ctx context.Context, ownerID string) (*investigation.Investigation, error) {
	return m.cfg.Store.CreateSession(ownerID)
}

// Session returns a session's metadata. A session past its expiry time is
// reported as expired even before the sweeper has purged it.
func (m *Service) Session(ctx context.Context, id string) (*investigation.Investigation, error) {
	s, err := m.cfg.Store.Session(id)
	if err != nil {
		return nil, err
	}
	return m.observe(s), nil
}

// observe reports a session past its expiry time as expired, before the
// sweeper has purged it.
func (m *Service) observe(s *investigation.Investigation) *investigation.Investigation {
	if s.Status != investigation.StatusExpired && m.now().After(s.ExpiresAt) {
		s.Status = investigation.StatusExpired
	}
	return s
}

// Sessions lists every session, newest first.
func (m *Service) Sessions(ctx context.Context) ([]*investigation.Investigation, error) {
	all, err := m.cfg.Store.Sessions()
	if err != nil {
		return nil, err
	}
	out := make([]*investigation.Investigation, 0, len(all))
	for i := len(all) - 1; i >= 0; i-- {
		out = append(out, m.observe(all[i]))
	}
	return out, nil
}

// active returns the session if it may still change: not expired.
// Errors: SESSION_NOT_FOUND, SESSION_EXPIRED.
func (m *Service) active(ctx context.Context, id string) (*investigation.Investigation, error) {
	s, err := m.Session(ctx, id)
	if err != nil {
		return nil, err
	}
	if s.Status == investigation.StatusExpired {
		return nil, quarry.Errorf(quarry.ECodeSessionExpired, "session %s has expired; its files and results were deleted", id).
			WithHint("start a new session")
	}
	return s, nil
}

// Delete stops a session's run, if any, and removes the session with its
// files, index entries and chat history.
func (m *Service) Delete(ctx context.Context, id string) error {
	if _, err := m.cfg.Store.Session(id); err != nil {
		return err
	}
	m.cancelRun(id)
	unlock := m.lock(id)
	defer unlock()
	release, err := m.claim(id)
	if err != nil {
		return err
	}
	defer release()
	if err := m.cfg.Index.Delete(ctx, id); err != nil {
		return err
	}
	m.dropEvents(id)
	m.engines.drop(id)
	m.facts.drop(id)
	return m.cfg.Store.DeleteSession(id)
}

// Drain waits, without cancelling them, for the investigations this
// process runs to end, or for ctx to be done. A one-shot MCP client that
// starts an investigation and disconnects must not see it interrupted.
// It returns the number still running when it gave up.
func (m *Service) Drain(ctx context.Context) int {
	done := make(chan struct{})
	go func() {
		m.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return 0
	case <-ctx.Done():
		m.mu.Lock()
		defer m.mu.Unlock()
		return len(m.runs)
	}
}

// Close cancels the running investigations and waits for them to record
// their failure.
func (m *Service) Close() error {
	m.mu.Lock()
	m.closed = true
	for _, r := range m.runs {
		r.cancel()
	}
	m.mu.Unlock()
	m.wg.Wait()
	m.engines.close()
	return nil
}
