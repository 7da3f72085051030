package report

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quarry-dev/quarry/investigation"
)

// maxAnswerDrivers is how many explanations the answer names.
const maxAnswerDrivers = 3

// Answer is the paragraph an investigation opens with, on every surface
// (report.md and its page, the command line, the chat): what moved, by
// how much, between which periods, whether that is more than normal
// variation, and the top explanation with its number and share of the
// change (Numbers.Contribution), or "I could not explain it" and why. It
// is plain text; the report makes it safe as Markdown.
func Answer(in *Input) string {
	w := &mdWriter{in: in, f: newNumberFormat(&in.Metric, in.Overall.BaselineValue, in.Overall.ComparisonValue)}
	return w.answerText()
}

// answer writes the answer paragraph.
func (w *mdWriter) answer() {
	w.para("**Answer:** %s", prose(w.answerText()))
}

func (w *mdWriter) answerText() string {
	in := w.in
	var b strings.Builder
	b.WriteString(w.moved())
	es := ranked(in.Explanations)
	switch {
	case in.Status == investigation.OutcomeNoFindings || len(es) == 0:
		why := strings.TrimSpace(in.NoFindingsReason)
		if why == "" {
			why = "no explanation held up under testing."
		}
		fmt.Fprintf(&b, " I could not explain it: %s", lowerFirst(why))
	default:
		b.WriteString(" " + w.drivers(es))
		if s := w.without(es[0]); s != "" {
			b.WriteString(" " + s)
		}
	}
	return oneLine(b.String())
}

// moved says what moved, by how much and between which periods: "Amount
// fell 10.3% (-97,732), from 947,083 (2024-03-04 to 2024-03-17) to 849,350
// (2024-03-18 to 2024-03-31), more than its normal variation (p < 0.001)."
func (w *mdWriter) moved() string {
	in := w.in
	o := in.Overall
	title := oneLine(in.Title)
	if title == "" {
		title = "The metric"
	}
	b, c := in.Context.BaselinePeriod, in.Context.ComparisonPeriod
	from := fmt.Sprintf("from %s (%s) to %s (%s)", w.f.Value(o.BaselineValue), periodText(b), w.f.Value(o.ComparisonValue), periodText(c))
	if in.WithinPrecision {
		// Rounding of the sums, not a rise or a fall: quote no
		// percentage of it.
		return fmt.Sprintf("%s did not move beyond floating-point precision (%s).", title, from)
	}
	change := o.ComparisonValue - o.BaselineValue
	verb := "did not move"
	switch {
	case change > 0:
		verb = "rose"
	case change < 0:
		verb = "fell"
	}
	by := w.f.Change(change)
	if p, ok := changePct(o.BaselineValue, o.ComparisonValue); ok && change != 0 {
		by = strings.TrimLeft(pct(p), "+-") + " (" + by + ")"
	}
	if change == 0 {
		return fmt.Sprintf("%s did not move (%s).", title, from)
	}
	return fmt.Sprintf("%s %s %s, %s, %s.", title, verb, by, from, variation(o))
}

// variation says how the change compares with the metric's normal
// variation, with the test's p-value.
func variation(o investigation.OverallChange) string {
	return overallTest(o, "more than its normal variation", "not tested against its normal variation", "within its normal variation")
}

// drivers names the top explanations with their headline numbers.
func (w *mdWriter) drivers(es []investigation.Explanation) string {
	top := es[0]
	lead := "The top explanation is"
	if top.Kind == investigation.KindDataQuality {
		lead = "Fix the data first: the top explanation is a data problem,"
	}
	s := fmt.Sprintf("%s “%s”: %s.", lead, strings.TrimRight(oneLine(top.Title), "."), w.headline(top))
	var next []string
	for _, e := range es[1:min(len(es), maxAnswerDrivers)] {
		next = append(next, fmt.Sprintf("“%s”: %s", strings.TrimRight(oneLine(e.Title), "."), w.headline(e)))
	}
	if len(next) > 0 {
		s += " Then " + joinAnd(next) + "."
	}
	return s
}

// headline is an explanation's number as every surface prints it.
func (w *mdWriter) headline(e investigation.Explanation) string {
	return w.f.Contribution(e.Change, e.ShareOfChange)
}

// lowerFirst lower-cases the first letter of a sentence that follows a
// colon.
func lowerFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 || r == utf8.RuneError {
		return s // empty, or not UTF-8 where it starts: left as it is
	}
	return string(unicode.ToLower(r)) + s[size:]
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
		name = e.Segment.String()
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
				return fmt.Sprintf("Without %s, the rest %s %s (%s to %s).", name, movedVerb(r1-r0), strings.TrimLeft(pct(p), "+-−"), w.f.Value(r0), w.f.Value(r1))
			}
		}
	}
	rest := o.ComparisonValue - o.BaselineValue - e.Change
	if math.Abs(rest) < 1e-9*math.Max(1, math.Abs(o.BaselineValue)) {
		return fmt.Sprintf("Without the effect of %s the metric would not have moved.", name)
	}
	if p, ok := changePct(o.BaselineValue, o.BaselineValue+rest); ok {
		return fmt.Sprintf("Without the effect of %s the metric would have %s %s (%s).", name, map[bool]string{true: "fallen", false: "risen"}[rest < 0], strings.TrimLeft(pct(p), "+-−"), w.f.Change(rest))
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
