package postgres_test

import (
	"testing"

	"github.com/quarry-dev/quarry/rooms"
	"github.com/quarry-dev/quarry/rooms/roomstest"
)

// TestRoomsService runs the service's suite (leakage between rooms,
// roles, bad input, users) on PostgreSQL, connected as a role that
// row-level security binds; rooms.TestService runs it on SQLite. Without
// PostgreSQL it skips, and under CI=true it fails.
func TestRoomsService(t *testing.T) {
	roomstest.Run(t, func(t *testing.T) *rooms.Service {
		st, _, _ := openRooms(t)
		return rooms.New(rooms.Config{Store: st, Dir: t.TempDir()})
	})
}
