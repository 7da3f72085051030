package drill

import "testing"

// TestSearchDepthFitsMemory: a cube of ten dimensions of 30 values each
// is searched to segments of 3 dimensions, whose cuboids fit; a small
// cube is searched whole.
func TestSearchDepthFitsMemory(t *testing.T) {
	wide := &Cube{}
	for d := range 10 {
		wide.Dims = append(wide.Dims, string(rune('a'+d)))
		labels := make([]string, 30)
		for v := range labels {
			labels[v] = string(rune('A' + v))
		}
		wide.Labels = append(wide.Labels, labels)
		codes := make([]int32, 5000)
		for i := range codes {
			codes[i] = int32((i*(d+7) + d) % 30)
		}
		wide.Codes = append(wide.Codes, codes)
	}
	wide.Num0, wide.Num1 = make([]float64, 5000), make([]float64, 5000)
	for i := range wide.Num0 {
		wide.Num0[i], wide.Num1[i] = 10, 10+float64(i%3)
	}
	if got := SearchDepth(wide, SearchOptions{}); got != 3 {
		t.Errorf("SearchDepth(10 dimensions of 30 values) = %d; want 3", got)
	}
	Search(wide, SearchOptions{}) // finishes within the budget
	small := &Cube{Dims: []string{"a", "b"}, Labels: [][]string{{"x", "y"}, {"u", "v"}},
		Codes: [][]int32{{0, 0, 1, 1}, {0, 1, 0, 1}}, Num0: []float64{1, 1, 1, 1}, Num1: []float64{1, 1, 1, 5}}
	if got := SearchDepth(small, SearchOptions{}); got != 2 {
		t.Errorf("SearchDepth(2 dimensions of 2 values) = %d; want 2", got)
	}
}
