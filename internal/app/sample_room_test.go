package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	agent "github.com/quarry-dev/quarry/agent/research"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/pgtest"
	"github.com/quarry-dev/quarry/internal/sampleresearch"
	"github.com/quarry-dev/quarry/internal/sampleroom"
	"github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
)

// needPoppler skips without pdftotext, except under CI=true, where the
// sample room's PDF must be read.
func needPoppler(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		msg := "pdftotext not found; install it with: apt-get install -y poppler-utils"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

// openRooms opens the rooms of a fresh data dir.
func openRooms(t *testing.T) (*rooms.Service, *room.User, string) {
	t.Helper()
	dir := t.TempDir()
	svc, owner, closeRooms, err := app.OpenRooms(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeRooms() })
	return svc, owner, dir
}

func TestSampleRoom(t *testing.T) {
	needPoppler(t)
	ctx := context.Background()
	svc, owner, dir := openRooms(t)
	r, err := app.SeedSampleRoom(ctx, svc, owner, dir)
	if err != nil || r == nil || r.Name != app.SampleRoom {
		t.Fatalf("SeedSampleRoom on a fresh data dir = %v, %v; want the sample room", r, err)
	}
	docs, err := svc.Documents(ctx, owner.ID, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != len(sampleroom.Documents) {
		t.Fatalf("the sample room has %d documents; want %d", len(docs), len(sampleroom.Documents))
	}
	byName := map[string]room.Document{}
	for _, d := range docs {
		byName[d.Name] = d
		if d.Status != room.StatusCompleted || d.ChunkCount == 0 {
			t.Errorf("%s: %s (%s %s), %d chunks; want completed with chunks", d.Name, d.Status, d.ErrorCode, d.Error, d.ChunkCount)
		}
	}
	if pack := byName["northwind-board-pack-2024-02.pdf"]; pack.PageCount != 3 || pack.Format != "pdf" {
		t.Errorf("the board pack: %d pages, format %s; want a 3-page PDF", pack.PageCount, pack.Format)
	}

	// The newcomer's question, and one only the PDF's second page answers.
	for _, tt := range []struct {
		question, doc string
		page          int
		number        string
	}{
		{"What was Northwind's revenue in 2023?", "", 0, "412.6"},
		{"What was the order backlog at the end of Q4 2023?", "northwind-board-pack-2024-02.pdf", 2, "71.5"},
		{"How much did the Ohio distribution centre cost?", "northwind-board-pack-2024-02.pdf", 3, "18.4"},
		{"Can the supplier terminate for convenience?", "harbor-supply-agreement.md", 1, "180"},
	} {
		q, err := svc.Ask(ctx, owner.ID, r.ID, tt.question)
		if err != nil {
			t.Fatal(err)
		}
		if q.AnswerType != room.AnswerGrounded || len(q.Citations) == 0 || !strings.Contains(q.Answer, tt.number) {
			t.Errorf("%q: %s %q with %d citations; want grounded, quoting %s", tt.question, q.AnswerType, q.Answer, len(q.Citations), tt.number)
			continue
		}
		c := q.Citations[0]
		if tt.doc != "" && (c.DocumentName != tt.doc || c.PageNumber != tt.page) {
			t.Errorf("%q cites %s page %d first; want %s page %d", tt.question, c.DocumentName, c.PageNumber, tt.doc, tt.page)
		}
		p, err := svc.Page(ctx, owner.ID, c.DocumentID, c.PageNumber)
		if err != nil || !strings.Contains(p.Text, tt.number) {
			t.Errorf("%q: the cited page (%s p. %d) does not hold %s: %v", tt.question, c.DocumentName, c.PageNumber, tt.number, err)
		}
	}

	// Once made, never again: not on the next start, and not after the
	// person deleted it.
	if again, err := app.SeedSampleRoom(ctx, svc, owner, dir); again != nil || err != nil {
		t.Errorf("the second start made %v, %v; want nothing", again, err)
	}
	rs, _ := svc.Rooms(ctx, owner.ID)
	if len(rs) != 2 {
		t.Fatalf("rooms %v; want %s and %s", rs, app.SampleRoom, app.ResearchSampleRoom)
	}
	for _, r := range rs {
		if err := svc.Store.DeleteRoom(ctx, r.ID); err != nil {
			t.Fatal(err)
		}
	}
	if again, err := app.SeedSampleRoom(ctx, svc, owner, dir); again != nil || err != nil {
		t.Errorf("after the sample rooms were deleted, a start made %v, %v; want nothing", again, err)
	}
	if rs, _ := svc.Rooms(ctx, owner.ID); len(rs) != 0 {
		t.Errorf("rooms after deleting the sample rooms: %v", rs)
	}
}

// TestResearchSampleRoom: a fresh data dir also gets the research sample
// room, every document of the Kestrel corpus processed, and a standard
// research of it at once finds and resolves the planted contradictions
// as quarry research --corpus does. It needs no poppler-utils.
func TestResearchSampleRoom(t *testing.T) {
	ctx := context.Background()
	svc, owner, dir := openRooms(t)
	if _, err := app.SeedSampleRoom(ctx, svc, owner, dir); err != nil {
		t.Fatal(err)
	}
	kestrel, err := svc.Room(ctx, owner.ID, app.ResearchSampleRoom)
	if err != nil {
		t.Fatalf("the research sample room: %v", err)
	}
	if kestrel.CreatedBy != owner.ID || kestrel.Description == "" {
		t.Errorf("the research sample room %+v; want the owner's, described", kestrel)
	}
	docs, err := svc.Documents(ctx, owner.ID, kestrel.ID)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range docs {
		names = append(names, d.Name)
		if d.Status != room.StatusCompleted || d.ChunkCount == 0 {
			t.Errorf("%s: %s (%s %s), %d chunks; want completed with chunks", d.Name, d.Status, d.ErrorCode, d.Error, d.ChunkCount)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, sampleresearch.Documents) {
		t.Fatalf("the research sample room holds %v; want %v", names, sampleresearch.Documents)
	}
	var mark struct {
		RoomID         string `json:"room_id"`
		ResearchRoomID string `json:"research_room_id"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "db", "sample-room.json")); err != nil || json.Unmarshal(b, &mark) != nil || mark.ResearchRoomID != kestrel.ID || mark.RoomID == "" {
		t.Errorf("the marker: %+v, %v; want both rooms", mark, err)
	}

	// As the research page's does: the room through its permissions.
	c, err := app.OpenRoomCorpus(ctx, svc, owner.ID, app.ResearchSampleRoom)
	if err != nil {
		t.Fatal(err)
	}
	req, err := research.NewRequest(sampleresearch.Question, "standard", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&agent.Researcher{Corpus: c}).Run(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	v := research.NewView(res)
	if v.Status != string(research.StatusCompleted) {
		t.Fatalf("the research: %s (%s); want completed", v.Status, v.Error)
	}
	for _, p := range sampleresearch.Check(v) {
		t.Error(p)
	}
}

// TestSampleRoomNotForUsedDataDirs: a data dir whose owner has rooms
// already gets no sample room, then or later.
func TestSampleRoomNotForUsedDataDirs(t *testing.T) {
	ctx := context.Background()
	svc, owner, dir := openRooms(t)
	if _, err := svc.CreateRoom(ctx, owner.ID, "deals", ""); err != nil {
		t.Fatal(err)
	}
	if r, err := app.SeedSampleRoom(ctx, svc, owner, dir); r != nil || err != nil {
		t.Fatalf("SeedSampleRoom with a room already = %v, %v; want nothing", r, err)
	}
	rs, _ := svc.Rooms(ctx, owner.ID)
	if len(rs) != 1 {
		t.Fatalf("rooms %v; want only deals", rs)
	}
	if err := svc.Store.DeleteRoom(ctx, rs[0].ID); err != nil {
		t.Fatal(err)
	}
	if r, err := app.SeedSampleRoom(ctx, svc, owner, dir); r != nil || err != nil {
		t.Errorf("SeedSampleRoom after the only room was deleted = %v, %v; want nothing", r, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "db", "sample-room.json")); err != nil {
		t.Errorf("no marker: %v", err)
	}
}

// TestSampleRoomOnPostgres: with the rooms in PostgreSQL the queue's
// workers process the sample documents, each once, and the room answers
// when SeedSampleRoom returns.
func TestSampleRoomOnPostgres(t *testing.T) {
	needPoppler(t)
	admin := pgtest.Start(t)
	pgtest.Vector(t, admin)
	dsn := pgtest.AppRole(t, admin)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	svc, owner, closeRooms, err := app.OpenRoomsDB(ctx, app.RoomsOptions{DataDir: dir, DB: dsn, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer closeRooms()
	var mu sync.Mutex
	runs := map[string]int{}
	svc.Progress = func(p room.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if p.Status == room.StatusProcessing && strings.HasPrefix(p.Message, "reading ") {
			runs[p.DocumentID]++
		}
	}
	r, err := app.SeedSampleRoom(ctx, svc, owner, dir)
	if err != nil || r == nil {
		t.Fatalf("SeedSampleRoom = %v, %v", r, err)
	}
	docs, err := svc.Documents(ctx, owner.ID, r.ID)
	if err != nil || len(docs) != len(sampleroom.Documents) {
		t.Fatalf("documents %v, %v", docs, err)
	}
	mu.Lock()
	for _, d := range docs {
		if d.Status != room.StatusCompleted || runs[d.ID] != 1 {
			t.Errorf("%s: %s, processed %d times; want completed, once", d.Name, d.Status, runs[d.ID])
		}
	}
	mu.Unlock()
	// rooms.Service.Ask does not name its actor yet; callers do
	// (cmd/quarry's ask, the MCP tools).
	q, err := svc.Ask(room.WithActor(ctx, owner.ID), owner.ID, r.ID, "What was the order backlog at the end of Q4 2023?")
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Citations) == 0 || q.Citations[0].DocumentName != "northwind-board-pack-2024-02.pdf" || q.Citations[0].PageNumber != 2 {
		t.Errorf("the backlog question: %s %q, citations %+v; want the board pack's page 2 first", q.AnswerType, q.Answer, q.Citations)
	}

	// The same room on SQLite answers every question alike: the same
	// answer type, the same page cited first.
	lite, liteOwner, liteDir := openRooms(t)
	liteRoom, err := app.SeedSampleRoom(ctx, lite, liteOwner, liteDir)
	if err != nil || liteRoom == nil {
		t.Fatalf("SeedSampleRoom on SQLite = %v, %v", liteRoom, err)
	}
	grounded := 0
	for _, question := range sampleQuestions {
		pq, err := svc.Ask(room.WithActor(ctx, owner.ID), owner.ID, r.ID, question)
		if err != nil {
			t.Fatal(err)
		}
		sq, err := lite.Ask(ctx, liteOwner.ID, liteRoom.ID, question)
		if err != nil {
			t.Fatal(err)
		}
		if pq.AnswerType != sq.AnswerType || firstCited(pq) != firstCited(sq) {
			t.Errorf("%q: PostgreSQL %s citing %s first, SQLite %s citing %s first; want alike", question,
				pq.AnswerType, firstCited(pq), sq.AnswerType, firstCited(sq))
		}
		if sq.AnswerType == room.AnswerGrounded {
			grounded++
		}
	}
	if grounded < len(sampleQuestions)/2 {
		t.Errorf("%d of %d questions grounded; want most of them answered", grounded, len(sampleQuestions))
	}
}

// sampleQuestions are asked of the sample room on both stores: most are
// answered by one page, a few by none.
var sampleQuestions = []string{
	"What was Northwind's revenue in 2023?",
	"What was the order backlog at the end of Q4 2023?",
	"How much did the Ohio distribution centre cost?",
	"Can the supplier terminate for convenience?",
	"Which state's law governs the supply agreement?",
	"How much notice must the buyer give to terminate for convenience?",
	"When does the supply agreement begin?",
	"How many people does the Ohio distribution centre employ?",
	"What dividend does the board pack ask to approve?",
	"Who is the chief executive of Harbor Components?",
	"Does Northwind make electric bicycles?",
	"What was the revenue of Harbor Components in 2023?",
}

// firstCited names a query's first citation as document#page.
func firstCited(q *room.Query) string {
	if len(q.Citations) == 0 {
		return "nothing"
	}
	return fmt.Sprintf("%s#%d", q.Citations[0].DocumentName, q.Citations[0].PageNumber)
}
