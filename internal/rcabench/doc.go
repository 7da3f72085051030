// Package rcabench scores the segment search investigations run
// (drill.Search) on the multi-dimensional root-cause
// benchmarks kept under /work/shared/bench/rca: Squeeze B0, RiskLoc S and L
// (additive) and RobustSpot RS (a ratio metric).
//
// It loads each dataset's cases.csv and leaf files into drill.Cube values,
// runs the search on every case, and scores the answers the way the papers
// do: exact element match, micro-averaged precision, recall and F1 over all
// cases of a setting. The data is read by path at run time and never copied
// into the repository.
package rcabench
