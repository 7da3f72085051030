package analyze

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry/analysis"
)

// joinKeys finds the keys between the file sources' tables and widens
// each table that has keys into others with their columns, so that a
// request can name them ("flights by state of the origin airport" over
// flights(origin) and airports(iata, state)). The table is read through
// its joins (SourceTable.From); the tables joined stay tables of their own.
func (r *run) joinKeys(ctx context.Context) error {
	files := 0
	for _, t := range r.tables {
		if t.Source == "" {
			files++
		}
	}
	if files < 2 {
		return nil
	}
	keys, err := r.ws.Keys(ctx)
	if err != nil {
		return err
	}
	// Under allowed_columns a key is followed only through allowed
	// columns, and only allowed columns are joined in: a join must not
	// read what the policy forbids.
	pol := r.req.Policy
	keys = slices.DeleteFunc(keys, func(k analysis.Key) bool {
		return !pol.Allows(k.FromTable, k.FromColumn) || !pol.Allows(k.ToTable, k.ToColumn)
	})
	r.keys = keys
	r.tables = widen(r.tables, keys, pol.Allows)
	return nil
}

// widen returns tables with each workspace table that has keys replaced
// by the table joined to the targets of its keys. A column joined in keeps
// its name, or is named after the key ("origin_state") when two keys reach
// the same table or the name is taken. The values of a column reached by
// two keys are left out: a value alone cannot say which key it is about.
func widen(tables []analysis.SourceTable, keys []analysis.Key, allows func(table, column string) bool) []analysis.SourceTable {
	byName := map[string]analysis.SourceTable{}
	for _, t := range tables {
		if t.Source == "" {
			byName[strings.ToLower(t.Name)] = t
		}
	}
	out := slices.Clone(tables)
	for i, f := range out {
		if f.Source != "" {
			continue
		}
		var mine []analysis.Key
		perTarget := map[string]int{}
		for _, k := range keys {
			if strings.EqualFold(k.FromTable, f.Name) {
				if _, ok := byName[strings.ToLower(k.ToTable)]; ok {
					mine = append(mine, k)
					perTarget[strings.ToLower(k.ToTable)]++
				}
			}
		}
		if len(mine) == 0 {
			continue
		}
		w := f
		w.Columns = slices.Clone(f.Columns)
		taken := map[string]bool{}
		for _, c := range f.Columns {
			taken[strings.ToLower(c.Name)] = true
		}
		sel := []string{"f.*"}
		if slices.ContainsFunc(f.Columns, func(c analysis.SourceColumn) bool { return !allows(f.Name, c.Name) }) {
			// A star would read the forbidden columns too.
			sel = sel[:0]
			w.Columns = w.Columns[:0]
			for _, c := range f.Columns {
				if allows(f.Name, c.Name) {
					sel = append(sel, "f."+quoteIdent(c.Name))
					w.Columns = append(w.Columns, c)
				}
			}
		}
		var joins []string
		for n, k := range mine {
			d := byName[strings.ToLower(k.ToTable)]
			alias := fmt.Sprintf("k%d", n+1)
			shared := perTarget[strings.ToLower(k.ToTable)] > 1
			for _, c := range d.Columns {
				if strings.EqualFold(c.Name, k.ToColumn) || !allows(d.Name, c.Name) {
					continue
				}
				name := c.Name
				if shared || taken[strings.ToLower(name)] {
					name = k.FromColumn + "_" + c.Name
				}
				if taken[strings.ToLower(name)] {
					continue
				}
				taken[strings.ToLower(name)] = true
				nc := c
				nc.Name = name
				w.Columns = append(w.Columns, nc)
				sel = append(sel, alias+"."+quoteIdent(c.Name)+" AS "+quoteIdent(name))
			}
			if !slices.Contains(w.Joined, d.Name) {
				w.Joined = append(w.Joined, d.Name)
			}
			joins = append(joins, fmt.Sprintf("LEFT JOIN %s AS %s ON f.%s = %s.%s", quoteIdent(d.Name), alias, quoteIdent(k.FromColumn), alias, quoteIdent(k.ToColumn)))
		}
		w.From = fmt.Sprintf("(SELECT %s FROM %s AS f %s) AS %s", strings.Join(sel, ", "), quoteIdent(f.Name), strings.Join(joins, " "), quoteIdent(f.Name))
		out[i] = w
	}
	return out
}
