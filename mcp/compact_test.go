package mcp

import (
	"testing"

	"github.com/quarry-dev/quarry/investigation"
)

// TestCompactSignificance: the compact report states significance as the
// report does: never "significant" for q above 0.05.
func TestCompactSignificance(t *testing.T) {
	q := func(v float64) *float64 { return &v }
	tests := []struct {
		e    investigation.Explanation
		want string
	}{
		{investigation.Explanation{Kind: investigation.KindRate, PValue: q(0.0004), Significant: true}, "significant, q=0.0004"},
		{investigation.Explanation{Kind: investigation.KindRate, PValue: q(0.217), Significant: true}, "not significant, q=0.217"},
		{investigation.Explanation{Kind: investigation.KindDataQuality, PValue: q(0.404), Significant: false}, "not significant, kept as a data problem, q=0.404"},
		{investigation.Explanation{Kind: investigation.KindDataQuality, Significant: true}, "no test needed (found by counting, not by a test)"},
		{investigation.Explanation{Kind: investigation.KindCalendar, Significant: true}, "no test needed (found by counting, not by a test)"},
		{investigation.Explanation{Kind: investigation.KindUniform, Significant: true}, "significant"},
	}
	for _, tt := range tests {
		if got := significance(tt.e); got != tt.want {
			t.Errorf("significance(%s, q=%v, %v) = %q; want %q", tt.e.Kind, tt.e.PValue, tt.e.Significant, got, tt.want)
		}
	}
}
