package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/runner"
	"github.com/quarry-dev/quarry/internal/sampleresearch"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/researches"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
)

// researchEnv is a fresh data dir whose owner has the research sample's
// documents in the room kestrel, and a research service over it.
type researchEnv struct {
	svc   *rooms.Service
	owner *room.User
	room  *room.Room
	dir   string
	rs    *researches.Service
}

func newResearchEnv(t *testing.T, run *runner.Runner) *researchEnv {
	t.Helper()
	ctx := context.Background()
	svc, owner, dir := openRooms(t)
	kestrel, err := svc.CreateRoom(ctx, owner.ID, "kestrel", "")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../../internal/sampleresearch/kestrel/*.md")
	if len(files) == 0 {
		t.Fatal("no sample corpus")
	}
	if err := app.IngestFiles(ctx, svc, owner.ID, kestrel.ID, files); err != nil {
		t.Fatal(err)
	}
	store, err := app.OpenResearchStore(ctx, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	rs := app.NewResearches(store, svc, run, nil)
	t.Cleanup(func() { rs.Close() })
	return &researchEnv{svc: svc, owner: owner, room: kestrel, dir: dir, rs: rs}
}

// auditEntries reads the researches' audit log.
func auditEntries(t *testing.T, path string) []quarry.AuditEntry {
	t.Helper()
	entries, err := audit.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// TestResearchAuditTrail: a research over the sample room writes its
// tool calls, decisions and end to logs/research.jsonl, every entry
// naming the research and its user; the log verifies, and an entry
// edited in the file is the one CheckIn reports broken.
func TestResearchAuditTrail(t *testing.T) {
	e := newResearchEnv(t, nil)
	ctx := context.Background()
	res, err := e.rs.Research(ctx, e.owner.ID, sampleresearch.Question, "quick", "kestrel", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	logPath := app.ResearchLog(e.dir)
	rep, err := audit.CheckIn(logPath, e.dir)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("the research log does not verify: %+v", rep)
	}
	entries := auditEntries(t, logPath)
	count := map[string]int{}
	for _, en := range entries {
		count[en.EventType]++
		if en.RequestID != res.Request.ID || en.Actor != e.owner.ID ||
			en.EventData["research_id"] != res.Request.ID || en.EventData["user_id"] != e.owner.ID {
			t.Errorf("entry %d (%s) names %s/%s, data %v/%v; want research %s of %s", en.SequenceNumber, en.EventType,
				en.RequestID, en.Actor, en.EventData["research_id"], en.EventData["user_id"], res.Request.ID, e.owner.ID)
		}
	}
	if first, last := entries[0], entries[len(entries)-1]; first.EventType != "research_started" || first.EventData["room_id"] != e.room.ID ||
		last.EventType != "research_finished" || last.EventData["status"] != string(research.StatusCompleted) {
		t.Errorf("the trail runs from %s %v to %s %v; want research_started in the room to research_finished completed",
			first.EventType, first.EventData, last.EventType, last.EventData)
	}
	if count["sub_question"] != len(res.Plan.SubQuestions) || count["fact"] != len(res.Facts) ||
		count["contradiction"] != len(res.Discrepancies) || count["tool_call"] < len(res.Plan.SubQuestions) || count["stage"] == 0 {
		t.Errorf("entries by type %v; want %d sub_question, %d fact, %d contradiction, a tool_call per sub-question and the stages",
			count, len(res.Plan.SubQuestions), len(res.Facts), len(res.Discrepancies))
	}
	if len(res.Discrepancies) == 0 {
		t.Error("the sample research found no contradiction to record")
	}

	// Edit one tool call's query in the file: that entry breaks.
	var target quarry.AuditEntry
	for _, en := range entries {
		if en.EventType == "tool_call" {
			target = en
			break
		}
	}
	if target.EventData["tool"] != "room_search" {
		t.Fatalf("the first tool call %v; want a room_search", target.EventData)
	}
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(b, []byte("\n"))
	line := lines[target.SequenceNumber-1]
	old, _ := json.Marshal(target.EventData["query"])
	edited := bytes.Replace(line, old, []byte(`"something else"`), 1)
	if bytes.Equal(edited, line) {
		t.Fatalf("entry %d does not hold its query %s", target.SequenceNumber, old)
	}
	lines[target.SequenceNumber-1] = edited
	if err := os.WriteFile(logPath, bytes.Join(lines, []byte("\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err = audit.CheckIn(logPath, e.dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || rep.FirstBroken != target.SequenceNumber {
		t.Fatalf("after editing entry %d: first broken %d (%s); want entry %d", target.SequenceNumber, rep.FirstBroken, rep.Reason, target.SequenceNumber)
	}
}

// TestResearchTakesAQuestion: a research over a room is one of the
// user's questions there: with the hour's questions spent on ask, a
// research over the same room is RATE_LIMITED with when to try again,
// in the background and to its end alike, and nothing is started; the
// web alone takes no question of a room, and another member's quota is
// their own.
func TestResearchTakesAQuestion(t *testing.T) {
	e := newResearchEnv(t, nil)
	ctx := context.Background()
	// Quotas are per hour of the clock: the test holds the clock in the
	// middle of one, so that a run across the hour does not reset them.
	mid := time.Now().UTC().Truncate(time.Hour).Add(30 * time.Minute)
	e.svc.Now = func() time.Time { return mid }
	// One research takes one question.
	if _, err := e.rs.Research(ctx, e.owner.ID, sampleresearch.Question, "quick", "kestrel", false, nil); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < room.QueriesPerHour; i++ {
		if _, err := e.svc.Ask(ctx, e.owner.ID, e.room.ID, "What was Kestrel's revenue in 2024?"); err != nil {
			t.Fatalf("question %d: %v", i+1, err)
		}
	}
	if _, err := e.svc.Ask(ctx, e.owner.ID, e.room.ID, "What was Kestrel's revenue in 2024?"); quarry.ErrorCode(err) != quarry.ECodeRateLimited {
		t.Fatalf("ask past the limit, with a research counted: %v; want RATE_LIMITED", err)
	}
	before, err := e.rs.List(ctx, e.owner.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.rs.Start(ctx, e.owner.ID, sampleresearch.Question, "quick", "kestrel")
	var limited *room.RateLimited
	if !errors.As(err, &limited) || quarry.ErrorCode(err) != quarry.ECodeRateLimited || limited.RetryAfter < 1 || limited.RetryAfter > 3601 {
		t.Fatalf("Start past the limit: %v; want *room.RateLimited, RATE_LIMITED, retry within the hour", err)
	}
	if _, err := e.rs.Research(ctx, e.owner.ID, sampleresearch.Question, "quick", e.room.ID, false, nil); quarry.ErrorCode(err) != quarry.ECodeRateLimited {
		t.Fatalf("Research past the limit: %v; want RATE_LIMITED", err)
	}
	if after, err := e.rs.List(ctx, e.owner.ID); err != nil || len(after) != len(before) {
		t.Fatalf("researches %d, %v after the refusals; want %d", len(after), err, len(before))
	}
	// The web alone is not a question in a room: it fails only for want
	// of a provider here.
	if _, err := e.rs.StartWeb(ctx, e.owner.ID, sampleresearch.Question, "quick", ""); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Fatalf("research over the web alone: %v; want INVALID (no provider), not RATE_LIMITED", err)
	}
	// A member who has asked nothing still may.
	vic, err := e.svc.AddUser(ctx, "vic", "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.AddMember(ctx, e.owner.ID, e.room.ID, vic.Name, room.RoleViewer); err != nil {
		t.Fatal(err)
	}
	if _, err := e.rs.Research(ctx, vic.ID, sampleresearch.Question, "quick", "kestrel", false, nil); err != nil {
		t.Fatalf("another member's research: %v", err)
	}
}

// nextStage is the research's next stage, past or live.
func nextStage(t *testing.T, past *[]research.Stage, live <-chan research.Stage) (research.Stage, bool) {
	t.Helper()
	if len(*past) > 0 {
		st := (*past)[0]
		*past = (*past)[1:]
		return st, true
	}
	st, ok := <-live
	return st, ok
}

// TestResearchWaitsForTheSharedRunner: with one slot for the whole
// process, held here as another job would hold it, an investigation and
// two researches all say they are queued and none goes further; once
// the slot is free they all finish, and the two researches ran one after
// the other: their audit entries do not interleave.
func TestResearchWaitsForTheSharedRunner(t *testing.T) {
	run := runner.New(1)
	e := newResearchEnv(t, run)
	ctx := context.Background()
	if !run.TryAcquire() {
		t.Fatal("a new runner has no free slot")
	}
	a, err := app.Open(ctx, app.Options{DataDir: filepath.Join(e.dir, "sessions"), Runner: run})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Runner != run {
		t.Fatal("app.Open made its own runner beside the one given")
	}
	sid, err := a.SeedSample(ctx, "revenue_drop")
	if err != nil {
		t.Fatal(err)
	}
	ipast, ilive, istop, err := a.Investigations.Subscribe(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	defer istop()
	var ids []string
	var subs [][]research.Stage
	var lives []<-chan research.Stage
	for range 2 {
		req, err := e.rs.Start(ctx, e.owner.ID, sampleresearch.Question, "quick", "kestrel")
		if err != nil {
			t.Fatal(err)
		}
		past, live, stop, err := e.rs.Subscribe(ctx, e.owner.ID, req.ID)
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		ids, subs, lives = append(ids, req.ID), append(subs, past), append(lives, live)
	}
	// Each job's first word is that it waits.
	for i := range ids {
		st, ok := nextStage(t, &subs[i], lives[i])
		if !ok || st.Status != research.StatusPlanning || !strings.HasPrefix(st.Message, "queued") {
			t.Fatalf("research %d's first stage %+v (%v); want planning, queued", i, st, ok)
		}
		if got, err := e.rs.Get(ctx, e.owner.ID, ids[i]); err != nil || got.Request.Status != research.StatusPlanning || got.Plan != nil {
			t.Fatalf("research %d while queued: %+v, %v; want planning without a plan", i, got, err)
		}
	}
	queued := false
	for !queued {
		var ev = struct{ Step string }{}
		if len(ipast) > 0 {
			ev.Step, ipast = ipast[0].Step, ipast[1:]
		} else {
			e, ok := <-ilive
			if !ok {
				t.Fatal("the investigation ended without waiting for the held slot")
			}
			ev.Step = e.Step
		}
		switch ev.Step {
		case "queued":
			queued = true
		case "plan", "query", "done", "failed":
			t.Fatalf("the investigation went on to %s with the only slot held", ev.Step)
		}
	}

	run.Release()
	for i := range ids {
		for {
			if _, ok := nextStage(t, &subs[i], lives[i]); !ok {
				break
			}
		}
		got, err := e.rs.Get(ctx, e.owner.ID, ids[i])
		if err != nil || got.Request.Status != research.StatusCompleted {
			t.Fatalf("research %d: %+v, %v; want completed", i, got.Request, err)
		}
	}
	for range ilive {
	}
	if s, err := a.Investigations.Session(ctx, sid); err != nil || s.Status != investigation.StatusCompleted {
		t.Fatalf("the investigation: %v, %v; want completed", s, err)
	}
	// One slot: the second research started after the first's trail
	// ended.
	var order []string
	for _, en := range auditEntries(t, app.ResearchLog(e.dir)) {
		if len(order) == 0 || order[len(order)-1] != en.RequestID {
			order = append(order, en.RequestID)
		}
	}
	if len(order) != 2 {
		t.Fatalf("the researches' entries come in runs %v; want one run each, one after the other", order)
	}
	if !run.TryAcquire() {
		t.Fatal("a job kept its slot after it ended")
	}
}
