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
	"github.com/quarry-dev/quarry/report"
)

// maxSeriesCharts is how many top segments get a daily chart.
const maxSeriesCharts = 3

// writeMemory compiles the memory document: everything the investigation
// learned, cut into sections that each name the artifact they came from,
// so that chat can retrieve a passage and cite it. It is written as
// analysis/memory.md (the whole text) and analysis/memory.json (the
// sections).
func (r *run) writeMemory(ctx context.Context) error {
	c := r.in.Context
	var secs []investigation.MemorySection
	add := func(ref, title, format string, args ...any) {
		secs = append(secs, investigation.MemorySection{Ref: ref, Title: title, Text: strings.TrimSpace(fmt.Sprintf(format, args...))})
	}
	add("context.json", "Context", "Metric: %s\nBaseline: %s\nComparison: %s\nBusiness context: %s\nPrompt: %s",
		c.MetricSQL, c.BaselinePeriod, c.ComparisonPeriod, c.BusinessContext, c.InvestigationPrompt)
	// The answer the report and the command line open with, word for
	// word, so the chat quotes the same numbers.
	r.answer = report.Answer(r.reportInput())
	add("results/explanations.json", "Overall change", "%s", r.answer)
	add("analysis/memory.md#method", "Method", "%s", r.method())
	var dm strings.Builder
	for _, t := range r.model.Tables {
		fmt.Fprintf(&dm, "Table %s: %d rows, %d columns.\n", t.Name, t.RowCount, t.ColumnCount)
	}
	for _, rel := range r.model.Relationships {
		fmt.Fprintf(&dm, "Relationship %s.%s -> %s.%s (%s, confidence %.2f).\n", rel.FromTable, rel.FromColumn, rel.ToTable, rel.ToColumn, rel.RelationshipType, rel.Confidence)
	}
	fmt.Fprintf(&dm, "Dimensions examined: %s.", strings.Join(r.model.RecommendedDimensions, ", "))
	add("analysis/schema.json", "Data model", "%s", dm.String())
	for _, h := range r.hyps {
		add("analysis/hypotheses/"+h.HypothesisID+".json", "Hypothesis "+h.HypothesisID+" "+string(h.Status)+": "+h.Title,
			"%s %s: %s. %s", h.HypothesisID, h.Status, h.Title, h.Verdict)
	}
	findings := map[int]investigation.Finding{}
	for _, f := range r.ledger.Findings {
		findings[f.Iteration] = f
	}
	for _, it := range r.iterations {
		f, ok := findings[it.Iteration]
		title := fmt.Sprintf("Iteration %d: %s", it.Iteration, it.Decision)
		text := fmt.Sprintf("Iteration %d decided %s. %s", it.Iteration, it.Decision, it.Reasoning)
		if ok {
			title = fmt.Sprintf("Finding %s (iteration %d, %s)", f.FindingID, f.Iteration, f.HypothesisAffected)
			text += "\nFinding " + f.FindingID + ": " + f.Summary
		} else if it.CompressedSummary != "" {
			text += "\n" + it.CompressedSummary
		}
		if it.CodeExecuted != "" {
			text += "\nSQL: " + firstLines(it.CodeExecuted, 12)
		}
		add(fmt.Sprintf("analysis/iterations/iter_%03d.json", it.Iteration), title, "%s", text)
	}
	for _, e := range r.expls {
		add(fmt.Sprintf("results/explanations.json#%d", e.Rank), fmt.Sprintf("Explanation %d: %s", e.Rank, e.Title),
			"%d. %s (%s, %s): %s. %s %s", e.Rank, e.Title, e.Likelihood, e.Kind, e.Headline, e.Reasoning, e.CausalStory)
	}
	if r.whyNone != "" {
		add("report.md", "No findings", "No findings: %s", r.whyNone)
	}

	var b strings.Builder
	b.WriteString("# Investigation memory\n")
	for _, s := range secs {
		fmt.Fprintf(&b, "\n## %s\n%s\n", s.Title, s.Text)
	}
	r.memory = &investigation.MemoryDocument{DocumentID: quarry.NewID(), SessionID: r.in.SessionID, Content: b.String(), Sections: secs, CreatedAt: r.now()}
	if err := r.writeFile("analysis/memory.md", []byte(r.memory.Content)); err != nil {
		return err
	}
	return r.artifact("analysis/memory.json", r.memory)
}

// method explains, in words, how the numbers of this run were computed.
func (r *run) method() string {
	var b strings.Builder
	b.WriteString("How the contributions were calculated: the contribution of a segment is the part of the overall change that its rows account for. ")
	if r.metric.Denominator == "" {
		b.WriteString("The metric adds up over rows, so the change splits exactly into the change of each segment (comparison value minus baseline value); a segment's share of the change is its change divided by the overall change. ")
	} else {
		fmt.Fprintf(&b, "The metric is a ratio (%s / %s), so each segment's effect is split into a rate effect (its own ratio moved, weighted by its share of the denominator) and a mix effect (its share of the denominator moved, at its ratio's distance from the overall ratio); rate and mix effects add up to the overall change exactly. ", r.metric.Numerator, r.metric.Denominator)
	}
	b.WriteString("Candidate segments are measured as an exclusive partition: a row belongs to the first candidate it matches, so the candidates' effects plus everything else add up to the change with nothing counted twice. ")
	b.WriteString("Two measures of a segment therefore differ on purpose: the per-dimension findings of the memory loop measure a segment over all its rows, while an explanation measures it after the rows it shares with candidates earlier in the partition were set aside; an explanation whose number differs says so and gives both. ")
	g := r.grain
	values := g.adjective() + " values"
	if g.isDaily() {
		values = "deseasonalised daily values"
	}
	fmt.Fprintf(&b, "Each candidate is tested against its own %s-to-%s noise (Welch's test on %s), with the Benjamini-Hochberg correction over every segment examined (the q-value). ", g.noun(), g.noun(), values)
	fmt.Fprintf(&b, "A change in the number of rows is reported as volume, a change in the value per row as rate, a change in the share of the denominator as mix; missing %ss, partial %ss, duplicates and null spikes are data-quality findings and rank first. ", g.noun(), g.noun())
	b.WriteString("Explanations are ranked by their measured share of the change, and the likelihood follows the rank (1 Most Likely, 2-3 Likely, 4-5 Possible, 6+ Less Likely).")
	return b.String()
}

// firstLines returns at most n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n")
}

// writeReport writes report.md and its charts.
func (r *run) writeReport(ctx context.Context) error {
	in := r.reportInput()
	if r.outcome == investigation.OutcomeCompleted {
		in.Waterfall = r.waterfall()
		in.Series = r.series()
	}
	if len(in.Series) == 0 {
		// No segment to chart (no findings, or only whole-population
		// explanations): the metric itself, so the reader sees the change
		// against its day-to-day variation.
		in.Series = []report.Series{r.overallSeries()}
	}
	path, charts, err := report.Write(r.inv.Out.Dir(), in)
	if err != nil {
		return err
	}
	for _, c := range append([]string{"report.md", charts.Waterfall}, charts.Series...) {
		if c == "" {
			continue
		}
		if err := r.recordArtifact(c, ""); err != nil {
			return err
		}
	}
	r.reportPath = path
	// Progress reaches web pages and MCP clients: name the artifact, not
	// the server's directories.
	r.progress(investigation.Event{Step: "report", Message: fmt.Sprintf("report written: report.md with %d chart(s)", countCharts(charts))})
	return nil
}

// reportInput is what the report shows, charts aside.
func (r *run) reportInput() *report.Input {
	in := &report.Input{
		Title:            r.title(),
		Context:          r.in.Context,
		Metric:           *r.metric,
		Overall:          r.overall.change,
		Status:           r.outcome,
		NoFindingsReason: r.whyNone,
		DataModel:        r.model,
		Plan:             r.plan,
		Ledger:           r.ledger,
		Iterations:       r.iterations,
		Explanations:     r.expls,
		Breakdowns:       r.breakdown,
		AuditLog:         "audit.jsonl",
		GeneratedAt:      r.now(),
		Summary:          r.summary,
		Warnings:         r.warnings,
		WithinPrecision:  r.overall.test.BelowPrecision,
	}
	if r.ai != nil {
		in.Model = r.ai.model.Name()
		u := r.ai.usage()
		in.Tokens = &u
	}
	for _, h := range r.hyps {
		in.Hypotheses = append(in.Hypotheses, *h)
	}
	for _, is := range r.stats.quality {
		if r.materialIssue(is) || r.metric.Ratio() && is.impact == 0 {
			// Ratios have no impact estimate: every problem may matter.
			in.DataQuality = append(in.DataQuality, is.Detail)
		} else {
			in.DataNotes = append(in.DataNotes, is.Detail)
		}
	}
	return in
}

// title names the metric for the report heading in words: "Amount" for
// SUM(amount), "Converted per row" for SUM(converted)*1.0/COUNT(*).
func (r *run) title() string {
	m := r.metric
	t := words2(m.Numerator)
	if m.Kind == investigation.MetricAverage {
		t = "Average " + strings.ToLower(words2(m.Numerator))
	} else if m.Denominator != "" {
		den := strings.ToLower(words2(m.Denominator))
		if den == "rows" {
			den = "row"
		}
		t += " per " + den
	}
	return t
}

// words2 turns an aggregate into words: SUM(amount) -> "Amount",
// COUNT(*) -> "Rows", COUNT(DISTINCT user_id) -> "Distinct user id".
func words2(agg string) string {
	a := strings.TrimSpace(agg)
	lower := strings.ToLower(a)
	inner := a
	if i, j := strings.IndexByte(a, '('), strings.LastIndexByte(a, ')'); i >= 0 && j > i {
		inner = strings.TrimSpace(a[i+1 : j])
	}
	var out string
	switch {
	case strings.HasPrefix(lower, "count(*)") || strings.HasPrefix(lower, "count_star()"):
		out = "Rows"
	case strings.HasPrefix(lower, "count(distinct"):
		out = "Distinct " + strings.TrimSpace(inner[len("distinct"):])
	case strings.HasPrefix(lower, "count("):
		out = "Count of " + inner
	default:
		out = inner
	}
	if strings.ContainsAny(out, "()=<>'") {
		return a // an expression; show it as written
	}
	out = strings.ReplaceAll(strings.Trim(out, `"`), "_", " ")
	if i := strings.LastIndexByte(out, '.'); i >= 0 {
		out = out[i+1:]
	}
	if out == "" {
		return a
	}
	return strings.ToUpper(out[:1]) + out[1:]
}

// waterfall draws the verified segments that became explanations, in rank
// order, with everything else as the last bar; they add up exactly.
func (r *run) waterfall() []report.Bar {
	dec := r.stats.partition
	if len(dec.Effects) == 0 {
		return nil
	}
	var bars []report.Bar
	other := dec.Remainder.Change
	used := map[string]bool{}
	for _, e := range r.expls {
		for i, v := range r.stats.verified {
			if !used[v.key()] && len(e.Segment) > 0 && e.Segment.String() == v.key() {
				used[v.key()] = true
				bars = append(bars, report.Bar{Label: v.key(), Value: dec.Effects[i].Change, Kind: e.Kind})
			}
		}
	}
	for i, v := range r.stats.verified {
		if !used[v.key()] {
			other += dec.Effects[i].Change
		}
	}
	return append(bars, report.Bar{Label: "everything else", Value: other, Kind: report.KindOther})
}

// series returns the daily metric of the top segments.
func (r *run) series() []report.Series {
	var out []report.Series
	for _, e := range r.expls {
		if len(out) == maxSeriesCharts {
			break
		}
		for _, v := range r.stats.verified {
			if len(e.Segment) > 0 && e.Segment.String() == v.key() {
				out = append(out, report.Series{Name: v.key(), Baseline: r.points(v.daily.Base), Comparison: r.points(v.daily.Cmp)})
			}
		}
	}
	return out
}

// overallSeries is the metric over all rows per day (or per period of the
// data's grain) in both periods; periods without rows are gaps.
func (r *run) overallSeries() report.Series {
	return report.Series{Name: "all rows",
		Baseline:   r.points(r.fillDays(r.overall.base, r.scope.base)),
		Comparison: r.points(r.fillDays(r.overall.cmp, r.scope.cmp))}
}

func (r *run) points(days []drill.Day) []report.Point {
	out := make([]report.Point, 0, len(days))
	for _, d := range sortedDays(days) {
		date, err := quarry.ParseDate(d.Date)
		if err != nil {
			continue
		}
		v := r.metric.Value(d.Num, d.Den)
		if r.metric.Ratio() && d.Den == 0 || d.Empty {
			v = math.NaN() // a gap in the chart, not a zero
		}
		out = append(out, report.Point{Date: date, Value: v})
	}
	return out
}

func sortedDays(days []drill.Day) []drill.Day {
	out := append([]drill.Day(nil), days...)
	sort.Slice(out, func(i, j int) bool { return out[i].Date < out[j].Date })
	return out
}

// fileHash is the SHA-256 of the file at path, or "" when it cannot be
// read.
func fileHash(path string) string {
	sum, err := quarry.SHA256File(path)
	if err != nil {
		return ""
	}
	return sum
}

func countCharts(c report.Charts) int {
	n := 0
	for _, p := range append([]string{c.Waterfall}, c.Series...) {
		if p != "" {
			n++
		}
	}
	return n
}
