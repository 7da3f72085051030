package investigate

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// Hypothesis kinds beyond the explanation kinds: a concentration in one
// dimension, a combination of dimensions, and a uniform shift.
const (
	hypDimension   = "dimension"
	hypInteraction = "interaction"
	hypUniform     = "uniform"
)

// makePlan writes the analysis plan: explore, generate hypotheses, then
// validate data quality first, the calendar, each dimension, combinations.
func (r *run) makePlan(ctx context.Context) error {
	tables := append([]string(nil), r.metric.Tables...)
	dims := r.model.RecommendedDimensions
	g := r.grain
	steps := []investigation.PlanStep{
		{Phase: investigation.PhaseExploration, Description: "Profile every file: column roles, types, cardinality, relationships between files", TablesInvolved: tableNames(r.model)},
		{Phase: investigation.PhaseExploration, Description: fmt.Sprintf("Compute the metric per %s in both periods and test the change against %s-to-%s variation (%s)", g.noun(), g.noun(), g.noun(), r.in.Context.Describe()), TablesInvolved: tables},
		{Phase: investigation.PhaseHypothesisGeneration, Description: "Generate 5-7 hypotheses from the data model, the metric type and the user's context", TablesInvolved: tables, DimensionsToCheck: dims},
		{Phase: investigation.PhaseValidation, Description: fmt.Sprintf("Check data quality first: missing %ss per segment, duplicates, null spikes, new or vanished categories, a partial last %s", g.noun(), g.noun()), TablesInvolved: tables, DimensionsToCheck: dims},
	}
	if g.isDaily() {
		// Only days have weekdays: coarser data gets no weekday check.
		steps = append(steps, investigation.PlanStep{Phase: investigation.PhaseValidation, Description: "Compare the weekday composition of the two periods", TablesInvolved: tables})
	}
	steps = append(steps,
		investigation.PlanStep{Phase: investigation.PhaseValidation, Description: decompositionStep(r.metric), TablesInvolved: tables, DimensionsToCheck: dims},
		investigation.PlanStep{Phase: investigation.PhaseValidation, Description: fmt.Sprintf("Search combinations of dimension values, from one dimension to all of them, for the few segments that explain most of the change, then test each against its own %s noise with a false-discovery-rate correction", g.adjective()), TablesInvolved: tables, DimensionsToCheck: dims},
	)
	for i := range steps {
		steps[i].StepNumber = i + 1
		if steps[i].DimensionsToCheck == nil {
			steps[i].DimensionsToCheck = []string{}
		}
	}
	r.plan = investigation.Plan{SessionID: r.in.SessionID, Steps: steps, CreatedAt: r.now()}
	if err := r.artifact("analysis/plan.json", r.plan); err != nil {
		return err
	}
	_, err := r.inv.Audit.Append(quarry.EventPlanCreated, "planner", map[string]any{"steps": len(steps), "dimensions": dims})
	r.progress(investigation.Event{Step: "plan", Message: fmt.Sprintf("plan of %d steps over %d dimensions", len(steps), len(dims))})
	return err
}

func decompositionStep(m *investigation.Metric) string {
	switch {
	case m.Ratio():
		return "Decompose the change by each dimension into rate effects (a segment's own value moved) and mix effects (its share of the denominator moved)"
	case m.Kind == investigation.MetricDistinct:
		return "Decompose the change by each dimension into unique contributions of each value plus the overlap of entities seen in several values"
	}
	return "Decompose the change by each dimension into contributions that add up to the total, split into volume (row count) and rate (value per row)"
}

func tableNames(m investigation.DataModel) []string {
	out := make([]string, len(m.Tables))
	for i, t := range m.Tables {
		out[i] = t.Name
	}
	return out
}

// makeHypotheses writes 5-7 hypotheses, data quality first.
func (r *run) makeHypotheses(ctx context.Context) error {
	dir := "fell"
	if r.overall.change.Change > 0 {
		dir = "rose"
	}
	var hs []*investigation.Hypothesis
	add := func(kind, title, story, pattern string, dims []string) {
		if dims == nil {
			dims = []string{}
		}
		hs = append(hs, &investigation.Hypothesis{
			SessionID: r.in.SessionID, Title: truncate(title, quarry.MaxHypothesisTitleLen),
			CausalStory: truncate(story, quarry.MaxCausalStoryLen), ExpectedPattern: pattern,
			Dimensions: dims, Kind: kind, Status: investigation.HypPending, CreatedAt: r.now(),
		})
	}
	add(investigation.KindDataQuality, "Broken data, not a business change",
		fmt.Sprintf("The metric %s because rows are missing, duplicated or incomplete in the comparison period, not because the business changed.", dir),
		"segments with data on every baseline day but missing days in the comparison, a partial last day, more duplicates or nulls, categories that vanish",
		r.model.RecommendedDimensions)
	if r.grain.isDaily() {
		add(investigation.KindCalendar, "Different weekday mix of the two periods",
			"The periods contain different numbers of weekdays and weekend days, and the metric differs by day of week.",
			"the weekday profile predicts most of the change from the periods' day composition alone", nil)
	}
	ratio := r.metric.Ratio()
	if ratio {
		add(investigation.KindMix, "The population mix shifted",
			"Segments with a different level of the metric grew or shrank as a share of the population, moving the overall ratio even though segment rates held.",
			"mix effects (share changes) account for most of the change in some dimension", r.model.RecommendedDimensions)
	}
	if len(r.dims) >= 2 {
		names := []string{r.dims[0].Name, r.dims[1].Name}
		add(hypInteraction, "A specific combination of segments moved",
			fmt.Sprintf("The change sits in a combination of values (for example %s x %s) rather than in any single dimension.", names[0], names[1]),
			"a conjunction of 2-3 dimension values explains a large share of the change that its parents explain only diluted",
			r.model.RecommendedDimensions)
	}
	room := quarry.MaxHypotheses - len(hs) - 1 // keep one for the uniform shift
	for _, d := range r.dims {
		if room <= 0 {
			break
		}
		story := fmt.Sprintf("One or a few values of %s changed much more than the rest, so the change is concentrated there.", d.Name)
		if d.Via != nil {
			story = fmt.Sprintf("One or a few values of %s (joined through %s.%s) changed much more than the rest.", d.Name, d.Via.FromTable, d.Via.FromColumn)
		}
		add(hypDimension, "Change concentrated in "+d.Name, story,
			"one value's share of the change far exceeds its share of the baseline", []string{d.Name})
		room--
	}
	add(hypUniform, "A uniform shift across all segments",
		"The whole population moved together (for example a market-wide or seasonal change), so no segment stands out.",
		"every segment changed by about the same relative amount; no segment explains a disproportionate share", nil)
	for i, h := range hs {
		h.HypothesisID = fmt.Sprintf("hyp_%03d", i+1)
		h.Priority = min(i+1, 10)
		if err := r.saveHypothesis(h); err != nil {
			return err
		}
	}
	r.hyps = hs
	titles := make([]string, len(hs))
	for i, h := range hs {
		titles[i] = h.Title
	}
	r.progress(investigation.Event{Step: "hypotheses", Message: fmt.Sprintf("%d hypotheses: %s", len(hs), strings.Join(titles, "; "))})
	return nil
}

func (r *run) saveHypothesis(h *investigation.Hypothesis) error {
	return r.artifact(fmt.Sprintf("analysis/hypotheses/%s.json", h.HypothesisID), h)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && (s[cut]&0xc0) == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
