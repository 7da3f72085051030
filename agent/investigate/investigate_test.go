package investigate

import (
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/drill"
	"github.com/quarry-dev/quarry/investigation"
)

func TestVolumeSplitAddsUp(t *testing.T) {
	tests := []struct {
		s0, s1 float64
		n      [2]float64
		volume float64
	}{
		{1000, 500, [2]float64{10, 5}, -500},  // half the rows, same value per row
		{1000, 500, [2]float64{10, 10}, 0},    // same rows, half the value
		{0, 300, [2]float64{0, 3}, 300},       // a new segment is all volume
		{1000, 1200, [2]float64{10, 8}, -250}, // fewer rows worth more
	}
	for _, tt := range tests {
		v, p := volumeSplit(tt.s0, tt.s1, tt.n)
		if v+p != tt.s1-tt.s0 {
			t.Errorf("volumeSplit(%v, %v, %v) = %v + %v; want a sum of %v", tt.s0, tt.s1, tt.n, v, p, tt.s1-tt.s0)
		}
		if diff := v - tt.volume; diff > 1e-9 || diff < -1e-9 {
			t.Errorf("volumeSplit(%v, %v, %v) volume = %v; want %v", tt.s0, tt.s1, tt.n, v, tt.volume)
		}
	}
}

func TestSegmentConditionQuotesValues(t *testing.T) {
	d := &Dim{Name: "customer", Expr: `"orders"."customer"`}
	got := segmentCond([]dimValue{{Dim: d, Value: "O'Brien'; DROP TABLE orders; --"}, {Dim: d, Null: true, Value: nullLabel}})
	want := `CAST("orders"."customer" AS VARCHAR) = 'O''Brien''; DROP TABLE orders; --' AND "orders"."customer" IS NULL`
	if got != want {
		t.Fatalf("segmentCond = %s\nwant %s", got, want)
	}
}

func TestScopeSplitsOverlappingPeriods(t *testing.T) {
	m := &investigation.Metric{Numerator: "SUM(amount)", From: "orders", Where: "status = 'paid'"}
	r := func(a, b string) quarry.DateRange {
		return quarry.DateRange{Start: quarry.MustParseDate(a), End: quarry.MustParseDate(b)}
	}
	disjoint := &scope{m: m, timeExpr: "orders.day", base: r("2024-03-01", "2024-03-07"), cmp: r("2024-03-08", "2024-03-14")}
	overlap := &scope{m: m, timeExpr: "orders.day", base: r("2024-03-01", "2024-03-10"), cmp: r("2024-03-08", "2024-03-14")}
	if q := disjoint.byPeriod([]string{"platform"}, ""); strings.Contains(q, "UNION ALL") || !strings.Contains(q, "CASE WHEN") {
		t.Errorf("disjoint periods: %s\nwant one CASE query", q)
	}
	q := overlap.byPeriod([]string{"platform"}, "")
	if strings.Count(q, "UNION ALL") != 1 || !strings.Contains(q, "0 AS period") || !strings.Contains(q, "1 AS period") {
		t.Errorf("overlapping periods: %s\nwant one branch per period", q)
	}
	if !strings.Contains(q, "(status = 'paid')") {
		t.Errorf("the metric's WHERE is lost: %s", q)
	}
}

func TestSimilarFindingsIgnoreNumbers(t *testing.T) {
	a := "By platform, platform=android accounts for 64% of the change while holding 34.6% of the baseline."
	b := "By platform, platform=android accounts for 61% of the change while holding 30.1% of the baseline."
	c := "Both periods have the same weekday composition, so the calendar explains none of the change."
	if !similar(a, b) {
		t.Errorf("similar(%q, %q) = false; want true", a, b)
	}
	if similar(a, c) {
		t.Errorf("similar(%q, %q) = true; want false", a, c)
	}
}

func TestTitleNamesTheMetric(t *testing.T) {
	tests := []struct {
		m    investigation.Metric
		want string
	}{
		{investigation.Metric{Kind: investigation.MetricSum, Numerator: "sum(amount)"}, "Amount"},
		{investigation.Metric{Kind: investigation.MetricCount, Numerator: "count_star()"}, "Rows"},
		{investigation.Metric{Kind: investigation.MetricRatio, Numerator: "sum(converted)", Denominator: "count_star()"}, "Converted per row"},
		{investigation.Metric{Kind: investigation.MetricAverage, Numerator: "sum(order_value)", Denominator: "count(order_value)"}, "Average order value"},
		{investigation.Metric{Kind: investigation.MetricDistinct, Numerator: "count(DISTINCT user_id)"}, "Distinct user id"},
	}
	for _, tt := range tests {
		r := &run{metric: &tt.m}
		if got := r.title(); got != tt.want {
			t.Errorf("title(%s) = %q; want %q", tt.m.String(), got, tt.want)
		}
	}
}

func TestFillDaysAddsZeroDays(t *testing.T) {
	rg := quarry.DateRange{Start: quarry.MustParseDate("2024-03-01"), End: quarry.MustParseDate("2024-03-04")}
	got := (&run{grain: daily}).fillDays([]drill.Day{{Date: "2024-03-02", Num: 5}}, rg)
	if len(got) != 4 {
		t.Fatalf("fillDays = %v; want 4 days", got)
	}
	var sum float64
	for _, d := range got {
		sum += d.Num
	}
	if sum != 5 {
		t.Fatalf("fillDays changed the total to %v", sum)
	}
}
