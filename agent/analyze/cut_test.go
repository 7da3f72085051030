package analyze

import "testing"

func TestScrubPaths(t *testing.T) {
	tests := []struct{ in, want string }{
		{`IO Error: No files found that match the pattern "/srv/quarry/data/uploads/x/sales.csv"`, `IO Error: No files found that match the pattern "sales.csv"`},
		{"open /home/ann/orders.db: permission denied", "open orders.db: permission denied"},
		{`Binder Error: Referenced column "amont" not found`, `Binder Error: Referenced column "amont" not found`},
		{"SELECT amount/100/2 FROM t", "SELECT amount/100/2 FROM t"},
		{"could not connect to postgres://db.example/x/y", "could not connect to postgres://db.example/x/y"},
	}
	for _, tt := range tests {
		if got := scrubPaths(tt.in); got != tt.want {
			t.Errorf("scrubPaths(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}
