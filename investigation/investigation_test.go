package investigation

import (
	"testing"

	"github.com/quarry-dev/quarry"
)

func TestContextRefusesControlCharacters(t *testing.T) {
	base, _ := quarry.ParseDateRange("2024-01-01..2024-01-07")
	cmp, _ := quarry.ParseDateRange("2024-01-08..2024-01-14")
	ok := Context{MetricSQL: "SELECT SUM(amount) FROM orders", BaselinePeriod: base, ComparisonPeriod: cmp}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		code string
		set  func(c *Context)
	}{
		{quarry.ECodeInvalidMetricSQL, func(c *Context) { c.MetricSQL += "\x00 WHERE 1" }},
		{quarry.ECodeInvalid, func(c *Context) { c.BusinessContext = "a\x00b" }},
		{quarry.ECodeInvalid, func(c *Context) { c.InvestigationPrompt = "a\x07" }},
		{quarry.ECodeInvalidTimeColumn, func(c *Context) { c.TimeColumn = "orders.day\x00" }},
		{quarry.ECodeInvalidTimeColumn, func(c *Context) { c.TimeFormat = "%d/%m/%Y\x00" }},
	} {
		c := ok
		tt.set(&c)
		if err := c.Validate(); quarry.ErrorCode(err) != tt.code {
			t.Errorf("%+v: %v; want %s", c, err, tt.code)
		}
	}
}
