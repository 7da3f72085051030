package duckdb

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// Thresholds of relationship detection.
const (
	// minFKContainment is the share of distinct from-values that must exist
	// in a unique target column for a foreign key. A little slack allows
	// orphans (deleted customers) without calling every overlap a key.
	minFKContainment = 0.9
	// minListContainment is the share that makes a foreign key of a column
	// with manyValues distinct values or more: two lists of countries or
	// codes from different sources differ at their edges (territories,
	// retired codes), and that many values do not overlap so far by chance.
	minListContainment = 0.8
	manyValues         = 50
	// minSimilarContainment is the least overlap worth reporting between
	// key-named columns that do not form a foreign key.
	minSimilarContainment = 0.5
	// fewValues is the distinct count below which a match is weak evidence.
	fewValues = 5
)

// Relationships detects joins between the given tables (nil: every loaded
// table). Candidate pairs are columns of the same type family whose names
// match: the same name (customer_id in both), or a key column and the id
// of the table it names (orders.customer_id and customers.id or
// customer.id). For each candidate it measures containment, the share of
// distinct from-values present in the target, and whether the target is
// unique. The result is sorted by confidence:
//
//   - foreign_key: the target is unique and contains at least 90% of the
//     from-values (many-to-one; joining does not duplicate rows).
//     Confidence is the containment, times 0.9 when only the plain column
//     names matched (region and regions.region) and times 0.8 when fewer
//     than 5 distinct values back the match.
//   - similar_values: key-named columns that share at least half of their
//     values without a unique target (two fact tables keyed by the same
//     customer_id). Confidence is half the containment.
//
// A pair of same-named columns is reported once, in the direction of the
// foreign key, or from the bigger table when both directions qualify.
// Errors: INVALID for a table that is not loaded.
func (e *Engine) Relationships(ctx context.Context, tables []string) ([]investigation.Relationship, error) {
	if tables == nil {
		tables = e.tableNames()
	}
	var ts []*table
	for _, name := range tables {
		t, ok := e.lookup(name)
		if !ok {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "table %s is not loaded; the loaded tables are %s", name, listOrNone(e.tableNames()))
		}
		ts = append(ts, t)
	}
	cands := candidates(ts)
	if len(cands) > maxRelCandidates {
		// Key-named matches are the likelier joins; measure them first.
		sort.SliceStable(cands, func(i, j int) bool { return cands[i].m != sameName && cands[j].m == sameName })
		cands = cands[:maxRelCandidates]
	}
	r := &relFinder{e: e, unique: map[string]bool{}}
	var out []investigation.Relationship
	for _, c := range cands {
		rels, err := r.measure(ctx, c.a, c.ca, c.b, c.cb, c.m)
		if err != nil {
			return nil, err
		}
		out = append(out, rels...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Confidence > out[j].Confidence })
	return out, nil
}

// maxRelCandidates bounds the column pairs Relationships measures, each a
// few queries: ten files of the same 2,048 columns would otherwise be
// 90,000 pairs.
const maxRelCandidates = 64

// relCandidate is a pair of columns whose names match.
type relCandidate struct {
	a, b   *table
	ca, cb column
	m      int
}

// candidates lists the column pairs of ts whose names match and whose
// types agree, table pair by table pair in order and each table's columns
// in order. A column can only match the column of the same name or the
// one called id, so each is looked up by name rather than compared with
// every column of the other table.
func candidates(ts []*table) []relCandidate {
	byName := make([]map[string]int, len(ts))
	for i, t := range ts {
		byName[i] = make(map[string]int, len(t.Columns))
		for k, c := range t.Columns {
			if _, dup := byName[i][strings.ToLower(c.Name)]; !dup {
				byName[i][strings.ToLower(c.Name)] = k
			}
		}
	}
	var out []relCandidate
	for i, a := range ts {
		for j, b := range ts {
			if i == j {
				continue
			}
			for _, ca := range a.Columns {
				var ks []int
				if k, ok := byName[j][strings.ToLower(ca.Name)]; ok {
					ks = append(ks, k)
				}
				if k, ok := byName[j]["id"]; ok && (len(ks) == 0 || ks[0] != k) {
					ks = append(ks, k)
				}
				sort.Ints(ks)
				for _, k := range ks {
					cb := b.Columns[k]
					m := matchNames(a, ca, b, cb)
					if m == noMatch || dataType(ca.Type) != dataType(cb.Type) {
						continue
					}
					if m == sameName && i > j {
						continue // the pair is measured from i < j, both ways
					}
					out = append(out, relCandidate{a: a, b: b, ca: ca, cb: cb, m: m})
				}
			}
		}
	}
	return out
}

// How two column names match.
const (
	noMatch     = iota
	sameName    // customer_id and customer_id, region and region
	keyToID     // customer_id and customers.id
	sameKeyName // same name, and the name reads as a key
)

func matchNames(a *table, ca column, b *table, cb column) int {
	na, nb := strings.ToLower(ca.Name), strings.ToLower(cb.Name)
	if na == nb {
		if na == "id" {
			return noMatch // every table's own id; equal names say nothing
		}
		if keyName(ca.Name) {
			return sameKeyName
		}
		return sameName
	}
	if nb == "id" && keyName(ca.Name) {
		stem := na
		for _, suf := range []string{"_id", "_key", "id"} {
			if strings.HasSuffix(stem, suf) {
				stem = strings.TrimRight(strings.TrimSuffix(stem, suf), "_ ")
				break
			}
		}
		tb := strings.ToLower(b.Name)
		for _, form := range []string{stem, stem + "s", stem + "es", strings.TrimSuffix(stem, "y") + "ies"} {
			if tb == form || strings.HasSuffix(tb, "_"+form) {
				return keyToID
			}
		}
	}
	return noMatch
}

// relFinder measures candidate pairs, caching uniqueness per column.
type relFinder struct {
	e      *Engine
	unique map[string]bool
}

// measure evaluates a candidate in the directions its match allows.
func (r *relFinder) measure(ctx context.Context, a *table, ca column, b *table, cb column, m int) ([]investigation.Relationship, error) {
	ab, err := r.direction(ctx, a, ca, b, cb, m)
	if err != nil || m == keyToID {
		return keep(ab), err
	}
	ba, err := r.direction(ctx, b, cb, a, ca, m)
	if err != nil {
		return nil, err
	}
	switch {
	case ab == nil:
		return keep(ba), nil
	case ba == nil:
		return keep(ab), nil
	case ab.RelationshipType != ba.RelationshipType:
		if ab.RelationshipType == investigation.RelForeignKey {
			return keep(ab), nil
		}
		return keep(ba), nil
	case ab.RelationshipType == investigation.RelForeignKey && b.Rows > a.Rows:
		return keep(ba), nil // one-to-one: point from the bigger table
	case ab.RelationshipType == investigation.RelSimilarValues && ba.Containment > ab.Containment:
		return keep(ba), nil
	}
	return keep(ab), nil
}

func keep(r *investigation.Relationship) []investigation.Relationship {
	if r == nil {
		return nil
	}
	return []investigation.Relationship{*r}
}

// direction measures from.fc -> to.tc and classifies it, or returns nil
// when it is not worth reporting.
func (r *relFinder) direction(ctx context.Context, from *table, fc column, to *table, tc column, m int) (*investigation.Relationship, error) {
	fq, tq := quoteIdent(fc.Name), quoteIdent(tc.Name)
	q := fmt.Sprintf(`SELECT count(*), count(t.v) FROM (SELECT DISTINCT %s AS v FROM %s WHERE %s IS NOT NULL) f
		LEFT JOIN (SELECT DISTINCT %s AS v FROM %s) t ON f.v = t.v`, fq, quoteIdent(from.Name), fq, tq, quoteIdent(to.Name))
	var distinct, hits int64
	if err := r.e.db.QueryRowContext(ctx, q).Scan(&distinct, &hits); err != nil {
		return nil, fmt.Errorf("duckdb: containment %s.%s -> %s.%s: %w", from.Name, fc.Name, to.Name, tc.Name, err)
	}
	if distinct == 0 {
		return nil, nil
	}
	unique, err := r.isUnique(ctx, to, tc)
	if err != nil {
		return nil, err
	}
	rel := &investigation.Relationship{FromTable: from.Name, FromColumn: fc.Name, ToTable: to.Name, ToColumn: tc.Name,
		Containment: float64(hits) / float64(distinct), ToUnique: unique}
	switch {
	case unique && (rel.Containment >= minFKContainment || m != sameName && distinct >= manyValues && rel.Containment >= minListContainment):
		rel.RelationshipType = investigation.RelForeignKey
		rel.Confidence = rel.Containment
		if m == sameName {
			rel.Confidence *= 0.9
		}
		if distinct < fewValues {
			rel.Confidence *= 0.8
		}
	case m != sameName && rel.Containment >= minSimilarContainment:
		rel.RelationshipType = investigation.RelSimilarValues
		rel.Confidence = rel.Containment / 2
	default:
		return nil, nil
	}
	return rel, nil
}

// isUnique reports whether a column has no repeated non-null value (and
// at least one value).
func (r *relFinder) isUnique(ctx context.Context, t *table, c column) (bool, error) {
	key := t.Name + "." + c.Name
	if u, ok := r.unique[key]; ok {
		return u, nil
	}
	q := quoteIdent(c.Name)
	var unique bool
	err := r.e.db.QueryRowContext(ctx, fmt.Sprintf("SELECT count(%s) > 0 AND count(%s) = count(DISTINCT %s) FROM %s", q, q, q, quoteIdent(t.Name))).Scan(&unique)
	if err != nil {
		return false, fmt.Errorf("duckdb: uniqueness of %s: %w", key, err)
	}
	r.unique[key] = unique
	return unique, nil
}
