package rcabench

import "testing"

func TestHeldOut(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"robustspot_RS/cases/rs001.csv", false},                        // SHA-256 starts 0x33
		{"robustspot_RS/cases/rs002.csv", false},                        // 0x05
		{"squeeze_B0/B_cuboid_layer_1_n_ele_1/1451019300.csv.gz", true}, // 0x8a
		{"riskloc_S/344495.csv.gz", true},                               // 0xbe
	}
	for _, tt := range tests {
		if got := HeldOut(Case{Path: tt.path}); got != tt.want {
			t.Errorf("HeldOut(%q) = %v; want %v", tt.path, got, tt.want)
		}
	}
}
