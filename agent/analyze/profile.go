package analyze

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// ColumnProfile is profiler.analyze's account of one column.
type ColumnProfile struct {
	Column   string   `json:"column"`
	Type     string   `json:"type"`
	Count    int64    `json:"count"`
	Missing  int64    `json:"missing"`
	Distinct int64    `json:"distinct"`
	Min      *float64 `json:"min,omitempty"`
	Max      *float64 `json:"max,omitempty"`
	Mean     *float64 `json:"mean,omitempty"`
	Std      *float64 `json:"std,omitempty"`
	Median   *float64 `json:"median,omitempty"`
	Q1       *float64 `json:"q1,omitempty"`
	Q3       *float64 `json:"q3,omitempty"`
	Skewness *float64 `json:"skewness,omitempty"`
	Kurtosis *float64 `json:"kurtosis,omitempty"`
	// Outliers counts values beyond 1.5 interquartile ranges of the
	// quartiles (Tukey's fences).
	Outliers *int64 `json:"outliers,omitempty"`
	// Normal says whether the values look normally distributed by the
	// Jarque-Bera test at the 5% level (n >= 8).
	Normal *bool `json:"normal,omitempty"`
}

// Correlation is Pearson's r between two numeric columns.
type Correlation struct {
	A string  `json:"a"`
	B string  `json:"b"`
	R float64 `json:"r"`
	N int64   `json:"n"`
}

// maxProfileColumns bounds the columns one profile reads; maxCorrelated
// the numeric columns it correlates pairwise.
const (
	maxProfileColumns = 60
	maxCorrelated     = 12
)

// runProfile computes per-column statistics and the correlations of the
// numeric columns of the input step's table or a source table, and keeps
// the statistics as the step's table.
func (r *run) runProfile(ctx context.Context, t *analysis.Subtask, a *analysis.ProfileArgs) (*output, error) {
	table := a.Table
	var cols []quarry.Column
	if a.Input != "" {
		in, err := r.input(a.Input, a.Columns...)
		if err != nil {
			return nil, err
		}
		table, cols = in.table, in.columns
	} else {
		var err error
		if cols, err = r.ws.Columns(ctx, strings.ToLower(table)); err != nil {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "no table %q to profile", table)
		}
		table = strings.ToLower(table)
		if len(r.req.Policy.AllowedColumns) > 0 {
			// A source table is profiled on the allowed columns only.
			cols = slices.DeleteFunc(cols, func(c quarry.Column) bool { return !r.req.Policy.Allows(table, c.Name) })
		}
	}
	if len(a.Columns) > 0 {
		var keep []quarry.Column
		for _, c := range cols {
			for _, want := range a.Columns {
				if strings.EqualFold(c.Name, want) {
					keep = append(keep, c)
				}
			}
		}
		if len(keep) < len(a.Columns) {
			names := make([]string, len(cols))
			for i, c := range cols {
				names[i] = c.Name
			}
			for _, want := range a.Columns {
				if analysis.Closest(want, names) != want {
					return nil, missingColumn(want, names, table)
				}
			}
		}
		cols = keep
	}
	cols = cols[:min(len(cols), maxProfileColumns)]
	var profiles []ColumnProfile
	var numeric []string
	for _, c := range cols {
		p, err := r.profileColumn(ctx, table, c)
		if err != nil {
			return nil, err
		}
		profiles = append(profiles, p)
		if p.Mean != nil && len(numeric) < maxCorrelated {
			numeric = append(numeric, c.Name)
		}
	}
	var corrs []Correlation
	for i := range numeric {
		for j := i + 1; j < len(numeric); j++ {
			a, b := finiteDouble(quoteIdent(numeric[i])), finiteDouble(quoteIdent(numeric[j]))
			res, err := r.ws.Query(ctx, fmt.Sprintf("SELECT corr(%s, %s), count(*) FILTER (WHERE %s IS NOT NULL AND %s IS NOT NULL) FROM %s", a, b, a, b, quoteIdent(table)))
			if err != nil {
				return nil, err
			}
			// The correlation with a constant column is NaN: there is none.
			if res.Rows[0][0] != nil && finite(res.Float(0, 0)) {
				corrs = append(corrs, Correlation{A: numeric[i], B: numeric[j], R: res.Float(0, 0), N: int64(res.Float(0, 1))})
			}
		}
	}
	// The statistics become the step's table, for the tables deliverable.
	stats := &quarry.QueryResult{Columns: []string{"column", "type", "count", "missing", "distinct", "min", "max", "mean", "std", "median", "q1", "q3", "skewness", "kurtosis", "outliers", "normal"}}
	for _, p := range profiles {
		row := []any{p.Column, p.Type, p.Count, p.Missing, p.Distinct, ptr(p.Min), ptr(p.Max), ptr(p.Mean), ptr(p.Std), ptr(p.Median), ptr(p.Q1), ptr(p.Q3), ptr(p.Skewness), ptr(p.Kurtosis)}
		if p.Outliers != nil {
			row = append(row, *p.Outliers)
		} else {
			row = append(row, nil)
		}
		if p.Normal != nil {
			row = append(row, *p.Normal)
		} else {
			row = append(row, nil)
		}
		stats.Rows = append(stats.Rows, row)
	}
	name := analysis.StepTable(t.TaskID)
	if err := r.ws.Register(ctx, name, stats); err != nil {
		return nil, err
	}
	out, err := r.tableOutput(ctx, name, int64(len(stats.Rows)))
	if err != nil {
		return nil, err
	}
	out.data = map[string]any{"table": name, "profile": profiles, "correlations": corrs, "row_count": len(profiles)}
	return out, nil
}

// finiteDouble is the SQL of column q as a DOUBLE with NaN and the
// infinities as NULL: the statistics are those of its finite values, since
// one Infinity puts stddev_samp out of range (an error that would lose the
// whole profile) and one NaN makes the mean NaN. Count and missing still
// count them as values.
func finiteDouble(q string) string {
	return fmt.Sprintf("CASE WHEN isfinite(%[1]s::DOUBLE) THEN %[1]s::DOUBLE END", q)
}

// finite reports whether f is a number JSON can hold.
func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func ptr(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

// profileColumn reads one column's statistics in one query.
func (r *run) profileColumn(ctx context.Context, table string, c quarry.Column) (ColumnProfile, error) {
	p := ColumnProfile{Column: c.Name, Type: c.DataType}
	q, from := quoteIdent(c.Name), quoteIdent(table)
	numeric := c.DataType == quarry.TypeInteger || c.DataType == quarry.TypeFloat
	if !numeric {
		res, err := r.ws.Query(ctx, fmt.Sprintf("SELECT count(%s), count(*) - count(%s), count(DISTINCT %s) FROM %s", q, q, q, from))
		if err != nil {
			return p, err
		}
		p.Count, p.Missing, p.Distinct = int64(res.Float(0, 0)), int64(res.Float(0, 1)), int64(res.Float(0, 2))
		return p, nil
	}
	x := finiteDouble(q)
	res, err := r.ws.Query(ctx, fmt.Sprintf(`SELECT count(%[1]s), count(*) - count(%[1]s), count(DISTINCT %[1]s), min(%[2]s), max(%[2]s), avg(%[2]s),
		stddev_samp(%[2]s), median(%[2]s), quantile_cont(%[2]s, 0.25), quantile_cont(%[2]s, 0.75), skewness(%[2]s), kurtosis(%[2]s) FROM %[3]s`, q, x, from))
	if err != nil {
		return p, err
	}
	p.Count, p.Missing, p.Distinct = int64(res.Float(0, 0)), int64(res.Float(0, 1)), int64(res.Float(0, 2))
	// A statistic that is not a finite number is left out, as one that
	// is NULL: DuckDB's skewness and kurtosis of a constant column are NaN,
	// a column that holds NaN or Infinity has them as its min, max and mean,
	// and JSON, the observation's and the audit log's form, has neither.
	vals := []**float64{&p.Min, &p.Max, &p.Mean, &p.Std, &p.Median, &p.Q1, &p.Q3, &p.Skewness, &p.Kurtosis}
	for i, dst := range vals {
		if v := res.Rows[0][3+i]; v != nil {
			if f := quarry.AsFloat(v); finite(f) {
				*dst = &f
			}
		}
	}
	if p.Q1 != nil && p.Q3 != nil {
		iqr := *p.Q3 - *p.Q1
		lo, hi := *p.Q1-1.5*iqr, *p.Q3+1.5*iqr
		res, err := r.ws.Query(ctx, fmt.Sprintf("SELECT count(*) FROM %s WHERE %s < %s OR %s > %s", from, x, quarry.AsText(lo), x, quarry.AsText(hi)))
		if err != nil {
			return p, err
		}
		n := int64(res.Float(0, 0))
		p.Outliers = &n
	}
	if p.Count >= 8 && p.Skewness != nil && p.Kurtosis != nil {
		// Jarque-Bera: n/6 (S² + K²/4) is chi-squared with 2 degrees of
		// freedom under normality; 5.991 is its 95th percentile. DuckDB's
		// kurtosis is the excess kurtosis.
		jb := float64(p.Count) / 6 * (*p.Skewness**p.Skewness + *p.Kurtosis**p.Kurtosis/4)
		normal := jb < 5.991
		p.Normal = &normal
	}
	return p, nil
}
