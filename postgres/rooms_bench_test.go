package postgres_test

import (
	"testing"

	"github.com/quarry-dev/quarry/room/roomtest"
)

// BenchmarkRoomsSearch50k is roomtest.Bench50k on PostgreSQL, acting as a
// member so that the row-level security policies are in the path.
//
//	go test ./postgres -run - -bench RoomsSearch50k -benchtime 200x -timeout 30m
func BenchmarkRoomsSearch50k(b *testing.B) {
	st, _, _ := openRooms(b)
	roomtest.Bench50k(b, st)
}
