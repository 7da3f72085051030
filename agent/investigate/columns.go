package investigate

import (
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// ignoredColumns resolves the request's columns to leave out. Errors:
// INVALID naming a column no file has.
func (r *run) ignoredColumns() (map[investigation.ColumnRef]bool, error) {
	refs, err := r.in.Context.IgnoredColumns(r.in.Files)
	if err != nil {
		return nil, err
	}
	out := map[investigation.ColumnRef]bool{}
	for _, ref := range refs {
		out[ref] = true
	}
	return out, nil
}

// columnRoles says what the investigation does with every column of the
// metric's tables, and with the joined columns it considered slicing by:
// candidates are the dimensions before equivalent columns were dropped
// and the number searched was capped; r.dims those kept.
func (r *run) columnRoles(ignored map[investigation.ColumnRef]bool, parts map[investigation.ColumnRef]timePart, candidates []*Dim) []investigation.ColumnRole {
	kept := map[investigation.ColumnRef]bool{}
	for _, d := range r.dims {
		kept[investigation.ColumnRef{Table: d.Table, Column: d.Column}] = true
	}
	timeCol := strings.ToLower(r.metric.TimeColumn)
	var out []investigation.ColumnRole
	for _, t := range r.metric.Tables {
		f := r.tables[t]
		if f == nil || f.Schema == nil {
			continue
		}
		for _, c := range f.Schema.Columns {
			ref := investigation.ColumnRef{Table: t, Column: c.Name}
			role := investigation.ColumnRole{Table: t, Column: c.Name}
			switch {
			case readsColumn(timeCol, r.columnExpr(t, c.Name)):
				role.Role = investigation.ColumnTime
			case ignored[ref]:
				role.Role, role.Reason = investigation.ColumnIgnored, "left out by request"
			case parts[ref].part != "":
				role.Role, role.Part, role.Reason = investigation.ColumnTimePart, parts[ref].part, parts[ref].reason
			case kept[ref]:
				role.Role = investigation.ColumnDimension
			case c.InferredType == quarry.RoleDimension:
				role.Role, role.Reason = investigation.ColumnNotSliced, r.whyNotSliced(c, candidates, t)
			default:
				role.Role = c.InferredType
			}
			out = append(out, role)
		}
	}
	for _, d := range candidates {
		if d.Via == nil {
			continue
		}
		role := investigation.ColumnRole{Table: d.Table, Column: d.Column, Role: investigation.ColumnDimension}
		if !kept[investigation.ColumnRef{Table: d.Table, Column: d.Column}] {
			role.Role, role.Reason = investigation.ColumnNotSliced, r.whyDropped(d)
		}
		out = append(out, role)
	}
	return out
}

// whyNotSliced says why a dimension column of a metric's table is not
// searched.
func (r *run) whyNotSliced(c quarry.Column, candidates []*Dim, table string) string {
	for _, d := range candidates {
		if d.Table == table && d.Column == c.Name {
			return r.whyDropped(d)
		}
	}
	if c.Cardinality < 2 {
		return "one value"
	}
	return fmt.Sprintf("%s values, more than %s", num(float64(c.Cardinality)), num(maxDimCardinality))
}

// whyDropped says why a candidate dimension was not kept.
func (r *run) whyDropped(d *Dim) string {
	for _, g := range r.model.EquivalentColumns {
		for _, name := range g[1:] {
			if name == d.Name {
				return "same values as " + g[0]
			}
		}
	}
	return fmt.Sprintf("beyond the %d dimensions searched", r.inv.MaxDims)
}
