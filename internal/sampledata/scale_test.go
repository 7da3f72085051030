package sampledata

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestWriteOrders(t *testing.T) {
	const rows = 200_000
	var a, b bytes.Buffer
	if err := WriteOrders(&a, rows, 1); err != nil {
		t.Fatalf("WriteOrders = %v", err)
	}
	if err := WriteOrders(&b, rows, 1); err != nil {
		t.Fatalf("WriteOrders = %v", err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("WriteOrders(seed 1) differs between two runs")
	}
	tb := parseTable(t, a.Bytes())
	if len(tb.rows) != rows {
		t.Fatalf("WriteOrders(%d) wrote %d rows", rows, len(tb.rows))
	}
	header := strings.SplitN(a.String(), "\n", 2)[0]
	if want := "order_id,order_date,platform,country,city,channel,category,app_version,amount"; header != want {
		t.Errorf("header = %q; want %q", header, want)
	}
	dims := OrdersDimensions
	distinct := map[string]map[string]bool{}
	for _, d := range dims {
		distinct[d] = map[string]bool{}
	}
	prev := ""
	for i := range tb.rows {
		for _, d := range dims {
			distinct[d][tb.get(i, d)] = true
		}
		if day := tb.get(i, "order_date"); day < prev {
			t.Fatalf("row %d: date %s after %s; want date order", i, day, prev)
		} else {
			prev = day
		}
	}
	for _, tc := range []struct {
		dim      string
		min, max int
	}{
		{"platform", 3, 3}, {"country", 40, 40}, {"city", 250, 300}, {"channel", 8, 8},
		{"category", 24, 24}, {"app_version", 8, 8},
	} {
		if n := len(distinct[tc.dim]); n < tc.min || n > tc.max {
			t.Errorf("%s has %d values; want %d..%d", tc.dim, n, tc.min, tc.max)
		}
	}

	s := Scenario{Baseline: OrdersBaseline, Comparison: OrdersComparison}
	base, comp := tb.sums(s, "order_date", "amount", nil)
	cb, cc := tb.sums(s, "order_date", "amount", tb.in(OrdersCause.Segment))
	share := (cc - cb) / (comp - base)
	t.Logf("revenue %.0f -> %.0f (%+.2f%%); %v %.0f -> %.0f, share %.3f", base, comp, 100*(comp-base)/base, OrdersCause.Segment, cb, cc, share)
	if share < 0.8 || share > 1.2 {
		t.Errorf("share of %v = %.3f; want about %.1f", OrdersCause.Segment, share, OrdersCause.ApproxShare)
	}
}

func BenchmarkWriteOrders(b *testing.B) {
	const rows = 500_000
	var n countingWriter
	for b.Loop() {
		if err := WriteOrders(&n, rows, 1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.SetBytes(n.n / int64(b.N))
}

type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

var _ io.Writer = (*countingWriter)(nil)
