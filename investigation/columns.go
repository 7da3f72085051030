package investigation

import (
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry"
)

// What an investigation does with a column (ColumnRole.Role).
const (
	// ColumnTime places rows in time: the metric's time column.
	ColumnTime = "time"
	// ColumnTimePart restates part of the time column (a year, month or
	// quarter column beside the date): it is time, never a segment.
	ColumnTimePart = "time_part"
	// ColumnDimension is sliced into segments.
	ColumnDimension = "dimension"
	// ColumnNotSliced could be a dimension but is not searched (its
	// Reason says why: the same values as another column, too many
	// values, beyond the number of dimensions searched).
	ColumnNotSliced = "not_sliced"
	// ColumnIgnored was left out by the request (Context.IgnoreColumns).
	ColumnIgnored = "ignored"
	// ColumnMeasure, ColumnID and ColumnTimestamp are the profile's roles
	// of columns that are neither time nor segments here.
	ColumnMeasure   = "measure"
	ColumnID        = "id"
	ColumnTimestamp = "timestamp"
)

// ColumnRole is what an investigation did with one column.
type ColumnRole struct {
	Table  string `json:"table"`
	Column string `json:"column"`
	Role   string `json:"role"`
	// Part is the part of the time column a time_part column restates:
	// "year", "quarter", "month", "week", "day of the week", ...
	Part string `json:"part,omitempty"`
	// Reason says why, in words: "restates the year of date on every
	// row", "left out by request".
	Reason string `json:"reason,omitempty"`
}

// ColumnRef is one column of one table.
type ColumnRef struct{ Table, Column string }

func (c ColumnRef) String() string { return c.Table + "." + c.Column }

// IgnoredColumns resolves Context.IgnoreColumns against the files'
// columns: a name is COLUMN (every table's column of that name) or
// TABLE.COLUMN, matched without regard to case. Errors: INVALID naming
// the first name no file has, with the columns the files do have.
func (c *Context) IgnoredColumns(files []*UploadedFile) ([]ColumnRef, error) {
	var out []ColumnRef
	for _, name := range c.IgnoreColumns {
		refs := findColumn(files, strings.TrimSpace(name))
		if len(refs) == 0 {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "column %q to ignore is in none of the files; their columns are %s",
				name, columnList(files)).WithHint("name a column as COLUMN or TABLE.COLUMN")
		}
		out = append(out, refs...)
	}
	return out, nil
}

// findColumn returns the columns name refers to: every table's column
// of that name, or failing that TABLE.COLUMN.
func findColumn(files []*UploadedFile, name string) []ColumnRef {
	var out []ColumnRef
	for _, f := range files {
		for _, col := range schemaColumns(f) {
			if strings.EqualFold(col, name) {
				out = append(out, ColumnRef{f.TableName, col})
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	table, col, ok := strings.Cut(name, ".")
	if !ok {
		return nil
	}
	for _, f := range files {
		if !strings.EqualFold(f.TableName, table) {
			continue
		}
		for _, c := range schemaColumns(f) {
			if strings.EqualFold(c, col) {
				out = append(out, ColumnRef{f.TableName, c})
			}
		}
	}
	return out
}

func schemaColumns(f *UploadedFile) []string {
	if f.Schema == nil {
		return nil
	}
	out := make([]string, len(f.Schema.Columns))
	for i, c := range f.Schema.Columns {
		out[i] = c.Name
	}
	return out
}

// maxListedColumns bounds the columns an error lists.
const maxListedColumns = 40

// columnList names the files' columns for an error message, as
// TABLE.COLUMN when there are several tables.
func columnList(files []*UploadedFile) string {
	var names []string
	for _, f := range files {
		for _, c := range schemaColumns(f) {
			if len(files) > 1 {
				c = f.TableName + "." + c
			}
			names = append(names, c)
		}
	}
	if len(names) > maxListedColumns {
		return strings.Join(names[:maxListedColumns], ", ") + ", ..."
	}
	return strings.Join(names, ", ")
}

// roleNames are the column roles in the order DescribeRoles lists them,
// with their plural for people.
var roleNames = []struct{ role, plural string }{
	{ColumnTime, "time"},
	{ColumnTimePart, "time parts"},
	{ColumnDimension, "dimensions"},
	{ColumnNotSliced, "not sliced"},
	{ColumnIgnored, "ignored"},
	{ColumnMeasure, "measures"},
	{ColumnID, "ids"},
	{ColumnTimestamp, "other dates"},
}

// maxDescribed is how many columns of one role DescribeRoles names.
const maxDescribed = 12

// DescribeRoles lists columns by role in one line: "time: date; time
// parts: year (year), month (month); dimensions: series; measures:
// count".
func DescribeRoles(cols []ColumnRole) string {
	var groups []string
	for _, rn := range roleNames {
		var names []string
		for _, c := range cols {
			if c.Role != rn.role {
				continue
			}
			name := c.Column
			switch {
			case c.Part != "":
				name += " (" + c.Part + ")"
			case c.Role == ColumnNotSliced && c.Reason != "":
				name += " (" + c.Reason + ")"
			}
			names = append(names, name)
		}
		if len(names) > maxDescribed {
			names = append(names[:maxDescribed], fmt.Sprintf("and %d more", len(names)-maxDescribed))
		}
		if len(names) > 0 {
			groups = append(groups, rn.plural+": "+strings.Join(names, ", "))
		}
	}
	return strings.Join(groups, "; ")
}
