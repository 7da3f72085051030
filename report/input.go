package report

import (
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// Input is everything a report shows. The investigation agent fills it from
// the artifacts of a finished run; Markdown and Write do not read any files.
type Input struct {
	// Title names the metric in the heading ("Revenue" gives "Revenue
	// Investigation Report").
	Title   string
	Context investigation.Context
	// Metric is the parsed metric; its Kind and Scale decide how values are
	// printed (a ratio with Scale 1 and values below 1 is shown in percent).
	Metric  investigation.Metric
	Overall investigation.OverallChange
	// WithinPrecision marks an overall change within the floating-point
	// rounding of the sums (drill.WithinPrecision, decided by the
	// investigation's test): the report says the metric did not change
	// beyond floating-point precision instead of quoting a test.
	WithinPrecision bool
	// Status is quarry.OutcomeCompleted or quarry.OutcomeNoFindings.
	Status string
	// NoFindingsReason says, in a sentence, why nothing was found.
	NoFindingsReason string
	DataModel        investigation.DataModel
	Plan             investigation.Plan
	// Hypotheses carry their final statuses and verdicts.
	Hypotheses   []investigation.Hypothesis
	Ledger       investigation.FindingsLedger
	Iterations   []investigation.IterationLog
	Explanations []investigation.Explanation
	// Breakdowns split the change by the dimensions the question named.
	Breakdowns []investigation.Breakdown
	// DataQuality holds data-quality problems large enough to matter,
	// already phrased for people; DataNotes the ones each too small to move
	// the metric by a tenth of the change, which get no "fix the data
	// first" banner.
	DataQuality []string
	DataNotes   []string
	// NextSteps are the recommended next steps; when empty the report
	// derives them from the explanations.
	NextSteps []string
	// Waterfall holds the contributions to the change, in metric units, in
	// the order they are drawn. The chart starts at the baseline value and
	// ends at the comparison value.
	Waterfall []Bar
	// Series holds the daily metric of the top segments, one chart each.
	Series []Series
	// Summary is the executive summary a model wrote, its numbers already
	// checked (unverified ones carry the evidence marker); empty offline.
	// Model names that model, and Tokens is what it consumed.
	Summary string
	Model   string
	Tokens  *investigation.TokenUsage
	// Warnings are shown under the overall change, before anything else.
	Warnings []string
	// AuditLog is the audit log's path relative to the session, for the
	// footer.
	AuditLog    string
	GeneratedAt time.Time
}

// KindOther marks the "everything else" bar of a waterfall; it is drawn in
// a muted colour so it does not compete with named explanations.
const KindOther = "other"

// Bar is one bar of the contribution waterfall.
type Bar struct {
	Label string
	// Value is the bar's contribution (or, for the start and end bars, the
	// total) in metric units.
	Value float64
	// Kind is the explanation kind (quarry.KindRate, quarry.KindDataQuality,
	// ..., or KindOther); it picks the bar's colour.
	Kind string
}

// Series is the daily metric of one segment in both periods.
type Series struct {
	// Name names the segment, e.g. "device=mobile".
	Name                 string
	Baseline, Comparison []Point
}

// Point is the metric on one day.
type Point struct {
	Date  quarry.Date
	Value float64
}

// Charts holds the chart paths a report links to, relative to the report's
// directory. An empty Waterfall means there is no waterfall chart;
// Series[i] is the chart of Input.Series[i].
type Charts struct {
	Waterfall string
	Series    []string
}
