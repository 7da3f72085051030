package duckdb

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// writeOrders writes an orders CSV of n rows and 8 columns: an id, a date,
// a customer key, two low-cardinality dimensions, an amount, a quantity
// and a 0/1 flag.
func writeOrders(tb testing.TB, dir string, n int) string {
	tb.Helper()
	path := filepath.Join(dir, fmt.Sprintf("orders_%d.csv", n))
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	regions := []string{"north", "south", "east", "west"}
	channels := []string{"web", "app", "store"}
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	w.WriteString("order_id,order_date,customer_id,region,channel,amount,quantity,converted\n")
	var buf []byte
	for i := 0; i < n; i++ {
		buf = strconv.AppendInt(buf[:0], int64(i+1), 10)
		buf = append(buf, ',')
		buf = base.AddDate(0, 0, i%365).AppendFormat(buf, time.DateOnly)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64((i*7919)%50000), 10)
		buf = append(buf, ',')
		buf = append(buf, regions[i%4]...)
		buf = append(buf, ',')
		buf = append(buf, channels[(i/4)%3]...)
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, float64((i*31)%10000)/100, 'f', 2, 64)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(1+i%5), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64((i/3)%2), 10)
		buf = append(buf, '\n')
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkLoadCSV measures LoadCSV (validation, load and profile) of a
// generated 500K-row file. Set QUARRY_BENCH_ROWS to try another size.
func BenchmarkLoadCSV(b *testing.B) {
	rows := 500_000
	if s := os.Getenv("QUARRY_BENCH_ROWS"); s != "" {
		rows, _ = strconv.Atoi(s)
	}
	path := writeOrders(b, b.TempDir(), rows)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e := mustOpen(b)
		b.StartTimer()
		_, n, err := e.LoadCSV(context.Background(), "orders", path)
		if err != nil {
			b.Fatal(err)
		}
		if n != int64(rows) {
			b.Fatalf("LoadCSV rows = %d; want %d", n, rows)
		}
		b.StopTimer()
		e.Close()
		b.StartTimer()
	}
}

// BenchmarkCheckCSV measures the Go validation pass alone.
func BenchmarkCheckCSV(b *testing.B) {
	path := writeOrders(b, b.TempDir(), 500_000)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := checkCSV(f, "orders.csv"); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}
