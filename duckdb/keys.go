package duckdb

import (
	"context"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/investigation"
)

// minKeyConfidence is the least confidence of a foreign key Keys reports.
const minKeyConfidence = 0.7

// Keys returns the many-to-one joins between the loaded tables: the
// foreign keys Relationships finds by name, and those found by value alone
// (flights.origin -> airports.iata: a text or integer column whose
// distinct values, at least five, are nearly all in a unique text column
// of another table, whatever the two are called). Integer columns join by
// name only: small integers are contained in any unique id by chance.
func (e *Engine) Keys(ctx context.Context) ([]analysis.Key, error) {
	names := e.tableNames()
	if len(names) < 2 {
		return nil, nil
	}
	rels, err := e.Relationships(ctx, names)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []analysis.Key
	add := func(r investigation.Relationship) {
		if r.RelationshipType != investigation.RelForeignKey || r.Confidence < minKeyConfidence {
			return
		}
		k := strings.ToLower(r.FromTable + "." + r.FromColumn + ">" + r.ToTable)
		if seen[k] {
			return
		}
		seen[k] = true
		out = append(out, analysis.Key{FromTable: r.FromTable, FromColumn: r.FromColumn, ToTable: r.ToTable, ToColumn: r.ToColumn})
	}
	for _, r := range rels {
		add(r)
	}
	var ts []*table
	for _, n := range names {
		if t, ok := e.lookup(n); ok {
			ts = append(ts, t)
		}
	}
	f := &relFinder{e: e, unique: map[string]bool{}}
	measured := 0
	for _, a := range ts {
		for _, b := range ts {
			if a == b {
				continue
			}
			for _, cb := range b.Columns {
				if !keyType(cb.Type) {
					continue
				}
				unique, err := f.isUnique(ctx, b, cb)
				if err != nil {
					return nil, err
				}
				if !unique {
					continue
				}
				for _, ca := range a.Columns {
					if dataType(ca.Type) != dataType(cb.Type) || !keyType(ca.Type) || seen[strings.ToLower(a.Name+"."+ca.Name+">"+b.Name)] {
						continue
					}
					if measured++; measured > maxRelCandidates {
						return out, nil
					}
					r, err := f.direction(ctx, a, ca, b, cb, noMatch)
					if err != nil {
						return nil, err
					}
					if r != nil && r.RelationshipType == investigation.RelForeignKey {
						if !f.enough(ctx, a, ca) {
							continue
						}
						r.Confidence *= 0.9 // only the values say so
						add(*r)
					}
				}
			}
		}
	}
	// Two tables that each have one row per value of a text column of the
	// same name (country in both) are one to one where their values meet,
	// however many each has alone: each is joined to the other, which adds
	// no row to either, so that a request naming columns of both reads
	// them side by side.
	for i, a := range ts {
		for _, b := range ts[i+1:] {
			for _, ca := range a.Columns {
				for _, cb := range b.Columns {
					if !strings.EqualFold(ca.Name, cb.Name) || !keyType(ca.Type) || !keyType(cb.Type) ||
						seen[strings.ToLower(a.Name+"."+ca.Name+">"+b.Name)] || seen[strings.ToLower(b.Name+"."+cb.Name+">"+a.Name)] {
						continue
					}
					ok, err := f.oneToOne(ctx, a, ca, b, cb)
					if err != nil {
						return nil, err
					}
					if ok {
						out = append(out, analysis.Key{FromTable: a.Name, FromColumn: ca.Name, ToTable: b.Name, ToColumn: cb.Name},
							analysis.Key{FromTable: b.Name, FromColumn: cb.Name, ToTable: a.Name, ToColumn: ca.Name})
					}
				}
			}
		}
	}
	return out, nil
}

// oneToOne reports whether two columns of one name are each unique in
// their table and share enough values to be the same things: at least
// twice fewValues, and a third of the smaller one's.
func (r *relFinder) oneToOne(ctx context.Context, a *table, ca column, b *table, cb column) (bool, error) {
	for _, tc := range []struct {
		t *table
		c column
	}{{a, ca}, {b, cb}} {
		if u, err := r.isUnique(ctx, tc.t, tc.c); err != nil || !u {
			return false, err
		}
	}
	q := "SELECT (SELECT count(*) FROM " + quoteIdent(a.Name) + " WHERE " + quoteIdent(ca.Name) + " IS NOT NULL), " +
		"(SELECT count(*) FROM " + quoteIdent(b.Name) + " WHERE " + quoteIdent(cb.Name) + " IS NOT NULL), " +
		"(SELECT count(*) FROM " + quoteIdent(a.Name) + " x JOIN " + quoteIdent(b.Name) + " y ON x." + quoteIdent(ca.Name) + " = y." + quoteIdent(cb.Name) + ")"
	var na, nb, both int64
	if err := r.e.db.QueryRowContext(ctx, q).Scan(&na, &nb, &both); err != nil {
		return false, err
	}
	return both >= 2*fewValues && both*3 >= min(na, nb), nil
}

// keyType reports whether a column of this DuckDB type can be a key found
// by its values alone: text.
func keyType(duck string) bool { return dataType(duck) == quarry.TypeString }

// enough reports whether a column has at least fewValues distinct values:
// fewer match a key by chance.
func (r *relFinder) enough(ctx context.Context, t *table, c column) bool {
	var n int64
	q := "SELECT count(DISTINCT " + quoteIdent(c.Name) + ") FROM " + quoteIdent(t.Name)
	if err := r.e.db.QueryRowContext(ctx, q).Scan(&n); err != nil {
		return false
	}
	return n >= fewValues
}
