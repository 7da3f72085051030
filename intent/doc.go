// Package intent turns an analysis request in plain words ("Analyze Q1 2021
// Arizona sales; trends + charts") into a structured Intent: the table, the
// measures, the row filters, the period and the period to compare with, the
// groupings, a top-N ranking and the kinds of analysis asked for. A planner
// turns the Intent into SQL tool calls.
//
// Parsing is offline and deterministic: no model, no network. It reads the
// request against a Schema, so that words are matched to what the data
// holds: column names (with plurals, spaces for underscores and id/name
// suffixes), the distinct values of low-cardinality text columns (case- and
// typo-tolerant), the type of each column, and the first and last date of
// each date column. Relative periods ("last 30 days", "this year") are
// anchored on the latest date in the data, because exports are historical.
//
// Every phrase the parser understood is listed in Intent.Understood in
// words, and every content word it did not in Intent.Unparsed, so that a
// user can see how the request was read.
//
// Parsing works in passes over one token list; each pass marks the tokens it
// understood, so later passes see only what is left:
//
//  1. quoted column names, table choice, date column choice
//  2. periods and comparisons (timerange.go)
//  3. analysis words (analysis.go)
//  4. top/bottom N and groupings (group.go), numeric conditions (condition.go)
//  5. measures and aggregations (measure.go)
//  6. values of text columns, exact then typo-tolerant (filter.go, values.go)
//  7. bare column names, then what is left over (finish.go)
package intent
