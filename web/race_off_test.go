//go:build !race

package web_test

// raceDetector is whether the tests run under the race detector, whose
// shadow memory multiplies a process's resident memory.
const raceDetector = false

// raceSlowdown is how many times longer the tests wait for work done in
// the background: under the race detector, parsing a large document
// takes up to 20 times as long.
const raceSlowdown = 1
