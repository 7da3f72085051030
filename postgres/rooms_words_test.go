package postgres_test

import (
	"context"
	"maps"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/pgtest"
	"github.com/quarry-dev/quarry/postgres"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/room/roomtest"
)

// A store made before room_words was kept, with the chunks' tsvector in
// document_chunks, gets its rooms' counts and chunk_search when a newer
// schema is applied.
func TestOpenRoomsUpdatesAnOlderStore(t *testing.T) {
	st, app, admin := openRooms(t)
	ctx := roomtest.Ctx()
	now := time.Now()
	u := &room.User{ID: quarry.NewID(), Name: "owner", CreatedAt: now}
	must(t, st.CreateUser(ctx, u, ""))
	var rooms []string
	for _, name := range []string{"deal", "audit"} {
		r := &room.Room{ID: quarry.NewID(), Name: name, CreatedBy: u.ID, CreatedAt: now}
		must(t, st.CreateRoom(ctx, r, u.ID))
		rooms = append(rooms, r.ID)
		for range 2 {
			d := &room.Document{ID: quarry.NewID(), RoomID: r.ID, Name: "a.txt", Format: "text", Status: room.StatusPending, UploadedBy: u.ID,
				CreatedAt: now, UpdatedAt: now}
			must(t, st.CreateDocument(ctx, d))
			p := room.Page{ID: quarry.NewID(), DocumentID: d.ID, Number: 1, Text: "page"}
			text := name + " capex guidance for the year, and more words to reach the minimum"
			c := room.Chunk{ID: quarry.NewID(), DocumentID: d.ID, PageID: p.ID, PageNumber: 1, Index: 0, Text: text, Context: "Note 7",
				TokenCount: 12, StartChar: 0, EndChar: len(text)}
			must(t, st.Complete(ctx, d, []room.Page{p}, []room.Chunk{c}))
		}
	}
	words := func() map[string]int {
		t.Helper()
		conn, err := pgx.Connect(context.Background(), admin)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		rows, err := conn.Query(context.Background(), `SELECT r.name || ' ' || w.word, w.chunks FROM room_words w JOIN data_rooms r ON r.id = w.data_room_id
			WHERE w.word IN ('capex', 'note', 'deal', 'audit')`)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int{}
		var k string
		var n int
		if _, err := pgx.ForEachRow(rows, []any{&k, &n}, func() error { out[k] = n; return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	want := map[string]int{"deal capex": 2, "deal note": 2, "deal deal": 2, "audit capex": 2, "audit note": 2, "audit audit": 2}
	if got := words(); !maps.Equal(got, want) {
		t.Fatalf("room_words = %v; want %v", got, want)
	}
	pgtest.Exec(t, admin, "DELETE FROM room_words", "DELETE FROM chunk_search", "DELETE FROM quarry_schema",
		"ALTER TABLE document_chunks ADD COLUMN search tsvector GENERATED ALWAYS AS (to_tsvector('english', context || ' ' || text_content)) STORED")
	st.Close()
	st2, err := postgres.OpenRooms(context.Background(), app)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	if got := words(); !maps.Equal(got, want) {
		t.Fatalf("room_words after opening an older store = %v; want %v", got, want)
	}
	for _, r := range rooms {
		hs, err := st2.SearchChunks(ctx, r, room.ChunkQuery{Terms: []string{"capex"}, Limit: 10})
		if err != nil || len(hs) != 2 {
			t.Errorf("SearchChunks(capex) after opening an older store = %d hits, %v; want the room's 2 chunks", len(hs), err)
		}
	}
}
