package intent

import (
	"fmt"
	"slices"
)

// levelWords in a column's name make it a level: how many there are at a
// time (a population, a headcount, a balance), which adds up over the
// things counted but not over time. The population of a country summed
// over eleven years is no population.
var levelWords = setOf("population", "pop", "headcount", "employees", "staff", "members", "membership", "subscribers",
	"inventory", "balance", "assets", "debt", "capacity", "area", "enrollment", "enrolment", "residents", "inhabitants")

// flowWords in a column's name make a level's column a flow again: new
// members, hires, a change in population.
var flowWords = setOf("new", "added", "hired", "hires", "change", "growth", "net", "lost", "left", "joined", "gain", "gains")

// isLevel reports whether a column's name says it is a level.
func isLevel(c *Column) bool {
	ws := nameWords(c.Name)
	return slices.ContainsFunc(ws, func(w string) bool { return levelWords[w] || levelWords[norm(w)] }) &&
		!slices.ContainsFunc(ws, func(w string) bool { return flowWords[w] })
}

// levelsOverTime returns, for each total of a level that spans more than
// one period of the table's time, the word to report: a total over a
// series of years of a population counts each person once a year. A total
// within one year, or per year, is a population; so is one over a table
// with no time.
func (p *parser) levelsOverTime() []Unknown {
	if p.t == nil {
		return nil
	}
	axis := p.timeAxis()
	if axis == nil {
		return nil
	}
	var out []Unknown
	for _, m := range p.in.Measures {
		if m.Agg != "sum" || m.Column == "" || m.Per != "" {
			continue
		}
		ci := slices.IndexFunc(p.t.Columns, func(c Column) bool { return c.Name == m.Column })
		if ci < 0 || !isLevel(&p.t.Columns[ci]) {
			continue
		}
		if p.onePeriod(axis) {
			// per year, or in one year: a population each time, and no
			// grand total over the years beside them
			p.in.PerPeriodOnly = slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return g.Column == axis.Name })
			continue
		}
		out = append(out, Unknown{Word: "total " + m.Column,
			Reason: fmt.Sprintf("%s is a level recorded at each %s of %s; a total over several of them counts it once for each: name one %s or ask per %s",
				m.Column, axisUnit(axis), axis.Name, axisUnit(axis), axisUnit(axis)),
			Nearest: []string{"per " + axisUnit(axis), "average " + m.Column}})
	}
	return out
}

// timeAxis returns the column the table's rows are observed along: its
// date column, or an integer column named year alone; nil if none.
func (p *parser) timeAxis() *Column {
	if p.date != nil {
		return p.date
	}
	if yc := p.yearColumn(); yc != nil && len(nameWords(yc.Name)) == 1 {
		return yc
	}
	return nil
}

func axisUnit(c *Column) string {
	if c.Type == "integer" {
		return "year"
	}
	return "date"
}

// onePeriod reports whether the request keeps a single period of the
// axis, or shows each period apart: grouped by it, its growth or trend,
// an equality on it, or
// a period of at most a year on a date axis (a year of monthly rows is
// not told from one month of a panel, so it is let through).
func (p *parser) onePeriod(axis *Column) bool {
	if slices.ContainsFunc(p.in.GroupBy, func(g Group) bool { return g.Column == axis.Name }) ||
		slices.Contains(p.in.Analyses, AnalysisGrowth) || slices.Contains(p.in.Analyses, AnalysisTrend) {
		return true // per period, or how it moved from one to the next
	}
	if slices.ContainsFunc(p.in.Filters, func(f Filter) bool { return f.Column == axis.Name && f.Op == "=" && len(f.Values) == 1 }) {
		return true
	}
	tr := p.in.Time
	if tr == nil || tr.Column != axis.Name {
		return false
	}
	start, ok1 := day(tr.Start)
	end, ok2 := day(tr.End)
	return ok1 && ok2 && end.Sub(start).Hours() <= 366*24
}
