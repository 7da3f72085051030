package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// searchRoom is a store with one room and one document whose chunks hold
// the given words (one chunk per entry), each padded to the chunk minimum.
func searchRoom(t *testing.T, path string, chunkWords ...string) (*Rooms, *room.Room, *room.Document) {
	t.Helper()
	ctx := context.Background()
	s, err := OpenRooms(path)
	if err != nil {
		t.Fatal(err)
	}
	u := &room.User{ID: quarry.NewID(), Name: "owner", CreatedAt: time.Now()}
	if err := s.CreateUser(ctx, u, ""); err != nil {
		t.Fatal(err)
	}
	r := &room.Room{ID: quarry.NewID(), Name: "deal", CreatedBy: u.ID, CreatedAt: time.Now()}
	if err := s.CreateRoom(ctx, r, u.ID); err != nil {
		t.Fatal(err)
	}
	d := &room.Document{ID: quarry.NewID(), RoomID: r.ID, Name: "a.txt", Format: "text", Status: room.StatusPending, UploadedBy: u.ID,
		CreatedAt: time.Now(), UpdatedAt: time.Now()}
	if err := s.CreateDocument(ctx, d); err != nil {
		t.Fatal(err)
	}
	p := room.Page{ID: quarry.NewID(), DocumentID: d.ID, Number: 1, Text: "page"}
	var chunks []room.Chunk
	for i, w := range chunkWords {
		text := w + " " + strings.Repeat("filler ", 10)
		chunks = append(chunks, room.Chunk{ID: quarry.NewID(), DocumentID: d.ID, PageID: p.ID, PageNumber: 1, Index: i, Text: text,
			TokenCount: 12, StartChar: 0, EndChar: len(text)})
	}
	if err := s.Complete(ctx, d, []room.Page{p}, chunks); err != nil {
		t.Fatal(err)
	}
	return s, r, d
}

func TestRoomWordsFollowTheDocuments(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rooms.db")
	s, r, d := searchRoom(t, path, "alpha beta", "alpha gamma")
	ctx := context.Background()
	count := func(word string) int {
		t.Helper()
		var n int
		err := s.read.QueryRow("SELECT coalesce(sum(chunks), 0) FROM room_words WHERE data_room_id = ? AND word = ?", r.ID, word).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if count("alpha") != 2 || count("gamma") != 1 || count("filler") != 2 {
		t.Fatalf("counts alpha %d gamma %d filler %d, want 2 1 2", count("alpha"), count("gamma"), count("filler"))
	}
	// A store whose counts were never kept gets them when it is opened.
	if _, err := s.write.Exec("DELETE FROM room_words"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	var err error
	if s, err = OpenRooms(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if count("alpha") != 2 {
		t.Fatalf("after reopening: alpha %d, want 2", count("alpha"))
	}
	if err := s.DeleteDocument(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	if count("alpha") != 0 || count("filler") != 0 {
		t.Fatalf("after delete: alpha %d filler %d, want none", count("alpha"), count("filler"))
	}
}

func TestSearchIndexMovedFromTheSharedTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rooms.db")
	s, r, d := searchRoom(t, path, "alpha beta", "gamma delta")
	// Put the store back the way it was before rooms had indexes of their
	// own: one chunks_fts with every room's chunks, and no rowid map.
	for _, q := range []string{
		"DROP TABLE " + roomIndex(r.ID),
		"DELETE FROM chunk_search",
		"CREATE VIRTUAL TABLE chunks_fts USING fts5(chunk_id UNINDEXED, room, document, body, tokenize = 'porter unicode61')",
	} {
		if _, err := s.write.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s, err := OpenRooms(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hits, err := s.SearchChunks(context.Background(), r.ID, room.ChunkQuery{Terms: []string{"gamma"}, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].DocumentID != d.ID || !strings.HasPrefix(hits[0].Text, "gamma") {
		t.Fatalf("after the move: %+v, want the gamma chunk", hits)
	}
	var n int
	if err := s.read.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = 'chunks_fts'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("chunks_fts left behind (%d, %v)", n, err)
	}
	// Deleting the document empties the room's index.
	if err := s.DeleteDocument(context.Background(), d.ID); err != nil {
		t.Fatal(err)
	}
	if hits, _ := s.SearchChunks(context.Background(), r.ID, room.ChunkQuery{Terms: []string{"gamma"}, Limit: 10}); len(hits) != 0 {
		t.Fatalf("after delete: %d hits", len(hits))
	}
}

func TestSearchChunksOfAnUnknownRoomFindsNothing(t *testing.T) {
	s, _, _ := searchRoom(t, ":memory:", "alpha beta")
	defer s.Close()
	hits, err := s.SearchChunks(context.Background(), quarry.NewID(), room.ChunkQuery{Terms: []string{"alpha"}, Limit: 10})
	if err != nil || len(hits) != 0 {
		t.Fatalf("unknown room: %d hits, %v", len(hits), err)
	}
}
