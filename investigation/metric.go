package investigation

import (
	"fmt"
)

// Metric kinds. Additive metrics (sum, count) decompose into segment
// contributions that add up; ratio and average metrics decompose into rate
// and mix effects; distinct counts into unique contributions plus an overlap.
const (
	MetricSum      = "sum"
	MetricCount    = "count"
	MetricDistinct = "count_distinct"
	MetricRatio    = "ratio"
	MetricAverage  = "average"
)

// Metric is a parsed metric definition: one aggregate expression over the
// uploaded tables. The metric's value over a set of rows is
//
//	Scale * Numerator / Denominator   (Denominator "" means 1)
//
// where Numerator and Denominator are SQL aggregates whose values over a
// union of disjoint groups are the sums of their values over each group
// (SUM, COUNT, and their FILTER / CASE forms). That is what lets Quarry
// aggregate once per segment and period and do the rest of the arithmetic in
// Go. Distinct counts are the exception: DistinctExpr holds the counted
// expression, Numerator is COUNT(DISTINCT ...), and only DuckDB can combine
// groups.
type Metric struct {
	SQL          string   `json:"sql"`
	Kind         string   `json:"kind"`
	Numerator    string   `json:"numerator"`
	Denominator  string   `json:"denominator,omitempty"`
	Scale        float64  `json:"scale"`
	DistinctExpr string   `json:"distinct_expr,omitempty"`
	From         string   `json:"from"`  // the FROM clause, joins included, without the keyword
	Where        string   `json:"where"` // the WHERE condition without the keyword, or ""
	Tables       []string `json:"tables"`
	// TableRefs maps each table of Tables (lower case) to the name the FROM
	// clause gives it: its alias, or its own name.
	TableRefs map[string]string `json:"table_refs,omitempty"`
	// TimeColumn is the qualified column ("orders.order_date") that places a
	// row in a period.
	TimeColumn string `json:"time_column"`
	// RowValue is the Numerator's value on one row when the Numerator is
	// SUM of a row expression (without DISTINCT, FILTER or ORDER BY): that
	// expression, with which a query reads rows one by one without a
	// GROUP BY of a group per row. "" for other metrics.
	RowValue string `json:"row_value,omitempty"`
}

// Additive reports whether segment values of the metric add up to the total.
func (m *Metric) Additive() bool { return m.Kind == MetricSum || m.Kind == MetricCount }

// Ratio reports whether the metric is a ratio of two additive aggregates.
func (m *Metric) Ratio() bool { return m.Kind == MetricRatio || m.Kind == MetricAverage }

// Value returns the metric for the given numerator and denominator.
func (m *Metric) Value(num, den float64) float64 {
	scale := m.Scale
	if scale == 0 {
		scale = 1
	}
	if !m.Ratio() {
		return scale * num
	}
	if den == 0 {
		return 0
	}
	return scale * num / den
}

func (m *Metric) String() string {
	if m.Denominator != "" {
		return fmt.Sprintf("%s: %s / %s", m.Kind, m.Numerator, m.Denominator)
	}
	return fmt.Sprintf("%s: %s", m.Kind, m.Numerator)
}
