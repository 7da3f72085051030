package analyze_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/analysis"
)

// writeBigSales writes n orders over two years in five states.
func writeBigSales(tb testing.TB, n int) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), "sales.csv")
	f, err := os.Create(p)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintln(w, "order_id,order_date,state,product,quantity,amount")
	r := rand.New(rand.NewPCG(1, 2))
	states := []string{"Arizona", "California", "Nevada", "New York", "Texas"}
	products := []string{"Trail Shoe", "Road Shoe", "Rain Jacket", "Fleece", "Daypack", "Headlamp"}
	start := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		d := start.AddDate(0, 0, r.IntN(731))
		fmt.Fprintf(w, "%d,%s,%s,%s,%d,%.2f\n", i+1, d.Format(time.DateOnly), states[r.IntN(5)], products[r.IntN(6)], 1+r.IntN(3), 10+r.Float64()*200)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	f.Close()
	return p
}

// BenchmarkTypicalAnalysis is the speed target: a filter, a
// monthly trend, its chart and the summary over a 1,000,000-row CSV, end
// to end (loading, profiling, planning, running, writing artifacts and
// the audit log). QUARRY_BENCH_ROWS overrides the row count.
func BenchmarkTypicalAnalysis(b *testing.B) {
	n := 1_000_000
	if v := os.Getenv("QUARRY_BENCH_ROWS"); v != "" {
		fmt.Sscan(v, &n)
	}
	data := writeBigSales(b, n)
	e := newEnv(b)
	b.ResetTimer()
	for b.Loop() {
		res, err := e.a.Run(context.Background(), analysis.Request{Intent: "monthly sales trend for Arizona in 2021 with a chart",
			DataSources: []analysis.DataSource{csvSource(data)}, Deliverables: []string{analysis.DeliverCharts, analysis.DeliverSummary, analysis.DeliverTables}})
		if err != nil || res.Status != analysis.StatusCompleted {
			b.Fatalf("%v %v", res, err)
		}
	}
}
