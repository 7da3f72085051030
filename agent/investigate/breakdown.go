package investigate

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry/investigation"
)

// breakdownRoles are the roles of the columns a question may name; a
// time part or an ignored column counts only after an ask word ("by
// month"), since "year over year" names no split.
var breakdownRoles = map[string]bool{investigation.ColumnDimension: true, investigation.ColumnNotSliced: true,
	investigation.ColumnTimePart: true, investigation.ColumnIgnored: true}

// breakdowns splits the change by each dimension the prompt names, or
// the business context asks for (namedIn), writes them to results/breakdowns.json, and
// says each in the progress. A noun no column matches is reported with
// the columns there are; when the data has one dimension, it is shown in
// its place.
func (r *run) breakdowns(ctx context.Context) error {
	roles := map[string]investigation.ColumnRole{}
	var names []string
	for _, c := range r.model.Columns {
		if _, dup := roles[c.Column]; breakdownRoles[c.Role] && !dup {
			roles[c.Column] = c
			names = append(names, c.Column)
		}
	}
	shown := false
	var unmatched []investigation.Breakdown
	for _, m := range namedIn(r.in.Context.InvestigationPrompt, r.in.Context.BusinessContext, names) {
		role := roles[m.column]
		switch {
		case m.column == "":
			unmatched = append(unmatched, investigation.Breakdown{Asked: m.words, Note: r.noColumnNote(m.words)})
		case role.Role == investigation.ColumnTimePart || role.Role == investigation.ColumnIgnored:
			if m.asked {
				r.breakdown = append(r.breakdown, investigation.Breakdown{Asked: m.words, Note: fmt.Sprintf("%s is not split by: it %s", m.column, role.Reason)})
			}
		default:
			b, err := r.breakdownBy(ctx, m.words, role)
			if err != nil {
				return err
			}
			r.breakdown = append(r.breakdown, b)
			shown = true
		}
	}
	if !shown && len(unmatched) > 0 && len(r.dims) == 1 {
		d := r.dims[0]
		b, err := r.breakdownBy(ctx, unmatched[0].Asked, investigation.ColumnRole{Table: d.Table, Column: d.Column})
		if err != nil {
			return err
		}
		b.Note = fmt.Sprintf("no column is called %s; %s, the only dimension, is shown", singular(unmatched[0].Asked), d.Name)
		unmatched[0] = b
	}
	r.breakdown = append(r.breakdown, unmatched...)
	for _, b := range r.breakdown {
		r.progress(investigation.Event{Step: "breakdown", Message: r.breakdownLine(b)})
	}
	if len(r.breakdown) == 0 {
		return nil
	}
	return r.artifact("results/breakdowns.json", r.breakdown)
}

// breakdownBy measures the change split by the column of role.
func (r *run) breakdownBy(ctx context.Context, asked string, role investigation.ColumnRole) (investigation.Breakdown, error) {
	b := investigation.Breakdown{Asked: asked, Change: r.overall.change.Change}
	d := r.candidate(role)
	if d == nil {
		b.Note = fmt.Sprintf("%s cannot be split by: %s", role.Column, role.Reason)
		return b, nil
	}
	b.Dimension = d.Name
	dr, err := r.byDimension(ctx, d)
	if err != nil {
		return b, err
	}
	for _, e := range dr.effects() {
		b.Rows = append(b.Rows, investigation.BreakdownRow{Value: e.Name, Baseline: e.Value0, Comparison: e.Value1,
			Change: e.Change, Share: safeShare(e.Change, b.Change)})
	}
	if rest := dr.dec.Remainder; rest.Change != 0 {
		b.Rows = append(b.Rows, investigation.BreakdownRow{Value: rest.Name, Baseline: rest.Value0, Comparison: rest.Value1,
			Change: rest.Change, Share: safeShare(rest.Change, b.Change)})
	}
	b.Evidence = &investigation.Evidence{Description: "change by " + d.Name, SQL: dr.rec.SQL, AuditSequence: dr.rec.Sequence,
		Values: map[string]float64{"values": float64(len(dr.parts))}}
	if role.Role == investigation.ColumnNotSliced {
		b.Note = fmt.Sprintf("%s is not searched for segments (%s), but is split by here as asked", d.Name, role.Reason)
	}
	return b, nil
}

// candidate returns the dimension of a column, whether or not it is among
// those searched.
func (r *run) candidate(role investigation.ColumnRole) *Dim {
	for _, d := range r.allDims {
		if d.Table == role.Table && d.Column == role.Column {
			return d
		}
	}
	return nil
}

// noColumnNote says that no column matches words, and which can be split
// by.
func (r *run) noColumnNote(words string) string {
	var dims []string
	for _, d := range r.dims {
		dims = append(dims, d.Name)
	}
	if len(dims) == 0 {
		return fmt.Sprintf("no column is called %s, and the data has no dimension to split by", singular(words))
	}
	return fmt.Sprintf("no column is called %s; the dimensions are %s", singular(words), strings.Join(dims, ", "))
}

// maxBreakdownLine is how many values a breakdown's progress line names.
const maxBreakdownLine = 5

// breakdownLine says a breakdown in one line: "by series (asked for
// industries): Manufacturing +11345 (+18.6% of the change), ...".
func (r *run) breakdownLine(b investigation.Breakdown) string {
	head := fmt.Sprintf("asked for %s", b.Asked)
	if b.Dimension != "" {
		head = fmt.Sprintf("by %s (asked for %s)", b.Dimension, b.Asked)
	}
	if b.Note != "" {
		head += "; " + b.Note
	}
	var parts []string
	for _, row := range b.Rows[:min(len(b.Rows), maxBreakdownLine)] {
		parts = append(parts, fmt.Sprintf("%s %s (%s of the change)", row.Value, r.fmtChange(row.Change), sharePct(row.Share)))
	}
	if len(parts) == 0 {
		return head
	}
	if more := len(b.Rows) - len(parts); more > 0 {
		parts = append(parts, fmt.Sprintf("%d more", more))
	}
	return head + ": " + strings.Join(parts, ", ")
}
