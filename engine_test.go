package quarry_test

import (
	"math"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
)

func TestAsText(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want string
	}{
		{nil, ""},
		{"android", "android"},
		{int64(42), "42"},
		{0.0, "0"},
		{5.2, "5.2"},
		{-62628.0, "-62628"},
		{8894061.9, "8894061.9"},
		{947082.79, "947082.79"},
		{1.115852895e+07, "11158528.95"},
		{0.000125, "0.000125"},
		{1e-9, "1e-09"},
		{2.5e21, "2.5e+21"},
		{math.Inf(-1), "-Inf"},
		{time.Date(2024, 3, 4, 0, 0, 0, 0, time.UTC), "2024-03-04"},
		{time.Date(2024, 3, 4, 9, 30, 0, 0, time.UTC), "2024-03-04T09:30:00Z"},
	} {
		if got := quarry.AsText(tt.v); got != tt.want {
			t.Errorf("AsText(%#v) = %q; want %q", tt.v, got, tt.want)
		}
	}
}
