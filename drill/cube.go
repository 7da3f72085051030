package drill

// A Cube is a table of leaf segments: one row per combination of values of
// Dims, with the metric's numerator and denominator in the baseline and the
// comparison period. Dimension values are dictionary-encoded column by
// column: Labels[d][Codes[d][i]] is the value of dimension d in leaf i.
//
// For an additive metric Den0 and Den1 are nil. For a ratio metric the value
// of any set of leaves is sum(Num)/sum(Den).
type Cube struct {
	Dims   []string
	Labels [][]string
	Codes  [][]int32
	Num0   []float64 // baseline (expected) numerator per leaf
	Num1   []float64 // comparison (observed) numerator per leaf
	Den0   []float64 // baseline denominator per leaf; nil if additive
	Den1   []float64 // comparison denominator per leaf; nil if additive
}

// Len returns the number of leaves.
func (c *Cube) Len() int { return len(c.Num0) }

// Ratio reports whether the cube holds a ratio metric.
func (c *Cube) Ratio() bool { return c.Den0 != nil }

// Cond is one dimension=value condition, by dimension index and value code.
type Cond struct {
	Dim  int
	Code int32
}

// Part is one piece of a partition of the population (a segment, or
// "everything else") with the metric's numerator and denominator in each
// period. For additive metrics Den0 and Den1 are ignored.
type Part struct {
	Name       string
	Num0, Den0 float64
	Num1, Den1 float64
}
