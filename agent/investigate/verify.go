package investigate

import (
	"context"
	"fmt"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/drill"
	"github.com/quarry-dev/quarry/investigation"
)

// verified is a candidate segment measured as one part of an exclusive
// partition of the population, with its own significance.
type verified struct {
	candidate
	effect   drill.Effect
	n        [2]float64 // row counts per period
	volume   float64    // additive sums: effect of the row count
	perRow   float64    // additive sums: effect of the value per row
	share    float64
	test     drill.SegmentResult
	daily    drill.SegmentSeries
	evidence []investigation.Evidence

	// The same segment over all its rows, before earlier candidates took
	// theirs: what a per-dimension finding reports for it. setAside are
	// the rows (both periods) earlier candidates took, and takenBy names
	// those candidates. Both are zero when nothing was set aside, or for
	// distinct counts, whose parts are not measured that way.
	all      drill.Effect
	allShare float64
	setAside float64
	takenBy  []string
}

// partial reports whether earlier candidates took some of the segment's
// rows and that changed its number as printed: then its exclusive measure
// and its measure over all rows differ, and every place that prints one
// says which it is.
func (v *verified) partial(r *run) bool {
	return v.setAside > 0 && (r.fmtChange(v.all.Change) != r.fmtChange(v.effect.Change) || sharePct(v.allShare) != sharePct(v.share))
}

// measuredAfter labels an exclusive measure whose rows were partly set
// aside: " (measured after the rows it shares with X were set aside)", or
// "" when nothing was.
func (v *verified) measuredAfter(r *run) string {
	if !v.partial(r) {
		return ""
	}
	return fmt.Sprintf(" (measured after the rows it shares with %s, earlier in the partition, were set aside)", strings.Join(v.takenBy, " and "))
}

// allRowsNote says what the segment measures over all its rows, for a
// partial measure: the number the memory loop's findings show.
func (v *verified) allRowsNote(r *run) string {
	if !v.partial(r) {
		return ""
	}
	return fmt.Sprintf("Over all its rows, as the per-dimension findings measure it, %s moved %s (%s of the change); the difference is the rows it shares with %s.",
		v.key(), r.fmtChange(v.all.Change), sharePct(v.allShare), strings.Join(v.takenBy, " and "))
}

// kind labels the explanation: data quality when a check said so; for
// ratios, rate or mix by the larger component; for sums, volume when the
// row count moved more than the value per row, rate otherwise.
func (v *verified) kindOf(ratio bool) string {
	switch {
	case v.kind != "":
		return v.kind
	case ratio && math.Abs(v.effect.Mix) > math.Abs(v.effect.Rate):
		return investigation.KindMix
	case ratio:
		return investigation.KindRate
	case math.Abs(v.perRow) > math.Abs(v.volume):
		return investigation.KindRate
	}
	return investigation.KindVolume
}

// verifySegments measures every candidate as an exclusive part (a row
// belongs to the first candidate it matches, so parts never overlap and
// their effects plus the remainder add up to the change exactly), then tests
// each part's change against its own day-to-day noise, correcting for the
// number of segments examined.
func (r *run) verifySegments(ctx context.Context) (stepResult, error) {
	var res stepResult
	cands := r.candidates()
	if len(cands) == 0 {
		res.summary = "No candidate segment to verify."
		return res, nil
	}
	var cases strings.Builder
	cases.WriteString("CASE")
	for i, c := range cands {
		fmt.Fprintf(&cases, " WHEN %s THEN %d", segmentCond(c.seg), i+1)
	}
	cases.WriteString(" ELSE 0 END AS part")
	// One flag per later candidate says whether a row matches it at all,
	// so the same query measures each candidate over all its rows too, and
	// which earlier candidates took some of them.
	cols := []string{cases.String()}
	for i := 1; i < len(cands); i++ {
		cols = append(cols, fmt.Sprintf("CASE WHEN %s THEN 1 ELSE 0 END AS in_%d", segmentCond(cands[i].seg), i+1))
	}
	nf := len(cols) - 1
	parts := make([]drill.Part, len(cands))
	whole := make([]drill.Part, len(cands))
	counts := make([][2]float64, len(cands)+1)
	aside := make([]float64, len(cands))
	takers := make([]map[int]bool, len(cands))
	var rest drill.Part
	rest.Name = "everything else"
	q, rec, err := r.rec.query(ctx, "exclusive partition of the candidate segments", r.scope.byPeriod(cols, ""))
	if err != nil {
		return res, err
	}
	for i := range cands {
		parts[i].Name = cands[i].key()
		whole[i].Name = cands[i].key()
	}
	addTo := func(p *drill.Part, per int, num, den float64) {
		if per == 0 {
			p.Num0 += num
			p.Den0 += den
		} else {
			p.Num1 += num
			p.Den1 += den
		}
	}
	for i := range q.Rows {
		k := int(q.Float(i, 0))
		p := &rest
		if k > 0 {
			p = &parts[k-1]
		}
		per := int(q.Float(i, 1+nf))
		num, den, n := q.Float(i, 2+nf), q.Float(i, 3+nf), q.Float(i, 4+nf)
		addTo(p, per, num, den)
		counts[k][per] += n
		if k > 0 {
			addTo(&whole[k-1], per, num, den)
		}
		for j := 1; j < len(cands); j++ {
			if q.Float(i, j) == 0 || k == j+1 {
				continue
			}
			addTo(&whole[j], per, num, den)
			if k > 0 && k < j+1 {
				aside[j] += n
				if takers[j] == nil {
					takers[j] = map[int]bool{}
				}
				takers[j][k-1] = true
			}
		}
	}
	dec := r.decompose(parts, rest)
	if r.metric.Kind == investigation.MetricDistinct {
		if dec, rec, err = r.distinctPartition(ctx, cases.String(), len(cands)); err != nil {
			return res, err
		}
	}
	r.stats.partition = dec
	r.stats.partitionRec = rec

	// Day-level series per part for the significance tests.
	dq, drec, err := r.rec.query(ctx, "daily series of the candidate segments", r.scope.daily([]string{cases.String()}, ""))
	if err != nil {
		return res, err
	}
	series := make([]drill.SegmentSeries, len(cands))
	for i := range dq.Rows {
		k := int(dq.Float(i, 0))
		if k == 0 {
			continue
		}
		day, err := asDate(dq.Rows[i][1])
		if err != nil {
			return res, err
		}
		d := drill.Day{Date: day.String(), Num: dq.Float(i, 2), Den: dq.Float(i, 3)}
		if r.scope.base.Contains(day) {
			series[k-1].Base = append(series[k-1].Base, d)
		}
		if r.scope.cmp.Contains(day) {
			series[k-1].Cmp = append(series[k-1].Cmp, d)
		}
	}
	for i := range series {
		series[i].Name = parts[i].Name
		series[i].Base = r.fillDays(series[i].Base, r.scope.base)
		series[i].Cmp = r.fillDays(series[i].Cmp, r.scope.cmp)
		series[i].Base, series[i].Cmp = r.deseason(series[i].Base, series[i].Cmp)
		if cands[i].source == "mix" {
			// A mix shift is a change of the segment's share of the
			// population, not of its own rate: test the daily share.
			series[i].Base, series[i].Cmp = r.shareSeries(series[i].Base, r.overall.base), r.shareSeries(series[i].Cmp, r.overall.cmp)
		}
	}
	tests := drill.SegmentTest(series, r.metric.Ratio(), r.metric.Scale)
	for i, c := range cands {
		if c.source == "mix" {
			tests[i].TestResult = drill.ChangeTest(series[i].Base, series[i].Cmp, true, 1)
			tests[i].Method += " on the daily share of the denominator"
		}
	}
	// Correct for every segment examined, not only those tested here: the
	// search looked at the values of every dimension before choosing.
	p := make([]float64, 0, r.examined())
	for _, t := range tests {
		p = append(p, t.PValue)
	}
	for len(p) < cap(p) {
		p = append(p, 1)
	}
	q2 := drill.BenjaminiHochberg(p)

	scale := r.metric.Scale
	if scale == 0 {
		scale = 1
	}
	var tw strings.Builder
	w := tabwriter.NewWriter(&tw, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "part\tsegment\tchange\tshare\tp\tq\t")
	r.stats.verified = nil
	for i, c := range cands {
		v := verified{candidate: c, effect: dec.Effects[i], n: counts[i+1], test: tests[i], daily: series[i]}
		v.test.QValue = q2[i]
		v.share = safeShare(v.effect.Change, dec.Change)
		if aside[i] > 0 && r.metric.Kind != investigation.MetricDistinct {
			v.all = r.wholeEffect(whole[i], parts, rest)
			v.allShare = safeShare(v.all.Change, dec.Change)
			v.setAside = aside[i]
			for j := range cands[:i] {
				if takers[i][j] {
					v.takenBy = append(v.takenBy, cands[j].key())
				}
			}
		}
		if !r.metric.Ratio() && r.metric.Kind == investigation.MetricSum {
			v.volume, v.perRow = volumeSplit(scale*parts[i].Num0, scale*parts[i].Num1, counts[i+1])
		}
		v.evidence = []investigation.Evidence{{
			Description: fmt.Sprintf("%s%s moved from %s to %s: %s",
				c.key(), v.measuredAfter(r), r.fmtValue(v.effect.Value0), r.fmtValue(v.effect.Value1), r.contribution(v.effect.Change, v.share)),
			SQL:           rec.SQL,
			AuditSequence: rec.Sequence,
			Values:        r.effectValues(v),
		}}
		if v.partial(r) {
			v.evidence = append(v.evidence, investigation.Evidence{
				Description: fmt.Sprintf("over all its rows, before the exclusive partition, %s moved from %s to %s: %s; %s rows it shares with %s were set aside above",
					c.key(), r.fmtValue(v.all.Value0), r.fmtValue(v.all.Value1), r.contribution(v.all.Change, v.allShare), num(v.setAside), strings.Join(v.takenBy, " and ")),
				SQL:           rec.SQL,
				AuditSequence: rec.Sequence,
				Values: map[string]float64{"all_rows_baseline": v.all.Value0, "all_rows_comparison": v.all.Value1,
					"all_rows_change": v.all.Change, "all_rows_share_of_change": v.allShare, "rows_set_aside": v.setAside},
			})
		}
		v.evidence = append(v.evidence, investigation.Evidence{
			Description: fmt.Sprintf("day-level test of the segment's change: %s, %s, %s after correcting for %d segments examined",
				v.test.Method, stat("p", v.test.PValue), stat("q", v.test.QValue), len(p)),
			SQL:           drec.SQL,
			AuditSequence: drec.Sequence,
			Values:        map[string]float64{"statistic": v.test.Statistic, "p_value": nz(v.test.PValue), "q_value": nz(v.test.QValue), "days_baseline": float64(v.test.DaysBase), "days_comparison": float64(v.test.DaysCmp)},
		})
		r.stats.verified = append(r.stats.verified, v)
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t\n", i+1, c.key(), r.fmtChange(v.effect.Change), sharePct(v.share), pvalue(v.test.PValue), pvalue(v.test.QValue))
	}
	fmt.Fprintf(w, "0\teverything else\t%s\t%s\t\t\t\n", r.fmtChange(dec.Remainder.Change), sharePct(safeShare(dec.Remainder.Change, dec.Change)))
	w.Flush()
	res.addQuery("exclusive partition of the candidate segments", rec, tw.String())
	res.addQuery("daily series of the candidate segments", drec, "")

	sig, explained, kept, keptShare := 0, 0.0, 0, 0.0
	for _, v := range r.stats.verified {
		switch {
		case v.passed():
			sig++
			explained += v.share
		case v.significant():
			kept++
			keptShare += v.share
		}
	}
	res.summary = fmt.Sprintf("Measured as non-overlapping parts, the %d candidate segments account for %s of the change; %d of them are significant after correction (q<=%.2f), together %s.",
		len(cands), sharePct(1-safeShare(dec.Remainder.Change, dec.Change)), sig, alpha, sharePct(explained))
	if kept > 0 {
		res.summary += fmt.Sprintf(" %d more, together %s, are not significant but kept as data problems (rows missing on days they always had rows).", kept, sharePct(keptShare))
	}
	return res, nil
}

// significant reports whether the segment is an explanation: its change is
// beyond day-to-day noise after correction, or a data-quality check proved
// rows missing, which needs no statistics.
func (v *verified) significant() bool {
	return v.source == "quality" || v.passed()
}

// planned reports whether the segment is one value of one dimension, as
// the per-dimension hypotheses test them, rather than a combination the
// search chose among many.
func (v *verified) planned() bool {
	return len(v.seg) == 1 && v.passed()
}

// passed reports whether the segment's change passed its own test: q at
// most alpha after the correction. Only then is it called significant; a
// data problem that did not pass is reported as a data problem, never as
// significant.
func (v *verified) passed() bool {
	return !math.IsNaN(v.test.QValue) && v.test.QValue <= alpha
}

// volumeSplit splits the change of a sum into the effect of the row count
// and of the value per row, symmetrically so the two add up exactly.
func volumeSplit(s0, s1 float64, n [2]float64) (volume, perRow float64) {
	if n[0] == 0 || n[1] == 0 {
		return s1 - s0, 0
	}
	a0, a1 := s0/n[0], s1/n[1]
	volume = (a0 + a1) / 2 * (n[1] - n[0])
	return volume, (s1 - s0) - volume
}

// fillDays adds zero days for the days (or months, at the data's grain)
// of the period the segment had no rows, so a segment that vanished shows
// as zeros rather than as fewer days.
func (r *run) fillDays(days []drill.Day, rg quarry.DateRange) []drill.Day {
	have := map[string]bool{}
	for _, d := range days {
		have[d.Date] = true
	}
	for _, d := range r.grain.periods(rg) {
		if !have[d.String()] {
			days = append(days, drill.Day{Date: d.String(), Empty: true})
		}
	}
	return days
}

// nz maps NaN to -1 so evidence values stay valid JSON.
func nz(x float64) float64 {
	if math.IsNaN(x) {
		return -1
	}
	return x
}

// examined counts the segments the analysis looked at: every value of every
// dimension, at least.
func (r *run) examined() int {
	n := 0
	for _, d := range r.dims {
		n += int(d.Cardinality)
	}
	if c := len(r.candidates()); n < c {
		n = c
	}
	return n
}

// deseason divides each day of an additive series by its weekday's level,
// estimated from both periods, so that a weekly pattern does not count as
// day-to-day noise in a test. Ratios and periods shorter than a week are
// left alone.
func (r *run) deseason(base, cmp []drill.Day) ([]drill.Day, []drill.Day) {
	if r.metric.Ratio() || len(base) < 7 || len(cmp) < 7 || r.grain.unit != investigation.GrainDay {
		return base, cmp
	}
	prof := drill.WeekdayEffect(base, cmp, false, 1).Profile
	adjust := func(days []drill.Day) []drill.Day {
		out := make([]drill.Day, len(days))
		for i, d := range days {
			out[i] = d
			t, err := quarry.ParseDate(d.Date)
			if p := prof[t.Weekday()]; err == nil && p > 0 && !math.IsNaN(p) {
				out[i].Num = d.Num / p
			}
		}
		return out
	}
	return adjust(base), adjust(cmp)
}

// shareSeries turns a segment's daily series into its daily share of the
// population's denominator.
func (r *run) shareSeries(seg, total []drill.Day) []drill.Day {
	den := map[string]float64{}
	for _, d := range total {
		den[d.Date] = d.Den
	}
	out := make([]drill.Day, len(seg))
	for i, d := range seg {
		out[i] = drill.Day{Date: d.Date, Num: d.Den, Den: den[d.Date]}
	}
	return out
}

// effectValues are the numbers behind a verified segment's change.
func (r *run) effectValues(v verified) map[string]float64 {
	m := map[string]float64{"baseline": v.effect.Value0, "comparison": v.effect.Value1, "change": v.effect.Change,
		"share_of_change": v.share, "rows_baseline": v.n[0], "rows_comparison": v.n[1]}
	if r.metric.Ratio() {
		m["rate_effect"], m["mix_effect"] = v.effect.Rate, v.effect.Mix
		m["share_of_denominator_baseline"], m["share_of_denominator_comparison"] = v.effect.Share0, v.effect.Share1
	}
	return m
}

// distinctPartition decomposes a distinct count over the exclusive parts:
// each part's unique entities, with everything else and the overlap of
// entities seen in several parts together as the remainder, so the effects
// add up to the change of the distinct count exactly.
func (r *run) distinctPartition(ctx context.Context, caseExpr string, k int) (drill.Decomposition, record, error) {
	caseExpr = strings.TrimSuffix(caseExpr, " AS part")
	q, rec, err := r.rec.query(ctx, "unique entities of the candidate segments", r.scope.distinctParts(caseExpr))
	if err != nil {
		return drill.Decomposition{}, rec, err
	}
	found, shared := distinctRows(q, r.metric.Scale)
	byName := map[string]drill.Part{}
	for _, p := range found {
		byName[p.Name] = p
	}
	parts := make([]drill.Part, k+1)
	for i := range parts {
		parts[i] = byName[fmt.Sprint((i+1)%(k+1))] // parts 1..k, then 0: everything else
		parts[i].Name = fmt.Sprint((i + 1) % (k + 1))
	}
	dec := drill.Distinct(parts, shared)
	restEff, overlap := dec.Effects[k], dec.Remainder
	dec.Effects = dec.Effects[:k]
	dec.Remainder = drill.Effect{Name: "everything else and the overlap", Change: restEff.Change + overlap.Change}
	return dec, rec, nil
}

// wholeEffect measures one segment over all its rows, in the partition
// {segment, everything else}, the way a per-dimension decomposition does.
func (r *run) wholeEffect(seg drill.Part, parts []drill.Part, rest drill.Part) drill.Effect {
	total := rest
	for _, p := range parts {
		total.Num0 += p.Num0
		total.Num1 += p.Num1
		total.Den0 += p.Den0
		total.Den1 += p.Den1
	}
	others := drill.Part{Name: "everything else", Num0: total.Num0 - seg.Num0, Num1: total.Num1 - seg.Num1,
		Den0: total.Den0 - seg.Den0, Den1: total.Den1 - seg.Den1}
	return r.decompose([]drill.Part{seg}, others).Effects[0]
}
