// Package report renders a finished investigation for people: a Markdown
// report (report.md) in the section order of the specification, and the
// PNG charts it links to (a contribution waterfall and, per top segment, the
// daily metric in both periods).
//
// Markdown is a pure function of its Input so it can be golden-tested; Write
// renders every chart in memory first and replaces files with a temp file
// and a rename, so a failed run never leaves a report that points at charts
// that are missing.
//
// Nothing in the input makes rendering cost unbounded time or memory: value
// axes are stepped by counts (axis.go), a flat series gets a padded axis,
// and lines, categories, bars, charts and the report's bytes have the
// budgets of budget.go, past which the chart or report says what it left
// out.
package report
