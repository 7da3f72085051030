package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry"
)

// noFindings explains a run that validated nothing: what was looked at,
// what was ruled out, why the change may have no explanation in this data,
// and which data would help.
func (w *mdWriter) noFindings() {
	in := w.in
	w.para("No explanation held up under testing.")

	w.heading(3, "What Was Analysed")
	b, c := in.Context.BaselinePeriod, in.Context.ComparisonPeriod
	w.printf("- %d baseline days (%s) against %d comparison days (%s).", days(b), periodText(b), days(c), periodText(c))
	if tables := w.tables(); len(tables) > 0 {
		w.printf("- Tables: %s.", codeList(tables))
	}
	if dims := w.dimensions(); len(dims) > 0 {
		w.printf("- Dimensions examined: %s.", codeList(dims))
	}
	counts := map[quarry.HypothesisStatus]int{}
	for _, h := range in.Hypotheses {
		counts[w.finalStatus(h)]++
	}
	w.printf("- %d hypotheses: %d confirmed, %d ruled out, %d undecided or not tested.", len(in.Hypotheses),
		counts[quarry.HypConfirmed], counts[quarry.HypRuledOut],
		len(in.Hypotheses)-counts[quarry.HypConfirmed]-counts[quarry.HypRuledOut])

	w.heading(3, "Hypotheses Tested and Discarded")
	discarded := 0
	for _, h := range in.Hypotheses {
		if w.finalStatus(h) != quarry.HypRuledOut {
			continue
		}
		discarded++
		line := fmt.Sprintf("- **%s** %s", prose(h.HypothesisID), prose(h.Title))
		if v := prose(h.Verdict); v != "" {
			line += ": " + v
		}
		w.printf("%s", line)
	}
	if discarded == 0 {
		w.para("No hypothesis was ruled out; none could be decided with this data.")
	}

	// The run's own reason is in the header; these are the alternatives.
	w.heading(3, "Possible Reasons")
	if !in.Overall.Significant && in.Overall.PValue > 0 {
		w.printf("- The overall change of %s is within normal day-to-day variation (%s): there may be nothing to explain.", w.changeWithPct(), pValue(in.Overall.PValue))
	}
	w.printf("- The change may be spread evenly across every segment, which points to a cause outside these tables: pricing, seasonality, a market-wide shift or a tracking change.")
	w.printf("- The dimension that separates the cause may not be in the uploaded files.")
	if len(in.DataQuality) > 0 {
		w.printf("- The data-quality problems listed above may hide a real segment effect.")
	}

	w.heading(3, "Gathering More Data")
	for _, s := range gatheringSteps(in, w.dimensions()) {
		w.printf("- %s", s)
	}
}

// missingDimensions are dimensions that often separate a cause, each with
// a word that shows the data already has it.
var missingDimensions = []struct{ name, key string }{
	{"acquisition channel", "channel"},
	{"app version", "version"},
	{"price plan", "plan"},
	{"country", "country"},
	{"device type", "device"},
	{"marketing campaign", "campaign"},
}

// gatheringSteps suggests data that would let a new run find the cause;
// it only proposes dimensions that none of the examined ones resemble.
func gatheringSteps(in *Input, examined []string) []string {
	var lack []string
	for _, d := range missingDimensions {
		if !slices.ContainsFunc(examined, func(e string) bool { return strings.Contains(strings.ToLower(e), d.key) }) && len(lack) < 3 {
			lack = append(lack, d.name)
		}
	}
	add := "Add finer dimensions than the ones examined, such as product, store or campaign identifiers."
	if len(lack) > 0 {
		add = "Add dimensions the current files lack, such as " + strings.Join(lack[:len(lack)-1], ", ") + " or " + lack[len(lack)-1] + "."
		if len(lack) == 1 {
			add = "Add dimensions the current files lack, such as " + lack[0] + "."
		}
	}
	steps := []string{
		"Upload a longer history (for example eight weeks before the baseline) so normal variation can be measured per segment.",
		add,
		"Add a log of what happened in both periods: releases, campaigns, price changes, outages.",
	}
	if len(in.DataQuality) > 0 {
		steps = append(steps, "Fix the data-quality problems listed above, then run the investigation again.")
	}
	return steps
}

// tables lists every profiled table, since dimensions may come from joined
// tables, or the metric's tables when nothing was profiled.
func (w *mdWriter) tables() []string {
	var out []string
	for _, t := range w.in.DataModel.Tables {
		out = append(out, t.Name)
	}
	if len(out) == 0 {
		return w.in.Metric.Tables
	}
	return out
}

// dimensions lists the dimensions the run looked at, in order of first
// mention: plan steps, then hypotheses, then the recommendations.
func (w *mdWriter) dimensions() []string {
	var out []string
	add := func(ds []string) {
		for _, d := range ds {
			if d != "" && !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	for _, s := range w.in.Plan.Steps {
		add(s.DimensionsToCheck)
	}
	for _, h := range w.in.Hypotheses {
		add(h.Dimensions)
	}
	add(w.in.DataModel.RecommendedDimensions)
	return out
}
