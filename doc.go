// Package quarry is the vocabulary of Quarry, an AI data analyst that answers
// questions over a workspace of data and documents with evidence a skeptic
// can check.
//
// This package holds the domain types (sessions, uploaded files and their
// schemas, investigation entities, audit entries), their validation, the one
// error type with the specification's error codes, and the interfaces that
// have more than one implementation. It imports only the standard library.
//
// The map of the codebase:
//
//	drill/              pure drill-down math: decomposition, segment search,
//	                    significance, data-quality checks (no I/O)
//	duckdb/             quarry.Engine on embedded DuckDB: CSV loading and
//	                    validation, profiling, metric SQL parsing, sandboxed SQL
//	fsstore/            session artifacts on disk in the specification's layout
//	audit/              the hash-chained JSONL audit log and its verifier
//	agent/investigate/  the investigation graph: schema, plan, hypotheses,
//	                    memory loop, explanations, report
//	analysis/           the analyze job's vocabulary: requests, plans, tools,
//	                    observations, artifacts, recipes, the column policy
//	intent/             the offline parser of analysis requests
//	agent/analyze/      the analyze agent: planner, executor, replay, recipes
//	report/             Markdown report and PNG charts
//	cmd/quarry/         the quarry command; the only package that wires
//	                    concrete implementations together
package quarry
