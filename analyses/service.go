package analyses

import "github.com/quarry-dev/quarry/analysis"

// Service is the analyze job's vocabulary's Service: what the web server
// and the MCP server call.
var _ analysis.Service = (*Service)(nil)
