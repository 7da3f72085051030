package investigate

import (
	"slices"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/drill"
)

func TestMergeLeaves(t *testing.T) {
	cube := &drill.Cube{
		Codes: [][]int32{{0, 1, 0, 1}, {0, 0, 0, 1}},
		Num0:  []float64{1, 2, 3, 4}, Num1: []float64{10, 20, 30, 40},
		Den0: []float64{1, 1, 1, 1}, Den1: []float64{2, 2, 2, 2},
	}
	mergeLeaves(cube)
	if !slices.Equal(cube.Codes[0], []int32{0, 1, 1}) || !slices.Equal(cube.Codes[1], []int32{0, 0, 1}) ||
		!slices.Equal(cube.Num0, []float64{4, 2, 4}) || !slices.Equal(cube.Num1, []float64{40, 20, 40}) ||
		!slices.Equal(cube.Den0, []float64{2, 1, 1}) || !slices.Equal(cube.Den1, []float64{4, 2, 2}) {
		t.Errorf("mergeLeaves = %+v; want leaves 0 and 2 added up, in order of their first row", cube)
	}
}

func TestSameLabels(t *testing.T) {
	now := time.Date(2024, 3, 4, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		see  func(s *sameLabels)
		want bool
	}{
		{"text values", func(s *sameLabels) { s.text(0, "a", false); s.text(0, "a", false); s.text(0, "", true) }, false},
		{"NULL beside the text (null)", func(s *sameLabels) { s.text(0, nullLabel, true); s.text(0, nullLabel, false) }, true},
		{"(null) in another dimension", func(s *sameLabels) { s.text(0, nullLabel, true); s.text(1, nullLabel, false) }, false},
		{"the same integer", func(s *sameLabels) { s.see(0, 0, int64(7)); s.see(0, 0, int64(7)); s.see(0, 1, nil); s.see(0, 1, nil) }, false},
		{"two values of one label", func(s *sameLabels) { s.see(0, 0, 1.5); s.see(0, 0, int64(2)) }, true},
		{"values == may not compare", func(s *sameLabels) { s.see(0, 0, now); s.see(0, 0, now) }, true},
	}
	for _, tt := range tests {
		s := newSameLabels(2)
		tt.see(s)
		if s.shared != tt.want {
			t.Errorf("%s: shared = %v; want %v", tt.name, s.shared, tt.want)
		}
	}
}
