package dabench

import "testing"

// The rule is fixed: these ids are on the side their hashes put them
// (sha256 of "0" starts 5f, "1" 6b, "2" d4, "3" 4e, "5" ef), and it
// splits the ids about in half.
func TestHeldOut(t *testing.T) {
	for id, want := range map[int]bool{0: false, 1: false, 2: true, 3: true, 5: false} {
		if got := HeldOut(id); got != want {
			t.Errorf("HeldOut(%d) = %v; want %v", id, got, want)
		}
	}
	n := 0
	for id := range 1000 {
		if HeldOut(id) {
			n++
		}
	}
	if n < 450 || n > 550 {
		t.Errorf("%d of 1000 ids held out; want about half", n)
	}
}
