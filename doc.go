// Package quarry is the vocabulary of Quarry, an AI data analyst that answers
// questions over a workspace of data and documents with evidence a skeptic
// can check.
//
// This package holds what all four jobs share: the one error type with the
// specification's error codes (and Unwrap), ids and hashes, the audit
// entry and its canonical JSON, dates and date ranges, file schemas and
// query results, and text checks. It imports only the standard library.
//
// # One layout for four jobs
//
// Each job is found by its noun in every layer:
//
//	job            vocabulary      service          agent                  stores                        web pages           MCP tools         CLI
//	investigation  investigation/  investigations/  agent/investigate/     fsstore/ duckdb/              page_*.go, /api/sessions  *_investigation*  quarry investigate
//	               (its chat:                       agent/chat/)
//	analysis       analysis/       analyses/        agent/analyze/         duckdb/ sqlite/ postgres/     page_analys*.go     *_analysis*       quarry analyze
//	room           room/           rooms/           agent/ask/             sqlite/ postgres/             page_rooms*.go      *_room*           quarry room, ingest, ask
//	research       research/       researches/      agent/research/        sqlite/ postgres/             page_research*.go   *research*        quarry research
//
// A vocabulary holds the job's nouns, its Service interface (what web, MCP
// and the CLI call) and its progress event; a service runs the job on the
// shared runner and decides who may see what; an agent does the job's
// thinking over interfaces; stores are one package per dependency; web,
// mcp and cmd/quarry are transports; cmd/quarry and internal/app wire
// concrete implementations together. deps_test.go enforces the rules, and
// TestMapListsEveryPackage keeps this map whole.
//
// # The map of the codebase
//
// Vocabularies (standard library and each other only):
//
//	investigation/  the investigate job: investigations, files, the request
//	                (Context), data model, plan, hypotheses, findings,
//	                explanations, result, report, chat memory, Engine, Event
//	analysis/       the analyze job: requests, plans, tools, observations,
//	                artifacts, recipes, the column policy, Event
//	room/           data rooms: users, rooms, members, documents, pages,
//	                chunks, queries, citations, feedback, the Store contract
//	research/       research: requests, sub-questions, facts, discrepancies,
//	                the narrative report, the Store contract
//
// Services (run jobs in the background; decide access):
//
//	investigations/ the life of an investigation: files in, the run, progress,
//	                report and chat
//	analyses/       requests checked, uploads stored, analyses run, results,
//	                artifacts, audit trail, replays and recipes read back
//	rooms/          data rooms: who may see or change what, uploads, the
//	                processing workers, questions and their hourly quota
//	researches/     research runs over rooms, corpora and the web
//
// Agents (think over interfaces; no store, service or transport):
//
//	agent/investigate/         the investigation graph: schema, plan,
//	                           hypotheses, memory loop, explanations, report
//	agent/chat/                answers about a finished investigation
//	agent/analyze/             planner, executor, replay, recipes
//	agent/ask/                 a room's question: retrieval, answer, citations
//	agent/research/            sub-questions, facts, contradictions, briefing
//	agent/evidence/            the one number checker every job's text passes
//	agent/runtime/             the agents' one model call: audit, usage,
//	                           failure policy, JSON
//
// Understanding, math and rendering:
//
//	intent/         the offline parser of analysis requests
//	drill/          pure drill-down math: decomposition, segment search,
//	                significance, data-quality checks (no I/O)
//	retrieve/       passages cut, ranked and named for a question
//	report/         the investigation's Markdown report and PNG charts
//	docparse/       documents into pages: PDF, DOCX, HTML, Markdown, text, CSV
//
// Stores, engines and providers (one package per dependency):
//
//	duckdb/         investigation.Engine and analysis sources on DuckDB
//	fsstore/        investigation artifacts on disk in the spec's layout
//	sqlite/         the embedded stores (rooms, research, recipes, indexes)
//	postgres/       the same stores on PostgreSQL + pgvector, River workers,
//	                PostgreSQL as an analysis source
//	audit/          the hash-chained JSONL audit log and its verifier
//	llm/            the model contract: Model and Embedder
//	llm/anthropic/  Claude through the official SDK
//	llm/openai/     OpenAI and compatible servers through the official SDK
//	websearch/      the web as a source: search, fetch, credibility
//	mcp/codeexec/   Python on an external code-execution MCP server
//
// Transports and wiring:
//
//	web/            the HTTP API, server-sent events and pages
//	mcp/            the Model Context Protocol server
//	cmd/quarry/     the quarry command; wires implementations with
//	                internal/app
//	internal/app/   the composition root: stores, engines, models and
//	                services wired for serve, mcp, worker and the CLI
//
// Shared internals:
//
//	internal/runner/      the one bound on concurrent background work
//	internal/hub/         a run's progress events fanned out to subscribers
//	internal/budget/      the process's memory budget and watchdog
//	internal/atomicfile/  files replaced whole or not at all
//	internal/tokens/      cl100k token counts for chunks and budgets
//
// Samples, benchmarks and test support:
//
//	internal/sampledata/               deterministic sample CSV scenarios
//	internal/sampledata/cmd/gensample/ regenerates the committed samples
//	internal/sampleroom/               the sample data room's documents
//	internal/sampleresearch/           the sample research corpus
//	internal/dabench/                  InfiAgent-DABench loading and scoring
//	internal/rcabench/                 root-cause segment benchmarks
//	internal/sweep/                    the sweep over public tables
//	internal/apitest/                  a scripted HTTP server for clients
//	internal/fakeclock/                a settable clock
//	internal/otherprocess/             part of a test in a second process
//	internal/pgtest/                   private PostgreSQL servers for tests
//	docparse/docparsetest/             documents made for tests
//	llm/llmtest/                       a scripted model
//	mcp/codeexec/codeexectest/         a small code-execution MCP server
//	retrieve/retrievetest/             the retrieve.Index suite
//	room/roomtest/                     the room.Store conformance suite
//	rooms/roomstest/                   rooms.Service's suite on every store
//	research/researchtest/             the research.Store conformance suite
//	websearch/websearchtest/           a local web for tests
package quarry
