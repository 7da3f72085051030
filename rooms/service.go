package rooms

import "github.com/quarry-dev/quarry/room"

// Service is the data rooms' vocabulary's Service: what the web server,
// the MCP server and the command line call.
var _ room.Service = (*Service)(nil)
