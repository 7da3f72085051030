package analyze_test

import (
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
