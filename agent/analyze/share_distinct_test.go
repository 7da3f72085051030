package analyze_test

import (
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/analysis"
)

// A share of distinct things by a group is each group's distinct things
// over all of them: a customer who bought in two regions counts in both,
// and the shares do not add up to 100.
func TestShareOfDistinctByGroup(t *testing.T) {
	path := writeRows(t, "orders.csv", [][]string{{"order_no", "customer_id", "region", "amount"},
		{"1", "C1", "North", "10"}, {"2", "C1", "South", "20"}, {"3", "C2", "North", "5"}, {"4", "C3", "South", "7"}})
	res := runRequest(t, "share of customers by region", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s (%+v)", res.Status, res.Error)
	}
	rows := readTable(t, res, "by_region_share")
	// North: C1, C2 of C1..C3; South: C1, C3.
	if len(rows) != 3 || rows[1][1] != "2" || rows[2][1] != "2" || !strings.HasPrefix(rows[1][2], "66.6") || !strings.HasPrefix(rows[2][2], "66.6") {
		t.Errorf("rows %v; want each region 2 of the 3 customers, 66.7%%", rows)
	}
}
