package researches

import "github.com/quarry-dev/quarry/research"

// Service is the research job's vocabulary's Service, web search included:
// what the web server, the MCP server and the command line call.
var _ research.WebService = (*Service)(nil)
