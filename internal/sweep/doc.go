// Package sweep holds the sweep over real public tables: a test that
// builds the quarry binary and, for every table of a corpus of public data,
// runs as child processes the commands a user runs on it, a profile, a
// default investigation (COUNT(*) and the SUM of numeric columns over the
// two halves of the table's time range) and a default analysis ("summary
// statistics"), each within a time and memory budget, and prints one line
// per run: file, rows, columns, step, status, seconds and peak memory.
//
// The corpus is the npm package vega-datasets, pinned in tools/vega
// ($QUARRY_VEGA_DATASETS is its data folder), and, when
// $QUARRY_STATSMODELS_DATASETS names it, the datasets folder of Debian's
// python3-statsmodels. JSON tables are converted to CSV and TSV tables to
// comma-separated CSV before Quarry reads them, since the investigation
// takes CSV; the Parquet table (three million flights) has the analysis
// only, over its own file; files that are not tables of records (TopoJSON,
// GeoJSON, a graph, grids, images, Arrow) are listed as skipped with the
// reason.
//
// Without the corpus the sweep skips, except under CI=true, where it fails.
// The package has no code of its own beyond its tests.
package sweep
