// Package sampledata generates Quarry's sample data: small, deterministic
// CSV scenarios whose metric moves for planted, documented causes, and a
// large orders generator for benchmarks.
//
// The scenarios serve two callers. "quarry demo" writes one into a
// directory at run time (nothing is embedded in the binary), and the
// end-to-end tests read the committed copies under testdata/<scenario>/ and
// check that an investigation finds the planted causes. Every random draw
// comes from a PCG generator with a fixed seed, so the same scenario always
// has the same bytes; the package tests check that the committed copies are
// current and that each planted cause has the size its Cause documents.
//
// Regenerate the committed copies with
//
//	go run ./internal/sampledata/cmd/gensample
//
// or "go test ./internal/sampledata -update". testdata/README.md documents
// each scenario's files, periods and measured causes.
package sampledata
