package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/quarry-dev/quarry/investigation"
)

// maxAnswerDrivers is how many explanations the opening paragraph names.
const maxAnswerDrivers = 3

// answer opens the report with what a reader asks first, in one
// paragraph: how much the metric moved, whether that is more than normal
// variation, the top drivers with their numbers, and the change once the
// top one is set aside. The data model, plan and evidence follow it.
func (w *mdWriter) answer() {
	in := w.in
	o := in.Overall
	var b strings.Builder
	title := prose(in.Title)
	if title == "" {
		title = "The metric"
	}
	verb := "did not move"
	switch {
	case in.WithinPrecision:
		// Rounding of the sums, not a rise or a fall: quote no
		// percentage of it.
		fmt.Fprintf(&b, "%s did not move beyond floating-point precision (%s to %s).", title, w.f.value(o.BaselineValue), w.f.value(o.ComparisonValue))
		w.para("**In short:** %s", b.String())
		return
	case o.ComparisonValue > o.BaselineValue:
		verb = "rose"
	case o.ComparisonValue < o.BaselineValue:
		verb = "fell"
	}
	fmt.Fprintf(&b, "%s %s", title, verb)
	if p, ok := changePct(o.BaselineValue, o.ComparisonValue); ok && verb != "did not move" {
		fmt.Fprintf(&b, " %s", strings.TrimLeft(pct(p), "+-−"))
	}
	fmt.Fprintf(&b, ", from %s to %s", w.f.value(o.BaselineValue), w.f.value(o.ComparisonValue))
	if o.Significant {
		b.WriteString(", more than its normal variation.")
	} else {
		b.WriteString(", within its normal variation.")
	}
	es := in.Explanations
	if in.Status == investigation.OutcomeCompleted && len(es) > 0 {
		var parts []string
		for _, e := range es[:min(len(es), maxAnswerDrivers)] {
			parts = append(parts, fmt.Sprintf("%s (%s, %s of the change)", strings.TrimRight(prose(e.Title), "."), w.f.change(e.Change), strings.TrimLeft(pct(100*e.ShareOfChange), "+")))
		}
		lead := "The driver is"
		if len(parts) > 1 {
			lead = "The drivers are"
		}
		fmt.Fprintf(&b, " %s %s.", lead, joinAnd(parts))
		if s := w.without(es[0]); s != "" {
			b.WriteString(" " + s)
		}
	}
	w.para("**In short:** %s", b.String())
}

// without says how the metric moved once the top explanation is set aside:
// for a segment of an additive metric, the rest of the population's own
// change ("without country=China, the rest rose 12.5%"); otherwise the
// change left after taking the explanation's exact share away.
func (w *mdWriter) without(e investigation.Explanation) string {
	o := w.in.Overall
	if e.Kind == investigation.KindUniform {
		return ""
	}
	var name string
	switch {
	case e.Kind == investigation.KindDataQuality:
		name = "the data problem"
	case len(e.Segment) > 0:
		name = segmentText(e.Segment)
	case e.Kind == investigation.KindCalendar:
		name = "the weekday effect"
	case e.Kind == investigation.KindConcentration:
		name = "these rows"
	default:
		name = strings.ToLower(prose(e.Title))
	}
	if w.in.Metric.Additive() && len(e.Segment) > 0 && e.Kind != investigation.KindDataQuality && len(e.Evidence) > 0 {
		v := e.Evidence[0].Values
		s0, ok0 := v["baseline"]
		s1, ok1 := v["comparison"]
		if ok0 && ok1 {
			r0, r1 := o.BaselineValue-s0, o.ComparisonValue-s1
			if p, ok := changePct(r0, r1); ok {
				return fmt.Sprintf("Without %s, the rest %s %s (%s to %s).", name, movedVerb(r1-r0), strings.TrimLeft(pct(p), "+-−"), w.f.value(r0), w.f.value(r1))
			}
		}
	}
	rest := o.ComparisonValue - o.BaselineValue - e.Change
	if math.Abs(rest) < 1e-9*math.Max(1, math.Abs(o.BaselineValue)) {
		return fmt.Sprintf("Without the effect of %s the metric would not have moved.", name)
	}
	if p, ok := changePct(o.BaselineValue, o.BaselineValue+rest); ok {
		return fmt.Sprintf("Without the effect of %s the metric would have %s %s (%s).", name, map[bool]string{true: "fallen", false: "risen"}[rest < 0], strings.TrimLeft(pct(p), "+-−"), w.f.change(rest))
	}
	return ""
}

func movedVerb(change float64) string {
	if change < 0 {
		return "fell"
	}
	return "rose"
}

// joinAnd joins "a", "b" and "c" as "a, b and c".
func joinAnd(parts []string) string {
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], "; ") + " and " + parts[len(parts)-1]
}
