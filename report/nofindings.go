package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
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
	counts := map[investigation.HypothesisStatus]int{}
	for _, h := range in.Hypotheses {
		counts[w.finalStatus(h)]++
	}
	w.printf("- %d hypotheses: %d confirmed, %d ruled out, %d undecided or not tested.", len(in.Hypotheses),
		counts[investigation.HypConfirmed], counts[investigation.HypRuledOut],
		len(in.Hypotheses)-counts[investigation.HypConfirmed]-counts[investigation.HypRuledOut])

	w.heading(3, "Hypotheses Tested and Discarded")
	discarded := 0
	for _, h := range in.Hypotheses {
		if w.finalStatus(h) != investigation.HypRuledOut {
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
	if in.WithinPrecision {
		w.printf("- The metric did not change: the periods differ by %s of its value, the rounding of the sums.", relText(in.Overall.BaselineValue, in.Overall.ComparisonValue))
	} else if !in.Overall.Significant && in.Overall.PValue > 0 {
		w.printf("- The overall change of %s is within normal day-to-day variation (%s): there may be nothing to explain.", w.changeWithPct(), pValue(in.Overall.PValue))
	}
	if conc := w.concentrations(); len(conc) > 0 {
		why := "but no segment's own change passed its test against day-to-day noise"
		if !in.Overall.Significant {
			why = "but the overall change is within its day-to-day variation and no test confirmed the segment, so the concentration may be chance"
		}
		for _, h := range conc {
			w.printf("- %s: %s, %s.", prose(h.Title), prose(h.Verdict), why)
		}
	} else {
		w.printf("- No value of the dimensions examined carries the change more than its share, so the change may be spread across every segment; that points to a cause that touches everything at once: pricing, seasonality, a market-wide shift or a tracking change.")
	}
	if dims := w.dimensions(); len(dims) > 0 {
		w.printf("- The cause may lie in a grouping the files do not have: the run could split the rows only by %s.", codeList(dims))
	}
	if len(in.DataQuality) > 0 {
		w.printf("- The data-quality problems listed above may hide a real segment effect.")
	}

	if steps := w.gatheringSteps(); len(steps) > 0 {
		w.heading(3, "Gathering More Data")
		for _, s := range steps {
			w.printf("- %s", s)
		}
	}
}

// concentrations are the confirmed hypotheses that the change sits in a
// dimension's value or a combination of values.
func (w *mdWriter) concentrations() []investigation.Hypothesis {
	var out []investigation.Hypothesis
	for _, h := range w.in.Hypotheses {
		if (h.Kind == "dimension" || h.Kind == "interaction") && w.finalStatus(h) == investigation.HypConfirmed && strings.TrimSpace(h.Verdict) != "" {
			out = append(out, h)
		}
	}
	return out
}

// gatheringSteps says which data would let a new run decide, from what
// this run had: how large a change its periods can tell from noise, which
// columns it could group by, whether the business context said what
// happened, and the data problems it met. It names no column the files do
// not have.
func (w *mdWriter) gatheringSteps() []string {
	in := w.in
	var steps []string
	if mde, ok := w.detectable(); ok {
		unit := fmt.Sprintf("%d days", days(in.Context.BaselinePeriod))
		if g := in.Overall.Grain; g != "" && g != investigation.GrainDay {
			unit = "these periods"
		}
		s := fmt.Sprintf("With %s per period, a change has to be about %s", unit, w.f.Change(mde)[1:])
		if p, ok := changePct(in.Overall.BaselineValue, in.Overall.BaselineValue+mde); ok {
			s += fmt.Sprintf(" (%s)", strings.TrimPrefix(pct(p), "+"))
		}
		s += " either way to stand out from this metric's day-to-day variation; longer periods lower that (four times the days halve it), and a longer history before the baseline shows what normal looks like."
		steps = append(steps, s)
	}
	if cols := w.unsplitColumns(); len(cols) > 0 {
		steps = append(steps, fmt.Sprintf("The files have grouping columns the run did not split by (%s); split by them in a new run if they may matter, or aggregate their values into fewer groups.", strings.Join(cols, ", ")))
	}
	if dims := w.dimensions(); len(dims) <= 2 {
		steps = append(steps, fmt.Sprintf("Only %s could group the rows: add columns that group them another way, such as the fields your source system records for each row, and run again.", codeList(dims)))
	}
	if strings.TrimSpace(in.Context.BusinessContext) == "" {
		steps = append(steps, "Say in the business context what happened in both periods (releases, campaigns, price changes, outages), so the hypotheses can test it.")
	}
	if len(in.DataQuality) > 0 {
		steps = append(steps, "Fix the data-quality problems listed above, then run the investigation again.")
	}
	return steps
}

// detectable is the smallest change of the overall metric that the
// periods' day-to-day variation lets its test find (5% two-sided, 80%
// power), read back from the test's p-value and the change it saw.
func (w *mdWriter) detectable() (float64, bool) {
	o := w.in.Overall
	change := o.ComparisonValue - o.BaselineValue
	if o.Significant || o.PValue <= 0 || o.PValue >= 1 || change == 0 {
		return 0, false
	}
	z := math.Sqrt2 * math.Erfinv(1-o.PValue)
	if z < 0.1 {
		return 0, false // a change of nothing says little about the noise
	}
	return (1.96 + 0.84) * math.Abs(change) / z, true
}

// unsplitColumns are the files' grouping columns (few values, text) that
// the run did not examine, each with its number of values.
func (w *mdWriter) unsplitColumns() []string {
	examined := w.dimensions()
	var out []string
	for _, t := range w.in.DataModel.Tables {
		for _, c := range t.Columns {
			if c.InferredType != quarry.RoleDimension {
				continue
			}
			if slices.ContainsFunc(examined, func(e string) bool { return e == c.Name || e == t.Name+"."+c.Name }) || equivalent(w.in.DataModel, t.Name, c.Name) {
				continue
			}
			out = append(out, fmt.Sprintf("`%s` (%s values)", c.Name, plainNumber(float64(c.Cardinality))))
		}
	}
	return out
}

// equivalent reports whether the column is a twin of a column kept in its
// place (the data model's equivalent columns).
func equivalent(dm investigation.DataModel, table, col string) bool {
	for _, g := range dm.EquivalentColumns {
		for _, name := range g[min(1, len(g)):] {
			if name == col || name == table+"."+col {
				return true
			}
		}
	}
	return false
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
