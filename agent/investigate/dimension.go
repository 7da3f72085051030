package investigate

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/drill"
	"github.com/quarry-dev/quarry/investigation"
)

// dimResult is the decomposition of the change by one dimension.
type dimResult struct {
	dim     *Dim
	parts   []drill.Part
	n       [][2]float64 // row counts per part and period
	dec     drill.Decomposition
	rec     record
	rateSum float64
	mixSum  float64
}

// partOf returns the index of the part named v, idx holding the parts
// read so far by name, adding it when it is new.
func (dr *dimResult) partOf(idx map[string]int, v string) int {
	k, ok := idx[v]
	if !ok {
		k = len(dr.parts)
		idx[v] = k
		dr.parts = append(dr.parts, drill.Part{Name: v})
		dr.n = append(dr.n, [2]float64{})
	}
	return k
}

// valueEffect is one value's effect, with its shares.
type valueEffect struct {
	drill.Effect
	n         [2]float64
	share     float64 // of the total change, signed
	baseShare float64 // of the baseline (numerator, or denominator for ratios)
}

// byDimension decomposes the change by the values of d.
func (r *run) byDimension(ctx context.Context, d *Dim) (*dimResult, error) {
	if dr := r.stats.byDim[d.Name]; dr != nil {
		return dr, nil
	}
	if r.metric.Kind == investigation.MetricDistinct {
		return r.byDimensionDistinct(ctx, d)
	}
	if dr := r.stats.daily[d.Name]; dr != nil {
		// The quality check read d's values day by day: their sums per
		// period are the change by d, without grouping the rows again.
		dr.dec = r.decompose(dr.parts, drill.Part{Name: "everything else"})
		r.keep(dr)
		return dr, nil
	}
	sql := r.scope.byPeriod([]string{d.Expr + " AS value"}, "")
	res, rec, err := r.rec.query(ctx, "change by "+d.Name, sql)
	if err != nil {
		return nil, err
	}
	idx := map[string]int{}
	dr := &dimResult{dim: d, rec: rec}
	for i, row := range res.Rows {
		v, _ := label(row[0])
		k := dr.partOf(idx, v)
		p := &dr.parts[k]
		if res.Float(i, 1) == 0 {
			p.Num0 += res.Float(i, 2)
			p.Den0 += res.Float(i, 3)
			dr.n[k][0] += res.Float(i, 4)
		} else {
			p.Num1 += res.Float(i, 2)
			p.Den1 += res.Float(i, 3)
			dr.n[k][1] += res.Float(i, 4)
		}
	}
	dr.dec = r.decompose(dr.parts, drill.Part{Name: "everything else"})
	r.keep(dr)
	return dr, nil
}

// keep sums a dimension's rate and mix effects and remembers the result.
func (r *run) keep(dr *dimResult) {
	for _, e := range dr.dec.Effects {
		dr.rateSum += e.Rate
		dr.mixSum += e.Mix
	}
	if r.stats.byDim == nil {
		r.stats.byDim = map[string]*dimResult{}
	}
	r.stats.byDim[dr.dim.Name] = dr
}

// byDimensionDistinct decomposes a distinct count by the values of d: each
// value's unique entities (seen in no other value) and the overlap of
// entities seen in several, which add up to the distinct count exactly.
func (r *run) byDimensionDistinct(ctx context.Context, d *Dim) (*dimResult, error) {
	res, rec, err := r.rec.query(ctx, "unique entities by "+d.Name, r.scope.distinctParts(d.Expr))
	if err != nil {
		return nil, err
	}
	dr := &dimResult{dim: d, rec: rec}
	parts, shared := distinctRows(res, r.metric.Scale)
	for _, p := range parts {
		dr.parts = append(dr.parts, p)
		dr.n = append(dr.n, [2]float64{})
	}
	dr.dec = drill.Distinct(dr.parts, shared)
	r.keep(dr)
	return dr, nil
}

// distinctRows reads a distinctParts result into unique parts, in order of
// first appearance, and the shared overlap.
func distinctRows(res *quarry.QueryResult, scale float64) ([]drill.Part, drill.Part) {
	if scale == 0 {
		scale = 1
	}
	idx := map[string]int{}
	var parts []drill.Part
	shared := drill.Part{Name: "seen in several segments"}
	for i, row := range res.Rows {
		p := &shared
		if row[0] != nil {
			name := res.String(i, 0)
			k, ok := idx[name]
			if !ok {
				k = len(parts)
				idx[name] = k
				parts = append(parts, drill.Part{Name: name})
			}
			p = &parts[k]
		}
		if res.Float(i, 1) == 0 {
			p.Num0 += scale * res.Float(i, 2)
		} else {
			p.Num1 += scale * res.Float(i, 2)
		}
	}
	return parts, shared
}

// decompose applies the decomposition that fits the metric.
func (r *run) decompose(parts []drill.Part, rest drill.Part) drill.Decomposition {
	scale := r.metric.Scale
	if scale == 0 {
		scale = 1
	}
	if r.metric.Ratio() {
		return drill.Ratio(parts, rest, scale)
	}
	scaled := make([]drill.Part, len(parts))
	for i, p := range parts {
		scaled[i] = drill.Part{Name: p.Name, Num0: scale * p.Num0, Num1: scale * p.Num1}
	}
	return drill.Additive(scaled, drill.Part{Name: rest.Name, Num0: scale * rest.Num0, Num1: scale * rest.Num1})
}

// effects returns the values' effects, largest absolute effect first.
func (dr *dimResult) effects() []valueEffect {
	total := dr.dec.Change
	var base float64
	for _, p := range dr.parts {
		if dr.dec.Ratio {
			base += p.Den0
		} else {
			base += p.Num0
		}
	}
	out := make([]valueEffect, len(dr.dec.Effects))
	for i, e := range dr.dec.Effects {
		out[i] = valueEffect{Effect: e, n: dr.n[i], share: safeShare(e.Change, total)}
		if dr.dec.Ratio {
			out[i].baseShare = safeShare(dr.parts[i].Den0, base)
		} else {
			out[i].baseShare = safeShare(dr.parts[i].Num0, base)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return math.Abs(out[i].Change) > math.Abs(out[j].Change) })
	return out
}

func safeShare(x, total float64) float64 {
	if total == 0 {
		return 0
	}
	return x / total
}

// concentration decides a dimension hypothesis: confirmed when one value
// accounts for at least 20% of the change in its direction and at least 1.5
// times its share of the baseline (or the value is new or gone). The value
// returned is the one whose share of the change most exceeds its share of
// the baseline.
func (dr *dimResult) concentration() (valueEffect, bool) {
	effs := dr.effects()
	if len(effs) == 0 {
		return valueEffect{}, false
	}
	top := effs[0]
	for _, e := range effs[1:] {
		if e.share-e.baseShare > top.share-top.baseShare {
			top = e
		}
	}
	disproportionate := top.baseShare == 0 || top.share >= 1.5*top.baseShare
	return top, top.share >= 0.2 && disproportionate && len(effs) > 1
}

// analyzeDimension is the memory-loop step for a dimension hypothesis.
func (r *run) analyzeDimension(d *Dim) func(context.Context) (stepResult, error) {
	return func(ctx context.Context) (stepResult, error) {
		var res stepResult
		dr, err := r.byDimension(ctx, d)
		if err != nil {
			return res, err
		}
		effs := dr.effects()
		res.addQuery("change by "+d.Name, dr.rec, r.effectTable(d.Name, effs))
		top, ok := dr.concentration()
		switch {
		case len(effs) == 0:
			res.summary = fmt.Sprintf("No rows to split by %s.", d.Name)
			res.verdict, res.reason = investigation.HypRuledOut, "no data"
		case ok:
			res.summary = fmt.Sprintf("By %s, %s=%s, over all its rows, accounts for %s of the change (%s) while holding %s of the baseline. %s",
				d.Name, d.Name, top.Name, sharePct(top.share), r.fmtChange(top.Change), pctOf(top.baseShare), r.driverSentence(top))
			res.verdict = investigation.HypConfirmed
			res.reason = fmt.Sprintf("%s=%s, over all its rows, carries %s of the change from %s of the baseline", d.Name, top.Name, sharePct(top.share), pctOf(top.baseShare))
			r.stats.dimFound = append(r.stats.dimFound, candidate{seg: []dimValue{{Dim: d, Value: top.Name, Null: top.Name == nullLabel}}, source: "dimension"})
		default:
			res.summary = fmt.Sprintf("By %s the change is spread out: the largest value, %s, accounts for %s of it and holds %s of the baseline.",
				d.Name, top.Name, sharePct(top.share), pctOf(top.baseShare))
			res.verdict = investigation.HypRuledOut
			res.reason = fmt.Sprintf("no value of %s carries a disproportionate share (largest: %s=%s with %s)", d.Name, d.Name, top.Name, sharePct(top.share))
		}
		if dr.dec.Ratio {
			res.summary += fmt.Sprintf(" Across %s, rate effects sum to %s and mix effects to %s.", d.Name, r.fmtChange(dr.rateSum), r.fmtChange(dr.mixSum))
		}
		return res, nil
	}
}

// driverSentence says whether a value moved through its own rate or its mix.
func (r *run) driverSentence(e valueEffect) string {
	if r.metric.Ratio() {
		return fmt.Sprintf("Its rate moved from %s to %s (rate effect %s, mix effect %s).",
			r.fmtValue(e.Value0), r.fmtValue(e.Value1), r.fmtChange(e.Rate), r.fmtChange(e.Mix))
	}
	return fmt.Sprintf("Its rows went from %s to %s.", num(e.n[0]), num(e.n[1]))
}
