package investigate

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/drill"
	"github.com/quarry-dev/quarry/report"
)

// maxSeriesCharts is how many top segments get a daily chart.
const maxSeriesCharts = 3

// writeMemory compiles the memory document: everything the investigation
// learned, as one Markdown text that chat retrieval can index.
func (r *run) writeMemory(ctx context.Context) error {
	var b strings.Builder
	c := r.in.Context
	fmt.Fprintf(&b, "# Investigation memory\n\n## Context\nMetric: %s\nBaseline: %s\nComparison: %s\nBusiness context: %s\nPrompt: %s\n\n",
		c.MetricSQL, c.BaselinePeriod, c.ComparisonPeriod, c.BusinessContext, c.InvestigationPrompt)
	o := r.overall.change
	fmt.Fprintf(&b, "## Overall change\nThe metric moved from %s to %s (%s, %+.1f%%); p=%s.\n\n", r.fmtValue(o.BaselineValue), r.fmtValue(o.ComparisonValue), r.fmtChange(o.Change), o.ChangePct, pvalue(o.PValue))
	b.WriteString("## Data model\n")
	for _, t := range r.model.Tables {
		fmt.Fprintf(&b, "Table %s: %d rows, %d columns.\n", t.Name, t.RowCount, t.ColumnCount)
	}
	for _, rel := range r.model.Relationships {
		fmt.Fprintf(&b, "Relationship %s.%s -> %s.%s (%s, confidence %.2f).\n", rel.FromTable, rel.FromColumn, rel.ToTable, rel.ToColumn, rel.RelationshipType, rel.Confidence)
	}
	fmt.Fprintf(&b, "Dimensions: %s.\n\n## Hypotheses\n", strings.Join(r.model.RecommendedDimensions, ", "))
	for _, h := range r.hyps {
		fmt.Fprintf(&b, "%s %s: %s. %s\n", h.HypothesisID, h.Status, h.Title, h.Verdict)
	}
	b.WriteString("\n## Findings\n")
	for _, f := range r.ledger.Findings {
		fmt.Fprintf(&b, "%s (iteration %d, %s): %s\n", f.FindingID, f.Iteration, f.HypothesisAffected, f.Summary)
	}
	b.WriteString("\n## Explanations\n")
	for _, e := range r.expls {
		fmt.Fprintf(&b, "%d. %s (%s, %s): %s %s\n", e.Rank, e.Title, e.Likelihood, e.Kind, e.Reasoning, e.CausalStory)
	}
	if r.whyNone != "" {
		fmt.Fprintf(&b, "\nNo findings: %s\n", r.whyNone)
	}
	return r.inv.Out.WriteFile("analysis/memory.md", []byte(b.String()))
}

// writeReport writes report.md and its charts.
func (r *run) writeReport(ctx context.Context) error {
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
		AuditLog:         "audit.jsonl",
		GeneratedAt:      r.now(),
	}
	for _, h := range r.hyps {
		in.Hypotheses = append(in.Hypotheses, *h)
	}
	for _, is := range r.stats.quality {
		in.DataQuality = append(in.DataQuality, is.Detail)
	}
	if r.outcome == quarry.OutcomeCompleted {
		in.Waterfall = r.waterfall()
		in.Series = r.series()
	}
	path, charts, err := report.Write(r.inv.Out.Dir(), in)
	if err != nil {
		return err
	}
	for _, c := range append([]string{"report.md", charts.Waterfall}, charts.Series...) {
		if c == "" {
			continue
		}
		if _, err := r.inv.Audit.Append(quarry.EventArtifactGenerated, "system", map[string]any{"path": c, "sha256": fileHash(filepath.Join(r.inv.Out.Dir(), c))}); err != nil {
			return err
		}
	}
	r.reportPath = path
	r.progress(Event{Step: "report", Message: "report written to " + path})
	return nil
}

// title names the metric for the report heading in words: "Amount" for
// SUM(amount), "Converted per row" for SUM(converted)*1.0/COUNT(*).
func (r *run) title() string {
	m := r.metric
	t := words2(m.Numerator)
	if m.Kind == quarry.MetricAverage {
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

func (r *run) points(days []drill.Day) []report.Point {
	out := make([]report.Point, 0, len(days))
	for _, d := range sortedDays(days) {
		date, err := quarry.ParseDate(d.Date)
		if err != nil {
			continue
		}
		v := r.metric.Value(d.Num, d.Den)
		if r.metric.Ratio() && d.Den == 0 {
			v = math.NaN()
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

func fileHash(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return quarry.SHA256Hex(data)
}
