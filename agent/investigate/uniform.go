package investigate

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// uniformExplanation explains a real change that no segment carries: the
// whole population moved. It says how evenly (the range of the values'
// own changes along the dimension with the most values) and names the
// values that moved the other way, because those are the first exceptions
// a reader looks for. rest is the share of the change the other
// explanations leave.
func (r *run) uniformExplanation(rest float64) investigation.Explanation {
	o := r.overall.change
	up := o.Change > 0
	var spread, against []string
	values := map[string]float64{"baseline": o.BaselineValue, "comparison": o.ComparisonValue, "change": o.Change, "change_pct": o.ChangePct}
	for _, d := range r.dims {
		dr := r.stats.byDim[d.Name]
		if dr == nil {
			continue
		}
		var pcts []float64
		for _, e := range dr.effects() {
			if e.Value0 == 0 || math.IsNaN(e.Value0) || math.IsNaN(e.Value1) {
				continue
			}
			p := 100 * (e.Value1 - e.Value0) / math.Abs(e.Value0)
			pcts = append(pcts, p)
			if (p < 0) == up && math.Abs(p) >= 1 {
				against = append(against, fmt.Sprintf("%s=%s (%+.1f%%)", d.Name, e.Name, p))
			}
		}
		if len(pcts) >= 2 {
			sort.Float64s(pcts)
			spread = append(spread, fmt.Sprintf("every %s moved between %+.1f%% and %+.1f%% (%d values)", d.Name, pcts[0], pcts[len(pcts)-1], len(pcts)))
		}
	}
	title := fmt.Sprintf("Uniform shift: the whole population moved %+.1f%%", o.ChangePct)
	story := fmt.Sprintf("No segment, data problem or calendar effect carries the change: the metric moved %s (%+.1f%%) across the board", r.fmtChange(o.Change), o.ChangePct)
	if len(spread) > 0 {
		story += "; " + spread[0]
	}
	story += ". Look for a cause that touches everything at once: pricing, a market-wide shift, seasonality or a change in how the data is recorded."
	reasoning := fmt.Sprintf("The overall change is significant (%s) and no segment tested against its own noise explains 20%% of it.", stat("p", o.PValue))
	if len(against) > 0 {
		sort.Strings(against)
		reasoning += fmt.Sprintf(" Moved the other way: %s.", strings.Join(against[:min(len(against), 3)], ", "))
	}
	desc := fmt.Sprintf("the metric per %s in both periods", r.grain.noun())
	if len(spread) > 0 {
		desc += "; " + strings.Join(spread, "; ")
	}
	return investigation.Explanation{
		Title:            truncate(title, quarry.MaxExplanationTitleLen),
		Evidence:         []investigation.Evidence{{Description: desc, SQL: r.overall.rec.SQL, AuditSequence: r.overall.rec.Sequence, Values: values}},
		Reasoning:        reasoning,
		CausalStory:      truncate(story, quarry.MaxCausalStoryLen),
		SourceHypotheses: []string{r.hypByKind(hypUniform).HypothesisID},
		Kind:             investigation.KindUniform,
		Segment:          investigation.Segment{},
		ShareOfChange:    rest,
		Change:           rest * o.Change,
		Significant:      true,
	}
}
