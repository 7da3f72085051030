package intent

import "github.com/quarry-dev/quarry"

// distance is quarry.EditDistance.
func distance(a, b string) int { return quarry.EditDistance(a, b) }
