package postgres_test

import (
	"context"
	"testing"

	"github.com/quarry-dev/quarry/internal/pgtest"
	"github.com/quarry-dev/quarry/postgres"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/room/roomtest"
)

// openRooms returns a store on a new database, connected as a role of its
// own (not a superuser), with pgvector, and the database's superuser DSN.
func openRooms(t testing.TB) (*postgres.Rooms, string, string) {
	t.Helper()
	app, admin := pgtest.AppDatabase(t)
	st, err := postgres.OpenRooms(context.Background(), app)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, app, admin
}

func TestRoomsConformance(t *testing.T) {
	roomtest.Run(t, func(t *testing.T) room.Store {
		st, _, _ := openRooms(t)
		return st
	})
}
