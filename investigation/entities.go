package investigation

import (
	"time"

	"github.com/quarry-dev/quarry"
)

// DataModel is the inferred model of a session's files, stored as
// analysis/schema.json.
type DataModel struct {
	SessionID             string         `json:"session_id"`
	Tables                []TableInfo    `json:"tables"`
	Relationships         []Relationship `json:"relationships"`
	RecommendedDimensions []string       `json:"recommended_dimensions"`
	// EquivalentColumns lists groups of dimensions whose values map one to
	// one (country, iso_code): the first of each group is the one used,
	// the rest say the same thing.
	EquivalentColumns [][]string `json:"equivalent_columns,omitempty"`
	// Columns says what the investigation did with each column of the
	// metric's tables (and the joined columns it sliced by), and why.
	Columns    []ColumnRole `json:"column_roles,omitempty"`
	InferredAt time.Time    `json:"inferred_at"`
}

// TableInfo summarises one table of the data model.
type TableInfo struct {
	FileID      string          `json:"file_id"`
	Name        string          `json:"name"`
	RowCount    int64           `json:"row_count"`
	ColumnCount int             `json:"column_count"`
	Columns     []quarry.Column `json:"columns,omitempty"`
}

// Relationship types.
const (
	RelForeignKey    = "foreign_key"
	RelSimilarValues = "similar_values"
)

// Relationship is a detected link between two tables' columns.
type Relationship struct {
	FromTable        string  `json:"from_table"`
	FromColumn       string  `json:"from_column"`
	ToTable          string  `json:"to_table"`
	ToColumn         string  `json:"to_column"`
	RelationshipType string  `json:"relationship_type"`
	Confidence       float64 `json:"confidence"`
	// Containment is the share of distinct from-values found in the target.
	Containment float64 `json:"containment"`
	// ToUnique is true when the target column is a key (many-to-one join).
	ToUnique bool `json:"to_unique"`
}

// Plan is the ordered plan of an investigation (analysis/plan.json).
type Plan struct {
	SessionID string     `json:"session_id"`
	Steps     []PlanStep `json:"steps"`
	CreatedAt time.Time  `json:"created_at"`
}

// Plan phases.
const (
	PhaseExploration          = "exploration"
	PhaseHypothesisGeneration = "hypothesis_generation"
	PhaseValidation           = "validation"
)

// PlanStep is one step of a Plan.
type PlanStep struct {
	StepNumber        int      `json:"step_number"`
	Phase             string   `json:"phase"`
	Description       string   `json:"description"`
	TablesInvolved    []string `json:"tables_involved"`
	DimensionsToCheck []string `json:"dimensions_to_check"`
}

// HypothesisStatus is a hypothesis's state in the memory loop.
type HypothesisStatus string

const (
	HypPending       HypothesisStatus = "PENDING"
	HypInvestigating HypothesisStatus = "INVESTIGATING"
	HypConfirmed     HypothesisStatus = "CONFIRMED"
	HypRuledOut      HypothesisStatus = "RULED_OUT"
)

// CanMove reports whether the specification allows the status change.
func (s HypothesisStatus) CanMove(to HypothesisStatus) bool {
	switch s {
	case HypPending:
		return to == HypInvestigating
	case HypInvestigating:
		return to == HypConfirmed || to == HypRuledOut || to == HypPending
	}
	return false
}

// Hypothesis kinds: which test decides a hypothesis.
const (
	KindVolume      = "volume"
	KindRate        = "rate"
	KindMix         = "mix"
	KindDataQuality = "data_quality"
	KindCalendar    = "calendar"
	// KindUniform explains a real change that no segment carries: the
	// whole population moved.
	KindUniform = "uniform"
	// KindConcentration explains a change that a few rows carry (one
	// large order, one costly incident): the rows are named.
	KindConcentration = "concentration"
)

// Hypothesis is a candidate explanation (analysis/hypotheses/hyp_NNN.json).
type Hypothesis struct {
	HypothesisID    string           `json:"hypothesis_id"`
	SessionID       string           `json:"session_id"`
	Title           string           `json:"title"`
	CausalStory     string           `json:"causal_story"`
	Dimensions      []string         `json:"dimensions"`
	ExpectedPattern string           `json:"expected_pattern"`
	Priority        int              `json:"priority"`
	Status          HypothesisStatus `json:"status"`
	// Kind says which test decides this hypothesis (a Kind constant, or
	// "segment" for a search over dimension values).
	Kind      string    `json:"kind"`
	Verdict   string    `json:"verdict,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// Finding is one condensed result of the memory loop.
type Finding struct {
	FindingID          string    `json:"finding_id"`
	Iteration          int       `json:"iteration"`
	Summary            string    `json:"summary"`
	FullOutputRef      string    `json:"full_output_ref"`
	HypothesisAffected string    `json:"hypothesis_affected,omitempty"`
	CreatedAt          time.Time `json:"created_at"`
}

// Loop decisions.
const (
	DecisionAnalyze   = "ANALYZE"
	DecisionDrillDown = "DRILL_DOWN"
	DecisionPivot     = "PIVOT"
	DecisionConclude  = "CONCLUDE"
)

// IterationLog is the full record of one memory-loop iteration
// (analysis/iterations/iter_NNN.json).
type IterationLog struct {
	Iteration               int                         `json:"iteration"`
	Decision                string                      `json:"decision"`
	Reasoning               string                      `json:"reasoning"`
	CodeExecuted            string                      `json:"code_executed"`
	RawOutput               string                      `json:"raw_output"`
	CompressedSummary       string                      `json:"compressed_summary"`
	HypothesisStatusChanges map[string]HypothesisStatus `json:"hypothesis_status_changes,omitempty"`
	Timestamp               time.Time                   `json:"timestamp"`
	// Tokens is what the model consumed in this iteration; nil offline.
	Tokens *TokenUsage `json:"tokens,omitempty"`
	// WorkingMemoryTokens is the estimated size of the working memory the
	// model was given to decide this iteration (budget ~6000); 0 offline.
	WorkingMemoryTokens int `json:"working_memory_tokens,omitempty"`
}

// TokenUsage is the model tokens consumed by a call, an iteration or a
// whole investigation.
type TokenUsage struct {
	Calls        int `json:"calls"`
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Add counts one more call's tokens.
func (u *TokenUsage) Add(in, out int) {
	u.Calls++
	u.InputTokens += in
	u.OutputTokens += out
}

// Loop exit reasons.
const (
	ExitConclude      = "CONCLUDE"
	ExitMaxIterations = "MAX_ITERATIONS"
	ExitStall         = "STALL_DETECTED"
)

// FindingsLedger is every condensed finding of a run
// (analysis/findings_ledger.json).
type FindingsLedger struct {
	SessionID          string                      `json:"session_id"`
	Findings           []Finding                   `json:"findings"`
	HypothesisOutcomes map[string]HypothesisStatus `json:"hypothesis_outcomes"`
	TotalIterations    int                         `json:"total_iterations"`
	ExitReason         string                      `json:"exit_reason"`
	CreatedAt          time.Time                   `json:"created_at"`
}

// Likelihood labels, by rank.
const (
	LikelihoodMostLikely = "Most Likely"
	LikelihoodLikely     = "Likely"
	LikelihoodPossible   = "Possible"
	LikelihoodLessLikely = "Less Likely"
)

// LikelihoodForRank maps a rank to its label: 1 Most Likely, 2-3 Likely,
// 4-5 Possible, 6+ Less Likely.
func LikelihoodForRank(rank int) string {
	switch {
	case rank <= 1:
		return LikelihoodMostLikely
	case rank <= 3:
		return LikelihoodLikely
	case rank <= 5:
		return LikelihoodPossible
	}
	return LikelihoodLessLikely
}

// SegmentValue is one column=value condition of a segment.
type SegmentValue struct {
	Column string `json:"column"`
	Value  string `json:"value"`
}

// Segment is a conjunction of column=value conditions; empty means the
// whole population.
type Segment []SegmentValue

// String renders the segment as "a=x AND b=y", or "all rows".
func (s Segment) String() string {
	if len(s) == 0 {
		return "all rows"
	}
	out := ""
	for i, v := range s {
		if i > 0 {
			out += " AND "
		}
		out += v.Column + "=" + v.Value
	}
	return out
}

// Evidence is one measured fact behind an explanation: the numbers and the
// SQL statement that produced them.
type Evidence struct {
	Description   string             `json:"description"`
	SQL           string             `json:"sql"`
	Values        map[string]float64 `json:"values"`
	AuditSequence int                `json:"audit_sequence,omitempty"`
	FindingID     string             `json:"finding_id,omitempty"`
	FullOutputRef string             `json:"full_output_ref,omitempty"`
}

// Explanation is one ranked answer (results/explanations.json).
type Explanation struct {
	Rank             int        `json:"rank"`
	Title            string     `json:"title"`
	Likelihood       string     `json:"likelihood"`
	Evidence         []Evidence `json:"evidence"`
	Reasoning        string     `json:"reasoning"`
	CausalStory      string     `json:"causal_story"`
	SourceHypotheses []string   `json:"source_hypotheses"`
	Kind             string     `json:"kind"`
	Segment          Segment    `json:"segment"`
	ShareOfChange    float64    `json:"share_of_change"`
	// Change is the signed amount of the metric's change this explanation
	// accounts for, in the metric's units.
	Change float64 `json:"change"`
	// Headline is the explanation's number as every surface prints it
	// (Numbers.Contribution): the change it accounts for, signed as the
	// total change is, and its share of that change, "-57,276 (58.6% of
	// the change)".
	Headline string `json:"headline,omitempty"`
	// PValue is the adjusted p-value of the explanation's effect, when the
	// analyst could estimate one.
	PValue      *float64 `json:"p_value,omitempty"`
	Significant bool     `json:"significant"`
}

// OverallChange is the metric in both periods.
type OverallChange struct {
	Metric          string  `json:"metric"`
	BaselineValue   float64 `json:"baseline_value"`
	ComparisonValue float64 `json:"comparison_value"`
	Change          float64 `json:"change"`
	ChangePct       float64 `json:"change_pct"`
	Significant     bool    `json:"significant"`
	PValue          float64 `json:"p_value"`
	// Grain is the spacing of the data's dates, one of the Grain
	// constants: monthly data is compared month by month.
	Grain string `json:"grain,omitempty"`
	// BelowPrecision is a change too small to tell from the rounding of
	// floating-point sums: no change, whatever its sign.
	BelowPrecision bool `json:"below_precision,omitempty"`
}

// Grains: the spacing of a dataset's dates.
const (
	GrainDay     = "day"
	GrainWeek    = "week"
	GrainMonth   = "month"
	GrainQuarter = "quarter"
	GrainYear    = "year"
)

// Outcomes of a finished investigation.
const (
	OutcomeCompleted  = "completed"
	OutcomeNoFindings = "no_findings"
	OutcomeFailed     = "failed"
)

// Result is what an investigation returns to its caller.
type Result struct {
	SessionID string        `json:"session_id"`
	Status    string        `json:"status"`
	Overall   OverallChange `json:"overall"`
	// Answer is the paragraph the report, the command line and the chat
	// open with: what moved, by how much, between which periods, and the
	// top explanation with its number, or why nothing explains it.
	Answer       string        `json:"answer,omitempty"`
	Explanations []Explanation `json:"explanations"`
	// Numbers is how the metric's values are printed, the same on every
	// surface; the explanations' Headline and the Answer use it.
	Numbers    Numbers `json:"-"`
	ReportPath string  `json:"report_path"`
	// Warnings are things the reader must know before trusting the
	// numbers: overlapping periods, a metric with no values in a period.
	Warnings []string `json:"warnings,omitempty"`
	// Columns is what the investigation did with each column (the data
	// model's column roles).
	Columns []ColumnRole `json:"columns,omitempty"`
	// Breakdowns split the change by the dimensions the question named.
	Breakdowns []Breakdown `json:"breakdowns,omitempty"`
	// Memory is the compiled memory document, for the chat index.
	Memory *MemoryDocument `json:"-"`
	// Model names the model that took part, empty offline; Tokens is what
	// it consumed over the whole investigation.
	Model  string      `json:"model,omitempty"`
	Tokens *TokenUsage `json:"tokens,omitempty"`
}

// Report is the generated report of a finished investigation (report.md).
type Report struct {
	SessionID   string    `json:"session_id"`
	Content     string    `json:"content"`
	GeneratedAt time.Time `json:"generated_at"`
	Status      string    `json:"status"` // OutcomeCompleted or OutcomeNoFindings
}
