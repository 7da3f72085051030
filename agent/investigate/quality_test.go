package investigate_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestValueDaysOfColumnsNamedLikeItsAliases: the quality check reads the
// days per value of every dimension in one query, whose grouping sets
// must group by the dimensions even when a table's columns are named
// like the query's own columns (day, g, v0). A value missing on the
// last days of the comparison is found in the dimension called day.
func TestValueDaysOfColumnsNamedLikeItsAliases(t *testing.T) {
	lines := []string{"order_date,day,g,v0,amount"}
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for d := range 60 {
		date := start.AddDate(0, 0, d).Format(time.DateOnly)
		for i := range 30 {
			day := []string{"x", "y", "z"}[i%3]
			if day == "z" && d >= 55 {
				continue
			}
			lines = append(lines, fmt.Sprintf("%s,%s,%s,%s,%d", date, day, []string{"p", "q"}[i%2], []string{"m", "n", "o", "r", "s"}[i%5], 10+i))
		}
	}
	iv := runFiles(t, "SELECT SUM(amount) FROM orders", "2024-01-01..2024-01-30", "2024-01-31..2024-02-29", writeCSV(t, "orders.csv", lines))
	out, err := json.Marshal(iv.res)
	if err != nil {
		t.Fatal(err)
	}
	const want = "day=z has no rows on 5 of the comparison period's 30 days"
	if !strings.Contains(string(out), want) {
		t.Errorf("the result does not say %q; explanations: %v", want, titles(iv.res.Explanations))
	}
}
