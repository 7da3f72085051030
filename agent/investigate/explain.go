package investigate

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/drill"
	"github.com/quarry-dev/quarry/investigation"
)

// maxExplanations caps the ranked list; past it the rest is "everything else".
const maxExplanations = 7

// explain turns what the loop measured into ranked explanations: data
// problems first, then segments and the calendar by the share of the change
// they account for. Only significant segments are explanations.
func (r *run) explain(ctx context.Context) error {
	var dq, other []investigation.Explanation
	ratio := r.metric.Ratio()
	for i := range r.stats.verified {
		v := &r.stats.verified[i]
		if !v.significant() || math.Abs(v.share) < minShare {
			continue
		}
		if !r.overall.change.Significant && v.source != "quality" && !v.planned() {
			// With the total within its noise, only a segment tested as
			// planned (one value of one dimension) counts: a combination
			// the search picked from many is too likely chance.
			continue
		}
		e := r.segmentExplanation(v, ratio)
		if e.Kind == investigation.KindDataQuality {
			dq = append(dq, e)
		} else {
			other = append(other, e)
		}
	}
	for i := range r.stats.quality {
		is := &r.stats.quality[i]
		if len(is.seg) == 0 && r.materialIssue(*is) {
			dq = append(dq, r.qualityExplanation(is))
		}
	}
	if c := r.stats.calendar; c != nil && r.hypByKind(investigation.KindCalendar).Status == investigation.HypConfirmed {
		other = append(other, r.calendarExplanation(c))
	}
	few, err := r.concentration(ctx)
	if err != nil {
		return err
	}
	byShare := func(es []investigation.Explanation) {
		sort.SliceStable(es, func(i, j int) bool { return math.Abs(es[i].ShareOfChange) > math.Abs(es[j].ShareOfChange) })
	}
	if r.overall.change.Significant && r.hypByKind(hypUniform).Status == investigation.HypConfirmed {
		rest := 1.0
		for _, e := range append(dq, other...) {
			rest -= e.ShareOfChange
		}
		if rest >= minShare {
			other = append(other, r.uniformExplanation(rest))
		}
	}
	byShare(dq)
	byShare(other)
	if few != nil {
		// A few rows carrying the change are the answer, before any
		// segment that merely holds them.
		other = append([]investigation.Explanation{*few}, other...)
	}
	all := append(dq, other...)
	if len(all) > maxExplanations {
		all = all[:maxExplanations]
	}

	o := r.overall.change
	switch {
	case !o.Significant && len(dq) == 0 && few == nil && !hasKind(other, investigation.KindCalendar) && !hasSegment(other):
		r.outcome = investigation.OutcomeNoFindings
		r.whyNone = fmt.Sprintf("The change of %s (%+.1f%%) is within normal %s-to-%s variation (%s over %d baseline and %d comparison %ss), so there is nothing to explain.",
			r.fmtChange(o.Change), o.ChangePct, r.grain.noun(), r.grain.noun(), stat("p", o.PValue), len(r.overall.base), len(r.overall.cmp), r.grain.noun())
		if r.overall.test.BelowPrecision {
			r.whyNone = fmt.Sprintf("The metric shows %s: the two periods differ only by the rounding of the sums, so there is nothing to explain.", r.noiseText())
		}
		all = nil
	case len(all) == 0:
		r.outcome = investigation.OutcomeNoFindings
		r.whyNone = fmt.Sprintf("The change of %s (%+.1f%%) is real, but no segment, data problem or calendar effect accounts for a significant part of it: the whole population moved together, or the cause lies in data that was not uploaded.",
			r.fmtChange(o.Change), o.ChangePct)
	default:
		r.outcome = investigation.OutcomeCompleted
	}
	for i := range all {
		all[i].Headline = r.contribution(all[i].Change, all[i].ShareOfChange)
		all[i].Rank = i + 1
		all[i].Likelihood = investigation.LikelihoodForRank(i + 1)
		all[i].Reasoning = truncate(rankReason(all[i], i+1)+" "+all[i].Reasoning, quarry.MaxExplanationReasonLen)
	}
	for i := range all {
		for j := range all[i].Evidence {
			finite(all[i].Evidence[j].Values)
		}
	}
	r.expls = r.finiteExplanations(all)
	if r.expls == nil {
		r.expls = []investigation.Explanation{}
	}
	r.progress(investigation.Event{Step: "explain", Message: fmt.Sprintf("%d explanations; outcome %s", len(r.expls), r.outcome)})
	return r.artifact("results/explanations.json", r.expls)
}

func rankReason(e investigation.Explanation, rank int) string {
	if e.Kind == investigation.KindDataQuality {
		return fmt.Sprintf("Ranked %d: data problems rank before business explanations, because the metric cannot be read until the data is fixed.", rank)
	}
	return fmt.Sprintf("Ranked %d by the measured share of the change it accounts for (%s).", rank, sharePct(e.ShareOfChange))
}

func (r *run) hypByKind(kind string) *investigation.Hypothesis {
	for _, h := range r.hyps {
		if h.Kind == kind {
			return h
		}
	}
	return &investigation.Hypothesis{}
}

// segmentExplanation explains one verified segment.
func (r *run) segmentExplanation(v *verified, ratio bool) investigation.Explanation {
	kind := v.kindOf(ratio)
	seg := v.key()
	down := v.effect.Change < 0
	var title, story string
	switch kind {
	case investigation.KindDataQuality:
		title = fmt.Sprintf("Missing data in %s", seg)
		story = fmt.Sprintf("%s. The rows were not lost by the business but by the data: fix the pipeline or the extract, then re-run.", v.issue.Detail)
	case investigation.KindMix:
		more := v.effect.Share1 > v.effect.Share0
		title = fmt.Sprintf("Mix shift: %s %s from %s to %s of the population", seg, map[bool]string{true: "grew", false: "shrank"}[more], pctOf(v.effect.Share0), pctOf(v.effect.Share1))
		story = fmt.Sprintf("%s runs at %s against %s overall; as its share %s, the overall metric moved even though its own rate barely changed (%s to %s).",
			seg, r.fmtValue(v.effect.Value1), r.fmtValue(r.overall.change.ComparisonValue), map[bool]string{true: "grew", false: "shrank"}[more],
			r.fmtValue(v.effect.Value0), r.fmtValue(v.effect.Value1))
	case investigation.KindRate:
		if ratio {
			title = fmt.Sprintf("%s rate in %s: %s to %s", map[bool]string{true: "Lower", false: "Higher"}[down], seg, r.fmtValue(v.effect.Value0), r.fmtValue(v.effect.Value1))
			story = fmt.Sprintf("The metric within %s itself moved from %s to %s while its share of the population stayed near %s.", seg, r.fmtValue(v.effect.Value0), r.fmtValue(v.effect.Value1), pctOf(v.effect.Share1))
		} else {
			a0, a1 := v.effect.Value0/math.Max(v.n[0], 1), v.effect.Value1/math.Max(v.n[1], 1)
			title = fmt.Sprintf("%s value per row in %s: %s to %s", map[bool]string{true: "Lower", false: "Higher"}[down], seg, num(a0), num(a1))
			story = fmt.Sprintf("Rows of %s went from %s to %s and each was worth %s %s on average (%s to %s).", seg, num(v.n[0]), num(v.n[1]),
				sharePct(math.Abs(1-a1/math.Max(a0, 1e-12))), map[bool]string{true: "less", false: "more"}[a1 < a0], num(a0), num(a1))
		}
	default:
		title = fmt.Sprintf("%s rows in %s: %s to %s", map[bool]string{true: "Fewer", false: "More"}[down], seg, num(v.n[0]), num(v.n[1]))
		story = fmt.Sprintf("The number of rows of %s moved from %s to %s (%+.0f%%), taking the metric with it.", seg, num(v.n[0]), num(v.n[1]), pct(v.n[1]-v.n[0], v.n[0]))
	}
	ev := append([]investigation.Evidence(nil), v.evidence...)
	if !ratio && r.metric.Kind == investigation.MetricSum {
		ev = append(ev, investigation.Evidence{
			Description: fmt.Sprintf("split of the segment's change: %s from the number of rows, %s from the value per row", r.fmtChange(v.volume), r.fmtChange(v.perRow)),
			SQL:         r.stats.partitionRec.SQL, AuditSequence: r.stats.partitionRec.Sequence,
			Values: map[string]float64{"volume_effect": v.volume, "value_per_row_effect": v.perRow},
		})
	}
	if v.issue != nil {
		ev = append([]investigation.Evidence{{Description: v.issue.Detail, SQL: v.issue.rec.SQL, AuditSequence: v.issue.rec.Sequence, Values: v.issue.Values}}, ev...)
	}
	p := v.test.QValue
	measured := "measured as a non-overlapping part of the population"
	if v.partial(r) {
		measured = fmt.Sprintf("measured as a non-overlapping part of the population, after the rows it shares with %s, earlier in the partition, were set aside", strings.Join(v.takenBy, " and "))
	}
	reasoning := fmt.Sprintf("It accounts for %s, %s", r.contribution(v.effect.Change, v.share), measured)
	if v.passed() {
		reasoning += fmt.Sprintf("; its own %s-to-%s change is significant (%s after correcting for %d segments).", r.grain.noun(), r.grain.noun(), stat("q", p), r.examined())
	} else {
		reasoning += fmt.Sprintf("; its own %s-to-%s change is not significant (%s after correcting for %d segments), so it is reported as a data problem, which rests on the missing rows, not on a test.", r.grain.noun(), r.grain.noun(), stat("q", p), r.examined())
	}
	if note := v.allRowsNote(r); note != "" {
		reasoning += " " + note
	}
	return investigation.Explanation{
		Title:            truncate(title, quarry.MaxExplanationTitleLen),
		Evidence:         ev,
		Reasoning:        reasoning,
		CausalStory:      truncate(story, quarry.MaxCausalStoryLen),
		SourceHypotheses: r.sourceHyps(v),
		Kind:             kind,
		Segment:          toSegment(v.seg),
		ShareOfChange:    v.share,
		Change:           v.effect.Change,
		PValue:           &p,
		Significant:      v.passed(),
	}
}

// sourceHyps lists the hypotheses whose dimensions the segment uses, and
// the hypothesis whose step proposed it.
func (r *run) sourceHyps(v *verified) []string {
	out := []string{}
	for _, h := range r.hyps {
		use := false
		switch {
		case h.Kind == hypDimension:
			for _, sv := range v.seg {
				use = use || h.Dimensions[0] == sv.Dim.Name
			}
		case h.Kind == hypInteraction:
			use = v.source == "search" && len(v.seg) > 1
		case h.Kind == investigation.KindMix:
			use = v.source == "mix"
		case h.Kind == investigation.KindDataQuality:
			use = v.source == "quality"
		}
		if use {
			out = append(out, h.HypothesisID)
		}
	}
	return out
}

// qualityExplanation explains a whole-table data problem.
func (r *run) qualityExplanation(is *qualityIssue) investigation.Explanation {
	share := safeShare(is.impact, r.overall.change.Change)
	titles := map[string]string{
		drill.IssuePartialLastDay: fmt.Sprintf("Partial last %s in the data", r.grain.noun()),
		drill.IssueMissingDays:    strings.ToUpper(r.grain.noun()[:1]) + r.grain.noun()[1:] + "s missing from the data",
		drill.IssueDuplicateRows:  "Duplicate rows in the comparison period",
		drill.IssueDuplicateKeys:  "Duplicate keys in the comparison period",
		drill.IssueSumRows:        "Rows that are totals of other rows",
	}
	title := titles[is.Kind]
	if title == "" {
		title = "Data problem: " + strings.ReplaceAll(is.Kind, "_", " ")
	}
	switch is.Kind {
	case drill.IssueSumRows:
		title += ": " + is.Segment
	case drill.IssueDataBoundary:
		// "The data stops after 2002-07-25"
		head, _, _ := strings.Cut(is.Detail, ":")
		title = strings.ToUpper(head[:1]) + head[1:]
	}
	return investigation.Explanation{
		Title: title,
		Evidence: []investigation.Evidence{{
			Description: is.Detail, SQL: is.rec.SQL, AuditSequence: is.rec.Sequence, Values: is.Values,
		}},
		Reasoning:        fmt.Sprintf("An estimated %s comes from this problem, not from the business.", r.contribution(is.impact, share)),
		CausalStory:      truncate(is.Detail+". Fix the data and re-run before reading any other explanation.", quarry.MaxCausalStoryLen),
		SourceHypotheses: []string{r.hypByKind(investigation.KindDataQuality).HypothesisID},
		Kind:             investigation.KindDataQuality,
		Segment:          investigation.Segment{},
		ShareOfChange:    share,
		Change:           is.impact,
		Significant:      true,
	}
}

// calendarExplanation explains a weekday-composition effect.
func (r *run) calendarExplanation(c *calendarResult) investigation.Explanation {
	share := safeShare(c.ExpectedChange, r.overall.change.Change)
	return investigation.Explanation{
		Title: "Different weekday mix between the periods",
		Evidence: []investigation.Evidence{{
			Description: fmt.Sprintf("baseline days: %s; comparison days: %s; the weekly profile predicts %s", weekdayCounts(c.Base), weekdayCounts(c.Cmp), r.fmtChange(c.ExpectedChange)),
			SQL:         c.rec.SQL, AuditSequence: c.rec.Sequence,
			Values: map[string]float64{"expected_change": c.ExpectedChange, "length_change": c.LengthChange, "share_of_change": share},
		}},
		Reasoning:        fmt.Sprintf("The weekday composition alone predicts %s.", r.contribution(c.ExpectedChange, share)),
		CausalStory:      "The metric follows a weekly pattern and the two periods contain different weekdays; compare like-for-like weeks before concluding anything changed.",
		SourceHypotheses: []string{r.hypByKind(investigation.KindCalendar).HypothesisID},
		Kind:             investigation.KindCalendar,
		Segment:          investigation.Segment{},
		ShareOfChange:    share,
		Change:           c.ExpectedChange,
		Significant:      true,
	}
}

// finite drops values that JSON cannot carry (NaN, ±Inf), such as the
// rate of a segment that had no rows in one period.
func finite(m map[string]float64) {
	for k, v := range m {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			delete(m, k)
		}
	}
}

// hasSegment reports whether an explanation names a segment.
func hasSegment(es []investigation.Explanation) bool {
	for _, e := range es {
		if len(e.Segment) > 0 {
			return true
		}
	}
	return false
}

func hasKind(es []investigation.Explanation, kind string) bool {
	for _, e := range es {
		if e.Kind == kind {
			return true
		}
	}
	return false
}
