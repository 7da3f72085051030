package report

import (
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry/investigation"
)

// maxDerivedSteps keeps derived recommendations to a list people act on.
const maxDerivedSteps = 5

// charts writes the chart images with a text version of the waterfall, so
// the numbers are there for readers who cannot see the images.
func (w *mdWriter) charts(c Charts) {
	in := w.in
	hasSeries := false
	for _, p := range c.Series {
		hasSeries = hasSeries || p != ""
	}
	if c.Waterfall == "" && !hasSeries && len(in.Waterfall) == 0 {
		return
	}
	w.heading(2, "Charts")
	if len(in.Waterfall) > 0 {
		if c.Waterfall != "" {
			w.para("![Contribution waterfall](%s)", c.Waterfall)
		}
		total := in.Overall.ComparisonValue - in.Overall.BaselineValue
		w.printf("| Contribution | Change | Share of change |")
		w.printf("|---|---:|---:|")
		w.printf("| Baseline | %s | |", w.f.Value(in.Overall.BaselineValue))
		for _, b := range waterfallSteps(in.Overall.BaselineValue, in.Overall.ComparisonValue, in.Waterfall) {
			share := ""
			if total != 0 {
				share = investigation.Share(b.Value / total)
			}
			w.printf("| %s | %s | %s |", cell(b.Label), w.f.Change(b.Value), share)
		}
		w.printf("| Comparison | %s | |", w.f.Value(in.Overall.ComparisonValue))
		w.outsideWaterfall()
	}
	for i, s := range in.Series {
		if i >= len(c.Series) || c.Series[i] == "" {
			continue
		}
		w.para("![%s](%s)", altText(fmt.Sprintf("%s for %s: baseline vs comparison", perPeriod(w.in.Overall.Grain, w.metricName()), s.Name)), c.Series[i])
	}
}

// outsideWaterfall names the explanations of all rows, which the waterfall
// has no bar for (a calendar effect, a partial day, a uniform shift): they
// are measured
// on all rows, not as a part of the partition the bars add up to, so
// their numbers overlap the bars' and are not in the table above.
func (w *mdWriter) outsideWaterfall() {
	var out []string
	for _, e := range ranked(w.in.Explanations) {
		if len(e.Segment) == 0 {
			out = append(out, fmt.Sprintf("“%s” (%s)", prose(e.Title), w.f.Change(e.Change)))
		}
	}
	if len(out) == 0 {
		return
	}
	one := len(out) == 1
	w.para("*Not in the waterfall: %s. %s measured on all rows, not as a part of the partition the bars add up to, so %s the bars and “everything else”.*",
		strings.Join(out, "; "), map[bool]string{true: "It is", false: "They are"}[one], map[bool]string{true: "its number overlaps", false: "their numbers overlap"}[one])
}

// metricName is the title for use inside a sentence. It keeps its case:
// titles derived from SQL ("SUM(amount) of orders") read wrong lowered.
func (w *mdWriter) metricName() string {
	if t := prose(w.in.Title); t != "" {
		return t
	}
	return "metric"
}

// altText removes the characters that would end an image's alt text.
func altText(s string) string {
	return strings.NewReplacer("[", "(", "]", ")").Replace(oneLine(s))
}

// nextSteps writes the caller's recommendations, or derives them from the
// explanations when there are none.
func (w *mdWriter) nextSteps() {
	w.heading(2, "Recommended Next Steps")
	steps := w.in.NextSteps
	if len(steps) == 0 {
		steps = w.derivedSteps()
	}
	for i, s := range steps {
		w.printf("%d. %s", i+1, prose(s))
	}
}

// derivedSteps turns the top explanations into actions: data problems
// first, then one step per explanation by kind, then more data for weak
// results and monitoring of the top segment.
func (w *mdWriter) derivedSteps() []string {
	in := w.in
	es := ranked(in.Explanations)
	if in.Status == investigation.OutcomeNoFindings || len(es) == 0 {
		// From what this run found and what it lacked, not a fixed list.
		var steps []string
		if !in.Overall.Significant {
			steps = append(steps, "Treat the change as possible noise: check again once more days of data are in before spending effort on it.")
		}
		for _, h := range w.concentrations() {
			if len(steps) == 3 {
				break
			}
			steps = append(steps, fmt.Sprintf("Look again at %s with more days of data: %s, which no test confirmed.", concentrationSubject(h), prose(h.Verdict)))
		}
		if len(w.gatheringSteps()) > 0 {
			steps = append(steps, "Add the data listed under Gathering More Data and run the investigation again.")
		}
		if len(steps) == 0 {
			steps = append(steps, fmt.Sprintf("Watch the metric %s: the change is real, but no segment, data problem or calendar effect in these files carries it.", watchFor(in.Overall.Grain)))
		}
		return steps
	}
	// Data problems come first: the other explanations may move once the
	// data is fixed.
	var steps, business []string
	hasDQExplanation := false
	var weak []string
	for _, e := range es[:min(3, len(es))] {
		if e.Kind == investigation.KindDataQuality {
			hasDQExplanation = true
			steps = append(steps, w.stepFor(e))
			continue
		}
		business = append(business, w.stepFor(e))
		if e.PValue != nil && !passed(e) {
			weak = append(weak, "“"+prose(e.Title)+"”")
		}
	}
	if len(in.DataQuality) > 0 && !hasDQExplanation {
		steps = append(steps, "Fix the data-quality problems listed under Data Quality, then run the investigation again.")
	}
	steps = append(steps, business...)
	if len(weak) > 0 {
		steps = append(steps, fmt.Sprintf("Collect more days of data before acting on %s: the effect is not significant yet.", strings.Join(weak, " and ")))
	}
	steps = append(steps, fmt.Sprintf("Watch %s %s to confirm whether the change persists or recovers.", segmentText(es[0].Segment), watchFor(in.Overall.Grain)))
	return steps[:min(len(steps), maxDerivedSteps)]
}

// concentrationSubject names what a concentration hypothesis points at:
// the segment its verdict starts with ("region=west, over all its rows,
// carries ..."), or its dimensions.
func concentrationSubject(h investigation.Hypothesis) string {
	v := prose(h.Verdict)
	for _, sep := range []string{", over all its rows", " carries ", " explains "} {
		if i := strings.Index(v, sep); i > 0 && strings.Contains(v[:i], "=") {
			return code(v[:i])
		}
	}
	if len(h.Dimensions) > 0 {
		return codeList(h.Dimensions)
	}
	return "“" + prose(h.Title) + "”"
}

// stepFor recommends the action an explanation of each kind calls for.
func (w *mdWriter) stepFor(e investigation.Explanation) string {
	seg, title, ch := segmentText(e.Segment), "“"+prose(e.Title)+"”", w.f.Change(e.Change)
	switch e.Kind {
	case investigation.KindDataQuality:
		return fmt.Sprintf("Fix the data problem behind %s (%s) and run the investigation again before acting on anything else.", title, seg)
	case investigation.KindRate:
		return fmt.Sprintf("Ask the owners of %s what changed between the periods (releases, pricing, incidents): the metric moved by %s within the segment.", seg, ch)
	case investigation.KindMix:
		return fmt.Sprintf("Check whether the shift in the share of %s was intended (marketing, routing or channel changes); the mix shift accounts for %s.", seg, ch)
	case investigation.KindVolume:
		return fmt.Sprintf("Find out why volume changed in %s (%s): campaigns, supply, outages, or a change in how rows are recorded.", seg, ch)
	case investigation.KindCalendar:
		return "Compare like-for-like periods (same weekdays and holidays) before acting on the change."
	}
	return fmt.Sprintf("Validate %s with the people who own %s (%s).", title, seg, ch)
}

// watchFor says how long to watch a segment at the data's grain: two weeks
// of daily data, a few months of monthly data.
func watchFor(grain string) string {
	switch grain {
	case investigation.GrainWeek:
		return "week by week for the next six weeks"
	case investigation.GrainMonth:
		return "month by month for the next three months"
	case investigation.GrainQuarter:
		return "quarter by quarter for the next two quarters"
	case investigation.GrainYear:
		return "in the next year's data"
	}
	return "daily for the next two weeks"
}
