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
