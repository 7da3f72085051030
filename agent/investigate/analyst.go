package investigate

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry/drill"
	"github.com/quarry-dev/quarry/investigation"
)

// analysisState is what the memory loop has measured so far.
type analysisState struct {
	quality      []qualityIssue
	calendar     *calendarResult
	byDim        map[string]*dimResult
	daily        map[string]*dimResult // by period, summed from the quality check's days per value
	nulls        map[string][2]float64 // a dimension's NULL rows per period, by its expression, from the same days
	mixFound     []candidate
	found        []candidate // from the segment search
	dimFound     []candidate // the values confirmed dimension hypotheses point at
	searched     bool
	leaves       int
	verified     []verified
	partition    drill.Decomposition
	partitionRec record
}

// agenda is the offline analyst's plan for the memory loop: data quality
// first, then the calendar, each dimension, the mix (ratios), a search of
// combinations, verification of what it found, and the uniform-shift
// hypothesis last, because it is what remains when nothing else holds.
func (r *run) agenda() []step {
	var out []step
	for _, h := range r.hyps {
		h := h
		switch h.Kind {
		case investigation.KindDataQuality:
			out = append(out, step{decision: investigation.DecisionAnalyze, hyp: h.HypothesisID,
				why: "broken data must be ruled out before any business explanation", do: r.checkQuality})
		case investigation.KindCalendar:
			out = append(out, step{decision: investigation.DecisionAnalyze, hyp: h.HypothesisID,
				why: "periods with different weekdays differ for no business reason", do: r.checkCalendar})
		case hypDimension:
			d := r.dimByName(h.Dimensions[0])
			out = append(out, step{decision: investigation.DecisionAnalyze, hyp: h.HypothesisID,
				why: "decompose the change by " + d.Name, do: r.analyzeDimension(d)})
		}
	}
	for _, h := range r.hyps {
		switch h.Kind {
		case investigation.KindMix:
			out = append(out, step{decision: investigation.DecisionAnalyze, hyp: h.HypothesisID,
				why: "compare mix and rate effects across every dimension", do: r.checkMix})
		case hypInteraction:
			out = append(out, step{decision: investigation.DecisionDrillDown, hyp: h.HypothesisID,
				why: "search combinations of dimension values at every depth", do: r.searchSegments})
			out = append(out, step{decision: investigation.DecisionDrillDown, hyp: h.HypothesisID,
				why: "measure the candidate segments without overlap and test them against their " + r.grain.adjective() + " noise", do: r.verifyInteraction})
		}
	}
	for _, h := range r.hyps {
		if h.Kind == hypUniform {
			if !r.hasInteraction() {
				// One dimension has no interaction hypothesis, but its
				// values still need searching: a segment that carries the
				// change is what rules a uniform shift out.
				out = append(out, step{decision: investigation.DecisionDrillDown, hyp: h.HypothesisID,
					why: "search the dimension values for the segments that explain the change", do: r.searchSegments})
				out = append(out, step{decision: investigation.DecisionDrillDown, hyp: h.HypothesisID,
					why: "measure the candidate segments without overlap and test them against their " + r.grain.adjective() + " noise", do: r.verifySegments})
			}
			// The model's own hypotheses are judged by the verified
			// segments, so they come after verification.
			for _, mh := range r.hyps {
				if mh.Kind == hypModel {
					out = append(out, step{decision: investigation.DecisionAnalyze, hyp: mh.HypothesisID,
						why: "measure " + strings.Join(mh.Dimensions, " and ") + " for the model's hypothesis", do: r.checkModelHypothesis(mh)})
				}
			}
			out = append(out, step{decision: investigation.DecisionAnalyze, hyp: h.HypothesisID,
				why: "check whether anything stands out from a uniform shift", do: r.checkUniform})
		}
	}
	return out
}

func (r *run) hasInteraction() bool {
	for _, h := range r.hyps {
		if h.Kind == hypInteraction {
			return true
		}
	}
	return false
}

func (r *run) dimByName(name string) *Dim {
	for _, d := range r.dims {
		if d.Name == name {
			return d
		}
	}
	panic("investigate: unknown dimension " + name)
}

// verifyInteraction verifies the candidates and decides the interaction
// hypothesis: confirmed when a significant segment of two or more
// dimensions explains at least 15% of the change.
func (r *run) verifyInteraction(ctx context.Context) (stepResult, error) {
	res, err := r.verifySegments(ctx)
	if err != nil {
		return res, err
	}
	res.verdict, res.reason = investigation.HypRuledOut, "no significant combination of dimension values reaches the 15% share of the change a combination needs"
	for _, v := range r.stats.verified {
		if v.source == "search" && len(v.seg) >= 2 && v.significant() && v.share >= 0.15 {
			res.verdict = investigation.HypConfirmed
			res.reason = fmt.Sprintf("%s explains %s of the change%s (%s)", v.key(), sharePct(v.share), v.measuredAfter(r), stat("q", v.test.QValue))
			break
		}
	}
	return res, nil
}

// checkMix decides the mix hypothesis of a ratio metric: confirmed when, in
// some dimension, mix effects account for at least 25% of the change in its
// direction. The value with the largest mix effect becomes a candidate.
func (r *run) checkMix(ctx context.Context) (stepResult, error) {
	var res stepResult
	var best *dimResult
	for _, d := range r.dims {
		dr, err := r.byDimension(ctx, d)
		if err != nil {
			return res, err
		}
		res.addQuery("change by "+d.Name, dr.rec, r.effectTable(d.Name, dr.effects()))
		if best == nil || safeShare(dr.mixSum, dr.dec.Change) > safeShare(best.mixSum, best.dec.Change) {
			best = dr
		}
	}
	if best == nil {
		res.summary = "There are no dimensions to measure a mix shift on."
		res.verdict, res.reason = investigation.HypRuledOut, "no dimensions"
		return res, nil
	}
	share := safeShare(best.mixSum, best.dec.Change)
	var top valueEffect
	for _, e := range best.effects() {
		if math.Abs(e.Mix) > math.Abs(top.Mix) {
			top = e
		}
	}
	if share >= 0.25 && safeShare(top.Mix, best.dec.Change) >= minShare {
		res.verdict = investigation.HypConfirmed
		res.reason = fmt.Sprintf("mix effects across %s account for %s of the change", best.dim.Name, sharePct(share))
		res.summary = fmt.Sprintf("Mix shift in %s: its mix effects sum to %s (%s of the change). %s=%s went from %s to %s of the denominator at a rate of %s.",
			best.dim.Name, r.fmtChange(best.mixSum), sharePct(share), best.dim.Name, top.Name, pctOf(top.Share0), pctOf(top.Share1), r.fmtValue(top.Value1))
		r.stats.mixFound = append(r.stats.mixFound, candidate{seg: []dimValue{{Dim: best.dim, Value: top.Name, Null: top.Name == nullLabel}}, source: "mix"})
	} else {
		res.verdict = investigation.HypRuledOut
		res.reason = fmt.Sprintf("the largest mix effect, in %s, is %s of the change", best.dim.Name, sharePct(share))
		res.summary = fmt.Sprintf("No material mix shift: the largest, in %s, is %s of the change; the change comes from segments' own rates.", best.dim.Name, sharePct(share))
	}
	return res, nil
}

// checkUniform decides the uniform-shift hypothesis: confirmed when no
// verified segment is significant and carries 20% of the change.
func (r *run) checkUniform(ctx context.Context) (stepResult, error) {
	var res stepResult
	for _, v := range r.stats.verified {
		if v.significant() && math.Abs(v.share) >= 0.2 {
			res.verdict = investigation.HypRuledOut
			res.reason = fmt.Sprintf("%s alone explains %s of the change%s", v.key(), sharePct(v.share), v.measuredAfter(r))
			res.summary = fmt.Sprintf("The change is not uniform: %s alone explains %s of it%s.", v.key(), sharePct(v.share), v.measuredAfter(r))
			return res, nil
		}
	}
	// A dimension whose values carry the change disproportionately is the
	// opposite of a uniform shift, even when its segment did not pass its
	// own noise test: the two verdicts must not both hold.
	for _, h := range r.hyps {
		if (h.Kind == hypDimension || h.Kind == hypInteraction) && h.Status == investigation.HypConfirmed {
			res.verdict = investigation.HypRuledOut
			res.reason = fmt.Sprintf("%s: %s", h.Title, h.Verdict)
			res.summary = fmt.Sprintf("The change is not uniform: %s.", h.Verdict)
			return res, nil
		}
	}
	if r.overall.change.Significant {
		res.verdict = investigation.HypConfirmed
		res.reason = "no segment stands out; the whole population moved"
		res.summary = fmt.Sprintf("No segment stands out: the metric moved by %s (%+.1f%%) across the board.", r.fmtChange(r.overall.change.Change), r.overall.change.ChangePct)
	} else {
		res.verdict = investigation.HypRuledOut
		res.reason = fmt.Sprintf("the change is within %s-to-%s variation", r.grain.noun(), r.grain.noun())
		res.summary = fmt.Sprintf("The overall change of %+.1f%% is %s, so there is no shift to explain.", r.overall.change.ChangePct, r.noiseText())
		if r.overall.test.BelowPrecision {
			res.reason = "no change beyond floating-point precision"
			res.summary = fmt.Sprintf("The metric shows %s, so there is no shift to explain.", r.noiseText())
		}
	}
	return res, nil
}

// candidates lists the segments proposed so far, data-quality segments
// first, then mix shifts, then the search's, without repeats.
func (r *run) candidates() []candidate {
	seen := map[string]bool{}
	var out []candidate
	add := func(c candidate) {
		if !seen[c.key()] && len(c.seg) > 0 {
			seen[c.key()] = true
			out = append(out, c)
		}
	}
	for i := range r.stats.quality {
		is := &r.stats.quality[i]
		if is.candidate() && r.materialIssue(*is) {
			add(candidate{seg: is.seg, source: "quality", kind: investigation.KindDataQuality, issue: is})
		}
	}
	for _, c := range r.stats.mixFound {
		add(c)
	}
	for _, c := range r.stats.found {
		add(c)
	}
	// A value that carries a dimension's change is tested too when no
	// candidate so far slices by its dimension: the search weighs it
	// against the other values' noise and can pass over a value that
	// moved on its own while the others moved the other way.
	for _, c := range r.stats.dimFound {
		if !slices.ContainsFunc(out, func(o candidate) bool {
			return slices.ContainsFunc(o.seg, func(v dimValue) bool { return v.Dim.Name == c.seg[0].Dim.Name })
		}) {
			add(c)
		}
	}
	return out
}

// checkModelHypothesis decides a hypothesis the model proposed by what was
// measured on its dimensions: confirmed when a significant verified
// segment built only from them explains at least 15% of the change, ruled
// out otherwise. The model's opinion of it plays no part.
func (r *run) checkModelHypothesis(h *investigation.Hypothesis) func(context.Context) (stepResult, error) {
	return func(ctx context.Context) (stepResult, error) {
		var res stepResult
		in := map[string]bool{}
		for _, name := range h.Dimensions {
			d := r.dimByName(name)
			in[d.Name] = true
			dr, err := r.byDimension(ctx, d)
			if err != nil {
				return res, err
			}
			res.addQuery("change by "+d.Name, dr.rec, r.effectTable(d.Name, dr.effects()))
		}
		var best *verified
		for i := range r.stats.verified {
			v := &r.stats.verified[i]
			inside := true
			for _, sv := range v.seg {
				inside = inside && in[sv.Dim.Name]
			}
			if inside && v.passed() && (best == nil || math.Abs(v.share) > math.Abs(best.share)) {
				best = v
			}
		}
		dims := strings.Join(h.Dimensions, " and ")
		if best != nil && math.Abs(best.share) >= 0.15 {
			res.verdict = investigation.HypConfirmed
			res.reason = fmt.Sprintf("%s explains %s of the change%s (%s)", best.key(), sharePct(best.share), best.measuredAfter(r), stat("q", best.test.QValue))
			res.summary = fmt.Sprintf("Measured on %s: %s explains %s of the change%s and is significant (%s).", dims, best.key(), sharePct(best.share), best.measuredAfter(r), stat("q", best.test.QValue))
		} else {
			res.verdict = investigation.HypRuledOut
			res.reason = fmt.Sprintf("no significant segment of %s explains 15%% of the change", dims)
			res.summary = fmt.Sprintf("Measured on %s: no significant segment explains 15%% of the change.", dims)
		}
		return res, nil
	}
}
