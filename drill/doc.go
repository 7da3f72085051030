// Package drill is the drill-down math of an investigation: decomposition of
// a metric's change into segment contributions that add up exactly (rate
// and mix for ratios), the search for the few segments that explain most of
// a change, significance against day-level noise with a correction for
// testing many segments, and data-quality checks.
//
// drill does no I/O and imports only the standard library: it takes
// aggregated rows (segments x periods, days x segments) that a SQL engine
// computed and decides what they mean, so every function here can be tested
// and benchmarked without a database.
package drill
