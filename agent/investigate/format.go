package investigate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/quarry-dev/quarry/investigation"
)

// num formats a number for people: thousands separators, and decimals only
// where they carry information.
func num(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	ax := math.Abs(x)
	var s string
	switch {
	case ax >= 1000 || ax == math.Trunc(ax):
		s = strconv.FormatFloat(x, 'f', 0, 64)
	case ax >= 10:
		s = strconv.FormatFloat(x, 'f', 1, 64)
	case ax >= 0.01:
		s = strconv.FormatFloat(x, 'f', 3, 64)
	default:
		s = strconv.FormatFloat(x, 'g', 3, 64)
	}
	return group(s)
}

// group inserts thousands separators into the integer part of s.
func group(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i:]
	}
	if strings.ContainsAny(intPart, "e") || len(intPart) <= 3 {
		return sign + s
	}
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String() + frac
}

// sharePct formats a share of the change as every surface prints it
// (investigation.Share): "58.6%", and "-3.0%" against the change.
func sharePct(f float64) string { return investigation.Share(f) }

// pctOf formats an unsigned fraction as a percentage with one decimal.
func pctOf(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

// pvalue formats a p- or q-value for a table cell: "<0.0001", "0.0372".
func pvalue(p float64) string {
	switch {
	case math.IsNaN(p) || p < 0:
		return "n/a"
	case p < 0.0001:
		return "<0.0001"
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}

// stat formats a p- or q-value in a sentence: "p<0.0001", "q=0.0372".
func stat(name string, p float64) string {
	v := pvalue(p)
	if strings.HasPrefix(v, "<") {
		return name + v
	}
	if v == "n/a" {
		return name + " n/a"
	}
	return name + "=" + v
}

// numbers is the format of the metric's values on every surface of the
// investigation (investigation.Numbers), from its two totals.
func (r *run) numbers() investigation.Numbers {
	o := r.overall.change
	return investigation.NewNumbers(r.metric, o.BaselineValue, o.ComparisonValue)
}

// fmtValue formats a value of the metric.
func (r *run) fmtValue(v float64) string { return r.numbers().Value(v) }

// fmtChange formats a change of the metric, signed.
func (r *run) fmtChange(v float64) string { return r.numbers().Change(v) }

// contribution formats what an explanation accounts for, as its headline:
// "-57,276 (58.6% of the change)".
func (r *run) contribution(change, share float64) string {
	return r.numbers().Contribution(change, share)
}

// effectTable renders a decomposition by one dimension for the raw output.
func (r *run) effectTable(dim string, effs []valueEffect) string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	if r.metric.Ratio() {
		fmt.Fprintf(tw, "%s\tbase value\tcmp value\tbase share\tcmp share\trate\tmix\teffect\tshare of change\t\n", dim)
		for _, e := range effs {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", e.Name, r.fmtValue(e.Value0), r.fmtValue(e.Value1),
				pctOf(e.Share0), pctOf(e.Share1), r.fmtChange(e.Rate), r.fmtChange(e.Mix), r.fmtChange(e.Change), sharePct(e.share))
		}
	} else {
		fmt.Fprintf(tw, "%s\tbaseline\tcomparison\tbase rows\tcmp rows\tchange\tshare of change\tbase share\t\n", dim)
		for _, e := range effs {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", e.Name, num(e.Value0), num(e.Value1),
				num(e.n[0]), num(e.n[1]), r.fmtChange(e.Change), sharePct(e.share), pctOf(e.baseShare))
		}
	}
	tw.Flush()
	return b.String()
}
