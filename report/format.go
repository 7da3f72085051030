package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/quarry-dev/quarry/investigation"
)

// numberFormat prints values of one metric consistently across a report
// (investigation.Numbers, which every surface of an investigation uses),
// and adds what only charts need: compact labels and axis ticks.
type numberFormat struct{ investigation.Numbers }

// newNumberFormat picks the format for metric m from the values the report
// shows: the two totals and the overall change.
func newNumberFormat(m *investigation.Metric, base, cmp float64) numberFormat {
	return numberFormat{investigation.NewNumbers(m, base, cmp)}
}

// compact prints a value for a chart label, where space is short:
// "1.23M", "+45.6K", "4.10%".
func (f numberFormat) compact(v float64, withSign bool) string {
	var s string
	switch a := math.Abs(v); {
	case f.Percent && withSign:
		return f.Change(v)
	case f.Percent:
		return f.Value(v)
	case a >= 1e9:
		s = trimZeros(strconv.FormatFloat(v/1e9, 'f', 2, 64)) + "B"
	case a >= 1e6:
		s = trimZeros(strconv.FormatFloat(v/1e6, 'f', 2, 64)) + "M"
	case a >= 1e4:
		s = trimZeros(strconv.FormatFloat(v/1e3, 'f', 1, 64)) + "K"
	default:
		s = grouped(v, f.Decimals)
	}
	if withSign {
		return signed(s)
	}
	return s
}

// tick prints an axis tick, where values are round: "12%", "3.5%", "1.2M".
func (f numberFormat) tick(v float64) string {
	switch {
	case f.Percent:
		return trimZeros(grouped(v*100, f.Decimals)) + "%"
	case math.Abs(v) < 1e4:
		return trimZeros(grouped(v, f.Decimals))
	}
	return f.compact(v, false)
}

// trimZeros drops trailing zeros after a decimal point: "1.20" -> "1.2".
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

// grouped prints v with the given decimals and thousands separators.
func grouped(v float64, decimals int) string { return investigation.Grouped(v, decimals) }

// signed adds a plus sign to a printed number that is neither negative
// nor zero.
func signed(s string) string { return investigation.Signed(s) }

// plainNumber prints a number of unknown meaning (an evidence value):
// integers grouped, other values with two decimals or three significant
// digits.
func plainNumber(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "n/a"
	case v == math.Trunc(v) && a < 1e15:
		return grouped(v, 0)
	case a >= 1:
		return grouped(v, 2)
	case a >= 1e-4:
		return strconv.FormatFloat(v, 'f', sigDecimals(a, 3), 64)
	}
	return strconv.FormatFloat(v, 'e', 2, 64)
}

// pct prints a signed percentage (x is already in percent): "+12.3%",
// "-0.45%".
func pct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	d := 1
	if math.Abs(x) < 1 {
		d = 2
	}
	return signed(grouped(x, d)) + "%"
}

// pValue prints a p-value the way papers do: "p < 0.001", "p = 0.041".
func pValue(p float64) string {
	switch {
	case math.IsNaN(p) || p < 0:
		return "p unknown"
	case p < 0.001:
		return "p < 0.001"
	}
	return fmt.Sprintf("p = %.3f", p)
}

// changePct returns the relative change from base to cmp in percent, and
// false when base is zero and the percentage is undefined.
func changePct(base, cmp float64) (float64, bool) {
	if base == 0 {
		return 0, false
	}
	return (cmp - base) / math.Abs(base) * 100, true
}

// perPeriod prefixes a metric's title with its grain's adjective ("Daily
// revenue", "Monthly revenue"), unless the title already says it ("Daily
// vaccinations" stays as it is).
func perPeriod(grain, title string) string {
	adj := map[string]string{investigation.GrainWeek: "Weekly", investigation.GrainMonth: "Monthly", investigation.GrainQuarter: "Quarterly", investigation.GrainYear: "Yearly"}[grain]
	if adj == "" {
		adj = "Daily"
	}
	if strings.HasPrefix(strings.ToLower(title), strings.ToLower(adj)+" ") {
		return title
	}
	return adj + " " + title
}

// sigDecimals returns how many decimals show n significant digits of x > 0.
func sigDecimals(x float64, n int) int {
	return max(0, n-1-int(math.Floor(math.Log10(x))))
}
