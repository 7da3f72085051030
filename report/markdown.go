package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// Markdown renders the report. It is pure: the same Input and Charts give
// the same bytes, so it can be golden-tested. charts holds the chart paths
// relative to the report; sections whose chart is missing are left out.
func Markdown(in *Input, charts Charts) string {
	w := &mdWriter{in: in, f: newNumberFormat(&in.Metric, in.Overall.BaselineValue, in.Overall.ComparisonValue)}
	// The answer first: the paragraph, then the ranked explanations and
	// the breakdowns the question asked for; then the evidence: the
	// metric's test, data quality, each explanation's numbers and
	// queries, the data model's roles, the analysis and the charts.
	w.header()
	w.answer()
	w.warnings()
	w.rankedList()
	w.breakdowns()
	w.summary()
	w.metric()
	w.dataQuality()
	w.evidenceSection()
	w.dataModel()
	w.analysis()
	w.charts(charts)
	w.nextSteps()
	w.footer()
	return capReport(strings.TrimRight(w.String(), "\n") + "\n")
}

// capReport cuts a report longer than maxReportBytes at the last line
// break within the budget and says so. Only an input far larger than any
// investigation makes (text that is megabytes long) reaches it.
func capReport(s string) string {
	if len(s) <= maxReportBytes {
		return s
	}
	const note = "\n\n*The report was cut here: it exceeded the report size budget. The full findings are in results/explanations.json and the audit log.*\n"
	cut := s[:maxReportBytes-len(note)]
	if i := strings.LastIndexByte(cut, '\n'); i > 0 {
		cut = cut[:i]
	}
	// A cut inside a fenced block would swallow the note as code; close it.
	if fence := openFence(cut); fence != "" {
		cut += "\n" + fence
	}
	return cut + note
}

// openFence returns the fence of a code block that md leaves open, or "".
// codeBlock's fences are backticks only, closed by the same run.
func openFence(md string) string {
	open := ""
	for _, line := range strings.Split(md, "\n") {
		t := strings.TrimSpace(line)
		run := t[:len(t)-len(strings.TrimLeft(t, "`"))]
		switch {
		case len(run) < 3:
		case open == "":
			open = run
		case t == open:
			open = ""
		}
	}
	return open
}

// mdWriter accumulates the report and knows how to print the metric.
type mdWriter struct {
	strings.Builder
	in *Input
	f  numberFormat
}

// printf writes a formatted line (a newline is added): a table row, a
// list item.
func (w *mdWriter) printf(format string, args ...any) {
	fmt.Fprintf(w, format, args...)
	w.WriteByte('\n')
}

// para writes a formatted line as a block of its own, with exactly one
// blank line before and after.
func (w *mdWriter) para(format string, args ...any) {
	w.blank()
	w.printf(format, args...)
	w.blank()
}

// blank ends the current block: it makes the output end in one blank line.
func (w *mdWriter) blank() {
	s := w.String()
	switch {
	case s == "" || strings.HasSuffix(s, "\n\n"):
	case strings.HasSuffix(s, "\n"):
		w.WriteByte('\n')
	default:
		w.WriteString("\n\n")
	}
}

// heading starts a section.
func (w *mdWriter) heading(level int, title string) {
	w.para("%s %s", strings.Repeat("#", level), title)
}

func (w *mdWriter) header() {
	in := w.in
	title := prose(in.Title)
	if title == "" {
		title = "Metric"
	}
	w.para("# %s Investigation Report", title)
	if q := prose(in.Context.InvestigationPrompt); q != "" {
		w.para("> **Question:** %s", q)
	}
}

// warnings are what the reader must know before trusting any number, so
// they follow the answer.
func (w *mdWriter) warnings() {
	for _, warning := range w.in.Warnings {
		w.para("> **Warning:** %s", prose(warning))
	}
}

// metric opens the evidence: the metric's definition, its value in both
// periods and the test of the overall change.
func (w *mdWriter) metric() {
	in := w.in
	title := prose(in.Title)
	if title == "" {
		title = "Metric"
	}
	w.heading(2, "Metric and Periods")
	w.para("**Metric:** %s", metricDescription(&in.Metric))
	sql := in.Context.MetricSQL
	if sql == "" {
		sql = in.Metric.SQL
	}
	w.codeBlock("", "sql", sql)

	b, c := in.Context.BaselinePeriod, in.Context.ComparisonPeriod
	w.printf("| Period | Dates | Days | %s |", cell(title))
	w.printf("|---|---|---:|---:|")
	w.printf("| Baseline | %s | %d | %s |", periodText(b), days(b), w.f.Value(in.Overall.BaselineValue))
	w.printf("| Comparison | %s | %d | %s |", periodText(c), days(c), w.f.Value(in.Overall.ComparisonValue))
	if in.WithinPrecision {
		w.para("**Overall change:** none beyond floating-point precision: the periods differ by %s of the value, the rounding of the sums, not a change.", relText(in.Overall.BaselineValue, in.Overall.ComparisonValue))
	} else {
		w.para("**Overall change:** %s, %s.", w.changeWithPct(), overallSignificance(in.Overall))
	}
	if in.Metric.Additive() && days(b) != days(c) && days(b) > 0 && days(c) > 0 && (in.Overall.Grain == "" || in.Overall.Grain == investigation.GrainDay) {
		w.para("*The periods differ in length (%d vs %d days); an additive metric moves with the number of days.*", days(b), days(c))
	}
	if in.Status == investigation.OutcomeNoFindings {
		w.para("**Status:** no findings. %s", prose(in.NoFindingsReason))
	}
}

// changeWithPct prints the overall change: "-134,567 (-10.9%)".
func (w *mdWriter) changeWithPct() string {
	o := w.in.Overall
	ch := w.f.Change(o.ComparisonValue - o.BaselineValue)
	if p, ok := changePct(o.BaselineValue, o.ComparisonValue); ok {
		return fmt.Sprintf("%s (%s)", ch, pct(p))
	}
	return ch
}

// relText prints the relative difference of a and b: "1.6e-12".
func relText(a, b float64) string {
	m := max(math.Abs(a), math.Abs(b))
	if m == 0 || !isFinite(m) {
		return "0"
	}
	return strconv.FormatFloat(math.Abs(b-a)/m, 'e', 1, 64)
}

// overallSignificance phrases the overall test.
func overallSignificance(o investigation.OverallChange) string {
	return overallTest(o, "statistically significant", "not tested for significance", "not statistically significant")
}

// overallTest phrases the overall test in the words given for each
// outcome, with the p-value when a test ran. A p-value of zero on a change
// marked not significant means no test ran, not p < 0.001.
func overallTest(o investigation.OverallChange, significant, untested, not string) string {
	switch {
	case o.Significant:
		return significant + " (" + pValue(o.PValue) + ")"
	case o.PValue == 0:
		return untested
	}
	return not + " (" + pValue(o.PValue) + ")"
}

// summary writes the model's executive summary, saying who wrote it and
// what was checked.
func (w *mdWriter) summary() {
	if strings.TrimSpace(w.in.Summary) == "" {
		return
	}
	w.heading(2, "Summary")
	w.para("%s", prose(w.in.Summary))
	w.para("*Written by %s from the ranked explanations below. Every number was checked against the recorded query results; a number marked [unverified] was not found in them.*", prose(w.in.Model))
}

func (w *mdWriter) footer() {
	w.para("---")
	if t := w.in.Tokens; t != nil && w.in.Model != "" {
		w.para("*Model: %s, %d calls, %d input and %d output tokens.*", prose(w.in.Model), t.Calls, t.InputTokens, t.OutputTokens)
	}
	ts := w.in.GeneratedAt.UTC().Format("2006-01-02 15:04 UTC")
	if w.in.AuditLog != "" {
		w.para("*Generated by Quarry on %s — audit log: %s*", ts, code(w.in.AuditLog))
		return
	}
	w.para("*Generated by Quarry on %s*", ts)
}

// codeBlock writes a fenced block, indented for a list item when indent is
// not empty. The fence is longer than any run of backticks in body.
func (w *mdWriter) codeBlock(indent, lang, body string) {
	fence := strings.Repeat("`", max(3, longestRun(body, '`')+1))
	w.blank()
	w.printf("%s%s%s", indent, fence, lang)
	for _, line := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			w.WriteByte('\n')
			continue
		}
		w.printf("%s%s", indent, strings.TrimRight(line, " \t\r"))
	}
	w.printf("%s%s", indent, fence)
	w.blank()
}

// longestRun is the length of the longest run of c in s, found in one
// pass (growing a fence until the body lacks it is quadratic).
func longestRun(s string, c byte) int {
	most, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			cur = 0
			continue
		}
		cur++
		most = max(most, cur)
	}
	return most
}

// metricDescription says what kind of aggregate the metric is.
func metricDescription(m *investigation.Metric) string {
	var s string
	switch m.Kind {
	case investigation.MetricRatio, investigation.MetricAverage:
		s = fmt.Sprintf("%s of %s over %s", m.Kind, code(m.Numerator), code(m.Denominator))
	case investigation.MetricDistinct:
		s = "distinct count " + code(m.Numerator)
	case "":
		s = "as defined below"
	default:
		s = code(m.Numerator) // the aggregate names its own kind: sum(amount), count(*)
	}
	if m.Scale != 0 && m.Scale != 1 {
		s += fmt.Sprintf(", scaled by %s", plainNumber(m.Scale))
	}
	if m.TimeColumn != "" {
		s += ", dated by " + code(m.TimeColumn)
	}
	return s
}

func periodText(r quarry.DateRange) string {
	return r.Start.String() + " to " + r.End.String()
}

// days is the length of r, or 0 when r is not set.
func days(r quarry.DateRange) int {
	if r.Start.IsZero() || r.End.IsZero() {
		return 0
	}
	return r.Days()
}

// oneLine collapses runs of white space, line breaks included, so text
// from a model cannot break the Markdown structure around it.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// prose makes text from the data or the model safe as Markdown prose: one
// line, and no raw HTML, since segment values come from uploaded files and
// a renderer that allows the report's <details> blocks would run it.
//
// Only a "<" that could open a tag (followed by a letter, '/', '!' or '?')
// is escaped, so "p < 0.001" stays readable in the raw file. A leading
// run of backticks or tildes is escaped too: at the start of a line it
// would open a code block that swallows the rest of the report.
func prose(s string) string {
	s = oneLine(s)
	if strings.HasPrefix(s, "```") || strings.HasPrefix(s, "~~~") {
		s = `\` + s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '<' && i+1 < len(s) && opensTag(s[i+1]) {
			b.WriteString("&lt;")
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func opensTag(c byte) bool {
	return c == '/' || c == '!' || c == '?' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// cell makes s safe inside a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(prose(s), "|", `\|`) }

// code formats s as inline code, with a longer delimiter when s itself
// holds backticks.
func code(s string) string {
	s = oneLine(s)
	if s == "" {
		return ""
	}
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

// truncate shortens s to at most n runes, ending in an ellipsis.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}

// ranked returns the explanations ordered by rank, ties in input order.
func ranked(es []investigation.Explanation) []investigation.Explanation {
	out := slices.Clone(es)
	slices.SortStableFunc(out, func(a, b investigation.Explanation) int { return cmp.Compare(a.Rank, b.Rank) })
	return out
}

// sortedKeys returns the keys of m in order, so maps never leak their
// iteration order into a report.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
