package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/pgtest"
	"github.com/quarry-dev/quarry/mcp"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
)

// roomEnv is the sample room, owned by the local owner, and room "other"
// of user eve with one document.
type roomEnv struct {
	*env
	svc         *rooms.Service
	owner, eve  *room.User
	sample      *room.Room
	other       *room.Room
	otherDoc    *room.Document
	eveToken    string
	boardPackID string
}

// newRoomEnv opens the rooms in the data dir's SQLite store, or with db
// (a postgres:// URL) in PostgreSQL with this process working the queue.
func newRoomEnv(t *testing.T, db string) *roomEnv {
	t.Helper()
	ctx := context.Background()
	e := &roomEnv{env: newEnv(t)}
	opt := app.RoomsOptions{DataDir: e.dir, DB: db}
	if db != "" {
		opt.Workers = 1
	}
	svc, owner, closeRooms, err := app.OpenRoomsDB(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeRooms() })
	e.svc, e.owner = svc, owner
	if e.sample, err = app.SeedSampleRoom(ctx, svc, owner, e.dir); err != nil || e.sample == nil {
		t.Fatalf("sample room: %v, %v", e.sample, err)
	}
	docs, err := svc.Documents(ctx, owner.ID, e.sample.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if d.Format != "pdf" {
			continue
		}
		e.boardPackID = d.ID
		if d.ErrorCode == quarry.ECodeUnavailable && os.Getenv("CI") != "true" {
			t.Skipf("the sample PDF could not be read (%s); install poppler-utils", d.Error)
		}
		if d.Status != room.StatusCompleted {
			t.Fatalf("the sample PDF: %s %s %s", d.Status, d.ErrorCode, d.Error)
		}
	}
	if e.eve, err = svc.AddUser(ctx, "eve", ""); err != nil {
		t.Fatal(err)
	}
	if e.other, err = svc.CreateRoom(ctx, e.eve.ID, "other", ""); err != nil {
		t.Fatal(err)
	}
	d, err := svc.Upload(ctx, e.eve.ID, e.other.ID, "memo.md", strings.NewReader("# Memo\n\nThe secret acquisition target of Project Falcon is Contoso Ltd, at a price of $88 million."))
	if err != nil {
		t.Fatal(err)
	}
	if err := app.ProcessUpload(ctx, svc, e.eve.ID, d.ID); err != nil {
		t.Fatal(err)
	}
	e.otherDoc = d
	if e.eveToken, err = svc.CreateToken(ctx, e.eve.ID, "agent"); err != nil {
		t.Fatal(err)
	}
	return e
}

type (
	roomList struct {
		Rooms []struct {
			RoomID    string `json:"room_id"`
			Name      string `json:"name"`
			Role      string `json:"role"`
			Documents []struct {
				DocumentID string `json:"document_id"`
				Name       string `json:"name"`
				Status     string `json:"processing_status"`
				Pages      int    `json:"page_count"`
			} `json:"documents"`
		} `json:"rooms"`
	}
	roomAnswer struct {
		QueryID    string `json:"query_id"`
		AnswerType string `json:"answer_type"`
		Answer     string `json:"answer"`
		Citations  []struct {
			Rank         int     `json:"rank"`
			DocumentID   string  `json:"document_id"`
			DocumentName string  `json:"document_name"`
			PageNumber   int     `json:"page_number"`
			Relevance    float64 `json:"relevance_score"`
			Preview      string  `json:"text_preview"`
		} `json:"citations"`
	}
	pageText struct {
		DocumentName string `json:"document_name"`
		PageNumber   int    `json:"page_number"`
		PageCount    int    `json:"page_count"`
		Text         string `json:"text"`
	}
)

// TestRoomTools: over stdio's in-memory twin the tools act for the local
// owner, who sees the sample room and nothing of eve's, on either store.
func TestRoomTools(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testRoomTools(t, "") })
	t.Run("postgres", func(t *testing.T) {
		dsn, _ := pgtest.AppDatabase(t)
		testRoomTools(t, dsn)
	})
}

func testRoomTools(t *testing.T, db string) {
	e := newRoomEnv(t, db)
	cs := connectInMemory(t, mcp.NewServer(e.app.Investigations, mcp.Options{Rooms: e.svc, RoomUser: e.owner}))

	list, text := ok[roomList](t, cs, "list_rooms", map[string]any{})
	if len(list.Rooms) != 2 || list.Rooms[0].Name != app.SampleRoom || list.Rooms[0].Role != room.RoleOwner || len(list.Rooms[0].Documents) != 3 {
		t.Fatalf("list_rooms: %+v\n%s", list, text)
	}
	if strings.Contains(text, "other") || strings.Contains(text, e.otherDoc.ID) {
		t.Errorf("list_rooms shows eve's room:\n%s", text)
	}

	// The answer cites the board pack's second page, whose table holds
	// the number; get_room_page reads that page whole.
	ans, text := ok[roomAnswer](t, cs, "ask_room", map[string]any{"room": app.SampleRoom, "question": "What was the order backlog at the end of Q4 2023?"})
	if ans.AnswerType != room.AnswerGrounded || len(ans.Citations) == 0 || !strings.Contains(ans.Answer, "71.5") {
		t.Fatalf("ask_room: %+v\n%s", ans, text)
	}
	c := ans.Citations[0]
	if c.DocumentID != e.boardPackID || c.PageNumber != 2 || c.Rank != 1 || c.Preview == "" || c.Relevance <= 0 || c.Relevance > 1 {
		t.Errorf("first citation %+v; want the board pack, page 2", c)
	}
	if !strings.Contains(text, "page 2") || !strings.Contains(text, c.DocumentID) {
		t.Errorf("the answer's text does not name the cited page and document:\n%s", text)
	}
	page, _ := ok[pageText](t, cs, "get_room_page", map[string]any{"document_id": c.DocumentID, "page_number": c.PageNumber})
	if page.PageNumber != 2 || page.PageCount != 3 || !strings.Contains(page.Text, "Order backlog") || !strings.Contains(page.Text, "71.5") {
		t.Errorf("get_room_page: %+v", page)
	}
	if q, err := e.svc.Query(context.Background(), e.owner.ID, ans.QueryID); err != nil || q.Question == "" {
		t.Errorf("the question was not recorded in the owner's history: %v", err)
	}

	// Eve's room and document do not exist for the owner, by any name.
	for _, ref := range []string{e.other.ID, e.other.Name} {
		if code, text := failCode(t, cs, "ask_room", map[string]any{"room": ref, "question": "What is the acquisition target?"}); code != "NOT_FOUND" || strings.Contains(text, "Contoso") {
			t.Errorf("ask_room on eve's room (%s): %s", ref, text)
		}
	}
	if code, text := failCode(t, cs, "get_room_page", map[string]any{"document_id": e.otherDoc.ID, "page_number": 1}); code != "NOT_FOUND" || strings.Contains(text, "Contoso") {
		t.Errorf("get_room_page of eve's document: %s", text)
	}
	if code, _ := failCode(t, cs, "get_room_page", map[string]any{"document_id": c.DocumentID, "page_number": 4}); code != "NOT_FOUND" {
		t.Errorf("get_room_page past the last page: %s", code)
	}
	if code, _ := failCode(t, cs, "ask_room", map[string]any{"room": app.SampleRoom, "question": "why"}); code != "INVALID" {
		t.Errorf("a four-letter question: %s", code)
	}

	// Eve's room cannot be deleted nor its members removed by the owner;
	// the owner's own room can, once its name is confirmed.
	if code, _ := failCode(t, cs, "delete_room", map[string]any{"room": e.other.ID, "confirm": e.other.Name}); code != "NOT_FOUND" {
		t.Errorf("delete_room of eve's room: %s", code)
	}
	if code, _ := failCode(t, cs, "remove_room_member", map[string]any{"room": e.other.ID, "member": "eve"}); code != "NOT_FOUND" {
		t.Errorf("remove_room_member of eve's room: %s", code)
	}
	if code, _ := failCode(t, cs, "remove_room_member", map[string]any{"room": app.SampleRoom, "member": e.owner.Name}); code != "CONFLICT" {
		t.Errorf("remove_room_member of the last owner: %s", code)
	}
	if code, _ := failCode(t, cs, "delete_room", map[string]any{"room": app.SampleRoom, "confirm": "yes"}); code != "INVALID" {
		t.Errorf("delete_room without the name confirmed: %s", code)
	}
	ok[map[string]any](t, cs, "delete_room", map[string]any{"room": app.SampleRoom, "confirm": app.SampleRoom})
	if _, err := e.svc.Room(context.Background(), e.owner.ID, e.sample.ID); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("the sample room after delete_room: %v; want NOT_FOUND", err)
	}
	if _, err := e.svc.Room(context.Background(), e.eve.ID, e.other.ID); err != nil {
		t.Errorf("eve's room after the owner's deletions: %v", err)
	}
}

// bearer adds an Authorization header to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestRoomToolsOverHTTP: with RequireToken the tools act for the token's
// user; without a valid token nothing answers.
func TestRoomToolsOverHTTP(t *testing.T) {
	e := newRoomEnv(t, "")
	srv := mcp.NewServer(e.app.Investigations, mcp.Options{Rooms: e.svc})
	ts := httptest.NewServer(mcp.RequireToken(mcp.NewHTTPHandler(srv, nil), e.svc.UserByToken))
	t.Cleanup(ts.Close)
	connect := func(token string) (*mcpsdk.ClientSession, error) {
		c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "quarry-test", Version: "1"}, nil)
		return c.Connect(context.Background(), &mcpsdk.StreamableClientTransport{Endpoint: ts.URL,
			HTTPClient: &http.Client{Transport: bearer{token}}, DisableStandaloneSSE: true}, nil)
	}
	for _, tok := range []string{"", rooms.TokenPrefix + "not-a-token", e.eveToken + "x"} {
		if cs, err := connect(tok); err == nil {
			cs.Close()
			t.Errorf("connected with token %q; want 401", tok)
		}
	}
	cs, err := connect(e.eveToken)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	list, text := ok[roomList](t, cs, "list_rooms", map[string]any{})
	if len(list.Rooms) != 1 || list.Rooms[0].RoomID != e.other.ID {
		t.Errorf("eve's list_rooms: %s", text)
	}
	ans, _ := ok[roomAnswer](t, cs, "ask_room", map[string]any{"room": "other", "question": "What is the acquisition target of Project Falcon?"})
	if ans.AnswerType != room.AnswerGrounded || !strings.Contains(ans.Answer, "Contoso") {
		t.Errorf("eve asks her room: %+v", ans)
	}
	if code, _ := failCode(t, cs, "ask_room", map[string]any{"room": e.sample.ID, "question": "What was Northwind's revenue in 2023?"}); code != "NOT_FOUND" {
		t.Errorf("eve asks the owner's room: %s; want NOT_FOUND", code)
	}
	if code, _ := failCode(t, cs, "get_room_page", map[string]any{"document_id": e.boardPackID, "page_number": 2}); code != "NOT_FOUND" {
		t.Errorf("eve reads the owner's board pack: %s; want NOT_FOUND", code)
	}

	// Without RequireToken and without a RoomUser there is no one to act
	// for.
	anon := connectHTTP(t, mcp.NewServer(e.app.Investigations, mcp.Options{Rooms: e.svc}))
	if code, _ := failCode(t, anon, "list_rooms", map[string]any{}); code != "UNAUTHORIZED" {
		t.Errorf("list_rooms without a user: %s; want UNAUTHORIZED", code)
	}
}
