package investigate

import (
	"fmt"
	"testing"
)

func TestAskedFor(t *testing.T) {
	columns := []string{"series", "platform", "customer_segment", "year", "Wildlife Size", "rate"}
	for _, tt := range []struct {
		text string
		want string
	}{
		{"Unemployment jumped in 2009 vs 2008, which industries drove it?", "[industries?]"},
		{"Which platforms fell most?", "[platforms=platform!]"},
		{"by customer segments please", "[customer segments=customer_segment!]"},
		{"Break it down by country and by Wildlife Size.", "[country? wildlife size=Wildlife Size!]"},
		{"year over year, what drove it? which is the cause?", "[year=year]"},
		{"Did the rate fall by how much, across the board?", "[rate=rate]"},
		{"Why did it drop? Check the series.", "[series=series]"},
		{"", "[]"},
	} {
		var got []string
		for _, m := range askedFor(tt.text, columns) {
			s := m.words
			if m.column != "" {
				s += "=" + m.column
			}
			switch {
			case m.column == "":
				s += "?"
			case m.asked:
				s += "!"
			}
			got = append(got, s)
		}
		if fmt.Sprint(got) != tt.want && !(len(got) == 0 && tt.want == "[]") {
			t.Errorf("askedFor(%q) = %v; want %s", tt.text, got, tt.want)
		}
	}
}

func TestSingular(t *testing.T) {
	for in, want := range map[string]string{"industries": "industry", "boxes": "box", "regions": "region", "status": "status",
		"class": "class", "branches": "branch", "series": "sery", "os": "os"} {
		if got := singular(in); got != want {
			t.Errorf("singular(%q) = %q; want %q", in, got, want)
		}
	}
}
