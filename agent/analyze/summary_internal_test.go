package analyze

import (
	"strings"
	"testing"
)

func TestSummarySaysTheDirectionInWords(t *testing.T) {
	cols := []string{"year", "yield", "change", "change_pct"}
	rows := [][]any{{int64(1931), 2224.67, nil, nil}, {int64(1932), 1905.80, -318.87, -14.33}}
	got := describeResult("Total yield by year", cols, rows, 2, -1, false)
	if !strings.Contains(got, "down 318.87 (14.3%)") {
		t.Errorf("describeResult = %q; want the fall as a positive amount and percentage, said down", got)
	}
	if got := movement(100, 105); got != ", up 5 (5.0%)" {
		t.Errorf("movement(100, 105) = %q", got)
	}
	if got := movement(0, 3); got != ", up 3" {
		t.Errorf("movement(0, 3) = %q; want no percentage of zero", got)
	}
}

func TestSummaryGivesSharesOfTotalsOnly(t *testing.T) {
	rows := [][]any{{"North", 13.33}, {"South", 2.0}}
	for _, c := range []struct {
		col   string
		share bool
	}{{"gdp", true}, {"rows", true}, {"avg_life_expect", false}, {"gdp_per_pop", false}, {"max_wind", false}} {
		got := describeResult("By region", []string{"region", c.col}, rows, 2, -1, false)
		if strings.Contains(got, "% of the 2 listed") != c.share {
			t.Errorf("%s: %q; want a share %v", c.col, got, c.share)
		}
	}
}

// TestSummaryGivesNoShareOfARange: a range (max - min) of each group is
// no part of a whole.
func TestSummaryGivesNoShareOfARange(t *testing.T) {
	got := describeResult("Range of gdp by country", []string{"country", "range_gdp"}, [][]any{{"China", 3.0}, {"India", 1.0}}, 2, -1, false)
	if strings.Contains(got, "% of the") {
		t.Errorf("%q; want no share of a range", got)
	}
	if got := describeResult("By region", []string{"region", "count_orders"}, [][]any{{"East", 3.0}, {"West", 1.0}}, 2, -1, false); !strings.Contains(got, "75.0% of the 2 listed") {
		t.Errorf("%q; want the share of a count", got)
	}
}

// A ranking's first row leads, on the column it is ranked by: the
// lowest of a bottom ranking, not the highest of the rows listed, and
// not another column of numbers after it.
func TestDescribeResultRankedLeadsWithItsFirstRow(t *testing.T) {
	cols := []string{"Name", "Cylinders", "Acceleration"}
	rows := [][]any{{"mazda rx2", 3.0, 13.5}, {"audi 100", 4.0, 14.5}, {"ford pinto", 4.0, 16.0}}
	got := describeResult("Bottom 3 rows by Cylinders", cols, rows, 406, 1, true)
	if !strings.Contains(got, "mazda rx2 leads with Cylinders 3") {
		t.Errorf("got %q, want mazda rx2 leading with Cylinders 3", got)
	}
}
