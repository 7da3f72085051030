package analyze

import (
	"strings"
	"testing"
)

func TestSummarySaysTheDirectionInWords(t *testing.T) {
	cols := []string{"year", "yield", "change", "change_pct"}
	rows := [][]any{{int64(1931), 2224.67, nil, nil}, {int64(1932), 1905.80, -318.87, -14.33}}
	got := describeResult("Total yield by year", cols, rows, 2)
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
