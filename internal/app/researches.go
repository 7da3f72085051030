package app

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
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/mcp"
	"github.com/quarry-dev/quarry/postgres"
	"github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/rooms"
	"github.com/quarry-dev/quarry/sqlite"
	"github.com/quarry-dev/quarry/web"
)

var (
	_ web.WebResearchService = (*Researches)(nil)
	_ mcp.ResearchService    = (*Researches)(nil)
)

// Researches runs research requests over data rooms, and the web when a
// search provider is configured (UseWeb), for the server and the MCP
// tools: the room is opened through the rooms service's membership
// checks (OpenRoomCorpus), results are kept in a ResearchStore
// (db/research.db, or PostgreSQL beside the rooms), and each research
// belongs to the user who asked: to anyone else it is NOT_FOUND, like a
// room they are not in.
//
// A research started in the background (Start) keeps its stages in a hub
// for late subscribers; the last keptRuns finished ones stay in memory, so
// their events replay, and older ones are read from the store.
type Researches struct {
	rooms *rooms.Service
	store ResearchStore
	// web is where the web's pages come from, nil without a provider;
	// webName names it.
	web     *WebConfig
	webName string
	// Log hears the failures of background researches; set it before
	// the first one starts.
	Log *slog.Logger
	now func() time.Time

	ctx    context.Context // background runs stop when it is cancelled
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// RunDir holds a lock file per research running in the background,
	// held by the process running it (see claimRun); NewResearches puts
	// it in the rooms' data dir, shared by the processes of a
	// deployment. Empty, a research cut short by its process's death
	// keeps the status it was saved with.
	RunDir string

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
	events *hub.Hub[agent.Stage]
	// Guarded by Researches.mu: the request as of its last stage, and
	// the result once the run ends (a failed one's result so far); end
	// is the final stage the research reported, held back until its
	// result is kept.
	request research.Request
	result  *research.Result
	end     *agent.Stage
}

// ResearchStore is a research.Store with connections to close.
type ResearchStore interface {
	research.Store
	Close() error
}

// OpenResearchStore opens where research results are kept: with db, a
// postgres:// URL as RoomsOptions.DB, in that database (postgres.Research,
// beside the rooms); without, in dataDir's db/research.db.
func OpenResearchStore(ctx context.Context, dataDir, db string) (ResearchStore, error) {
	if db != "" {
		return postgres.OpenResearch(ctx, db)
	}
	return sqlite.OpenResearch(filepath.Join(dataDir, "db", "research.db"))
}

// OpenResearches keeps research results in dataDir's db/research.db and
// researches svc's rooms. Close it to stop running researches and close
// the store.
func OpenResearches(dataDir string, svc *rooms.Service, log *slog.Logger) (*Researches, error) {
	store, err := OpenResearchStore(context.Background(), dataDir, "")
	if err != nil {
		return nil, err
	}
	return NewResearches(store, svc, log), nil
}

// NewResearches keeps research results in store, which it closes on
// Close, and researches svc's rooms.
func NewResearches(store ResearchStore, svc *rooms.Service, log *slog.Logger) *Researches {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Researches{rooms: svc, store: store, Log: log, now: time.Now, ctx: ctx, cancel: cancel, runs: map[string]*researchRun{}}
	if svc != nil && svc.Dir != "" {
		s.RunDir = filepath.Join(svc.Dir, "db", "research-runs")
	}
	return s
}

// claimRun takes the lock of research id in RunDir: while one process
// holds it, another's claim answers false. The operating system drops
// the lock of a process that dies, so a research saved unfinished whose
// lock can be taken was cut short by its process's end. Without RunDir
// every claim is nil and granted.
func (s *Researches) claimRun(id string) (*flock.Flock, bool, error) {
	if s.RunDir == "" {
		return nil, true, nil
	}
	if err := os.MkdirAll(s.RunDir, 0o755); err != nil {
		return nil, false, err
	}
	lock := flock.New(filepath.Join(s.RunDir, id+".lock"))
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
func (s *Researches) Close() error {
	s.cancel()
	s.wg.Wait()
	return s.store.Close()
}

// UseWeb lets researches search the web with c's provider (research
// over the web asked with web: true); set it before the first research.
// Errors: INVALID when c has no provider, a URL that is not http(s) or a
// credibility score outside 0-1.
func (s *Researches) UseWeb(c WebConfig) error {
	wc, err := OpenWebCorpus(c)
	if err != nil {
		return err
	}
	s.web, s.webName = &c, wc.Name()
	return nil
}

// WebSource names the web as a source ("the web (SearxNG at ...)"), ""
// when no provider is configured.
func (s *Researches) WebSource() string { return s.webName }

// prepare checks the request and opens its sources for userID: the room
// roomName when it is set, and the web when web is; nothing runs yet.
// Errors: INVALID for a question outside 10-500 characters or an unknown
// depth, for neither a room nor the web, and for the web when no
// provider is configured (naming the settings); NOT_FOUND for a room
// userID is not a member of, EMPTY_FILE for a room without a processed
// document.
func (s *Researches) prepare(ctx context.Context, userID, question, depth, roomName string, web bool) (*research.Request, *agent.Researcher, error) {
	req, err := research.NewRequest(question, depth, s.now())
	if err != nil {
		return nil, nil, err
	}
	roomName = strings.TrimSpace(roomName)
	if roomName == "" && !web {
		return nil, nil, quarry.Errorf(quarry.ECodeInvalid, "name the data room to research, or the web, or both")
	}
	var webCorpus *WebCorpus
	if web {
		if s.web == nil {
			return nil, nil, quarry.Errorf(quarry.ECodeInvalid, "this server has no web search provider, so it cannot research the web").
				WithHint("start it with " + WebSettings + " set, or with a config file's web section; see 'quarry help config'")
		}
		// One corpus a research: it keeps that research's pages and
		// failures.
		if webCorpus, err = OpenWebCorpus(*s.web); err != nil {
			return nil, nil, err
		}
	}
	var sources []agent.Source
	if roomName != "" {
		c, err := OpenRoomCorpus(ctx, s.rooms, userID, roomName)
		if err != nil {
			return nil, nil, err
		}
		// The room's permissions stop the research, as they do without
		// the web.
		sources = append(sources, agent.Source{Name: "the room " + roomName, Corpus: c, Required: true})
	}
	req.UserID = userID
	if webCorpus == nil {
		return req, &agent.Researcher{Corpus: sources[0].Corpus, Now: s.now, Model: s.model()}, nil
	}
	// The web is never required: a provider that fails is left out, and
	// the report says so.
	sources = append(sources, agent.Source{Name: webCorpus.Name(), Corpus: webCorpus})
	return req, &agent.Researcher{Corpus: agent.NewSources(sources...), Now: s.now, Model: s.model()}, nil
}

// model is the model the rooms are served with (quarry serve and mcp
// configure one for both), nil for none: research is then offline.
func (s *Researches) model() llm.Model {
	if s.rooms == nil {
		return nil
	}
	return s.rooms.Model
}

// Research runs a research for userID over the room roomName (id or
// name; "" for none) and, when web is set, the web, to its end and
// returns the saved result; progress, when set, hears each stage.
// Errors: those of prepare, and the research's own (UNAVAILABLE when ctx
// ends first or every source failed).
func (s *Researches) Research(ctx context.Context, userID, question, depth, roomName string, web bool, progress func(agent.Stage)) (*research.Result, error) {
	req, r, err := s.prepare(ctx, userID, question, depth, roomName, web)
	if err != nil {
		return nil, err
	}
	r.Progress = progress
	res, err := r.Run(ctx, req)
	if err != nil {
		return nil, err
	}
	if err := s.store.Save(ctx, res); err != nil {
		return nil, err
	}
	return res, nil
}

// Start checks the request and opens the room as Research does, then
// runs the research in the background and returns its request at once.
func (s *Researches) Start(ctx context.Context, userID, question, depth, roomName string) (*research.Request, error) {
	return s.start(ctx, userID, question, depth, roomName, false)
}

// StartWeb is Start over the room roomName ("" for none) and the web.
// Errors: those of Start, and INVALID when no provider is configured.
func (s *Researches) StartWeb(ctx context.Context, userID, question, depth, roomName string) (*research.Request, error) {
	return s.start(ctx, userID, question, depth, roomName, true)
}

func (s *Researches) start(ctx context.Context, userID, question, depth, roomName string, web bool) (*research.Request, error) {
	req, r, err := s.prepare(ctx, userID, question, depth, roomName, web)
	if err != nil {
		return nil, err
	}
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
	run := &researchRun{userID: userID, events: hub.New[agent.Stage](), request: *req}
	s.mu.Lock()
	s.runs[req.ID] = run
	s.mu.Unlock()
	r.Progress = func(st agent.Stage) {
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
		s.finish(req.ID, run, r, req)
	}()
	return &snapshot, nil
}

// finish runs a background research, saves what it produced and ends
// its event stream.
func (s *Researches) finish(id string, run *researchRun, r *agent.Researcher, req *research.Request) {
	res, err := r.Run(s.ctx, req)
	if err != nil {
		s.Log.Warn("research failed", "id", id, "code", quarry.ErrorCode(err), "err", err)
	}
	if res == nil {
		res = &research.Result{Request: req}
	}
	s.mu.Lock()
	end := run.end
	s.mu.Unlock()
	if s.ctx.Err() != nil && req.Status != research.StatusCompleted {
		// Stopped with the server, not by the research's own fault.
		req.Status, req.Error = research.StatusFailed, interruptedMessage
		end = &agent.Stage{Status: research.StatusFailed, Message: req.Error}
	}
	// Saved even when the server is stopping; a failed research is kept
	// with its result so far when that holds together, else as its
	// request alone, so that it reads as failed after a restart.
	save := context.WithoutCancel(s.ctx)
	if serr := s.store.Save(save, res); serr != nil {
		s.Log.Error("research not saved", "id", id, "err", serr)
		if req.Status != research.StatusFailed {
			req.Error = "the result could not be saved"
			req.Status = research.StatusFailed
			end = &agent.Stage{Status: research.StatusFailed, Message: req.Error}
		}
		alone := *req
		if serr := s.store.Save(save, &research.Result{Request: &alone}); serr != nil {
			s.Log.Error("research's failure not saved", "id", id, "err", serr)
		}
		res = &research.Result{Request: req}
	}
	if end == nil {
		end = &agent.Stage{Status: req.Status, Message: cmp.Or(req.Error, string(req.Status))}
	}
	s.mu.Lock()
	run.request, run.result = *req, res
	s.finished = append(s.finished, id)
	if len(s.finished) > keptRuns {
		delete(s.runs, s.finished[0])
		s.finished = s.finished[1:]
	}
	s.mu.Unlock()
	run.events.Publish(*end)
	run.events.Close()
}

// run is userID's research id in memory, nil when it is not there.
// Errors: NOT_FOUND for another user's.
func (s *Researches) run(userID, id string) (*researchRun, error) {
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
func (s *Researches) Get(ctx context.Context, userID, id string) (*research.Result, error) {
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
func (s *Researches) recover(ctx context.Context, res *research.Result) (*research.Result, error) {
	id := res.Request.ID
	if s.RunDir == "" {
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
	s.Log.Warn("research interrupted by its process's end, recorded as failed", "id", id)
	return res, nil
}

// Subscribe returns the stages of userID's research id so far and a
// channel of those to come, closed when it ends. A research no longer in
// memory replays one stage, its final status. Errors: as Get.
func (s *Researches) Subscribe(ctx context.Context, userID, id string) (past []agent.Stage, live <-chan agent.Stage, cancel func(), err error) {
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
	c := make(chan agent.Stage)
	close(c)
	return []agent.Stage{{Status: res.Request.Status, Message: msg}}, c, func() {}, nil
}

// List returns userID's researches, newest first: those running in
// this process as of their current stage, and those in the store.
func (s *Researches) List(ctx context.Context, userID string) ([]research.Request, error) {
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
