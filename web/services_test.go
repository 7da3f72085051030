package web

import "github.com/quarry-dev/quarry/rooms"

// The services the wiring hands the server implement its interfaces.
var _ RoomService = (*rooms.Service)(nil)
