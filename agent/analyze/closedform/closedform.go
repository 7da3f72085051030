// Package closedform answers closed-form data questions over one table
// offline: questions such as "What is the Pearson correlation between
// Fare and Age, and its p-value?" whose answers are numbers or short
// labels in a stated format (@name[value], rounded as told).
//
// No model is involved. Answer reads the question, its constraints and
// its answer format with rules written for the kinds of question data
// analysts ask — summary statistics, correlation, distribution and
// normality tests, outliers, missing values and other preprocessing,
// new columns computed from others, group comparisons and simple
// regression — computes the values over the table with statistics that
// match pandas and scipy defaults, and leaves out what it cannot
// compute rather than guessing.
//
// The table is read with SQL through the Querier interface, so the
// package depends on no concrete engine.
package closedform

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/quarry-dev/quarry"
)

// Querier runs one read-only SQL SELECT statement and returns its whole
// result. A duckdb.Engine satisfies it.
type Querier interface {
	Query(ctx context.Context, sql string) (*quarry.QueryResult, error)
}

// Column describes a column of the table.
type Column struct {
	Name string
	Type string // quarry.TypeString, TypeInteger, TypeFloat, ...
}

// Question is one closed-form question over one table.
type Question struct {
	Text        string // the question
	Constraints string // how to compute it: methods, thresholds, rounding
	Format      string // the answer format: @name[placeholder] and descriptions
	// Table is the SQL relation holding the data, written as it goes after
	// FROM: normally the loaded table's name.
	Table   string
	Columns []Column // optional; the query result names the columns
}

// Spec is what the format says about one answer: its name, the decimals
// to round to (-1 when not stated) and its kind ("number", "integer",
// "text", "bool" or ""). It mirrors dabench.Spec.
type Spec struct {
	Name     string
	Decimals int
	Kind     string
}

// The kinds of Spec.
const (
	KindNumber  = "number"
	KindInteger = "integer"
	KindText    = "text"
	KindBool    = "bool"
)

// Answer computes the answers of question over the table q holds, one
// value per spec it can compute, formatted as the spec asks. Names it
// cannot compute are left out. Errors: those of q when the table cannot
// be read.
func Answer(ctx context.Context, q Querier, question Question, specs []Spec) (map[string]string, error) {
	if strings.TrimSpace(question.Table) == "" {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "closedform: no table to read")
	}
	f, err := loadFrame(ctx, q, question.Table)
	if err != nil {
		return nil, err
	}
	a := newAnalysis(question, f, specs)
	return a.run(), nil
}

// formatValue prints x as spec asks.
func formatValue(x float64, spec Spec) string {
	if math.IsNaN(x) {
		return "nan"
	}
	if math.IsInf(x, 0) {
		if x > 0 {
			return "inf"
		}
		return "-inf"
	}
	d := spec.Decimals
	if spec.Kind == KindInteger && d < 0 {
		d = 0
	}
	if d < 0 {
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatFloat(x, 'f', 0, 64)
		}
		d = 2
	}
	s := strconv.FormatFloat(x, 'f', d, 64)
	if s == "-0" || strings.TrimRight(strings.TrimPrefix(s, "-0"), "0.") == "" && strings.HasPrefix(s, "-") {
		s = strings.TrimPrefix(s, "-")
	}
	return s
}
