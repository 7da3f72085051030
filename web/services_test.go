package web

import (
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
)

// The services the wiring hands the server implement its interfaces.
var _ room.Service = (*rooms.Service)(nil)
