package drill

import (
	"encoding/binary"
	"math"
	"testing"
)

// fuzzParts turns bytes into parts, 8 bytes each: a signed numerator and an
// unsigned denominator per period. A denominator that is a multiple of 5
// becomes 0 so that appearing and vanishing parts are common.
func fuzzParts(data []byte) []Part {
	var parts []Part
	for len(data) >= 8 {
		v := func(i int) uint16 { return binary.LittleEndian.Uint16(data[2*i:]) }
		den := func(x uint16) float64 {
			if x%5 == 0 {
				return 0
			}
			return float64(x)
		}
		parts = append(parts, Part{
			Name: "p",
			Num0: float64(int16(v(0))), Den0: den(v(1)),
			Num1: float64(int16(v(2))), Den1: den(v(3)),
		})
		data = data[8:]
	}
	return parts
}

func FuzzRatio(f *testing.F) {
	f.Add([]byte{1, 0, 10, 0, 2, 0, 10, 0, 3, 0, 20, 0, 1, 0, 5, 0}, 1.0)
	f.Add([]byte{0, 0, 0, 0, 9, 0, 7, 0, 4, 0, 3, 0, 0, 0, 0, 0}, 100.0)
	f.Add([]byte{255, 255, 1, 1, 0, 0, 0, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, 0.001)
	f.Add([]byte{}, 1.0)
	f.Fuzz(func(t *testing.T, data []byte, scale float64) {
		if math.IsNaN(scale) || math.Abs(scale) > 1e6 {
			t.Skip()
		}
		parts := fuzzParts(data)
		var rest Part
		if len(parts) > 0 {
			rest, parts = parts[len(parts)-1], parts[:len(parts)-1]
		}
		d := Ratio(parts, rest, scale)
		if err := d.Check(); err != nil {
			t.Fatalf("Ratio(%v, %v, %v).Check() = %v", parts, rest, scale, err)
		}
		if len(d.Effects) != len(parts) {
			t.Fatalf("Ratio returned %d effects for %d parts", len(d.Effects), len(parts))
		}
	})
}

func FuzzAdditive(f *testing.F) {
	f.Add([]byte{1, 0, 10, 0, 2, 0, 10, 0, 3, 0, 20, 0, 1, 0, 5, 0})
	f.Add([]byte{255, 255, 255, 127, 0, 128, 1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		parts := fuzzParts(data)
		for i := range parts {
			parts[i].Num0 *= 1e6 // totals far from the changes
		}
		d := Additive(parts, Part{Num0: 1, Num1: 2})
		if err := d.Check(); err != nil {
			t.Fatalf("Additive(%v).Check() = %v", parts, err)
		}
	})
}
