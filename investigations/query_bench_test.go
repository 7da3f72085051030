package investigations_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/sampledata"
)

// BenchmarkQuery measures one run_sql-style query over the revenue_drop
// sample (two files, 2 MB): the first query of a session and the ones that
// follow.
func BenchmarkQuery(b *testing.B) {
	dir := b.TempDir()
	a, err := app.Open(context.Background(), app.Options{DataDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	ctx := context.Background()
	s, _ := sampledata.Get("revenue_drop")
	paths, err := sampledata.WriteScenario(filepath.Join(dir, "samples"), s)
	if err != nil {
		b.Fatal(err)
	}
	sess, err := a.Investigations.Create(ctx, "")
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		_, err = a.Investigations.AddFile(ctx, sess.SessionID, filepath.Base(p), "", f)
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
	const sql = "SELECT platform, SUM(amount) FROM orders GROUP BY 1 ORDER BY 1"
	start := time.Now()
	if _, err := a.Investigations.Query(ctx, sess.SessionID, sql); err != nil {
		b.Fatal(err)
	}
	first := time.Since(start)
	for b.Loop() {
		if _, err := a.Investigations.Query(ctx, sess.SessionID, sql); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(first.Milliseconds()), "first-query-ms")
}
