package investigate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// TestBreakdownTheQuestionNames: a prompt naming a dimension gets that
// dimension's table of changes with shares of the total change, whatever
// the top explanation is, in the result, results/breakdowns.json and the
// report; a named dimension that no column matches is reported.
func TestBreakdownTheQuestionNames(t *testing.T) {
	b, _ := quarry.ParseDateRange("2008-01-01..2008-12-31")
	c, _ := quarry.ParseDateRange("2009-01-01..2009-12-31")
	for _, tt := range []struct {
		name, prompt string
		want         []string
	}{
		{"by its name", "Which series drove the jump? And by country?", []string{
			"series (asked for series): C +3600 +100.0% | A 0 +0.0% | B 0 +0.0%",
			" (asked for country): no column is called country; the dimensions are series",
		}},
		{"by a noun no column has, with one dimension", "Which industries drove it?", []string{
			"series (asked for industries): C +3600 +100.0% | A 0 +0.0% | B 0 +0.0% (no column is called industry; series, the only dimension, is shown)",
		}},
		{"a time part", "Break it down by month", []string{
			" (asked for month): month is not split by: it restates the month of date on every row",
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			iv, err := runContextErr(t, investigation.Context{MetricSQL: "SELECT SUM(count) FROM jobs", BaselinePeriod: b, ComparisonPeriod: c,
				InvestigationPrompt: tt.prompt}, yearMonthBesideDate(t))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, bd := range iv.res.Breakdowns {
				got = append(got, describeBreakdown(bd))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("breakdowns:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if bd := iv.res.Breakdowns[0]; bd.Dimension != "" {
				report := iv.read(t, "report.md")
				if !strings.Contains(report, "## Change by series (asked for "+bd.Asked+")") || !strings.Contains(report, "| C | 3,654 | 7,254 | +3,600 | 100.0% |") {
					t.Errorf("report lacks the breakdown:\n%s", report[:min(len(report), 2500)])
				}
				if !strings.Contains(iv.read(t, "results/breakdowns.json"), `"share_of_change": 1`) {
					t.Error("results/breakdowns.json lacks the shares")
				}
			}
		})
	}
}

func describeBreakdown(b investigation.Breakdown) string {
	var rows []string
	for _, r := range b.Rows {
		rows = append(rows, fmt.Sprintf("%s %s %+.1f%%", r.Value, signedInt(r.Change), 100*r.Share))
	}
	s := fmt.Sprintf("%s (asked for %s)", b.Dimension, b.Asked)
	switch {
	case len(rows) == 0:
		return s + ": " + b.Note
	case b.Note != "":
		return s + ": " + strings.Join(rows, " | ") + " (" + b.Note + ")"
	}
	return s + ": " + strings.Join(rows, " | ")
}

func signedInt(v float64) string {
	if v > 0 {
		return fmt.Sprintf("+%.0f", v)
	}
	return fmt.Sprintf("%.0f", v)
}
