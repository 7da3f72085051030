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
