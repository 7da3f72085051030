package rooms_test

import (
	"path/filepath"
	"testing"

	"github.com/quarry-dev/quarry/rooms"
	"github.com/quarry-dev/quarry/rooms/roomstest"
	"github.com/quarry-dev/quarry/sqlite"
)

// openService returns a Service over a new SQLite store and an empty
// directory, without workers.
func openService(t *testing.T) *rooms.Service {
	t.Helper()
	st, err := sqlite.OpenRooms(filepath.Join(t.TempDir(), "rooms.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return rooms.New(rooms.Config{Store: st, Dir: t.TempDir()})
}

// TestService runs the service's suite (leakage between rooms, roles,
// bad input, users) on SQLite; postgres.TestRoomsService runs it on
// PostgreSQL.
func TestService(t *testing.T) {
	roomstest.Run(t, openService)
}
