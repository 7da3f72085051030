package drill

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
)

// Issue kinds, in Issue.Kind.
const (
	IssueMissingDays      = "missing_days"
	IssueDuplicateRows    = "duplicate_rows"
	IssueDuplicateKeys    = "duplicate_keys"
	IssueNullSpike        = "null_spike"
	IssueNewCategory      = "new_category"
	IssueVanishedCategory = "vanished_category"
	IssuePartialLastDay   = "partial_last_day"
	// IssueDataBoundary is a run of empty dates at the start or end of a
	// period that lies before the data's first date or after its last:
	// the data starts late or stops early (see ClassifyGaps).
	IssueDataBoundary = "data_boundary"
)

// An Issue is a data-quality problem that could explain a metric's change
// without anything having changed in the business: data that went missing,
// was loaded twice, or changed shape between the periods.
type Issue struct {
	Kind    string // one of the Issue constants
	Segment string // "col=value", or "" for the whole table
	Column  string // the column concerned, if any
	Detail  string // one sentence for a report
	// Severity is roughly the fraction of the data affected, in [0, 1]; each
	// check documents what it measures.
	Severity float64
	Values   map[string]float64 // the numbers behind Detail
}

// Thresholds of the checks. They are deliberately coarse: a check should
// fire on a problem a careful analyst would stop at, not on noise.
const (
	// A segment present on at least this share of one period's days is
	// expected on every day of the other.
	presentShare = 0.8
	// A day with fewer rows than this share of a normal day is partial.
	partialShare = 0.5
	// New and vanished categories smaller than this share of the volume
	// are not reported.
	minCategoryShare = 0.001
	// p-value a rate jump must beat to count as more than noise.
	jumpAlpha = 0.001
)

// SegmentDays lists the dates on which one segment has rows in each period.
// Segment "" stands for the whole table.
type SegmentDays struct {
	Segment   string // "col=value" or ""
	Base, Cmp []string
}

// MissingDays finds days without data. baseDates and cmpDates are the
// periods' expected dates. It is MissingPeriods for daily data.
//
// For the whole table (Segment "") every expected date without rows is an
// issue; Severity is the share of the period's days that are missing. For a
// segment present on at least 80% (and at least 3) of one period's days, each
// day of the other period on which the table has rows but the segment has
// none is an issue; Severity is the share of that period's days missing. Days
// on which the whole table is empty are reported once, for the table.
func MissingDays(segs []SegmentDays, baseDates, cmpDates []string) []Issue {
	return MissingPeriods(segs, baseDates, cmpDates, "day")
}

// MissingPeriods is MissingDays for data with one date per unit ("week",
// "month", ...): the expected dates are the periods' stamps, and the
// details count units, not days.
func MissingPeriods(segs []SegmentDays, baseDates, cmpDates []string, unit string) []Issue {
	anyRows := map[string]bool{}
	for _, s := range segs {
		for _, d := range append(s.Base[:len(s.Base):len(s.Base)], s.Cmp...) {
			anyRows[d] = true
		}
	}
	var out []Issue
	for _, s := range segs {
		if s.Segment == "" {
			out = append(out, missing(s.Segment, "baseline", unit, baseDates, s.Base, nil)...)
			out = append(out, missing(s.Segment, "comparison", unit, cmpDates, s.Cmp, nil)...)
			continue
		}
		if coverage(baseDates, s.Base) {
			out = append(out, missing(s.Segment, "comparison", unit, cmpDates, s.Cmp, anyRows)...)
		}
		if coverage(cmpDates, s.Cmp) {
			out = append(out, missing(s.Segment, "baseline", unit, baseDates, s.Base, anyRows)...)
		}
	}
	sortIssues(out)
	return out
}

// coverage reports whether have covers most of the expected dates.
func coverage(expected, have []string) bool {
	n := len(intersect(expected, have))
	return n >= 3 && float64(n) >= presentShare*float64(len(expected))
}

// missing returns an issue when expected dates (restricted to those in
// anyRows, when given) are absent from have.
func missing(segment, periodName, unit string, expected, have []string, anyRows map[string]bool) []Issue {
	present := set(have)
	var gone []string
	for _, d := range expected {
		if !present[d] && (anyRows == nil || anyRows[d]) {
			gone = append(gone, d)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	who := "the table"
	if segment != "" {
		who = segment
	}
	return []Issue{{
		Kind:    IssueMissingDays,
		Segment: segment,
		Column:  column(segment),
		Detail: fmt.Sprintf("%s has no rows on %d of the %s period's %d %ss (%s)",
			who, len(gone), periodName, len(expected), unit, list(gone, 5)),
		Severity: float64(len(gone)) / float64(len(expected)),
		Values: map[string]float64{
			"missing_days": float64(len(gone)), "expected_days": float64(len(expected)),
			"comparison": boolFloat(periodName == "comparison"),
		},
	}}
}

// NullCounts holds one column's null and row counts in each period.
type NullCounts struct {
	Column        string
	Segment       string // "" for the whole table
	Nulls0, Rows0 float64
	Nulls1, Rows1 float64
}

// NullSpike finds columns whose null rate jumped: to at least 5%, by at
// least 4 points and 1.5 times the baseline rate, and beyond noise (a
// two-proportion z-test with p < 0.001). Severity is the rise of the null
// rate, the share of the comparison's rows that newly lack the value.
func NullSpike(cols []NullCounts) []Issue {
	var out []Issue
	for _, c := range cols {
		r0, r1, p, ok := jumped(c.Nulls0, c.Rows0, c.Nulls1, c.Rows1, 0.04)
		if !ok || r1 < 0.05 {
			continue
		}
		out = append(out, Issue{
			Kind: IssueNullSpike, Segment: c.Segment, Column: c.Column,
			Detail:   fmt.Sprintf("%s is null in %.1f%% of comparison rows, up from %.1f%%", c.Column, 100*r1, 100*r0),
			Severity: clamp01(r1 - r0),
			Values:   map[string]float64{"null_rate0": r0, "null_rate1": r1, "p_value": p},
		})
	}
	sortIssues(out)
	return out
}

// jumped compares the rates x0/n0 and x1/n1 and reports whether the second
// is materially (by minDelta and 1.5 times) and significantly higher.
func jumped(x0, n0, x1, n1, minDelta float64) (r0, r1, p float64, ok bool) {
	if n0 <= 0 || n1 <= 0 {
		return 0, 0, 1, false
	}
	r0, r1 = x0/n0, x1/n1
	pooled := (x0 + x1) / (n0 + n1)
	se := math.Sqrt(pooled * (1 - pooled) * (1/n0 + 1/n1))
	_, p = testStat(r1-r0, se, math.Inf(1))
	return r0, r1, p, r1-r0 >= minDelta && r1 >= 1.5*r0 && p < jumpAlpha
}

// CategoryCount is one value of a dimension with its rows and metric volume
// (the metric's numerator, or rows) in each period.
type CategoryCount struct {
	Value            string
	Rows0, Rows1     float64
	Volume0, Volume1 float64
}

// Categories finds values of a dimension that appear only in the comparison
// (new_category) or only in the baseline (vanished_category), with at least
// 0.1% of the period's volume. Severity is that share of the volume. A new and
// a vanished value that differ only in case, spaces or punctuation are
// flagged as a likely rename.
func Categories(column string, cats []CategoryCount) []Issue {
	var vol0, vol1 float64
	norm := map[string][]string{}
	for _, c := range cats {
		vol0 += math.Abs(c.Volume0)
		vol1 += math.Abs(c.Volume1)
		k := normalize(c.Value)
		norm[k] = append(norm[k], c.Value)
	}
	var out []Issue
	for _, c := range cats {
		kind, share, when := IssueNewCategory, safeDiv(math.Abs(c.Volume1), vol1), "appears in the comparison"
		switch {
		case c.Rows0 == 0 && c.Rows1 > 0:
		case c.Rows1 == 0 && c.Rows0 > 0:
			kind, share, when = IssueVanishedCategory, safeDiv(math.Abs(c.Volume0), vol0), "is gone from the comparison"
		default:
			continue
		}
		if share < minCategoryShare {
			continue
		}
		detail := fmt.Sprintf("%s=%s %s with %.1f%% of the volume", column, c.Value, when, 100*share)
		for _, other := range norm[normalize(c.Value)] {
			if other != c.Value {
				detail += fmt.Sprintf("; likely a rename of %q", other)
			}
		}
		out = append(out, Issue{
			Kind: kind, Segment: column + "=" + c.Value, Column: column,
			Detail: detail, Severity: clamp01(share),
			Values: map[string]float64{"rows0": c.Rows0, "rows1": c.Rows1,
				"volume0": c.Volume0, "volume1": c.Volume1, "share": share},
		})
	}
	sortIssues(out)
	return out
}

// normalize folds case, spaces and punctuation so renames can be matched.
func normalize(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '_', '-', '.', '\t':
			return -1
		}
		return r
	}, strings.ToLower(s))
}

// DayCount is the number of rows on one day ("2006-01-02").
type DayCount struct {
	Date string
	Rows float64
}

// PartialLastDay finds a period whose last day has fewer than half the rows
// of a normal day, the mark of an extract taken before the day was over. A
// normal day is the lower of two medians: of the period's other days (so a
// real change of level between the periods is not partial) and of the other
// days, in both periods, on the same weekday, or failing that of the same
// kind, weekend or weekday (so a quiet Sunday is not partial). Periods need
// 3 days. Severity is the share of the normal day that is missing.
func PartialLastDay(base, cmp []DayCount) []Issue { return PartialLast(base, cmp, "day") }

// PartialLast is PartialLastDay at the data's grain: unit names the
// spacing of the dates ("day", "week", "month", ...). Only days have
// weekdays; a last month is compared with the period's other months.
func PartialLast(base, cmp []DayCount, unit string) []Issue {
	all := append(base[:len(base):len(base)], cmp...)
	var out []Issue
	for _, p := range []struct {
		name string
		days []DayCount
	}{{"baseline", base}, {"comparison", cmp}} {
		if len(p.days) < 3 {
			continue
		}
		last := p.days[0]
		for _, d := range p.days {
			if d.Date > last.Date {
				last = d
			}
		}
		ref := median(otherDays(p.days, last.Date, nil))
		if wd, ok := weekday(last.Date); ok && unit == "day" {
			alike := otherDays(all, last.Date, func(w time.Weekday) bool { return w == wd })
			if len(alike) == 0 {
				alike = otherDays(all, last.Date, func(w time.Weekday) bool { return weekend(w) == weekend(wd) })
			}
			if m := median(alike); m < ref {
				ref = m
			}
		}
		if !(ref > 0) || last.Rows >= partialShare*ref {
			continue
		}
		on := "in"
		if unit == "day" {
			on = "on"
		}
		out = append(out, Issue{
			Kind: IssuePartialLastDay,
			Detail: fmt.Sprintf("the last %s %s, %s, has %.0f rows against %.0f %s a normal %s",
				p.name, unit, last.Date, last.Rows, ref, on, unit),
			Severity: clamp01(1 - last.Rows/ref),
			Values: map[string]float64{"rows": last.Rows, "normal_rows": ref,
				"comparison": boolFloat(p.name == "comparison")},
		})
	}
	return out
}

// otherDays returns the row counts of the days other than date whose
// weekday satisfies match; nil matches every day.
func otherDays(days []DayCount, date string, match func(time.Weekday) bool) []float64 {
	var out []float64
	for _, d := range days {
		if d.Date == date {
			continue
		}
		if match != nil {
			if w, ok := weekday(d.Date); !ok || !match(w) {
				continue
			}
		}
		out = append(out, d.Rows)
	}
	return out
}

func weekend(w time.Weekday) bool { return w == time.Saturday || w == time.Sunday }

// DupCounts holds a table's row counts in each period: all rows, distinct
// rows, and distinct values of its key (0 when the table has no key).
type DupCounts struct {
	Key                     string // the key column, or ""
	Rows0, Distinct0, Keys0 float64
	Rows1, Distinct1, Keys1 float64
}

// Duplicates finds a comparison period with a materially and significantly
// higher share of duplicate rows (rows - distinct rows) than the baseline: 1
// point more, 1.5 times as many, p < 0.001. It reports duplicate keys
// (rows - distinct keys) the same way when the key duplication rose by at
// least a point more than row duplication, that is when rows that differ
// elsewhere share a key (late updates appended, a fan-out join). Severity is
// the rise of the duplicate share.
func Duplicates(c DupCounts) []Issue {
	var out []Issue
	r0, r1, p, rowsUp := jumped(c.Rows0-c.Distinct0, c.Rows0, c.Rows1-c.Distinct1, c.Rows1, 0.01)
	if rowsUp {
		out = append(out, Issue{
			Kind:     IssueDuplicateRows,
			Detail:   fmt.Sprintf("%.1f%% of comparison rows are exact duplicates, against %.1f%% in the baseline", 100*r1, 100*r0),
			Severity: clamp01(r1 - r0),
			Values:   map[string]float64{"dup_share0": r0, "dup_share1": r1, "p_value": p},
		})
	}
	if c.Key == "" || c.Keys0 <= 0 || c.Keys1 <= 0 {
		return out
	}
	k0, k1, pk, keysUp := jumped(c.Rows0-c.Keys0, c.Rows0, c.Rows1-c.Keys1, c.Rows1, 0.01)
	if keysUp && (!rowsUp || (k1-k0)-(r1-r0) >= 0.01) {
		out = append(out, Issue{
			Kind: IssueDuplicateKeys, Column: c.Key,
			Detail:   fmt.Sprintf("%.1f%% of comparison rows repeat a %s, against %.1f%% in the baseline", 100*k1, c.Key, 100*k0),
			Severity: clamp01(k1 - k0),
			Values:   map[string]float64{"dup_share0": k0, "dup_share1": k1, "p_value": pk},
		})
	}
	return out
}

// sortIssues orders issues by decreasing severity, then by segment.
func sortIssues(out []Issue) {
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Severity != out[j].Severity {
			return out[i].Severity > out[j].Severity
		}
		return out[i].Segment < out[j].Segment
	})
}

func column(segment string) string {
	col, _, _ := strings.Cut(segment, "=")
	return col
}

func set(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func intersect(a, b []string) []string {
	in := set(b)
	var out []string
	for _, x := range a {
		if in[x] {
			out = append(out, x)
		}
	}
	return out
}

// list joins up to n items, noting how many more there are.
// ListDates names at most n dates and counts the rest: "a, b and 3 more".
func ListDates(xs []string, n int) string { return list(xs, n) }

func list(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(xs[:n], ", "), len(xs)-n)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// weekday parses the date at the start of s ("2006-01-02...").
func weekday(s string) (time.Weekday, bool) {
	if len(s) < 10 {
		return 0, false
	}
	t, err := time.Parse(time.DateOnly, s[:10])
	return t.Weekday(), err == nil
}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// IssueSumRows marks rows that hold the total of other rows of the same
// column ("World" beside the countries, "Total", "All"): summed with the
// rest, they count everything twice.
const IssueSumRows = "sum_rows"

// sumTolerance is how far a total row may sit from the sum of the others,
// as a share of the day's total, and still count as their sum (exports
// round).
const sumTolerance = 0.005

// SumRows finds values of a column whose rows are, day after day, the sum
// of the other values' rows. perDay maps "col=value" to its numerator per
// day; a value is a total when it equals the sum of the others on at least
// 80% (and at least 3) of the days it has rows, and there are at least two
// others. Severity is the share of the column's volume the total holds
// (one half when it is exactly the sum of the rest).
func SumRows(column string, perDay map[string]map[string]float64) []Issue {
	if len(perDay) < 3 {
		return nil
	}
	total := map[string]float64{}
	for _, days := range perDay {
		for d, v := range days {
			total[d] += v
		}
	}
	var out []Issue
	for seg, days := range perDay {
		match, n := 0, 0
		var own, all float64
		for d, v := range days {
			t := total[d]
			own += v
			all += t
			if t == 0 {
				continue
			}
			n++
			if math.Abs(2*v-t) <= sumTolerance*math.Abs(t) {
				match++
			}
		}
		if n < 3 || float64(match) < presentShare*float64(n) {
			continue
		}
		out = append(out, Issue{
			Kind:    IssueSumRows,
			Segment: seg,
			Column:  column,
			Detail: fmt.Sprintf("the rows of %s are the sum of the other values of %s on %d of %d days: added to them, they count the metric twice",
				seg, column, match, n),
			Severity: safeDiv(own, all),
			Values:   map[string]float64{"days_matching": float64(match), "days": float64(n)},
		})
	}
	sortIssues(out)
	return out
}
