package investigate

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/drill"
)

// SegmentSearch is the options investigations pass to drill.Search (every
// layer of the cube, 5 segments at most); quarry bench rca scores
// drill.Search with them, so that its numbers describe the search users
// get.
var SegmentSearch = drill.SearchOptions{MaxResults: 5}

// searchSegments builds the leaf cube over the chosen dimensions with one
// grouped query and lets drill.Search pick the few segments that explain
// the change.
func (r *run) searchSegments(ctx context.Context) (stepResult, error) {
	var res stepResult
	if len(r.dims) == 0 {
		res.summary = "There are no dimensions to search."
		return res, nil
	}
	exprs := make([]string, len(r.dims))
	for i, d := range r.dims {
		exprs[i] = d.Expr
	}
	cube := &drill.Cube{Labels: make([][]string, len(r.dims)), Codes: make([][]int32, len(r.dims))}
	ratio := r.metric.Ratio()
	if ratio {
		cube.Den0, cube.Den1 = []float64{}, []float64{}
	}
	for _, d := range r.dims {
		cube.Dims = append(cube.Dims, d.Name)
	}
	dict := make([]map[string]int32, len(r.dims))
	for i := range dict {
		dict[i] = map[string]int32{}
	}
	nd := len(r.dims)
	// Rows that are totals of other rows would count everything twice.
	var totals, left []string
	for _, is := range r.stats.quality {
		if len(is.totals) > 0 {
			totals = append(totals, "NOT COALESCE("+segmentCond(is.totals)+", FALSE)")
			left = append(left, toSegment(is.totals).String())
		}
	}
	// The cube has a row per leaf, hundreds of thousands of them, each
	// leaf's periods side by side: text dimensions are read into strings
	// and the rest into one reused row, rather than a fresh []any of
	// every cell.
	text := make([]sql.NullString, nd)
	var cells []any
	isText := make([]bool, nd)
	dens := false
	dest := func(types []string) []any {
		cells = make([]any, len(types))
		to := make([]any, len(types))
		for i := range to {
			to[i] = &cells[i]
		}
		for i := 0; i < nd && i < len(types); i++ {
			if types[i] == "VARCHAR" {
				to[i], isText[i] = &text[i], true
			}
		}
		dens = len(types) >= nd+4
		return to
	}
	// Two values of a dimension that read the same (NULL and the text
	// "(null)", timestamps a second apart) are one value to the search,
	// which names segments by what they read: their leaves are merged
	// after the scan, as one group per leaf would have been (see
	// sameLabels).
	labels := newSameLabels(nd)
	rec, err := r.rec.scan(ctx, "leaf cube over "+strings.Join(cube.Dims, ", "), r.scope.byLeaf(exprs, strings.Join(totals, " AND ")), dest, func() error {
		for i := 0; i < nd; i++ {
			var v string
			switch {
			case !isText[i]:
				v, _ = label(cells[i])
			case text[i].Valid:
				v = text[i].String
			default:
				v = nullLabel
			}
			c, ok := dict[i][v]
			if !ok {
				c = int32(len(cube.Labels[i]))
				dict[i][v] = c
				cube.Labels[i] = append(cube.Labels[i], v)
			}
			if isText[i] {
				labels.text(i, v, !text[i].Valid)
			} else {
				labels.see(i, c, cells[i])
			}
			cube.Codes[i] = append(cube.Codes[i], c)
		}
		cube.Num0 = append(cube.Num0, quarry.AsFloat(cells[nd]))
		cube.Num1 = append(cube.Num1, quarry.AsFloat(cells[nd+1]))
		if ratio {
			var d0, d1 float64
			if dens {
				d0, d1 = quarry.AsFloat(cells[nd+2]), quarry.AsFloat(cells[nd+3])
			}
			cube.Den0, cube.Den1 = append(cube.Den0, d0), append(cube.Den1, d1)
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	if labels.shared {
		mergeLeaves(cube)
	}
	found := drill.Search(cube, SegmentSearch)
	r.stats.searched = true
	r.stats.leaves = cube.Len()
	var lines []string
	for _, f := range found {
		seg := make([]dimValue, len(f.Conds))
		for i, c := range f.Conds {
			v := cube.Labels[c.Dim][c.Code]
			seg[i] = dimValue{Dim: r.dims[c.Dim], Value: v, Null: v == nullLabel}
		}
		lines = append(lines, fmt.Sprintf("%-60s change %s  share %s  score %.2f", toSegment(seg), r.fmtChange(f.Change), sharePct(f.Share), f.Score))
		// Segments that explain little are not worth an explanation.
		if math.Abs(f.Share) < minShare {
			continue
		}
		r.stats.found = append(r.stats.found, candidate{seg: seg, source: "search", score: f.Score})
	}
	table := fmt.Sprintf("%d leaves over %d dimensions\n%s\n", cube.Len(), nd, strings.Join(lines, "\n"))
	if len(left) > 0 {
		table = fmt.Sprintf("rows that are totals of other rows left out: %s\n%s", strings.Join(left, "; "), table)
	}
	res.addQuery("leaf cube for the segment search", rec, table)
	if len(r.stats.found) == 0 {
		res.summary = fmt.Sprintf("A search over %d leaf segments of %d dimensions%s found no segment that explains at least %s of the change.", cube.Len(), nd, depthNote(cube), sharePct(minShare))
		return res, nil
	}
	names := make([]string, len(r.stats.found))
	for i, c := range r.stats.found {
		names[i] = toSegment(c.seg).String()
	}
	res.summary = fmt.Sprintf("A search over %d leaf segments of %d dimensions%s points at %d segment(s): %s. Each is tested against its own %s noise next.",
		cube.Len(), nd, depthNote(cube), len(names), strings.Join(names, "; "), r.grain.adjective())
	return res, nil
}

// sameLabels notices two values of a dimension that read the same. A
// text dimension's values read as themselves, but NULL reads as the text
// "(null)"; another dimension's values are kept, the first of each code,
// and compared with the next.
type sameLabels struct {
	first          [][]any // by dimension and code
	nulls, literal []bool  // a text dimension's NULL and "(null)" seen
	shared         bool
}

func newSameLabels(dims int) *sameLabels {
	return &sameLabels{first: make([][]any, dims), nulls: make([]bool, dims), literal: make([]bool, dims)}
}

// text records a text value of dimension i (null for NULL).
func (s *sameLabels) text(i int, v string, null bool) {
	if null {
		s.nulls[i] = true
	} else if v == nullLabel {
		s.literal[i] = true
	}
	s.shared = s.shared || s.nulls[i] && s.literal[i]
}

// see records value raw of dimension i, read as code c (codes are given
// in order, from 0).
func (s *sameLabels) see(i int, c int32, raw any) {
	if int(c) == len(s.first[i]) {
		s.first[i] = append(s.first[i], raw)
		return
	}
	if s.shared {
		return
	}
	switch raw.(type) {
	case nil, int64, int32, float64, bool, string:
		s.shared = s.first[i][c] != raw
	default:
		// A value that == may not compare (a list): merge to be sure.
		s.shared = true
	}
}

// mergeLeaves adds up the leaves of the cube that have the same codes,
// in order of their first row.
func mergeLeaves(cube *drill.Cube) {
	nd := len(cube.Codes)
	at := map[string]int{}
	key := make([]byte, 0, 4*nd)
	n := 0
	for k := range cube.Num0 {
		key = key[:0]
		for i := range nd {
			key = binary.LittleEndian.AppendUint32(key, uint32(cube.Codes[i][k]))
		}
		j, ok := at[string(key)]
		if !ok {
			at[string(key)] = n
			for i := range nd {
				cube.Codes[i][n] = cube.Codes[i][k]
			}
			cube.Num0[n], cube.Num1[n] = cube.Num0[k], cube.Num1[k]
			if cube.Ratio() {
				cube.Den0[n], cube.Den1[n] = cube.Den0[k], cube.Den1[k]
			}
			n++
			continue
		}
		cube.Num0[j] += cube.Num0[k]
		cube.Num1[j] += cube.Num1[k]
		if cube.Ratio() {
			cube.Den0[j] += cube.Den0[k]
			cube.Den1[j] += cube.Den1[k]
		}
	}
	for i := range nd {
		cube.Codes[i] = cube.Codes[i][:n]
	}
	cube.Num0, cube.Num1 = cube.Num0[:n], cube.Num1[:n]
	if cube.Ratio() {
		cube.Den0, cube.Den1 = cube.Den0[:n], cube.Den1[:n]
	}
}

// depthNote says how deep the search went when memory kept it from
// combining every dimension: "(segments of up to 4 of them)".
func depthNote(cube *drill.Cube) string {
	if d := drill.SearchDepth(cube, SegmentSearch); d < len(cube.Dims) {
		return fmt.Sprintf(" (segments of up to %d of them)", d)
	}
	return ""
}

// minShare is the smallest share of the change a segment must explain to
// become an explanation.
const minShare = 0.05

// candidate is a segment proposed as an explanation, before verification.
type candidate struct {
	seg    []dimValue
	source string // search, mix, quality
	kind   string // forced kind (data_quality) or "" to measure
	score  float64
	issue  *qualityIssue
}

func (c candidate) key() string { return toSegment(c.seg).String() }
