package analysis

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry"
)

// Tool names (Subtask.ToolName).
const (
	ToolSQL     = "sql.run"
	ToolDF      = "df.transform"
	ToolPlot    = "plot.render"
	ToolProfile = "profiler.analyze"
)

// SQLArgs are sql.run's arguments: one read-only query, run in Source (a
// database source's name) or, when empty, in the workspace that holds the
// file sources and the earlier steps' results (as tables named after their
// task ids).
type SQLArgs struct {
	Query    string `json:"query"`
	Params   []any  `json:"params,omitempty"`
	Timeout  int    `json:"timeout,omitempty"`
	RowLimit int    `json:"row_limit,omitempty"`
	Source   string `json:"source,omitempty"`
}

// df.transform operations.
const (
	OpAggregate = "aggregate" // GroupBy + Columns with Aggregation
	OpFilter    = "filter"    // Column Op Value
	OpSort      = "sort"      // Columns, Descending, Limit
	OpShare     = "share"     // each row's Columns[0] as a share of the total
	OpGrowth    = "growth"    // change of Columns[0] from the previous row (ordered by GroupBy[0])
)

// Statistical df.transform operations. Each reads the input step's rows
// (its non-missing values) and computes as the scipy.stats or pandas
// function named with that function's defaults, so that a number a plan
// reports is the number an analyst's notebook would show.
const (
	// OpTTest compares the means of Column in two samples, the two values
	// of GroupBy[0], or of the two Columns. Method "student" (default,
	// ttest_ind's equal_var=True), "welch" (equal_var=False), "paired"
	// (ttest_rel over the two Columns) or "one_sample" (ttest_1samp of
	// Column against the number Value). One row: statistic, p_value, df,
	// n1, n2, mean1, mean2 (and group1, group2 for groups).
	OpTTest = "ttest"
	// OpANOVA is a one-way ANOVA (f_oneway) of Column across the values of
	// GroupBy[0]. One row: statistic, p_value, groups, n.
	OpANOVA = "anova"
	// OpChiSquare tests the independence of the two Columns
	// (chi2_contingency, with Yates' correction at one degree of
	// freedom). One row: statistic, p_value, dof, n.
	OpChiSquare = "chisquare"
	// OpCorrelate correlates the two Columns: Method "pearson" (default,
	// pearsonr) or "spearman" (spearmanr). One row: coefficient, p_value,
	// n.
	OpCorrelate = "correlate"
	// OpNormality tests whether Column is normally distributed: Method
	// "shapiro" (default) or "normaltest" (D'Agostino and Pearson). One
	// row: statistic, p_value, n, skewness, kurtosis.
	OpNormality = "normality"
	// OpOutliers keeps the input's rows whose Column is an outlier: Method
	// "iqr" (default; outside Q1 - k IQR, Q3 + k IQR with k = Threshold,
	// default 1.5) or "zscore" (|z| > Threshold, default 3, z as
	// scipy.stats.zscore computes it, with the population standard
	// deviation).
	OpOutliers = "outliers"
	// OpRegress fits Column = b0 + b1 Columns[0] + ... by least squares.
	// One row per term: term, coefficient, std_error, t_value, p_value,
	// r_squared, n.
	OpRegress = "regress"
	// OpImpute fills the missing values of Columns with their Method:
	// "mean" (default), "median" or "mode" (the smallest most frequent
	// value, pandas' mode()[0]). All the input's rows, filled.
	OpImpute = "impute"
	// OpFeature adds the column Name computed from Expression: numbers,
	// the input's column names (in double quotes when not plain words),
	// + - * / and parentheses. All the input's rows, with the new column.
	OpFeature = "feature"
)

// StatOperations are the statistical operations, computed by the agent
// rather than compiled to one query.
var StatOperations = []string{OpTTest, OpANOVA, OpChiSquare, OpCorrelate, OpNormality, OpOutliers, OpRegress, OpImpute, OpFeature}

// statMethods are the methods each statistical operation accepts; the
// first is its default.
var statMethods = map[string][]string{
	OpTTest:     {"student", "welch", "paired", "one_sample"},
	OpCorrelate: {"pearson", "spearman"},
	OpNormality: {"shapiro", "normaltest"},
	OpOutliers:  {"iqr", "zscore"},
	OpImpute:    {"mean", "median", "mode"},
}

// StatMethod is the method a statistical operation uses: method when
// given, else its default ("" for an operation without methods).
func StatMethod(op, method string) string {
	if method != "" {
		return method
	}
	if ms := statMethods[op]; len(ms) > 0 {
		return ms[0]
	}
	return ""
}

// MaxExpression is the longest expression OpFeature takes.
const MaxExpression = 1000

// Aggregations.
var Aggregations = []string{"sum", "avg", "count", "count_distinct", "min", "max", "median", "std"}

// TransformArgs are df.transform's arguments over the output of the step
// Input.
type TransformArgs struct {
	Input       string   `json:"input"`
	Operation   string   `json:"operation"`
	Columns     []string `json:"columns,omitempty"`
	Aggregation string   `json:"aggregation,omitempty"`
	GroupBy     []string `json:"group_by,omitempty"`
	Column      string   `json:"column,omitempty"`
	Op          string   `json:"op,omitempty"`
	Value       any      `json:"value,omitempty"`
	Descending  bool     `json:"descending,omitempty"`
	Limit       int      `json:"limit,omitempty"`
	// Method, Threshold, Name and Expression are the statistical
	// operations' (StatOperations).
	Method     string  `json:"method,omitempty"`
	Threshold  float64 `json:"threshold,omitempty"`
	Name       string  `json:"name,omitempty"`
	Expression string  `json:"expression,omitempty"`
}

// Chart types.
var ChartTypes = []string{"line", "bar", "histogram", "scatter"}

// PlotArgs are plot.render's arguments over the output of the step Input.
type PlotArgs struct {
	Input string `json:"input"`
	Type  string `json:"type"`
	XCol  string `json:"x_col"`
	YCol  string `json:"y_col,omitempty"` // not for histograms
	// SeriesCol splits a line or bar chart into one series per value.
	SeriesCol string `json:"series_col,omitempty"`
	Title     string `json:"title"`
}

// ProfileArgs are profiler.analyze's arguments: the output of the step
// Input, or a source table.
type ProfileArgs struct {
	Input   string   `json:"input,omitempty"`
	Table   string   `json:"table,omitempty"`
	Columns []string `json:"columns,omitempty"`
}

// A Tool is a registered tool's argument schema.
type Tool struct {
	Name string
	// new returns a fresh value of the tool's argument type.
	new func() any
	// check validates decoded arguments beyond their types.
	check func(any) error
}

// Registry is the set of registered tools.
type Registry map[string]Tool

// Tool returns the tool called name.
func (r Registry) Tool(name string) (Tool, bool) {
	t, ok := r[name]
	return t, ok
}

// Names lists the registered tools, sorted.
func (r Registry) Names() []string {
	names := make([]string, 0, len(r))
	for n := range r {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Tools is the registry of the four tools.
var Tools = Registry{
	ToolSQL: {Name: ToolSQL, new: func() any { return new(SQLArgs) }, check: func(v any) error {
		a := v.(*SQLArgs)
		if strings.TrimSpace(a.Query) == "" {
			return missing("query")
		}
		if a.RowLimit < 0 || a.RowLimit > MaxRowLimit {
			return quarry.Errorf(quarry.ECodeInvalid, "row_limit %d is out of range 1..%d", a.RowLimit, MaxRowLimit)
		}
		if a.Timeout < 0 || a.Timeout > MaxTimeoutSeconds {
			return quarry.Errorf(quarry.ECodeInvalid, "timeout %d is out of range 1..%d", a.Timeout, MaxTimeoutSeconds)
		}
		return quarry.CheckText("the query", a.Query, 100_000, quarry.ECodeInvalid)
	}},
	ToolDF: {Name: ToolDF, new: func() any { return new(TransformArgs) }, check: func(v any) error {
		a := v.(*TransformArgs)
		if a.Input == "" {
			return missing("input")
		}
		switch a.Operation {
		case OpAggregate:
			if !slices.Contains(Aggregations, a.Aggregation) {
				return oneOf("aggregation", a.Aggregation, Aggregations)
			}
			if len(a.Columns) == 0 && a.Aggregation != "count" {
				return missing("columns")
			}
		case OpFilter:
			if a.Column == "" {
				return missing("column")
			}
			if ops := []string{"=", "!=", ">", ">=", "<", "<="}; !slices.Contains(ops, a.Op) {
				return oneOf("op", a.Op, ops)
			}
		case OpSort:
			if len(a.Columns) == 0 {
				return missing("columns")
			}
		case OpShare, OpGrowth:
			if len(a.Columns) != 1 {
				return quarry.Errorf(quarry.ECodeInvalid, "operation %s takes exactly one column", a.Operation)
			}
			if a.Operation == OpGrowth && len(a.GroupBy) != 1 {
				return quarry.Errorf(quarry.ECodeInvalid, "operation growth needs group_by: the one column that orders the rows")
			}
		default:
			if slices.Contains(StatOperations, a.Operation) {
				if err := checkStat(a); err != nil {
					return err
				}
				break
			}
			return oneOf("operation", a.Operation, append([]string{OpAggregate, OpFilter, OpSort, OpShare, OpGrowth}, StatOperations...))
		}
		if !slices.Contains(StatOperations, a.Operation) {
			switch {
			case a.Method != "":
				return quarry.Errorf(quarry.ECodeInvalid, "operation %s takes no method", a.Operation)
			case a.Threshold != 0:
				return quarry.Errorf(quarry.ECodeInvalid, "threshold is a positive number, for operation outliers only")
			case a.Name != "" || a.Expression != "":
				return quarry.Errorf(quarry.ECodeInvalid, "name and expression are for operation feature only")
			}
		}
		if a.Limit < 0 {
			return quarry.Errorf(quarry.ECodeInvalid, "limit must not be negative")
		}
		return nil
	}},
	ToolPlot: {Name: ToolPlot, new: func() any { return new(PlotArgs) }, check: func(v any) error {
		a := v.(*PlotArgs)
		switch {
		case a.Input == "":
			return missing("input")
		case !slices.Contains(ChartTypes, a.Type):
			return oneOf("type", a.Type, ChartTypes)
		case a.XCol == "":
			return missing("x_col")
		case a.YCol == "" && a.Type != "histogram":
			return missing("y_col")
		case strings.TrimSpace(a.Title) == "":
			return missing("title")
		}
		return nil
	}},
	ToolProfile: {Name: ToolProfile, new: func() any { return new(ProfileArgs) }, check: func(v any) error {
		a := v.(*ProfileArgs)
		if (a.Input == "") == (a.Table == "") {
			return quarry.Errorf(quarry.ECodeInvalid, "profiler.analyze takes one of input (a step) or table (a source table)")
		}
		return nil
	}},
}

// checkStat validates the arguments of a statistical operation: the
// columns it reads, its method and threshold.
func checkStat(a *TransformArgs) error {
	if ms, ok := statMethods[a.Operation]; ok && a.Method != "" && !slices.Contains(ms, a.Method) {
		return oneOf("method", a.Method, ms)
	} else if !ok && a.Method != "" {
		return quarry.Errorf(quarry.ECodeInvalid, "operation %s takes no method", a.Operation)
	}
	if a.Threshold < 0 || (a.Threshold != 0 && a.Operation != OpOutliers) {
		return quarry.Errorf(quarry.ECodeInvalid, "threshold is a positive number, for operation outliers only")
	}
	if (a.Name != "" || a.Expression != "") && a.Operation != OpFeature {
		return quarry.Errorf(quarry.ECodeInvalid, "name and expression are for operation feature only")
	}
	switch a.Operation {
	case OpTTest:
		switch m := StatMethod(a.Operation, a.Method); {
		case m == "one_sample":
			if a.Column == "" {
				return missing("column")
			}
			if _, ok := a.Value.(float64); !ok {
				return quarry.Errorf(quarry.ECodeInvalid, "a one-sample t-test needs value: the mean to test against, a number")
			}
		case m == "paired":
			if len(a.Columns) != 2 {
				return quarry.Errorf(quarry.ECodeInvalid, "a paired t-test takes exactly two columns")
			}
		case len(a.Columns) == 2 && len(a.GroupBy) == 0 && a.Column == "":
		case a.Column != "" && len(a.GroupBy) == 1 && len(a.Columns) == 0:
		default:
			return quarry.Errorf(quarry.ECodeInvalid, "a t-test takes column and group_by (one column of two groups), or two columns")
		}
	case OpANOVA:
		if a.Column == "" || len(a.GroupBy) != 1 {
			return quarry.Errorf(quarry.ECodeInvalid, "anova takes column (the values) and group_by (one column of the groups)")
		}
	case OpChiSquare, OpCorrelate:
		if len(a.Columns) != 2 {
			return quarry.Errorf(quarry.ECodeInvalid, "operation %s takes exactly two columns", a.Operation)
		}
	case OpNormality, OpOutliers:
		if a.Column == "" {
			return missing("column")
		}
	case OpRegress:
		if a.Column == "" {
			return missing("column")
		}
		if len(a.Columns) == 0 {
			return quarry.Errorf(quarry.ECodeInvalid, "regress needs columns: the predictors")
		}
	case OpImpute:
		if len(a.Columns) == 0 {
			return missing("columns")
		}
	case OpFeature:
		switch {
		case strings.TrimSpace(a.Name) == "":
			return missing("name")
		case strings.TrimSpace(a.Expression) == "":
			return missing("expression")
		case len(a.Expression) > MaxExpression:
			return quarry.Errorf(quarry.ECodeInvalid, "expression is longer than %d characters", MaxExpression)
		}
		return quarry.CheckText("the name", a.Name, 200, quarry.ECodeInvalid)
	}
	return nil
}

// Check validates args against the tool's schema: no unknown fields, the
// right types, the required fields and allowed values.
func (t Tool) Check(args map[string]any) error {
	_, err := t.Decode(args)
	return err
}

// Decode validates args and returns them as the tool's argument type
// (*SQLArgs, *TransformArgs, *PlotArgs or *ProfileArgs).
func (t Tool) Decode(args map[string]any) (any, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "%s: arguments are not JSON: %w", t.Name, err)
	}
	v := t.new()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil && !errors.Is(err, io.EOF) {
		return nil, argError(t, err)
	}
	if err := t.check(v); err != nil {
		return nil, quarry.Errorf(quarry.ErrorCode(err), "%s: %s", t.Name, quarry.ErrorMessage(err))
	}
	return v, nil
}

// fields lists the JSON names of the tool's arguments, sorted.
func (t Tool) fields() []string {
	typ := reflect.TypeOf(t.new()).Elem()
	out := make([]string, 0, typ.NumField())
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// argError turns a decoding error into a message naming the argument.
func argError(t Tool, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return quarry.Errorf(quarry.ECodeInvalid, "%s: argument %s must be %s, not %s", t.Name, te.Field, jsonKind(te.Type.Kind().String()), te.Value)
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		name = strings.Trim(name, `"`)
		e := quarry.Errorf(quarry.ECodeInvalid, "%s: unknown argument %q", t.Name, name)
		if c := Closest(name, t.fields()); c != "" {
			return e.WithHint("did you mean " + c + "?")
		}
		return e.WithHint("the arguments are " + strings.Join(t.fields(), ", "))
	}
	return quarry.Errorf(quarry.ECodeInvalid, "%s: bad arguments: %w", t.Name, err)
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "int", "int64", "float64":
		return "a number"
	case "bool":
		return "true or false"
	case "slice":
		return "a list"
	}
	return goKind
}

func missing(field string) error {
	return quarry.Errorf(quarry.ECodeInvalid, "argument %s is required", field)
}

func oneOf(field, got string, want []string) error {
	return quarry.Errorf(quarry.ECodeInvalid, "argument %s is %q; want one of %s", field, got, strings.Join(want, ", "))
}
