package investigation

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Numbers prints the values of one metric the same way on every surface
// of an investigation: the command line, explanations.json, report.md,
// the report page, the chat and MCP. The totals, the change and every
// explanation get the same decimals, so one finding has one number.
type Numbers struct {
	// Percent is set for ratios of fractions (conversion, share): 0.041 is
	// printed "4.10%" and a change of -0.005 "-0.50 pp".
	Percent bool
	// Decimals applies to metric units, or to the percentage in percent
	// mode.
	Decimals int
}

// NewNumbers picks the format for metric m from the values a report
// shows: the two totals (base, cmp) and the change between them.
func NewNumbers(m *Metric, base, cmp float64) Numbers {
	scale := m.Scale
	if scale == 0 {
		scale = 1
	}
	change := math.Abs(cmp - base)
	if m.Kind == MetricRatio && scale == 1 && math.Abs(base) <= 1 && math.Abs(cmp) <= 1 {
		// Two decimals of a percentage unless the change needs more to
		// show two significant digits of the percentage-point change.
		d := 2
		if change > 0 {
			d = max(d, min(sigDecimals(change*100, 2), 4))
		}
		return Numbers{Percent: true, Decimals: d}
	}
	if (m.Kind == MetricCount || m.Kind == MetricDistinct) && scale == 1 {
		return Numbers{Decimals: 0}
	}
	mag := max(math.Abs(base), math.Abs(cmp))
	switch {
	case mag >= 1000:
		return Numbers{Decimals: 0}
	case mag >= 1 || mag == 0:
		return Numbers{Decimals: 2}
	}
	return Numbers{Decimals: min(sigDecimals(mag, 3), 6)}
}

// sigDecimals returns how many decimals show n significant digits of x > 0.
func sigDecimals(x float64, n int) int {
	return max(0, n-1-int(math.Floor(math.Log10(x))))
}

// Value prints a metric value: "1,234,567", "52.31" or "4.10%".
func (f Numbers) Value(v float64) string {
	if f.Percent {
		return Grouped(v*100, f.Decimals) + "%"
	}
	return Grouped(v, f.Decimals)
}

// Change prints a signed amount of metric units: "-12,345", "+2.19" or
// "-0.50 pp". A fall is negative.
func (f Numbers) Change(v float64) string {
	if f.Percent {
		return Signed(Grouped(v*100, f.Decimals)) + " pp"
	}
	return Signed(Grouped(v, f.Decimals))
}

// Contribution is an explanation's headline number: the change it
// accounts for, signed as the total change is (a fall is negative), and
// its share of the total change: "-57,276 (58.6% of the change)". A share
// is positive when the explanation moved with the total and negative when
// it worked against it.
func (f Numbers) Contribution(change, share float64) string {
	return fmt.Sprintf("%s (%s of the change)", f.Change(change), Share(share))
}

// Share prints a fraction of the total change as a percentage with one
// decimal: 0.586 is "58.6%", -0.03 (against the change) "-3.0%".
func Share(share float64) string {
	if math.IsNaN(share) || math.IsInf(share, 0) {
		return "n/a"
	}
	return Grouped(100*share, 1) + "%"
}

// Grouped prints v with the given decimals and thousands separators. A
// value that rounds to zero prints without a minus sign.
func Grouped(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "n/a"
	}
	s := strconv.FormatFloat(math.Abs(v), 'f', decimals, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	if v < 0 && strings.Trim(s, "0.") != "" {
		b.WriteByte('-')
	}
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if frac != "" {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// Signed adds a plus sign to a printed number that is neither negative
// nor zero.
func Signed(s string) string {
	if strings.HasPrefix(s, "-") || s == "n/a" || strings.Trim(s, "0.,") == "" {
		return s
	}
	return "+" + s
}
