package analyze_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/analysis"
)

// TestACorrelationOfARatioIsNotOfItsNumerator: "the correlation between
// GDP per capita and life expectancy" is not answered with the
// correlation of GDP, the ratio's numerator, and life expectancy.
func TestACorrelationOfARatioIsNotOfItsNumerator(t *testing.T) {
	path := writeRows(t, "c.csv", [][]string{
		{"country", "gdp", "pop", "life_expect"},
		{"A", "100", "10", "60"}, {"B", "200", "40", "70"}, {"C", "300", "10", "65"}, {"D", "400", "80", "72"},
	})
	res := runRequest(t, "What is the correlation between GDP per capita and life expectancy?", path)
	if res.Status == analysis.StatusCompleted {
		t.Errorf("completed (plan: %s); want it not answered with the correlation of gdp", res.Plan.Reasoning)
	}
}

// TestEveryMeasureOfABreakdownIsAColumn: "total sales and average profit
// by store" is one table with both per store, ranked by the first; the
// summary speaks of the column the table is ranked by.
func TestEveryMeasureOfABreakdownIsAColumn(t *testing.T) {
	path := writeRows(t, "stores.csv", [][]string{
		{"store", "sales", "profit"},
		{"A", "100", "50"}, {"A", "300", "10"}, {"B", "150", "40"}, {"B", "350", "20"}, {"C", "50", "90"},
	})
	res := runRequest(t, "total sales and average profit by store", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s; want completed", res.Status)
	}
	got := readTable(t, res, "by_store")
	want := [][]string{{"store", "sales", "avg_profit"}, {"B", "500", "30"}, {"A", "400", "30"}, {"C", "50", "90"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("by_store = %v; want %v", got, want)
	}
	if !strings.Contains(res.Summary, "B leads with sales 500") {
		t.Errorf("summary %q; want it to lead with B's sales", res.Summary)
	}
}
