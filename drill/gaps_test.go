package drill

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// gapDays returns n dates from 2024-01-01.
func gapDays(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format(time.DateOnly)
	}
	return out
}

// poisson draws n daily counts at rate lambda.
func poisson(rng *rand.Rand, n int, lambda float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		k, p := 0.0, rng.Float64()
		for l := math.Exp(-lambda); p > l; p *= rng.Float64() {
			k++
		}
		out[i] = k
	}
	return out
}

func TestClassifyGaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ds := gapDays(120)
	rowsOf := func(counts []float64) map[string]float64 {
		m := map[string]float64{}
		for i, c := range counts {
			if c > 0 {
				m[ds[i]] = c
			}
		}
		return m
	}
	dense := make([]float64, 120)
	for i := range dense {
		dense[i] = 90 + float64(i%7)*5
	}
	outage := append([]float64(nil), dense...)
	outage[50], outage[51], outage[52] = 0, 0, 0
	sparse := poisson(rng, 120, 3)
	stopped := append([]float64(nil), sparse...)
	for i := 100; i < 120; i++ {
		stopped[i] = 0
	}
	week := append([]float64(nil), sparse...)
	for i := 30; i < 40; i++ {
		week[i] = 0 // ten quiet days in a row at three a day is no chance
	}
	schedule := make([]float64, 120)
	for i := range schedule {
		schedule[i] = 1
	}
	schedule[70] = 0
	for _, tt := range []struct {
		name        string
		counts      []float64
		first, last string
		want        string
	}{
		{"a dense series with a three-day outage", outage, ds[0], ds[119], "missing 2024-02-20..2024-02-22 (3)"},
		{"sparse events", sparse, ds[0], ds[119], "quiet"},
		{"a file that stops early", stopped, ds[0], ds[99], "after 2024-04-10..2024-04-29 (20); quiet"},
		{"a file that starts late", append(make([]float64, 10), dense[10:]...), ds[10], ds[119], "before 2024-01-01..2024-01-10 (10)"},
		{"ten empty days of sparse events", week, ds[0], ds[119], "missing 2024-01-31..2024-02-09 (10); quiet"},
		{"one row a date, one date without", schedule, ds[0], ds[119], "missing 2024-03-11..2024-03-11 (1)"},
	} {
		g := ClassifyGaps(ds, rowsOf(tt.counts), tt.first, tt.last, nil)
		var got []string
		for _, part := range []struct {
			name  string
			dates []string
		}{{"before", g.Before}, {"after", g.After}, {"missing", g.Missing}} {
			if len(part.dates) > 0 {
				got = append(got, fmt.Sprintf("%s %s..%s (%d)", part.name, part.dates[0], part.dates[len(part.dates)-1], len(part.dates)))
			}
		}
		if len(g.Quiet) > 0 {
			got = append(got, "quiet")
		}
		if s := strings.Join(got, "; "); s != tt.want {
			t.Errorf("%s: ClassifyGaps = %s (rate %.2f, P(empty) %.3f, %d quiet); want %s", tt.name, s, g.Rate, g.PEmpty, len(g.Quiet), tt.want)
		}
	}
}

func TestUnlikelyFew(t *testing.T) {
	for _, tt := range []struct {
		rows, normal float64
		want         bool
	}{{1, 3, false}, {0, 3, false}, {40, 100, true}, {5, 20, true}, {12, 20, false}, {0, 0, false}} {
		if got := UnlikelyFew(tt.rows, tt.normal); got != tt.want {
			t.Errorf("UnlikelyFew(%v, %v) = %v; want %v", tt.rows, tt.normal, got, tt.want)
		}
	}
}
