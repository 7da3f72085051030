package drill_test

import (
	"fmt"

	"github.com/quarry-dev/quarry/drill"
)

func ExampleAdditive() {
	// Orders by region: EU fell, US grew, the rest shrank a little.
	d := drill.Additive([]drill.Part{
		{Name: "region=EU", Num0: 1200, Num1: 900},
		{Name: "region=US", Num0: 2000, Num1: 2100},
	}, drill.Part{Name: "other regions", Num0: 800, Num1: 780})
	fmt.Printf("total %v -> %v (%+.0f)\n", d.Total0, d.Total1, d.Change)
	for _, e := range append(d.Effects, d.Remainder) {
		fmt.Printf("%-14s %+6.0f  share %.2f -> %.2f\n", e.Name, e.Change, e.Share0, e.Share1)
	}
	fmt.Println("adds up:", d.Check() == nil)
	// Output:
	// total 4000 -> 3780 (-220)
	// region=EU        -300  share 0.30 -> 0.24
	// region=US        +100  share 0.50 -> 0.56
	// other regions     -20  share 0.20 -> 0.21
	// adds up: true
}

func ExampleRatio() {
	// Conversion rate (in percent) by device. Both devices convert better,
	// but traffic moved to mobile, which converts worse: the mix effect
	// explains the fall.
	d := drill.Ratio([]drill.Part{
		{Name: "device=desktop", Num0: 400, Den0: 800, Num1: 110, Den1: 200},
		{Name: "device=mobile", Num0: 20, Den0: 200, Num1: 96, Den1: 800},
	}, drill.Part{}, 100)
	fmt.Printf("conversion %.1f%% -> %.1f%% (%+.1f points)\n", d.Total0, d.Total1, d.Change)
	for _, e := range d.Effects {
		fmt.Printf("%-15s %.0f%% -> %.0f%%  rate %+.1f  mix %+.1f  driver %s\n",
			e.Name, e.Value0, e.Value1, e.Rate, e.Mix, e.Driver())
	}
	fmt.Println("adds up:", d.Check() == nil)
	// Output:
	// conversion 42.0% -> 20.6% (-21.4 points)
	// device=desktop  50% -> 55%  rate +2.5  mix -12.7  driver mix
	// device=mobile   10% -> 12%  rate +1.0  mix -12.2  driver mix
	// adds up: true
}
