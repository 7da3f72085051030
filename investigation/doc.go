// Package investigation is the vocabulary of the investigate job: why did
// a metric move between two periods? It holds the job's nouns (the
// investigation and its uploaded files, the request as Context, the data
// model, plan, hypotheses, findings, explanations, the result and report,
// the chat's memory), the Engine it queries data through, the Service that
// the web server, the MCP server and the CLI call, and the progress Event
// a run publishes.
//
// The specification calls an investigation a session: its id is
// session_id and its API lives under /api/sessions. Go code and pages call
// it an investigation.
//
// Service: package investigations. Agent: agent/investigate (and
// agent/chat for its chat). Stores: fsstore (files), duckdb (the Engine),
// sqlite/postgres for the chat's index. Transports: web (pages and
// /api/sessions), mcp (the *_investigation tools), cmd/quarry (quarry
// investigate).
package investigation
