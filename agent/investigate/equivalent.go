package investigate

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/quarry-dev/quarry"
)

// dropEquivalent keeps one dimension of each group that carries the same
// information: columns whose values map one to one (country, iso_code and
// a vaccine-list column that is fixed per country). Segments named by all
// three, and one data-quality finding repeated per column, say nothing a
// single column does not. The kept column is the one a person would use
// (see readability); the groups go into the data model so the report lists
// the equivalents once. One-to-one is measured on the data: the distinct
// pairs number no more than the distinct values of either column.
//
// Pairs are quadratic in the dimensions (a 1,000-column file made a 235 MB
// query of half a million pairs), so only the first maxEquivalentDims
// dimensions, the ones with fewest values, are compared, in queries of at
// most equivalentBatch pairs.
func (r *run) dropEquivalent(ctx context.Context, dims []*Dim) ([]*Dim, error) {
	type pair struct{ i, j int }
	var pairs []pair
	for i := range min(len(dims), maxEquivalentDims) {
		for j := i + 1; j < min(len(dims), maxEquivalentDims); j++ {
			a, b := dims[i].Cardinality, dims[j].Cardinality
			if a > 1 && b > 1 && float64(min(a, b)) >= 0.9*float64(max(a, b)) {
				pairs = append(pairs, pair{i, j})
			}
		}
	}
	if len(pairs) == 0 {
		return dims, nil
	}
	text := func(d *Dim) string { return "coalesce(CAST(" + d.Expr + " AS VARCHAR), chr(30))" }
	same := make([]bool, len(pairs))
	for start := 0; start < len(pairs); start += equivalentBatch {
		batch := pairs[start:min(start+equivalentBatch, len(pairs))]
		// Distinct counts are the same over the distinct pairs of values
		// as over the rows: each pair is grouped first (a GROUP BY per
		// pair, one after the other), and the counts read the groups.
		var sel, groups []string
		for k, p := range batch {
			groups = append(groups, fmt.Sprintf("SELECT %d AS k, %s AS a, %s AS b FROM %s GROUP BY ALL", k, text(dims[p.i]), text(dims[p.j]), r.scope.from()))
			sel = append(sel, fmt.Sprintf("count(DISTINCT a) FILTER (WHERE k = %d) = count(DISTINCT a || chr(31) || b) FILTER (WHERE k = %d) AND count(DISTINCT b) FILTER (WHERE k = %d) = count(DISTINCT a || chr(31) || b) FILTER (WHERE k = %d)", k, k, k, k))
		}
		sql := "SELECT " + strings.Join(sel, ", ") + " FROM (" + strings.Join(groups, "\nUNION ALL\n") + ")"
		res, _, err := r.rec.query(ctx, "columns that carry the same information", sql)
		if err != nil {
			return nil, err
		}
		for k := range batch {
			same[start+k], _ = res.Rows[0][k].(bool)
		}
	}
	// Union-find over the one-to-one pairs.
	parent := make([]int, len(dims))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	for k, p := range pairs {
		if same[k] {
			parent[find(p.j)] = find(p.i)
		}
	}
	groups := map[int][]int{}
	for i := range dims {
		groups[find(i)] = append(groups[find(i)], i)
	}
	var out []*Dim
	for i, d := range dims {
		g := groups[find(i)]
		if len(g) == 1 {
			out = append(out, d)
			continue
		}
		best := g[0]
		for _, k := range g[1:] {
			if r.readability(dims[k]) > r.readability(dims[best]) {
				best = k
			}
		}
		if i != best {
			continue
		}
		out = append(out, d)
		names := []string{d.Name}
		for _, k := range g {
			if k != best {
				names = append(names, dims[k].Name)
			}
		}
		r.model.EquivalentColumns = append(r.model.EquivalentColumns, names)
	}
	return out, nil
}

// Bounds of dropEquivalent: at most 32*31/2 = 496 pairs, 16 to a query
// (about 7 KB of SQL). Every COUNT(DISTINCT) keeps a hash table per
// thread: on a 1,000-column file, 128 pairs to a query peaked at 1.2 GB
// and 16 at 360 MB.
const (
	maxEquivalentDims = 32
	equivalentBatch   = 16
)

// codeNameWords mark a column name as a code rather than a name people read.
var codeNameWords = map[string]bool{"code": true, "iso": true, "id": true, "key": true, "abbr": true, "abbrev": true, "cd": true, "num": true, "no": true}

// readability scores how readily a person would name a segment by the
// column: names in words beat codes (CHN), identifiers and long lists
// ("Sinopharm, Sinovac, Pfizer/BioNTech").
func (r *run) readability(d *Dim) float64 {
	score := 0.0
	for _, w := range strings.FieldsFunc(strings.ToLower(d.Column), func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }) {
		if codeNameWords[w] {
			score -= 2
		}
	}
	var samples []string
	if f := r.tables[strings.ToLower(d.Table)]; f != nil && f.Schema != nil {
		for _, c := range f.Schema.Columns {
			if c.Name == d.Column {
				samples = c.SampleValues
				if c.DataType != quarry.TypeString {
					score -= 1
				}
			}
		}
	}
	if len(samples) == 0 {
		return score
	}
	var length float64
	lower, codes, lists := 0, 0, 0
	for _, s := range samples {
		length += float64(len([]rune(s)))
		if strings.IndexFunc(s, unicode.IsLower) >= 0 {
			lower++
		}
		if len(s) <= 4 && strings.IndexFunc(s, unicode.IsLower) < 0 {
			codes++
		}
		if strings.Contains(s, ", ") || strings.Count(s, "/") > 1 || strings.Contains(s, ";") {
			lists++
		}
	}
	n := float64(len(samples))
	length /= n
	score += float64(lower)/n - 2*float64(codes)/n - 2*float64(lists)/n
	if length > 30 {
		score -= 2
	}
	return score
}
