package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// TestOpenRoomsScopesRoomNames opens a store made when room names were
// unique across it: its rooms table is rebuilt once, with names unique
// per creator, and the members, documents and cascades of its rooms
// survive the rebuild.
func TestOpenRoomsScopesRoomNames(t *testing.T) {
	ctx := room.WithActor(context.Background(), room.System)
	path := filepath.Join(t.TempDir(), "rooms.db")
	old := strings.Replace(roomsSchema, "name TEXT NOT NULL COLLATE NOCASE,\n    description", "name TEXT NOT NULL UNIQUE COLLATE NOCASE,\n    description", 1)
	old = strings.Replace(old, "CREATE UNIQUE INDEX IF NOT EXISTS idx_rooms_creator_name ON data_rooms(created_by, name);\n", "", 1)
	if old == roomsSchema || strings.Contains(old, "idx_rooms_creator_name") {
		t.Fatal("the test no longer makes the old schema from roomsSchema")
	}
	db, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	now := formatTime(time.Now())
	alice, bob, deal, doc := quarry.NewID(), quarry.NewID(), quarry.NewID(), quarry.NewID()
	for _, stmt := range []string{
		old,
		"INSERT INTO users (id, name, created_at) VALUES ('" + alice + "', 'alice', '" + now + "'), ('" + bob + "', 'bob', '" + now + "')",
		"INSERT INTO data_rooms (id, name, created_by, created_at) VALUES ('" + deal + "', 'deal', '" + alice + "', '" + now + "')",
		"INSERT INTO data_room_members (data_room_id, user_id, role, added_at) VALUES ('" + deal + "', '" + alice + "', 'owner', '" + now + "'), ('" + deal + "', '" + bob + "', 'viewer', '" + now + "')",
		"INSERT INTO documents (id, data_room_id, name, format, size_bytes, sha256, processing_status, uploaded_by, created_at, updated_at) VALUES ('" +
			doc + "', '" + deal + "', 'a.txt', 'text', 1, 'ab', 'pending', '" + alice + "', '" + now + "', '" + now + "')",
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%.60s: %v", stmt, err)
		}
	}
	db.Close()

	for range 2 { // the second open finds nothing to do
		st, err := OpenRooms(path)
		if err != nil {
			t.Fatal(err)
		}
		var def string
		if err := st.read.QueryRowContext(ctx, "SELECT sql FROM sqlite_master WHERE name = 'data_rooms'").Scan(&def); err != nil || strings.Contains(def, "UNIQUE") {
			t.Errorf("data_rooms after opening = %q, %v; want no store-wide UNIQUE", def, err)
		}
		ms, err := st.Members(ctx, deal)
		if err != nil || len(ms) != 2 || ms[0].Role != room.RoleOwner || ms[1].Role != room.RoleViewer {
			t.Errorf("Members(deal) after the rebuild = %+v, %v; want alice the owner, bob a viewer", ms, err)
		}
		if d, err := st.Document(ctx, doc); err != nil || d.RoomID != deal {
			t.Errorf("Document after the rebuild = %+v, %v; want it in deal", d, err)
		}
		st.Close()
	}
	st, err := OpenRooms(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	err = st.CreateRoom(ctx, &room.Room{ID: quarry.NewID(), Name: "DEAL", CreatedBy: alice, CreatedAt: time.Now()}, alice)
	if quarry.ErrorCode(err) != quarry.ECodeConflict {
		t.Errorf("alice's second DEAL: %v; want CONFLICT", err)
	}
	if err := st.CreateRoom(ctx, &room.Room{ID: quarry.NewID(), Name: "DEAL", CreatedBy: bob, CreatedAt: time.Now()}, bob); err != nil {
		t.Errorf("bob's own DEAL: %v; want it made", err)
	}
	// The foreign keys still cascade from the rebuilt table.
	if err := st.DeleteRoom(ctx, deal); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Document(ctx, doc); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("Document after DeleteRoom(deal) = %v; want NOT_FOUND", err)
	}
	if _, err := st.Member(ctx, deal, bob); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("Member after DeleteRoom(deal) = %v; want NOT_FOUND", err)
	}
}
