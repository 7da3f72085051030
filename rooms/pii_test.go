package rooms_test

import (
	"testing"

	"github.com/quarry-dev/quarry/rooms"
)

func TestMaskPII(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"write to dana.reyes@northwind.example today", "write to [redacted] today"},
		{"call +1 415 555 0142 or (415) 555-0142", "call [redacted] or [redacted]"},
		{"card 4111 1111 1111 1111 on file", "card [redacted] on file"},
		{"card 4111-1111-1111-1111", "card [redacted]"},
		{"SSN 078-05-1120", "SSN [redacted]"},
		// Table rows of small numbers and years are not card numbers.
		{"Employees 12 15 18 22 25 31 40", "Employees 12 15 18 22 25 31 40"},
		{"Fiscal years 2023 2022 2021 2020", "Fiscal years 2023 2022 2021 2020"},
		{"Revenue was $23.7 million in 2023", "Revenue was $23.7 million in 2023"},
	} {
		if got := rooms.MaskPII(c.in); got != c.want {
			t.Errorf("MaskPII(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}
