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
			return oneOf("operation", a.Operation, []string{OpAggregate, OpFilter, OpSort, OpShare, OpGrowth})
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
