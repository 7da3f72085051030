package investigation

// Breakdown is the change split by a dimension the question named ("which
// industries drove it?"), shown whatever the top explanation is, or the
// reason no such split could be made (Dimension empty).
type Breakdown struct {
	// Asked is what the question wrote: "industries", "country".
	Asked string `json:"asked"`
	// Dimension is the column split by; empty when none could be.
	Dimension string `json:"dimension,omitempty"`
	// Note says what the reader must know: the column matched no name
	// and the only dimension is shown instead, or why nothing is.
	Note string `json:"note,omitempty"`
	// Change is the overall change the rows' shares are of.
	Change float64        `json:"change"`
	Rows   []BreakdownRow `json:"rows,omitempty"`
	// Evidence is the recorded query the rows come from.
	Evidence *Evidence `json:"evidence,omitempty"`
}

// BreakdownRow is one value of a breakdown's dimension, largest change
// first.
type BreakdownRow struct {
	Value      string  `json:"value"`
	Baseline   float64 `json:"baseline"`
	Comparison float64 `json:"comparison"`
	Change     float64 `json:"change"`
	// Share is Change over the overall change, signed: a value that
	// moved against the total has a negative share.
	Share float64 `json:"share_of_change"`
}
