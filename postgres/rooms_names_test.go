package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/pgtest"
	"github.com/quarry-dev/quarry/postgres"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/room/roomtest"
)

// A store made when room names were unique across it (data_rooms_name)
// gets names unique per creator when a newer schema is applied.
func TestOpenRoomsScopesRoomNames(t *testing.T) {
	st, app, admin := openRooms(t)
	ctx := roomtest.Ctx()
	now := time.Now()
	alice := &room.User{ID: quarry.NewID(), Name: "alice", CreatedAt: now}
	bob := &room.User{ID: quarry.NewID(), Name: "bob", CreatedAt: now}
	must(t, st.CreateUser(ctx, alice, ""))
	must(t, st.CreateUser(ctx, bob, ""))
	must(t, st.CreateRoom(ctx, &room.Room{ID: quarry.NewID(), Name: "deal", CreatedBy: alice.ID, CreatedAt: now}, alice.ID))
	pgtest.Exec(t, admin, "DROP INDEX data_rooms_creator_name", "CREATE UNIQUE INDEX data_rooms_name ON data_rooms (lower(name))",
		"DELETE FROM quarry_schema")
	err := st.CreateRoom(ctx, &room.Room{ID: quarry.NewID(), Name: "DEAL", CreatedBy: bob.ID, CreatedAt: now}, bob.ID)
	roomtest.WantCode(t, "bob's DEAL under the old index", err, quarry.ECodeConflict)
	st.Close()

	st2, err := postgres.OpenRooms(context.Background(), app)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	must(t, st2.CreateRoom(ctx, &room.Room{ID: quarry.NewID(), Name: "DEAL", CreatedBy: bob.ID, CreatedAt: now}, bob.ID))
	err = st2.CreateRoom(ctx, &room.Room{ID: quarry.NewID(), Name: "Deal", CreatedBy: alice.ID, CreatedAt: now}, alice.ID)
	roomtest.WantCode(t, "alice's second Deal", err, quarry.ECodeConflict)
}
