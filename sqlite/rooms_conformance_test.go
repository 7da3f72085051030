package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/room/roomtest"
	"github.com/quarry-dev/quarry/sqlite"
)

func TestRoomsConformance(t *testing.T) {
	roomtest.Run(t, func(t *testing.T) room.Store {
		st, err := sqlite.OpenRooms(filepath.Join(t.TempDir(), "rooms.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	})
}

func TestRoomsConformanceInMemory(t *testing.T) {
	roomtest.Run(t, func(t *testing.T) room.Store {
		st, err := sqlite.OpenRooms(":memory:")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	})
}

// BenchmarkRoomsSearch50k is roomtest.Bench50k on a file database.
//
//	go test ./sqlite -run - -bench RoomsSearch50k -benchtime 200x -timeout 30m
func BenchmarkRoomsSearch50k(b *testing.B) {
	st, err := sqlite.OpenRooms(filepath.Join(b.TempDir(), "rooms.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	roomtest.Bench50k(b, st)
}
