package drill

import (
	"math"
	"sort"
)

// SearchOptions tunes Search. The zero value is ready to use.
type SearchOptions struct {
	// MaxDepth is the largest number of dimensions in one segment
	// (default and cap: the cube's number of dimensions). A cause sits
	// at whatever depth it sits; a search capped above it can only blame
	// its parents, and the walk stops at the shallowest layer that holds
	// a cause, so deep layers cost only when nothing shallower explains.
	MaxDepth int
	// MaxResults caps the number of segments returned (default 5).
	MaxResults int
	// MinPurity is the smallest weighted share of anomalous leaves a
	// segment must have to be reported (default 0.5 for additive
	// metrics, 0.7 for ratios, whose leaves are weighted by volume).
	MinPurity float64
	// MinExplained ends the search by anomalous leaves once those that
	// no segment covers yet explain less than this share of the
	// anomalous change; for additive metrics it is also the smallest
	// share of the total change a segment found by its summed change
	// must carry (default 0.0005 for additive metrics, where a segment
	// must also stand out from the noise, so this only stops the search
	// chasing crumbs; 0.35 for ratios, where incidents rarely have more
	// than one cause and count noise would otherwise add spurious extra
	// segments).
	MinExplained float64
}

func (o SearchOptions) withDefaults(dims int, ratio bool) SearchOptions {
	if o.MaxDepth <= 0 || o.MaxDepth > dims {
		o.MaxDepth = dims
	}
	if o.MaxResults <= 0 {
		o.MaxResults = 5
	}
	if o.MinPurity <= 0 {
		o.MinPurity = 0.5
		if ratio {
			o.MinPurity = 0.7
		}
	}
	if o.MinExplained <= 0 {
		o.MinExplained = 0.0005
		if ratio {
			o.MinExplained = 0.35
		}
	}
	return o
}

// Found is one segment that Search blames for part of a change.
type Found struct {
	// Conds is the segment, a conjunction of dimension=value conditions
	// sorted by Dim.
	Conds []Cond
	// Change is the segment's part of the total change: Num1-Num0 summed
	// over its leaves for an additive metric; for a ratio metric the
	// change of the overall ratio that the segment's own ratio change
	// caused (its comparison denominator times its change of rate,
	// divided by the overall comparison denominator).
	Change float64
	// Share is Change divided by the total change (signed).
	Share float64
	// Score is the search's confidence in the segment, higher is better:
	// the weighted share of its leaves that are anomalous, less a penalty
	// when the segment's leaves did not move together; for a segment of
	// an additive metric found by its summed change, 1 - L/z, where z is
	// its change in standard errors of the noise and L the reach of the
	// noise in its layer.
	Score float64
}

// Search finds the few segments that explain most of the change between
// the cube's baseline (Num0, Den0) and comparison (Num1, Den1).
//
// It follows the idea of RiskLoc (Kalander, 2022): every leaf gets a
// relative deviation; leaves on the anomalous side of a cutoff estimated
// from the opposite, presumably normal, side are anomalous; then the
// search walks the layers of the cube (one dimension, then pairs, ...)
// and takes, in the shallowest layer that has one, the segment with the
// largest share of the change whose leaves are mostly anomalous. Its
// leaves are removed and the walk starts again until the anomalous change
// is explained. For additive metrics, a layer without such a segment is
// searched once more by summed change: a segment whose change stands out
// from the noise expected at its size (a leaf's noise grows with its size
// as the leaves show: in proportion for a forecast's relative errors, like
// a count's for leaves that sum a few events; see noiseModel), beyond the
// reach of the most extreme segment on the other side, and whose parts
// moved alike (see searcher.even) is blamed even if no single leaf of it
// is anomalous. Ratio metrics are first turned into an additive problem:
// each leaf's expected numerator is its comparison denominator times its
// baseline ratio, so only changes of rate (not of mix) count as anomalous.
//
// Search is deterministic and does no I/O. A segment's leaves are
// removed before the next one is searched, so each leaf is explained by
// one segment at most; the conditions of a later segment may still cover
// leaves an earlier one explained.
func Search(c *Cube, opt SearchOptions) []Found {
	if c == nil || c.Len() == 0 || len(c.Dims) == 0 {
		return nil
	}
	opt = opt.withDefaults(len(c.Dims), c.Ratio())
	lv := prepareLeaves(c, 0)
	if lv == nil {
		return nil
	}
	s := newSearcher(c, lv, opt)
	if !c.Ratio() {
		// Single leaves can mislead about the anomalous side (a few
		// leaves whose forecast was near zero reach the largest
		// deviations); the side where whole segments stand out from
		// the noise the most decides when it is clear.
		if side := s.segmentSide(); side != 0 && (side > 0) != lv.up {
			lv.orient(c, side)
			s = newSearcher(c, lv, opt)
		}
	}
	var out []Found
	for len(out) < opt.MaxResults {
		if c.Ratio() && s.remainingAnomaly() < opt.MinExplained*s.anomalyTotal {
			break
		}
		cand, ok := s.best()
		if !ok {
			break
		}
		s.remove(cand)
		out = append(out, s.found(cand))
	}
	sort.SliceStable(out, func(i, j int) bool {
		return math.Abs(out[i].Change) > math.Abs(out[j].Change)
	})
	return out
}
