package sqlite

import "testing"

func TestMatchExpr(t *testing.T) {
	tests := []struct{ in, want string }{
		{"What about Germany?", `"germany" OR "de"`},
		{`app_version=5.2 "NEAR(xy" *`, `"app_version" OR "5.2" OR "near" OR "xy"`},
		{"how did you calculate the contribution?", `"calculate" OR "contribution" OR "compute" OR "share" OR "accounts"`},
		{`"" * - ( ) OR`, ``},
	}
	for _, tt := range tests {
		if got := termsExpr(tt.in); got != tt.want {
			t.Errorf("termsExpr(%q) = %s; want %s", tt.in, got, tt.want)
		}
	}
}

func TestSearchExpr(t *testing.T) {
	tests := []struct{ scope, text, want string }{
		{"39ca1594-261d", "Germany", `scope : "39ca1594-261d" AND ("germany" OR "de")`},
		{`a"b`, "method", `scope : "a""b" AND ("method")`},
		{"---", "method", `"method"`},
		{"s", "the", ``},
	}
	for _, tt := range tests {
		if got := searchExpr(tt.scope, tt.text); got != tt.want {
			t.Errorf("searchExpr(%q, %q) = %s; want %s", tt.scope, tt.text, got, tt.want)
		}
	}
}
