// Package researches is the service of the research job, beside rooms,
// analyses and sessions: it runs research requests over data rooms and
// the web for the server and the MCP tools, in the background or to
// their end, within the process's shared bound on background work
// (internal/runner), keeps their results in a Store, writes each
// research's tool calls, model calls and decisions to a hash-chained
// audit log, and counts a research over a room against the user's
// question quota in that room, as a question asked there. It talks to
// the rooms, the web, the store and the log through the interfaces
// below; internal/app wires the concrete ones.
package researches

import (
	"cmp"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/quarry-dev/quarry"
	agent "github.com/quarry-dev/quarry/agent/research"
	"github.com/quarry-dev/quarry/internal/hub"
	"github.com/quarry-dev/quarry/internal/runner"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/research"
)

// Store is where research results are kept (sqlite.Research,
// postgres.Research), with connections to close.
type Store interface {
	research.Store
	Close() error
}

// Rooms opens data rooms for research through their membership checks
// (app.ResearchRooms over rooms.Service).
type Rooms interface {
	// OpenCorpus checks that userID may read the room idOrName and
	// returns the room's id and the room as a corpus; its searches check
	// membership again. Errors: NOT_FOUND for a room that does not exist
	// or that userID is not a member of, EMPTY_FILE for a room without a
	// processed document.
	OpenCorpus(ctx context.Context, userID, idOrName string) (roomID string, c agent.Corpus, err error)
	// TakeQuestion counts one question of userID in the room roomID
	// against the room's hourly limit (rooms.Service.TakeQuestion).
	// Errors: RATE_LIMITED as *room.RateLimited, with when to try again.
	TakeQuestion(ctx context.Context, userID, roomID string) error
}

// WebCorpus is the web as a source (app.WebCorpus): one a research, as it
// keeps that research's pages and failures.
type WebCorpus interface {
	// Failures are the pages and searches that failed so far.
	agent.FailingCorpus
	// Name names the web with its provider, "the web (SearxNG at ...)".
	Name() string
}

// Log is the researches' open audit log (audit.Log, opened with
// audit.OpenShared: several processes may append to it).
type Log interface {
	AppendFor(requestID, eventType, actor string, data map[string]any) (quarry.AuditEntry, error)
	Close() error
}

// Config wires a Service. Store is required.
type Config struct {
	Store Store
	// Rooms opens the rooms researched; nil allows research over the web
	// alone.
	Rooms Rooms
	// Model is the model researches run with, read as each one starts
	// (the rooms' model, which quarry serve and mcp configure for both);
	// nil, or nil returned, runs research offline.
	Model func() llm.Model
	// Runner is the process's bound on background work, shared with
	// investigations and analyses: a research waits for a slot before it
	// plans. Nil makes a private one of runner.DefaultMax slots.
	Runner *runner.Runner
	// OpenLog opens the audit log (DATA_DIR/logs/research.jsonl); each
	// research opens it while it runs. Nil writes no audit log.
	OpenLog func() (Log, error)
	// RunDir holds a lock file per research running in the background,
	// held by the process running it (see claimRun); the wiring puts it
	// in the data dir, shared by the processes of a deployment. Empty, a
	// research cut short by its process's death keeps the status it was
	// saved with.
	RunDir string
	// WebHint says how to configure a web search provider, for the error
	// of a research over the web on a server without one.
	WebHint string
	Now     func() time.Time
	// Log hears the failures of background researches.
	Log *slog.Logger
}

// Service runs research requests over data rooms, and the web when a
// search provider is configured (UseWeb). Each research belongs to the
// user who asked: to anyone else it is NOT_FOUND, like a room they are
// not in.
//
// A research started in the background (Start) keeps its stages in a hub
// for late subscribers; the last keptRuns finished ones stay in memory, so
// their events replay, and older ones are read from the store.
type Service struct {
	cfg   Config
	store Store
	// openWeb opens the web as a source, nil without a provider;
	// webName names it.
	openWeb func() (WebCorpus, error)
	webName string
	log     *slog.Logger
	now     func() time.Time
	slots   *runner.Runner

	ctx    context.Context // background runs stop when it is cancelled
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	runs     map[string]*researchRun
	finished []string // ids of finished runs still in runs, oldest first
}

// keptRuns is how many finished background runs keep their events in
// memory.
const keptRuns = 256

// researchRun is one research in memory.
type researchRun struct {
	userID string
	events *hub.Hub[research.Stage]
	// Guarded by Service.mu: the request as of its last stage, and
	// the result once the run ends (a failed one's result so far); end
	// is the final stage the research reported, held back until its
	// result is kept.
	request research.Request
	result  *research.Result
	end     *research.Stage
}

// New returns a Service over cfg.Store, which it closes on Close.
func New(cfg Config) *Service {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Service{cfg: cfg, store: cfg.Store, log: cfg.Log, now: cfg.Now, slots: runner.Or(cfg.Runner, runner.DefaultMax),
		ctx: ctx, cancel: cancel, runs: map[string]*researchRun{}}
}

// claimRun takes the lock of research id in RunDir: while one process
// holds it, another's claim answers false. The operating system drops
// the lock of a process that dies, so a research saved unfinished whose
// lock can be taken was cut short by its process's end. Without RunDir
// every claim is nil and granted.
func (s *Service) claimRun(id string) (*flock.Flock, bool, error) {
	if s.cfg.RunDir == "" {
		return nil, true, nil
	}
	if err := os.MkdirAll(s.cfg.RunDir, 0o755); err != nil {
		return nil, false, err
	}
	lock := flock.New(filepath.Join(s.cfg.RunDir, id+".lock"))
	ok, err := lock.TryLock()
	if err != nil || !ok {
		return nil, false, err
	}
	return lock, true, nil
}

// release gives a claim up and removes its file.
func release(lock *flock.Flock) {
	if lock == nil {
		return
	}
	os.Remove(lock.Path())
	lock.Close()
}

// interruptedMessage is the error of a research whose process stopped
// before it ended. It is recorded as failed rather than run again by
// itself: a research may have cost a model's time, and the user asks
// again when they want it.
const interruptedMessage = "the server stopped before this research ended (" + quarry.ECodeRunInterrupted + "); ask it again"

// finished reports whether a research with status has ended.
func finished(status research.Status) bool {
	return status == research.StatusCompleted || status == research.StatusFailed
}

// Close stops the running researches, waits for them and closes the
// store.
func (s *Service) Close() error {
	s.cancel()
	s.wg.Wait()
	return s.store.Close()
}

// UseWeb lets researches search the web (research over the web asked
// with web: true): open gives a new corpus of the web for each research,
// and name names it ("the web (SearxNG at ...)"). Set it before the
// first research; app.ResearchWeb checks a provider's settings and calls
// it.
func (s *Service) UseWeb(name string, open func() (WebCorpus, error)) {
	s.openWeb, s.webName = open, name
}

// SetLog makes l hear the failures of background researches (quarry
// serve makes its logger after the service); call it before the first
// research.
func (s *Service) SetLog(l *slog.Logger) {
	if l != nil {
		s.log = l
	}
}

// WebSource names the web as a source ("the web (SearxNG at ...)"), ""
// when no provider is configured.
func (s *Service) WebSource() string { return s.webName }

// prepared is a research checked and ready to run: its request, its
// researcher, the room it takes a question from, and the sources it
// searches, for the audit log.
type prepared struct {
	req    *research.Request
	r      *agent.Researcher
	roomID string
	web    WebCorpus
	trail  *trail
}

// prepare checks the request, opens its sources for userID (the room
// roomName when it is set, and the web when web is) and takes a question
// from userID's quota in that room; nothing runs yet. Errors: INVALID
// for a question outside 10-500 characters or an unknown depth, for
// neither a room nor the web, and for the web when no provider is
// configured (naming the settings); NOT_FOUND for a room userID is not a
// member of, EMPTY_FILE for a room without a processed document,
// RATE_LIMITED (*room.RateLimited) when userID has asked the room's
// hourly limit of questions, a research counting as one.
func (s *Service) prepare(ctx context.Context, userID, question, depth, roomName string, web bool, folder *agent.Source) (*prepared, error) {
	req, err := research.NewRequest(question, depth, s.now())
	if err != nil {
		return nil, err
	}
	roomName = strings.TrimSpace(roomName)
	if roomName == "" && !web && folder == nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "name the data room to research, or the web, or both")
	}
	p := &prepared{req: req}
	if web {
		if s.openWeb == nil {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "this server has no web search provider, so it cannot research the web").
				WithHint("start it with " + s.cfg.WebHint + " set, or with a config file's web section; see 'quarry help config'")
		}
		// One corpus a research: it keeps that research's pages and
		// failures.
		if p.web, err = s.openWeb(); err != nil {
			return nil, err
		}
	}
	p.trail = &trail{id: req.ID, userID: userID}
	var sources []agent.Source
	if roomName != "" {
		if s.cfg.Rooms == nil {
			return nil, quarry.Errorf(quarry.ECodeNotFound, "room %s not found", roomName)
		}
		roomID, c, err := s.cfg.Rooms.OpenCorpus(ctx, userID, roomName)
		if err != nil {
			return nil, err
		}
		// A research over a room is a question asked there: it counts
		// against the same hourly limit as ask, once it is accepted.
		if err := s.cfg.Rooms.TakeQuestion(ctx, userID, roomID); err != nil {
			return nil, err
		}
		p.roomID = roomID
		// The room's permissions stop the research, as they do without
		// the web.
		sources = append(sources, agent.Source{Name: "the room " + roomName,
			Corpus: p.trail.corpus("room_search", "the room "+roomName, c), Required: true})
	}
	if folder != nil {
		// A folder on this machine (quarry research --corpus) has no
		// members to check and no quota to take; its searches are
		// audited as a room's are.
		sources = append(sources, agent.Source{Name: folder.Name,
			Corpus: p.trail.corpus("folder_search", folder.Name, folder.Corpus), Required: true})
	}
	req.UserID = userID
	model := p.trail.model(s.model())
	if p.web == nil {
		p.r = &agent.Researcher{Corpus: sources[0].Corpus, Now: s.now, Model: model}
		return p, nil
	}
	// The web is never required: a provider that fails is left out, and
	// the report says so.
	sources = append(sources, agent.Source{Name: p.web.Name(), Corpus: p.trail.corpus("web_search", p.web.Name(), p.web)})
	p.r = &agent.Researcher{Corpus: agent.NewSources(sources...), Now: s.now, Model: model}
	return p, nil
}

// model is the model researches run with, nil for none: research is
// then offline.
func (s *Service) model() llm.Model {
	if s.cfg.Model == nil {
		return nil
	}
	return s.cfg.Model()
}

// Research runs a research for userID over the room roomName (id or
// name; "" for none) and, when web is set, the web, to its end and
// returns the saved result; progress, when set, hears each stage. It
// waits for a slot of the shared runner first. Errors: those of prepare,
// and the research's own (UNAVAILABLE when ctx ends first or every
// source failed).
func (s *Service) Research(ctx context.Context, userID, question, depth, roomName string, web bool, progress func(research.Stage)) (*research.Result, error) {
	return s.research(ctx, userID, question, depth, roomName, web, nil, progress)
}

// ResearchFolder is Research over folder, a folder of documents on this
// machine indexed as a corpus (quarry research --corpus), and the web
// when web is set: the same checks, runner, audit trail and store as a
// room's research, without a room's members or quota.
func (s *Service) ResearchFolder(ctx context.Context, userID, question, depth string, folder agent.Source, web bool, progress func(research.Stage)) (*research.Result, error) {
	return s.research(ctx, userID, question, depth, "", web, &folder, progress)
}

func (s *Service) research(ctx context.Context, userID, question, depth, roomName string, web bool, folder *agent.Source, progress func(research.Stage)) (*research.Result, error) {
	p, err := s.prepare(ctx, userID, question, depth, roomName, web, folder)
	if err != nil {
		return nil, err
	}
	queued := func() {
		if progress != nil {
			progress(research.Stage{Status: p.req.Status, Message: queuedMessage})
		}
	}
	if err := s.slots.Acquire(ctx, queued); err != nil {
		return nil, quarry.Errorf(quarry.ECodeUnavailable, "the research was cancelled while it waited for a free worker")
	}
	log := s.openLog(p)
	defer func() {
		s.closeLog(p.req.ID, log)
		s.slots.Release()
	}()
	p.r.Progress = func(st research.Stage) {
		p.trail.stage(st)
		if progress != nil {
			progress(st)
		}
	}
	res, err := p.r.Run(ctx, p.req)
	p.trail.decisions(res, p.req, p.web, err)
	if err != nil {
		return nil, err
	}
	if err := s.store.Save(ctx, res); err != nil {
		return nil, err
	}
	return res, nil
}

// queuedMessage is the stage a research publishes while it waits for a
// free worker; its status stays planning, the first of the
// specification's states.
const queuedMessage = "queued: waiting for a free worker"

// Start checks the request and opens the room as Research does, then
// runs the research in the background and returns its request at once.
func (s *Service) Start(ctx context.Context, userID, question, depth, roomName string) (*research.Request, error) {
	return s.start(ctx, userID, question, depth, roomName, false)
}

// StartWeb is Start over the room roomName ("" for none) and the web.
// Errors: those of Start, and INVALID when no provider is configured.
func (s *Service) StartWeb(ctx context.Context, userID, question, depth, roomName string) (*research.Request, error) {
	return s.start(ctx, userID, question, depth, roomName, true)
}

func (s *Service) start(ctx context.Context, userID, question, depth, roomName string, web bool) (*research.Request, error) {
	p, err := s.prepare(ctx, userID, question, depth, roomName, web, nil)
	if err != nil {
		return nil, err
	}
	req, r := p.req, p.r
	// The research is saved, and claimed, before its id is given out:
	// after a restart the id reads as what became of it, never as
	// NOT_FOUND.
	claim, ok, err := s.claimRun(req.ID)
	if err != nil || !ok {
		if err == nil {
			err = quarry.Errorf(quarry.ECodeConflict, "research %s is run by another process", req.ID)
		}
		return nil, err
	}
	saved := *req
	if err := s.store.Save(ctx, &research.Result{Request: &saved}); err != nil {
		release(claim)
		return nil, err
	}
	run := &researchRun{userID: userID, events: hub.New[research.Stage](), request: *req}
	s.mu.Lock()
	s.runs[req.ID] = run
	s.mu.Unlock()
	r.Progress = func(st research.Stage) {
		p.trail.stage(st)
		s.mu.Lock()
		if finished(st.Status) {
			// The end is told, to Get and to subscribers, once the
			// result is kept (finish): told before, a reader would find
			// a completed research without its result.
			run.end = &st
			s.mu.Unlock()
			return
		}
		run.request.Status = st.Status
		s.mu.Unlock()
		run.events.Publish(st)
	}
	snapshot := *req
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer release(claim)
		s.finish(req.ID, run, p)
	}()
	return &snapshot, nil
}

// finish waits for a slot of the shared runner, runs a background
// research, saves what it produced and ends its event stream.
func (s *Service) finish(id string, run *researchRun, p *prepared) {
	r, req := p.r, p.req
	var res *research.Result
	queued := func() { run.events.Publish(research.Stage{Status: req.Status, Message: queuedMessage}) }
	err := s.slots.Acquire(s.ctx, queued)
	acquired := err == nil
	var log Log
	var end *research.Stage
	if acquired {
		log = s.openLog(p)
		res, err = r.Run(s.ctx, req)
		s.mu.Lock()
		end = run.end
		s.mu.Unlock()
		if s.ctx.Err() != nil && req.Status != research.StatusCompleted {
			// Stopped with the server, not by the research's own fault.
			req.Status, req.Error = research.StatusFailed, interruptedMessage
			end = &research.Stage{Status: research.StatusFailed, Message: req.Error}
		}
	} else {
		// The server stopped before a worker was free.
		req.Status, req.Error = research.StatusFailed, interruptedMessage
		end = &research.Stage{Status: research.StatusFailed, Message: req.Error}
	}
	if err != nil {
		s.log.Warn("research failed", "id", id, "code", quarry.ErrorCode(err), "err", err)
	}
	if res == nil {
		res = &research.Result{Request: req}
	}
	// Saved even when the server is stopping; a failed research is kept
	// with its result so far when that holds together, else as its
	// request alone, so that it reads as failed after a restart.
	save := context.WithoutCancel(s.ctx)
	if serr := s.store.Save(save, res); serr != nil {
		s.log.Error("research not saved", "id", id, "err", serr)
		if req.Status != research.StatusFailed {
			req.Error = "the result could not be saved"
			req.Status = research.StatusFailed
			end = &research.Stage{Status: research.StatusFailed, Message: req.Error}
		}
		alone := *req
		if serr := s.store.Save(save, &research.Result{Request: &alone}); serr != nil {
			s.log.Error("research's failure not saved", "id", id, "err", serr)
		}
		res = &research.Result{Request: req}
	}
	if end == nil {
		end = &research.Stage{Status: req.Status, Message: cmp.Or(req.Error, string(req.Status))}
	}
	s.mu.Lock()
	run.request, run.result = *req, res
	s.finished = append(s.finished, id)
	if len(s.finished) > keptRuns {
		delete(s.runs, s.finished[0])
		s.finished = s.finished[1:]
	}
	s.mu.Unlock()
	if acquired {
		// The slot is held until the trail is written, so that the
		// entries of researches that wait for each other never
		// interleave.
		p.trail.decisions(res, req, p.web, err)
		s.closeLog(id, log)
		s.slots.Release()
	}
	run.events.Publish(*end)
	run.events.Close()
}

// run is userID's research id in memory, nil when it is not there.
// Errors: NOT_FOUND for another user's.
func (s *Service) run(userID, id string) (*researchRun, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	run, ok := s.runs[id]
	if !ok {
		return nil, nil
	}
	if run.userID != userID {
		return nil, notFound(id)
	}
	return run, nil
}

func notFound(id string) error {
	return quarry.Errorf(quarry.ECodeNotFound, "research %s not found", id)
}

// Get returns userID's research id: while it runs, its request alone (the
// status of its current stage); then its result. Errors: NOT_FOUND for a
// research that does not exist or that another user asked for.
func (s *Service) Get(ctx context.Context, userID, id string) (*research.Result, error) {
	run, err := s.run(userID, id)
	if err != nil {
		return nil, err
	}
	if run != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		if run.result != nil {
			return run.result, nil
		}
		req := run.request
		return &research.Result{Request: &req}, nil
	}
	res, err := s.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if res.Request.UserID != userID {
		return nil, notFound(id)
	}
	if !finished(res.Request.Status) {
		return s.recover(ctx, res)
	}
	return res, nil
}

// recover returns res, a research saved unfinished and not running in
// this process: as it is while another process runs it (holds its
// claim), else recorded as failed with interruptedMessage, since the
// process that ran it died.
func (s *Service) recover(ctx context.Context, res *research.Result) (*research.Result, error) {
	id := res.Request.ID
	if s.cfg.RunDir == "" {
		return res, nil
	}
	claim, ok, err := s.claimRun(id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return res, nil
	}
	defer release(claim)
	// Read again under the claim: the run may have ended in between.
	if res, err = s.store.Get(ctx, id); err != nil || finished(res.Request.Status) {
		return res, err
	}
	if run, _ := s.run(res.Request.UserID, id); run != nil {
		return s.Get(ctx, res.Request.UserID, id)
	}
	res.Request.Status, res.Request.Error = research.StatusFailed, interruptedMessage
	if err := s.store.Save(ctx, res); err != nil {
		return nil, err
	}
	s.log.Warn("research interrupted by its process's end, recorded as failed", "id", id)
	return res, nil
}

// Subscribe returns the stages of userID's research id so far and a
// channel of those to come, closed when it ends. A research no longer in
// memory replays one stage, its final status. Errors: as Get.
func (s *Service) Subscribe(ctx context.Context, userID, id string) (past []research.Stage, live <-chan research.Stage, cancel func(), err error) {
	run, err := s.run(userID, id)
	if err != nil {
		return nil, nil, nil, err
	}
	if run != nil {
		past, live, cancel := run.events.Subscribe()
		return past, live, cancel, nil
	}
	res, err := s.Get(ctx, userID, id)
	if err != nil {
		return nil, nil, nil, err
	}
	msg := res.Request.Error
	if msg == "" {
		msg = string(res.Request.Status)
	}
	c := make(chan research.Stage)
	close(c)
	return []research.Stage{{Status: res.Request.Status, Message: msg}}, c, func() {}, nil
}

// List returns userID's researches, newest first: those running in
// this process as of their current stage, and those in the store.
func (s *Service) List(ctx context.Context, userID string) ([]research.Request, error) {
	saved, err := s.store.List(ctx, userID)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	var out []research.Request
	for _, run := range s.runs {
		if run.userID == userID {
			out = append(out, run.request)
		}
	}
	s.mu.Unlock()
	seen := map[string]bool{}
	for _, q := range out {
		seen[q.ID] = true
	}
	for _, q := range saved {
		if seen[q.ID] {
			continue
		}
		if !finished(q.Status) {
			// Run elsewhere, or cut short: Get says which.
			if res, err := s.Get(ctx, userID, q.ID); err == nil {
				q = *res.Request
			}
		}
		out = append(out, q)
	}
	slices.SortStableFunc(out, func(a, b research.Request) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}
