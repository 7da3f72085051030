package intent

import (
	"fmt"
	"slices"
	"strconv"
)

// contradictions reports conditions on one column that no row can meet
// together ("women aged over 60 and men aged under 40" read as age > 60
// and age < 40; ps = 0 and ps = 2): all filters hold at once, so the
// answer would be of no rows, which is not what was asked.
func (p *parser) contradictions() error {
	if p.blanksSaid {
		p.blanksOfNothing()
	}
	type bounds struct {
		lo, hi       float64
		loIn, hiIn   bool
		hasLo, hasHi bool
		eq           []string
	}
	by := map[string]*bounds{}
	var order []string
	for _, f := range p.in.Filters {
		b := by[f.Column]
		if b == nil {
			b = &bounds{}
			by[f.Column] = b
			order = append(order, f.Column)
		}
		if f.Op == "=" && len(f.Values) == 1 {
			b.eq = append(b.eq, f.Values[0])
			continue
		}
		if len(f.Values) != 1 {
			continue
		}
		v, err := strconv.ParseFloat(f.Values[0], 64)
		if err != nil {
			continue
		}
		switch f.Op {
		case ">", ">=":
			if !b.hasLo || v > b.lo || v == b.lo && f.Op == ">" {
				b.lo, b.loIn, b.hasLo = v, f.Op == ">=", true
			}
		case "<", "<=":
			if !b.hasHi || v < b.hi || v == b.hi && f.Op == "<" {
				b.hi, b.hiIn, b.hasHi = v, f.Op == "<=", true
			}
		}
	}
	for _, col := range order {
		b := by[col]
		empty := b.hasLo && b.hasHi && (b.lo > b.hi || b.lo == b.hi && !(b.loIn && b.hiIn))
		for _, e := range b.eq[min(1, len(b.eq)):] {
			empty = empty || e != b.eq[0]
		}
		if empty {
			p.in.Unknown = append(p.in.Unknown, Unknown{Word: col,
				Reason: fmt.Sprintf("the conditions on %s leave no row: each one holds for a part of the request, which is not read apart", col)})
		}
	}
	return nil
}

// blanksOfNothing reports "excl. blanks" said of no column when a count of
// rows is asked: the rows are counted whatever their blanks, and which
// column's blanks to leave out is not said.
func (p *parser) blanksOfNothing() {
	if len(p.in.GroupBy) == 0 && !slices.ContainsFunc(p.in.Measures, func(m Measure) bool { return m.Column == "" }) && len(p.in.Measures) > 0 {
		return
	}
	for _, m := range p.in.Measures {
		if m.Column != "" && m.Agg != "count" && m.Agg != "count_distinct" {
			return // a measure of a column leaves its blanks out
		}
	}
	p.in.Unknown = append(p.in.Unknown, Unknown{Word: p.toks[p.blanksAt].raw + " blanks",
		Reason: "the blanks of which column? A count of rows counts every row"})
}
