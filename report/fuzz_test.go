package report

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// FuzzAxis: for any pair of floats, the value ticks are at most
// maxValueTicks, finite, increasing and within the range; a finite pair
// gets a finite padded axis holding it (a few ticks on it when the values
// are flat); and a histogram of the pair bins every value.
func FuzzAxis(f *testing.F) {
	for _, p := range axisPairs {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, lo, hi float64) {
		checkTicks(t, lo, hi)
		if !isFinite(lo) || !isFinite(hi) {
			return
		}
		lo, hi = math.Min(lo, hi), math.Max(lo, hi)
		a, b := paddedRange(lo, hi, 0.1, 0.35)
		if !isFinite(a) || !isFinite(b) || a > lo || b < hi {
			t.Fatalf("paddedRange(%v, %v) = %v, %v; want a finite range holding both", lo, hi, a, b)
		}
		n := checkTicks(t, a, b)
		if isFlat(lo, hi) && n < 3 {
			t.Fatalf("flat %v..%v: %d ticks on its padded axis %v..%v; want at least 3", lo, hi, n, a, b)
		}
		h := histogram([]float64{lo, hi, lo})
		total := 0.0
		for _, bin := range h.Bins {
			if !isFinite(bin.Min) || !isFinite(bin.Max) {
				t.Fatalf("histogram(%v, %v) has bin %v..%v", lo, hi, bin.Min, bin.Max)
			}
			total += bin.Weight
		}
		if total != 3 || len(h.Bins) > 50 {
			t.Fatalf("histogram(%v, %v) binned %v of 3 values in %d bins", lo, hi, total, len(h.Bins))
		}
	})
}

// FuzzMarkdown renders a report from arbitrary segment names, numbers and
// context strings: it never panics, stays within a constant factor of its
// input (plus the fixed text of the sections), and ends every code block
// it opens: no text from the input opens one that swallows the report.
func FuzzMarkdown(f *testing.F) {
	f.Add("Revenue", "device=mobile", "Why did revenue drop?", "SELECT SUM(amount) FROM orders", "Mobile fell.", 1000.0, 900.0, -100.0, 0.01, true)
	f.Add("", "", "", "", "", 0.0, 0.0, 0.0, 0.0, false)
	f.Add("<script>x</script>", "a|b\n# c", "```\n```", "````", "<details>", math.Inf(1), math.NaN(), math.Inf(-1), math.NaN(), true)
	f.Add("T", "s=`x`", "p < 0.001", "x\n\n  \n", "`` a ``", 1e308, -1e308, 5e-324, -1.0, false)
	f.Add(strings.Repeat("long", 100), strings.Repeat("=", 300), "q", "SELECT 1", "s", 1000000.0, 1000000.0000016, 1.6e-6, 1.0, true)
	f.Fuzz(func(t *testing.T, title, segment, prompt, sql, text string, base, cmp, change, p float64, ratio bool) {
		in := &Input{
			Title: title,
			Context: investigation.Context{MetricSQL: sql, InvestigationPrompt: prompt, BusinessContext: text,
				BaselinePeriod: quarry.DateRange{Start: day("2024-01-01"), End: day("2024-01-14")}, ComparisonPeriod: quarry.DateRange{Start: day("2024-01-15"), End: day("2024-01-28")}},
			Metric:  investigation.Metric{Kind: investigation.MetricSum, Numerator: sql, SQL: sql},
			Overall: investigation.OverallChange{BaselineValue: base, ComparisonValue: cmp, Change: change, PValue: p, Significant: p < 0.05},
			Status:  investigation.OutcomeCompleted,
			DataModel: investigation.DataModel{
				Tables:                []investigation.TableInfo{{Name: segment, RowCount: int64(len(text)), Columns: []quarry.Column{{Name: segment, InferredType: quarry.RoleDimension, Note: text}}}},
				Relationships:         []investigation.Relationship{{FromTable: segment, FromColumn: title, ToTable: prompt, ToColumn: segment, Confidence: p}},
				RecommendedDimensions: []string{segment, title},
			},
			Plan:       investigation.Plan{Steps: []investigation.PlanStep{{Description: text, Phase: prompt, DimensionsToCheck: []string{segment}}}},
			Hypotheses: []investigation.Hypothesis{{HypothesisID: title, Title: text, Kind: "dimension", Verdict: segment, Status: investigation.HypConfirmed, Dimensions: []string{segment}}},
			Iterations: []investigation.IterationLog{{Iteration: 1, Decision: prompt, CompressedSummary: text, HypothesisStatusChanges: map[string]investigation.HypothesisStatus{title: investigation.HypRuledOut}}},
			Explanations: []investigation.Explanation{{Rank: 1, Title: title, Kind: investigation.KindRate, Segment: investigation.Segment{{Column: segment, Value: text}},
				Change: change, ShareOfChange: change / base, PValue: &p, Significant: true, Reasoning: text, CausalStory: prompt,
				Evidence: []investigation.Evidence{{Description: text, SQL: sql, Values: map[string]float64{"baseline": base, "comparison": cmp, segment: change, "rows_set_aside": p, "all_rows_change": change}}}}},
			DataQuality: []string{text},
			DataNotes:   []string{segment},
			Waterfall:   []Bar{{Label: segment, Value: change}},
			Series:      []Series{{Name: segment}},
			Summary:     text,
			Model:       title,
			Warnings:    []string{prompt},
			AuditLog:    sql,
			GeneratedAt: fixedTime,
		}
		in.WithinPrecision = ratio
		if ratio {
			in.Metric = investigation.Metric{Kind: investigation.MetricRatio, Numerator: sql, Denominator: title, Scale: p}
			in.Status = investigation.OutcomeNoFindings
			in.NoFindingsReason = text
		}
		md := Markdown(in, Charts{Waterfall: "charts/waterfall.png", Series: []string{"charts/series_1_" + slug(segment) + ".png"}})
		inputLen := len(title) + len(segment) + len(prompt) + len(sql) + len(text)
		if len(md) > 64*inputLen+64<<10 {
			t.Fatalf("Markdown is %d bytes for %d bytes of input", len(md), inputLen)
		}
		valid := true
		for _, s := range []string{title, segment, prompt, sql, text} {
			valid = valid && utf8.ValidString(s)
		}
		if valid && !utf8.ValidString(md) {
			t.Fatal("Markdown of valid UTF-8 is not valid UTF-8")
		}
		if fence := openFence(md); fence != "" {
			t.Fatalf("Markdown leaves a code block open with %q", fence)
		}
	})
}
