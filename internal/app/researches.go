package app

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	agent "github.com/quarry-dev/quarry/agent/research"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/internal/runner"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/postgres"
	"github.com/quarry-dev/quarry/researches"
	"github.com/quarry-dev/quarry/rooms"
	"github.com/quarry-dev/quarry/sqlite"
)

var (
	_ researches.Rooms     = ResearchRooms{}
	_ researches.WebCorpus = (*WebCorpus)(nil)
)

// ResearchStore is a research.Store with connections to close.
type ResearchStore = researches.Store

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
func OpenResearches(dataDir string, svc *rooms.Service, log *slog.Logger) (*researches.Service, error) {
	store, err := OpenResearchStore(context.Background(), dataDir, "")
	if err != nil {
		return nil, err
	}
	return NewResearches(store, svc, nil, log), nil
}

// ResearchLog is where the researches' audit trail is written, under the
// data dir: logs/research.jsonl, beside the analyses' log.
func ResearchLog(dataDir string) string { return filepath.Join(dataDir, "logs", "research.jsonl") }

// NewResearches keeps research results in store, which it closes on
// Close, and researches svc's rooms, each research waiting for a slot of
// run (nil: a private bound) and counted against the room's question
// quota. With the rooms' data dir (svc.Dir) it keeps its run locks in
// db/research-runs and its audit trail in ResearchLog.
func NewResearches(store ResearchStore, svc *rooms.Service, run *runner.Runner, log *slog.Logger) *researches.Service {
	cfg := researches.Config{Store: store, Runner: run, Log: log, WebHint: WebSettings}
	if svc != nil {
		cfg.Rooms = ResearchRooms{Svc: svc}
		cfg.Model = func() llm.Model { return svc.Model }
		inDataDir(&cfg, svc.Dir)
	}
	return researches.New(cfg)
}

// NewFolderResearches is the research service of quarry research
// --corpus: no rooms, the command's model, its runs and audit trail in
// dataDir as a server's.
func NewFolderResearches(dataDir string, store ResearchStore, model llm.Model, log *slog.Logger) *researches.Service {
	cfg := researches.Config{Store: store, Log: log, WebHint: WebSettings, Model: func() llm.Model { return model }}
	inDataDir(&cfg, dataDir)
	return researches.New(cfg)
}

// inDataDir keeps cfg's claims on running researches and its audit log
// (ResearchLog) in dataDir.
func inDataDir(cfg *researches.Config, dataDir string) {
	if dataDir == "" {
		return
	}
	cfg.RunDir = filepath.Join(dataDir, "db", "research-runs")
	logPath := ResearchLog(dataDir)
	cfg.OpenLog = func() (researches.Log, error) {
		if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
			return nil, err
		}
		return audit.OpenShared(logPath, time.Now)
	}
}

// ResearchRooms is the rooms service as the researches see it.
type ResearchRooms struct{ Svc *rooms.Service }

// OpenCorpus implements researches.Rooms with OpenRoomCorpus.
func (r ResearchRooms) OpenCorpus(ctx context.Context, userID, idOrName string) (string, agent.Corpus, error) {
	c, err := OpenRoomCorpus(ctx, r.Svc, userID, idOrName)
	if err != nil {
		return "", nil, err
	}
	return c.roomID, c, nil
}

// TakeQuestion implements researches.Rooms with the rooms' quota.
func (r ResearchRooms) TakeQuestion(ctx context.Context, userID, roomID string) error {
	return r.Svc.TakeQuestion(ctx, userID, roomID)
}

// ResearchWeb lets s research the web with c's provider (research over
// the web asked with web: true); call it before the first research.
// Errors: INVALID when c has no provider, a URL that is not http(s) or a
// credibility score outside 0-1.
func ResearchWeb(s *researches.Service, c WebConfig) error {
	wc, err := OpenWebCorpus(c)
	if err != nil {
		return err
	}
	s.UseWeb(wc.Name(), func() (researches.WebCorpus, error) { return OpenWebCorpus(c) })
	return nil
}
