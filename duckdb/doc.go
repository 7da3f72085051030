// Package duckdb implements quarry.Engine on an embedded, in-memory DuckDB
// database.
//
// An Engine goes through two phases. While it is open, LoadCSV validates
// uploaded CSV files (header, ragged rows, encoding), loads each into a real
// table with DuckDB's type detection and profiles its columns. Lock then
// seals the database: no file or network access, no extensions, no
// configuration changes. After Lock the engine answers read-only SELECT
// statements only (Query, QueryFunc), parses metric definitions
// (ParseMetric, TimeColumn) and detects joins between tables
// (Relationships).
//
// All work runs on one database connection so that SET statements apply to
// every later statement; database/sql serialises callers on that
// connection, which also means a QueryFunc callback must not call back into
// the Engine.
//
// Every input is bounded before DuckDB sees it: a CSV file has at most
// MaxColumns columns and no NUL byte (checkCSV), SQL text is at most
// MaxSQLLen bytes, and a value from data or from a user reaches DuckDB as
// a query parameter, never spliced into SQL text (see quoteString). Work
// that runs out of DuckDB's memory limit ends with RESOURCE_LIMIT.
//
// Metric SQL is analysed on DuckDB's own parse tree: json_serialize_sql
// turns a statement into a JSON AST and json_deserialize_sql turns
// fragments of it back into SQL text, so there is no second SQL grammar in
// Go to drift from DuckDB's. What a query reads, for the analyses' column
// policy, comes from one step further: the bound, unoptimized plan
// (json_serialize_plan), where every table scan lists the columns the
// binder resolved, however the text reached them (Scans).
package duckdb
