package app

import (
	"context"
	"path/filepath"

	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
	"github.com/quarry-dev/quarry/sqlite"
)

// RoomsPath is the data rooms' store under a data dir.
func RoomsPath(dataDir string) string { return filepath.Join(dataDir, "db", "rooms.db") }

// OpenRooms wires the data rooms over a data dir's embedded store, with
// the local owner of single-user mode created on first use. Close the
// store when done.
func OpenRooms(ctx context.Context, dataDir string) (*rooms.Service, *room.User, func() error, error) {
	st, err := sqlite.OpenRooms(RoomsPath(dataDir))
	if err != nil {
		return nil, nil, nil, err
	}
	svc := &rooms.Service{Store: st, Dir: dataDir}
	owner, err := svc.EnsureUser(ctx, rooms.LocalOwner)
	if err != nil {
		st.Close()
		return nil, nil, nil, err
	}
	return svc, owner, st.Close, nil
}
