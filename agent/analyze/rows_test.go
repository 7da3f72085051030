package analyze_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/quarry-dev/quarry/analysis"
)

// TestTheCheapestRowIsShown: "the cheapest car with power steering" is
// that car with its price, and a table beside it is ordered cheapest
// first, so that no step leads with the dearest.
func TestTheCheapestRowIsShown(t *testing.T) {
	path := writeRows(t, "cars.csv", [][]string{
		{"model", "price", "power_steering", "mpg"},
		{"Civic", "20000", "yes", "35"}, {"Fit", "15000", "no", "40"},
		{"Accord", "25000", "yes", "30"}, {"Beetle", "12000", "no", "33"},
	})
	e := newEnv(t)
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: "What is the cheapest car with power steering?",
		DataSources:  []analysis.DataSource{csvSource(path)},
		Deliverables: []string{analysis.DeliverTables, analysis.DeliverCharts, analysis.DeliverSummary}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s; want completed", res.Status)
	}
	want := [][]string{{"model", "price", "power_steering", "mpg"}, {"Civic", "20000", "yes", "35"}}
	if got := readTable(t, res, "top_rows"); !reflect.DeepEqual(got, want) {
		t.Errorf("top_rows = %v; want %v", got, want)
	}
	for _, a := range res.Artifacts {
		if a.ArtifactType != analysis.ArtifactTable || a.TaskID == "top_rows" || a.TaskID == "totals" {
			continue
		}
		if got := readTable(t, res, a.TaskID); len(got) > 1 && got[1][0] != "Civic" {
			t.Errorf("%s leads with %v; want Civic, the cheapest", a.TaskID, got[1])
		}
	}
}

// TestAnOrdersValueOverItsLines: the average order value is each order's
// lines, price times quantity, added up, then averaged over the orders.
func TestAnOrdersValueOverItsLines(t *testing.T) {
	path := writeRows(t, "lines.csv", [][]string{
		{"order_id", "qty", "unit_price", "region"},
		{"1", "2", "10", "N"}, {"1", "1", "4", "N"}, {"2", "1", "5", "S"}, {"3", "3", "2", "N"},
	})
	res := runRequest(t, "average order value by region", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s; want completed", res.Status)
	}
	// N: orders 1 (24) and 3 (6): 15; S: order 2: 5.
	want := [][]string{{"region", "unit_price_x_qty_per_order_id"}, {"N", "15"}, {"S", "5"}}
	if got := readTable(t, res, "by_region"); !reflect.DeepEqual(got, want) {
		t.Errorf("by_region = %v; want %v", got, want)
	}
}
