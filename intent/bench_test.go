package intent

import (
	"fmt"
	"strings"
	"testing"
)

// bigSchema has five text columns of 1000 values each.
func bigSchema() Schema {
	t := sales
	t.Columns = append([]Column(nil), sales.Columns...)
	for c := 0; c < 5; c++ {
		col := Column{Name: fmt.Sprintf("dim%d", c), Type: "string"}
		for v := 0; v < 1000; v++ {
			col.Values = append(col.Values, fmt.Sprintf("Value%c%d name %d", 'a'+c, v, v%7))
		}
		t.Columns = append(t.Columns, col)
	}
	return Schema{Tables: []Table{t}}
}

func BenchmarkParse(b *testing.B) {
	s := bigSchema()
	for _, bc := range []struct{ name, text string }{
		{"spec", "Analyze Q1 2021 Arizona sales; trends + charts"},
		{"long", strings.Repeat("Valuea12 nam sales Arizna quantiy ", 60)[:2000]},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Parse(bc.text, s, now); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
