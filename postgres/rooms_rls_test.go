package postgres_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/postgres"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/room/roomtest"
)

// leak is two rooms: alice owns A, bob owns B, carol views A; each room
// has a document with a page, a chunk with a vector, and a query of its
// owner's citing it, with feedback.
type leak struct {
	st                *postgres.Rooms
	app               string
	alice, bob, carol string
	a, b              string
	docA, docB        string
	chunkA, chunkB    string
	queryA, queryB    string
}

func newLeak(t *testing.T) *leak {
	st, app, _ := openRooms(t)
	ctx := roomtest.Ctx()
	l := &leak{st: st, app: app}
	now := time.Now().UTC().Truncate(time.Second)
	user := func(name string) string {
		u := &room.User{ID: quarry.NewID(), Name: name, CreatedAt: now}
		must(t, st.CreateUser(ctx, u, ""))
		return u.ID
	}
	l.alice, l.bob, l.carol = user("alice"), user("bob"), user("carol")
	fill := func(owner, name string) (roomID, docID, chunkID, queryID string) {
		r := &room.Room{ID: quarry.NewID(), Name: name, CreatedBy: owner, CreatedAt: now}
		must(t, st.CreateRoom(ctx, r, owner))
		d := &room.Document{ID: quarry.NewID(), RoomID: r.ID, Name: name + ".txt", Format: "text", Status: room.StatusPending, UploadedBy: owner, CreatedAt: now, UpdatedAt: now}
		must(t, st.CreateDocument(ctx, d))
		p := room.Page{ID: quarry.NewID(), DocumentID: d.ID, Number: 1, Text: "secret terms of " + name + " that only its members may read"}
		c := room.Chunk{ID: quarry.NewID(), DocumentID: d.ID, PageID: p.ID, PageNumber: 1, Text: p.Text, TokenCount: 9, StartChar: 0,
			EndChar: len(p.Text), Embedding: []float32{1, 0, 0}, EmbeddingModel: "m"}
		must(t, st.Complete(ctx, d, []room.Page{p}, []room.Chunk{c}))
		done := now.Add(time.Second)
		q := &room.Query{ID: quarry.NewID(), UserID: owner, RoomID: r.ID, Question: "what are the secret terms?", Answer: "These.",
			AnswerType: room.AnswerGrounded, CreatedAt: now, CompletedAt: &done,
			Citations: []room.Citation{{ChunkID: c.ID, DocumentID: d.ID, PageNumber: 1, RelevanceScore: 0.5, Rank: 1, TextPreview: "secret"}}}
		must(t, st.SaveQuery(ctx, q))
		must(t, st.PutFeedback(ctx, room.Feedback{QueryID: q.ID, UserID: owner, Rating: room.RatingHelpful, CreatedAt: now, UpdatedAt: now}))
		if _, _, err := st.TakeQuota(ctx, owner, r.ID, now.Truncate(time.Hour), 60); err != nil {
			t.Fatal(err)
		}
		return r.ID, d.ID, c.ID, q.ID
	}
	l.a, l.docA, l.chunkA, l.queryA = fill(l.alice, "room-a")
	l.b, l.docB, l.chunkB, l.queryB = fill(l.bob, "room-b")
	must(t, st.PutMember(ctx, room.Member{RoomID: l.a, UserID: l.carol, Role: room.RoleViewer, AddedAt: now}))
	return l
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// asUser runs fn on a connection of the application's role in a
// transaction whose app.user_id is user ("" for none), rolled back after.
// Its full-text query (app.search) is a word every room's chunk has.
func (l *leak) asUser(t *testing.T, user string, fn func(tx pgx.Tx)) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, l.app)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SELECT set_config('app.search', 'secret', true)"); err != nil {
		t.Fatal(err)
	}
	if user != "" {
		if _, err := tx.Exec(ctx, "SELECT set_config('app.user_id', $1, true)", user); err != nil {
			t.Fatal(err)
		}
	}
	fn(tx)
}

func count(t *testing.T, tx pgx.Tx, query string, args ...any) int {
	t.Helper()
	var n int
	if err := tx.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// roomReads are the SELECTs of one room's content; each finds one row in
// a room the user is a member of.
var roomReads = map[string]string{
	"data_rooms":                  "SELECT count(*) FROM data_rooms WHERE id = $1",
	"documents":                   "SELECT count(*) FROM documents WHERE data_room_id = $1",
	"document_pages":              "SELECT count(*) FROM document_pages p WHERE p.document_id IN (SELECT id FROM documents WHERE data_room_id = $1) OR p.text_content LIKE '%' || (SELECT name FROM data_rooms WHERE id = $1) || '%'",
	"document_chunks (by room)":   "SELECT count(*) FROM document_chunks WHERE data_room_id = $1",
	"document_chunks (by vector)": "SELECT count(*) FROM (SELECT id FROM document_chunks WHERE data_room_id = $1 ORDER BY embedding <=> '[1,0,0]' LIMIT 5) x",
	"chunk_search (by words)":     "SELECT count(*) FROM chunk_search WHERE data_room_id = $1",
	"qa_queries":                  "SELECT count(*) FROM qa_queries WHERE data_room_id = $1",
	"qa_citations":                "SELECT count(*) FROM qa_citations WHERE document_id IN (SELECT id FROM documents WHERE data_room_id = $1) OR query_id IN (SELECT id FROM qa_queries WHERE data_room_id = $1)",
	"qa_feedback":                 "SELECT count(*) FROM qa_feedback f JOIN qa_queries q ON q.id = f.query_id WHERE q.data_room_id = $1",
	"qa_rate_limits":              "SELECT count(*) FROM qa_rate_limits WHERE data_room_id = $1",
	"room_words":                  "SELECT count(*) FROM room_words WHERE data_room_id = $1 AND word = 'secret'",
}

func TestRoomsRowLevelSecurityReads(t *testing.T) {
	l := newLeak(t)
	l.asUser(t, l.alice, func(tx pgx.Tx) {
		for name, q := range roomReads {
			if n := count(t, tx, q, l.a); n != 1 {
				t.Errorf("alice reading her room's %s: %d rows; want 1", name, n)
			}
			if n := count(t, tx, q, l.b); n != 0 {
				t.Errorf("alice reading room B's %s: %d rows; want 0", name, n)
			}
		}
		// Unfiltered reads see only room A.
		for _, table := range []string{"documents", "document_pages", "document_chunks", "chunk_search", "qa_queries", "qa_citations", "qa_feedback"} {
			if n := count(t, tx, "SELECT count(*) FROM "+table); n != 1 {
				t.Errorf("alice reading all of %s: %d rows; want room A's 1", table, n)
			}
		}
		if n := count(t, tx, "SELECT count(*) FROM document_chunks WHERE id = $1", l.chunkB); n != 0 {
			t.Errorf("alice reading room B's chunk by its id: %d rows", n)
		}
		if n := count(t, tx, "SELECT count(*) FROM qa_queries WHERE id = $1", l.queryB); n != 0 {
			t.Errorf("alice reading room B's query by its id: %d rows", n)
		}
	})
	// Carol, a viewer of A, reads A (alice's query included, as the
	// specification's policy says) and nothing of B.
	l.asUser(t, l.carol, func(tx pgx.Tx) {
		if n := count(t, tx, "SELECT count(*) FROM document_chunks"); n != 1 {
			t.Errorf("carol reading chunks: %d rows; want room A's 1", n)
		}
		if n := count(t, tx, roomReads["qa_queries"], l.b); n != 0 {
			t.Errorf("carol reading room B's queries: %d rows", n)
		}
	})
	// Without a user, or with one that is not an id, nothing is visible.
	for _, user := range []string{"", "nobody", "' OR true --", quarry.NewID()} {
		l.asUser(t, user, func(tx pgx.Tx) {
			for _, table := range []string{"data_rooms", "documents", "document_pages", "document_chunks", "chunk_search", "room_words", "qa_queries", "qa_citations", "qa_feedback", "qa_rate_limits"} {
				if n := count(t, tx, "SELECT count(*) FROM "+table); n != 0 {
					t.Errorf("app.user_id %q reading %s: %d rows; want 0", user, table, n)
				}
			}
		})
	}
}

func TestRoomsRowLevelSecurityWrites(t *testing.T) {
	l := newLeak(t)
	ctx := context.Background()
	refused := func(t *testing.T, user, what, stmt string, args ...any) {
		t.Helper()
		l.asUser(t, user, func(tx pgx.Tx) {
			tag, err := tx.Exec(ctx, stmt, args...)
			var pgErr *pgconn.PgError
			switch {
			case err == nil && strings.HasPrefix(stmt, "INSERT"):
				t.Errorf("%s: INSERT succeeded; want it refused by row-level security", what)
			case err == nil && tag.RowsAffected() != 0:
				t.Errorf("%s: changed %d rows; want 0", what, tag.RowsAffected())
			case err != nil && !(errors.As(err, &pgErr) && pgErr.Code == "42501"):
				t.Errorf("%s: %v; want a row-level security violation (42501)", what, err)
			}
		})
	}
	now := time.Now()
	refused(t, l.alice, "alice adds a document to room B", `INSERT INTO documents (id, data_room_id, name, format, size_bytes, sha256, processing_status, uploaded_by)
		VALUES ($1, $2, 'x.txt', 'text', 1, 'x', 'pending', $3)`, quarry.NewID(), l.b, l.alice)
	refused(t, l.alice, "alice adds a chunk to room B's document", `INSERT INTO document_chunks (document_id, data_room_id, page_id, chunk_index, text_content, token_count, start_char, end_char)
		SELECT $1, $2, id, 99, repeat('x', 60), 1, 0, 60 FROM document_pages LIMIT 1`, l.docB, l.b)
	refused(t, l.alice, "alice asks in room B", `INSERT INTO qa_queries (user_id, data_room_id, question) VALUES ($1, $2, 'what is in room B?')`, l.alice, l.b)
	refused(t, l.alice, "alice asks in room A as bob", `INSERT INTO qa_queries (user_id, data_room_id, question) VALUES ($1, $2, 'what is in room A?')`, l.bob, l.a)
	refused(t, l.alice, "alice makes herself a member of room B", `INSERT INTO data_room_members (data_room_id, user_id, role) VALUES ($1, $2, 'owner')`, l.b, l.alice)
	refused(t, l.alice, "alice rates bob's answer", `INSERT INTO qa_feedback (query_id, user_id, rating) VALUES ($1, $2, 'not_helpful')`, l.queryB, l.alice)
	refused(t, l.carol, "carol (viewer) adds a document to room A", `INSERT INTO documents (id, data_room_id, name, format, size_bytes, sha256, processing_status, uploaded_by)
		VALUES ($1, $2, 'x.txt', 'text', 1, 'x', 'pending', $3)`, quarry.NewID(), l.a, l.carol)
	refused(t, l.alice, "alice renames room B's documents", "UPDATE documents SET name = 'mine' WHERE data_room_id = $1", l.b)
	refused(t, l.alice, "alice deletes room B's chunks", "DELETE FROM document_chunks WHERE data_room_id = $1", l.b)
	refused(t, l.alice, "alice deletes room B", "DELETE FROM data_rooms WHERE id = $1", l.b)
	refused(t, l.alice, "alice removes bob from room B", "DELETE FROM data_room_members WHERE data_room_id = $1", l.b)
	refused(t, l.carol, "carol (viewer) promotes herself", "UPDATE data_room_members SET role = 'owner' WHERE user_id = $1", l.carol)
	refused(t, l.alice, "alice resets bob's rate limit", "UPDATE qa_rate_limits SET query_count = 0 WHERE user_id = $1", l.bob)
	refused(t, l.alice, "alice adds a chunk to room B's search", `INSERT INTO chunk_search (chunk_id, data_room_id, document_id, chunk_index, search)
		VALUES ($1, $2, $3, 0, to_tsvector('planted'))`, l.chunkA, l.b, l.docB)
	refused(t, l.alice, "alice adds a word to room B's counts", "INSERT INTO room_words (data_room_id, word, chunks) VALUES ($1, 'planted', 1)", l.b)
	refused(t, l.alice, "alice changes room B's word counts", "UPDATE room_words SET chunks = 0 WHERE data_room_id = $1", l.b)
	refused(t, l.carol, "carol (viewer) changes room A's word counts", "UPDATE room_words SET chunks = 0 WHERE data_room_id = $1", l.a)
	_ = now

	// The same user through the store: room B does not exist for alice.
	actx := room.WithActor(ctx, l.alice)
	for what, err := range map[string]error{
		"Document":       second(l.st.Document(actx, l.docB)),
		"Chunk":          second(l.st.Chunk(actx, l.chunkB)),
		"Query":          second(l.st.Query(actx, l.queryB)),
		"Room":           second(l.st.Room(actx, l.b)),
		"Page":           second(l.st.Page(actx, l.docB, 1)),
		"DeleteDocument": l.st.DeleteDocument(actx, l.docB),
	} {
		if quarry.ErrorCode(err) != quarry.ECodeNotFound {
			t.Errorf("%s of room B as alice: %v; want NOT_FOUND", what, err)
		}
	}
	if hs, err := l.st.SearchChunks(actx, l.b, room.ChunkQuery{Terms: []string{"secret"}, Limit: 5}); err != nil || len(hs) != 0 {
		t.Errorf("SearchChunks in room B as alice = %d hits, %v; want none", len(hs), err)
	}
	if hs, err := l.st.SearchVectors(actx, l.b, room.VectorQuery{Vector: []float32{1, 0, 0}, Model: "m", Limit: 5}); err != nil || len(hs) != 0 {
		t.Errorf("SearchVectors in room B as alice = %d hits, %v; want none", len(hs), err)
	}
	if hs, err := l.st.SearchChunks(actx, l.a, room.ChunkQuery{Terms: []string{"secret"}, Limit: 5}); err != nil || len(hs) != 1 {
		t.Errorf("SearchChunks in room A as alice = %d hits, %v; want 1", len(hs), err)
	}
	if _, err := l.st.Document(ctx, l.docA); quarry.ErrorCode(err) != quarry.ECodeInternal {
		t.Errorf("Document without an actor: %v; want INTERNAL (every call names who it acts for)", err)
	}
}

func second[T any](_ T, err error) error { return err }

func TestOpenRoomsRefusesSuperuser(t *testing.T) {
	_, _, admin := openRooms(t)
	_, err := postgres.OpenRooms(context.Background(), admin)
	if quarry.ErrorCode(err) != quarry.ECodeInvalid || !strings.Contains(err.Error(), "row-level security") {
		t.Errorf("OpenRooms as a superuser: %v; want INVALID naming row-level security", err)
	}
}
