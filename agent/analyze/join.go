package analyze

import (
	"context"
	"fmt"
	"maps"
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
// by the table joined to the targets of its keys, and through them to the
// targets of theirs, two keys deep ("sales of Beverages" over orders ->
// products -> categories). A column joined in keeps its name, or is named
// after the key ("origin_state") when two keys reach the same table or the
// name is taken. The values of a column reached by two keys are left out:
// a value alone cannot say which key it is about.
func widen(tables []analysis.SourceTable, keys []analysis.Key, allows func(table, column string) bool) []analysis.SourceTable {
	wd := widener{byName: map[string]analysis.SourceTable{}, keys: keys, allows: allows}
	for _, t := range tables {
		if t.Source == "" {
			wd.byName[strings.ToLower(t.Name)] = t
		}
	}
	out := slices.Clone(tables)
	for i, f := range out {
		if f.Source != "" {
			continue
		}
		if w, sub := wd.widened(f, maxJoinDepth, map[string]bool{}); sub != "" {
			w.From = sub + " AS " + quoteIdent(f.Name)
			out[i] = w
		}
	}
	return out
}

// maxJoinDepth is how many keys deep a table is joined.
const maxJoinDepth = 2

type widener struct {
	byName map[string]analysis.SourceTable
	keys   []analysis.Key
	allows func(table, column string) bool
}

// widened returns f with the columns of the tables its keys reach, depth
// keys deep, and the subquery that reads it; "" when f has no key to
// follow. seen holds the tables on the way, which are not joined again.
func (wd widener) widened(f analysis.SourceTable, depth int, seen map[string]bool) (analysis.SourceTable, string) {
	if depth == 0 {
		return f, ""
	}
	seen = maps.Clone(seen)
	seen[strings.ToLower(f.Name)] = true
	var mine []analysis.Key
	perTarget := map[string]int{}
	for _, k := range wd.keys {
		to := strings.ToLower(k.ToTable)
		if _, ok := wd.byName[to]; ok && strings.EqualFold(k.FromTable, f.Name) && !seen[to] {
			mine = append(mine, k)
			perTarget[to]++
		}
	}
	if len(mine) == 0 {
		return f, ""
	}
	w := f
	w.Columns = slices.Clone(f.Columns)
	w.Joined = slices.Clone(f.Joined)
	taken := map[string]bool{}
	for _, c := range f.Columns {
		taken[strings.ToLower(c.Name)] = true
	}
	sel := []string{"f.*"}
	if slices.ContainsFunc(f.Columns, func(c analysis.SourceColumn) bool { return !wd.allows(f.Name, c.Name) }) {
		// A star would read the forbidden columns too.
		sel = sel[:0]
		w.Columns = w.Columns[:0]
		for _, c := range f.Columns {
			if wd.allows(f.Name, c.Name) {
				sel = append(sel, "f."+quoteIdent(c.Name))
				w.Columns = append(w.Columns, c)
			}
		}
	}
	var joins []string
	for n, k := range mine {
		base := wd.byName[strings.ToLower(k.ToTable)]
		d, sub := wd.widened(base, depth-1, seen)
		src := quoteIdent(d.Name)
		if sub != "" {
			src = sub // its own columns and those of the tables it joins
		}
		own := map[string]bool{}
		for _, c := range base.Columns {
			own[strings.ToLower(c.Name)] = true
		}
		alias := fmt.Sprintf("k%d", n+1)
		shared := perTarget[strings.ToLower(k.ToTable)] > 1
		for _, c := range d.Columns {
			// a column d joined in was checked against its own table
			if strings.EqualFold(c.Name, k.ToColumn) || own[strings.ToLower(c.Name)] && !wd.allows(d.Name, c.Name) {
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
			if nc.Via == "" {
				nc.Via = d.Name
			}
			w.Columns = append(w.Columns, nc)
			sel = append(sel, alias+"."+quoteIdent(c.Name)+" AS "+quoteIdent(name))
		}
		for _, j := range append([]string{d.Name}, d.Joined...) {
			if !slices.Contains(w.Joined, j) {
				w.Joined = append(w.Joined, j)
			}
		}
		joins = append(joins, fmt.Sprintf("LEFT JOIN %s AS %s ON f.%s = %s.%s", src, alias, quoteIdent(k.FromColumn), alias, quoteIdent(k.ToColumn)))
	}
	return w, fmt.Sprintf("(SELECT %s FROM %s AS f %s)", strings.Join(sel, ", "), quoteIdent(f.Name), strings.Join(joins, " "))
}
