package rcabench

import (
	"reflect"
	"testing"
)

func TestParseSet(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a=a1", []string{"a=a1"}},
		{"b=b2&a=a1;c=c3", []string{"a=a1&b=b2", "c=c3"}},
		{"a=a6;d=d2;a=a6", []string{"a=a6", "d=d2"}},
		{" c=c1 & a=a2 ;", []string{"a=a2&c=c1"}},
	}
	for _, tt := range tests {
		if got := ParseSet(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseSet(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		pred, truth []string
		want        Counts
	}{
		{nil, []string{"a=a1"}, Counts{FN: 1}},
		{[]string{"a=a1"}, []string{"a=a1"}, Counts{TP: 1}},
		// A parent of the truth is a miss: one FP and one FN.
		{[]string{"a=a1"}, []string{"a=a1&b=b2"}, Counts{FP: 1, FN: 1}},
		{[]string{"b=b2&a=a1", "c=c1"}, []string{"a=a1&b=b2", "d=d1"}, Counts{TP: 1, FP: 1, FN: 1}},
		{[]string{"a=a1", "a=a1"}, []string{"a=a1"}, Counts{TP: 1}},
	}
	for _, tt := range tests {
		if got := Match(tt.pred, tt.truth); got != tt.want {
			t.Errorf("Match(%q, %q) = %+v; want %+v", tt.pred, tt.truth, got, tt.want)
		}
	}
}

func TestCountsScores(t *testing.T) {
	tests := []struct {
		c                Counts
		f1, prec, recall float64
	}{
		{Counts{}, 0, 0, 0},
		{Counts{TP: 3, FP: 1, FN: 2}, 6.0 / 9, 0.75, 0.6},
		{Counts{TP: 2}, 1, 1, 1},
	}
	for _, tt := range tests {
		if got := tt.c.F1(); got != tt.f1 {
			t.Errorf("%+v.F1() = %v; want %v", tt.c, got, tt.f1)
		}
		if got := tt.c.Precision(); got != tt.prec {
			t.Errorf("%+v.Precision() = %v; want %v", tt.c, got, tt.prec)
		}
		if got := tt.c.Recall(); got != tt.recall {
			t.Errorf("%+v.Recall() = %v; want %v", tt.c, got, tt.recall)
		}
	}
}
