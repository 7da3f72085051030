package investigate_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/investigation"
)

// eventLog writes a log of sparse events (about rate a day, Poisson) over
// days days from 2024-01-01, one row per event with a size and a cost;
// edit may change a day's events.
func eventLog(t *testing.T, days int, rate float64, seed uint64, edit func(day int, rows []string) []string) string {
	rng := rand.New(rand.NewPCG(seed, 7))
	lines := []string{"day,size,site,cost"}
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for d := range days {
		day := start.AddDate(0, 0, d).Format(time.DateOnly)
		var rows []string
		for range poissonDraw(rng, rate) {
			rows = append(rows, fmt.Sprintf("%s,%s,site%d,%d", day, []string{"small", "medium", "large"}[rng.IntN(3)], rng.IntN(12), 100+rng.IntN(900)))
		}
		if edit != nil {
			rows = edit(d, rows)
		}
		lines = append(lines, rows...)
	}
	return writeCSV(t, "events.csv", lines)
}

func poissonDraw(rng *rand.Rand, lambda float64) int {
	k, p, l := 0, rng.Float64(), math.Exp(-lambda)
	for ; p > l; p *= rng.Float64() {
		k++
	}
	return k
}

// TestShapesOfTheData: the first explanation of each shape of data an
// analyst meets, with its numbers.
func TestShapesOfTheData(t *testing.T) {
	const base, cmp = "2024-01-01..2024-02-29", "2024-03-01..2024-04-29"
	for _, tt := range []struct {
		name, metric string
		file         func(*testing.T) string
		first        string // the first explanation, "" for none
		notes        []string
	}{
		{"a sparse log with 3 events a day", "SELECT COUNT(*) FROM events", func(t *testing.T) string { return eventLog(t, 120, 3, 1, nil) }, "",
			[]string{"days without rows are sparse events, not missing data"}},
		{"a file that stops early", "SELECT COUNT(*) FROM events", func(t *testing.T) string {
			return eventLog(t, 100, 3, 2, nil) // to 2024-04-09: 20 comparison days have no rows
		}, "The data stops after 2024-04-09 (+175.6%)", nil},
		{"a real outage of 3 days in a dense series", "SELECT COUNT(*) FROM events", func(t *testing.T) string {
			return eventLog(t, 120, 60, 3, func(d int, rows []string) []string {
				if d >= 80 && d < 83 {
					return nil
				}
				return rows
			})
		}, "Days missing from the data (+78.0%)", []string{"the table has no rows on 3 of the comparison period's 60 days (2024-03-21, 2024-03-22, 2024-03-23)"}},
		{"one row of 89% of a rise", "SELECT SUM(cost) FROM events", func(t *testing.T) string {
			return eventLog(t, 120, 3, 4, func(d int, rows []string) []string {
				if d == 95 {
					rows = append(rows, "2024-04-05,large,site3,130000")
				}
				return rows
			})
		}, "One row is 89.0% of the rise: 2024-04-05, site3, large, 130,000 (+89.0%)", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			iv := runFiles(t, tt.metric, base, cmp, tt.file(t))
			got := titles(iv.res.Explanations)
			switch {
			case tt.first == "" && len(got) > 0 && iv.res.Explanations[0].Kind == investigation.KindDataQuality:
				t.Errorf("explanations %v; want no data problem", got)
			case tt.first != "" && (len(got) == 0 || got[0] != tt.first):
				t.Errorf("explanations %v; want first %q", got, tt.first)
			}
			memory := iv.read(t, "analysis/memory.md")
			for _, n := range tt.notes {
				if !strings.Contains(memory, n) {
					t.Errorf("the memory does not say %q", n)
				}
			}
		})
	}
}
